//! Tournaments over HTTP: an organizer runs a small championship from creation to
//! the published ranking (paper sheets and final standings as results), and the
//! refusals come back as problem documents with the domain's codes.

use reqwest::StatusCode;
use serde_json::{Value, json};
use yaniv_domain::rules::Preset;
use yaniv_e2e_tests::tables::{Api, Player};
use yaniv_e2e_tests::tournaments::{paper_sheet, sha256_hex, standings_csv_matches, tables_of};
use yaniv_e2e_tests::{expect_problem, join_all, spawn_app};

/// Final standings of a table where the players finish in the order given.
fn game_result(order: &[i64]) -> Value {
    let standings: Vec<Value> = order
        .iter()
        .enumerate()
        .map(|(i, p)| json!({"player": p, "total": 20 * i + 10, "place": i + 1}))
        .collect();
    json!({"source": "game", "standings": standings})
}

#[tokio::test]
async fn an_organizer_runs_a_small_tournament_to_its_ranking() {
    let app = spawn_app().await;
    let api = app.api();
    let org = app.new_organizer("olga").await;
    let mut players: Vec<Player> = Vec::new();
    for i in 1..=8 {
        let name = &format!("player{i}");
        players.push(app.new_player(name).await);
    }

    // Create: 8 players, tables of 4, one qualification round, then the final.
    let created = api
        .create_tournament(
            &org.token,
            &json!({
                "name": "Club championship",
                "rules": {"preset": "belgian"},
                "capacity": 8,
                "config": {"qualification_rounds": 1, "table_min": 4, "table_max": 4},
            }),
        )
        .await;
    let id = created["id"].as_i64().unwrap();
    // Created, and the server's commitment to round 1's seed, before anyone registers.
    assert_eq!(created["version"], 2);
    let round1_commitment = created["tournament"]["pending_commitment"].clone();
    assert_eq!(round1_commitment.as_str().map(str::len), Some(64));
    assert_eq!(created["tournament"]["phase"], "setup");
    assert_eq!(created["tournament"]["organizer"], org.id);
    assert_eq!(created["tournament"]["config"]["qualification_rounds"], 1);

    // Anyone logged in reads it.
    let shown = api.tournament_read(id, "", &players[0].token).await;
    assert_eq!(shown, created);

    // A player cannot send an organizer's command.
    let refused = api
        .tournament_command(
            id,
            &players[0].token,
            &json!({"command": "open_registration"}),
            None,
        )
        .await;
    expect_problem(refused, StatusCode::FORBIDDEN, "forbidden").await;
    // Registering before registration opens is not allowed now.
    let early = api
        .tournament_command(
            id,
            &players[0].token,
            &json!({"command": "register", "player": players[0].id}),
            None,
        )
        .await;
    expect_problem(early, StatusCode::CONFLICT, "registration_not_open").await;

    let opened = api
        .accepted(id, &org.token, &json!({"command": "open_registration"}))
        .await;
    assert_eq!(opened["events"][0]["type"], "registration_opened.v1");
    assert_eq!(opened["tournament"]["phase"], "registration_open");

    // Four players register themselves (one with a retried Idempotency-Key), the
    // organizer registers the other four.
    for (i, p) in players.iter().enumerate() {
        let token = if i < 4 { &p.token } else { &org.token };
        let command = json!({"command": "register", "player": p.id});
        if i == 0 {
            let first = api
                .tournament_command(id, token, &command, Some("reg-p1"))
                .await;
            let first = Api::json_ok(first, StatusCode::OK, "register p1").await;
            let retry = api
                .tournament_command(id, token, &command, Some("reg-p1"))
                .await;
            assert_eq!(retry.headers()["idempotent-replayed"], "true");
            let retry = Api::json_ok(retry, StatusCode::OK, "retry p1").await;
            assert_eq!(retry, first);
        } else {
            let answer = api.accepted(id, token, &command).await;
            assert_eq!(answer["events"][0]["type"], "player_registered.v1");
        }
    }
    let again = api
        .tournament_command(
            id,
            &players[1].token,
            &json!({"command": "register", "player": players[1].id}),
            None,
        )
        .await;
    expect_problem(again, StatusCode::CONFLICT, "already_registered").await;
    // A player cannot register someone else.
    let other = api
        .tournament_command(
            id,
            &players[1].token,
            &json!({"command": "withdraw", "player": players[2].id}),
            None,
        )
        .await;
    expect_problem(other, StatusCode::FORBIDDEN, "forbidden").await;

    let closed = api
        .accepted(id, &org.token, &json!({"command": "close_registration"}))
        .await;
    assert_eq!(closed["tournament"]["registered"], 8);
    for (i, p) in players.iter().enumerate() {
        let token = if i % 2 == 0 { &p.token } else { &org.token };
        api.accepted(id, token, &json!({"command": "check_in", "player": p.id}))
            .await;
    }

    // Malformed commands are 422 before anything is decided.
    for bad in [
        json!({"command": "draw_round", "seed": "not hex"}),
        json!({"command": "no_such_command"}),
        json!({"command": "register"}),
        json!({"player": 1}),
    ] {
        let response = api.tournament_command(id, &org.token, &bad, None).await;
        expect_problem(
            response,
            StatusCode::UNPROCESSABLE_ENTITY,
            "validation_failed",
        )
        .await;
    }

    let started = api
        .accepted(id, &org.token, &json!({"command": "start_qualification"}))
        .await;
    assert_eq!(started["tournament"]["phase"], "qualification");
    // The server holds the seeds: an organizer's own seed is refused.
    let own_seed = api
        .tournament_command(
            id,
            &org.token,
            &json!({"command": "draw_round", "seed": "11".repeat(32)}),
            None,
        )
        .await;
    expect_problem(
        own_seed,
        StatusCode::UNPROCESSABLE_ENTITY,
        "draws_by_server",
    )
    .await;
    // Both tables are played on paper: no online game is created.
    let drawn = api
        .draw(id, &org.token, &json!({"paper_tables": [1, 2]}))
        .await;
    assert_eq!(drawn["events"][0]["type"], "round_drawn.v1");
    assert_eq!(drawn["online_tables"], json!([]));
    let draw = &drawn["events"][0]["payload"];
    assert_eq!(draw["precommitted"], true);
    assert_eq!(draw["commitment"], round1_commitment);
    assert_eq!(
        draw["commitment"],
        sha256_hex(draw["seed"].as_str().unwrap())
    );
    // The next draw's seed is committed in the same append.
    assert_eq!(drawn["events"][1]["type"], "draw_seed_committed.v1");
    assert_ne!(drawn["tournament"]["pending_commitment"], round1_commitment);
    let stages = api.tournament_read(id, "/stages", &players[3].token).await;
    let tables = tables_of(&stages, 1, 1);
    assert_eq!(tables.len(), 2);
    assert!(tables.iter().all(|(_, seated)| seated.len() == 4));

    // Advancing before every table has a result is refused.
    let early = api
        .tournament_command(id, &org.token, &json!({"command": "advance_stage"}), None)
        .await;
    assert_eq!(early.status(), StatusCode::CONFLICT);

    // Table 1: a referee's paper sheet, round by round; table 2: final standings.
    let rules = Preset::Belgian.rules();
    let (sheet, order1) = paper_sheet(&rules, &tables[0].1);
    let bad_sheet = json!({"source": "paper_rounds", "seats": tables[0].1, "rounds": []});
    let refused = api
        .tournament_command(
            id,
            &org.token,
            &json!({"command": "record_result", "table": tables[0].0, "input": bad_sheet}),
            None,
        )
        .await;
    assert_eq!(refused.status(), StatusCode::UNPROCESSABLE_ENTITY);
    api.accepted(
        id,
        &org.token,
        &json!({"command": "record_result", "table": tables[0].0, "input": sheet}),
    )
    .await;
    let order2 = tables[1].1.clone();
    api.accepted(
        id,
        &org.token,
        &json!({"command": "record_result", "table": tables[1].0, "input": game_result(&order2)}),
    )
    .await;

    let standings = api
        .tournament_read(id, "/standings", &players[5].token)
        .await;
    let rows = standings["standings"].as_array().unwrap();
    assert_eq!(rows.len(), 8);
    let winners: Vec<i64> = rows[..2]
        .iter()
        .map(|r| r["player"].as_i64().unwrap())
        .collect();
    assert!(winners.contains(&order1[0]) && winners.contains(&order2[0]));
    assert_eq!(rows[0]["place"], 1);
    assert_eq!(rows[0]["wins"], 1);
    assert_eq!(rows[0]["table_points"], 100 * 840);
    assert_eq!(rows[0]["table_points_decimal"], "100.00");
    let names: Vec<&str> = players.iter().map(|p| p.name.as_str()).collect();
    assert!(
        rows.iter()
            .all(|r| names.contains(&r["username"].as_str().unwrap()))
    );
    standings_csv_matches(&app, id, rows).await;

    // The final: the better half (4) at one table.
    let advanced = api
        .accepted(id, &org.token, &json!({"command": "advance_stage"}))
        .await;
    assert_eq!(advanced["tournament"]["phase"], "knockout");
    let final_draw = api
        .draw(id, &org.token, &json!({"paper_tables": [1]}))
        .await;
    // A final on paper can still be redrawn until its result is in: its seed is
    // committed too.
    let types: Vec<&str> = final_draw["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["type"].as_str().unwrap())
        .collect();
    assert_eq!(types, ["round_drawn.v1", "draw_seed_committed.v1"]);
    let stages = api.tournament_read(id, "/stages", &org.token).await;
    assert_eq!(stages["stages"][1]["kind"], "knockout");
    assert_eq!(stages["stages"][1]["rounds"][0]["final_table"], true);
    let finals = tables_of(&stages, 2, 1);
    assert_eq!(finals.len(), 1);
    let (final_ref, final_players) = finals[0].clone();
    assert_eq!(final_players.len(), 4);
    let mut final_order = final_players.clone();
    final_order.reverse();

    let none = api.tournament_read(id, "/ranking", &players[0].token).await;
    assert_eq!(none["published"], false);
    assert!(none["ranking"].is_null());

    api.accepted(
        id,
        &org.token,
        &json!({"command": "record_result", "table": final_ref, "input": game_result(&final_order)}),
    )
    .await;
    let finished = api
        .accepted(id, &org.token, &json!({"command": "finish"}))
        .await;
    assert_eq!(finished["events"][0]["type"], "tournament_finished.v1");
    assert_eq!(finished["tournament"]["phase"], "finished");

    let ranking = api.tournament_read(id, "/ranking", &players[7].token).await;
    assert_eq!(ranking["published"], true);
    let ranked = ranking["ranking"]["ranking"].as_array().unwrap();
    assert_eq!(ranked.len(), 8);
    let top: Vec<i64> = ranked[..4]
        .iter()
        .map(|r| r["player"].as_i64().unwrap())
        .collect();
    assert_eq!(top, final_order);
    assert_eq!(ranked[0]["place"], 1);
    assert_eq!(ranked[0]["reached"]["kind"], "final");
    // Every ranked account is named, and the CSV says what the JSON says.
    for r in ranked {
        let player = r["player"].as_i64().unwrap();
        let name = &players.iter().find(|p| p.id == player).unwrap().name;
        assert_eq!(ranking["usernames"][player.to_string()], name.as_str());
    }
    let csv = app
        .get(&format!("/v1/tournaments/{id}/ranking?format=csv"), None)
        .await
        .text()
        .await
        .unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(
        lines[0],
        "place,player,username,reached,stage,place_at_table,withdrawn"
    );
    assert_eq!(lines.len(), 9);
    for (line, r) in lines[1..].iter().zip(ranked) {
        let player = r["player"].as_i64().unwrap();
        let username = ranking["usernames"][player.to_string()].as_str().unwrap();
        assert!(
            line.starts_with(&format!("{},{player},{username},", r["place"])),
            "{line} for {r}"
        );
    }
    assert!(lines[1].ends_with(",final,,1,false"), "{}", lines[1]);

    // Once finished, every command is refused.
    let late = api
        .tournament_command(id, &org.token, &json!({"command": "finish"}), None)
        .await;
    expect_problem(late, StatusCode::CONFLICT, "finished").await;

    // The stream: every event, in order, page by page.
    let page = api
        .tournament_read(id, "/events?limit=5", &players[2].token)
        .await;
    assert_eq!(page["events"].as_array().unwrap().len(), 5);
    assert_eq!(page["events"][0]["type"], "tournament_created.v1");
    assert_eq!(page["events"][0]["version"], 1);
    assert_eq!(page["has_more"], true);
    let version = page["version"].as_u64().unwrap();
    let rest = api
        .tournament_read(id, "/events?after=5&limit=1000", &players[2].token)
        .await;
    assert_eq!(rest["has_more"], false);
    assert_eq!(rest["next_after"], version);
    let events = rest["events"].as_array().unwrap();
    assert_eq!(events.len() as u64, version - 5);
    assert_eq!(events.last().unwrap()["type"], "tournament_finished.v1");
    assert_eq!(
        api.tournament_read(id, "", &org.token).await["version"],
        version
    );
}

#[tokio::test]
async fn creating_needs_an_organizer_and_valid_settings() {
    let app = spawn_app().await;
    let api = app.api();
    let org = app.new_organizer("olga").await;
    let player = app.new_player("pat").await;
    let body = json!({"name": "Cup", "rules": {"preset": "belgian"}, "capacity": 8});

    let response = api
        .post("/v1/tournaments", &player.token, Some(&body))
        .await;
    expect_problem(response, StatusCode::FORBIDDEN, "forbidden").await;
    let response = api.post("/v1/tournaments", "", Some(&body)).await;
    assert_eq!(response.status(), StatusCode::UNAUTHORIZED);

    let cases = [
        (
            json!({"name": "", "rules": {"preset": "belgian"}, "capacity": 8}),
            "bad_name",
        ),
        (
            json!({"name": "Cup", "rules": {"preset": "nope"}, "capacity": 8}),
            "bad_rules",
        ),
        (
            json!({"name": "Cup", "rules": {"preset": "belgian"}, "capacity": 8,
                   "config": {"table_min": 1}}),
            "bad_config",
        ),
        (
            json!({"name": "Cup", "rules": {"preset": "belgian"}}),
            "validation_failed",
        ),
        (
            json!({"name": "Cup", "rules": {"preset": "belgian"}, "capacity": 8, "extra": 1}),
            "validation_failed",
        ),
    ];
    for (bad, code) in cases {
        let response = api.post("/v1/tournaments", &org.token, Some(&bad)).await;
        expect_problem(response, StatusCode::UNPROCESSABLE_ENTITY, code).await;
    }

    // Admins may create too.
    let (_, admin) = app.admin().await;
    let created = api.create_tournament(&admin, &body).await;
    let id = created["id"].as_i64().unwrap();

    let missing = api
        .get(&format!("/v1/tournaments/{}", id + 1), &player.token)
        .await;
    expect_problem(missing, StatusCode::NOT_FOUND, "not_found").await;
    let missing = api
        .tournament_command(id + 1, &org.token, &json!({"command": "finish"}), None)
        .await;
    expect_problem(missing, StatusCode::NOT_FOUND, "not_found").await;
    // Someone else's tournament: olga is not its organizer.
    let response = api
        .tournament_command(
            id,
            &org.token,
            &json!({"command": "open_registration"}),
            None,
        )
        .await;
    expect_problem(response, StatusCode::FORBIDDEN, "forbidden").await;
    let response = api
        .get(
            &format!("/v1/tournaments/{id}/events?limit=0"),
            &player.token,
        )
        .await;
    expect_problem(
        response,
        StatusCode::UNPROCESSABLE_ENTITY,
        "validation_failed",
    )
    .await;
}

#[tokio::test]
async fn concurrent_registrations_are_all_appended_in_order() {
    let app = spawn_app().await;
    let api = app.api();
    let org = app.new_organizer("olga").await;
    let mut players: Vec<Player> = Vec::new();
    for i in 1..=4 {
        players.push(app.new_player(&format!("racer{i}")).await);
    }
    let created = api
        .create_tournament(
            &org.token,
            &json!({"name": "Race", "rules": {"preset": "belgian"}, "capacity": 8}),
        )
        .await;
    let id = created["id"].as_i64().unwrap();
    api.accepted(id, &org.token, &json!({"command": "open_registration"}))
        .await;

    // Four players register at once: they queue on the tournament's lock.
    let commands: Vec<Value> = players
        .iter()
        .map(|p| json!({"command": "register", "player": p.id}))
        .collect();
    let responses = join_all(
        players
            .iter()
            .zip(&commands)
            .map(|(p, c)| api.tournament_command(id, &p.token, c, None)),
    )
    .await;
    for response in responses {
        assert_eq!(response.status(), StatusCode::OK);
    }
    // Created, the seed commitment, registration opened, four registrations.
    let shown = api.tournament_read(id, "", &org.token).await;
    assert_eq!(shown["version"], 7);
    assert_eq!(shown["tournament"]["registered"], 4);
    let page = api.tournament_read(id, "/events", &org.token).await;
    let versions: Vec<u64> = page["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["version"].as_u64().unwrap())
        .collect();
    assert_eq!(versions, (1..=7).collect::<Vec<u64>>());
}
