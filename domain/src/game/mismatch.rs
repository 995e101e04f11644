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
    // The play's follow-ups, as `command_behind` reads them.
    events[at + 1..]
        .iter()
        .take_while(|e| e.follows_a_play())
        .position(|e| matches!(e, Event::QueenSwapped(_)))
        .map_or(at, |offset| at + 1 + offset)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::{Cards, card};
    use crate::game::event::{Draw, ForcedToDraw, PinataSetAside, QueenSwapped, TurnPlayed};

    fn forced(seat: u8, code: &str) -> Event {
        Event::ForcedToDraw(ForcedToDraw {
            seat,
            card: card(code),
        })
    }

    #[test]
    fn a_forced_draw_or_a_pinata_off_another_card_is_a_card_not_available() {
        let refused = stored_event_refused(&forced(2, "10H"), &forced(2, "2C"));
        assert_eq!(refused.code(), "card_not_available");
        let aside = |code| Event::PinataSetAside(PinataSetAside { card: card(code) });
        assert_eq!(
            stored_event_refused(&aside("8S"), &aside("2C")).code(),
            "card_not_available"
        );
    }

    #[test]
    fn a_forced_draw_by_another_seat_is_another_follow_up() {
        let refused = stored_event_refused(&forced(2, "10H"), &forced(3, "10H"));
        assert_eq!(refused.code(), "event_mismatch");
    }

    #[test]
    fn a_refused_swap_is_named_at_its_queen_swapped_event() {
        let turn = Event::TurnPlayed(TurnPlayed {
            seat: 2,
            thrown: ["QC"].into_iter().map(card).collect::<Cards>(),
            draw: Draw::Stock(card("JC")),
        });
        let swapped = Event::QueenSwapped(QueenSwapped {
            seat: 2,
            target: 2,
            swap: 1,
            given: card("KH"),
            taken: card("5D"),
        });
        let events = [turn.clone(), forced(3, "4D"), swapped, turn];
        let swap_refused = GameError::QueenSwapNotAllowed("the target is another player".into());
        assert_eq!(refused_at(0, &swap_refused, &events), 2);
        // Any other refusal of the play stays with the play.
        let not_held = GameError::CardNotInHand { card: card("QC") };
        assert_eq!(refused_at(0, &not_held, &events), 0);
        // A swap refused with no swap stored: the play is where it is missing.
        assert_eq!(refused_at(3, &swap_refused, &events), 3);
    }
}
