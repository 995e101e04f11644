//! Waterfall, a House Rules bonus rule: "At the beginning of his or her turn, if a
//! player has an unsuited straight that contains as many cards as there are players in
//! the game (i.e. a straight of four in a four player game, three in a three player
//! game, etc.), they can pass those cards to the player on his or her left. That player
//! then chooses which card he or she wants and passes the remaining cards from the
//! straight to the next player and so on until the player who initiated the waterfall
//! ends up with the last remaining card. That player then begins his or her normal
//! turn."
//!
//! Our readings (docs/rules.md): "the players in the game" are those still in it; a
//! straight is natural cards of consecutive ranks (aces where the rules' runs put
//! them), at least three, so a two-player game has no waterfall; it may be started only
//! before anything else in the turn, and not in the Belgian last turns; the cards go
//! round in seating order from the initiator's left whatever the direction of play;
//! each player sees only the cards passed to them; a player holding the most cards a
//! hand may hold cannot take one, so no waterfall starts then.

use crate::cards::{Card, Cards};
use crate::combos::{for_each_unsuited_straight, is_unsuited_straight};
use crate::rules::BonusRule;

use super::super::error::GameError;
use super::super::event::{Event, Seat, WaterfallPicked, WaterfallStarted};
use super::super::state::{Game, Stage};

/// The shortest straight a waterfall passes: a run's length in every preset.
pub const SHORTEST_WATERFALL: usize = 3;

fn refuse<T>(why: impl Into<String>) -> Result<T, GameError> {
    Err(GameError::WaterfallNotAllowed(why.into()))
}

impl Game {
    /// How many cards a waterfall passes in this game, if the rules have waterfalls and
    /// enough players are left for one.
    pub fn waterfall_length(&self) -> Option<usize> {
        let rules = self.rules.as_deref()?;
        if !rules.has_bonus(BonusRule::Waterfall) {
            return None;
        }
        let players = (0..self.seat_count() as Seat)
            .filter(|&s| self.is_active(s))
            .count();
        (players >= SHORTEST_WATERFALL).then_some(players)
    }

    /// Whether `seat` may start a waterfall now (with some straight of its hand): its
    /// turn, nothing done in it yet, the ordinary turns of the round, and every other
    /// player able to take a card.
    pub fn may_start_waterfall(&self, seat: Seat) -> bool {
        let round = &self.round;
        self.waterfall_length().is_some()
            && round.in_progress
            && self.finished.is_none()
            && round.stage == Stage::Playing
            && round.turn == seat
            && round.turn_fresh
            && !round.waterfall_passed
            && !round.killed_in_turn
            && (0..self.seat_count() as Seat)
                .filter(|&s| s != seat && self.is_active(s))
                .all(|s| self.takes_a_card(s))
    }

    /// Calls `found` with every straight `seat` may pass as a waterfall now.
    pub fn for_each_waterfall(&self, seat: Seat, found: impl FnMut(&Cards)) {
        if let (Some(rules), Some(length)) = (self.rules.as_deref(), self.waterfall_length())
            && self.may_start_waterfall(seat)
        {
            let hand = &self.round.hands[seat as usize];
            for_each_unsuited_straight(hand.as_slice(), length, rules.ace, found);
        }
    }

    /// Whose turn it is to keep a card of a waterfall, and the cards passed to them.
    pub fn waterfall_offer(&self) -> Option<(Seat, Cards)> {
        match self.round.stage {
            Stage::Waterfall { next, left, .. } if self.round.in_progress => Some((next, left)),
            _ => None,
        }
    }

    pub(super) fn decide_waterfall(
        &self,
        seat: Seat,
        cards: &Cards,
    ) -> Result<Vec<Event>, GameError> {
        let rules = self.rules_in_round()?;
        self.check_seat(seat)?;
        let Some(length) = self.waterfall_length() else {
            return refuse(if rules.has_bonus(BonusRule::Waterfall) {
                "a waterfall needs at least three players in the game"
            } else {
                "these rules have no waterfall"
            });
        };
        if self.round.turn != seat
            || !matches!(self.round.stage, Stage::Playing | Stage::LastTurns { .. })
        {
            return Err(GameError::NotYourTurn {
                expected: self.to_act().unwrap_or(self.round.turn),
            });
        }
        if !self.may_start_waterfall(seat) {
            return refuse(if self.round.stage != Stage::Playing {
                "no waterfall in the last turns after a call"
            } else if self.round.waterfall_passed {
                "one waterfall per turn: this turn has had its waterfall"
            } else if !self.round.turn_fresh {
                "a waterfall starts a turn, before anything else in it"
            } else {
                "a player who holds the most cards a hand may hold cannot take one"
            });
        }
        if let Some(card) = self.round.hands[seat as usize].first_missing(cards.as_slice()) {
            return Err(GameError::CardNotInHand { card });
        }
        if cards.len() != length || !is_unsuited_straight(cards.as_slice(), rules.ace) {
            return refuse(format!(
                "a waterfall passes a straight of {length} cards (one per player), whatever their suits"
            ));
        }
        Ok(vec![Event::WaterfallStarted(WaterfallStarted {
            seat,
            to: self.next_active(seat),
            cards: *cards,
        })])
    }

    pub(super) fn decide_waterfall_pick(
        &self,
        seat: Seat,
        card: Card,
    ) -> Result<Vec<Event>, GameError> {
        self.rules_in_round()?;
        self.check_seat(seat)?;
        let Stage::Waterfall {
            initiator,
            next,
            left,
        } = self.round.stage
        else {
            return refuse("no waterfall is going round");
        };
        if seat != next {
            return Err(GameError::NotYourTurn { expected: next });
        }
        let mut passed = left;
        if !passed.remove(card) {
            return refuse(format!("{card} is not among the cards passed to you"));
        }
        let to = self.next_active(seat);
        debug_assert!(to != initiator || passed.len() == 1);
        Ok(vec![Event::WaterfallPicked(WaterfallPicked {
            seat,
            card,
            to,
            passed,
        })])
    }
}
