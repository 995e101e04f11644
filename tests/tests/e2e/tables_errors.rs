//! What a client can get wrong at a table: authentication, authorization, malformed
//! bodies, invalid tables, and moves the rules refuse. Always a problem document
//! with a stable code, never a 500.

use reqwest::StatusCode;
use serde_json::{Value, json};
use yaniv_e2e_tests::tables::Api;
use yaniv_e2e_tests::{expect_problem, spawn_app};

#[tokio::test]
async fn tables_need_a_token_and_a_seat() {
    let app = spawn_app().await;
    let api = app.api();
    let ann = app.new_player("ann").await;
    let bob = app.new_player("bob").await;
    let mallory = app.new_player("mallory").await;
    let id = api
        .started_table(
            &json!({"preset": "israeli", "seats": 2}),
            &[ann.clone(), bob.clone()],
        )
        .await;
    let play = json!({"type": "call"});

    // No token, a bad token.
    for path in [
        "/v1/tables",
        &format!("/v1/tables/{id}/view"),
        &format!("/v1/tables/{id}/events"),
    ] {
        let response = app.get(path, None).await;
        expect_problem(response, StatusCode::UNAUTHORIZED, "unauthenticated").await;
    }
    let response = app
        .post_json(&format!("/v1/tables/{id}/actions"), &play, None)
        .await;
    expect_problem(response, StatusCode::UNAUTHORIZED, "unauthenticated").await;
    let response = app
        .post_json(
            &format!("/v1/tables/{id}/actions"),
            &play,
            Some(&"x".repeat(43)),
        )
        .await;
    expect_problem(response, StatusCode::UNAUTHORIZED, "invalid_token").await;
    let response = app
        .post_json(
            "/v1/tables",
            &json!({"preset": "israeli", "seats": 2}),
            None,
        )
        .await;
    expect_problem(response, StatusCode::UNAUTHORIZED, "unauthenticated").await;

    // Another player's table: no actions, only the public view.
    let response = api.act(id, &mallory.token, &play, None).await;
    expect_problem(response, StatusCode::FORBIDDEN, "not_seated").await;
    let view = api.view(id, &mallory.token).await;
    assert_eq!(view["viewer"], "spectator");
    assert!(view["hand"].is_null() && view["hands"].is_null());

    // Players do not audit or verify.
    for response in [
        api.get(&format!("/v1/tables/{id}/audit"), &mallory.token)
            .await,
        api.get(&format!("/v1/tables/{id}/audit?as_of=3"), &ann.token)
            .await,
        api.post(&format!("/v1/tables/{id}/verify"), &bob.token, None)
            .await,
    ] {
        expect_problem(response, StatusCode::FORBIDDEN, "forbidden").await;
    }

    // No such table; not a table id.
    let response = api.get("/v1/tables/999999", &ann.token).await;
    expect_problem(response, StatusCode::NOT_FOUND, "not_found").await;
    let response = api.act(999_999, &ann.token, &play, None).await;
    expect_problem(response, StatusCode::NOT_FOUND, "not_found").await;
    let response = api.get("/v1/tables/twelve/view", &ann.token).await;
    expect_problem(response, StatusCode::BAD_REQUEST, "invalid_path").await;
    let response = app
        .client
        .delete(api.url(&format!("/v1/tables/{id}")))
        .send()
        .await
        .unwrap();
    expect_problem(
        response,
        StatusCode::METHOD_NOT_ALLOWED,
        "method_not_allowed",
    )
    .await;
}

#[tokio::test]
async fn malformed_actions_name_their_field() {
    let app = spawn_app().await;
    let api = app.api();
    let ann = app.new_player("ann").await;
    let bob = app.new_player("bob").await;
    let id = api
        .started_table(
            &json!({"preset": "israeli", "seats": 2}),
            &[ann.clone(), bob.clone()],
        )
        .await;
    let version = api.summary(id, &ann.token).await["version"].clone();

    for (body, field) in [
        (json!({"type": "dance"}), "type"),
        (json!({"throw": ["AS"], "draw": "stock"}), "type"),
        (json!({"type": 3}), "type"),
        (json!(["play"]), "body"),
        (
            json!({"type": "play", "throw": ["AS", "11H"], "draw": "stock"}),
            "throw[1]",
        ),
        (
            json!({"type": "play", "throw": ["as"], "draw": "stock"}),
            "throw[0]",
        ),
        (
            json!({"type": "play", "throw": "AS", "draw": "stock"}),
            "throw",
        ),
        (json!({"type": "play", "throw": ["AS"]}), "draw"),
        (
            json!({"type": "play", "throw": ["AS"], "draw": {"stock": "QS"}}),
            "draw",
        ),
        (
            json!({"type": "play", "throw": ["AS"], "draw": {"discard": "ZZ"}}),
            "draw.discard",
        ),
        (
            json!({"type": "play", "throw": ["AS"], "draw": "stock", "seat": 1}),
            "seat",
        ),
        (json!({"type": "slap"}), "card"),
        (json!({"type": "add_on", "cards": []}), "cards"),
        (json!({"type": "go_along", "going": "yes"}), "going"),
        (json!({"type": "onderkluft"}), "challenge"),
        (json!({"type": "call", "call": "jhyap"}), "call"),
    ] {
        let response = api.act(id, &ann.token, &body, None).await;
        let problem = expect_problem(
            response,
            StatusCode::UNPROCESSABLE_ENTITY,
            "validation_failed",
        )
        .await;
        assert_eq!(problem.errors[0].field, field, "{body}");
    }

    // Not JSON, not sent as JSON.
    let url = api.url(&format!("/v1/tables/{id}/actions"));
    let response = app
        .client
        .post(&url)
        .bearer_auth(&ann.token)
        .header("content-type", "application/json")
        .body(r#"{"type": "play", "throw": ["#)
        .send()
        .await
        .unwrap();
    expect_problem(response, StatusCode::BAD_REQUEST, "malformed_json").await;
    let response = app
        .client
        .post(&url)
        .bearer_auth(&ann.token)
        .header("content-type", "text/plain")
        .body(r#"{"type": "call"}"#)
        .send()
        .await
        .unwrap();
    expect_problem(
        response,
        StatusCode::UNSUPPORTED_MEDIA_TYPE,
        "unsupported_media_type",
    )
    .await;
    let response = api
        .post(
            &format!("/v1/tables/{id}/join"),
            &ann.token,
            Some(&json!({"chair": 1})),
        )
        .await;
    let problem = expect_problem(
        response,
        StatusCode::UNPROCESSABLE_ENTITY,
        "validation_failed",
    )
    .await;
    assert_eq!(problem.errors[0].field, "chair");

    // Too large (each on a fresh connection: the server closes one whose body it
    // refused unread).
    let huge = json!({"type": "play", "throw": vec!["AS"; 60_000], "draw": "stock"});
    let response = reqwest::Client::new()
        .post(&url)
        .bearer_auth(&ann.token)
        .json(&huge)
        .send()
        .await
        .unwrap();
    expect_problem(response, StatusCode::PAYLOAD_TOO_LARGE, "payload_too_large").await;
    let response = reqwest::Client::new()
        .post(api.url(&format!("/v1/tables/{id}/join")))
        .bearer_auth(&ann.token)
        .body(vec![b' '; 300 * 1024])
        .send()
        .await
        .unwrap();
    expect_problem(response, StatusCode::PAYLOAD_TOO_LARGE, "payload_too_large").await;

    // Nothing was appended by any of them.
    assert_eq!(api.summary(id, &ann.token).await["version"], version);
}

#[tokio::test]
async fn moves_the_rules_refuse_carry_the_rules_code() {
    let app = spawn_app().await;
    let api = app.api();
    let ann = app.new_player("ann").await;
    let bob = app.new_player("bob").await;
    let players = [ann.clone(), bob.clone()];
    let id = api
        .started_table(&json!({"preset": "israeli", "seats": 2}), &players)
        .await;
    let summary = api.summary(id, &ann.token).await;
    let seat = summary["to_act"].as_u64().unwrap() as usize;
    let (mover, waiter) = (&players[seat], &players[1 - seat]);
    let view = api.view(id, &mover.token).await;
    let hand: Vec<String> = serde_json::from_value(view["hand"].clone()).unwrap();
    let one = json!({"type": "play", "throw": [hand[0]], "draw": "stock"});

    let response = api.act(id, &waiter.token, &one, None).await;
    let problem = expect_problem(response, StatusCode::CONFLICT, "not_your_turn").await;
    assert!(problem.detail.contains("turn"), "{}", problem.detail);

    // A card the mover does not hold (some card of the other hand is such a card).
    let missing = ["AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S"]
        .into_iter()
        .find(|c| !hand.iter().any(|h| h == c))
        .unwrap();
    let response = api
        .act(
            id,
            &mover.token,
            &json!({"type": "play", "throw": [missing], "draw": "stock"}),
            None,
        )
        .await;
    let problem = expect_problem(
        response,
        StatusCode::UNPROCESSABLE_ENTITY,
        "card_not_in_hand",
    )
    .await;
    assert!(problem.detail.contains(missing));

    // Two cards that are neither a set nor a run, if the hand has such a pair.
    let pair = hand.iter().enumerate().find_map(|(i, a)| {
        hand[i + 1..]
            .iter()
            .find(|b| a[..a.len() - 1] != b[..b.len() - 1])
            .map(|b| (a, b))
    });
    if let Some((a, b)) = pair {
        let response = api
            .act(
                id,
                &mover.token,
                &json!({"type": "play", "throw": [a, b], "draw": "stock"}),
                None,
            )
            .await;
        expect_problem(response, StatusCode::UNPROCESSABLE_ENTITY, "illegal_throw").await;
    }
    // A discard card that is not on the pile.
    let top: Vec<String> = serde_json::from_value(view["game"]["top_throw"].clone()).unwrap();
    let absent = ["KD", "QD", "JD", "10D"]
        .into_iter()
        .find(|c| !top.iter().any(|t| t == c))
        .unwrap();
    let response = api
        .act(
            id,
            &mover.token,
            &json!({"type": "play", "throw": [hand[0]], "draw": {"discard": absent}}),
            None,
        )
        .await;
    expect_problem(response, StatusCode::UNPROCESSABLE_ENTITY, "illegal_draw").await;
    // Calling above the threshold; declaring when nobody called; laying out of turn.
    if view["legal"]["call"] == false {
        let response = api
            .act(id, &mover.token, &json!({"type": "call"}), None)
            .await;
        expect_problem(
            response,
            StatusCode::UNPROCESSABLE_ENTITY,
            "call_not_allowed",
        )
        .await;
    }
    let response = api
        .act(
            id,
            &mover.token,
            &json!({"type": "go_along", "going": true}),
            None,
        )
        .await;
    let problem: Value = response.json().await.unwrap();
    assert!(
        ["declaration_not_allowed", "wrong_phase"].contains(&problem["code"].as_str().unwrap()),
        "{problem}"
    );
    let response = api
        .act(
            id,
            &waiter.token,
            &json!({"type": "slap", "card": "AS"}),
            None,
        )
        .await;
    expect_problem(
        response,
        StatusCode::UNPROCESSABLE_ENTITY,
        "slap_not_allowed",
    )
    .await;

    // Nothing changed; the table still verifies.
    assert_eq!(
        api.summary(id, &ann.token).await["version"],
        summary["version"]
    );
}

#[tokio::test]
async fn invalid_tables_are_refused_field_by_field() {
    let app = spawn_app().await;
    let api = app.api();
    let ann = app.new_player("ann").await;
    for (body, field) in [
        (json!({"preset": "swiss", "seats": 3}), "preset"),
        (json!({"preset": "israeli", "seats": 9}), "seats"),
        (json!({"preset": "israeli", "seats": 1}), "seats"),
        (
            json!({"preset": "israeli", "seats": 2, "overrides": {"call_threshold": "low"}}),
            "overrides.call_threshold",
        ),
        (
            json!({"preset": "israeli", "seats": 2, "overrides": {"colour": "red"}}),
            "overrides.colour",
        ),
        (
            json!({"preset": "israeli", "seats": 2, "overrides": {"max_players": 2, "min_players": 3}}),
            "overrides.min_players",
        ),
        (
            json!({"preset": "israeli", "seats": 4, "overrides": {"max_players": 3}}),
            "seats",
        ),
        (
            json!({"preset": "israeli", "seats": 3, "bots": [{"seat": 3, "kind": "greedy"}]}),
            "bots[0].seat",
        ),
        (
            json!({"preset": "israeli", "seats": 3, "bots": [{"seat": 1, "kind": "clever"}]}),
            "bots[0].kind",
        ),
        (
            json!({"preset": "israeli", "seats": 3, "bots": [{"seat": 1, "kind": "greedy"}, {"seat": 1, "kind": "random"}]}),
            "bots[1].seat",
        ),
        (
            json!({"preset": "israeli", "seats": 2, "bots": [{"seat": 0, "kind": "greedy"}, {"seat": 1, "kind": "random"}]}),
            "bots",
        ),
        (
            json!({"preset": "israeli", "seats": 2, "colour": "red"}),
            "colour",
        ),
        (json!({"preset": "israeli"}), "seats"),
    ] {
        let response = api.post("/v1/tables", &ann.token, Some(&body)).await;
        let problem = expect_problem(
            response,
            StatusCode::UNPROCESSABLE_ENTITY,
            "validation_failed",
        )
        .await;
        assert!(
            problem.errors.iter().any(|e| e.field == field),
            "{body}: {:?}",
            problem.errors
        );
    }
    // Nothing was created.
    let list = Api::json_ok(
        api.get("/v1/tables", &ann.token).await,
        StatusCode::OK,
        "list",
    )
    .await;
    assert_eq!(list["tables"], json!([]));
}
