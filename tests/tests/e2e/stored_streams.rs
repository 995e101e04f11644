//! Streams written by an earlier server still fold, verify and read the same: the
//! fixture was captured from the server before the game table became the rules
//! engine's aggregate (a Belgian table with a bot played to its end, an open table,
//! and a tournament whose online game the server finished), with that server's answers.
//! The events are put into a fresh database exactly as they were stored.

use serde_json::Value;
use yaniv_e2e_tests::spawn_app;

const FIXTURE: &str = include_str!("../../fixtures/streams-before-aggregate.json");

/// Whether `now` says everything `before` said, the same way: the same values at every
/// path, the same lengths of lists. A field added since (a username beside an id) is
/// allowed; a field changed or gone is not. The error names the first path that differs.
fn keeps_every_field(now: &Value, before: &Value, at: &str) -> Result<(), String> {
    match (now, before) {
        (Value::Object(now), Value::Object(before)) => {
            for (key, old) in before {
                let path = format!("{at}/{key}");
                let new = now.get(key).ok_or_else(|| path.clone())?;
                keeps_every_field(new, old, &path)?;
            }
            Ok(())
        }
        (Value::Array(now), Value::Array(before)) if now.len() == before.len() => now
            .iter()
            .zip(before)
            .enumerate()
            .try_for_each(|(i, (new, old))| keeps_every_field(new, old, &format!("{at}/{i}"))),
        (now, before) if now == before => Ok(()),
        _ => Err(at.to_owned()),
    }
}

#[tokio::test]
async fn streams_written_before_the_table_aggregate_fold_verify_and_read_the_same() {
    let fixture: Value = serde_json::from_str(FIXTURE).expect("the fixture is JSON");
    let app = spawn_app().await;
    for event in fixture["events"].as_array().expect("events") {
        let text = |name: &str| event[name].as_str().map(str::to_owned);
        sqlx::query(
            "INSERT INTO events (stream_id, version, event_type, payload, actor, request_id, \
                                 idempotency_key, recorded_at, prev_hash, hash) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8::timestamptz, decode($9, 'hex'), decode($10, 'hex'))",
        )
        .bind(text("stream_id"))
        .bind(event["version"].as_i64())
        .bind(text("event_type"))
        .bind(text("payload"))
        .bind(text("actor"))
        .bind(text("request_id"))
        .bind(text("idempotency_key"))
        .bind(text("recorded_at"))
        .bind(text("prev_hash"))
        .bind(text("hash"))
        .execute(&app.db)
        .await
        .expect("a stored event goes back in as it was");
    }
    let (_, admin) = app.admin().await;
    // The old server showed an admin every hand as `staff`; since #27 an admin sees
    // what the public sees, which at a finished game is every hand, as a `spectator`.
    let get = |path: String| {
        let app = &app;
        let admin = admin.clone();
        async move {
            let response = app.get(&path, Some(&admin)).await;
            assert_eq!(response.status(), 200, "{path}");
            response.json::<Value>().await.expect("JSON")
        }
    };
    let answers = fixture["answers"].as_object().expect("answers");
    assert!(
        answers.len() >= 9,
        "the fixture holds the old server's answers"
    );
    for (path, before) in answers {
        let mut before = before.clone();
        if before["viewer"] == "staff" {
            before["viewer"] = "spectator".into();
        }
        let before = &before;
        let now = get(path.clone()).await;
        if let Err(difference) = keeps_every_field(&now, before, "") {
            panic!("{path} reads differently at {difference}:\nnow {now}\nbefore {before}");
        }
    }
    let verify = |path: String| {
        let app = &app;
        let admin = admin.clone();
        async move {
            let response = app
                .client
                .post(app.url(&path))
                .bearer_auth(&admin)
                .send()
                .await
                .expect("verify");
            assert_eq!(response.status(), 200, "{path}");
            response.json::<Value>().await.expect("JSON")
        }
    };
    for table in fixture["tables"].as_array().expect("tables") {
        let id = table.as_i64().expect("a table id");
        let verdict = verify(format!("/v1/tables/{id}/verify")).await;
        assert_eq!(verdict["ok"], true, "table {id}: {verdict}");
    }
    let tournament = fixture["tournament"].as_i64().expect("a tournament id");
    let verdict = verify(format!("/v1/tournaments/{tournament}/verify")).await;
    assert_eq!(verdict["ok"], true, "{verdict}");
    assert_eq!(
        verdict["games"]["ok"], true,
        "its online game verifies too: {verdict}"
    );
}
