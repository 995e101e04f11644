//! Reads of a tournament beyond the present: the reads at an earlier version
//! (`?as_of=N`, replaying the stream to any point, such as the standings before a
//! referee's correction), and a player's own view (`GET /v1/tournaments/{id}/me`: its
//! registration, its table and online game, its results and standing).

use reqwest::StatusCode;
use serde_json::{Value, json};
use yaniv_domain::rules::Preset;
use yaniv_e2e_tests::tables::{Api, Player};
use yaniv_e2e_tests::tournaments::{paper_sheet, tables_of};
use yaniv_e2e_tests::{TestApp, expect_problem, spawn_app};

/// 8 players at two tables of 4 (one qualification round) organized by `olga`, the
/// qualification started. Returns the API, the tournament, its organizer and players.
async fn cup(app: &TestApp) -> (Api, i64, Player, Vec<Player>) {
    let api = app.api();
    let org = app.new_organizer("olga").await;
    let mut players = Vec::new();
    for i in 1..=8 {
        players.push(app.new_player(&format!("player{i}")).await);
    }
    let body = json!({"name": "Club cup", "rules": {"preset": "belgian"}, "capacity": 8,
                      "config": {"qualification_rounds": 1, "table_min": 4, "table_max": 4}});
    let id = api.started_tournament(&org, &players, &body).await;
    (api, id, org, players)
}

/// A `game` result input for `seats`, the players finishing in the order given.
fn finishing_in_order(seats: &[i64]) -> Value {
    let standings: Vec<Value> = seats
        .iter()
        .enumerate()
        .map(|(i, p)| json!({"player": p, "total": 10 * i, "place": i + 1}))
        .collect();
    json!({"source": "game", "standings": standings})
}

fn version(read: &Value) -> u64 {
    read["version"].as_u64().expect("a version")
}

#[tokio::test]
async fn as_of_replays_the_tournament_before_a_correction() {
    let app = spawn_app().await;
    let (api, id, org, _) = cup(&app).await;
    let started = api.tournament_read(id, "", &org.token).await;
    api.draw(id, &org.token, &json!({"paper_tables": [1, 2]}))
        .await;
    let stages = api.tournament_read(id, "/stages", &org.token).await;
    for (table, seats) in tables_of(&stages, 1, 1) {
        let record = json!({"command": "record_result", "table": table,
                            "input": finishing_in_order(&seats)});
        api.accepted(id, &org.token, &record).await;
    }
    let before = api.tournament_read(id, "/standings", &org.token).await;
    let stages_before = api.tournament_read(id, "/stages", &org.token).await;
    let ranking_before = api.tournament_read(id, "/ranking", &org.token).await;
    let at = version(&before);

    // The referee's correction: table 1 finished the other way round.
    let (table, mut seats) = tables_of(&stages, 1, 1).remove(0);
    seats.reverse();
    api.accepted(
        id,
        &org.token,
        &json!({"command": "correct_result", "table": table,
                "input": finishing_in_order(&seats), "reason": "The sheet was read upside down."}),
    )
    .await;
    let now = api.tournament_read(id, "/standings", &org.token).await;
    assert_eq!(version(&now), at + 1);
    assert_ne!(now["standings"], before["standings"]);

    // As of the version before the correction: the reads as they were then, for anyone.
    let query = format!("?as_of={at}");
    let then = app
        .get(&format!("/v1/tournaments/{id}/standings{query}"), None)
        .await;
    assert_eq!(then.headers()["etag"], format!("\"{at}\"").as_str());
    let then = Api::json_ok(then, StatusCode::OK, "standings as of").await;
    assert_eq!(then, before);
    let stages_then = api
        .tournament_read(id, &format!("/stages{query}"), &org.token)
        .await;
    assert_eq!(stages_then, stages_before);
    assert_eq!(
        stages_then["stages"][0]["rounds"][0]["tables"][0]["corrections"],
        0
    );
    let stages_now = api.tournament_read(id, "/stages", &org.token).await;
    assert_eq!(
        stages_now["stages"][0]["rounds"][0]["tables"][0]["corrections"],
        1
    );
    assert_eq!(
        api.tournament_read(id, &format!("/ranking{query}"), &org.token)
            .await,
        ranking_before
    );

    // Any version: the qualification's start, the very first event, and the head.
    let at_start = format!("?as_of={}", version(&started));
    assert_eq!(
        api.tournament_read(id, &at_start, &org.token).await,
        started
    );
    let created = api.tournament_read(id, "?as_of=1", &org.token).await;
    assert_eq!(version(&created), 1);
    assert_eq!(created["tournament"]["phase"], "setup");
    assert_eq!(created["tournament"]["name"], "Club cup");
    let head = format!("/standings?as_of={}", at + 1);
    assert_eq!(api.tournament_read(id, &head, &org.token).await, now);
}

#[tokio::test]
async fn as_of_must_name_a_version_the_tournament_has() {
    let app = spawn_app().await;
    let (_, id, _, _) = cup(&app).await;
    let head = version(
        &Api::json_ok(
            app.get(&format!("/v1/tournaments/{id}"), None).await,
            StatusCode::OK,
            "read",
        )
        .await,
    );
    for suffix in ["", "/standings", "/stages", "/ranking"] {
        let path = format!("/v1/tournaments/{id}{suffix}");
        for as_of in [0, head + 1] {
            let response = app.get(&format!("{path}?as_of={as_of}"), None).await;
            let problem = expect_problem(
                response,
                StatusCode::UNPROCESSABLE_ENTITY,
                "validation_failed",
            )
            .await;
            assert_eq!(problem.errors.len(), 1, "{problem:?}");
            assert_eq!(problem.errors[0].field, "as_of");
            assert!(
                problem.errors[0].message.contains(&head.to_string()),
                "{problem:?}"
            );
        }
        for query in ["?as_of=soon", "?as_of=-1", "?at=1"] {
            let response = app.get(&format!("{path}{query}"), None).await;
            expect_problem(response, StatusCode::BAD_REQUEST, "invalid_query").await;
        }
        let missing = format!("/v1/tournaments/{}{suffix}?as_of=1", id + 1);
        expect_problem(
            app.get(&missing, None).await,
            StatusCode::NOT_FOUND,
            "not_found",
        )
        .await;
    }
}

/// `GET /v1/tournaments/{id}/me` as `token`, expecting 200.
async fn me(api: &Api, id: i64, token: &str) -> Value {
    api.tournament_read(id, "/me", token).await
}

#[tokio::test]
async fn a_player_sees_its_table_its_online_game_and_its_results() {
    let app = spawn_app().await;
    let (api, id, org, players) = cup(&app).await;
    let drawn = api
        .draw(id, &org.token, &json!({"paper_tables": [2]}))
        .await;
    let online = &drawn["online_tables"][0];
    assert_eq!(online["table"], json!({"stage": 1, "round": 1, "table": 1}));
    let game_table = online["game_table"].as_i64().expect("a game table");
    let stages = api.tournament_read(id, "/stages", &org.token).await;
    let tables = tables_of(&stages, 1, 1);

    // A player of the online table: its seat, its table-mates, the game table to open.
    let (table, seats) = &tables[0];
    let player = players.iter().find(|p| p.id == seats[1]).expect("seated");
    let view = me(&api, id, &player.token).await;
    let registration = players.iter().position(|p| p.id == player.id).unwrap() + 1;
    assert_eq!(
        view,
        json!({
            "id": id,
            "version": drawn["version"],
            "account": player.id,
            "registered": true,
            "player": {"player": player.id, "registration": registration, "checked_in": true,
                       "withdrawn": false, "disqualified": false, "first_round": null},
            "seat": {"table": table, "seat": 1, "players": seats, "started": true,
                     "game": format!("table-{game_table}"), "game_table": game_table,
                     "has_result": false},
            "results": [],
            "standing": view["standing"],
        })
    );
    assert_eq!(view["standing"]["games"], 0);
    // The game table is the one the account sits at.
    let summary = api.summary(game_table, &player.token).await;
    assert_eq!(summary["status"], "playing");

    // The paper table gets its result: its players see it, with its table points.
    let (table, seats) = &tables[1];
    let (sheet, order) = paper_sheet(&Preset::Belgian.rules(), seats);
    let recorded = api
        .accepted(
            id,
            &org.token,
            &json!({"command": "record_result", "table": table, "input": sheet}),
        )
        .await;
    let winner = players.iter().find(|p| p.id == order[0]).expect("a player");
    let view = me(&api, id, &winner.token).await;
    assert_eq!(view["version"], recorded["version"]);
    let seat = &view["seat"];
    assert_eq!(seat["table"], *table);
    assert_eq!(seat["players"], json!(seats));
    assert!(seat["game"].is_null() && seat["game_table"].is_null());
    assert_eq!(seat["has_result"], true);
    let results = view["results"].as_array().expect("results");
    assert_eq!(results.len(), 1, "{view}");
    assert_eq!(results[0]["table"], *table);
    assert_eq!(results[0]["place"], 1);
    assert_eq!(results[0]["table_points"], 100 * 840);
    assert!(results[0]["total"].is_u64() && results[0]["score_difference"].is_i64());
    let standings = api.tournament_read(id, "/standings", &org.token).await;
    let row = standings["standings"]
        .as_array()
        .expect("rows")
        .iter()
        .find(|r| r["player"] == winner.id)
        .expect("the winner's row");
    assert_eq!(view["standing"], *row);
    assert_eq!(row["games"], 1);
}

#[tokio::test]
async fn an_account_that_did_not_register_is_told_so_and_me_needs_a_token() {
    let app = spawn_app().await;
    let (api, id, _, _) = cup(&app).await;
    let outsider = app.new_player("oscar").await;
    let view = me(&api, id, &outsider.token).await;
    assert_eq!(
        view,
        json!({"id": id, "version": view["version"], "account": outsider.id,
               "registered": false, "player": null, "seat": null, "results": [],
               "standing": null})
    );

    let path = format!("/v1/tournaments/{id}/me");
    expect_problem(
        app.get(&path, None).await,
        StatusCode::UNAUTHORIZED,
        "unauthenticated",
    )
    .await;
    expect_problem(
        app.get(&path, Some("not-a-token")).await,
        StatusCode::UNAUTHORIZED,
        "invalid_token",
    )
    .await;
    let missing = api
        .get(&format!("/v1/tournaments/{}/me", id + 1), &outsider.token)
        .await;
    expect_problem(missing, StatusCode::NOT_FOUND, "not_found").await;
}
