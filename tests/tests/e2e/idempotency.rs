//! A retried request with the same Idempotency-Key replays the first answer and
//! appends nothing: through the store API and over HTTP (a test-only route).

use reqwest::StatusCode;
use serde_json::{Value, json};
use yaniv_api::store::idempotency::{
    self, Begin, IdempotencyError, IdempotencyKey, IdempotentRequest, StoredResponse,
};
use yaniv_api::store::{EventMetadata, NewEvent};
use yaniv_e2e_tests::test_routes;
use yaniv_e2e_tests::{TestApp, expect_problem, spawn_app, spawn_app_with};

fn request(actor: &str, key: &str, body: &[u8]) -> IdempotentRequest {
    IdempotentRequest {
        actor: actor.into(),
        key: IdempotencyKey::parse(key).unwrap(),
        fingerprint: idempotency::fingerprint(&[b"POST", b"/x", body]),
    }
}

#[tokio::test]
async fn a_retry_through_the_store_replays_and_appends_nothing() {
    let app = spawn_app().await;
    let pool = app.store.pool();
    let first = request("account:1", "key-1", b"{}");
    let events = [NewEvent::from_json("Tested", &json!({"n": 1}))];
    let meta = EventMetadata {
        idempotency_key: Some("key-1".into()),
        ..EventMetadata::new("account:1")
    };

    let Begin::Fresh(mut tx) = idempotency::begin(pool, &first).await.unwrap() else {
        panic!("a new key must start fresh");
    };
    let outcome = app
        .store
        .append_in(&mut tx, "s", 0, &events, &meta)
        .await
        .unwrap();
    let answer = StoredResponse {
        status: 201,
        body: format!("{{\"version\":{}}}", outcome.last_version).into_bytes(),
    };
    idempotency::complete(tx, &first, &answer).await.unwrap();

    // The retry gets the first answer; nothing more is appended.
    match idempotency::begin(pool, &first).await.unwrap() {
        Begin::Replay(stored) => assert_eq!(stored, answer),
        Begin::Fresh(_) => panic!("a retry must replay"),
    }
    assert_eq!(app.store.stream_version("s").await.unwrap(), 1);

    // The same key for another request is refused; another actor has its own keys.
    let other_body = request("account:1", "key-1", b"{\"different\":true}");
    assert!(matches!(
        idempotency::begin(pool, &other_body).await,
        Err(IdempotencyError::KeyReused)
    ));
    let other_actor = request("account:2", "key-1", b"{}");
    assert!(matches!(
        idempotency::begin(pool, &other_actor).await.unwrap(),
        Begin::Fresh(_)
    ));
}

#[tokio::test]
async fn a_failed_request_stores_nothing() {
    let app = spawn_app().await;
    let pool = app.store.pool();
    app.store
        .append(
            "s",
            0,
            &[NewEvent::from_json("T", &json!({}))],
            &EventMetadata::new("x"),
        )
        .await
        .unwrap();
    let req = request("account:1", "key-2", b"{}");
    let Begin::Fresh(mut tx) = idempotency::begin(pool, &req).await.unwrap() else {
        panic!("fresh");
    };
    let conflict = app
        .store
        .append_in(
            &mut tx,
            "s",
            0,
            &[NewEvent::from_json("T", &json!({}))],
            &EventMetadata::new("x"),
        )
        .await;
    assert!(conflict.is_err());
    drop(tx); // rolled back: the key is free again
    assert!(matches!(
        idempotency::begin(pool, &req).await.unwrap(),
        Begin::Fresh(_)
    ));
}

async fn append(
    app: &TestApp,
    token: &str,
    stream: &str,
    key: Option<&str>,
    body: &Value,
) -> reqwest::Response {
    let mut request = app
        .client
        .post(app.url(&format!("/test/streams/{stream}/events")))
        .bearer_auth(token)
        .json(body);
    if let Some(key) = key {
        request = request.header("Idempotency-Key", key);
    }
    request.send().await.unwrap()
}

#[tokio::test]
async fn a_retry_over_http_replays_the_first_answer() {
    let app = spawn_app_with(|_| {}, vec![test_routes::configure]).await;
    let (_, token) = app.player("alice").await;
    let body = json!({"expected_version": 0, "events": [{"type": "Tested", "payload": {"n": 1}}]});

    let first = append(&app, &token, "s", Some("retry-1"), &body).await;
    assert_eq!(first.status(), StatusCode::CREATED);
    assert!(first.headers().get("idempotent-replayed").is_none());
    let first: Value = first.json().await.unwrap();
    assert_eq!(first["last_version"], 1);

    let retry = append(&app, &token, "s", Some("retry-1"), &body).await;
    assert_eq!(retry.status(), StatusCode::CREATED);
    assert_eq!(retry.headers()["idempotent-replayed"], "true");
    let retry: Value = retry.json().await.unwrap();
    assert_eq!(retry, first);
    assert_eq!(app.store.stream_version("s").await.unwrap(), 1);

    // The event records the key and the request id.
    let stored = app.store.read_stream("s", 1, 10).await.unwrap();
    assert_eq!(stored[0].idempotency_key.as_deref(), Some("retry-1"));
    assert!(stored[0].request_id.is_some());

    // Same key, different request: refused.
    let other = json!({"expected_version": 1, "events": [{"type": "Tested", "payload": {"n": 2}}]});
    let response = append(&app, &token, "s", Some("retry-1"), &other).await;
    expect_problem(
        response,
        StatusCode::UNPROCESSABLE_ENTITY,
        "idempotency_key_reused",
    )
    .await;

    // Without a key a stale version is a plain 409.
    let response = append(&app, &token, "s", None, &body).await;
    let problem = expect_problem(response, StatusCode::CONFLICT, "version_conflict").await;
    assert!(problem.detail.contains("version 1"), "{}", problem.detail);

    // A malformed key is named.
    let response = append(&app, &token, "s", Some("has space"), &other).await;
    let problem = expect_problem(
        response,
        StatusCode::UNPROCESSABLE_ENTITY,
        "validation_failed",
    )
    .await;
    assert_eq!(problem.errors[0].field, "Idempotency-Key");
}

#[tokio::test]
async fn concurrent_duplicates_append_once() {
    let app = spawn_app_with(|_| {}, vec![test_routes::configure]).await;
    let (_, token) = app.player("alice").await;
    let body = json!({"expected_version": 0, "events": [{"type": "Tested", "payload": {}}]});

    let responses = yaniv_e2e_tests::join_all(
        (0..5).map(|_| append(&app, &token, "dup", Some("same-key"), &body)),
    )
    .await;
    let mut bodies = Vec::new();
    for response in responses {
        assert_eq!(response.status(), StatusCode::CREATED);
        bodies.push(response.json::<Value>().await.unwrap());
    }
    assert!(bodies.windows(2).all(|w| w[0] == w[1]), "{bodies:?}");
    assert_eq!(app.store.stream_version("dup").await.unwrap(), 1);
}
