//! One repository for every kind of stream (game tables, tournaments): how an
//! [`Aggregate`] of the rules engine is read from the event store and written to it.
//!
//! - [`Repository`]: the store and the per-process fold cache of one kind of stream.
//!   [`Repository::load`] folds a stream (the cached fold of a prefix plus every later
//!   event); [`Repository::load_fresh`] reads it from the database alone (audits), up
//!   to a version if asked; [`Repository::read_all`] / [`Repository::read_page`] give
//!   the stored events.
//! - [`Repository::mutate`] is the write path of every command (`write.rs`): in one
//!   transaction the `Idempotency-Key` record (a retry replays the first answer), the
//!   kind's lock if it has one, the fresh fold, `If-Match`, the decision
//!   ([`Write::execute`]), the events the server adds ([`StreamKind::server_events`]),
//!   the append with the version the decision was made on, the projection row, and the
//!   kind's follow-up ([`StreamKind::after_append`]). When another writer appended
//!   first, the whole thing is done again on the new state, up to [`MAX_RETRIES`]
//!   times (safe: deciding validates again), then the client gets 409
//!   `version_conflict`. [`Repository::create`] does the same for a new stream.
//!   Before that transaction, a kind that allows it tries the command in one
//!   statement from its cached fold (`one_statement.rs`), and hands everything it
//!   cannot settle to the transaction.
//! - [`StreamKind`]: what differs between kinds, as named steps inside that
//!   transaction: the tournament's row lock and seed commitments, the listing rows,
//!   and "a finished tournament game records its result" (a hook the tables call
//!   without knowing tournaments, see [`crate::tables::GameEndHook`]).

pub mod corrupt;
pub mod fold_cache;
mod mutation;
mod one_statement;
mod read;
mod read_gate;
mod write;
mod written;

pub use mutation::{MAX_RETRIES, Mutation, check_if_match};

pub use one_statement::ListingUpdate;
pub use write::{AfterCommit, Write, json_answer, refusal};
pub use written::{Effect, Written};

use std::future::Future;

use sqlx::PgConnection;
use yaniv_domain::aggregate::Aggregate;

use crate::error::ApiError;
use crate::store::{EventMetadata, EventStore};
use crate::streams::fold_cache::{FoldCache, Versioned};

/// Events read per query.
pub const PAGE: u32 = 1000;

/// What the server adds to an aggregate of the rules engine to store it.
pub trait StreamKind: Aggregate + Versioned + 'static {
    /// What the kind's hooks need beyond the store (set once at start-up).
    type Extension: std::fmt::Debug + Send + Sync;

    /// `table`, `tournament`: for messages and logs.
    const NAME: &'static str;

    /// A writer takes the cached fold out of the cache instead of copying it: for
    /// kinds whose folds are large and whose writers queue behind a lock anyway.
    const TAKE_ON_WRITE: bool = false;

    /// Before the fold, in the writer's transaction: `false` when there is no such
    /// stream. A kind whose writers must queue takes its lock here.
    fn lock(conn: &mut PgConnection, id: i64) -> impl Future<Output = Result<bool, ApiError>> {
        let _ = (conn, id);
        async { Ok(true) }
    }

    /// Events the server appends after a write's own (already folded into
    /// `aggregate`, as these must be too).
    fn server_events(
        conn: &mut PgConnection,
        id: i64,
        aggregate: &mut Self,
    ) -> impl Future<Output = Result<Vec<Self::Event>, ApiError>> {
        let _ = (conn, id, aggregate);
        async { Ok(Vec::new()) }
    }

    /// Gives a stream decided before its id existed that id.
    fn assign_id(&mut self, id: i64) {
        let _ = id;
    }

    /// A new stream's projection row; returns the id it hands out.
    fn insert(
        conn: &mut PgConnection,
        created_by: i64,
        aggregate: &Self,
    ) -> impl Future<Output = Result<i64, ApiError>>;

    /// Brings the projection row of stream `id` up to the aggregate's version.
    fn project(
        conn: &mut PgConnection,
        id: i64,
        aggregate: &Self,
    ) -> impl Future<Output = Result<(), ApiError>>;

    /// Whether writes of this kind may be tried in one statement (`one_statement.rs`)
    /// at all. The attempt decides on a connection outside any transaction, so only a
    /// kind none of whose writes writes through its connection while deciding may say
    /// yes: a tournament's draw creates game tables, a door list creates accounts, and
    /// an attempt handed back afterwards would leave those behind.
    const DECIDES_WITHOUT_WRITING: bool = false;

    /// The listing row after a write decided on version `before`, when the write can
    /// be stored in one statement (`one_statement.rs`): no lock, no server events, a
    /// decision that writes nothing through its connection, nothing for
    /// [`StreamKind::after_append`] to do and a projection that [`ListingUpdate`]
    /// holds. `None`, the default, takes the transaction's steps.
    fn one_statement_listing(
        extension: &Self::Extension,
        aggregate: &Self,
        before: u64,
    ) -> Option<ListingUpdate> {
        let _ = (extension, aggregate, before);
        None
    }

    /// After the append, in the same transaction; `before` is the version the write
    /// was decided on. Returns what to do once the transaction has committed.
    fn after_append(
        extension: &Self::Extension,
        conn: &mut PgConnection,
        aggregate: &Self,
        before: u64,
        metadata: &EventMetadata,
    ) -> impl Future<Output = Result<AfterCommit, ApiError>> {
        let _ = (extension, conn, aggregate, before, metadata);
        async { Ok(AfterCommit::default()) }
    }
}

/// The store and the fold cache of one kind of stream.
#[derive(Debug)]
pub struct Repository<A: StreamKind> {
    store: EventStore,
    cache: FoldCache<A>,
    extension: A::Extension,
    /// Corrupt events already logged.
    reported: corrupt::ReportedOnce,
    /// What `/metrics` reports of this repository's writes.
    figures: WriteFigures,
    /// One database read at a time per stream for the live streams (`read_at_least`).
    reading: read_gate::ReadGates,
}

/// Counted by a repository's commands (not by writes that hooks make inside another
/// stream's transaction).
#[derive(Debug, Default)]
struct WriteFigures {
    /// Events committed.
    appended: std::sync::atomic::AtomicU64,
    /// Lost races for a stream's next version, decided again.
    conflicts: std::sync::atomic::AtomicU64,
    /// Commands stored in one statement (`one_statement.rs`).
    one_statement: std::sync::atomic::AtomicU64,
    /// Commands tried in one statement and handed back to the usual path after the
    /// database was asked.
    handed_back: std::sync::atomic::AtomicU64,
}

impl<A: StreamKind> Repository<A> {
    /// A repository whose fold cache keeps at most `cache_capacity` folds of at most
    /// `cache_bytes` together.
    pub fn new(
        store: EventStore,
        cache_capacity: usize,
        cache_bytes: usize,
        extension: A::Extension,
    ) -> Self {
        Self {
            store,
            cache: FoldCache::new(cache_capacity, cache_bytes),
            extension,
            reported: corrupt::ReportedOnce::new(corrupt::REPORTED_CAPACITY),
            figures: WriteFigures::default(),
            reading: read_gate::ReadGates::default(),
        }
    }

    pub fn cache(&self) -> &FoldCache<A> {
        &self.cache
    }

    /// The event store the repository reads and writes.
    pub fn store(&self) -> &EventStore {
        &self.store
    }

    /// Events this repository's commands committed.
    pub fn appended_events(&self) -> u64 {
        self.figures
            .appended
            .load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Races for a stream's next version this repository lost and decided again.
    pub fn conflicts(&self) -> u64 {
        self.figures
            .conflicts
            .load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Commands this repository stored in one statement.
    pub fn one_statement_writes(&self) -> u64 {
        self.figures
            .one_statement
            .load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Commands tried in one statement that the usual path took over.
    pub fn handed_back_writes(&self) -> u64 {
        self.figures
            .handed_back
            .load(std::sync::atomic::Ordering::Relaxed)
    }

    /// The stream id of aggregate `id`.
    pub fn stream_id(id: i64) -> String {
        yaniv_domain::aggregate::stream_id::<A>(id)
    }

    /// 404 for aggregate `id`.
    pub fn not_found(id: i64) -> ApiError {
        ApiError::NotFound(format!("no {} with id {id}", A::NAME))
    }
}
