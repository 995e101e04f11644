//! Cards laid on the top throw after it was made: the thrower's slap-down and the other
//! players' add-ons. RULES.md interpretation 5: both windows close when the next throw is
//! made; players who add on do not draw; an emptied hand ends the round where the rules
//! say so.

use crate::cards::{Card, Cards};
use crate::rules::SlapDown;

use super::super::error::GameError;
use super::super::event::{AddedOn, Event, Seat, SlappedDown};
use super::super::piles::Laying;
use super::super::scoring::RoundEnding;
use super::super::state::{Game, Stage};

impl Game {
    pub(super) fn decide_slap(&self, seat: Seat, card: Card) -> Result<Vec<Event>, GameError> {
        let rules = self.rules_in_round()?;
        self.check_seat(seat)?;
        if rules.slap_down == SlapDown::Off {
            return Err(GameError::SlapNotAllowed("these rules have no slap-down"));
        }
        if !self.window_open() || self.round.top_thrower != Some(seat) {
            return Err(GameError::SlapNotAllowed(
                "only the player who just threw may slap down, before the next throw",
            ));
        }
        if self.round.slap_card != Some(card) {
            return Err(GameError::SlapNotAllowed(
                "only the card just drawn can be slapped down, once",
            ));
        }
        if !self.round.hands[seat as usize].contains(card) {
            return Err(GameError::CardNotInHand { card });
        }
        if self.lay_target(&[card], Laying::Slap).is_none() {
            return Err(GameError::SlapNotAllowed(
                "the card neither matches the top card's rank nor extends the run past its top card",
            ));
        }
        let events = vec![Event::SlappedDown(SlappedDown { seat, card })];
        Ok(self.end_if_emptied(events, seat, 1))
    }

    pub(super) fn decide_add_on(&self, seat: Seat, cards: &Cards) -> Result<Vec<Event>, GameError> {
        let rules = self.rules_in_round()?;
        self.check_seat(seat)?;
        if !rules.add_ons.any() {
            return Err(GameError::AddOnNotAllowed("these rules have no add-ons"));
        }
        let Some(thrower) = self.round.top_thrower.filter(|_| self.window_open()) else {
            return Err(GameError::AddOnNotAllowed(
                "there is no throw to add on to now",
            ));
        };
        if seat == thrower {
            return Err(GameError::AddOnNotAllowed(
                "the thrower slaps down; add-ons are for the other players",
            ));
        }
        if self.closed_caller() == Some(seat) {
            return Err(GameError::AddOnNotAllowed("the caller's hand is closed"));
        }
        let own_turn = seat == self.round.turn
            && matches!(self.round.stage, Stage::Playing | Stage::LastTurns { .. });
        if own_turn && !rules.add_ons.in_own_turn {
            return Err(GameError::AddOnNotAllowed("not in your own turn"));
        }
        if let Err(card) = { self.round.hands[seat as usize] }.remove_all(cards.as_slice()) {
            return Err(GameError::CardNotInHand { card });
        }
        if self.lay_target(cards.as_slice(), Laying::AddOn).is_none() {
            return Err(GameError::AddOnNotAllowed(
                "the cards neither complete the set to exactly four nor extend the run past its top card",
            ));
        }
        let events = vec![Event::AddedOn(AddedOn {
            seat,
            cards: *cards,
        })];
        Ok(self.end_if_emptied(events, seat, cards.len()))
    }

    /// Belgian rule 7: "De ronde eindigt onmiddellijk wanneer een speler al zijn/haar
    /// kaarten kwijt is."
    fn end_if_emptied(&self, events: Vec<Event>, seat: Seat, laid: usize) -> Vec<Event> {
        let emptied = self.round.hands[seat as usize].len() == laid;
        let ends = self
            .rules
            .as_deref()
            .is_some_and(|r| r.round_ends_on_empty_hand);
        if emptied && ends {
            self.then_end_round(events, RoundEnding::EmptyHand { seat })
        } else {
            events
        }
    }
}
