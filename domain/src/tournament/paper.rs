//! Paper tables entered round by round: who called (or whose hand emptied) and every hand
//! total; the scores follow from the rules, as TOURNAMENT.md asks ("the server computes
//! the scores by the rules").
//!
//! # Why this file scores rounds itself
//!
//! The engine scores a round from the *cards* in the hands (`game/scoring/`), and its
//! scoring steps are private to `game/`: there is no public entry point that scores a
//! round from hand totals. A referee's sheet has totals, not cards, and cards cannot be
//! invented honestly (decks hold few zero-point cards, hand sizes vary, the Belgian
//! going-along needs played turns). So this file applies the same steps to totals:
//! points by the way the round ended (`game/scoring/resolution.rs`), reductions and the
//! successful-call bonus (`totals.rs`), eliminations and the end of the game (`end.rs`);
//! the final standings come from the engine's public [`crate::game::standings`].
//!
//! It reads every parameter from the same [`Rules`] and is held equal to the engine by a
//! differential test (`domain/tests/tournament_paper.rs`): the `round_ended.v1` events of
//! thousands of bot games under all six presets, turned into paper rounds, must score to
//! the same points, reductions, bonuses, totals, eliminations and standings. When the
//! engine exposes a public "score a round from hand totals" function (proposed:
//! `game::scoring::score_round(rules, ending, hand_totals, order, state)`), this file
//! should call it and keep only the validation.

use serde::{Deserialize, Serialize};

use crate::game::{
    Bonus, Event as GameEvent, MAX_PLAYERS, Outcome, Reduction, Seat, Standing, standings,
};
use crate::rules::{
    AssafOthers, AssafPenalty, CallResolution, GameEnd, OverThresholdCall, Reductions, Rules,
};

/// One round as written on a referee's sheet.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PaperRound {
    pub ending: PaperEnding,
    /// Per seat, the hand shown at the end; `null` for seats out of the game.
    pub hand_totals: Vec<Option<u32>>,
}

/// How the round ended. Seats index the table's players in the direction of play.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum PaperEnding {
    /// `caller` called. `declared`: the players who went along (Belgian going-along) or
    /// challenged (Kluft Onderkluft); empty under immediate resolution and for a call above
    /// the threshold.
    Call {
        caller: Seat,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        declared: Vec<Seat>,
    },
    /// `seat`'s hand became empty (rules where that ends the round).
    EmptyHand { seat: Seat },
}

/// What the rules made of one paper round (the fields of `round_ended.v1` that scoring
/// decides).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PaperRoundScore {
    pub outcome: Outcome,
    /// Per seat, what the round added before reductions; `null` for seats out.
    pub points: Vec<Option<u32>>,
    /// Every seat's total after the round.
    pub totals: Vec<u32>,
    pub reductions: Vec<Reduction>,
    pub bonuses: Vec<Bonus>,
    pub eliminated: Vec<Seat>,
}

/// A paper game being scored round by round.
#[derive(Debug, Clone)]
pub struct PaperGame {
    rules: Rules,
    seats: usize,
    totals: [u32; MAX_PLAYERS],
    eliminated_in: [Option<u32>; MAX_PLAYERS],
    successful_calls: [u16; MAX_PLAYERS],
    rounds: u32,
    finished: bool,
}

impl PaperGame {
    /// A game of `seats` players (2 to 8) under `rules`, all totals at zero.
    pub fn new(rules: &Rules, seats: usize) -> Result<PaperGame, String> {
        if !(2..=MAX_PLAYERS).contains(&seats) {
            return Err(format!(
                "a game seats 2 to {MAX_PLAYERS} players, not {seats}"
            ));
        }
        Ok(PaperGame {
            rules: rules.clone(),
            seats,
            totals: [0; MAX_PLAYERS],
            eliminated_in: [None; MAX_PLAYERS],
            successful_calls: [0; MAX_PLAYERS],
            rounds: 0,
            finished: false,
        })
    }

    pub fn is_finished(&self) -> bool {
        self.finished
    }

    pub fn totals(&self) -> &[u32] {
        &self.totals[..self.seats]
    }

    /// Standings now, by the engine's rule (final once the game is over).
    pub fn standings(&self) -> Vec<Standing> {
        standings(
            &self.rules,
            self.totals(),
            &self.eliminated_in[..self.seats],
        )
    }

    fn active(&self, seat: Seat) -> bool {
        (seat as usize) < self.seats && self.eliminated_in[seat as usize].is_none()
    }

    /// Scores one round, or says what is wrong with it (nothing changes then).
    pub fn score(&mut self, round: &PaperRound) -> Result<PaperRoundScore, String> {
        if self.finished {
            return Err("the game is already over".into());
        }
        let hands = self.check_hands(round)?;
        let rules = &self.rules;
        let (reference, ending) = match &round.ending {
            PaperEnding::Call { caller, declared } => {
                let caller = *caller;
                if !self.active(caller) {
                    return Err(format!("seat {caller} is not in the game"));
                }
                let mut mask = 0u8;
                for &s in declared {
                    if s == caller || !self.active(s) || mask & (1 << s) != 0 {
                        return Err(format!("seat {s} cannot declare here"));
                    }
                    mask |= 1 << s;
                }
                let within = rules
                    .call_threshold
                    .is_none_or(|t| hands[caller as usize] <= t as u32);
                let ending = if !within {
                    if rules.over_threshold_call == OverThresholdCall::Refused {
                        return Err(format!(
                            "seat {caller} called with {}, above the threshold, which these rules refuse",
                            hands[caller as usize]
                        ));
                    }
                    if mask != 0 {
                        return Err("nobody declares after a call above the threshold".into());
                    }
                    Ending::FalseCall
                } else {
                    match rules.call_resolution {
                        CallResolution::Immediate { .. } if mask != 0 => {
                            return Err(
                                "these rules show all hands at once: nobody declares".into()
                            );
                        }
                        CallResolution::Immediate { .. } => Ending::Immediate,
                        CallResolution::GoAlong { .. } => Ending::GoAlong(mask),
                        CallResolution::Kluft { .. } => Ending::Kluft(mask),
                    }
                };
                (caller, ending)
            }
            PaperEnding::EmptyHand { seat } => {
                let seat = *seat;
                if !rules.round_ends_on_empty_hand {
                    return Err("under these rules an empty hand does not end the round".into());
                }
                if !self.active(seat) || hands[seat as usize] != 0 {
                    return Err(format!("seat {seat} did not empty their hand"));
                }
                (seat, Ending::EmptyHand)
            }
        };
        // Everyone in the round, from the reference's left round to the reference.
        let order: Vec<Seat> = (1..=self.seats)
            .map(|i| ((reference as usize + i) % self.seats) as Seat)
            .filter(|&s| self.active(s))
            .collect();
        let (outcome, points) = resolve(rules, ending, reference, &hands, &order);
        let mut totals = self.totals;
        for &s in &order {
            totals[s as usize] += points[s as usize];
        }
        let reductions = reduce(rules, &order, &points, &mut totals);
        let caller = (ending != Ending::EmptyHand).then_some(reference);
        let bonuses = call_bonus(
            rules,
            caller,
            outcome,
            order.len(),
            &self.successful_calls,
            &mut totals,
        );
        let (eliminated, finished) = settle(rules, &order, &totals);

        self.rounds += 1;
        self.totals = totals;
        for &s in &eliminated {
            self.eliminated_in[s as usize] = Some(self.rounds);
        }
        if matches!(outcome, Outcome::Yaniv | Outcome::Kluft)
            && let Some(c) = caller
        {
            self.successful_calls[c as usize] += 1;
        }
        self.finished = finished;
        Ok(PaperRoundScore {
            outcome,
            points: (0..self.seats)
                .map(|s| order.contains(&(s as Seat)).then_some(points[s]))
                .collect(),
            totals: totals[..self.seats].to_vec(),
            reductions,
            bonuses,
            eliminated,
        })
    }

    fn check_hands(&self, round: &PaperRound) -> Result<[u32; MAX_PLAYERS], String> {
        if round.hand_totals.len() != self.seats {
            return Err(format!(
                "{} hand totals for {} seats",
                round.hand_totals.len(),
                self.seats
            ));
        }
        let v = &self.rules.card_values;
        let highest = [10, v.jack, v.queen, v.king, v.king_of_hearts, v.joker]
            .into_iter()
            .max()
            .unwrap_or(10) as u32;
        let most = highest * self.rules.hand_size as u32;
        let mut hands = [0; MAX_PLAYERS];
        for (seat, total) in round.hand_totals.iter().enumerate() {
            match (self.active(seat as Seat), total) {
                (true, Some(t)) if *t <= most => hands[seat] = *t,
                (true, Some(t)) => {
                    return Err(format!(
                        "seat {seat}: a hand cannot total {t} (at most {most})"
                    ));
                }
                (true, None) => {
                    return Err(format!("seat {seat} is in the game: give its hand total"));
                }
                (false, Some(_)) => {
                    return Err(format!("seat {seat} is out of the game: its total is null"));
                }
                (false, None) => {}
            }
        }
        Ok(hands)
    }
}

/// What a referee's sheet says of a game played through the engine: per round how it
/// ended (caller and declarations, or the emptied hand) and the hands shown. Used to enter
/// online or simulated games as paper rounds, and by the differential test.
pub fn paper_rounds(events: &[GameEvent]) -> Vec<PaperRound> {
    let mut rounds = Vec::new();
    let mut declared = Vec::new();
    for event in events {
        match event {
            GameEvent::RoundDealt(_) => declared.clear(),
            GameEvent::WentAlong(e) if e.going => declared.push(e.seat),
            GameEvent::OnderkluftDeclared(e) if e.challenged => declared.push(e.seat),
            GameEvent::RoundEnded(e) => {
                let ending = match (e.outcome, e.caller, e.winner) {
                    (Outcome::EmptyHand, _, Some(seat)) => PaperEnding::EmptyHand { seat },
                    (_, Some(caller), _) => PaperEnding::Call {
                        caller,
                        declared: std::mem::take(&mut declared),
                    },
                    _ => continue,
                };
                rounds.push(PaperRound {
                    ending,
                    hand_totals: e.hand_totals.clone(),
                });
            }
            _ => {}
        }
    }
    rounds
}

/// Scores a whole paper game; the game must end with its last round. Errors carry the
/// index of the round at fault.
pub fn score_paper_game(
    rules: &Rules,
    seats: usize,
    rounds: &[PaperRound],
) -> Result<(Vec<PaperRoundScore>, Vec<Standing>), (usize, String)> {
    let mut game = PaperGame::new(rules, seats).map_err(|e| (0, e))?;
    let mut scores = Vec::with_capacity(rounds.len());
    for (i, round) in rounds.iter().enumerate() {
        scores.push(game.score(round).map_err(|e| (i, e))?);
    }
    if !game.is_finished() {
        return Err((
            rounds.len(),
            "the game is not over after the last round".into(),
        ));
    }
    Ok((scores, game.standings()))
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Ending {
    Immediate,
    FalseCall,
    GoAlong(u8),
    Kluft(u8),
    EmptyHand,
}

/// Points of the round per seat (as `game/scoring/resolution.rs`).
fn resolve(
    rules: &Rules,
    ending: Ending,
    reference: Seat,
    hands: &[u32; MAX_PLAYERS],
    order: &[Seat],
) -> (Outcome, [u32; MAX_PLAYERS]) {
    let hand = |s: Seat| hands[s as usize];
    let mut points = [0u32; MAX_PLAYERS];
    for &s in order {
        points[s as usize] = hand(s);
    }
    let lowest = |candidates: &mut dyn Iterator<Item = Seat>| -> Option<Seat> {
        candidates.fold(None, |best: Option<Seat>, s| match best {
            Some(b) if hand(b) <= hand(s) => Some(b),
            _ => Some(s),
        })
    };
    let caller = reference;
    match ending {
        Ending::Immediate => {
            let CallResolution::Immediate { penalty, others } = rules.call_resolution else {
                return (Outcome::Yaniv, points);
            };
            let beaten_by: Vec<Seat> = order
                .iter()
                .copied()
                .filter(|&s| s != caller && rules.beats_caller(hand(s), hand(caller)))
                .collect();
            if beaten_by.is_empty() {
                points[caller as usize] = 0;
                return (Outcome::Yaniv, points);
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
            points[caller as usize] = hand(caller) + extra;
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
            (Outcome::Assaf, points)
        }
        Ending::FalseCall => {
            points[caller as usize] = match rules.over_threshold_call {
                OverThresholdCall::HandPlus { points } => hand(caller) + points as u32,
                OverThresholdCall::PlusLeftNeighbourHand { points } => {
                    points as u32 + order.first().map_or(0, |&s| hand(s))
                }
                OverThresholdCall::Refused => hand(caller),
            };
            (Outcome::FalseCall, points)
        }
        Ending::GoAlong(going) => {
            let penalty = match rules.call_resolution {
                CallResolution::GoAlong { penalty } => penalty as u32,
                _ => 0,
            };
            let mut caller_points = 0;
            for &s in order
                .iter()
                .filter(|&&s| s != caller && going & (1 << s) != 0)
            {
                if rules.beats_caller(hand(s), hand(caller)) {
                    points[s as usize] = 0;
                    caller_points += penalty;
                } else {
                    points[s as usize] = penalty;
                }
            }
            points[caller as usize] = caller_points;
            let outcome = if caller_points == 0 {
                Outcome::Yaniv
            } else {
                Outcome::Assaf
            };
            (outcome, points)
        }
        Ending::Kluft(challengers) => {
            let penalty = match rules.call_resolution {
                CallResolution::Kluft { penalty } => penalty as u32,
                _ => 0,
            };
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
            let outcome = if winner == caller {
                Outcome::Kluft
            } else {
                Outcome::Onderkluft
            };
            (outcome, points)
        }
        Ending::EmptyHand => {
            points[reference as usize] = 0;
            (Outcome::EmptyHand, points)
        }
    }
}

/// Reductions on exact totals, once per round, for players who scored (as
/// `game/scoring/totals.rs`).
fn reduce(
    rules: &Rules,
    order: &[Seat],
    points: &[u32; MAX_PLAYERS],
    totals: &mut [u32; MAX_PLAYERS],
) -> Vec<Reduction> {
    let mut reductions = Vec::new();
    for &seat in order {
        if points[seat as usize] == 0 {
            continue;
        }
        let total = &mut totals[seat as usize];
        let reduced = match &rules.reductions {
            Reductions::None => None,
            Reductions::Exact(table) => table
                .iter()
                .find(|[from, _]| from == total)
                .map(|[_, to]| *to),
            Reductions::MultiplesOf { step, minus } => {
                (*total > 0 && total.is_multiple_of(*step)).then(|| *total - minus)
            }
        };
        if let Some(to) = reduced {
            reductions.push(Reduction {
                seat,
                from: *total,
                to,
            });
            *total = to;
        }
    }
    reductions
}

/// The successful-call bonus (as `game/scoring/totals.rs`).
fn call_bonus(
    rules: &Rules,
    caller: Option<Seat>,
    outcome: Outcome,
    players_in_round: usize,
    successes: &[u16; MAX_PLAYERS],
    totals: &mut [u32; MAX_PLAYERS],
) -> Vec<Bonus> {
    let (Some(bonus), Some(caller)) = (rules.successful_call_bonus, caller) else {
        return Vec::new();
    };
    if !matches!(outcome, Outcome::Yaniv | Outcome::Kluft) || players_in_round <= 2 {
        return Vec::new();
    }
    let count = successes[caller as usize] as u32 + 1;
    if !count.is_multiple_of(bonus.calls as u32) {
        return Vec::new();
    }
    let total = &mut totals[caller as usize];
    let minus = bonus.minus.min(*total);
    *total -= minus;
    vec![Bonus {
        seat: caller,
        minus,
    }]
}

/// Eliminations and the end of the game (as `game/scoring/end.rs`).
fn settle(rules: &Rules, players: &[Seat], totals: &[u32; MAX_PLAYERS]) -> (Vec<Seat>, bool) {
    let over = |limit: u32, at_limit: bool, seat: Seat| {
        let total = totals[seat as usize];
        total > limit || at_limit && total == limit
    };
    match rules.game_end {
        GameEnd::Elimination { limit, at_limit } => {
            let mut eliminated: Vec<Seat> = players
                .iter()
                .copied()
                .filter(|&s| over(limit, at_limit, s))
                .collect();
            if eliminated.len() == players.len() {
                let lowest = players
                    .iter()
                    .map(|&s| totals[s as usize])
                    .min()
                    .unwrap_or(0);
                eliminated.retain(|&s| totals[s as usize] != lowest);
            }
            let finished = players.len() - eliminated.len() <= 1;
            (eliminated, finished)
        }
        GameEnd::LowestWins { limit, at_limit } => (
            Vec::new(),
            players.iter().any(|&s| over(limit, at_limit, s)),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Preset;

    fn call(caller: Seat, hands: &[u32]) -> PaperRound {
        PaperRound {
            ending: PaperEnding::Call {
                caller,
                declared: Vec::new(),
            },
            hand_totals: hands.iter().map(|&h| Some(h)).collect(),
        }
    }

    #[test]
    fn israeli_yaniv_and_assaf() {
        let mut g = PaperGame::new(&Preset::Israeli.rules(), 3).expect("a game");
        let s = g.score(&call(0, &[3, 20, 12])).expect("a valid round");
        assert_eq!(s.outcome, Outcome::Yaniv);
        assert_eq!(s.points, vec![Some(0), Some(20), Some(12)]);
        let s = g.score(&call(1, &[2, 4, 9])).expect("a valid round");
        assert_eq!(s.outcome, Outcome::Assaf);
        // pagat: the caller scores hand + 30.
        assert_eq!(s.totals, vec![2, 54, 21]);
    }

    #[test]
    fn bad_rounds_are_refused_and_change_nothing() {
        let mut g = PaperGame::new(&Preset::Israeli.rules(), 3).expect("a game");
        assert!(
            g.score(&call(0, &[9, 20, 12]))
                .is_err_and(|e| e.contains("threshold"))
        );
        assert!(g.score(&call(0, &[3, 20])).is_err());
        assert!(g.score(&call(5, &[3, 20, 12])).is_err());
        assert!(
            g.score(&call(0, &[3, 99, 12]))
                .is_err_and(|e| e.contains("at most 50"))
        );
        assert_eq!(g.totals(), &[0, 0, 0]);
    }

    #[test]
    fn belgian_game_ends_above_150() {
        let rules = Preset::Belgian.rules();
        let rounds: Vec<PaperRound> = (0..4).map(|_| call(0, &[5, 45, 30])).collect();
        let (scores, standings) = score_paper_game(&rules, 3, &rounds).expect("a finished game");
        assert_eq!(scores.len(), 4);
        assert_eq!(standings[0].seat, 0);
        assert!(score_paper_game(&rules, 3, &rounds[..1]).is_err_and(|(i, _)| i == 1));
    }
}
