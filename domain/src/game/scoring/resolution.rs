//! The points of a round, for each way a round ends.

use crate::rules::{AssafOthers, AssafPenalty, CallResolution, OverThresholdCall, Rules};

use super::super::event::{MAX_PLAYERS, Outcome, Seat};

/// How a round ends, with what decides its scores. Seats index the game's players.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RoundEnding {
    /// A call within the threshold, shown at once.
    Immediate {
        caller: Seat,
    },
    /// A call above the threshold where the rules allow one.
    FalseCall {
        caller: Seat,
    },
    /// Belgian going-along: `going` is a seat bitmask.
    GoAlong {
        caller: Seat,
        going: u8,
    },
    /// Kluft: `challengers` (Onderkluft) is a seat bitmask.
    Kluft {
        caller: Seat,
        challengers: u8,
    },
    EmptyHand {
        seat: Seat,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Resolved {
    pub outcome: Outcome,
    pub points: [u32; MAX_PLAYERS],
    /// The round's winner: the successful caller, the lowest hand that beat the caller,
    /// the winning Kluft caller or challenger, whose hand emptied, or after a false call
    /// the lowest of the others. Ties go to the first from the caller's left.
    pub winner: Seat,
}

/// `hands`: hand totals per seat; `order`: the players of the round from the caller's
/// (or emptied hand's) left round to that player.
pub(super) fn resolve(
    rules: &Rules,
    ending: RoundEnding,
    hands: &[u32; MAX_PLAYERS],
    order: &[Seat],
) -> Resolved {
    let hand = |seat: Seat| hands[seat as usize];
    let mut points = [0u32; MAX_PLAYERS];
    for &seat in order {
        points[seat as usize] = hand(seat);
    }
    // The first of `candidates` (in `order`) with the lowest hand.
    let lowest = |candidates: &mut dyn Iterator<Item = Seat>| -> Option<Seat> {
        candidates.fold(None, |best: Option<Seat>, s| match best {
            Some(b) if hand(b) <= hand(s) => Some(b),
            _ => Some(s),
        })
    };
    match ending {
        RoundEnding::Immediate { caller } => {
            let CallResolution::Immediate { penalty, others } = rules.call_resolution else {
                unreachable!("an immediate ending comes from the immediate resolution")
            };
            let caller_hand = hand(caller);
            let beaten_by: Vec<Seat> = order
                .iter()
                .copied()
                .filter(|&s| s != caller && rules.beats_caller(hand(s), caller_hand))
                .collect();
            if beaten_by.is_empty() {
                // pagat: "the caller scores 0 points, and the other players score however
                // many points they have in their hands."
                points[caller as usize] = 0;
                return Resolved {
                    outcome: Outcome::Yaniv,
                    points,
                    winner: caller,
                };
            }
            let count = beaten_by.len() as u32;
            let extra = match penalty {
                AssafPenalty::HandPlus { points } => points as u32,
                AssafPenalty::HandPlusPerAssaf { single, .. } if count == 1 => single as u32,
                AssafPenalty::HandPlusPerAssaf { each, .. } => each as u32 * count,
                AssafPenalty::HandPlusFirstAndFurther { first, further } => {
                    first as u32 + further as u32 * (count - 1)
                }
            };
            points[caller as usize] = caller_hand + extra;
            let winner = lowest(&mut beaten_by.iter().copied()).unwrap_or(caller);
            match others {
                AssafOthers::Hands => {}
                AssafOthers::Zero => order
                    .iter()
                    .filter(|&&s| s != caller)
                    .for_each(|&s| points[s as usize] = 0),
                AssafOthers::AtOrBelowCallerZero => {
                    beaten_by.iter().for_each(|&s| points[s as usize] = 0)
                }
                AssafOthers::LowestZero => beaten_by
                    .iter()
                    .filter(|&&s| hand(s) == hand(winner))
                    .for_each(|&s| points[s as usize] = 0),
            }
            Resolved {
                outcome: Outcome::Assaf,
                points,
                winner,
            }
        }
        RoundEnding::FalseCall { caller } => {
            points[caller as usize] = match rules.over_threshold_call {
                OverThresholdCall::HandPlus { points } => hand(caller) + points as u32,
                // Belgian rule 6 / RULES.md interpretation 4: 32 + the left neighbour's hand.
                OverThresholdCall::PlusLeftNeighbourHand { points } => {
                    points as u32 + order.first().map_or(0, |&s| hand(s))
                }
                OverThresholdCall::Refused => hand(caller),
            };
            let winner =
                lowest(&mut order.iter().copied().filter(|&s| s != caller)).unwrap_or(caller);
            Resolved {
                outcome: Outcome::FalseCall,
                points,
                winner,
            }
        }
        RoundEnding::GoAlong { caller, going } => {
            let penalty = match rules.call_resolution {
                CallResolution::GoAlong { penalty } => penalty as u32,
                _ => 0,
            };
            // RULES.md interpretation 3: the caller scores 32 per going-along player whose
            // hand is equal or lower; such a player scores 0, a higher one 32; players who
            // do not go along score their hand.
            let mut caller_points = 0;
            let mut beaten_by = Vec::new();
            for &s in order
                .iter()
                .filter(|&&s| s != caller && going & (1 << s) != 0)
            {
                if rules.beats_caller(hand(s), hand(caller)) {
                    points[s as usize] = 0;
                    caller_points += penalty;
                    beaten_by.push(s);
                } else {
                    points[s as usize] = penalty;
                }
            }
            points[caller as usize] = caller_points;
            let winner = lowest(&mut beaten_by.iter().copied()).unwrap_or(caller);
            Resolved {
                outcome: if caller_points == 0 {
                    Outcome::Yaniv
                } else {
                    Outcome::Assaf
                },
                points,
                winner,
            }
        }
        RoundEnding::Kluft {
            caller,
            challengers,
        } => {
            let penalty = match rules.call_resolution {
                CallResolution::Kluft { penalty } => penalty as u32,
                _ => 0,
            };
            // pagat: "the winner is whichever of the callers has the lowest hand value ...
            // In case of a tie for lowest the earliest caller wins."
            let callers: Vec<Seat> = std::iter::once(caller)
                .chain(
                    order
                        .iter()
                        .copied()
                        .filter(|&s| s != caller && challengers & (1 << s) != 0),
                )
                .collect();
            let winner = lowest(&mut callers.iter().copied()).unwrap_or(caller);
            for &s in &callers {
                points[s as usize] = if s == winner { 0 } else { hand(s) + penalty };
            }
            Resolved {
                outcome: if winner == caller {
                    Outcome::Kluft
                } else {
                    Outcome::Onderkluft
                },
                points,
                winner,
            }
        }
        RoundEnding::EmptyHand { seat } => {
            points[seat as usize] = 0;
            Resolved {
                outcome: Outcome::EmptyHand,
                points,
                winner: seat,
            }
        }
    }
}
