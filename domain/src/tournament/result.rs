//! A table's result as it is entered, and what it decides: each player's final total and
//! place in the game. Three ways in (TOURNAMENT.md "Tables are played either way"):
//!
//! - an online game played on this server: the server passes the final standings of the
//!   engine ([`ResultInput::from_game`]);
//! - a paper table entered round by round (`paper.rs` scores it by the rules);
//! - a paper table entered as a full game record (`yaniv-record/1`), replayed through the
//!   engine with [`crate::record::replay`].

use serde::{Deserialize, Serialize};

use crate::game::{Game, Standing};
use crate::record::{GameRecord, replay};
use crate::rules::Rules;

use super::error::TournamentError;
use super::paper::{PaperRound, score_paper_game};
use super::refs::AccountId;

/// One player's line of a game's final result.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct PlayerResult {
    pub player: AccountId,
    /// Final total in the game.
    pub total: u32,
    /// Place in the game, from 1; tied players share a place (1, 2, 2, 4).
    pub place: u8,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(tag = "source", rename_all = "snake_case", deny_unknown_fields)]
pub enum ResultInput {
    /// Final totals and places as the game decided them: an online game (with its id on
    /// this server) or a final sheet entered as it is.
    Game {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        game: Option<String>,
        standings: Vec<PlayerResult>,
    },
    /// A paper game round by round. `seats`: the players in the direction of play; the
    /// rounds' seat numbers index it.
    PaperRounds {
        seats: Vec<AccountId>,
        rounds: Vec<PaperRound>,
    },
    /// A paper game as a full record; `seats[i]` is the account of the record's
    /// `players[i]`.
    Record {
        seats: Vec<AccountId>,
        record: GameRecord,
    },
}

impl ResultInput {
    /// The result of a finished online game whose seat `i` is `accounts[i]`.
    pub fn from_game(
        game: &Game,
        accounts: &[AccountId],
        id: Option<String>,
    ) -> Result<ResultInput, TournamentError> {
        if !game.is_finished() {
            return Err(TournamentError::GameNotFinished);
        }
        if accounts.len() != game.players().len() {
            return Err(TournamentError::BadResult(format!(
                "{} accounts for {} seats",
                accounts.len(),
                game.players().len()
            )));
        }
        Ok(ResultInput::Game {
            game: id,
            standings: by_account(&game.standings(), accounts)?,
        })
    }

    /// The players the input names, in its order.
    pub fn players(&self) -> Vec<AccountId> {
        match self {
            ResultInput::Game { standings, .. } => standings.iter().map(|r| r.player).collect(),
            ResultInput::PaperRounds { seats, .. } | ResultInput::Record { seats, .. } => {
                seats.clone()
            }
        }
    }

    /// Scores or checks the input under the tournament's `rules`: each player's final
    /// total and place, best place first (input order among equal places).
    pub fn resolve(&self, rules: &Rules) -> Result<Vec<PlayerResult>, TournamentError> {
        let mut result = match self {
            ResultInput::Game { standings, .. } => {
                check_places(standings)?;
                standings.clone()
            }
            ResultInput::PaperRounds { seats, rounds } => {
                distinct(seats)?;
                let (_, standings) =
                    score_paper_game(rules, seats.len(), rounds).map_err(|(round, message)| {
                        TournamentError::BadPaperRound { round, message }
                    })?;
                by_account(&standings, seats)?
            }
            ResultInput::Record { seats, record } => {
                distinct(seats)?;
                if seats.len() != record.players.len() {
                    return Err(TournamentError::BadResult(format!(
                        "{} accounts for the record's {} players",
                        seats.len(),
                        record.players.len()
                    )));
                }
                let record_rules = record.rules.resolve().map_err(TournamentError::BadRules)?;
                if record_rules != *rules {
                    return Err(TournamentError::RulesMismatch);
                }
                let outcome = replay(record).map_err(|e| TournamentError::BadRecord {
                    code: e.code.to_owned(),
                    message: e.to_string(),
                })?;
                if !outcome.game.is_finished() {
                    return Err(TournamentError::GameNotFinished);
                }
                by_account(&outcome.game.standings(), seats)?
            }
        };
        result.sort_by_key(|r| r.place);
        Ok(result)
    }
}

fn by_account(
    standings: &[Standing],
    accounts: &[AccountId],
) -> Result<Vec<PlayerResult>, TournamentError> {
    standings
        .iter()
        .map(|s| {
            let player = *accounts.get(s.seat as usize).ok_or_else(|| {
                TournamentError::BadResult(format!("no account for seat {}", s.seat))
            })?;
            Ok(PlayerResult {
                player,
                total: s.total,
                place: s.place,
            })
        })
        .collect()
}

fn distinct(players: &[AccountId]) -> Result<(), TournamentError> {
    for (i, p) in players.iter().enumerate() {
        if players[..i].contains(p) {
            return Err(TournamentError::BadResult(format!(
                "player {p} is listed twice"
            )));
        }
    }
    Ok(())
}

/// Places as a game gives them: from 1, tied players share one, and the place after a tie
/// skips the places the tie covers (1, 2, 2, 4).
fn check_places(result: &[PlayerResult]) -> Result<(), TournamentError> {
    let players: Vec<AccountId> = result.iter().map(|r| r.player).collect();
    distinct(&players)?;
    for r in result {
        let better = result.iter().filter(|o| o.place < r.place).count();
        if r.place as usize != better + 1 {
            return Err(TournamentError::BadResult(format!(
                "player {} cannot be placed {}: {better} players are placed above",
                r.player, r.place
            )));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Preset;

    fn line(player: AccountId, total: u32, place: u8) -> PlayerResult {
        PlayerResult {
            player,
            total,
            place,
        }
    }

    #[test]
    fn places_must_be_competition_ranks() {
        let rules = Preset::Belgian.rules();
        let ok = ResultInput::Game {
            game: None,
            standings: vec![
                line(3, 40, 2),
                line(1, 10, 1),
                line(2, 40, 2),
                line(4, 160, 4),
            ],
        };
        let result = ok.resolve(&rules).expect("valid places");
        assert_eq!(
            result.iter().map(|r| r.player).collect::<Vec<_>>(),
            vec![1, 3, 2, 4]
        );
        for bad in [
            vec![line(1, 10, 1), line(2, 40, 3)],
            vec![
                line(1, 10, 1),
                line(2, 40, 2),
                line(3, 40, 2),
                line(4, 160, 3),
            ],
            vec![line(1, 10, 0), line(2, 40, 1)],
            vec![line(1, 10, 1), line(1, 40, 2)],
        ] {
            let input = ResultInput::Game {
                game: None,
                standings: bad,
            };
            assert_eq!(
                input.resolve(&rules).map_err(|e| e.code()),
                Err("bad_result")
            );
        }
    }
}
