//! A table's life before and around its game: create, list, join, leave, start;
//! what is stored; and two servers on one database seeing the same tables.

use reqwest::StatusCode;
use serde_json::{Value, json};
use yaniv_e2e_tests::tables::{Api, choose};
use yaniv_e2e_tests::{expect_problem, spawn_app};

#[tokio::test]
async fn a_table_is_created_joined_left_and_started() {
    let app = spawn_app().await;
    let api = app.api();
    let ann = app.new_player("ann").await;
    let bob = app.new_player("bob").await;
    let cid = app.new_player("cid").await;

    let body = json!({
        "preset": "belgian",
        "overrides": {"call_threshold": 7},
        "seats": 3,
        "bots": [{"seat": 2, "kind": "greedy"}],
    });
    let created = api.create_table(&ann.token, &body).await;
    let id = created["id"].as_i64().unwrap();
    assert_eq!(created["status"], "open");
    assert_eq!(created["version"], 1);
    assert_eq!(created["free_seats"], 2);
    assert_eq!(
        created["rules"],
        json!({"preset": "belgian", "overrides": {"call_threshold": 7}})
    );
    assert_eq!(created["effective_rules"]["call_threshold"], 7);
    assert_eq!(created["seats"][2]["kind"], "bot");
    assert_eq!(created["seats"][2]["name"], "greedy#3");
    assert_eq!(created["created_by"]["username"], "ann");
    assert!(created["round"].is_null() && created["totals"].is_null());

    // Seats: the first free one, or the one asked for.
    let joined = api.join(id, &bob.token).await;
    assert_eq!(joined["seats"][0]["username"], "bob");
    let response = api
        .post(
            &format!("/v1/tables/{id}/join"),
            &cid.token,
            Some(&json!({"seat": 0})),
        )
        .await;
    expect_problem(response, StatusCode::CONFLICT, "seat_taken").await;
    let response = api
        .post(
            &format!("/v1/tables/{id}/join"),
            &cid.token,
            Some(&json!({"seat": 2})),
        )
        .await;
    expect_problem(response, StatusCode::CONFLICT, "seat_taken").await;
    let response = api
        .post(
            &format!("/v1/tables/{id}/join"),
            &cid.token,
            Some(&json!({"seat": 7})),
        )
        .await;
    let problem = expect_problem(
        response,
        StatusCode::UNPROCESSABLE_ENTITY,
        "validation_failed",
    )
    .await;
    assert_eq!(problem.errors[0].field, "seat");
    let response = api
        .post(&format!("/v1/tables/{id}/join"), &bob.token, None)
        .await;
    expect_problem(response, StatusCode::CONFLICT, "already_seated").await;

    // Not everyone is seated: no start; then bob leaves and ann and cid sit.
    let response = api
        .post(&format!("/v1/tables/{id}/start"), &ann.token, None)
        .await;
    expect_problem(response, StatusCode::CONFLICT, "seats_not_filled").await;
    let left = Api::json_ok(
        api.post(&format!("/v1/tables/{id}/leave"), &bob.token, None)
            .await,
        StatusCode::OK,
        "leave",
    )
    .await;
    assert_eq!(left["free_seats"], 2);
    let response = api
        .post(&format!("/v1/tables/{id}/leave"), &bob.token, None)
        .await;
    expect_problem(response, StatusCode::FORBIDDEN, "not_seated").await;
    api.join(id, &ann.token).await;
    let joined = Api::json_ok(
        api.post(
            &format!("/v1/tables/{id}/join"),
            &cid.token,
            Some(&json!({"seat": 1})),
        )
        .await,
        StatusCode::OK,
        "join seat 1",
    )
    .await;
    assert_eq!(joined["free_seats"], 0);
    let response = api
        .post(&format!("/v1/tables/{id}/join"), &bob.token, None)
        .await;
    expect_problem(response, StatusCode::CONFLICT, "table_full").await;

    // Only the creator (or an organizer) starts it.
    let response = api
        .post(&format!("/v1/tables/{id}/start"), &cid.token, None)
        .await;
    expect_problem(response, StatusCode::FORBIDDEN, "forbidden").await;
    let started = api.start(id, &ann.token).await;
    assert_eq!(started["view"]["table"]["status"], "playing");
    assert_eq!(started["view"]["viewer"], "seat");
    assert_eq!(started["view"]["seat"], 0);
    assert_eq!(started["view"]["hand"].as_array().unwrap().len(), 5);
    assert!(started["view"]["game"]["commitment"].is_string());
    // A human must act now: the bots played until then.
    let to_act = started["view"]["table"]["to_act"].as_u64().unwrap();
    assert_ne!(to_act, 2);

    for (path, code) in [
        ("start", "table_started"),
        ("leave", "table_started"),
        ("join", "table_started"),
    ] {
        let token = if path == "join" {
            &bob.token
        } else {
            &ann.token
        };
        let response = api
            .post(&format!("/v1/tables/{id}/{path}"), token, None)
            .await;
        expect_problem(response, StatusCode::CONFLICT, code).await;
    }

    // The stream: lifecycle events, then the game's.
    let stored = app
        .store
        .read_stream(&format!("table-{id}"), 1, 100)
        .await
        .unwrap();
    let types: Vec<&str> = stored.iter().map(|e| e.event_type.as_str()).collect();
    assert_eq!(
        &types[..8],
        [
            "table_created.v1",
            "seat_taken.v1",
            "seat_left.v1",
            "seat_taken.v1",
            "seat_taken.v1",
            "table_started.v1",
            "game_created.v1",
            "round_dealt.v1",
        ]
    );
    let dealt: Value = serde_json::from_str(&stored[7].payload).unwrap();
    assert_eq!(dealt["type"], "round_dealt.v1");
    assert_eq!(dealt["deal"]["algorithm"], "chacha20-fisher-yates/1");
    let seed =
        yaniv_domain::shuffle::Seed::from_hex(dealt["deal"]["seed"].as_str().unwrap()).unwrap();
    assert_eq!(
        seed.commitment().to_hex(),
        dealt["deal"]["commitment"].as_str().unwrap()
    );
    assert_eq!(stored[0].actor, format!("account:{}", ann.id));
    assert!(stored.iter().all(|e| e.request_id.is_some()));
    let summary = api.summary(id, &bob.token).await;
    assert_eq!(summary["version"].as_u64().unwrap(), stored.len() as u64);
}

#[tokio::test]
async fn tables_are_listed_newest_first_by_status_and_page() {
    let app = spawn_app().await;
    let api = app.api();
    let ann = app.new_player("ann").await;
    let bob = app.new_player("bob").await;
    let mut ids = Vec::new();
    for _ in 0..5 {
        let created = api
            .create_table(&ann.token, &json!({"preset": "israeli", "seats": 2}))
            .await;
        ids.push(created["id"].as_i64().unwrap());
    }
    // One of them starts.
    api.join(ids[1], &ann.token).await;
    api.join(ids[1], &bob.token).await;
    api.start(ids[1], &ann.token).await;

    let page = Api::json_ok(
        api.get("/v1/tables?limit=2", &bob.token).await,
        StatusCode::OK,
        "list",
    )
    .await;
    let listed: Vec<i64> = page["tables"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["id"].as_i64().unwrap())
        .collect();
    assert_eq!(listed, [ids[4], ids[3]]);
    let before = page["next_before"].as_i64().unwrap();
    let page = Api::json_ok(
        api.get(&format!("/v1/tables?limit=2&before={before}"), &bob.token)
            .await,
        StatusCode::OK,
        "page 2",
    )
    .await;
    let listed: Vec<i64> = page["tables"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["id"].as_i64().unwrap())
        .collect();
    assert_eq!(listed, [ids[2], ids[1]]);

    let playing = Api::json_ok(
        api.get("/v1/tables?status=playing", &bob.token).await,
        StatusCode::OK,
        "playing",
    )
    .await;
    let tables = playing["tables"].as_array().unwrap();
    assert_eq!(tables.len(), 1);
    assert_eq!(tables[0]["id"], ids[1]);
    assert_eq!(tables[0]["free_seats"], 0);
    assert!(tables[0]["version"].as_u64().unwrap() >= 6);
    assert!(playing["next_before"].is_null());
    let open = Api::json_ok(
        api.get("/v1/tables?status=open", &bob.token).await,
        StatusCode::OK,
        "open",
    )
    .await;
    assert_eq!(open["tables"].as_array().unwrap().len(), 4);
    assert_eq!(open["tables"][0]["created_by_username"], "ann");

    // Bob sits at one table only; Ann created them all but sits at that one alone too.
    for player in [&bob, &ann] {
        let seated = Api::json_ok(
            api.get(&format!("/v1/tables?player={}", player.id), &bob.token)
                .await,
            StatusCode::OK,
            "by player",
        )
        .await;
        let listed: Vec<i64> = seated["tables"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["id"].as_i64().unwrap())
            .collect();
        assert_eq!(listed, [ids[1]], "{}", player.name);
    }
    let none = Api::json_ok(
        api.get(
            &format!("/v1/tables?player={}&status=open", bob.id),
            &bob.token,
        )
        .await,
        StatusCode::OK,
        "by player and status",
    )
    .await;
    assert!(none["tables"].as_array().unwrap().is_empty());

    let response = api.get("/v1/tables?status=lost", &bob.token).await;
    let problem = expect_problem(
        response,
        StatusCode::UNPROCESSABLE_ENTITY,
        "validation_failed",
    )
    .await;
    assert_eq!(problem.errors[0].field, "status");
    let response = api.get("/v1/tables?limit=0", &bob.token).await;
    expect_problem(
        response,
        StatusCode::UNPROCESSABLE_ENTITY,
        "validation_failed",
    )
    .await;
    let response = api.get("/v1/tables?before=x", &bob.token).await;
    expect_problem(response, StatusCode::BAD_REQUEST, "invalid_query").await;
}

#[tokio::test]
async fn two_servers_on_one_database_see_the_same_table() {
    let app = spawn_app().await;
    let first = app.api();
    let ann = app.new_player("ann").await;
    let bob = app.new_player("bob").await;
    let second = app.spawn_instance().await;

    let created = first
        .create_table(&ann.token, &json!({"preset": "israeli", "seats": 2}))
        .await;
    let id = created["id"].as_i64().unwrap();
    second.join(id, &ann.token).await;
    first.join(id, &bob.token).await;
    second.start(id, &ann.token).await;

    // Play a while, each action through the other server; both always agree.
    let servers = [&first, &second];
    for step in 0..40 {
        let api = servers[step % 2];
        let other = servers[(step + 1) % 2];
        let summary = api.summary(id, &ann.token).await;
        assert_eq!(summary, other.summary(id, &bob.token).await, "step {step}");
        if summary["status"] == "finished" {
            break;
        }
        let seat = summary["to_act"].as_u64().unwrap();
        let player = if seat == 0 { &ann } else { &bob };
        // The view is read from one server, the action sent to the other.
        let view = other.view(id, &player.token).await;
        assert_eq!(view, api.view(id, &player.token).await);
        let action = choose(&view).unwrap();
        let answer = Api::json_ok(
            api.act(id, &player.token, &action, None).await,
            StatusCode::OK,
            "act",
        )
        .await;
        assert_eq!(
            answer["version"],
            other.summary(id, &ann.token).await["version"]
        );
    }

    // A server started later (a restart) folds the same table from the database.
    let third = app.spawn_instance().await;
    assert_eq!(
        third.summary(id, &ann.token).await,
        first.summary(id, &ann.token).await
    );
    assert_eq!(
        third.view(id, &bob.token).await,
        second.view(id, &bob.token).await
    );
}

/// Issue #10, item 5: a referee sees how long each table in play has waited on whom,
/// and `idle_for` lists only the tables that have waited that long.
#[tokio::test]
async fn the_listing_shows_who_each_table_waits_on_and_finds_stalled_ones() {
    let app = spawn_app().await;
    let api = app.api();
    let players = [app.new_player("ann").await, app.new_player("bob").await];
    let quiet = api
        .started_table(&json!({"preset": "israeli", "seats": 2}), &players)
        .await;
    let busy = api
        .started_table(&json!({"preset": "israeli", "seats": 2}), &players)
        .await;
    tokio::time::sleep(std::time::Duration::from_millis(1500)).await;
    // The busy table moves; the quiet one keeps waiting.
    let mut moved = false;
    for player in &players {
        if let Some(action) = choose(&api.view(busy, &player.token).await) {
            let response = api.act(busy, &player.token, &action, None).await;
            assert_eq!(response.status(), StatusCode::OK);
            moved = true;
            break;
        }
    }
    assert!(moved, "someone moves at the busy table");

    let token = &players[0].token;
    let all = Api::json_ok(
        api.get("/v1/tables?status=playing", token).await,
        StatusCode::OK,
        "list",
    )
    .await;
    for entry in all["tables"].as_array().expect("tables") {
        let id = entry["id"].as_i64().expect("id");
        let summary = api.summary(id, token).await;
        assert_eq!(entry["waiting_on"], summary["to_act"], "{entry}");
        assert!(entry["last_change_at"].is_string(), "{entry}");
        assert!(entry["tournament_id"].is_null());
    }
    let stalled = Api::json_ok(
        api.get("/v1/tables?status=playing&idle_for=1", token).await,
        StatusCode::OK,
        "stalled",
    )
    .await;
    let ids: Vec<i64> = stalled["tables"]
        .as_array()
        .expect("tables")
        .iter()
        .filter_map(|t| t["id"].as_i64())
        .collect();
    assert_eq!(ids, vec![quiet], "only the table that has waited");
    let none = Api::json_ok(
        api.get("/v1/tables?tournament=999", token).await,
        StatusCode::OK,
        "by tournament",
    )
    .await;
    assert_eq!(none["tables"], json!([]));
    let refused = api.get("/v1/tables?idle_for=604801", token).await;
    expect_problem(
        refused,
        StatusCode::UNPROCESSABLE_ENTITY,
        "validation_failed",
    )
    .await;
}
