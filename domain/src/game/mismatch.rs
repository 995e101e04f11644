//! What a replay names when a stored event is not the one the rules decide
//! (docs/verification.md sections 6 and 24): the same finding, at the same event, as a
//! verifier that re-derives the round without the rules engine.

use super::error::GameError;
use super::event::Event;

/// The refusal of a stored event `stored` where the rules produce `expected`. A forced
/// draw or a piñata set aside is a stock draw: by the seat it is owed to, another card
/// than the stock's top is a card not available, as in a turn's draw. Any other
/// difference is a follow-up the rules did not write.
pub(super) fn stored_event_refused(expected: &Event, stored: &Event) -> GameError {
    match (expected, stored) {
        (Event::ForcedToDraw(owed), Event::ForcedToDraw(drawn))
            if owed.seat == drawn.seat && owed.card != drawn.card =>
        {
            GameError::CardNotAvailable(format!(
                "seat {} was forced to draw {}, but the top card of the stock is {}",
                drawn.seat, drawn.card, owed.card
            ))
        }
        (Event::PinataSetAside(owed), Event::PinataSetAside(aside)) if owed.card != aside.card => {
            GameError::CardNotAvailable(format!(
                "{} was set aside as the piñata, but the top card of the stock is {}",
                aside.card, owed.card
            ))
        }
        _ => GameError::EventMismatch(format!(
            "the rules produce a different {} here than the stored {}",
            expected.type_name(),
            stored.type_name()
        )),
    }
}

/// The index a refusal of the command behind `events[at]` is named at. A swap the
/// rules refuse (its target, the card given) is refused where the swap is stored: the
/// `queen_swapped.v1` among the play's follow-ups, not the play itself.
pub(super) fn refused_at(at: usize, error: &GameError, events: &[Event]) -> usize {
    if !matches!(error, GameError::QueenSwapNotAllowed(_)) {
        return at;
    }
    super::caused(&events[at + 1..])
        .position(|e| matches!(e, Event::QueenSwapped(_)))
        .map_or(at, |offset| at + 1 + offset)
}
