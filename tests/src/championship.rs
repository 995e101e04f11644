//! Helpers of the championship test (`tests/tests/e2e/championship.rs`): the server's
//! draws and table results over HTTP, each game's final totals learned from the test's
//! own sources (an online table's exported record replayed by the game engine, a paper
//! sheet scored by the engine's paper scoring, a correction the test sent), and an
//! independent recomputation of the format from those totals: places, table points,
//! game wins, score differences, the qualification standings, the knockout cut, who goes
//! through each knockout table, and the final ranking.
//!
//! The recomputation deliberately uses nothing of `yaniv_domain::tournament` (no
//! standings, ranking, table points or seating code): it is this file's reading of
//! `docs/tournaments.md`, so a disagreement with the server is a finding, not a tautology.
//! Only the seating is taken from the server's draw events: who sits where is the
//! server's random choice, not something to recompute.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::time::{Duration, Instant};

use reqwest::StatusCode;
use serde_json::{Value, json};
use yaniv_domain::rules::Rules;
use yaniv_domain::tournament::{PaperGame, PaperRound};

use crate::tables::Api;

/// An account id, as the tournament names players.
pub type Account = i64;

/// 840ths of a point: the unit of table points and score differences in the API.
pub const UNITS_PER_POINT: i64 = 840;

/// A table of a round: `(stage, round, table)`, all from 1.
pub type TableKey = (u32, u32, u32);

/// The JSON reference of a table, as commands and views carry it.
pub fn table_ref(key: TableKey) -> Value {
    json!({"stage": key.0, "round": key.1, "table": key.2})
}

/// One game's final totals, per player, in seat order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameTotals(pub Vec<(Account, u32)>);

impl GameTotals {
    pub fn players(&self) -> Vec<Account> {
        self.0.iter().map(|&(player, _)| player).collect()
    }
}

/// One player's outcome in one game, as this file computes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GameLine {
    pub player: Account,
    pub total: u32,
    /// 1 + the number of players with a strictly lower total (lower is better; equal
    /// totals share a place).
    pub place: u8,
    /// Table points in 840ths.
    pub points: i64,
    /// A first place, shared or not.
    pub win: bool,
    /// Own total minus the table's mean total, in 840ths.
    pub difference: i64,
}

/// `numerator / denominator`, which the format promises to be whole.
fn exact_division(numerator: i64, denominator: i64, what: &str) -> i64 {
    assert_eq!(
        numerator % denominator,
        0,
        "{what}: {numerator}/{denominator} is not a whole number of 840ths"
    );
    numerator / denominator
}

/// Places, table points, wins and score differences of one game, in seat order.
///
/// At a table of `n`, place `p` is worth `100 * (n - p) / (n - 1)` points; the `k`
/// players sharing place `p` cover places `p ..= p + k - 1` and each get the average of
/// those places' points.
pub fn score_game(game: &GameTotals) -> Vec<GameLine> {
    let n = game.0.len() as i64;
    assert!(n >= 2, "a game has at least 2 players: {game:?}");
    let sum: i64 = game.0.iter().map(|&(_, total)| i64::from(total)).sum();
    game.0
        .iter()
        .map(|&(player, total)| {
            let place = 1 + game.0.iter().filter(|&&(_, t)| t < total).count() as i64;
            let sharing = game.0.iter().filter(|&&(_, t)| t == total).count() as i64;
            let covered: i64 = (place..place + sharing).map(|q| n - q).sum();
            let points = exact_division(
                100 * UNITS_PER_POINT * covered,
                sharing * (n - 1),
                "table points",
            );
            let difference = exact_division(
                UNITS_PER_POINT * (n * i64::from(total) - sum),
                n,
                "score difference",
            );
            GameLine {
                player,
                total,
                place: u8::try_from(place).expect("a place fits a byte"),
                points,
                win: place == 1,
                difference,
            }
        })
        .collect()
}

/// `(player, total, place)` of every player of a game, sorted by player: the shape to
/// compare with a result the server recorded.
pub fn result_lines(game: &GameTotals) -> Vec<(Account, u32, u8)> {
    let mut lines: Vec<(Account, u32, u8)> = score_game(game)
        .iter()
        .map(|l| (l.player, l.total, l.place))
        .collect();
    lines.sort_unstable();
    lines
}

/// The same shape from a recorded result's JSON lines (`[{player, total, place}]`).
pub fn result_lines_of(result: &Value) -> Vec<(Account, u32, u8)> {
    let mut lines: Vec<(Account, u32, u8)> = result
        .as_array()
        .unwrap_or_else(|| panic!("a result is a list: {result}"))
        .iter()
        .map(|line| {
            (
                line["player"].as_i64().expect("player"),
                line["total"].as_u64().expect("total") as u32,
                line["place"].as_u64().expect("place") as u8,
            )
        })
        .collect();
    lines.sort_unstable();
    lines
}

/// A result input of source `game` for `game`: every player's total and place.
pub fn game_result_input(game: &GameTotals) -> Value {
    let standings: Vec<Value> = score_game(game)
        .iter()
        .map(|l| json!({"player": l.player, "total": l.total, "place": l.place}))
        .collect();
    json!({"source": "game", "standings": standings})
}

/// One line of the qualification standings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StandingLine {
    pub place: u32,
    pub player: Account,
    /// 1 for the first registration.
    pub registration: u32,
    pub games: u32,
    /// In 840ths.
    pub table_points: i64,
    pub wins: u32,
    /// In 840ths; lower is better.
    pub score_difference: i64,
}

/// The qualification standings of the players of `registration` (in registration order)
/// over `games`: more table points first, then more game wins, then the lower score
/// difference, then the earlier registration. The registration order is unique, so
/// nobody shares a place.
pub fn qualification_standings(
    registration: &[Account],
    games: &[GameTotals],
) -> Vec<StandingLine> {
    let mut lines: Vec<StandingLine> = registration
        .iter()
        .enumerate()
        .map(|(i, &player)| StandingLine {
            place: 0,
            player,
            registration: i as u32 + 1,
            games: 0,
            table_points: 0,
            wins: 0,
            score_difference: 0,
        })
        .collect();
    let row: HashMap<Account, usize> = registration
        .iter()
        .enumerate()
        .map(|(i, &p)| (p, i))
        .collect();
    for game in games {
        for line in score_game(game) {
            let standing = &mut lines[row[&line.player]];
            standing.games += 1;
            standing.table_points += line.points;
            standing.wins += u32::from(line.win);
            standing.score_difference += line.difference;
        }
    }
    lines.sort_by(|a, b| {
        b.table_points
            .cmp(&a.table_points)
            .then(b.wins.cmp(&a.wins))
            .then(a.score_difference.cmp(&b.score_difference))
            .then(a.registration.cmp(&b.registration))
    });
    for (i, line) in lines.iter_mut().enumerate() {
        line.place = i as u32 + 1;
    }
    lines
}

/// The server's standings rows (`GET .../standings`) in the same shape; every row must
/// say the player has not withdrawn (nobody does in these tests).
pub fn standings_of(rows: &Value) -> Vec<StandingLine> {
    rows.as_array()
        .unwrap_or_else(|| panic!("standings are a list: {rows}"))
        .iter()
        .map(|row| {
            assert_eq!(row["withdrawn"], false, "{row}");
            let number = |field: &str| {
                row[field]
                    .as_i64()
                    .unwrap_or_else(|| panic!("{field} of {row}"))
            };
            StandingLine {
                place: number("place") as u32,
                player: number("player"),
                registration: number("registration") as u32,
                games: number("games") as u32,
                table_points: number("table_points"),
                wins: number("wins") as u32,
                score_difference: number("score_difference"),
            }
        })
        .collect()
}

/// Position of each player in `seeds` (0 = the best seed).
fn seed_positions(seeds: &[Account]) -> HashMap<Account, usize> {
    seeds.iter().enumerate().map(|(i, &p)| (p, i)).collect()
}

/// The players of a knockout table in the order it ranks them: by place in the game,
/// shared places separated by seed (the better seed first).
pub fn table_order(table: &GameTotals, seeds: &[Account]) -> Vec<(Account, u8)> {
    let position = seed_positions(seeds);
    let mut lines: Vec<(Account, u8)> = score_game(table)
        .iter()
        .map(|l| (l.player, l.place))
        .collect();
    lines.sort_by_key(|&(player, place)| (place, position[&player]));
    lines
}

/// Who goes through a knockout table: the best `advance` of [`table_order`].
pub fn going_through(table: &GameTotals, seeds: &[Account], advance: usize) -> Vec<Account> {
    table_order(table, seeds)
        .into_iter()
        .take(advance)
        .map(|(player, _)| player)
        .collect()
}

/// The snake seeding of `seeds` into tables of `size` (no byes: the count must divide):
/// seeds go to tables 1, 2, ..., t, then t, ..., 1, and so on. Each table as a sorted
/// set, since the seat order at a table is drawn.
pub fn snake_tables(seeds: &[Account], size: usize) -> Vec<Vec<Account>> {
    assert_eq!(seeds.len() % size, 0, "no byes in this helper");
    let count = seeds.len() / size;
    let mut tables = vec![Vec::new(); count];
    for (i, &seed) in seeds.iter().enumerate() {
        let (row, column) = (i / count, i % count);
        let table = if row % 2 == 0 {
            column
        } else {
            count - 1 - column
        };
        tables[table].push(seed);
    }
    for table in &mut tables {
        table.sort_unstable();
    }
    tables
}

/// One knockout stage as the test saw it.
#[derive(Debug, Clone)]
pub struct KnockoutStage {
    pub stage: u32,
    /// The entrants, best seed first (as the test computed them).
    pub seeds: Vec<Account>,
    /// Each table's game.
    pub tables: Vec<GameTotals>,
    /// The stage seats one final table.
    pub final_table: bool,
}

/// How far a player got.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reached {
    Final { place_at_table: u8 },
    Knockout { stage: u32, place_at_table: u8 },
    Qualification,
}

/// One line of the final ranking.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ranked {
    pub place: u32,
    pub player: Account,
    pub reached: Reached,
}

/// The final ranking: the final table by place (shared places separated by seed); then,
/// stage by stage from the last knockout stage back, the players who went out in it, by
/// place at their table, then seed; then everyone else in qualification order. Nobody
/// withdrew and the standings end with the registration order, so every place is
/// distinct.
pub fn final_ranking(
    qualification: &[StandingLine],
    knockout: &[KnockoutStage],
    advance: usize,
) -> Vec<Ranked> {
    let mut ranking: Vec<Ranked> = Vec::new();
    let mut placed: HashSet<Account> = HashSet::new();
    for stage in knockout.iter().rev() {
        let position = seed_positions(&stage.seeds);
        let seated: HashSet<Account> = stage.tables.iter().flat_map(GameTotals::players).collect();
        let mut through: HashSet<Account> = stage
            .seeds
            .iter()
            .copied()
            .filter(|p| !seated.contains(p))
            .collect();
        let mut lines: Vec<(u8, usize, Account)> = Vec::new();
        for table in &stage.tables {
            if !stage.final_table {
                through.extend(going_through(table, &stage.seeds, advance));
            }
            lines.extend(
                table_order(table, &stage.seeds)
                    .into_iter()
                    .map(|(player, place)| (place, position[&player], player)),
            );
        }
        lines.sort_unstable();
        for (place_at_table, _, player) in lines {
            if through.contains(&player) || placed.contains(&player) {
                continue;
            }
            let reached = if stage.final_table {
                Reached::Final { place_at_table }
            } else {
                Reached::Knockout {
                    stage: stage.stage,
                    place_at_table,
                }
            };
            placed.insert(player);
            ranking.push(Ranked {
                place: ranking.len() as u32 + 1,
                player,
                reached,
            });
        }
    }
    for line in qualification {
        if placed.insert(line.player) {
            ranking.push(Ranked {
                place: ranking.len() as u32 + 1,
                player: line.player,
                reached: Reached::Qualification,
            });
        }
    }
    ranking
}

/// The server's ranking rows (`ranking.ranking`) in the same shape; nobody withdrew.
pub fn ranking_of(rows: &Value) -> Vec<Ranked> {
    rows.as_array()
        .unwrap_or_else(|| panic!("the ranking is a list: {rows}"))
        .iter()
        .map(|row| {
            assert_eq!(row["withdrawn"], false, "{row}");
            let reached = &row["reached"];
            let place_at_table = || {
                reached["place_at_table"]
                    .as_u64()
                    .unwrap_or_else(|| panic!("place_at_table of {row}")) as u8
            };
            let reached = match reached["kind"].as_str() {
                Some("final") => Reached::Final {
                    place_at_table: place_at_table(),
                },
                Some("knockout") => Reached::Knockout {
                    stage: reached["stage"].as_u64().expect("stage") as u32,
                    place_at_table: place_at_table(),
                },
                Some("qualification") => Reached::Qualification,
                _ => panic!("unknown reached: {row}"),
            };
            Ranked {
                place: row["place"].as_u64().expect("place") as u32,
                player: row["player"].as_i64().expect("player"),
                reached,
            }
        })
        .collect()
}

/// The final totals of a paper sheet (`paper_rounds` input with `seats`), scored round by
/// round by the engine's paper scoring under `rules`.
pub fn paper_totals(rules: &Rules, sheet: &Value) -> GameTotals {
    let seats: Vec<Account> = serde_json::from_value(sheet["seats"].clone()).expect("seats");
    let rounds: Vec<PaperRound> =
        serde_json::from_value(sheet["rounds"].clone()).expect("paper rounds");
    let mut game = PaperGame::new(rules, seats.len()).expect("a paper game");
    for round in &rounds {
        game.score(round).expect("a valid paper round");
    }
    assert!(game.is_finished(), "the sheet plays the game to its end");
    GameTotals(
        seats
            .into_iter()
            .zip(game.totals().iter().copied())
            .collect(),
    )
}

/// A drawn round, from the `round_drawn.v1` payload.
#[derive(Debug, Clone)]
pub struct DrawnRound {
    pub stage: u32,
    pub round: u32,
    pub seeds: Vec<Account>,
    /// Players at each table, in seat order.
    pub tables: Vec<Vec<Account>>,
    pub byes: Vec<Account>,
    pub final_table: bool,
    /// Table number -> the online game table the server created for it.
    pub online: BTreeMap<u32, i64>,
}

impl DrawnRound {
    pub fn key(&self, table: u32) -> TableKey {
        (self.stage, self.round, table)
    }
}

fn accounts(value: &Value) -> Vec<Account> {
    serde_json::from_value(value.clone()).unwrap_or_else(|e| panic!("accounts ({e}): {value}"))
}

impl Api {
    /// `POST /v1/tournaments/{id}/draws` with `body`: the raw response.
    pub async fn post_draw(&self, id: i64, token: &str, body: &Value) -> reqwest::Response {
        self.post(&format!("/v1/tournaments/{id}/draws"), token, Some(body))
            .await
    }

    /// Draws the next round (`paper_tables`: table numbers played on paper) and reads the
    /// answer: the draw event, the games it started and the online tables it lists must
    /// agree.
    pub async fn draw_next_round(&self, id: i64, token: &str, paper_tables: &[u32]) -> DrawnRound {
        // No paper table: the body may say nothing at all.
        let body = if paper_tables.is_empty() {
            json!({})
        } else {
            json!({"paper_tables": paper_tables})
        };
        let response = self.post_draw(id, token, &body).await;
        let answer = Self::json_ok(response, StatusCode::OK, "draw").await;
        let events = answer["events"].as_array().expect("events");
        let drawn: Vec<&Value> = events
            .iter()
            .filter(|e| e["type"] == "round_drawn.v1")
            .collect();
        assert_eq!(drawn.len(), 1, "one draw per request: {answer}");
        let draw = &drawn[0]["payload"];
        assert_eq!(draw["precommitted"], true, "the seed was committed: {draw}");
        let stage = draw["stage"].as_u64().expect("stage") as u32;
        let round = draw["round"].as_u64().expect("round") as u32;
        let tables: Vec<Vec<Account>> = draw["tables"]
            .as_array()
            .expect("tables")
            .iter()
            .map(accounts)
            .collect();

        // Every table not on paper has its game started, under the id the answer lists.
        let mut online = BTreeMap::new();
        for entry in answer["online_tables"].as_array().expect("online_tables") {
            let table = &entry["table"];
            assert_eq!(
                (table["stage"].as_u64(), table["round"].as_u64()),
                (Some(stage.into()), Some(round.into()))
            );
            let number = table["table"].as_u64().expect("table number") as u32;
            let game_table = entry["game_table"].as_i64().expect("game_table");
            assert!(
                online.insert(number, game_table).is_none(),
                "listed twice: {answer}"
            );
        }
        let expected: Vec<u32> = (1..=tables.len() as u32)
            .filter(|t| !paper_tables.contains(t))
            .collect();
        assert_eq!(
            online.keys().copied().collect::<Vec<_>>(),
            expected,
            "{answer}"
        );
        let mut started: BTreeMap<u32, String> = BTreeMap::new();
        for event in events
            .iter()
            .filter(|e| e["type"] == "table_game_started.v1")
        {
            let payload = &event["payload"];
            assert_eq!(payload["table"]["stage"].as_u64(), Some(stage.into()));
            assert_eq!(payload["table"]["round"].as_u64(), Some(round.into()));
            let number = payload["table"]["table"].as_u64().expect("table") as u32;
            let game = payload["game"].as_str().expect("the game's id").to_owned();
            assert!(
                started.insert(number, game).is_none(),
                "started twice: {answer}"
            );
        }
        let announced: BTreeMap<u32, String> = online
            .iter()
            .map(|(&t, &game_table)| (t, format!("table-{game_table}")))
            .collect();
        assert_eq!(
            started, announced,
            "table_game_started.v1 names each online game"
        );

        DrawnRound {
            stage,
            round,
            seeds: accounts(&draw["seeds"]),
            tables,
            byes: accounts(&draw["byes"]),
            final_table: draw["final_table"].as_bool().expect("final_table"),
            online,
        }
    }

    /// Every event of tournament `id`, all pages.
    pub async fn tournament_events(&self, id: i64, token: &str) -> Vec<Value> {
        let mut after = 0;
        let mut all = Vec::new();
        loop {
            let page = self
                .tournament_read(id, &format!("/events?after={after}&limit=1000"), token)
                .await;
            all.extend(page["events"].as_array().cloned().unwrap_or_default());
            after = page["next_after"].as_u64().expect("next_after");
            if !page["has_more"].as_bool().expect("has_more") {
                return all;
            }
        }
    }

    /// Polls the bracket until every table of `stage`'s `round` has a result (the server
    /// records online games itself when their last action ends them); its tables then.
    pub async fn wait_for_results(
        &self,
        id: i64,
        token: &str,
        stage: u32,
        round: u32,
    ) -> Vec<Value> {
        let started = Instant::now();
        loop {
            let stages = self.tournament_read(id, "/stages", token).await;
            let tables =
                stages["stages"][stage as usize - 1]["rounds"][round as usize - 1]["tables"]
                    .as_array()
                    .cloned()
                    .unwrap_or_default();
            if !tables.is_empty() && tables.iter().all(|t| !t["result"].is_null()) {
                return tables;
            }
            assert!(
                started.elapsed() < Duration::from_secs(30),
                "stage {stage} round {round} still misses results: {tables:?}"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// The final totals of a finished online table, from its exported game record
    /// replayed by the engine. Seats are named by username in the record.
    pub async fn replayed_totals(
        &self,
        table: i64,
        token: &str,
        by_name: &HashMap<String, Account>,
    ) -> GameTotals {
        let response = self.get(&format!("/v1/tables/{table}/record"), token).await;
        let record = Self::json_ok(response, StatusCode::OK, "record").await;
        assert_eq!(record["format"], "yaniv-record/1", "{record}");
        let replayed = yaniv_domain::record::replay_json(record.to_string().as_bytes())
            .unwrap_or_else(|e| panic!("table {table}'s record replays: {e:?}"));
        assert!(
            replayed.game.is_finished(),
            "table {table}'s record plays the game to its end"
        );
        let names: Vec<String> =
            serde_json::from_value(record["players"].clone()).expect("the record's players");
        GameTotals(
            names
                .iter()
                .map(|name| by_name[name])
                .zip(replayed.game.totals().iter().copied())
                .collect(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(totals: &[u32]) -> GameTotals {
        GameTotals(
            totals
                .iter()
                .enumerate()
                .map(|(i, &t)| (i as Account + 1, t))
                .collect(),
        )
    }

    #[test]
    fn a_tie_for_second_at_five_shares_75_and_50() {
        let lines = score_game(&game(&[10, 40, 40, 90, 120]));
        let points: Vec<i64> = lines.iter().map(|l| l.points).collect();
        assert_eq!(points, vec![84_000, 52_500, 52_500, 21_000, 0]);
        let places: Vec<u8> = lines.iter().map(|l| l.place).collect();
        assert_eq!(places, vec![1, 2, 2, 4, 5]);
        // Mean 60: 10 - 60 = -50 points = -42000 840ths.
        assert_eq!(lines[0].difference, -42_000);
        assert_eq!(lines.iter().map(|l| l.difference).sum::<i64>(), 0);
    }

    #[test]
    fn a_shared_win_counts_for_both_and_thirds_are_exact() {
        let lines = score_game(&game(&[0, 0, 30, 31, 32, 33, 50]));
        assert!(lines[0].win && lines[1].win && !lines[2].win);
        // Places 1 and 2 of 7: (100 + 83.33...) / 2 = 91.66... = 77000 840ths.
        assert_eq!(lines[0].points, 77_000);
        // Place 3 of 7: 66.66... = 56000 840ths.
        assert_eq!(lines[2].points, 56_000);
    }

    #[test]
    fn standings_order_points_then_wins_then_difference_then_registration() {
        // Two games of two: 1 beats 2 by more than 3 beats 4.
        let games = [game(&[0, 100]), GameTotals(vec![(3, 40), (4, 50)])];
        let order: Vec<Account> = qualification_standings(&[4, 3, 2, 1], &games)
            .iter()
            .map(|l| l.player)
            .collect();
        assert_eq!(order, vec![1, 3, 4, 2]);
    }

    #[test]
    fn twelve_seeds_snake_into_three_tables_of_four() {
        let seeds: Vec<Account> = (1..=12).collect();
        assert_eq!(
            snake_tables(&seeds, 4),
            vec![vec![1, 6, 7, 12], vec![2, 5, 8, 11], vec![3, 4, 9, 10]]
        );
    }

    #[test]
    fn the_ranking_puts_the_final_first_then_the_knockout_then_the_rest() {
        let qualification =
            qualification_standings(&[1, 2, 3, 4, 5], &[game(&[0, 10, 20, 30, 40])]);
        let knockout = [
            KnockoutStage {
                stage: 2,
                seeds: vec![1, 2, 3, 4],
                tables: vec![GameTotals(vec![(1, 50), (2, 50), (3, 10), (4, 60)])],
                final_table: false,
            },
            KnockoutStage {
                stage: 3,
                seeds: vec![1, 3],
                tables: vec![GameTotals(vec![(3, 7), (1, 7)])],
                final_table: true,
            },
        ];
        let ranking = final_ranking(&qualification, &knockout, 2);
        let order: Vec<(Account, Reached)> =
            ranking.iter().map(|r| (r.player, r.reached)).collect();
        assert_eq!(
            order,
            vec![
                (1, Reached::Final { place_at_table: 1 }),
                (3, Reached::Final { place_at_table: 1 }),
                (
                    2,
                    Reached::Knockout {
                        stage: 2,
                        place_at_table: 2
                    }
                ),
                (
                    4,
                    Reached::Knockout {
                        stage: 2,
                        place_at_table: 4
                    }
                ),
                (5, Reached::Qualification),
            ]
        );
        assert_eq!(
            ranking.iter().map(|r| r.place).collect::<Vec<_>>(),
            vec![1, 2, 3, 4, 5]
        );
    }
}
