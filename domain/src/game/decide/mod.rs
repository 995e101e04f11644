//! `decide`: a command and the current state in, new events (or the reason for refusal)
//! out. One file per kind of command:
//!
//! - `setup.rs`: creating the table and dealing rounds.
//! - `play.rs`: a turn (throw, then draw) and the stock reshuffle it may trigger.
//! - `sevens.rs`: the draws a turn forces on the others under the Sevens bonus rule.
//! - `pinata.rs`: the card a three sets aside, or takes, under the Piñata bonus rule.
//! - `crazy_queens.rs`: the swap a queen makes its thrower choose under Crazy queens.
//! - `double_edged_sword.rs`: the re-deal a black eight causes under that bonus rule.
//! - `call.rs`: calling Yaniv or Kluft, within or above the threshold.
//! - `out_of_turn.rs`: slap-downs and add-ons.
//! - `declare.rs`: going along (Belgian) and Onderkluft (Kluft) declarations.
//! - `waterfall.rs`: a straight passed round the table under the Waterfall bonus rule.
//! - `fifths_disease.rs`: a pile killed with the five of diamonds (Fifths Disease).

mod call;
mod crazy_queens;
mod declare;
mod double_edged_sword;
mod fifths_disease;
mod out_of_turn;
mod pinata;
mod play;
mod setup;
mod sevens;
mod waterfall;

use crate::rules::Rules;

use super::command::Command;
use super::error::GameError;
use super::event::{Event, Seat};
use super::scoring::RoundEnding;
use super::state::{Game, Stage};

/// What a record names for the bonus effects of a turn's throw or a slapped card: the
/// same four fields in `Command::Play` and `Command::Slap`, nothing in other commands.
fn named_by_record(command: &Command) -> play::NamedByRecord<'_> {
    match command {
        Command::Play {
            forced,
            pinata,
            redealt,
            queen_taken,
            ..
        }
        | Command::Slap {
            forced,
            pinata,
            redealt,
            queen_taken,
            ..
        } => play::NamedByRecord {
            forced,
            pinata: *pinata,
            redealt,
            queen_taken: *queen_taken,
        },
        _ => play::NamedByRecord::default(),
    }
}

impl Game {
    /// Decides `command` against the current state. Nothing changes until the caller
    /// folds the returned events with [`Game::apply`].
    pub fn decide(&self, command: &Command) -> Result<Vec<Event>, GameError> {
        match command {
            Command::Create {
                rules,
                players,
                initial_totals,
            } => self.decide_create(rules, players, initial_totals),
            Command::Deal { starter, source } => self.decide_deal(*starter, source),
            Command::Play { .. } => {
                let mut events = Vec::with_capacity(1);
                self.decide_into(command, &mut events)?;
                Ok(events)
            }
            Command::Call { seat, call } => self.decide_call(*seat, *call),
            Command::Slap {
                seat, card, queen, ..
            } => self.decide_slap(*seat, *card, *queen, named_by_record(command)),
            Command::AddOn { seat, cards } => self.decide_add_on(*seat, cards),
            Command::GoAlong { seat, going } => self.decide_go_along(*seat, *going),
            Command::Onderkluft { seat, challenge } => self.decide_onderkluft(*seat, *challenge),
            Command::Waterfall { seat, cards } => self.decide_waterfall(*seat, cards),
            Command::WaterfallPick { seat, card } => self.decide_waterfall_pick(*seat, *card),
            Command::KillPile { seat, size } => self.decide_kill_pile(*seat, *size),
        }
    }

    /// [`Game::decide`], appending the events to `out` (left as it was on refusal). A turn
    /// is decided without allocating, which keeps bot simulations and checked replays off
    /// the heap on their commonest command.
    pub fn decide_into(&self, command: &Command, out: &mut Vec<Event>) -> Result<(), GameError> {
        match command {
            Command::Play {
                seat,
                throw,
                draw,
                queen,
                ..
            } => self.decide_play_into(*seat, throw, *draw, *queen, named_by_record(command), out),
            other => {
                out.extend(self.decide(other)?);
                Ok(())
            }
        }
    }

    /// The rules, if a round is being played; the common guard of every in-round command.
    fn rules_in_round(&self) -> Result<&Rules, GameError> {
        let rules = self.rules.as_deref().ok_or(GameError::NotCreated)?;
        if self.finished.is_some() {
            return Err(GameError::GameOver);
        }
        if !self.round.in_progress {
            return Err(GameError::WrongPhase("no round is being played"));
        }
        Ok(rules)
    }

    fn check_seat(&self, seat: Seat) -> Result<(), GameError> {
        if seat as usize >= self.seat_count() {
            return Err(GameError::NoSuchSeat(seat));
        }
        if !self.is_active(seat) {
            return Err(GameError::SeatEliminated(seat));
        }
        Ok(())
    }

    /// Whether cards may still be laid on the top throw: from its throw until the next
    /// throw, a Kluft call, the first going-along declaration, or a waterfall or a pile
    /// killed (each begins the next turn).
    pub(crate) fn window_open(&self) -> bool {
        self.round.in_progress
            && self.round.top_thrower.is_some()
            && !self.round.waterfall_passed
            && !self.round.pile_killed
            && match self.round.stage {
                Stage::Playing | Stage::LastTurns { .. } => true,
                Stage::GoingAlong { declared, .. } => declared == 0,
                Stage::Kluft { .. } | Stage::Waterfall { .. } => false,
            }
    }

    /// The caller whose hand is closed while the others finish the round.
    fn closed_caller(&self) -> Option<Seat> {
        match self.round.stage {
            Stage::Playing | Stage::Waterfall { .. } => None,
            Stage::LastTurns { caller, .. }
            | Stage::GoingAlong { caller, .. }
            | Stage::Kluft { caller, .. } => Some(caller),
        }
    }

    /// `events`, followed by the end of the round they lead to.
    fn then_end_round(&self, mut events: Vec<Event>, ending: RoundEnding) -> Vec<Event> {
        let mut after = self.clone();
        for e in &events {
            after.apply(e);
        }
        events.extend(after.round_end_events(ending));
        events
    }
}
