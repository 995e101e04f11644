//! The rating list at one point of the store: every rated game in order with each
//! line's rating before and after, folded from [`super::source::Inputs`], and the
//! questions the API asks of it (the list over a period, one player's profile).

use std::collections::HashMap;

use yaniv_domain::ratings::{
    Change, RatedGame, RatingBook, RatingError, Timed, TimedTableEvent, casual_game, rated_games,
    sort_games,
};
use yaniv_domain::tournament::{AccountId, Event};

use super::source::Inputs;

/// A rated game with what it did to each line (in line order).
#[derive(Debug)]
pub struct RatedRecord {
    pub game: RatedGame,
    pub changes: Vec<Change>,
}

/// What a profile shows of a tournament.
#[derive(Debug, Default)]
pub struct TournamentInfo {
    pub name: String,
    /// The published final ranking's places, by player.
    pub places: HashMap<AccountId, u32>,
}

/// One player's row of a list: where they stood at the list's end.
#[derive(Debug, Clone, Copy)]
pub struct ListRow {
    pub player: AccountId,
    pub change: Change,
    pub games: u32,
    pub last_played_micros: i64,
}

/// The list folded from a given set of input rows.
#[derive(Debug, Default)]
pub struct Snapshot {
    /// The input rows it was folded from (see [`super::source::count`]).
    pub rows: i64,
    pub games: Vec<RatedRecord>,
    /// Per player, the games they played: (index into `games`, line index).
    pub history: HashMap<AccountId, Vec<(usize, usize)>>,
    pub tournaments: HashMap<i64, TournamentInfo>,
    /// Games left out because they could not be rated (a player twice): none unless
    /// the store holds a result the domain would refuse.
    pub skipped: Vec<(RatedGame, RatingError)>,
}

impl Snapshot {
    /// Folds every rated game of `inputs`: the tournaments' and the casual tables'.
    pub fn fold(inputs: &Inputs) -> Self {
        let mut games = Vec::new();
        let mut tournaments = HashMap::new();
        for (&id, tournament) in &inputs.tournaments {
            games.extend(rated_games(
                id,
                tournament.events.iter().map(|(at, event)| Timed {
                    recorded_at_micros: *at,
                    event,
                }),
            ));
            let mut info = TournamentInfo::default();
            for (_, event) in &tournament.events {
                match event {
                    Event::Created(created) => info.name.clone_from(&created.name),
                    Event::Finished(finished) => {
                        info.places = finished
                            .ranking
                            .iter()
                            .map(|r| (r.player, r.place))
                            .collect();
                    }
                    _ => {}
                }
            }
            tournaments.insert(id, info);
        }
        for (&id, events) in &inputs.tables {
            games.extend(casual_game(
                id,
                events.iter().map(|(at, event)| TimedTableEvent {
                    recorded_at_micros: *at,
                    event,
                }),
            ));
        }
        sort_games(&mut games);
        let mut book = RatingBook::new();
        let mut snapshot = Snapshot {
            rows: inputs.rows,
            tournaments,
            ..Snapshot::default()
        };
        for game in games {
            match book.apply(&game) {
                Ok(changes) => {
                    let index = snapshot.games.len();
                    for (line, change) in changes.iter().enumerate() {
                        snapshot
                            .history
                            .entry(change.player)
                            .or_default()
                            .push((index, line));
                    }
                    snapshot.games.push(RatedRecord { game, changes });
                }
                Err(error) => snapshot.skipped.push((game, error)),
            }
        }
        snapshot
    }

    /// Every player who played a rated game before `to` and, with `from`, at least one
    /// at or after `from`, as they stood before `to` (`to` absent: now), with at least
    /// `min_games` games; best first (displayed rating, then mu, higher first; then
    /// the smaller account id).
    pub fn list(&self, from: Option<i64>, to: Option<i64>, min_games: u32) -> Vec<ListRow> {
        let mut rows: Vec<ListRow> = self
            .history
            .iter()
            .filter_map(|(&player, played)| {
                let count = match to {
                    Some(to) => played.partition_point(|&(g, _)| self.games[g].game.at_micros < to),
                    None => played.len(),
                };
                let &(last_game, last_line) = played.get(count.checked_sub(1)?)?;
                let last_played_micros = self.games[last_game].game.at_micros;
                if from.is_some_and(|from| last_played_micros < from) {
                    return None;
                }
                let games = u32::try_from(count).unwrap_or(u32::MAX);
                (games >= min_games).then_some(ListRow {
                    player,
                    change: self.games[last_game].changes[last_line],
                    games,
                    last_played_micros,
                })
            })
            .collect();
        rows.sort_by(|a, b| {
            let (x, y) = (a.change.after, b.change.after);
            y.displayed()
                .total_cmp(&x.displayed())
                .then(y.mu.total_cmp(&x.mu))
                .then(a.player.cmp(&b.player))
        });
        rows
    }

    /// The instant a seeding taken from this fold is "as of": just after its latest
    /// game, so that the list before it is exactly this fold's; `now_micros` when it
    /// holds no game.
    pub fn as_of(&self, now_micros: i64) -> i64 {
        self.games
            .iter()
            .map(|g| g.game.at_micros.saturating_add(1))
            .max()
            .unwrap_or(now_micros)
    }

    /// Everyone on the list before `as_of`, best first.
    pub fn order_before(&self, as_of: i64) -> Vec<AccountId> {
        self.list(None, Some(as_of), 0)
            .iter()
            .map(|row| row.player)
            .collect()
    }

    /// The games `player` played, in order, each with the line index of `player`.
    pub fn played(&self, player: AccountId) -> impl Iterator<Item = (&RatedRecord, usize)> {
        self.history
            .get(&player)
            .into_iter()
            .flatten()
            .map(|&(g, line)| (&self.games[g], line))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ratings::source::TournamentInputs;
    use yaniv_domain::tournament::{
        Actor, PlayerResult, ResultCorrected, ResultInput, ResultRecorded, TableRef,
    };

    fn table(table: u32) -> TableRef {
        TableRef {
            stage: 1,
            round: 1,
            table,
        }
    }

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

    fn recorded(at: u32, order: &[AccountId]) -> Event {
        let result = lines(order);
        Event::ResultRecorded(ResultRecorded {
            table: table(at),
            input: ResultInput::Game {
                game: None,
                standings: result.clone(),
            },
            result,
            by: Actor::Server,
            flagged: vec![],
            reason: None,
        })
    }

    fn inputs(tournaments: Vec<(i64, Vec<(i64, Event)>)>) -> Inputs {
        Inputs {
            rows: 0,
            tournaments: tournaments
                .into_iter()
                .map(|(id, events)| (id, TournamentInputs { events }))
                .collect(),
            tables: Default::default(),
        }
    }

    #[test]
    fn the_period_and_the_least_games_filter_the_list() {
        let snapshot = Snapshot::fold(&inputs(vec![
            (
                1,
                vec![(100, recorded(1, &[1, 2])), (200, recorded(2, &[3, 1]))],
            ),
            (2, vec![(300, recorded(1, &[2, 3]))]),
        ]));
        assert_eq!(snapshot.games.len(), 3);
        let players = |rows: Vec<ListRow>| {
            let mut p: Vec<AccountId> = rows.iter().map(|r| r.player).collect();
            p.sort();
            p
        };
        assert_eq!(players(snapshot.list(None, None, 0)), [1, 2, 3]);
        assert_eq!(players(snapshot.list(None, None, 2)), [1, 2, 3]);
        assert_eq!(players(snapshot.list(None, Some(200), 0)), [1, 2]);
        assert_eq!(players(snapshot.list(Some(250), None, 0)), [2, 3]);
        assert!(snapshot.list(None, Some(100), 0).is_empty());
        let before_the_last = snapshot.list(None, Some(300), 0);
        let two = before_the_last.iter().find(|r| r.player == 2).expect("2");
        assert_eq!((two.games, two.last_played_micros), (1, 100));
    }

    #[test]
    fn a_correction_re_rates_the_games_after_it() {
        let first = vec![(100, recorded(1, &[1, 2])), (200, recorded(2, &[1, 3]))];
        let mut fixed = first.clone();
        let result = lines(&[2, 1]);
        fixed.push((
            300,
            Event::ResultCorrected(ResultCorrected {
                table: table(1),
                input: ResultInput::Game {
                    game: None,
                    standings: result.clone(),
                },
                result,
                reason: "swapped".into(),
                by: Actor::Server,
                flagged: vec![],
            }),
        ));
        let before = Snapshot::fold(&inputs(vec![(1, first)]));
        let after = Snapshot::fold(&inputs(vec![(1, fixed)]));
        let rating = |s: &Snapshot, p: AccountId| {
            s.list(None, None, 0)
                .into_iter()
                .find(|r| r.player == p)
                .map(|r| r.change.after.mu)
        };
        // Player 3 never met player 2, yet the second game (1 against 3) is re-rated:
        // player 1 came into it with a lower rating.
        assert!(rating(&after, 1) < rating(&before, 1));
        assert_ne!(rating(&after, 3), rating(&before, 3));
        assert_eq!(after.games[0].game.at_micros, 100);
    }
}
