//! The random rule generator (issue 14, part 4): `POST /v1/rules/random` draws house
//! rules from a seed, the same seed always the same rules, and what it answers creates
//! a table that plays to its end.

use reqwest::StatusCode;
use serde_json::{Value, json};
use yaniv_e2e_tests::tables::{Api, play_to_end};
use yaniv_e2e_tests::{expect_problem, spawn_app};

async fn draw(api: &Api, body: Option<&Value>) -> reqwest::Response {
    let request = api.client.post(api.url("/v1/rules/random"));
    match body {
        Some(body) => request.json(body),
        None => request,
    }
    .send()
    .await
    .expect("POST /v1/rules/random")
}

#[tokio::test]
async fn the_same_seed_draws_the_same_rules_and_they_play() {
    let app = spawn_app().await;
    let api = app.api();
    let seed = "07".repeat(32);
    let body = json!({"seed": seed});
    let first = Api::json_ok(draw(&api, Some(&body)).await, StatusCode::OK, "draw").await;
    let again = Api::json_ok(draw(&api, Some(&body)).await, StatusCode::OK, "again").await;
    assert_eq!(first, again, "reproducible from its seed");
    assert_eq!(first["procedure"], "yaniv-random-rules/4");
    assert_eq!(first["seed"], seed.as_str());
    assert_eq!(first["preset"], "house");
    assert_eq!(first["elements"].as_array().map(Vec::len), Some(22));
    assert_eq!(first["rules"]["hand_size"], first["elements"][0]["value"]);
    // Each bonus rule drawn in play is in the rules, and only those.
    let in_play: Vec<&str> = first["elements"].as_array().expect("elements")[9..]
        .iter()
        .filter(|e| e["value"] == true)
        .filter_map(|e| e["parameter"].as_str()?.strip_prefix("bonus_rules."))
        .collect();
    let rules_bonus: Vec<&str> = first["rules"]["bonus_rules"]
        .as_array()
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    assert_eq!(in_play, rules_bonus);

    // An earlier version on request: the same first elements, and nothing after (each
    // version draws its predecessor's, then more).
    for (procedure, elements) in [("yaniv-random-rules/3", 19), ("yaniv-random-rules/2", 17)] {
        let body = json!({"seed": seed, "procedure": procedure});
        let earlier = Api::json_ok(draw(&api, Some(&body)).await, StatusCode::OK, procedure).await;
        assert_eq!(earlier["procedure"], procedure);
        assert_eq!(
            earlier["elements"].as_array().cloned(),
            first["elements"].as_array().map(|e| e[..elements].to_vec())
        );
    }

    // Version 1 on request: the same nine elements, no bonus rules.
    let body_one = json!({"seed": seed, "procedure": "yaniv-random-rules/1"});
    let one = Api::json_ok(draw(&api, Some(&body_one)).await, StatusCode::OK, "v1").await;
    assert_eq!(one["procedure"], "yaniv-random-rules/1");
    assert_eq!(one["elements"].as_array().map(Vec::len), Some(9));
    assert_eq!(
        one["elements"].as_array().map(|e| e[..9].to_vec()),
        first["elements"].as_array().map(|e| e[..9].to_vec())
    );
    assert!(one["rules"].get("bonus_rules").is_none());

    // Without a seed the server draws one, and says which.
    let fresh = Api::json_ok(draw(&api, None).await, StatusCode::OK, "fresh").await;
    let fresh_seed = fresh["seed"].as_str().expect("a seed");
    assert_eq!(fresh_seed.len(), 64);
    let replayed = json!({"seed": fresh_seed});
    let redrawn = Api::json_ok(draw(&api, Some(&replayed)).await, StatusCode::OK, "redraw").await;
    assert_eq!(redrawn["rules"], fresh["rules"]);

    // A bad seed, or a field the generator does not know, is named.
    for (bad, field) in [
        (json!({"seed": "xyz"}), "seed"),
        (json!({"seed": seed, "bonus": true}), "bonus"),
        (
            json!({"seed": seed, "procedure": "yaniv-random-rules/9"}),
            "procedure",
        ),
    ] {
        let problem = expect_problem(
            draw(&api, Some(&bad)).await,
            StatusCode::UNPROCESSABLE_ENTITY,
            "validation_failed",
        )
        .await;
        assert_eq!(problem.errors[0].field, field, "{bad}");
    }

    // What it answers is a table's rules: the table resolves them to the same rules,
    // and a game under them is played to its end.
    let player = app.new_player("rita").await;
    let table = api
        .started_table(
            &json!({
                "preset": first["preset"], "overrides": first["overrides"], "seats": 2,
                "bots": [{"seat": 1, "kind": "greedy"}],
            }),
            std::slice::from_ref(&player),
        )
        .await;
    let summary = api.summary(table, &player.token).await;
    assert_eq!(summary["effective_rules"], first["rules"]);
    let played = play_to_end(
        &api,
        table,
        std::slice::from_ref(&player),
        5_000,
        0,
        |_| async {},
    )
    .await;
    assert_eq!(played.summary["status"], "finished");
}

/// Found by Schemathesis: `[null, null]` drew rules, as serde reads a struct from an
/// array field by field. The document says an object; so does the server now. No body
/// at all still draws from a fresh seed (the document marks the body optional).
#[tokio::test]
async fn a_body_that_is_not_an_object_is_refused() {
    let app = spawn_app().await;
    let api = app.api();
    for body in [json!([null, null]), json!("seed"), json!(7)] {
        let response = draw(&api, Some(&body)).await;
        let problem = expect_problem(
            response,
            StatusCode::UNPROCESSABLE_ENTITY,
            "validation_failed",
        )
        .await;
        assert_eq!(problem.errors[0].field, "body", "{body}");
    }
    let fresh = draw(&api, None).await;
    assert_eq!(fresh.status(), StatusCode::OK);
}
