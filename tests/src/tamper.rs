//! History changed behind the server's back, for the audit tests, straight in the
//! database with the append-only trigger off for the change: one stored event's
//! payload rewritten, with or without the forger recomputing the hash chain from that
//! event on (so that only the checks of what the events mean can notice); a stream's
//! tail deleted; one event deleted; a listing row set to what the forger wants; a
//! stream's head row deleted from a checkpoint.

use serde_json::Value;
use sqlx::{Connection, Executor};
use yaniv_verify::chain::{GENESIS_HASH, HashInput};

use crate::TestApp;

/// What the forger does with the hash chain after changing an event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Hashes {
    /// Leaves the stored hashes as they are: the chain breaks at the changed event.
    Kept,
    /// Recomputes the hash of the changed event and of every later one, so the chain
    /// still holds (only its head moves).
    Recomputed,
}

/// Rewrites the payload of event `version` of `stream` with `edit` (given the stored
/// payload, as JSON) behind the server's back; with [`Hashes::Recomputed`] the
/// forger also re-chains the hashes from that event to the stream's end.
pub async fn tamper(
    app: &TestApp,
    stream: &str,
    version: u64,
    hashes: Hashes,
    edit: impl FnOnce(&mut Value),
) {
    let mut events = app
        .store
        .read_stream(stream, 1, 1000)
        .await
        .expect("read the stream");
    let index = usize::try_from(version).expect("a version") - 1;
    let mut payload: Value = serde_json::from_str(&events[index].payload).expect("JSON payload");
    edit(&mut payload);
    events[index].payload = payload.to_string();

    let mut statements = Vec::new();
    match hashes {
        Hashes::Kept => statements.push(
            sqlx::query("UPDATE events SET payload = $1 WHERE stream_id = $2 AND version = $3")
                .bind(events[index].payload.clone())
                .bind(stream.to_owned())
                .bind(events[index].version),
        ),
        Hashes::Recomputed => {
            let mut prev = match index {
                0 => GENESIS_HASH,
                _ => events[index - 1].hash,
            };
            for event in &mut events[index..] {
                let micros = i64::try_from(event.recorded_at.unix_timestamp_nanos() / 1000)
                    .expect("a time in range");
                event.prev_hash = prev;
                event.hash = HashInput {
                    stream_id: &event.stream_id,
                    version: event.version as u64,
                    event_type: &event.event_type,
                    payload: &event.payload,
                    actor: &event.actor,
                    request_id: event.request_id.as_deref(),
                    idempotency_key: event.idempotency_key.as_deref(),
                    recorded_at_micros: micros,
                    prev_hash: &prev,
                }
                .digest();
                prev = event.hash;
                statements.push(
                    sqlx::query(
                        "UPDATE events SET payload = $1, prev_hash = $2, hash = $3 \
                         WHERE stream_id = $4 AND version = $5",
                    )
                    .bind(event.payload.clone())
                    .bind(event.prev_hash.to_vec())
                    .bind(event.hash.to_vec())
                    .bind(stream.to_owned())
                    .bind(event.version),
                );
            }
        }
    }

    let mut conn = owner_connection(app).await;
    let mut tx = conn.begin().await.expect("begin");
    tx.execute(DISABLE_APPEND_ONLY)
        .await
        .expect("disable the append-only trigger");
    for statement in statements {
        let done = statement.execute(&mut *tx).await.expect("UPDATE events");
        assert_eq!(done.rows_affected(), 1, "one event per statement");
    }
    tx.execute(ENABLE_APPEND_ONLY)
        .await
        .expect("enable the append-only trigger");
    tx.commit().await.expect("commit");
}

const DISABLE_APPEND_ONLY: &str = "ALTER TABLE events DISABLE TRIGGER events_append_only";
const ENABLE_APPEND_ONLY: &str = "ALTER TABLE events ENABLE TRIGGER events_append_only";

/// As the test database's owner: the one role that may switch the trigger off.
async fn owner_connection(app: &TestApp) -> sqlx::PgConnection {
    sqlx::PgConnection::connect(&app.database.url)
        .await
        .expect("connect to the test database")
}

/// Deletes the events of `stream` that `condition` (on `version`, bound as `$2`)
/// selects, with the append-only trigger off; returns how many went.
async fn delete_events(app: &TestApp, stream: &str, condition: &str, version: u64) -> u64 {
    let mut conn = owner_connection(app).await;
    let mut tx = conn.begin().await.expect("begin");
    tx.execute(DISABLE_APPEND_ONLY)
        .await
        .expect("disable the append-only trigger");
    let sql = format!("DELETE FROM events WHERE stream_id = $1 AND {condition}");
    let done = sqlx::query(sqlx::AssertSqlSafe(sql))
        .bind(stream.to_owned())
        .bind(i64::try_from(version).expect("a version"))
        .execute(&mut *tx)
        .await
        .expect("DELETE FROM events");
    tx.execute(ENABLE_APPEND_ONLY)
        .await
        .expect("enable the append-only trigger");
    tx.commit().await.expect("commit");
    done.rows_affected()
}

/// Deletes `stream`'s events from version `from` on: a truncated tail, whose chain
/// still holds up to the new last event.
pub async fn delete_tail(app: &TestApp, stream: &str, from: u64) -> u64 {
    let deleted = delete_events(app, stream, "version >= $2", from).await;
    assert!(deleted > 0, "{stream} has events from version {from}");
    deleted
}

/// Deletes event `version` of `stream` alone, leaving a gap.
pub async fn delete_event(app: &TestApp, stream: &str, version: u64) {
    let deleted = delete_events(app, stream, "version = $2", version).await;
    assert_eq!(deleted, 1, "{stream} has an event {version}");
}

/// Sets the listing row of game table `id` to `version` and `status`, as a forger
/// who truncated its stream would to hide it from the listing check.
pub async fn set_table_listing(app: &TestApp, id: i64, version: u64, status: &str) {
    let done = sqlx::query("UPDATE game_tables SET version = $2, status = $3 WHERE id = $1")
        .bind(id)
        .bind(i64::try_from(version).expect("a version"))
        .bind(status.to_owned())
        .execute(&app.db)
        .await
        .expect("UPDATE game_tables");
    assert_eq!(done.rows_affected(), 1, "table {id} has a listing row");
}

/// Deletes `stream`'s head from checkpoint `checkpoint_id` (its row of
/// `checkpoint_heads`), with that table's append-only trigger off: the checkpoint no
/// longer says it recorded the stream, though its root still does.
pub async fn delete_checkpoint_head(app: &TestApp, checkpoint_id: i64, stream: &str) {
    let mut conn = owner_connection(app).await;
    let mut tx = conn.begin().await.expect("begin");
    tx.execute("ALTER TABLE checkpoint_heads DISABLE TRIGGER checkpoint_heads_append_only")
        .await
        .expect("disable the append-only trigger");
    let done =
        sqlx::query("DELETE FROM checkpoint_heads WHERE checkpoint_id = $1 AND stream_id = $2")
            .bind(checkpoint_id)
            .bind(stream.to_owned())
            .execute(&mut *tx)
            .await
            .expect("DELETE FROM checkpoint_heads");
    assert_eq!(
        done.rows_affected(),
        1,
        "checkpoint {checkpoint_id} lists {stream}"
    );
    tx.execute("ALTER TABLE checkpoint_heads ENABLE TRIGGER checkpoint_heads_append_only")
        .await
        .expect("enable the append-only trigger");
    tx.commit().await.expect("commit");
}
