//! Fifths Disease, a House Rules bonus rule: "When Cell Division is in effect, before a
//! player's normal turn, he or she can play the 5 of diamonds on an any pile other than
//! the original discard pile to kill the action on that pile. Once the 5 of diamonds is
//! played on a pile, players can no longer play on it or draw from it for the rest of
//! the round."
//!
//! Our readings (docs/rules.md): only a pile that exists can be killed; once per turn,
//! before anything else in it but a waterfall, in the ordinary turns and the Belgian
//! last turns alike; the player keeps at least one card to throw; the kill begins the
//! turn, so it closes the window on the throw before it; a dead pile's cards stay on
//! it, out of every reshuffle, until the round ends. "The player's normal turn now
//! begins", so a kill must leave the player a throw with a card to draw after it: under
//! Osmosis, with the stock out and nothing below the piles to reshuffle, the killed
//! pile may be the only one whose top still holds a card.

use crate::cards::Card;
use crate::rules::BonusRule;

use super::super::error::GameError;
use super::super::event::{Event, PileKilled, Seat};
use super::super::state::{Game, Stage};

fn refuse<T>(why: impl Into<String>) -> Result<T, GameError> {
    Err(GameError::PileKillNotAllowed(why.into()))
}

impl Game {
    /// Whether `seat` may kill a pile now (some pile): its turn, nothing done in it yet,
    /// no pile killed in it, the five of diamonds and another card in hand.
    pub fn may_kill_pile(&self, seat: Seat) -> bool {
        let round = &self.round;
        let hand = || self.hand(seat);
        self.rules
            .as_deref()
            .is_some_and(|r| r.has_bonus(BonusRule::FifthsDisease))
            && round.in_progress
            && self.finished.is_none()
            && matches!(round.stage, Stage::Playing | Stage::LastTurns { .. })
            && round.turn == seat
            && round.turn_fresh
            && !round.killed_in_turn
            && hand().contains(Card::FIVE_OF_DIAMONDS)
            && hand().len() > 1
    }

    /// The sizes of the piles `seat` may kill now, smallest first.
    pub fn killable_piles(&self, seat: Seat) -> impl Iterator<Item = u8> + '_ {
        let may = self.may_kill_pile(seat);
        self.round
            .piles
            .live()
            .filter(move |p| may && p.size > 1 && self.turn_follows_kill(seat, p.size))
            .map(|p| p.size)
    }

    /// Whether, once `seat` killed the pile of `size`, its turn still has a throw it can
    /// draw after. A single card can always be thrown and its pile never dies, so the
    /// other sizes only matter when a single has nothing to draw.
    fn turn_follows_kill(&self, seat: Seat, size: u8) -> bool {
        let after = self.folded_with(&[Event::PileKilled(PileKilled { seat, size })]);
        if after.throw_size_playable(1) {
            return true;
        }
        let mut playable = false;
        after.for_each_playable_throw(seat, |_| playable = true);
        playable
    }

    pub(super) fn decide_kill_pile(&self, seat: Seat, size: u8) -> Result<Vec<Event>, GameError> {
        let rules = self.rules_in_round()?;
        self.check_seat(seat)?;
        if !rules.has_bonus(BonusRule::FifthsDisease) {
            return refuse("these rules have no Fifths Disease");
        }
        let round = &self.round;
        if !matches!(round.stage, Stage::Playing | Stage::LastTurns { .. }) {
            return refuse("a pile is killed before one's turn, while the turns are played");
        }
        if seat != round.turn {
            return Err(GameError::NotYourTurn {
                expected: round.turn,
            });
        }
        if !round.turn_fresh || round.killed_in_turn {
            return refuse("a pile is killed before anything else in the turn, once");
        }
        let hand = &round.hands[seat as usize];
        if !hand.contains(Card::FIVE_OF_DIAMONDS) {
            return Err(GameError::CardNotInHand {
                card: Card::FIVE_OF_DIAMONDS,
            });
        }
        if hand.len() < 2 {
            return refuse("the five of diamonds is your last card: you keep one to throw");
        }
        if size == 1 {
            return refuse("the original discard pile cannot be killed");
        }
        match round.piles.get(size) {
            None => refuse(format!("there is no pile of {size}-card throws yet")),
            Some(pile) if pile.dead => {
                refuse(format!("the pile of {size}-card throws is dead already"))
            }
            Some(_) if !self.turn_follows_kill(seat, size) => refuse(format!(
                "killing the pile of {size}-card throws would leave you no throw with a card \
                 to draw: the stock is out and no other pile has one"
            )),
            Some(_) => Ok(vec![Event::PileKilled(PileKilled { seat, size })]),
        }
    }
}
