//! Which games are rated, and in what order: read from a tournament's stream alone
//! (`docs/ratings.md`, "Rated games"), so that anyone holding the archives derives the
//! same list.
//!
//! A table's game counts once, with the result in force at the end of the stream. It
//! takes its place in the order when its result was first recorded: a correction
//! replaces the lines in place (so every later game is re-rated from the corrected
//! one), a voided game drops out, and the replay recorded after a void is a new game at
//! its own time. Byes and no-shows are not in any result, so they rate nobody.

use std::collections::BTreeMap;

use crate::tournament::{AccountId, Event, PlayerResult, TableRef};

/// A tournament event with the time the store recorded it (microseconds since the Unix
/// epoch: the archive's `recorded_at_micros`).
#[derive(Debug, Clone, Copy)]
pub struct Timed<'a> {
    pub recorded_at_micros: i64,
    pub event: &'a Event,
}

/// One player's place in a rated game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RatedLine {
    pub player: AccountId,
    /// From 1; tied players share it.
    pub place: u8,
}

/// Where a rated game was played. The variants' order is the tie-break between games
/// of the same position time: tournament games first (by tournament id, then table),
/// then casual tables (by table id).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum GameSource {
    /// A drawn table of a rated tournament (online or on paper).
    Tournament { tournament: i64, table: TableRef },
    /// A casual table created with `rated` (`table-<id>`).
    Casual { table: i64 },
}

/// A finished game that counts towards the ratings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RatedGame {
    /// Its position time: when a tournament table's result was first recorded, when a
    /// casual table's game finished.
    pub at_micros: i64,
    pub source: GameSource,
    /// The result in force, best place first.
    pub lines: Vec<RatedLine>,
}

impl RatedGame {
    /// The order of all rated games: time, then the source ([`GameSource`]'s order).
    /// Strict: a tournament has one game per table, a casual table one game.
    pub fn order_key(&self) -> (i64, GameSource) {
        (self.at_micros, self.source)
    }

    /// The tournament it was played in, if any.
    pub fn tournament(&self) -> Option<i64> {
        match self.source {
            GameSource::Tournament { tournament, .. } => Some(tournament),
            GameSource::Casual { .. } => None,
        }
    }
}

/// The rated games of tournament `tournament`, from its whole stream in version order;
/// none when its config says it is not rated.
pub fn rated_games<'a>(
    tournament: i64,
    events: impl IntoIterator<Item = Timed<'a>>,
) -> Vec<RatedGame> {
    let mut rated = true;
    let mut in_force: BTreeMap<TableRef, (i64, &'a [PlayerResult])> = BTreeMap::new();
    for Timed {
        recorded_at_micros,
        event,
    } in events
    {
        match event {
            Event::Created(created) => rated = created.config.rated,
            Event::StagesConfigured(configured) => rated = configured.config.rated,
            Event::ResultRecorded(recorded) => {
                in_force.insert(recorded.table, (recorded_at_micros, &recorded.result));
            }
            Event::ResultCorrected(corrected) => {
                // A correction is only accepted for a table with a result; one without
                // is taken as recorded at the correction's time.
                let at = in_force
                    .get(&corrected.table)
                    .map_or(recorded_at_micros, |(at, _)| *at);
                in_force.insert(corrected.table, (at, &corrected.result));
            }
            Event::GameVoided(voided) => {
                in_force.remove(&voided.table);
            }
            Event::RoundRedrawn(redrawn) => {
                in_force.retain(|table, _| table.round_ref() != redrawn.round_ref());
            }
            _ => {}
        }
    }
    if !rated {
        return Vec::new();
    }
    in_force
        .into_iter()
        .map(|(table, (at_micros, result))| RatedGame {
            at_micros,
            source: GameSource::Tournament { tournament, table },
            lines: result
                .iter()
                .map(|line| RatedLine {
                    player: line.player,
                    place: line.place,
                })
                .collect(),
        })
        .collect()
}

/// Sorts games of many tournaments into the rating order.
pub fn sort_games(games: &mut [RatedGame]) {
    games.sort_by_key(RatedGame::order_key);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::{
        Actor, Config, GameVoided, ResultCorrected, ResultInput, ResultRecorded, StagesConfigured,
    };

    const T1: TableRef = TableRef {
        stage: 1,
        round: 1,
        table: 1,
    };
    const T2: TableRef = TableRef {
        stage: 1,
        round: 1,
        table: 2,
    };

    fn lines(order: &[AccountId]) -> Vec<PlayerResult> {
        order
            .iter()
            .enumerate()
            .map(|(i, &player)| PlayerResult {
                player,
                total: 10 * i as u32,
                place: i as u8 + 1,
            })
            .collect()
    }

    fn input(result: &[PlayerResult]) -> ResultInput {
        ResultInput::Game {
            game: None,
            standings: result.to_vec(),
        }
    }

    fn recorded(table: TableRef, order: &[AccountId]) -> Event {
        let result = lines(order);
        Event::ResultRecorded(ResultRecorded {
            table,
            input: input(&result),
            result,
            by: Actor::Server,
            flagged: vec![],
            reason: None,
        })
    }

    fn corrected(table: TableRef, order: &[AccountId]) -> Event {
        let result = lines(order);
        Event::ResultCorrected(ResultCorrected {
            table,
            input: input(&result),
            result,
            reason: "sheet misread".into(),
            by: Actor::Server,
            flagged: vec![],
        })
    }

    fn timed(events: &[(i64, Event)]) -> impl Iterator<Item = Timed<'_>> {
        events.iter().map(|(at, event)| Timed {
            recorded_at_micros: *at,
            event,
        })
    }

    fn players(game: &RatedGame) -> Vec<AccountId> {
        game.lines.iter().map(|l| l.player).collect()
    }

    #[test]
    fn a_correction_replaces_the_result_where_it_stood() {
        let events = vec![
            (100, recorded(T1, &[1, 2, 3, 4])),
            (200, recorded(T2, &[5, 6, 7, 8])),
            (300, corrected(T1, &[4, 3, 2, 1])),
        ];
        let games = rated_games(7, timed(&events));
        assert_eq!(games.len(), 2);
        assert_eq!(
            (games[0].at_micros, games[0].source),
            (
                100,
                GameSource::Tournament {
                    tournament: 7,
                    table: T1
                }
            )
        );
        assert_eq!(players(&games[0]), [4, 3, 2, 1]);
        assert_eq!(games[1].at_micros, 200);
    }

    #[test]
    fn a_voided_game_drops_out_and_its_replay_comes_at_its_own_time() {
        let void = Event::GameVoided(GameVoided {
            table: T1,
            reason: "misdeal".into(),
            by: Actor::Server,
            flagged: vec![],
        });
        let events = vec![
            (100, recorded(T1, &[1, 2])),
            (150, void.clone()),
            (200, recorded(T2, &[3, 4])),
        ];
        let games = rated_games(7, timed(&events));
        let table_of = |g: &RatedGame| match g.source {
            GameSource::Tournament { table, .. } => table,
            GameSource::Casual { .. } => unreachable!("tournaments only"),
        };
        assert_eq!(games.iter().map(table_of).collect::<Vec<_>>(), [T2]);
        let mut replayed = events.clone();
        replayed.push((400, recorded(T1, &[2, 1])));
        let mut games = rated_games(7, timed(&replayed));
        sort_games(&mut games);
        assert_eq!(
            games
                .iter()
                .map(|g| (g.at_micros, table_of(g)))
                .collect::<Vec<_>>(),
            [(200, T2), (400, T1)]
        );
    }

    #[test]
    fn an_unrated_tournament_rates_nothing() {
        let rules = crate::rules::Preset::Belgian.rules();
        let config = Config {
            rated: false,
            ..Config::defaults(&rules).expect("defaults")
        };
        let events = vec![
            (50, Event::StagesConfigured(StagesConfigured { config })),
            (100, recorded(T1, &[1, 2])),
        ];
        assert!(rated_games(7, timed(&events)).is_empty());
    }

    #[test]
    fn games_order_by_time_then_tournament_then_table() {
        let mut games = rated_games(9, timed(&[(100, recorded(T2, &[1, 2]))]));
        games.extend(rated_games(
            3,
            timed(&[(100, recorded(T2, &[3, 4])), (100, recorded(T1, &[5, 6]))]),
        ));
        games.extend(rated_games(1, timed(&[(200, recorded(T1, &[7, 8]))])));
        sort_games(&mut games);
        let keys: Vec<(i64, i64, u32)> = games
            .iter()
            .map(|g| match g.source {
                GameSource::Tournament { tournament, table } => {
                    (g.at_micros, tournament, table.table)
                }
                GameSource::Casual { .. } => unreachable!("tournaments only"),
            })
            .collect();
        assert_eq!(keys, [(100, 3, 1), (100, 3, 2), (100, 9, 2), (200, 1, 1)]);
    }
}
