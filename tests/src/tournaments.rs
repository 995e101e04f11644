//! Helpers of the tournament tests: organizer accounts, typed requests on
//! `/v1/tournaments`, and a referee's paper sheet for a table (round by round,
//! scored beforehand with the rules engine so the test knows who won).

use reqwest::{Response, StatusCode};
use serde_json::{Value, json};
use yaniv_domain::rules::Rules;
use yaniv_domain::tournament::{PaperEnding, PaperGame, PaperRound};

use crate::TestApp;
use crate::tables::{Api, Player, play_to_end};

impl TestApp {
    /// Registers `name` and makes it an organizer (and player).
    pub async fn new_organizer(&self, name: &str) -> Player {
        self.new_player_with_role(name, "organizer").await
    }
}

impl Api {
    /// Records table `at`'s result by hand: its players finish in the order given
    /// (totals 10, 30, 50, ...).
    pub async fn record_order(&self, id: i64, token: &str, at: &Value, order: &[i64]) -> Value {
        let standings: Vec<Value> = order
            .iter()
            .enumerate()
            .map(|(i, p)| json!({"player": p, "total": 20 * i + 10, "place": i + 1}))
            .collect();
        self.accepted(
            id,
            token,
            &json!({"command": "record_result", "table": at,
                    "input": {"source": "game", "standings": standings}}),
        )
        .await
    }

    /// After the qualification: the next stage (the cut), its one table drawn on paper,
    /// its players entered in seat order, and the tournament finished.
    pub async fn finish_with_a_paper_final(&self, id: i64, token: &str) {
        self.accepted(id, token, &json!({"command": "advance_stage"}))
            .await;
        self.draw(id, token, &json!({"paper_tables": [1]})).await;
        let stages = self.tournament_read(id, "/stages", token).await;
        let (final_table, finalists) = tables_of(&stages, 2, 1)[0].clone();
        self.record_order(id, token, &final_table, &finalists).await;
        self.accepted(id, token, &json!({"command": "finish"}))
            .await;
    }

    /// `POST /v1/tournaments`, expecting 201.
    pub async fn create_tournament(&self, token: &str, body: &Value) -> Value {
        let response = self.post("/v1/tournaments", token, Some(body)).await;
        Self::json_ok(response, StatusCode::CREATED, "create tournament").await
    }

    /// A tournament `org` creates from `body`, then opens registration, registers
    /// `players`, closes registration, has each player check in and starts the
    /// qualification; its id.
    pub async fn started_tournament(&self, org: &Player, players: &[Player], body: &Value) -> i64 {
        self.started_tournament_refereed(org, &[], players, body)
            .await
    }

    /// [`Api::started_tournament`] with `referees` named before anyone registers (an
    /// organizer who plays needs one who does not).
    pub async fn started_tournament_refereed(
        &self,
        org: &Player,
        referees: &[&Player],
        players: &[Player],
        body: &Value,
    ) -> i64 {
        let id = self
            .checked_in_tournament(org, referees, players, body)
            .await;
        let started = self
            .accepted(id, &org.token, &json!({"command": "start_qualification"}))
            .await;
        assert_eq!(started["tournament"]["phase"], "qualification");
        id
    }

    /// [`Api::started_tournament_refereed`] up to the start: registration closed and
    /// every player checked in, the qualification not yet started.
    pub async fn checked_in_tournament(
        &self,
        org: &Player,
        referees: &[&Player],
        players: &[Player],
        body: &Value,
    ) -> i64 {
        let created = self.create_tournament(&org.token, body).await;
        let id = created["id"].as_i64().expect("tournament id");
        for referee in referees {
            let add = json!({"command": "add_referee", "referee": referee.id});
            self.accepted(id, &org.token, &add).await;
        }
        self.accepted(id, &org.token, &json!({"command": "open_registration"}))
            .await;
        for p in players {
            let register = json!({"command": "register", "player": p.id});
            self.accepted(id, &org.token, &register).await;
        }
        self.accepted(id, &org.token, &json!({"command": "close_registration"}))
            .await;
        // Each player checks in in person.
        for p in players {
            let check_in = json!({"command": "check_in", "player": p.id});
            self.accepted(id, &p.token, &check_in).await;
        }
        id
    }

    /// `POST /v1/tournaments/{id}/commands`, optionally with an `Idempotency-Key`.
    pub async fn tournament_command(
        &self,
        id: i64,
        token: &str,
        command: &Value,
        key: Option<&str>,
    ) -> Response {
        let mut request = self
            .client
            .post(self.url(&format!("/v1/tournaments/{id}/commands")))
            .bearer_auth(token)
            .json(command);
        if let Some(key) = key {
            request = request.header("Idempotency-Key", key);
        }
        request.send().await.expect("POST command")
    }

    /// A command that must be accepted: its answer.
    pub async fn accepted(&self, id: i64, token: &str, command: &Value) -> Value {
        let response = self.tournament_command(id, token, command, None).await;
        Self::json_ok(response, StatusCode::OK, &format!("command {command}")).await
    }

    /// `POST /v1/tournaments/{id}/draws` with `body`, expecting 200.
    pub async fn draw(&self, id: i64, token: &str, body: &Value) -> Value {
        let response = self
            .post(&format!("/v1/tournaments/{id}/draws"), token, Some(body))
            .await;
        Self::json_ok(response, StatusCode::OK, &format!("draw {body}")).await
    }

    /// `GET /v1/tournaments/{id}{suffix}` (`""`, `"/standings"`, `"/stages"`, ...),
    /// expecting 200.
    pub async fn tournament_read(&self, id: i64, suffix: &str, token: &str) -> Value {
        let response = self
            .get(&format!("/v1/tournaments/{id}{suffix}"), token)
            .await;
        Self::json_ok(
            response,
            StatusCode::OK,
            &format!("GET tournament {suffix}"),
        )
        .await
    }
}

/// A referee's sheet for a table whose players are `seats` (in the direction of
/// play): seat 0 calls Yaniv with an empty hand every round, the others show
/// `5 + 6 * seat` points (distinct, and at most 47, a total a hand can show, for up to
/// 8 seats), until the rules end the game. Returns the
/// `paper_rounds` result input and the accounts in final order (winner first).
pub fn paper_sheet(rules: &Rules, seats: &[i64]) -> (Value, Vec<i64>) {
    let mut game = PaperGame::new(rules, seats.len()).expect("a paper game");
    let mut rounds = Vec::new();
    while !game.is_finished() {
        assert!(rounds.len() < 200, "the paper game does not end");
        let round = PaperRound {
            ending: PaperEnding::Call {
                caller: 0,
                declared: Vec::new(),
            },
            hand_totals: (0..seats.len())
                .map(|s| Some(if s == 0 { 0 } else { 5 + 6 * s as u32 }))
                .collect(),
        };
        game.score(&round).expect("a valid paper round");
        rounds.push(round);
    }
    let mut standings = game.standings();
    standings.sort_by_key(|s| (s.place, s.seat));
    let order = standings
        .iter()
        .map(|s| seats[usize::from(s.seat)])
        .collect();
    let input = json!({"source": "paper_rounds", "seats": seats, "rounds": rounds});
    (input, order)
}

/// The commitment (SHA-256, hex) of a seed given in hex: what a draw's `commitment`
/// must be for its revealed `seed`.
pub fn sha256_hex(seed_hex: &str) -> String {
    yaniv_domain::shuffle::Seed::from_hex(seed_hex)
        .expect("a seed in hex")
        .commitment()
        .to_hex()
}

/// The tables of `stage`'s `round` as `(table ref, players in seat order)`.
pub fn tables_of(stages: &Value, stage: usize, round: usize) -> Vec<(Value, Vec<i64>)> {
    stages["stages"][stage - 1]["rounds"][round - 1]["tables"]
        .as_array()
        .expect("tables")
        .iter()
        .map(|t| {
            let players = t["players"]
                .as_array()
                .expect("players")
                .iter()
                .map(|p| p.as_i64().expect("an account id"))
                .collect();
            (t["table"].clone(), players)
        })
        .collect()
}

/// The standings as CSV, asked both ways, say what the JSON says, row for row.
pub async fn standings_csv_matches(app: &TestApp, id: i64, rows: &[Value]) {
    let path = format!("/v1/tournaments/{id}/standings");
    let by_format = app.get(&format!("{path}?format=csv"), None).await;
    let by_accept = app
        .client
        .get(app.url(&path))
        .header("accept", "text/csv")
        .send()
        .await
        .expect("GET");
    let mut documents = Vec::new();
    for response in [by_format, by_accept] {
        assert_eq!(response.status(), StatusCode::OK);
        assert_eq!(
            response.headers()["content-type"],
            "text/csv; charset=utf-8"
        );
        assert!(
            response.headers()["content-disposition"]
                .to_str()
                .unwrap()
                .starts_with("attachment; filename=\"tournament-")
        );
        documents.push(response.text().await.expect("the CSV"));
    }
    assert_eq!(documents[0], documents[1]);
    let lines: Vec<&str> = documents[0]
        .split("\r\n")
        .filter(|l| !l.is_empty())
        .collect();
    assert_eq!(
        lines[0],
        "place,player,username,games,absences,wins,table_points,score_difference,\
         table_points_840ths,score_difference_840ths,registration,withdrawn"
    );
    assert_eq!(lines.len(), rows.len() + 1);
    for (line, row) in lines[1..].iter().zip(rows) {
        let expected = [
            row["place"].to_string(),
            row["player"].to_string(),
            row["username"].as_str().unwrap().to_owned(),
            row["games"].to_string(),
            row["absences"].to_string(),
            row["wins"].to_string(),
            row["table_points_decimal"].as_str().unwrap().to_owned(),
            row["score_difference_decimal"].as_str().unwrap().to_owned(),
            row["table_points"].to_string(),
            row["score_difference"].to_string(),
            row["registration"].to_string(),
            row["withdrawn"].to_string(),
        ]
        .join(",");
        assert_eq!(*line, expected);
    }
    let bad = app.get(&format!("{path}?format=xml"), None).await;
    assert_eq!(bad.status(), StatusCode::UNPROCESSABLE_ENTITY);
}

/// The players of the page tests' cups, in registration order.
pub const CUP_PLAYERS: [&str; 8] = [
    "ann_v", "bram_d", "chloe_m", "dirk_j", "els_w", "femke_b", "geert_p", "hanne_v",
];

/// An 8-player Belgian cup named `name`, tables of four, one qualification round,
/// drawn with the tables `paper` on paper: its id, the organizer (`organizer`), the
/// players and the round's tables (each with its seats' account ids).
pub async fn paper_cup(
    app: &TestApp,
    name: &str,
    organizer: &str,
    paper: &[u32],
) -> (i64, Player, Vec<Player>, Vec<(Value, Vec<i64>)>) {
    let api = app.api();
    let org = app.new_organizer(organizer).await;
    let mut players = Vec::new();
    for player in CUP_PLAYERS {
        players.push(app.new_player(player).await);
    }
    let id = api
        .started_tournament(
            &org,
            &players,
            &json!({
                "name": name,
                "rules": {"preset": "belgian"},
                "capacity": 8,
                "config": {"qualification_rounds": 1, "table_min": 4, "table_max": 4},
            }),
        )
        .await;
    api.draw(id, &org.token, &json!({"paper_tables": paper}))
        .await;
    let stages = api.tournament_read(id, "/stages", &org.token).await;
    (id, org, players, tables_of(&stages, 1, 1))
}

/// A four-player cup with short games, drawn, its online game played to the end:
/// the API, the tournament, its organizer, and the game table.
pub async fn cup_with_a_finished_online_game(app: &TestApp) -> (Api, i64, Player, i64) {
    cup_with_a_finished_online_game_and(app, &short_belgian_rules(), false).await
}

/// The cup's rules: Belgian, games to 40.
pub fn short_belgian_rules() -> Value {
    json!({"preset": "belgian", "overrides": {"game_end": {"lowest_wins": {"limit": 40, "at_limit": false}}}})
}

/// [`cup_with_a_finished_online_game`] under `rules`, its online tables with player
/// entropy or not.
pub async fn cup_with_a_finished_online_game_and(
    app: &TestApp,
    rules: &Value,
    player_entropy: bool,
) -> (Api, i64, Player, i64) {
    cup_of_with_a_finished_online_game(app, 4, rules, player_entropy).await
}

/// [`cup_with_a_finished_online_game_and`] for a cup of `seats` players (2 to 8), all
/// at the one table.
pub async fn cup_of_with_a_finished_online_game(
    app: &TestApp,
    seats: usize,
    rules: &Value,
    player_entropy: bool,
) -> (Api, i64, Player, i64) {
    let api = app.api();
    let org = app.new_organizer("olga").await;
    let mut players = Vec::new();
    for i in 1..=seats {
        players.push(app.new_player(&format!("cp{i}")).await);
    }
    let body = json!({
        "name": "Checked cup",
        "rules": rules,
        "capacity": seats,
        "config": {
            "qualification_rounds": 1, "table_min": seats, "table_max": seats,
            "player_entropy": player_entropy,
        },
    });
    let id = api.started_tournament(&org, &players, &body).await;
    let drawn = api.draw(id, &org.token, &json!({})).await;
    let game_table = drawn["online_tables"][0]["game_table"]
        .as_i64()
        .expect("an online game");
    let stages = api.tournament_read(id, "/stages", &org.token).await;
    let seated: Vec<Player> = tables_of(&stages, 1, 1)[0]
        .1
        .iter()
        .map(|id| players.iter().find(|p| p.id == *id).cloned().unwrap())
        .collect();
    play_to_end(&api, game_table, &seated, 5_000, 0, |_| async {}).await;
    (api, id, org, game_table)
}

/// A rated (unless `config` says otherwise) tournament of `players`: one qualification
/// round of two paper tables of four, each finishing in the order `order` gives for
/// its seats, then the final table on paper in seat order. Finished when `finish`.
/// Its id and its qualification tables.
pub async fn paper_tournament(
    api: &Api,
    org: &Player,
    players: &[Player],
    name: &str,
    config: Value,
    order: fn(&[i64]) -> Vec<i64>,
    finish: bool,
) -> (i64, Vec<(Value, Vec<i64>)>) {
    let mut config = config;
    config["qualification_rounds"] = json!(1);
    config["table_min"] = json!(4);
    config["table_max"] = json!(4);
    let body =
        json!({"name": name, "rules": {"preset": "belgian"}, "capacity": 8, "config": config});
    let id = api.started_tournament(org, players, &body).await;
    api.draw(id, &org.token, &json!({"paper_tables": [1, 2]}))
        .await;
    let stages = api.tournament_read(id, "/stages", &org.token).await;
    let tables = tables_of(&stages, 1, 1);
    for (table, seats) in &tables {
        api.record_order(id, &org.token, table, &order(seats)).await;
    }
    api.accepted(id, &org.token, &json!({"command": "advance_stage"}))
        .await;
    api.draw(id, &org.token, &json!({"paper_tables": [1]}))
        .await;
    let stages = api.tournament_read(id, "/stages", &org.token).await;
    let (final_table, finalists) = tables_of(&stages, 2, 1)[0].clone();
    api.record_order(id, &org.token, &final_table, &finalists)
        .await;
    if finish {
        api.accepted(id, &org.token, &json!({"command": "finish"}))
            .await;
    }
    (id, tables)
}
