//! Racing requests on one table, and idempotent retries of actions.

use reqwest::StatusCode;
use serde_json::{Value, json};
use yaniv_e2e_tests::tables::{Api, Player, choose};
use yaniv_e2e_tests::{TestApp, expect_problem, join_all, spawn_app};

/// A started two-player Israeli table between new players `a` and `b`.
async fn two_player_table(app: &TestApp, a: &str, b: &str) -> (Api, i64, Vec<Player>) {
    let api = app.api();
    let players = vec![app.new_player(a).await, app.new_player(b).await];
    let id = api
        .started_table(&json!({"preset": "israeli", "seats": 2}), &players)
        .await;
    (api, id, players)
}

/// Whose turn it is, their view and the move they would make.
async fn next_move(api: &Api, id: i64, players: &[Player]) -> (Player, Value, Value) {
    let summary = api.summary(id, &players[0].token).await;
    let seat = summary["to_act"].as_u64().unwrap() as usize;
    let player = players[seat].clone();
    let view = api.view(id, &player.token).await;
    let action = choose(&view).unwrap();
    (player, view, action)
}

async fn status_and_code(response: reqwest::Response) -> (StatusCode, String) {
    let status = response.status();
    let body: Value = response.json().await.unwrap_or_default();
    (status, body["code"].as_str().unwrap_or("").to_owned())
}

#[tokio::test]
async fn identical_actions_sent_at_once_are_accepted_once() {
    let app = spawn_app().await;
    let (api, id, players) = two_player_table(&app, "ann", "bob").await;
    for round in 0..3 {
        let (player, view, _) = next_move(&api, id, &players).await;
        // A play, never a call: a call ends the round, and its copy could be a
        // legal call in the next one.
        let legal = &view["legal"];
        let draw = if legal["draw_from_stock"] == true {
            json!("stock")
        } else {
            json!({"discard": legal["draw_from_discard"][0]})
        };
        let action = json!({"type": "play", "throw": legal["throws"][0], "draw": draw});
        let before = view["table"]["version"].as_u64().unwrap();
        let responses = join_all((0..4).map(|_| api.act(id, &player.token, &action, None))).await;
        let mut accepted = 0;
        let mut appended = 0;
        for response in responses {
            match response.status() {
                StatusCode::OK => {
                    accepted += 1;
                    let answer: Value = response.json().await.unwrap();
                    appended = answer["appended"].as_u64().unwrap();
                }
                _ => {
                    let (status, code) = status_and_code(response).await;
                    assert!(
                        matches!(
                            (status, code.as_str()),
                            (
                                StatusCode::CONFLICT,
                                "not_your_turn" | "wrong_phase" | "game_over"
                            ) | (
                                StatusCode::UNPROCESSABLE_ENTITY,
                                "card_not_in_hand" | "call_not_allowed" | "illegal_draw"
                            )
                        ),
                        "round {round}: {status} {code}"
                    );
                }
            }
        }
        assert_eq!(
            accepted, 1,
            "round {round}: exactly one of the copies is accepted"
        );
        let summary = api.summary(id, &players[0].token).await;
        assert_eq!(summary["version"].as_u64().unwrap(), before + appended);
    }
    let referee = app.new_referee("rita").await;
    let verdict = Api::json_ok(
        api.post(&format!("/v1/tables/{id}/verify"), &referee.token, None)
            .await,
        StatusCode::OK,
        "verify",
    )
    .await;
    assert_eq!(verdict["ok"], true, "{verdict}");
}

#[tokio::test]
async fn the_same_add_on_sent_twice_at_once_is_laid_once() {
    let app = spawn_app().await;
    let api = app.api();
    let humans = vec![
        app.new_player("ann").await,
        app.new_player("bob").await,
        app.new_player("cid").await,
    ];
    // House rules have add-ons to sets and runs; play until a human may add on.
    for attempt in 0..10 {
        let body = json!({"preset": "house", "seats": 3});
        let created = api.create_table(&humans[0].token, &body).await;
        let id = created["id"].as_i64().unwrap();
        for player in &humans {
            api.join(id, &player.token).await;
        }
        api.start(id, &humans[0].token).await;
        for _ in 0..200 {
            let summary = api.summary(id, &humans[0].token).await;
            if summary["status"] == "finished" {
                break;
            }
            for player in &humans {
                let view = api.view(id, &player.token).await;
                let Some(cards) = view["legal"]["add_ons"].as_array().and_then(|a| a.first())
                else {
                    continue;
                };
                let action = json!({"type": "add_on", "cards": cards});
                let before = view["table"]["version"].as_u64().unwrap();
                let responses =
                    join_all((0..2).map(|_| api.act(id, &player.token, &action, None))).await;
                let mut statuses = Vec::new();
                for response in responses {
                    statuses.push(status_and_code(response).await);
                }
                statuses.sort();
                assert_eq!(statuses[0].0, StatusCode::OK, "{statuses:?}");
                assert!(
                    matches!(
                        (statuses[1].0, statuses[1].1.as_str()),
                        (
                            StatusCode::UNPROCESSABLE_ENTITY,
                            "card_not_in_hand" | "add_on_not_allowed"
                        ) | (StatusCode::CONFLICT, "wrong_phase" | "game_over")
                    ),
                    "{statuses:?}"
                );
                let after = api.summary(id, &humans[0].token).await;
                assert!(after["version"].as_u64().unwrap() > before);
                let stored = app
                    .store
                    .read_stream(&format!("table-{id}"), before + 1, 100)
                    .await
                    .unwrap();
                let laid = stored
                    .iter()
                    .filter(|e| e.event_type == "added_on.v1")
                    .count();
                assert_eq!(laid, 1, "the add-on is stored once");
                return;
            }
            let seat = summary["to_act"].as_u64().unwrap() as usize;
            let view = api.view(id, &humans[seat].token).await;
            let action = choose(&view).unwrap();
            Api::json_ok(
                api.act(id, &humans[seat].token, &action, None).await,
                StatusCode::OK,
                "act",
            )
            .await;
        }
        eprintln!("attempt {attempt}: no add-on came up, another table");
    }
    panic!("no human could add on in 10 games");
}

#[tokio::test]
async fn the_last_seat_goes_to_exactly_one_of_the_racing_players() {
    let app = spawn_app().await;
    let api = app.api();
    let ann = app.new_player("ann").await;
    let created = api
        .create_table(&ann.token, &json!({"preset": "israeli", "seats": 2}))
        .await;
    let id = created["id"].as_i64().unwrap();
    api.join(id, &ann.token).await;
    let mut others = Vec::new();
    for name in ["bob", "cid", "dan", "eve"] {
        others.push(app.new_player(name).await);
    }
    let path = format!("/v1/tables/{id}/join");
    let responses = join_all(others.iter().map(|p| api.post(&path, &p.token, None))).await;
    let mut seated = 0;
    for response in responses {
        if response.status() == StatusCode::OK {
            seated += 1;
        } else {
            expect_problem(response, StatusCode::CONFLICT, "table_full").await;
        }
    }
    assert_eq!(seated, 1);
    let summary = api.summary(id, &ann.token).await;
    assert_eq!(summary["free_seats"], 0);
    assert_eq!(summary["version"], 3);
}

#[tokio::test]
async fn a_retried_action_gets_the_first_answer_and_appends_once() {
    let app = spawn_app().await;
    let (api, id, players) = two_player_table(&app, "ann", "bob").await;
    let (player, view, action) = next_move(&api, id, &players).await;
    let before = view["table"]["version"].as_u64().unwrap();

    let first = api.act(id, &player.token, &action, Some("move-1")).await;
    assert_eq!(first.status(), StatusCode::OK);
    assert!(first.headers().get("idempotent-replayed").is_none());
    let first: Value = first.json().await.unwrap();
    let version = first["version"].as_u64().unwrap();
    assert!(version > before);

    let retry = api.act(id, &player.token, &action, Some("move-1")).await;
    assert_eq!(retry.status(), StatusCode::OK);
    assert_eq!(retry.headers()["idempotent-replayed"], "true");
    assert_eq!(retry.json::<Value>().await.unwrap(), first);
    assert_eq!(
        api.summary(id, &player.token).await["version"]
            .as_u64()
            .unwrap(),
        version
    );

    // The events carry the key.
    let stored = app
        .store
        .read_stream(&format!("table-{id}"), before + 1, 10)
        .await
        .unwrap();
    assert_eq!(stored[0].idempotency_key.as_deref(), Some("move-1"));

    // The same key for another action is refused.
    let other = json!({"type": "call"});
    let response = api.act(id, &player.token, &other, Some("move-1")).await;
    expect_problem(
        response,
        StatusCode::UNPROCESSABLE_ENTITY,
        "idempotency_key_reused",
    )
    .await;

    // Copies sent at once with one key: one append, the same answer for all.
    let (player, _, action) = next_move(&api, id, &players).await;
    let version = api.summary(id, &player.token).await["version"]
        .as_u64()
        .unwrap();
    let responses =
        join_all((0..3).map(|_| api.act(id, &player.token, &action, Some("move-2")))).await;
    let mut bodies = Vec::new();
    for response in responses {
        assert_eq!(response.status(), StatusCode::OK);
        bodies.push(response.json::<Value>().await.unwrap());
    }
    assert!(bodies.windows(2).all(|w| w[0] == w[1]));
    let appended = bodies[0]["appended"].as_u64().unwrap();
    assert_eq!(
        api.summary(id, &player.token).await["version"]
            .as_u64()
            .unwrap(),
        version + appended
    );

    // A refused action stores nothing: its retry is decided again.
    let (player, _, _) = next_move(&api, id, &players).await;
    let wrong = json!({"type": "play", "throw": ["JK", "JK", "JK"], "draw": "stock"});
    for _ in 0..2 {
        let response = api.act(id, &player.token, &wrong, Some("bad-move")).await;
        expect_problem(
            response,
            StatusCode::UNPROCESSABLE_ENTITY,
            "card_not_in_hand",
        )
        .await;
    }

    // Creating a table with a key: a retry names the same table.
    let body = json!({"preset": "kluft", "seats": 2});
    let create = |key: &'static str| {
        app.client
            .post(api.url("/v1/tables"))
            .bearer_auth(&players[0].token)
            .header("Idempotency-Key", key)
            .json(&body)
            .send()
    };
    let a: Value = create("table-1").await.unwrap().json().await.unwrap();
    let b: Value = create("table-1").await.unwrap().json().await.unwrap();
    assert_eq!(a["id"], b["id"]);
}

#[tokio::test]
async fn if_match_guards_an_action_with_the_version_it_was_chosen_at() {
    let app = spawn_app().await;
    let (api, id, players) = two_player_table(&app, "ann", "bob").await;
    let (player, view, action) = next_move(&api, id, &players).await;
    let version = view["table"]["version"].as_u64().unwrap();
    let send = |tag: String| {
        app.client
            .post(api.url(&format!("/v1/tables/{id}/actions")))
            .bearer_auth(&player.token)
            .header("If-Match", tag)
            .json(&action)
            .send()
    };
    let response = send(format!("\"{}\"", version - 1)).await.unwrap();
    expect_problem(
        response,
        StatusCode::PRECONDITION_FAILED,
        "precondition_failed",
    )
    .await;
    let response = send("nonsense".into()).await.unwrap();
    let problem = expect_problem(
        response,
        StatusCode::UNPROCESSABLE_ENTITY,
        "validation_failed",
    )
    .await;
    assert_eq!(problem.errors[0].field, "If-Match");
    let response = send(format!("\"{version}\"")).await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    // The ETag of a read is what If-Match takes.
    let response = api.get(&format!("/v1/tables/{id}"), &player.token).await;
    let etag = response.headers()["etag"].to_str().unwrap().to_owned();
    let summary: Value = response.json().await.unwrap();
    assert_eq!(etag, format!("\"{}\"", summary["version"]));
}
