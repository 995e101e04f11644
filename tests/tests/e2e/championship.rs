//! A 23-player championship played to the end through the API: three Swiss
//! qualification rounds (tables of 6, 6, 6, 5), a cut to the top 12, three knockout
//! tables of 4 whose top 2 go through, and a final table of 6. The server draws every
//! round from seeds it committed to beforehand and starts an online game for each drawn
//! table; the players (driven by the test) play them through `/v1/tables`, and the server
//! records each result when the game ends. One qualification table is played on paper
//! and entered by a referee; a referee corrects one result after the next round was
//! drawn.
//!
//! The standings after the qualification, the knockout seeds, who goes through and the
//! published final ranking are checked against an independent recomputation
//! (`yaniv_e2e_tests::championship`) from what the test learned itself: each online
//! game's exported record replayed by the game engine, the paper sheet, the correction
//! it sent, the seating of each draw, and the registration order. The tournament code of
//! the domain is used once, apart from that recomputation: to ask which draws the
//! correction flags (a re-run of later draws, which only the seating code can answer).

use std::collections::{BTreeMap, HashMap, HashSet};
use std::time::Instant;

use reqwest::StatusCode;
use serde_json::{Value, json};
use yaniv_api::checkpoints;
use yaniv_domain::rules::{RuleSpec, Rules};
use yaniv_domain::shuffle::Seed;
use yaniv_domain::tournament::{Command, Context, Event, Tournament};
use yaniv_e2e_tests::championship::{
    Account, DrawnRound, GameTotals, KnockoutStage, TableKey, final_ranking, game_result_input,
    going_through, paper_totals, qualification_standings, ranking_of, result_lines,
    result_lines_of, snake_tables, standings_of, table_ref,
};
use yaniv_e2e_tests::cli::{keep_archive, verify_offline};
use yaniv_e2e_tests::tables::{Api, Player, play_to_end};
use yaniv_e2e_tests::tournaments::paper_sheet;
use yaniv_e2e_tests::{TestApp, expect_problem, join_all, spawn_app};

const PLAYERS: usize = 23;
const QUALIFICATION_ROUNDS: u32 = 3;
const CUT: usize = 12;
const KNOCKOUT_TABLE_SIZE: usize = 4;
const ADVANCE_PER_TABLE: usize = 2;
/// The qualification round with a paper table, and which table it is (the table of 5).
const PAPER_ROUND: u32 = 2;
const PAPER_TABLE: u32 = 4;
/// Most actions a game may take before the test gives up on it.
const MAX_ACTIONS: usize = 5_000;

/// The Belgian championship's rules: the game ends as soon as anyone passes 150.
fn rule_spec() -> Value {
    json!({"preset": "belgian"})
}

/// Everything the test knows of the championship, learned outside the tournament's
/// computed views.
struct Championship {
    api: Api,
    id: i64,
    organizer: Player,
    referee: Player,
    /// In registration order.
    players: Vec<Player>,
    by_account: HashMap<Account, Player>,
    by_name: HashMap<String, Account>,
    rules: Rules,
    /// Each table's game as it was played (replayed record or paper sheet).
    played: BTreeMap<TableKey, GameTotals>,
    /// Corrections the referee sent, by table.
    corrected: BTreeMap<TableKey, GameTotals>,
    /// The online game table of each table played online.
    game_tables: BTreeMap<TableKey, i64>,
}

impl Championship {
    /// The game of `key` as it counts: corrected, or as played.
    fn counted(&self, key: TableKey) -> GameTotals {
        self.corrected
            .get(&key)
            .or_else(|| self.played.get(&key))
            .unwrap_or_else(|| panic!("no game known for {key:?}"))
            .clone()
    }

    fn registration_order(&self) -> Vec<Account> {
        self.players.iter().map(|p| p.id).collect()
    }

    /// The qualification games of rounds `1..=rounds`, corrected or as played.
    fn qualification_games(&self, rounds: u32, corrected: bool) -> Vec<GameTotals> {
        self.played
            .keys()
            .filter(|&&(stage, round, _)| stage == 1 && round <= rounds)
            .map(|&key| {
                if corrected {
                    self.counted(key)
                } else {
                    self.played[&key].clone()
                }
            })
            .collect()
    }

    async fn command(&self, token: &str, command: Value) -> Value {
        self.api.accepted(self.id, token, &command).await
    }

    /// Plays a drawn round: every online table at once through `/v1/tables`, the paper
    /// table (if any) entered by the referee; waits for the server to show every result
    /// and checks each against what the test learned of the game.
    async fn play_round(&mut self, drawn: &DrawnRound, paper_table: Option<u32>) {
        let started = Instant::now();
        let expected_rules = serde_json::to_value(&self.rules).expect("rules JSON");
        let mut seated: Vec<(i64, Vec<Player>)> = Vec::new();
        for (&number, &game_table) in &drawn.online {
            let seats = &drawn.tables[number as usize - 1];
            let humans: Vec<Player> = seats.iter().map(|a| self.by_account[a].clone()).collect();
            let summary = self.api.summary(game_table, &humans[0].token).await;
            assert_eq!(summary["status"], "playing", "dealt at the draw: {summary}");
            let seat_accounts: Vec<Option<i64>> = summary["seats"]
                .as_array()
                .expect("seats")
                .iter()
                .map(|s| s["account_id"].as_i64())
                .collect();
            let drawn_order: Vec<Option<i64>> = seats.iter().map(|&a| Some(a)).collect();
            assert_eq!(seat_accounts, drawn_order, "seats follow the drawn order");
            assert_eq!(
                summary["effective_rules"], expected_rules,
                "the game plays the tournament's rules"
            );
            self.game_tables.insert(drawn.key(number), game_table);
            seated.push((game_table, humans));
        }

        if let Some(number) = paper_table {
            assert!(!drawn.online.contains_key(&number));
            let key = drawn.key(number);
            let seats = &drawn.tables[number as usize - 1];
            let (sheet, order) = paper_sheet(&self.rules, seats);
            let totals = paper_totals(&self.rules, &sheet);
            assert_eq!(order[0], best_of(&totals), "the sheet's winner");
            let answer = self
                .command(
                    &self.referee.token,
                    json!({"command": "record_result", "table": table_ref(key), "input": sheet}),
                )
                .await;
            assert_eq!(answer["events"][0]["type"], "result_recorded.v1");
            self.played.insert(key, totals);
        }

        let played = join_all(seated.iter().map(|(table, humans)| {
            play_to_end(&self.api, *table, humans, MAX_ACTIONS, 0, |_| async {})
        }))
        .await;
        let actions: Vec<usize> = played.iter().map(|p| p.actions).collect();
        eprintln!(
            "stage {} round {}: {} online tables played in {:.1?} ({actions:?} actions)",
            drawn.stage,
            drawn.round,
            seated.len(),
            started.elapsed()
        );

        let token = self.organizer.token.clone();
        let tables = self
            .api
            .wait_for_results(self.id, &token, drawn.stage, drawn.round)
            .await;
        assert_eq!(tables.len(), drawn.tables.len());
        for (&number, &game_table) in &drawn.online {
            let totals = self
                .api
                .replayed_totals(game_table, &token, &self.by_name)
                .await;
            assert_eq!(totals.players(), drawn.tables[number as usize - 1]);
            self.played.insert(drawn.key(number), totals);
        }
        for (i, table) in tables.iter().enumerate() {
            let key = drawn.key(i as u32 + 1);
            assert_eq!(
                result_lines_of(&table["result"]),
                result_lines(&self.played[&key]),
                "the result of {key:?} is the game's"
            );
            let game = self.game_tables.get(&key).map(|t| format!("table-{t}"));
            assert_eq!(table["game"].as_str().map(str::to_owned), game, "{table}");
        }
    }

    /// The referee's correction of a round-1 result after round 2 was drawn: a review
    /// of the score sheet found the best and the worst total of the table written the
    /// wrong way round.
    async fn correct_a_round_one_result(&mut self) {
        let (key, played) = self
            .played
            .iter()
            .find(|&(&(stage, round, _), game)| {
                stage == 1 && round == 1 && game.0.iter().any(|&(_, t)| t != game.0[0].1)
            })
            .map(|(&key, game)| (key, game.clone()))
            .expect("a round-1 table whose totals differ");
        let best = played.0.iter().position(|&(_, t)| t == min_total(&played));
        let worst = played.0.iter().position(|&(_, t)| t == max_total(&played));
        let (best, worst) = (best.expect("best"), worst.expect("worst"));
        let mut corrected = played.clone();
        corrected.0[best].1 = played.0[worst].1;
        corrected.0[worst].1 = played.0[best].1;

        let version_before = self
            .api
            .tournament_read(self.id, "", &self.referee.token)
            .await["version"]
            .as_u64()
            .expect("version");
        let command = json!({
            "command": "correct_result",
            "table": table_ref(key),
            "input": game_result_input(&corrected),
            "reason": "Review of the score sheet: the best and the worst total were swapped.",
        });
        let answer = self.command(&self.referee.token, command.clone()).await;
        let event = &answer["events"][0];
        assert_eq!(event["type"], "result_corrected.v1", "{answer}");
        assert_eq!(event["version"].as_u64(), Some(version_before + 1));
        let payload = &event["payload"];
        assert_eq!(payload["by"], json!({"account": self.referee.id}));
        assert_eq!(
            result_lines_of(&payload["result"]),
            result_lines(&corrected)
        );

        // The flags: only round 2 has been drawn after round 1, so it is the only
        // candidate; whether it is flagged is the domain's call (`decide/flags.rs`: the
        // draw re-planned on the corrected state with its own seed differs). Ask the
        // domain on the events the server had stored before the correction.
        let flagged = payload["flagged"].as_array().expect("flagged").clone();
        let round_two = json!({"stage": 1, "round": 2});
        assert!(flagged.iter().all(|r| *r == round_two), "{flagged:?}");
        let stream = self
            .api
            .tournament_events(self.id, &self.referee.token)
            .await;
        let before: Vec<Event> = stream
            .iter()
            .filter(|e| e["version"].as_u64().is_some_and(|v| v <= version_before))
            .map(|e| serde_json::from_value(e["payload"].clone()).expect("a domain event"))
            .collect();
        assert_eq!(before.len() as u64, version_before);
        let decided = Tournament::from_events(&before)
            .decide(
                &Context::account(self.referee.id, 0),
                &serde_json::from_value::<Command>(command).expect("a domain command"),
            )
            .expect("the domain accepts the correction");
        let [Event::ResultCorrected(by_domain)] = decided.as_slice() else {
            panic!("one correction event: {decided:?}");
        };
        assert_eq!(
            json!(flagged),
            serde_json::to_value(&by_domain.flagged).expect("flags JSON"),
            "the flags are the domain's"
        );
        eprintln!("correction of {key:?} flags {flagged:?}");
        let view = &answer["tournament"];
        assert_eq!(view["flagged_rounds"], json!(flagged));
        let stages = self
            .api
            .tournament_read(self.id, "/stages", &self.referee.token)
            .await;
        assert_eq!(
            stages["stages"][0]["rounds"][1]["flagged"].as_bool(),
            Some(!flagged.is_empty())
        );
        let table = &stages["stages"][0]["rounds"][0]["tables"][key.2 as usize - 1];
        assert_eq!(table["corrections"], 1);
        assert_eq!(result_lines_of(&table["result"]), result_lines(&corrected));

        self.corrected.insert(key, corrected);

        // The standings reflect the correction at once, and it does change them.
        let registration = self.registration_order();
        let with = qualification_standings(&registration, &self.qualification_games(1, true));
        let without = qualification_standings(&registration, &self.qualification_games(1, false));
        assert_ne!(with, without, "the correction changes the standings");
        let shown = self
            .api
            .tournament_read(self.id, "/standings", &self.players[0].token)
            .await;
        assert_eq!(standings_of(&shown["standings"]), with);
    }

    /// Checks the whole event stream: every draw used the seed committed before it, the
    /// registrations are numbered in the order they were sent, every result is the
    /// game's and came from the right hands.
    async fn audit_stream(&self) {
        let stream = self
            .api
            .tournament_events(self.id, &self.organizer.token)
            .await;
        let mut pending_commitment: Option<String> = None;
        let mut draws = 0;
        let mut registrations = 0;
        let mut recorded = 0;
        for (i, event) in stream.iter().enumerate() {
            assert_eq!(event["version"].as_u64(), Some(i as u64 + 1));
            let payload = &event["payload"];
            assert_eq!(payload["type"], event["type"]);
            match event["type"].as_str().expect("type") {
                "draw_seed_committed.v1" => {
                    let commitment = payload["commitment"].as_str().expect("commitment");
                    assert!(
                        pending_commitment.replace(commitment.to_owned()).is_none(),
                        "a second commitment before a draw used the first"
                    );
                }
                "round_drawn.v1" => {
                    draws += 1;
                    assert_eq!(payload["precommitted"], true);
                    let seed = Seed::from_hex(payload["seed"].as_str().expect("seed"))
                        .expect("a revealed seed");
                    let commitment = payload["commitment"].as_str().expect("commitment");
                    assert_eq!(
                        seed.commitment().to_hex(),
                        commitment,
                        "SHA-256 of the seed"
                    );
                    assert_eq!(
                        pending_commitment.take().as_deref(),
                        Some(commitment),
                        "the draw used the seed committed before it"
                    );
                }
                "round_redrawn.v1" => panic!("nothing was redrawn: {event}"),
                "player_registered.v1" => {
                    registrations += 1;
                    assert_eq!(payload["player"], self.players[registrations - 1].id);
                    assert_eq!(payload["order"], registrations);
                }
                "result_recorded.v1" => {
                    recorded += 1;
                    let table = &payload["table"];
                    let key = (
                        table["stage"].as_u64().expect("stage") as u32,
                        table["round"].as_u64().expect("round") as u32,
                        table["table"].as_u64().expect("table") as u32,
                    );
                    assert_eq!(
                        result_lines_of(&payload["result"]),
                        result_lines(&self.played[&key])
                    );
                    let input = &payload["input"];
                    match self.game_tables.get(&key) {
                        Some(game_table) => {
                            assert_eq!(payload["by"], "server", "{event}");
                            assert_eq!(input["source"], "game");
                            assert_eq!(input["game"], format!("table-{game_table}"));
                        }
                        None => {
                            assert_eq!(payload["by"], json!({"account": self.referee.id}));
                            assert_eq!(input["source"], "paper_rounds");
                        }
                    }
                }
                _ => {}
            }
        }
        assert_eq!(
            draws,
            QUALIFICATION_ROUNDS + 2,
            "3 rounds, the knockout, the final"
        );
        assert_eq!(registrations, PLAYERS);
        assert_eq!(recorded, self.played.len());
        assert_eq!(
            stream.last().map(|e| e["type"].clone()),
            Some(json!("tournament_finished.v1"))
        );
    }
}

fn min_total(game: &GameTotals) -> u32 {
    game.0.iter().map(|&(_, t)| t).min().expect("players")
}

fn max_total(game: &GameTotals) -> u32 {
    game.0.iter().map(|&(_, t)| t).max().expect("players")
}

/// The first player (in seat order) with the lowest total.
fn best_of(game: &GameTotals) -> Account {
    let lowest = min_total(game);
    game.0
        .iter()
        .find(|&&(_, t)| t == lowest)
        .map(|&(p, _)| p)
        .expect("players")
}

/// Creates the accounts and the tournament, registers and checks in everyone, and
/// starts the qualification.
async fn set_up(app: &TestApp) -> Championship {
    let api = app.api();
    let organizer = app.new_organizer("organizer").await;
    let referee = app.new_referee("referee").await;
    let names: Vec<String> = (1..=PLAYERS).map(|i| format!("player{i:02}")).collect();
    let players: Vec<Player> = join_all(names.iter().map(|name| app.new_player(name))).await;
    let rules = serde_json::from_value::<RuleSpec>(rule_spec())
        .expect("a rule spec")
        .resolve()
        .expect("valid rules");

    let created = api
        .create_tournament(
            &organizer.token,
            &json!({
                "name": "Belgian championship",
                "rules": rule_spec(),
                "capacity": PLAYERS,
                "config": {
                    "qualification_rounds": QUALIFICATION_ROUNDS,
                    "table_min": 4,
                    "table_max": 6,
                    "knockout_cut": {"top": CUT},
                    "knockout_table_size": KNOCKOUT_TABLE_SIZE,
                    "advance_per_table": ADVANCE_PER_TABLE,
                },
            }),
        )
        .await;
    let id = created["id"].as_i64().expect("id");
    assert!(
        created["tournament"]["pending_commitment"].is_string(),
        "the first draw's seed is committed at creation: {created}"
    );
    let championship = Championship {
        api,
        id,
        by_account: players.iter().map(|p| (p.id, p.clone())).collect(),
        by_name: players.iter().map(|p| (p.name.clone(), p.id)).collect(),
        players,
        organizer,
        referee,
        rules,
        played: BTreeMap::new(),
        corrected: BTreeMap::new(),
        game_tables: BTreeMap::new(),
    };
    let c = &championship;
    let org = &c.organizer.token;
    c.command(
        org,
        json!({"command": "add_referee", "referee": c.referee.id}),
    )
    .await;
    c.command(org, json!({"command": "open_registration"}))
        .await;
    // One at a time, so the test knows the registration order (the last tie-break).
    for p in &c.players {
        c.command(&p.token, json!({"command": "register", "player": p.id}))
            .await;
    }
    c.command(org, json!({"command": "close_registration"}))
        .await;
    for p in &c.players {
        c.command(&p.token, json!({"command": "check_in", "player": p.id}))
            .await;
    }
    let started = c
        .command(org, json!({"command": "start_qualification"}))
        .await;
    assert_eq!(started["tournament"]["phase"], "qualification");
    assert_eq!(started["events"][0]["payload"]["dropped"], json!([]));

    // The server holds the seeds: organizers cannot draw with their own.
    for refused in [
        json!({"command": "commit_draw_seed", "commitment": "22".repeat(32)}),
        json!({"command": "draw_round", "seed": "11".repeat(32)}),
        json!({"command": "redraw_round", "round": {"stage": 1, "round": 1},
               "seed": "11".repeat(32), "reason": "a seed of my own"}),
    ] {
        let response = c.api.tournament_command(id, org, &refused, None).await;
        expect_problem(
            response,
            StatusCode::UNPROCESSABLE_ENTITY,
            "draws_by_server",
        )
        .await;
    }
    championship
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_23_player_championship_is_played_to_its_ranking() {
    let clock = Instant::now();
    let app = spawn_app().await;
    let mut c = set_up(&app).await;
    let id = c.id;
    let org = c.organizer.token.clone();
    eprintln!("set up in {:.1?}", clock.elapsed());

    // Only the organizer draws.
    let refused = c.api.post_draw(id, &c.referee.token, &json!({})).await;
    assert_eq!(refused.status(), StatusCode::FORBIDDEN);

    // Qualification: three Swiss rounds of 6, 6, 6, 5.
    for round in 1..=QUALIFICATION_ROUNDS {
        let paper = (round == PAPER_ROUND).then_some(PAPER_TABLE);
        let drawn = c.api.draw_next_round(id, &org, paper.as_slice()).await;
        assert_eq!((drawn.stage, drawn.round), (1, round));
        let sizes: Vec<usize> = drawn.tables.iter().map(Vec::len).collect();
        assert_eq!(sizes, vec![6, 6, 6, 5]);
        let everyone: HashSet<Account> = drawn.tables.iter().flatten().copied().collect();
        assert_eq!(everyone.len(), PLAYERS, "everybody sits once");
        assert!(drawn.seeds.is_empty() && drawn.byes.is_empty() && !drawn.final_table);
        if round == 2 {
            c.correct_a_round_one_result().await;
        }
        c.play_round(&drawn, paper).await;
    }

    // The qualification standings, recomputed from the games.
    let registration = c.registration_order();
    let standings = qualification_standings(
        &registration,
        &c.qualification_games(QUALIFICATION_ROUNDS, true),
    );
    let shown = c.api.tournament_read(id, "/standings", &org).await;
    assert_eq!(standings_of(&shown["standings"]), standings);
    assert!(standings.iter().all(|l| l.games == QUALIFICATION_ROUNDS));

    // Knockout: the top 12, snake-seeded into three tables of 4.
    let advanced = c.command(&org, json!({"command": "advance_stage"})).await;
    assert_eq!(advanced["tournament"]["phase"], "knockout");
    let knockout_seeds: Vec<Account> = standings[..CUT].iter().map(|l| l.player).collect();
    let drawn = c.api.draw_next_round(id, &org, &[]).await;
    assert_eq!((drawn.stage, drawn.round), (2, 1));
    assert_eq!(
        drawn.seeds, knockout_seeds,
        "the cut is the top of the standings"
    );
    assert!(drawn.byes.is_empty() && !drawn.final_table);
    let grouped: Vec<Vec<Account>> = drawn
        .tables
        .iter()
        .map(|t| {
            let mut t = t.clone();
            t.sort_unstable();
            t
        })
        .collect();
    assert_eq!(grouped, snake_tables(&knockout_seeds, KNOCKOUT_TABLE_SIZE));
    c.play_round(&drawn, None).await;
    let knockout_tables: Vec<GameTotals> = (1..=drawn.tables.len() as u32)
        .map(|t| c.counted(drawn.key(t)))
        .collect();
    let through: HashSet<Account> = knockout_tables
        .iter()
        .flat_map(|t| going_through(t, &knockout_seeds, ADVANCE_PER_TABLE))
        .collect();
    let stages = c.api.tournament_read(id, "/stages", &org).await;
    for (i, table) in knockout_tables.iter().enumerate() {
        assert_eq!(
            stages["stages"][1]["rounds"][0]["tables"][i]["advancing"],
            json!(going_through(table, &knockout_seeds, ADVANCE_PER_TABLE)),
            "who goes through knockout table {}",
            i + 1
        );
    }

    // The final table: the six who went through, in their seed order.
    c.command(&org, json!({"command": "advance_stage"})).await;
    let final_seeds: Vec<Account> = knockout_seeds
        .iter()
        .copied()
        .filter(|p| through.contains(p))
        .collect();
    assert_eq!(final_seeds.len(), 3 * ADVANCE_PER_TABLE);
    let drawn_final = c.api.draw_next_round(id, &org, &[]).await;
    assert_eq!((drawn_final.stage, drawn_final.round), (3, 1));
    assert_eq!(drawn_final.seeds, final_seeds);
    assert!(drawn_final.final_table && drawn_final.byes.is_empty());
    assert_eq!(drawn_final.tables.len(), 1);
    let mut at_final = drawn_final.tables[0].clone();
    at_final.sort_unstable();
    let mut expected_final = final_seeds.clone();
    expected_final.sort_unstable();
    assert_eq!(at_final, expected_final);
    c.play_round(&drawn_final, None).await;

    // Nothing more to draw.
    let response = c.api.post_draw(id, &org, &json!({})).await;
    assert_eq!(response.status(), StatusCode::CONFLICT);

    let finished = c.command(&org, json!({"command": "finish"})).await;
    assert_eq!(finished["tournament"]["phase"], "finished");
    let published = &finished["events"][0];
    assert_eq!(published["type"], "tournament_finished.v1");

    // The final ranking, recomputed.
    let knockout = [
        KnockoutStage {
            stage: 2,
            seeds: knockout_seeds,
            tables: knockout_tables,
            final_table: false,
        },
        KnockoutStage {
            stage: 3,
            seeds: final_seeds,
            tables: vec![c.counted(drawn_final.key(1))],
            final_table: true,
        },
    ];
    let expected = final_ranking(&standings, &knockout, ADVANCE_PER_TABLE);
    assert_eq!(expected.len(), PLAYERS);
    let ranking = c
        .api
        .tournament_read(id, "/ranking", &c.players[5].token)
        .await;
    assert_eq!(ranking["published"], true);
    assert_eq!(ranking_of(&ranking["ranking"]["ranking"]), expected);
    assert_eq!(ranking["ranking"]["disqualified"], json!([]));
    assert_eq!(
        published["payload"]["ranking"],
        ranking["ranking"]["ranking"]
    );

    c.audit_stream().await;

    // The stored stream verifies: hash chain and the domain's audit.
    let response = c
        .api
        .post(
            &format!("/v1/tournaments/{id}/verify"),
            &c.referee.token,
            None,
        )
        .await;
    let verdict = Api::json_ok(response, StatusCode::OK, "verify").await;
    assert_eq!(verdict["ok"], true, "{verdict}");

    // Its archive checks out offline too, with `yaniv verify` and with the reference
    // verifier written from docs/verification.md alone (Swiss rounds, a paper table, a
    // correction, knockout tables and a final among what they re-derive).
    checkpoints::write(&app.db).await.expect("a checkpoint");
    let response = c
        .api
        .get(
            &format!("/v1/tournaments/{id}/archive"),
            &c.players[0].token,
        )
        .await;
    let archive = Api::json_ok(response, StatusCode::OK, "archive").await;
    assert_eq!(
        archive["streams"].as_array().map(Vec::len),
        Some(1 + c.game_tables.len()),
        "the tournament and every online game it opened"
    );
    keep_archive(&archive, "championship-23.yaniv-archive.json");
    let (status, verdict) = verify_offline(&archive);
    assert_eq!(status, 0, "{verdict:#}");
    assert!(
        verdict["games_checked"].as_u64() > Some(0),
        "the online results were compared with their games: {verdict:#}"
    );

    eprintln!("championship played in {:.1?}", clock.elapsed());
}
