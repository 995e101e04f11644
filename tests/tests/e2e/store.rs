//! The event store against a real PostgreSQL: appends, concurrency, reading the
//! log, the append-only trigger and the hash chain.

use std::time::Duration;

use serde_json::json;
use sqlx::{Connection, Executor};
use yaniv_api::store::{AppendError, EventMetadata, LogCursor, NewEvent, RecordedEvent};
use yaniv_e2e_tests::{TestApp, spawn_app};
use yaniv_verify::chain::{ChainBreak, ChainStatus, GENESIS_HASH};

fn events(n: usize, tag: &str) -> Vec<NewEvent> {
    (1..=n)
        .map(|i| NewEvent::from_json("Tested", &json!({ "tag": tag, "n": i })))
        .collect()
}

fn meta() -> EventMetadata {
    EventMetadata {
        actor: "account:1".into(),
        request_id: Some("req-1".into()),
        idempotency_key: None,
    }
}

#[tokio::test]
async fn appended_events_read_back_in_order_with_their_chain() {
    let app = spawn_app().await;
    let outcome = app
        .store
        .append("table-1", 0, &events(3, "a"), &meta())
        .await
        .unwrap();
    assert_eq!((outcome.first_version, outcome.last_version), (1, 3));
    assert_eq!(outcome.global_positions.len(), 3);

    let read = app.store.read_stream("table-1", 1, 100).await.unwrap();
    assert_eq!(
        read.iter().map(|e| e.version).collect::<Vec<_>>(),
        [1, 2, 3]
    );
    assert_eq!(read[0].payload, r#"{"n":1,"tag":"a"}"#);
    assert_eq!(read[0].decode::<serde_json::Value>().unwrap()["n"], 1);
    assert_eq!(read[0].actor, "account:1");
    assert_eq!(read[0].request_id.as_deref(), Some("req-1"));
    assert_eq!(read[0].prev_hash, GENESIS_HASH);
    assert_eq!(read[1].prev_hash, read[0].hash);
    assert_eq!(read[2].prev_hash, read[1].hash);
    assert_eq!(outcome.head_hash, read[2].hash);
    // One append is one transaction.
    assert!(
        read.iter()
            .all(|e| e.transaction_id == read[0].transaction_id)
    );

    let tail = app.store.read_stream("table-1", 3, 100).await.unwrap();
    assert_eq!(tail.len(), 1);

    let more = app
        .store
        .append("table-1", 3, &events(2, "b"), &meta())
        .await
        .unwrap();
    assert_eq!((more.first_version, more.last_version), (4, 5));
    assert_eq!(
        app.store.verify_stream("table-1").await.unwrap(),
        ChainStatus::Intact {
            events: 5,
            head: Some(more.head_hash)
        }
    );
    assert_eq!(
        app.store.verify_stream("no-such-stream").await.unwrap(),
        ChainStatus::Intact {
            events: 0,
            head: None
        }
    );
}

#[tokio::test]
async fn a_stale_expected_version_is_a_conflict() {
    let app = spawn_app().await;
    app.store
        .append("s", 0, &events(2, "a"), &meta())
        .await
        .unwrap();
    let err = app
        .store
        .append("s", 1, &events(1, "b"), &meta())
        .await
        .unwrap_err();
    assert!(
        matches!(&err, AppendError::Conflict { stream, expected: 1, actual: 2 } if stream == "s"),
        "{err:?}"
    );
    let err = app
        .store
        .append("s", 5, &events(1, "b"), &meta())
        .await
        .unwrap_err();
    assert!(
        matches!(
            err,
            AppendError::Conflict {
                expected: 5,
                actual: 2,
                ..
            }
        ),
        "{err:?}"
    );
    assert_eq!(app.store.stream_version("s").await.unwrap(), 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn of_concurrent_writers_exactly_one_wins() {
    let app = spawn_app().await;
    for round in 0..5 {
        let stream = format!("race-{round}");
        let writers: Vec<_> = (0..6)
            .map(|w| {
                let store = app.store.clone();
                let stream = stream.clone();
                tokio::spawn(async move {
                    store
                        .append(&stream, 0, &events(2, &format!("w{w}")), &meta())
                        .await
                })
            })
            .collect();
        let mut wins = 0;
        for writer in writers {
            match writer.await.unwrap() {
                Ok(outcome) => {
                    wins += 1;
                    assert_eq!(outcome.last_version, 2);
                }
                Err(AppendError::Conflict {
                    expected: 0,
                    actual: 2,
                    ..
                }) => {}
                Err(other) => panic!("unexpected error: {other:?}"),
            }
        }
        assert_eq!(wins, 1, "round {round}");
        let stored = app.store.read_stream(&stream, 1, 100).await.unwrap();
        assert_eq!(stored.len(), 2);
        assert_eq!(
            stored[0].payload,
            stored[1].payload.replace("\"n\":2", "\"n\":1")
        );
    }
}

/// The loser of a race that already read the head is stopped by the unique key
/// (SQLSTATE 23505), which the store reports as the same typed conflict.
#[tokio::test]
async fn the_unique_key_settles_a_race_after_the_head_was_read() {
    let app = spawn_app().await;
    let mut first = app.db.begin().await.unwrap();
    app.store
        .append_in(&mut first, "s", 0, &events(1, "first"), &meta())
        .await
        .unwrap();

    // The second writer sees an empty stream (the first has not committed) and
    // blocks on the unique index until the first commits.
    let store = app.store.clone();
    let second =
        tokio::spawn(async move { store.append("s", 0, &events(1, "second"), &meta()).await });
    wait_for_lock_waiter(&app).await;
    first.commit().await.unwrap();

    let err = second.await.unwrap().unwrap_err();
    assert!(
        matches!(
            err,
            AppendError::Conflict {
                expected: 0,
                actual: 1,
                ..
            }
        ),
        "{err:?}"
    );
    let stored = app.store.read_stream("s", 1, 10).await.unwrap();
    assert_eq!(stored.len(), 1);
    assert!(stored[0].payload.contains("first"));
}

async fn wait_for_lock_waiter(app: &TestApp) {
    for _ in 0..200 {
        let waiting: i64 = sqlx::query_scalar(
            "SELECT count(*) FROM pg_stat_activity \
             WHERE datname = current_database() AND wait_event_type = 'Lock'",
        )
        .fetch_one(&app.db)
        .await
        .unwrap();
        if waiting > 0 {
            return;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("the second writer never waited on the first");
}

#[tokio::test]
async fn the_database_rejects_updates_deletes_and_truncates() {
    let app = spawn_app().await;
    app.store
        .append("s", 0, &events(2, "a"), &meta())
        .await
        .unwrap();

    for statement in [
        "UPDATE events SET payload = '{}' WHERE version = 1",
        "UPDATE events SET actor = 'nobody' WHERE false",
        "DELETE FROM events WHERE version = 2",
        "TRUNCATE events",
    ] {
        let err = sqlx::query(statement).execute(&app.db).await.unwrap_err();
        let message = err
            .as_database_error()
            .map(|e| e.message().to_owned())
            .unwrap_or_default();
        assert!(message.contains("append-only"), "{statement}: {err}");
    }
    assert_eq!(app.store.read_stream("s", 1, 10).await.unwrap().len(), 2);
    assert!(matches!(
        app.store.verify_stream("s").await.unwrap(),
        ChainStatus::Intact { events: 2, .. }
    ));
}

/// Someone able to bypass the trigger (the table owner or a superuser) rewrites
/// an event; the chain names exactly that event.
#[tokio::test]
async fn tampering_is_caught_at_the_changed_version() {
    let app = spawn_app().await;
    app.store
        .append("game-7", 0, &events(3, "a"), &meta())
        .await
        .unwrap();
    app.store
        .append("game-7", 3, &events(2, "b"), &meta())
        .await
        .unwrap();
    app.store
        .append("other", 0, &events(2, "c"), &meta())
        .await
        .unwrap();

    // The same JSON value with different bytes (a space): jsonb would not see it,
    // the hash over the stored text does.
    let mut conn = app.db.acquire().await.unwrap();
    let mut tx = conn.begin().await.unwrap();
    tx.execute("ALTER TABLE events DISABLE TRIGGER events_append_only")
        .await
        .unwrap();
    let changed = sqlx::query(
        "UPDATE events SET payload = '{\"n\": 3,\"tag\":\"a\"}' \
         WHERE stream_id = 'game-7' AND version = 3",
    )
    .execute(&mut *tx)
    .await
    .unwrap();
    assert_eq!(changed.rows_affected(), 1);
    tx.execute("ALTER TABLE events ENABLE TRIGGER events_append_only")
        .await
        .unwrap();
    tx.commit().await.unwrap();

    assert_eq!(
        app.store.verify_stream("game-7").await.unwrap(),
        ChainStatus::Broken {
            version: 3,
            reason: ChainBreak::HashMismatch
        }
    );
    assert!(matches!(
        app.store.verify_stream("other").await.unwrap(),
        ChainStatus::Intact { events: 2, .. }
    ));

    // A superuser deleting a row, with every trigger off for the session.
    let is_superuser: bool =
        sqlx::query_scalar("SELECT rolsuper FROM pg_roles WHERE rolname = current_user")
            .fetch_one(&app.db)
            .await
            .unwrap();
    if is_superuser {
        let mut conn = app.db.acquire().await.unwrap();
        conn.execute("SET session_replication_role = replica")
            .await
            .unwrap();
        conn.execute("DELETE FROM events WHERE stream_id = 'other' AND version = 1")
            .await
            .unwrap();
        conn.execute("SET session_replication_role = origin")
            .await
            .unwrap();
        assert_eq!(
            app.store.verify_stream("other").await.unwrap(),
            ChainStatus::Broken {
                version: 1,
                reason: ChainBreak::VersionGap
            }
        );
    }
}

async fn read_until(
    app: &TestApp,
    after: LogCursor,
    count: usize,
) -> (Vec<RecordedEvent>, LogCursor) {
    let mut events = Vec::new();
    let mut cursor = after;
    for _ in 0..500 {
        let page = app.store.read_all(cursor, 2).await.unwrap();
        cursor = page.next;
        events.extend(page.events);
        if events.len() >= count {
            return (events, cursor);
        }
        // Another test's open transaction elsewhere in the cluster holds the
        // fence back for a moment: poll, as a real follower would.
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("only {} of {count} events became readable", events.len());
}

#[tokio::test]
async fn the_log_reader_never_skips_a_late_commit() {
    let app = spawn_app().await;

    // Transaction A writes first (lower position and transaction id) but commits
    // last; B commits in between.
    let mut a = app.db.begin().await.unwrap();
    app.store
        .append_in(&mut a, "A", 0, &events(1, "a"), &meta())
        .await
        .unwrap();
    app.store
        .append("B", 0, &events(1, "b"), &meta())
        .await
        .unwrap();

    // A follower reading now must not get B: resuming after it would skip A.
    let page = app.store.read_all(LogCursor::START, 100).await.unwrap();
    assert!(
        page.events.iter().all(|e| e.stream_id != "B"),
        "{:?}",
        page.events
    );
    assert!(page.events.is_empty());
    assert_eq!(page.next, LogCursor::START);

    a.commit().await.unwrap();
    let (read, cursor) = read_until(&app, LogCursor::START, 2).await;
    assert_eq!(
        read.iter()
            .map(|e| e.stream_id.as_str())
            .collect::<Vec<_>>(),
        ["A", "B"]
    );

    // Resuming from the cursor yields only what came after.
    app.store
        .append("C", 0, &events(2, "c"), &meta())
        .await
        .unwrap();
    let (read, _) = read_until(&app, cursor, 2).await;
    assert_eq!(
        read.iter()
            .map(|e| (e.stream_id.as_str(), e.version))
            .collect::<Vec<_>>(),
        [("C", 1), ("C", 2)]
    );
}
