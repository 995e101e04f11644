//! Pruning (issue #9): expired sessions and idempotency records past their retention
//! are deleted by the server's background task; history and fresh records stay.

use std::time::{Duration, Instant};

use serde_json::json;
use yaniv_e2e_tests::spawn_app_with;

async fn count(app: &yaniv_e2e_tests::TestApp, sql: &'static str) -> i64 {
    sqlx::query_scalar(sql).fetch_one(&app.db).await.expect(sql)
}

#[tokio::test]
async fn old_sessions_and_idempotency_records_are_pruned() {
    let app = spawn_app_with(
        |s| {
            s.prune_interval = Duration::from_millis(200);
            s.idempotency_retention = Duration::from_secs(3600);
        },
        vec![],
    )
    .await;
    let (_, token) = app.player("ann").await;
    let api = app.api();
    for key in ["old-table", "new-table"] {
        let created = app
            .client
            .post(app.url("/v1/tables"))
            .bearer_auth(&token)
            .header("Idempotency-Key", key)
            .json(&json!({"preset": "israeli", "seats": 2}))
            .send()
            .await
            .expect("POST /v1/tables");
        assert!(created.status().is_success());
    }
    // One record and one other session made old, as if time had passed.
    sqlx::query(
        "UPDATE idempotency_records SET created_at = now() - interval '2 hours' \
         WHERE idempotency_key = 'old-table'",
    )
    .execute(&app.db)
    .await
    .expect("age a record");
    let (_, stale) = app.player("bob").await;
    sqlx::query(
        "UPDATE sessions SET expires_at = now() - interval '1 second' \
         WHERE account_id = (SELECT id FROM accounts WHERE username = 'bob')",
    )
    .execute(&app.db)
    .await
    .expect("expire a session");

    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let old_records = count(
            &app,
            "SELECT count(*) FROM idempotency_records WHERE idempotency_key = 'old-table'",
        )
        .await;
        let expired = count(
            &app,
            "SELECT count(*) FROM sessions WHERE expires_at <= now()",
        )
        .await;
        if old_records == 0 && expired == 0 {
            break;
        }
        assert!(Instant::now() < deadline, "nothing was pruned in 10 s");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let fresh = count(
        &app,
        "SELECT count(*) FROM idempotency_records WHERE idempotency_key = 'new-table'",
    )
    .await;
    assert_eq!(fresh, 1, "a record within its retention stays");
    assert_eq!(api.get("/v1/accounts/me", &token).await.status(), 200);
    assert_eq!(api.get("/v1/accounts/me", &stale).await.status(), 401);
    let tables = count(
        &app,
        "SELECT count(*) FROM events WHERE stream_id LIKE 'table-%'",
    )
    .await;
    assert!(tables >= 2, "history is never pruned");
}
