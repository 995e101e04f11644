//! Paper tables entered round by round: who called (or whose hand emptied) and every hand
//! total; the scores follow from the rules, as TOURNAMENT.md asks ("the server computes
//! the scores by the rules").
//!
//! A referee's sheet has hand totals, not cards, so this file checks the sheet against the
//! rules (who may call, declare or empty a hand) and scores each round with the engine's
//! own [`crate::game::score_round`], the function that scores every live round too. A
//! differential test (`domain/tests/tournament_paper.rs`) still replays thousands of bot
//! games as paper rounds and requires identical scores.

use serde::{Deserialize, Serialize};

use crate::game::{
    Bonus, Event as GameEvent, MAX_PLAYERS, Outcome, Reduction, RoundEnding, Seat, Standing,
    score_round, standings,
};
use crate::rules::{CallResolution, OverThresholdCall, Rules};

/// One round as written on a referee's sheet.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct PaperRound {
    pub ending: PaperEnding,
    /// Per seat, the hand shown at the end; `null` for seats out of the game.
    #[cfg_attr(feature = "openapi", schema(schema_with = hand_totals_schema))]
    pub hand_totals: Vec<Option<u32>>,
}

/// `hand_totals` as read: each a `u32` (the whole range, not the `int32` the format
/// name would suggest) or `null`.
#[cfg(feature = "openapi")]
fn hand_totals_schema() -> utoipa::openapi::schema::Array {
    use utoipa::openapi::schema::{ArrayBuilder, ObjectBuilder, SchemaFormat, Type};
    use utoipa::openapi::{KnownFormat, schema::SchemaType};
    let total = ObjectBuilder::new()
        .schema_type(SchemaType::from_iter([Type::Integer, Type::Null]))
        .format(Some(SchemaFormat::KnownFormat(KnownFormat::Int64)))
        .minimum(Some(0))
        .maximum(Some(u32::MAX));
    ArrayBuilder::new()
        .items(total)
        .description(Some(
            "Per seat, the hand shown at the end; `null` for seats out of the game.",
        ))
        .build()
}

/// How the round ended. Seats index the table's players in the direction of play.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
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
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
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
        let ending = match ending {
            Ending::Immediate => RoundEnding::Immediate { caller: reference },
            Ending::FalseCall => RoundEnding::FalseCall { caller: reference },
            Ending::GoAlong(going) => RoundEnding::GoAlong {
                caller: reference,
                going,
            },
            Ending::Kluft(challengers) => RoundEnding::Kluft {
                caller: reference,
                challengers,
            },
            Ending::EmptyHand => RoundEnding::EmptyHand { seat: reference },
        };
        let score = score_round(
            rules,
            ending,
            &hands,
            &order,
            &self.totals,
            &self.successful_calls,
        );
        let caller = ending.caller();
        let (outcome, points, totals) = (score.outcome, score.points, score.totals);
        let (reductions, bonuses, eliminated, finished) = (
            score.reductions,
            score.bonuses,
            score.eliminated,
            score.finished,
        );

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

/// A sheet checked as far as it goes: each round's score, whether the game is over, and
/// the standings now; or the first round the rules refuse (its index) and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PaperSheetCheck {
    pub rounds: Vec<PaperRoundScore>,
    pub finished: bool,
    pub standings: Vec<Standing>,
    /// The first round (from 0) the rules refuse, and why; `rounds` stops before it.
    pub error: Option<PaperSheetError>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PaperSheetError {
    pub round: usize,
    pub message: String,
}

/// Checks a sheet being written: unlike [`score_paper_game`], an unfinished game is
/// not an error (more rounds will come).
pub fn check_paper_sheet(
    rules: &Rules,
    seats: usize,
    rounds: &[PaperRound],
) -> Result<PaperSheetCheck, String> {
    let mut game = PaperGame::new(rules, seats)?;
    let mut scores = Vec::with_capacity(rounds.len());
    let mut error = None;
    for (i, round) in rounds.iter().enumerate() {
        match game.score(round) {
            Ok(score) => scores.push(score),
            Err(message) => {
                error = Some(PaperSheetError { round: i, message });
                break;
            }
        }
    }
    Ok(PaperSheetCheck {
        rounds: scores,
        finished: game.is_finished(),
        standings: game.standings(),
        error,
    })
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Preset;

    #[test]
    fn a_sheet_being_written_is_scored_as_far_as_it_goes() {
        let rules = Preset::Belgian.rules();
        let call = |caller: Seat, hands: [u32; 3]| PaperRound {
            ending: PaperEnding::Call {
                caller,
                declared: Vec::new(),
            },
            hand_totals: hands.iter().map(|&h| Some(h)).collect(),
        };
        let sheet = [call(0, [3, 20, 30]), call(1, [40, 2, 9])];
        let checked = check_paper_sheet(&rules, 3, &sheet).expect("3 seats");
        assert_eq!(checked.rounds.len(), 2);
        assert!(!checked.finished && checked.error.is_none());
        assert_eq!(checked.rounds[1].totals, [40, 20, 39]);
        // A caller who is not at the table is refused, and the round named.
        let bad = [call(0, [3, 20, 30]), call(5, [40, 2, 9])];
        let checked = check_paper_sheet(&rules, 3, &bad).expect("3 seats");
        assert_eq!(checked.rounds.len(), 1);
        assert_eq!(checked.error.as_ref().map(|e| e.round), Some(1));
        assert!(check_paper_sheet(&rules, 1, &[]).is_err());
    }

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
