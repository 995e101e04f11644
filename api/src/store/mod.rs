//! The event store: an append-only log of events in PostgreSQL.
//!
//! The store knows nothing of Yaniv. An event is a stream id (one game table, one
//! tournament, ...), a per-stream version, an event type string and a JSON payload,
//! plus metadata (actor, request id, idempotency key, time). The rules engine decides
//! which events to append; this module makes them durable, ordered and
//! tamper-evident. Schema and invariants: `migrations/0001_event_store.sql`.
//!
//! - **Append** ([`EventStore::append`], [`EventStore::append_in`]): several events
//!   in one transaction, after an optimistic concurrency check. The caller says which
//!   version it decided on (`expected`); if the stream moved on, the append fails
//!   with [`AppendError::Conflict`]. A race between two writers that both saw the
//!   same version is settled by the `UNIQUE (stream_id, version)` key: the loser's
//!   SQLSTATE 23505 becomes the same conflict. Nothing is ever silently dropped.
//! - **Read a stream** from a version ([`EventStore::read_stream`]).
//! - **Follow the whole log** ([`EventStore::read_all`]) with the xid8 read fence:
//!   only rows written by transactions older than every transaction still running
//!   are returned, in (transaction id, position) order, so a reader that resumes
//!   from its [`LogCursor`] never skips an event whose transaction committed late.
//!   The price: a long-running write transaction anywhere in the cluster delays
//!   readers (never loses events).
//! - **Verify** a stream's hash chain from the stored bytes
//!   ([`EventStore::verify_stream`]).
//! - **Idempotency** records, written in the same transaction as the events
//!   ([`idempotency`]).
//!
//! Rows are never updated or deleted; a trigger rejects UPDATE, DELETE and TRUNCATE.

pub mod idempotency;

use std::sync::Arc;
use std::time::Duration;

use serde::Serialize;
use serde::de::DeserializeOwned;
use sqlx::{PgConnection, PgPool};
use time::OffsetDateTime;

use crate::live::heads::HeadNotifier;
use yaniv_verify::chain::{ChainStatus, ChainVerifier, GENESIS_HASH, Hash, HashInput};

/// Longest stream id and event type (as enforced by the schema).
pub const MAX_NAME_LEN: usize = 200;
/// Most events accepted in one append.
pub const MAX_EVENTS_PER_APPEND: usize = 1000;
/// Name of the unique key that settles concurrent appends.
const STREAM_VERSION_KEY: &str = "events_stream_version_key";

/// Handle on the event store; cheap to clone (it holds the connection pool).
#[derive(Debug, Clone)]
pub struct EventStore {
    pool: PgPool,
    write_deadline: Duration,
    /// Where writers that announce their own heads hand them (the server's live
    /// streams); without it every append is announced by the trigger at commit.
    heads: Option<Arc<HeadNotifier>>,
}

/// An event to append: its type and its payload, already serialised to the exact
/// JSON text that will be stored and hashed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewEvent {
    event_type: String,
    payload: String,
}

impl NewEvent {
    /// Serialises `payload` to compact JSON.
    pub fn new<T: Serialize + ?Sized>(
        event_type: impl Into<String>,
        payload: &T,
    ) -> Result<Self, serde_json::Error> {
        Ok(Self {
            event_type: event_type.into(),
            payload: serde_json::to_string(payload)?,
        })
    }

    /// From a JSON value (cannot fail).
    pub fn from_json(event_type: impl Into<String>, payload: &serde_json::Value) -> Self {
        Self {
            event_type: event_type.into(),
            payload: payload.to_string(),
        }
    }

    pub fn event_type(&self) -> &str {
        &self.event_type
    }

    pub fn payload(&self) -> &str {
        &self.payload
    }
}

/// Who appended, and on behalf of which request. Shared by all events of an append.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EventMetadata {
    /// Who caused the events: `account:<id>`, or `system` for the server itself.
    pub actor: String,
    /// The HTTP request's id ([`crate::http::request_id::RequestId`]).
    pub request_id: Option<String>,
    /// The `Idempotency-Key` the request carried, if any.
    pub idempotency_key: Option<String>,
}

impl EventMetadata {
    pub fn new(actor: impl Into<String>) -> Self {
        Self {
            actor: actor.into(),
            request_id: None,
            idempotency_key: None,
        }
    }
}

/// An event as stored.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct RecordedEvent {
    /// Position in the global log (insert order; see [`EventStore::read_all`]).
    pub global_position: i64,
    pub stream_id: String,
    /// 1 for the stream's first event, then 2, 3, ...
    pub version: i64,
    pub event_type: String,
    /// The exact JSON text stored and hashed.
    pub payload: String,
    pub actor: String,
    pub request_id: Option<String>,
    pub idempotency_key: Option<String>,
    pub recorded_at: OffsetDateTime,
    pub prev_hash: Hash,
    pub hash: Hash,
    /// Id of the transaction that wrote it (the `xid8` column, as text).
    #[sqlx(try_from = "String")]
    pub transaction_id: TransactionId,
}

impl RecordedEvent {
    /// Deserialises the payload.
    pub fn decode<T: DeserializeOwned>(&self) -> Result<T, serde_json::Error> {
        serde_json::from_str(&self.payload)
    }

    /// Whether the stored hash is the hash of the stored fields (and `prev_hash`).
    pub fn hash_holds(&self) -> bool {
        self.hash_input().digest() == self.hash
    }

    /// The fields the event's hash covers.
    pub fn hash_input(&self) -> HashInput<'_> {
        HashInput {
            stream_id: &self.stream_id,
            version: u64::try_from(self.version).unwrap_or(0),
            event_type: &self.event_type,
            payload: &self.payload,
            actor: &self.actor,
            request_id: self.request_id.as_deref(),
            idempotency_key: self.idempotency_key.as_deref(),
            recorded_at_micros: unix_micros(self.recorded_at),
            prev_hash: &self.prev_hash,
        }
    }
}

impl yaniv_verify::row::Row for RecordedEvent {
    fn version(&self) -> u64 {
        u64::try_from(self.version).unwrap_or(0)
    }

    fn event_type(&self) -> &str {
        &self.event_type
    }

    fn payload(&self) -> &str {
        &self.payload
    }

    fn hash(&self) -> &Hash {
        &self.hash
    }

    fn hash_input(&self) -> HashInput<'_> {
        RecordedEvent::hash_input(self)
    }
}

/// A PostgreSQL `xid8` (64-bit, epoch-extended transaction id).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct TransactionId(pub u64);

impl TryFrom<String> for TransactionId {
    type Error = std::num::ParseIntError;
    fn try_from(s: String) -> Result<Self, Self::Error> {
        s.parse().map(Self)
    }
}

/// Where a follower of the global log is: after the event `(transaction_id,
/// global_position)`. Persist it with whatever it fed (a projection) and resume
/// from it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default)]
pub struct LogCursor {
    pub transaction_id: TransactionId,
    pub global_position: i64,
}

impl LogCursor {
    /// Before the first event.
    pub const START: Self = Self {
        transaction_id: TransactionId(0),
        global_position: 0,
    };
}

/// A page of the global log.
#[derive(Debug, Clone)]
pub struct LogPage {
    pub events: Vec<RecordedEvent>,
    /// Resume from here (equals the input cursor when the page is empty).
    pub next: LogCursor,
}

/// What an append wrote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AppendOutcome {
    pub stream_id: String,
    /// Version of the first event appended.
    pub first_version: u64,
    /// Version of the last event appended: the stream's new version.
    pub last_version: u64,
    /// Global positions of the events, in version order.
    pub global_positions: Vec<i64>,
    /// Hash of the last event: the stream's new head.
    pub head_hash: Hash,
}

/// Why an append did not happen.
#[derive(Debug, thiserror::Error)]
pub enum AppendError {
    /// Another writer got there first: the stream is at `actual`, not `expected`.
    /// Reload the state, decide again, retry (or give the client a 409).
    #[error("stream `{stream}` is at version {actual}, expected {expected}")]
    Conflict {
        stream: String,
        expected: u64,
        actual: u64,
    },
    /// The append itself is malformed (no events, names too long, ...): a bug of
    /// the caller, not of the client.
    #[error("invalid append: {0}")]
    Invalid(&'static str),
    #[error("database error while appending")]
    Database(#[from] sqlx::Error),
}

/// Why a read or a verification failed.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("database error while reading events")]
    Database(#[from] sqlx::Error),
}

impl From<AppendError> for crate::error::ApiError {
    fn from(err: AppendError) -> Self {
        match err {
            AppendError::Conflict {
                stream,
                expected,
                actual,
            } => Self::VersionConflict {
                stream,
                expected,
                actual,
            },
            AppendError::Invalid(reason) => Self::unexpected("invalid append", reason),
            AppendError::Database(e) => e.into(),
        }
    }
}

impl From<StoreError> for crate::error::ApiError {
    fn from(err: StoreError) -> Self {
        match err {
            StoreError::Database(e) => e.into(),
        }
    }
}

/// The columns of a [`RecordedEvent`]; a macro so queries stay `&'static str`.
macro_rules! select_event {
    () => {
        "SELECT global_position, stream_id, version, event_type, payload, actor, request_id, \
         idempotency_key, recorded_at, prev_hash, hash, transaction_id::text AS transaction_id \
         FROM events "
    };
}

impl EventStore {
    pub fn new(pool: PgPool) -> Self {
        Self {
            pool,
            write_deadline: crate::config::DEFAULT_DB_TRANSACTION_TIMEOUT,
            heads: None,
        }
    }

    /// The same store, its writers announcing their streams' heads through `heads`
    /// once its task runs (see [`crate::live::heads`]).
    pub fn with_head_notifier(self, heads: Arc<HeadNotifier>) -> Self {
        Self {
            heads: Some(heads),
            ..self
        }
    }

    /// Whether a writer may leave the announcement of its stream to itself: then it
    /// calls [`EventStore::leave_announcement_to_caller`] before appending and
    /// [`EventStore::announce`] after committing.
    pub fn caller_announces(&self) -> bool {
        self.heads.as_deref().is_some_and(HeadNotifier::is_running)
    }

    /// Asks the trigger not to notify `stream` at this transaction's commit: the
    /// caller announces it after. Nothing when nobody would announce it.
    pub async fn leave_announcement_to_caller(
        &self,
        conn: &mut PgConnection,
        stream: &str,
    ) -> Result<(), sqlx::Error> {
        if self.caller_announces() {
            sqlx::query("SELECT set_config('yaniv.caller_notifies', $1, true)")
                .bind(stream)
                .execute(&mut *conn)
                .await?;
        }
        Ok(())
    }

    /// `stream` is at `version` after a commit whose announcement was left to the
    /// caller.
    pub fn announce(&self, stream: &str, version: u64) {
        if let Some(heads) = self.heads.as_deref().filter(|h| h.is_running()) {
            heads.announce(stream, version);
        }
    }

    /// The same store, with writers giving up on their transaction after `deadline`.
    pub fn with_write_deadline(self, deadline: Duration) -> Self {
        Self {
            write_deadline: deadline,
            ..self
        }
    }

    /// Longest a write may hold its transaction, as the server's clock measures it
    /// (`YANIV_DB_TRANSACTION_TIMEOUT_MS`).
    pub fn write_deadline(&self) -> Duration {
        self.write_deadline
    }

    pub fn pool(&self) -> &PgPool {
        &self.pool
    }

    /// Appends `events` to `stream` in a transaction of its own. `expected` is the
    /// version the caller's decision was based on (0 for a new stream).
    pub async fn append(
        &self,
        stream: &str,
        expected: u64,
        events: &[NewEvent],
        metadata: &EventMetadata,
    ) -> Result<AppendOutcome, AppendError> {
        let mut tx = self.pool.begin().await?;
        let outcome = self
            .append_in(&mut tx, stream, expected, events, metadata)
            .await?;
        tx.commit().await?;
        Ok(outcome)
    }

    /// Appends inside the caller's transaction (e.g. together with an idempotency
    /// record). Nothing is visible to others until the caller commits. On
    /// [`AppendError::Conflict`] raised by the unique key the transaction is
    /// aborted: roll it back. (Reporting `actual` then takes a second pooled
    /// connection for a moment, so the pool needs at least two.)
    #[tracing::instrument(
        name = "store.append",
        skip(self, conn, events, metadata),
        fields(events = events.len())
    )]
    pub async fn append_in(
        &self,
        conn: &mut PgConnection,
        stream: &str,
        expected: u64,
        events: &[NewEvent],
        metadata: &EventMetadata,
    ) -> Result<AppendOutcome, AppendError> {
        self.append_after(conn, stream, expected, None, events, metadata)
            .await
    }

    /// [`EventStore::append_in`] after a head the caller has just read in this
    /// transaction: `head_hash` is the hash of version `expected` (the genesis hash for
    /// an empty stream), which saves reading it again. The unique key still stops a
    /// writer that committed the next version meanwhile ([`AppendError::Conflict`]).
    pub async fn append_after(
        &self,
        conn: &mut PgConnection,
        stream: &str,
        expected: u64,
        head_hash: Option<Hash>,
        events: &[NewEvent],
        metadata: &EventMetadata,
    ) -> Result<AppendOutcome, AppendError> {
        validate_append(stream, events)?;

        let (actual, prev_hash) = match head_hash {
            Some(hash) => (expected, hash),
            None => {
                let head: Option<(i64, Hash)> = sqlx::query_as(
                    "SELECT version, hash FROM events WHERE stream_id = $1 \
                     ORDER BY version DESC LIMIT 1",
                )
                .bind(stream)
                .fetch_optional(&mut *conn)
                .await?;
                match head {
                    Some((version, hash)) => (to_u64(version), hash),
                    None => (0, GENESIS_HASH),
                }
            }
        };
        if actual != expected {
            return Err(AppendError::Conflict {
                stream: stream.to_owned(),
                expected,
                actual,
            });
        }

        let chained = ChainedEvents::new(stream, expected, prev_hash, events, metadata)?;
        let ChainedEvents {
            recorded_at,
            versions,
            types,
            payloads,
            prev_hashes,
            hashes,
            head_hash,
        } = &chained;
        let inserted: Result<Vec<(i64, i64)>, sqlx::Error> = sqlx::query_as(
            "INSERT INTO events (stream_id, version, event_type, payload, actor, request_id, \
                                 idempotency_key, recorded_at, prev_hash, hash) \
             SELECT $1, e.version, e.event_type, e.payload, $2, $3, $4, $5, e.prev_hash, e.hash \
             FROM UNNEST($6::bigint[], $7::text[], $8::text[], $9::bytea[], $10::bytea[]) \
                  AS e(version, event_type, payload, prev_hash, hash) \
             RETURNING version, global_position",
        )
        .bind(stream)
        .bind(&metadata.actor)
        .bind(&metadata.request_id)
        .bind(&metadata.idempotency_key)
        .bind(recorded_at)
        .bind(versions)
        .bind(types)
        .bind(payloads)
        .bind(prev_hashes)
        .bind(hashes)
        .fetch_all(&mut *conn)
        .await;

        let mut rows = match inserted {
            Ok(rows) => rows,
            Err(sqlx::Error::Database(db))
                if db.is_unique_violation() && db.constraint() == Some(STREAM_VERSION_KEY) =>
            {
                // Another writer committed the same version after our head read.
                // Our transaction is aborted; read the winner's version outside it.
                let actual = self.stream_version(stream).await?;
                tracing::info!(stream, expected, actual, "append lost a race");
                return Err(AppendError::Conflict {
                    stream: stream.to_owned(),
                    expected,
                    actual,
                });
            }
            Err(other) => return Err(other.into()),
        };
        rows.sort_unstable_by_key(|(version, _)| *version);

        Ok(AppendOutcome {
            stream_id: stream.to_owned(),
            first_version: expected + 1,
            last_version: expected + events.len() as u64,
            global_positions: rows.into_iter().map(|(_, position)| position).collect(),
            head_hash: *head_hash,
        })
    }

    /// The stream's current version (0 when it has no events).
    pub async fn stream_version(&self, stream: &str) -> Result<u64, sqlx::Error> {
        let version: Option<i64> =
            sqlx::query_scalar("SELECT max(version) FROM events WHERE stream_id = $1")
                .bind(stream)
                .fetch_one(&self.pool)
                .await?;
        Ok(version.map_or(0, to_u64))
    }

    /// Up to `limit` events of `stream` with version >= `from_version`, in order.
    pub async fn read_stream(
        &self,
        stream: &str,
        from_version: u64,
        limit: u32,
    ) -> Result<Vec<RecordedEvent>, StoreError> {
        Self::read_stream_in(&self.pool, stream, from_version, limit).await
    }

    /// [`EventStore::read_stream`] on a given connection or transaction (a handler
    /// that holds a transaction reads the state it decides on through it, instead of
    /// taking a second pooled connection).
    pub async fn read_stream_in<'e>(
        executor: impl sqlx::PgExecutor<'e>,
        stream: &str,
        from_version: u64,
        limit: u32,
    ) -> Result<Vec<RecordedEvent>, StoreError> {
        let from = i64::try_from(from_version).unwrap_or(i64::MAX);
        let events = sqlx::query_as::<_, RecordedEvent>(concat!(
            select_event!(),
            "WHERE stream_id = $1 AND version >= $2 ORDER BY version LIMIT $3"
        ))
        .bind(stream)
        .bind(from)
        .bind(i64::from(limit))
        .fetch_all(executor)
        .await?;
        Ok(events)
    }

    /// Up to `limit` events of the global log after `after`, behind the xid8 read
    /// fence (see the module documentation). An empty page means "nothing more that
    /// is safe to read yet": poll again later with the same cursor.
    pub async fn read_all(&self, after: LogCursor, limit: u32) -> Result<LogPage, StoreError> {
        let events = sqlx::query_as::<_, RecordedEvent>(concat!(
            select_event!(),
            "WHERE (transaction_id, global_position) > ($1::text::xid8, $2) \
               AND transaction_id < pg_snapshot_xmin(pg_current_snapshot()) \
             ORDER BY transaction_id, global_position \
             LIMIT $3"
        ))
        .bind(after.transaction_id.0.to_string())
        .bind(after.global_position)
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await?;
        let next = events.last().map_or(after, |e| LogCursor {
            transaction_id: e.transaction_id,
            global_position: e.global_position,
        });
        Ok(LogPage { events, next })
    }

    /// Recomputes `stream`'s hash chain from the stored bytes and reports the first
    /// version that does not check out.
    #[tracing::instrument(name = "store.verify_stream", skip(self))]
    pub async fn verify_stream(&self, stream: &str) -> Result<ChainStatus, StoreError> {
        const PAGE: u32 = 1000;
        let mut verifier = ChainVerifier::new();
        let mut from = 1u64;
        loop {
            let page = self.read_stream(stream, from, PAGE).await?;
            for event in &page {
                if let Err((version, reason)) = verifier.check(&event.hash_input(), &event.hash) {
                    tracing::warn!(stream, version, ?reason, "hash chain broken");
                    return Ok(ChainStatus::Broken { version, reason });
                }
            }
            match page.last() {
                Some(last) if page.len() == PAGE as usize => from = to_u64(last.version) + 1,
                _ => return Ok(verifier.finish()),
            }
        }
    }
}

/// Whether `err` is the unique key refusing a second writer of a stream's version.
pub fn is_version_conflict(err: &sqlx::Error) -> bool {
    matches!(err, sqlx::Error::Database(db)
        if db.is_unique_violation() && db.constraint() == Some(STREAM_VERSION_KEY))
}

/// Events to append after version `expected` of a stream, hashed into its chain: the
/// columns of the insert, one array per column, as `UNNEST` takes them.
#[derive(Debug)]
pub struct ChainedEvents<'a> {
    /// One time for the whole append, to the microsecond the column keeps (the hash
    /// covers it).
    pub recorded_at: OffsetDateTime,
    pub versions: Vec<i64>,
    pub types: Vec<&'a str>,
    pub payloads: Vec<&'a str>,
    pub prev_hashes: Vec<Vec<u8>>,
    pub hashes: Vec<Vec<u8>>,
    /// The hash of the last event: the stream's head once they are stored.
    pub head_hash: Hash,
}

impl<'a> ChainedEvents<'a> {
    /// Validates the append (as the store would) and hashes `events` after
    /// `prev_hash`, the hash of version `expected`.
    pub fn new(
        stream: &str,
        expected: u64,
        mut prev_hash: Hash,
        events: &'a [NewEvent],
        metadata: &EventMetadata,
    ) -> Result<Self, AppendError> {
        validate_append(stream, events)?;
        let recorded_at = now_micros();
        let recorded_at_micros = unix_micros(recorded_at);
        let mut chained = Self {
            recorded_at,
            versions: Vec::with_capacity(events.len()),
            types: Vec::with_capacity(events.len()),
            payloads: Vec::with_capacity(events.len()),
            prev_hashes: Vec::with_capacity(events.len()),
            hashes: Vec::with_capacity(events.len()),
            head_hash: prev_hash,
        };
        for (version, event) in (expected + 1..).zip(events) {
            let hash = HashInput {
                stream_id: stream,
                version,
                event_type: &event.event_type,
                payload: &event.payload,
                actor: &metadata.actor,
                request_id: metadata.request_id.as_deref(),
                idempotency_key: metadata.idempotency_key.as_deref(),
                recorded_at_micros,
                prev_hash: &prev_hash,
            }
            .digest();
            chained.versions.push(to_i64(version)?);
            chained.types.push(event.event_type.as_str());
            chained.payloads.push(event.payload.as_str());
            chained.prev_hashes.push(prev_hash.to_vec());
            chained.hashes.push(hash.to_vec());
            prev_hash = hash;
        }
        chained.head_hash = prev_hash;
        Ok(chained)
    }
}

fn validate_append(stream: &str, events: &[NewEvent]) -> Result<(), AppendError> {
    if stream.is_empty() || stream.len() > MAX_NAME_LEN {
        return Err(AppendError::Invalid("stream id must be 1 to 200 bytes"));
    }
    if events.is_empty() {
        return Err(AppendError::Invalid("an append needs at least one event"));
    }
    if events.len() > MAX_EVENTS_PER_APPEND {
        return Err(AppendError::Invalid("too many events in one append"));
    }
    if events
        .iter()
        .any(|e| e.event_type.is_empty() || e.event_type.len() > MAX_NAME_LEN)
    {
        return Err(AppendError::Invalid("event type must be 1 to 200 bytes"));
    }
    Ok(())
}

/// The current time, truncated to what PostgreSQL stores (microseconds), so the
/// value hashed is the value read back.
fn now_micros() -> OffsetDateTime {
    let now = OffsetDateTime::now_utc();
    let micros = now.unix_timestamp_nanos() / 1000;
    OffsetDateTime::from_unix_timestamp_nanos(micros * 1000).unwrap_or(now)
}

pub(crate) fn unix_micros(t: OffsetDateTime) -> i64 {
    i64::try_from(t.unix_timestamp_nanos() / 1000).unwrap_or(i64::MAX)
}

fn to_u64(version: i64) -> u64 {
    // The schema guarantees version >= 1.
    u64::try_from(version).unwrap_or(0)
}

fn to_i64(version: u64) -> Result<i64, AppendError> {
    i64::try_from(version).map_err(|_| AppendError::Invalid("version out of range"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn appends_are_validated_before_touching_the_database() {
        let ok = [NewEvent::from_json("Started", &serde_json::json!({}))];
        assert!(validate_append("s", &ok).is_ok());
        assert!(matches!(
            validate_append("", &ok),
            Err(AppendError::Invalid(_))
        ));
        assert!(matches!(
            validate_append(&"s".repeat(201), &ok),
            Err(AppendError::Invalid(_))
        ));
        assert!(matches!(
            validate_append("s", &[]),
            Err(AppendError::Invalid(_))
        ));
        let untyped = [NewEvent::from_json("", &serde_json::json!({}))];
        assert!(matches!(
            validate_append("s", &untyped),
            Err(AppendError::Invalid(_))
        ));
    }

    #[test]
    fn payloads_are_compact_json() {
        #[derive(Serialize)]
        struct P {
            b: u8,
            a: &'static str,
        }
        let e = NewEvent::new("T", &P { b: 1, a: "x" }).unwrap();
        assert_eq!(e.payload(), r#"{"b":1,"a":"x"}"#);
    }

    #[test]
    fn times_are_truncated_to_microseconds() {
        let t = now_micros();
        assert_eq!(t.unix_timestamp_nanos() % 1000, 0);
        let back =
            OffsetDateTime::from_unix_timestamp_nanos(i128::from(unix_micros(t)) * 1000).unwrap();
        assert_eq!(back, t);
    }
}
