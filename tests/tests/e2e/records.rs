//! `POST /v1/records/replay`: a record replays to its result (200), a rejected record is
//! a 422 problem carrying the `yaniv-error/1` fields, and nothing is stored.

use std::time::Instant;

use reqwest::{Response, StatusCode};
use serde_json::{Value, json};
use yaniv_api::error::Problem;
use yaniv_e2e_tests::records::{fixture_names, fixtures, illegal_draw_record, read_json};
use yaniv_e2e_tests::{TestApp, expect_problem, spawn_app, spawn_app_with};

const REPLAY: &str = "/v1/records/replay";

async fn post_bytes(app: &TestApp, body: Vec<u8>) -> Response {
    app.client
        .post(app.url(REPLAY))
        .header("content-type", "application/json")
        .body(body)
        .send()
        .await
        .expect("POST failed")
}

/// A 422 whose body is both a problem document and a `yaniv-error/1` document.
async fn expect_record_error(response: Response) -> Value {
    assert_eq!(response.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let content_type = response.headers()["content-type"].to_str().unwrap();
    assert!(
        content_type.starts_with("application/problem+json"),
        "{content_type}"
    );
    let body: Value = response.json().await.unwrap();
    let problem: Problem = serde_json::from_value(body.clone()).expect("a problem document");
    assert_eq!(problem.status, 422);
    assert_eq!(
        problem.problem_type,
        format!("urn:yaniv:problem:{}", problem.code)
    );
    assert_eq!(problem.title, "Invalid game record");
    assert_eq!(body["format"], "yaniv-error/1");
    assert!(body["message"].as_str().is_some_and(|m| !m.is_empty()));
    assert!(problem.detail.contains(body["message"].as_str().unwrap()));
    body
}

/// `(code, round, action)` of a rejected record.
fn position(body: &Value) -> (&str, Value, Value) {
    (
        body["code"].as_str().unwrap(),
        body["round"].clone(),
        body["action"].clone(),
    )
}

async fn events_stored(app: &TestApp) -> i64 {
    sqlx::query_scalar("SELECT count(*) FROM events")
        .fetch_one(&app.db)
        .await
        .unwrap()
}

#[tokio::test]
async fn a_legal_record_replays_to_its_totals_without_a_token() {
    let app = spawn_app().await;
    let record = read_json(&fixtures().join("belgian_meegaan.json"));

    let response = app.post_json(REPLAY, &record, None).await;
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(response.headers()["content-type"], "application/json");
    let result: Value = response.json().await.unwrap();

    assert_eq!(result["format"], "yaniv-result/1");
    let round = &result["rounds"][0];
    assert_eq!(round["outcome"], "assaf");
    assert_eq!(round["caller"], "cid");
    assert_eq!(round["totals"], json!({"ann": 21, "bob": 0, "cid": 32}));
    assert_eq!(result["finished"], false);
    assert_eq!(result["next_starter"], "bob");
    assert_eq!(
        result["standings"][0],
        json!({"player": "bob", "total": 0, "place": 1})
    );
    assert_eq!(
        result,
        read_json(&fixtures().join("belgian_meegaan.expected.json"))
    );
    // The documented example is that same record.
    assert_eq!(record, yaniv_api::http::routes::records::example_record());

    assert_eq!(events_stored(&app).await, 0, "a replay stores nothing");
}

/// Every conformance fixture of the rules engine gives over HTTP exactly the document
/// `yaniv replay` gives: the result, or the error's fields inside the 422 problem.
#[tokio::test]
async fn every_fixture_replays_over_http_as_the_engine_replays_it() {
    let app = spawn_app().await;
    let names = fixture_names();
    assert!(names.len() >= 10, "only {} fixtures", names.len());
    let (mut replayed, mut rejected) = (0, 0);
    for name in &names {
        let body = std::fs::read(fixtures().join(format!("{name}.json"))).unwrap();
        let expected = read_json(&fixtures().join(format!("{name}.expected.json")));
        let response = post_bytes(&app, body).await;
        if expected["format"] == "yaniv-error/1" {
            let problem = expect_record_error(response).await;
            for field in ["format", "round", "action", "code", "message"] {
                assert_eq!(problem[field], expected[field], "{name}: {field}");
            }
            rejected += 1;
        } else {
            assert_eq!(response.status(), StatusCode::OK, "{name}");
            let result: Value = response.json().await.unwrap();
            assert_eq!(result, expected, "{name}");
            replayed += 1;
        }
    }
    assert!(
        replayed >= 3 && rejected >= 3,
        "{replayed} replayed, {rejected} rejected"
    );
    assert_eq!(events_stored(&app).await, 0);
}

#[tokio::test]
async fn an_unknown_card_is_located() {
    let app = spawn_app().await;
    let record = json!({
        "format": "yaniv-record/1",
        "rules": { "preset": "israeli" },
        "players": ["ann", "bob"],
        "rounds": [{
            "starter": "ann",
            "hands": {
                "ann": ["AH", "2H", "3H", "9C", "KS"],
                "bob": ["4D", "5D", "6D", "10C", "QS"]
            },
            "up_card": "7C",
            "actions": [
                { "player": "ann", "throw": ["KS"], "draw": { "discard": "7C" } },
                { "player": "bob", "throw": ["1H"], "draw": { "stock": "8C" } }
            ]
        }]
    });
    let body = expect_record_error(app.post_json(REPLAY, &record, None).await).await;
    assert_eq!(position(&body), ("unknown_card", json!(0), json!(1)));
    assert!(body["message"].as_str().unwrap().contains("1H"), "{body}");
}

#[tokio::test]
async fn an_illegal_draw_is_located() {
    let app = spawn_app().await;
    let record = illegal_draw_record();
    let body = expect_record_error(app.post_json(REPLAY, &record, None).await).await;
    assert_eq!(position(&body), ("illegal_draw", json!(0), json!(1)));
    assert!(
        body["message"].as_str().unwrap().starts_with("bob"),
        "{body}"
    );
}

#[tokio::test]
async fn bad_rules_are_reported_outside_any_round() {
    let app = spawn_app().await;
    for rules in [
        json!({ "preset": "belgian", "overrides": { "call_treshold": 7 } }),
        json!({ "preset": "belgian", "overrides": { "call_threshold": "seven" } }),
        json!({ "preset": "martian" }),
    ] {
        let record = json!({
            "format": "yaniv-record/1",
            "rules": rules,
            "players": ["ann", "bob"],
            "rounds": []
        });
        let body = expect_record_error(app.post_json(REPLAY, &record, None).await).await;
        assert_eq!(
            position(&body),
            ("bad_rules", Value::Null, Value::Null),
            "{rules}"
        );
    }
}

#[tokio::test]
async fn an_unfinished_round_is_reported_at_its_round() {
    let app = spawn_app().await;
    let record = json!({
        "format": "yaniv-record/1",
        "rules": { "preset": "israeli" },
        "players": ["ann", "bob"],
        "rounds": [{
            "starter": "bob",
            "hands": {
                "ann": ["AH", "2H", "3H", "9C", "KS"],
                "bob": ["4D", "5D", "6D", "10C", "QS"]
            },
            "up_card": "7C",
            "actions": [
                { "player": "bob", "throw": ["4D", "5D", "6D"], "draw": { "discard": "7C" } },
                { "player": "ann", "throw": ["AH", "2H", "3H"], "draw": { "stock": "4H" } }
            ]
        }]
    });
    let body = expect_record_error(app.post_json(REPLAY, &record, None).await).await;
    assert_eq!(
        position(&body),
        ("round_not_finished", json!(0), Value::Null)
    );
}

#[tokio::test]
async fn json_that_is_not_a_record_is_422_bad_record() {
    let app = spawn_app().await;
    for body in [
        json!([1, 2, 3]),
        json!({"format": "yaniv-record/4"}),
        json!({"format": "yaniv-record/1", "rules": {"preset": "israeli"}, "rounds": []}),
    ] {
        let problem = expect_record_error(app.post_json(REPLAY, &body, None).await).await;
        assert_eq!(
            position(&problem),
            ("bad_record", Value::Null, Value::Null),
            "{body}"
        );
    }
}

#[tokio::test]
async fn a_body_that_is_not_json_is_400() {
    let app = spawn_app().await;
    for body in [
        &b"not json"[..],
        b"{\"format\": \"yaniv-record/1\", ",
        b"\xff\xfe",
        b"",
    ] {
        let response = post_bytes(&app, body.to_vec()).await;
        expect_problem(response, StatusCode::BAD_REQUEST, "malformed_json").await;
    }
    // Without a content type the body is still read as JSON.
    let response = app
        .client
        .post(app.url(REPLAY))
        .body("{")
        .send()
        .await
        .unwrap();
    expect_problem(response, StatusCode::BAD_REQUEST, "malformed_json").await;
    // Another media type is refused.
    let response = app
        .client
        .post(app.url(REPLAY))
        .header("content-type", "text/plain")
        .body("{}")
        .send()
        .await
        .unwrap();
    expect_problem(
        response,
        StatusCode::UNSUPPORTED_MEDIA_TYPE,
        "unsupported_media_type",
    )
    .await;
    let response = app.get(REPLAY, None).await;
    assert_eq!(response.headers()["allow"], "POST");
    expect_problem(
        response,
        StatusCode::METHOD_NOT_ALLOWED,
        "method_not_allowed",
    )
    .await;
}

/// A valid record padded with whitespace to `size` bytes.
fn padded_record(size: usize) -> Vec<u8> {
    let mut bytes = std::fs::read(fixtures().join("belgian_meegaan.json")).unwrap();
    assert!(bytes.len() < size);
    bytes.resize(size, b' ');
    bytes
}

#[tokio::test]
async fn records_have_their_own_body_limit() {
    let app = spawn_app().await;
    let limit = yaniv_api::config::DEFAULT_MAX_RECORD_BYTES;
    assert!(limit > yaniv_api::config::DEFAULT_MAX_BODY_BYTES);

    // Above the 256 KiB of the other endpoints, within the 1 MiB of records.
    let response = post_bytes(&app, padded_record(limit)).await;
    assert_eq!(response.status(), StatusCode::OK);

    let response = post_bytes(&app, padded_record(limit + 1)).await;
    let problem =
        expect_problem(response, StatusCode::PAYLOAD_TOO_LARGE, "payload_too_large").await;
    assert!(problem.detail.contains(&limit.to_string()), "{problem:?}");
}

#[tokio::test]
async fn the_record_limit_is_configurable() {
    let app = spawn_app_with(|s| s.max_record_bytes = 4096, Vec::new()).await;
    let response = post_bytes(&app, padded_record(4096)).await;
    assert_eq!(response.status(), StatusCode::OK);
    let response = post_bytes(&app, padded_record(4097)).await;
    expect_problem(response, StatusCode::PAYLOAD_TOO_LARGE, "payload_too_large").await;
}

/// A body sent in chunks, without `Content-Length`, is cut off at the limit too.
#[tokio::test]
async fn a_chunked_body_over_the_limit_is_413() {
    let app = spawn_app_with(|s| s.max_record_bytes = 4096, Vec::new()).await;
    let port = app.port;
    let status_line = tokio::task::spawn_blocking(move || {
        use std::io::{BufRead, BufReader, Write};
        let mut stream = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
        let chunk = vec![b' '; 3000];
        write!(
            stream,
            "POST {REPLAY} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n\
             Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
        )
        .unwrap();
        for _ in 0..2 {
            write!(stream, "{:x}\r\n", chunk.len()).unwrap();
            stream.write_all(&chunk).unwrap();
            stream.write_all(b"\r\n").unwrap();
        }
        // The server may answer (and close) before the last chunk: ignore write errors.
        let _ = stream.write_all(b"0\r\n\r\n");
        let mut line = String::new();
        BufReader::new(stream).read_line(&mut line).unwrap();
        line
    })
    .await
    .unwrap();
    assert!(status_line.starts_with("HTTP/1.1 413"), "{status_line:?}");
}

/// A long bot game (8 players, random play) exported as a record just under the 1 MiB
/// limit replays over HTTP to what the engine gives in process; the time is printed
/// (`--no-capture`). `cargo run --release -p yaniv-e2e-tests --example replay_bench`
/// measures it in a release build.
#[tokio::test]
async fn a_large_record_replays() {
    let limit = yaniv_api::config::DEFAULT_MAX_RECORD_BYTES;
    let record = yaniv_e2e_tests::records::bot_game_record(limit, 1500, 7);
    let rounds = record.rounds.len();
    let actions: usize = record.rounds.iter().map(|r| r.actions.len()).sum();
    let body = serde_json::to_vec(&record).unwrap();
    assert!(body.len() > limit * 3 / 4, "only {} bytes", body.len());

    let app = spawn_app().await;
    let started = Instant::now();
    let response = post_bytes(&app, body.clone()).await;
    let elapsed = started.elapsed();
    assert_eq!(response.status(), StatusCode::OK);
    let result: Value = response.json().await.unwrap();
    assert_eq!(result["rounds"].as_array().unwrap().len(), rounds);
    let expected = yaniv_domain::record::replay_json(&body)
        .expect("replays in process")
        .result;
    assert_eq!(result, serde_json::to_value(&expected).unwrap());
    println!(
        "replayed a {} byte record ({rounds} rounds, {actions} actions) over HTTP in {elapsed:?}",
        body.len()
    );
}
