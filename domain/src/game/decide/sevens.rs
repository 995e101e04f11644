//! Sevens, a House Rules bonus rule: "When a player plays any 7 card, all other players
//! must draw a card from the top of the deck. In the event that multiple 7s are played
//! (two, three, or four of-a-kind, etc.), a card is drawn for each seven played. The
//! same rule applies if a straight containing a seven is played."
//!
//! Our readings (docs/rules.md): natural sevens in a turn's throw count; the others draw
//! in seating order from the thrower's left, each all of their cards before the next;
//! the caller whose hand is closed draws nothing; a drawn-out stock is reshuffled as
//! after any draw, and when nothing is left to reshuffle the remaining draws lapse; a
//! hand has no limit, but in a game created before that reading
//! ([`GameCreated::hands_uncapped`](super::super::event::GameCreated) absent) a hand
//! of [`MAX_CARDS`](crate::cards::MAX_CARDS) draws no more.

use crate::cards::{Card, Cards};
use crate::rules::BonusRule;

use super::super::error::GameError;
use super::super::event::{Event, ForcedToDraw, Seat};
use super::super::state::{Game, Stage};

impl Game {
    /// Appends the draws `seat`'s `throw` forces on the others, after the turn's events
    /// `events[turn..]` (`after`: the game after them, when already folded). `named` are the cards a record gives for them: required when
    /// the stock has no order (a round dealt on paper), checked against the stock's
    /// order otherwise. Answers the game after them, when a draw was forced.
    pub(super) fn push_forced_draws(
        &self,
        seat: Seat,
        throw: &Cards,
        named: &[Card],
        events: &mut Vec<Event>,
        turn: usize,
        after: Option<Game>,
    ) -> Result<Option<Game>, GameError> {
        let sevens = throw.iter().filter(|c| c.rank() == 7).count();
        let applies = self
            .rules
            .as_deref()
            .is_some_and(|r| r.has_bonus(BonusRule::Sevens));
        if !applies || sevens == 0 {
            if named.is_empty() {
                return Ok(after);
            }
            return Err(GameError::CardNotAvailable(
                "this throw forces no draws: it needs a seven under the sevens rule".into(),
            ));
        }
        let mut after = after.unwrap_or_else(|| self.folded_with(&events[turn..]));
        let ordered = after.round.stock_ordered;
        let mut given = named.iter().copied();
        let mut drawn = 0usize;
        'drawers: for drawer in self.forced_drawers(seat) {
            for _ in 0..sevens {
                if !after.takes_a_card(drawer) {
                    break;
                }
                let card = match (ordered, given.next()) {
                    (true, named) => {
                        let Some(&top) = after.round.stock.last() else {
                            break 'drawers;
                        };
                        if named.is_some_and(|card| card != top) {
                            return Err(forced_mismatch(drawn));
                        }
                        top
                    }
                    (false, Some(card)) if after.round.stock.contains(&card) => card,
                    (false, Some(card)) => {
                        return Err(GameError::CardNotAvailable(format!(
                            "{card} cannot be in the stock for a forced draw: every copy is \
                             accounted for elsewhere"
                        )));
                    }
                    (false, None) if after.round.stock.is_empty() => break 'drawers,
                    (false, None) => {
                        return Err(GameError::CardNotAvailable(
                            "the round was dealt on paper: the record names every card the \
                             sevens force the others to draw"
                                .into(),
                        ));
                    }
                };
                let event = Event::ForcedToDraw(ForcedToDraw { seat: drawer, card });
                after.apply(&event);
                events.push(event);
                drawn += 1;
                after.reshuffle_if_emptied(events);
            }
        }
        if !named.is_empty() && named.len() != drawn {
            return Err(forced_mismatch(drawn));
        }
        Ok(Some(after))
    }

    /// Who draws when `seat` throws sevens: every other seat still in the game, in
    /// seating order from `seat`'s left, but the caller whose hand is closed.
    fn forced_drawers(&self, seat: Seat) -> Vec<Seat> {
        let closed = match self.round.stage {
            Stage::LastTurns { caller, .. } => Some(caller),
            _ => None,
        };
        let n = self.seat_count() as Seat;
        (1..n)
            .map(|i| (seat + i) % n)
            .filter(|&s| self.is_active(s) && Some(s) != closed)
            .collect()
    }
}

fn forced_mismatch(drawn: usize) -> GameError {
    GameError::CardNotAvailable(format!(
        "the forced draws named are not the {drawn} cards on top of the stock, in order"
    ))
}
