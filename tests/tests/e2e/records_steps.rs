//! `POST /v1/records/steps`: a record stepped through, event by event, as far as the
//! rules accept it. It agrees with `POST /v1/records/replay` on every conformance
//! fixture: the same result when the record replays, the same `yaniv-error/1` problem
//! when it does not (beside the steps before it, or as the 422 of a body that is not a
//! record at all).

use reqwest::StatusCode;
use serde_json::{Value, json};
use yaniv_e2e_tests::records::{fixture_names, fixtures, illegal_draw_record, read_json};
use yaniv_e2e_tests::{TestApp, expect_problem, spawn_app, spawn_app_with};

const STEPS: &str = "/v1/records/steps";

async fn post_bytes(app: &TestApp, body: Vec<u8>) -> reqwest::Response {
    app.client
        .post(app.url(STEPS))
        .header("content-type", "application/json")
        .body(body)
        .send()
        .await
        .expect("POST failed")
}

const ERROR_FIELDS: [&str; 5] = ["format", "round", "action", "code", "message"];

#[tokio::test]
async fn every_fixture_steps_to_what_the_replay_says() {
    let app = spawn_app().await;
    let names = fixture_names();
    let (mut clean, mut stopped, mut refused) = (0, 0, 0);
    for name in &names {
        let body = std::fs::read(fixtures().join(format!("{name}.json"))).unwrap();
        let expected = read_json(&fixtures().join(format!("{name}.expected.json")));
        let response = post_bytes(&app, body).await;
        if response.status() == StatusCode::UNPROCESSABLE_ENTITY {
            let problem: Value = response.json().await.unwrap();
            for field in ERROR_FIELDS {
                assert_eq!(problem[field], expected[field], "{name}: {field}");
            }
            refused += 1;
            continue;
        }
        assert_eq!(response.status(), StatusCode::OK, "{name}");
        let walked: Value = response.json().await.unwrap();
        let steps = walked["steps"].as_array().unwrap();
        for (number, step) in (1..).zip(steps) {
            assert_eq!(step["step"], number, "{name}");
        }
        if expected["format"] == "yaniv-error/1" {
            for field in ERROR_FIELDS {
                assert_eq!(walked["problem"][field], expected[field], "{name}: {field}");
            }
            assert!(walked["result"].is_null(), "{name}");
            stopped += 1;
        } else {
            assert_eq!(walked["result"], expected, "{name}");
            assert!(walked["problem"].is_null(), "{name}");
            assert_eq!(steps[0]["event"], "game_created.v1", "{name}");
            clean += 1;
        }
    }
    assert!(
        clean >= 3 && stopped >= 3,
        "{clean} clean, {stopped} stopped by the rules, {refused} refused"
    );
}

/// Bob takes the middle card of ann's run: the steps end with ann's turn, every hand
/// shown as it stands then, and the problem names bob's action.
#[tokio::test]
async fn a_record_the_rules_refuse_is_shown_up_to_its_problem() {
    let app = spawn_app().await;
    let record = illegal_draw_record();
    let response = app.post_json(STEPS, &record, None).await;
    assert_eq!(response.status(), StatusCode::OK);
    let walked: Value = response.json().await.unwrap();
    assert_eq!(walked["players"], json!(["ann", "bob"]));
    assert_eq!(walked["problem"]["code"], "illegal_draw");
    assert_eq!(
        (&walked["problem"]["round"], &walked["problem"]["action"]),
        (&json!(0), &json!(1))
    );
    let events: Vec<&str> = walked["steps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["event"].as_str().unwrap())
        .collect();
    assert_eq!(
        events,
        ["game_created.v1", "round_dealt.v1", "turn_played.v1"]
    );
    let last = &walked["steps"][2];
    assert_eq!(
        last["hands"],
        json!([["KS", "9C", "2C"], ["4D", "5D", "6D", "10C", "QH"]])
    );
    assert_eq!(last["hand_totals"], json!([21, 35]));
    assert_eq!(last["top_throw"], json!(["5S", "6S", "7S"]));
    assert_eq!(last["to_act"], 1);
    assert_eq!(last["position"], json!({"round": 1, "action": 1}));
    assert!(
        last["summary"].as_str().unwrap().starts_with("ann threw"),
        "{last}"
    );
    let dealt = &walked["steps"][1];
    assert_eq!(dealt["position"], Value::Null, "no action yet");
    assert_eq!(
        dealt["stock_size"].as_u64().unwrap(),
        last["stock_size"].as_u64().unwrap() + 1,
        "ann drew one card"
    );
    // The round's pile, its throws stamped with the step that laid them.
    let pile = &walked["discard_piles"][0];
    assert_eq!(pile["round"], 1);
    let throws: Vec<(Value, Value)> = pile["throws"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| (t["version"].clone(), t["cards"].clone()))
        .collect();
    assert_eq!(
        throws,
        [
            (json!(2), json!(["7C"])),
            (json!(3), json!(["5S", "6S", "7S"]))
        ]
    );
    assert!(walked["result"].is_null());
}

#[tokio::test]
async fn a_body_that_is_not_a_record_is_refused_and_nothing_is_stored() {
    let app = spawn_app().await;
    let response = app
        .post_json(STEPS, &json!({"format": "yaniv-record/1"}), None)
        .await;
    assert_eq!(response.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let problem: Value = response.json().await.unwrap();
    assert_eq!(problem["code"], "bad_record");
    assert_eq!(problem["format"], "yaniv-error/1");

    let response = post_bytes(&app, b"{not json".to_vec()).await;
    expect_problem(response, StatusCode::BAD_REQUEST, "malformed_json").await;

    let stored: i64 = sqlx::query_scalar("SELECT count(*) FROM events")
        .fetch_one(&app.db)
        .await
        .unwrap();
    assert_eq!(stored, 0);
}

/// Found by Schemathesis: a record whose rules name no preset there is (a value the
/// document's enum forbids) was answered 200 with no step at all, and one whose up card
/// was `""` (no card, as the document's pattern says) with a step and a problem. A
/// record that cannot start, or names a card that is not one, is refused whole.
#[tokio::test]
async fn a_record_that_cannot_start_is_refused_as_replay_refuses_it() {
    let app = spawn_app().await;
    let mut record = illegal_draw_record();
    record["rules"]["preset"] = json!("no-such-preset");
    for path in [STEPS, "/v1/records/replay"] {
        let response = app.post_json(path, &record, None).await;
        assert_eq!(
            response.status(),
            StatusCode::UNPROCESSABLE_ENTITY,
            "{path}"
        );
        let problem: Value = response.json().await.unwrap();
        assert_eq!(problem["code"], "bad_rules", "{path}");
        assert_eq!(problem["round"], Value::Null, "{path}");
    }
    // Nor is a record with a card that is not one, whatever comes before it.
    let mut record = illegal_draw_record();
    record["rounds"][0]["up_card"] = json!("");
    let response = app.post_json(STEPS, &record, None).await;
    assert_eq!(response.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let problem: Value = response.json().await.unwrap();
    assert_eq!(problem["code"], "unknown_card");
    assert_eq!(problem["round"], 0);
}

#[tokio::test]
async fn steps_share_the_record_size_limit() {
    let app = spawn_app_with(|s| s.max_record_bytes = 4096, Vec::new()).await;
    let mut body = std::fs::read(fixtures().join("belgian_meegaan.json")).unwrap();
    body.resize(4097, b' ');
    let response = post_bytes(&app, body).await;
    expect_problem(response, StatusCode::PAYLOAD_TOO_LARGE, "payload_too_large").await;
}
