//! Each instance caches the sessions it has checked; a log out or a change of roles
//! still takes effect on every instance, and at once on the one that made it.

use std::time::{Duration, Instant};

use reqwest::StatusCode;
use serde_json::{Value, json};
use yaniv_e2e_tests::spawn_app;
use yaniv_e2e_tests::tables::Api;

/// `GET /v1/accounts/me` on `api` with `token`: the status and the body.
async fn me(api: &Api, token: &str) -> (StatusCode, Value) {
    let response = api.get("/v1/accounts/me", token).await;
    let status = response.status();
    (status, response.json().await.unwrap_or(Value::Null))
}

/// Asks until `done` holds for the answer, for at most two seconds (a notification
/// travels through the database); the time it took.
async fn within_two_seconds(
    api: &Api,
    token: &str,
    done: impl Fn(StatusCode, &Value) -> bool,
) -> Duration {
    let started = Instant::now();
    loop {
        let (status, body) = me(api, token).await;
        if done(status, &body) {
            return started.elapsed();
        }
        assert!(
            started.elapsed() < Duration::from_secs(2),
            "still {status} {body} after two seconds"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

#[tokio::test]
async fn a_log_out_ends_the_session_on_every_instance() {
    let app = spawn_app().await;
    let (a, b) = (app.api(), app.spawn_instance().await);
    let (_, token) = app.player("ann").await;
    // Both instances have checked (and cached) the session.
    for api in [&a, &b] {
        for _ in 0..2 {
            assert_eq!(me(api, &token).await.0, StatusCode::OK);
        }
    }
    let out = b
        .client
        .delete(b.url("/v1/sessions/current"))
        .bearer_auth(&token)
        .send()
        .await
        .expect("DELETE");
    assert_eq!(out.status(), StatusCode::NO_CONTENT);
    // At once where it was made...
    assert_eq!(me(&b, &token).await.0, StatusCode::UNAUTHORIZED);
    // ...and as soon as the other instance hears the database.
    within_two_seconds(&a, &token, |status, _| status == StatusCode::UNAUTHORIZED).await;
}

#[tokio::test]
async fn new_roles_reach_every_instance() {
    let app = spawn_app().await;
    let (a, b) = (app.api(), app.spawn_instance().await);
    let (bob, token) = app.player("bob").await;
    let (_, admin) = app.admin().await;
    let roles = |body: &Value| {
        let mut names: Vec<String> = body["roles"]
            .as_array()
            .map(|r| {
                r.iter()
                    .filter_map(|v| v.as_str().map(str::to_owned))
                    .collect()
            })
            .unwrap_or_default();
        names.sort();
        names
    };
    assert_eq!(roles(&me(&a, &token).await.1), ["player"]);
    let granted = b
        .client
        .put(b.url(&format!("/v1/accounts/{bob}/roles")))
        .bearer_auth(&admin)
        .json(&json!({"roles": ["player", "referee"]}))
        .send()
        .await
        .expect("PUT roles");
    assert_eq!(granted.status(), StatusCode::OK);
    assert_eq!(roles(&me(&b, &token).await.1), ["player", "referee"]);
    within_two_seconds(&a, &token, |_, body| roles(body) == ["player", "referee"]).await;
}
