//! Cards laid on the top throw after it was made: the thrower's slap-down and the other
//! players' add-ons. RULES.md interpretation 5: both windows close when the next throw is
//! made; players who add on do not draw; an emptied hand ends the round where the rules
//! say so.

use crate::cards::{Card, Cards};
use crate::rules::SlapDown;

use super::super::command::QueenSwap;
use super::super::error::GameError;
use super::super::event::{AddedOn, Event, Seat, SlappedDown};
use super::super::piles::Laying;
use super::super::scoring::RoundEnding;
use super::super::state::{Game, Stage};
use super::play::NamedByRecord;

impl Game {
    /// House Rules: "he can then play that card right away as long as the next player
    /// has not begun her turn. This play is called a slap-down." Where slap-downs play,
    /// the card then sets off the bonus rules as a thrown one does, right after the
    /// slap, with the slapper's `queen` choice and what a paper record `named`.
    pub(super) fn decide_slap(
        &self,
        seat: Seat,
        card: Card,
        queen: Option<QueenSwap>,
        named: NamedByRecord,
    ) -> Result<Vec<Event>, GameError> {
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
        let mut events = vec![Event::SlappedDown(SlappedDown { seat, card })];
        if self.slap_downs_play {
            let slapped: Cards = std::iter::once(card).collect();
            self.push_played_card_effects(seat, &slapped, queen, named, &mut events, 0)?;
        } else if queen.is_some() || named != NamedByRecord::default() {
            return Err(GameError::SlapNotAllowed(
                "in this game a slapped card sets off no bonus rule: it names no swap, \
                 forced draws, piñata or re-deal",
            ));
        }
        Ok(self.end_if_emptied(events, seat))
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
        if let Some(card) = self.round.hands[seat as usize].first_missing(cards.as_slice()) {
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
        Ok(self.end_if_emptied(events, seat))
    }

    /// Belgian rule 7: "De ronde eindigt onmiddellijk wanneer een speler al zijn/haar
    /// kaarten kwijt is." Judged once what the laid cards set off is done (a piñata or
    /// a re-deal may have given the hand cards again).
    fn end_if_emptied(&self, mut events: Vec<Event>, seat: Seat) -> Vec<Event> {
        let ends = self
            .rules
            .as_deref()
            .is_some_and(|r| r.round_ends_on_empty_hand);
        if !ends {
            return events;
        }
        let after = self.folded_with(&events);
        if after.round.hands[seat as usize].is_empty() {
            events.extend(after.round_end_events(RoundEnding::EmptyHand { seat }));
        }
        events
    }
}
