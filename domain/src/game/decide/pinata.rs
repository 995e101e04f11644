//! Piñata, a House Rules bonus rule: "When an 3 is played, a card from the top of the
//! deck is set aside, face down. The next player to play an 3 picks up the card."
//!
//! Our readings (docs/rules.md): a turn's throw holding natural threes plays "a 3",
//! once however many it holds; with no card set aside it sets the top of the stock
//! aside (nothing when the stock is out), and with one set aside it takes that card
//! instead of setting another aside; a card still aside when the round ends belongs to
//! nobody. A hand has no limit, but in a game created before that reading a hand of
//! [`MAX_CARDS`](crate::cards::MAX_CARDS) takes none.

use crate::cards::{Card, Cards};
use crate::rules::BonusRule;

use super::super::error::GameError;
use super::super::event::{Event, PinataSetAside, PinataTaken, Seat};
use super::super::state::Game;

impl Game {
    /// Appends what `seat`'s `throw` does with the piñata, after the turn's events
    /// `events[turn..]` (`after`: the game after them, when already folded). `named` is
    /// the card set aside as a record gives it: required when the stock has no order (a
    /// round dealt on paper), checked against the stock's top otherwise. Answers the
    /// game after them, when the piñata moved.
    pub(super) fn push_pinata(
        &self,
        seat: Seat,
        throw: &Cards,
        named: Option<Card>,
        events: &mut Vec<Event>,
        turn: usize,
        after: Option<Game>,
    ) -> Result<Option<Game>, GameError> {
        let applies = self
            .rules
            .as_deref()
            .is_some_and(|r| r.has_bonus(BonusRule::Pinata));
        if !applies || !throw.iter().any(|c| c.rank() == 3) {
            if named.is_some() {
                return Err(GameError::CardNotAvailable(
                    "this throw sets no piñata aside: it needs a three under the pinata rule"
                        .into(),
                ));
            }
            return Ok(after);
        }
        let mut after = after.unwrap_or_else(|| self.folded_with(&events[turn..]));
        if let Some(card) = after.round.pinata {
            if named.is_some() {
                return Err(GameError::CardNotAvailable(
                    "this three takes the piñata already set aside: it sets none aside".into(),
                ));
            }
            if after.takes_a_card(seat) {
                let event = Event::PinataTaken(PinataTaken { seat, card });
                after.apply(&event);
                events.push(event);
            }
            return Ok(Some(after));
        }
        let card = match (after.round.stock_ordered, named) {
            (_, None) if after.round.stock.is_empty() => return Ok(Some(after)),
            (true, named) => {
                let top = after.round.stock.last().copied();
                match (top, named) {
                    (Some(top), Some(card)) if card != top => {
                        return Err(GameError::CardNotAvailable(format!(
                            "the piñata is the top card of the stock, not {card}"
                        )));
                    }
                    (Some(top), _) => top,
                    (None, _) => {
                        return Err(GameError::CardNotAvailable(
                            "the stock is out: no piñata is set aside".into(),
                        ));
                    }
                }
            }
            (false, Some(card)) if after.round.stock.contains(&card) => card,
            (false, Some(card)) => {
                return Err(GameError::CardNotAvailable(format!(
                    "{card} cannot be in the stock to be set aside: every copy is accounted \
                     for elsewhere"
                )));
            }
            (false, None) => {
                return Err(GameError::CardNotAvailable(
                    "the round was dealt on paper: the record names the card the three sets \
                     aside (\"pinata\")"
                        .into(),
                ));
            }
        };
        let event = Event::PinataSetAside(PinataSetAside { card });
        after.apply(&event);
        events.push(event);
        after.reshuffle_if_emptied(events);
        Ok(Some(after))
    }
}
