//! Calling: "call (Yaniv/Jhyap/Kluft) at the start of the turn if the hand total is at or
//! under the threshold" (RULES.md common ground), and how the call resolves.

use crate::rules::{CallResolution, OverThresholdCall};

use super::super::error::GameError;
use super::super::event::{CallKind, Called, Event, Seat};
use super::super::scoring::RoundEnding;
use super::super::state::{Game, Stage};

impl Game {
    pub(super) fn decide_call(&self, seat: Seat, call: CallKind) -> Result<Vec<Event>, GameError> {
        let within_threshold = self.check_call(seat, call)?;
        let events = vec![Event::Called(Called { seat, call })];
        if !within_threshold {
            return Ok(self.then_end_round(events, RoundEnding::FalseCall { caller: seat }));
        }
        let rules = self.rules_in_round()?;
        Ok(match rules.call_resolution {
            CallResolution::Immediate { .. } => {
                self.then_end_round(events, RoundEnding::Immediate { caller: seat })
            }
            CallResolution::GoAlong { .. } | CallResolution::Kluft { .. } => events,
        })
    }

    /// Whether `decide` accepts this call now, without deciding how the round ends (no
    /// clone of the game, no allocation): the check behind `legal_actions` and bots.
    pub(crate) fn call_allowed(&self, seat: Seat, call: CallKind) -> bool {
        // The commonest refusal, a hand above the threshold, without formatting its message.
        let refused_above = self
            .rules
            .as_deref()
            .is_some_and(|r| r.over_threshold_call == OverThresholdCall::Refused);
        if refused_above && !self.call_within_threshold(seat) {
            return false;
        }
        self.check_call(seat, call).is_ok()
    }

    /// Every check of a call, in the order `decide` makes them. `Ok(true)` for a call
    /// within the threshold, `Ok(false)` for one above it that the rules accept.
    fn check_call(&self, seat: Seat, call: CallKind) -> Result<bool, GameError> {
        let rules = self.rules_in_round()?;
        self.check_seat(seat)?;
        let round = &self.round;
        match round.stage {
            Stage::Playing => {}
            Stage::LastTurns { .. } => {
                // Belgian: "Zij mogen geen Yaniv roepen in deze ronde."
                return Err(GameError::CallNotAllowed(
                    "nobody may call again in this round".into(),
                ));
            }
            Stage::GoingAlong { .. } | Stage::Kluft { .. } => {
                return Err(GameError::CallNotAllowed(
                    "the round has already been called".into(),
                ));
            }
            Stage::Waterfall { .. } => {
                return Err(GameError::CallNotAllowed(
                    "a waterfall is going round: its starter calls, if at all, once it is back"
                        .into(),
                ));
            }
        }
        if seat != round.turn {
            // pagat: "you cannot call Yaniv when it is not your turn."
            return Err(GameError::NotYourTurn {
                expected: round.turn,
            });
        }
        let expected = match rules.call_resolution {
            CallResolution::Kluft { .. } => CallKind::Kluft,
            _ => CallKind::Yaniv,
        };
        if call != expected {
            return Err(GameError::CallNotAllowed(format!(
                "these rules call {}",
                if expected == CallKind::Kluft {
                    "kluft"
                } else {
                    "yaniv"
                }
            )));
        }
        let hand = &round.hands[seat as usize];
        // A player left with no cards has nothing to throw; calling is their turn (a
        // project decision for rules where an empty hand does not end the round).
        if !hand.is_empty() {
            if !round.turn_fresh && !rules.add_ons.call_after_own_add_on {
                return Err(GameError::CallNotAllowed(
                    "you added on in this turn: a call must be the first thing in a turn".into(),
                ));
            }
            if rules.call_after_full_lap && (round.turns_played as usize) < self.active_count() {
                return Err(GameError::CallNotAllowed(
                    "not before every player has had one turn in this round".into(),
                ));
            }
        }
        if !self.call_within_threshold(seat) {
            let total = rules.hand_total(hand.as_slice());
            return match rules.over_threshold_call {
                OverThresholdCall::Refused => Err(GameError::CallNotAllowed(format!(
                    "your hand totals {total}, above the threshold of {}",
                    rules.call_threshold.unwrap_or_default()
                ))),
                OverThresholdCall::HandPlus { .. }
                | OverThresholdCall::PlusLeftNeighbourHand { .. } => Ok(false),
            };
        }
        Ok(true)
    }
}
