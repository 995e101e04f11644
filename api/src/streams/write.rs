//! Writing a stream: [`Repository::mutate`] and [`Repository::create`] (see the module
//! docs of [`super`]).

use std::future::Future;
use std::sync::atomic::Ordering;

use serde_json::Value;
use sqlx::{PgConnection, Postgres, Transaction};
use yaniv_domain::aggregate::{Aggregate, Refusal, RefusalKind, StoredEvent};

use super::check_if_match;
use super::written::Written;
use super::{MAX_RETRIES, Mutation, Repository, StreamKind};
use crate::error::{ApiError, Reason};
use crate::store::idempotency::{self, AnswerKind, Begin, IdempotentRequest, StoredResponse};
use crate::store::{AppendError, EventMetadata, MAX_EVENTS_PER_APPEND, NewEvent};
use yaniv_verify::chain::Hash;

/// One command on a stream, decided inside [`Repository::mutate`]'s transaction.
///
/// `execute` may write other rows through `conn` (a tournament's game tables, secret
/// seeds): they commit or roll back with the stream's events. It may be called again on
/// a fresh fold after a lost race, so it must not keep anything from an earlier call.
pub trait Write<A: StreamKind> {
    /// Decides the command on `aggregate` (as it is now), folds the events into it and
    /// returns them, or the refusal.
    fn execute(
        &mut self,
        conn: &mut PgConnection,
        id: i64,
        aggregate: &mut A,
    ) -> impl Future<Output = Result<Vec<A::Event>, ApiError>>;

    /// The response body, from the aggregate after the write, every event appended
    /// (the server's own included) and the version the write was decided on.
    fn answer(
        &self,
        id: i64,
        aggregate: &A,
        events: &[A::Event],
        before: u64,
    ) -> Result<Value, ApiError>;

    /// What the answer reports: a change, or something new (tables opened).
    fn answer_kind(&self) -> AnswerKind {
        AnswerKind::Changed
    }
}

/// What to do once a write's transaction has committed (put another stream's fold in
/// its cache, ...). Nothing by default.
#[derive(Default)]
pub struct AfterCommit(Option<Box<dyn FnOnce() + Send>>);

impl AfterCommit {
    pub fn new(then: impl FnOnce() + Send + 'static) -> Self {
        Self(Some(Box::new(then)))
    }

    fn run(self) {
        if let Some(then) = self.0 {
            then();
        }
    }
}

impl std::fmt::Debug for AfterCommit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.0.is_some() {
            "AfterCommit(..)"
        } else {
            "AfterCommit(nothing)"
        })
    }
}

/// The events as the store takes them.
pub(super) fn encode<E: StoredEvent>(events: &[E]) -> Result<Vec<NewEvent>, ApiError> {
    events
        .iter()
        .map(|e| {
            NewEvent::new(e.type_name(), e)
                .map_err(|err| ApiError::unexpected("serialising an event", err))
        })
        .collect()
}

/// The JSON of one of the server's own answers.
pub fn json_answer<T: serde::Serialize>(answer: &T) -> Result<Value, ApiError> {
    serde_json::to_value(answer).map_err(|e| ApiError::unexpected("serialising an answer", e))
}

/// A refusal of the rules engine as a problem document carrying its stable code.
pub fn refusal<E: Refusal>(title: &'static str, error: &E) -> ApiError {
    if let Some(field) = error.field() {
        return ApiError::invalid_field(field, error.to_string());
    }
    let reason = match error.kind() {
        RefusalKind::Forbidden => Reason::Forbidden,
        RefusalKind::NotNow => Reason::NotNow,
        RefusalKind::Invalid => Reason::Invalid,
        RefusalKind::Internal => {
            tracing::error!(code = error.code(), error = %error, "the rules engine failed");
            return ApiError::Unexpected {
                context: "the rules engine's own moves",
                source: None,
            };
        }
    };
    ApiError::Refused {
        reason,
        code: error.code(),
        title,
        detail: error.to_string(),
    }
}

/// Opens the write's transaction, claiming its idempotency record first; the stored
/// answer when the request was already carried out.
async fn begin(
    repo_pool: &sqlx::PgPool,
    request: Option<&IdempotentRequest>,
) -> Result<Result<Transaction<'static, Postgres>, Written>, ApiError> {
    Ok(match request {
        Some(request) => match idempotency::begin(repo_pool, request).await? {
            Begin::Replay(stored) => Err(Written::replayed(stored)),
            Begin::Fresh(tx) => Ok(tx),
        },
        None => Ok(repo_pool.begin().await?),
    })
}

/// Commits the write with its stored answer.
async fn finish(
    tx: Transaction<'static, Postgres>,
    request: Option<&IdempotentRequest>,
    stored: &StoredResponse,
) -> Result<(), ApiError> {
    match request {
        Some(request) => idempotency::complete(tx, request, stored).await?,
        None => tx.commit().await?,
    }
    Ok(())
}

/// `write`, abandoned (its transaction rolled back, or its outcome unknown if the
/// deadline fell during the commit) when it takes longer than `deadline`: a network
/// that died under an open connection never answers, and PostgreSQL's own timeouts
/// cannot reach across it.
async fn within_deadline(
    deadline: std::time::Duration,
    write: impl Future<Output = Result<Written, ApiError>>,
) -> Result<Written, ApiError> {
    match tokio::time::timeout(deadline, write).await {
        Ok(outcome) => outcome,
        Err(_) => {
            tracing::warn!(
                deadline_ms = deadline.as_millis() as u64,
                "a write's transaction outlived its deadline: abandoned"
            );
            Err(ApiError::DatabaseUnavailable(None))
        }
    }
}

impl<A: StreamKind> Repository<A> {
    /// Appends `events` after version `expected`, in chunks the store accepts.
    async fn append(
        &self,
        conn: &mut PgConnection,
        id: i64,
        expected: u64,
        events: &[A::Event],
        metadata: &EventMetadata,
    ) -> Result<(), AppendError> {
        self.append_after(conn, id, expected, None, events, metadata)
            .await
            .map(drop)
    }

    /// [`Repository::append`] after a head read in this transaction: `head_hash` is
    /// the hash of version `expected` (see [`EventStore::append_after`]). Returns the
    /// hash of the last event appended, the stream's new head.
    async fn append_after(
        &self,
        conn: &mut PgConnection,
        id: i64,
        expected: u64,
        mut head_hash: Option<Hash>,
        events: &[A::Event],
        metadata: &EventMetadata,
    ) -> Result<Hash, AppendError> {
        let encoded =
            encode(events).map_err(|_| AppendError::Invalid("an event does not serialise"))?;
        let stream = Self::stream_id(id);
        let mut version = expected;
        for chunk in encoded.chunks(MAX_EVENTS_PER_APPEND) {
            let outcome = self
                .store
                .append_after(&mut *conn, &stream, version, head_hash, chunk, metadata)
                .await?;
            version = outcome.last_version;
            head_hash = Some(outcome.head_hash);
        }
        head_hash.ok_or(AppendError::Invalid("an append needs at least one event"))
    }

    /// Appends `events`, already folded into `aggregate` (whose version is after them),
    /// in the caller's transaction, and brings the projection row up to date: for
    /// writes a hook makes inside another stream's transaction.
    pub async fn append_folded(
        &self,
        conn: &mut PgConnection,
        id: i64,
        aggregate: &A,
        events: &[A::Event],
        metadata: &EventMetadata,
    ) -> Result<(), ApiError> {
        let expected = <A as Aggregate>::version(aggregate) - events.len() as u64;
        self.append(conn, id, expected, events, metadata).await?;
        A::project(conn, id, aggregate).await
    }

    /// Runs `write` on stream `id` (see the module docs), within the store's write
    /// deadline.
    pub async fn mutate(
        &self,
        id: i64,
        mutation: Mutation<'_>,
        write: impl Write<A>,
    ) -> Result<Written, ApiError> {
        within_deadline(
            self.store.write_deadline(),
            self.mutate_unbounded(id, mutation, write),
        )
        .await
    }

    async fn mutate_unbounded(
        &self,
        id: i64,
        mutation: Mutation<'_>,
        mut write: impl Write<A>,
    ) -> Result<Written, ApiError> {
        let request = mutation.idempotent_request();
        let metadata = mutation.metadata();
        if let Some(written) = self
            .mutate_in_one_statement(id, &mutation, request.as_ref(), &metadata, &mut write)
            .await?
        {
            return Ok(written);
        }
        let mut attempt = 0;
        loop {
            let mut tx = match begin(self.store.pool(), request.as_ref()).await? {
                Ok(tx) => tx,
                Err(replayed) => return Ok(replayed),
            };
            if !A::lock(&mut tx, id).await? {
                return Err(Self::not_found(id));
            }
            let (aggregate, head) = self.load_for_write(&mut tx, id).await?;
            let mut aggregate = aggregate.ok_or_else(|| Self::not_found(id))?;
            let before = <A as Aggregate>::version(&aggregate);
            let head_hash = head
                .filter(|&(version, _)| version == before)
                .map(|(_, hash)| hash);
            let decided = match check_if_match(mutation.if_match, before, A::NAME) {
                Ok(()) => write.execute(&mut tx, id, &mut aggregate).await,
                Err(refused) => Err(refused),
            };
            let mut events = match decided {
                Ok(events) => events,
                Err(refused) => {
                    // A refusal leaves the fold as it was (an internal failure does
                    // not, and is not kept).
                    if <A as Aggregate>::version(&aggregate) == before
                        && !matches!(refused, ApiError::Unexpected { .. })
                    {
                        self.cache.put(id, aggregate);
                    } else {
                        self.cache.forget(id);
                    }
                    return Err(refused);
                }
            };
            let mut after_commit = AfterCommit::default();
            let mut new_head = None;
            let stream = Self::stream_id(id);
            let announce = !events.is_empty() && self.store.caller_announces();
            if !events.is_empty() {
                events.extend(A::server_events(&mut tx, id, &mut aggregate).await?);
                if announce {
                    self.store
                        .leave_announcement_to_caller(&mut tx, &stream)
                        .await?;
                }
                match self
                    .append_after(&mut tx, id, before, head_hash, &events, &metadata)
                    .await
                {
                    Ok(head) => new_head = Some(head),
                    Err(AppendError::Conflict { .. }) if attempt < MAX_RETRIES => {
                        attempt += 1;
                        self.figures.conflicts.fetch_add(1, Ordering::Relaxed);
                        tracing::info!(stream = %Self::stream_id(id), attempt, "lost a race: deciding again");
                        drop(tx);
                        continue;
                    }
                    Err(err) => return Err(err.into()),
                }
                A::project(&mut tx, id, &aggregate).await?;
                after_commit =
                    A::after_append(&self.extension, &mut tx, &aggregate, before, &metadata)
                        .await?;
            }
            let body = write.answer(id, &aggregate, &events, before)?;
            let stored = StoredResponse::json(write.answer_kind(), &body)?;
            finish(tx, request.as_ref(), &stored).await?;
            self.figures
                .appended
                .fetch_add(events.len() as u64, Ordering::Relaxed);
            if announce {
                self.store
                    .announce(&stream, <A as Aggregate>::version(&aggregate));
            }
            // Only committed events may enter the cache: it must hold a prefix of the
            // stream.
            match new_head.or(head_hash) {
                Some(head) => self.cache.put_with_head(id, aggregate, head),
                None => self.cache.put(id, aggregate),
            }
            after_commit.run();
            return Ok(Written::now(stored, before, events.len() as u64));
        }
    }

    /// Creates a stream: `create` decides the aggregate and its first events, then the
    /// projection row hands out its id, all in one transaction.
    pub async fn create(
        &self,
        mutation: Mutation<'_>,
        create: impl FnOnce() -> Result<(A, Vec<A::Event>), ApiError>,
        answer: impl FnOnce(i64, &A) -> Result<Value, ApiError>,
    ) -> Result<Written, ApiError> {
        within_deadline(
            self.store.write_deadline(),
            self.create_unbounded(mutation, create, answer),
        )
        .await
    }

    async fn create_unbounded(
        &self,
        mutation: Mutation<'_>,
        create: impl FnOnce() -> Result<(A, Vec<A::Event>), ApiError>,
        answer: impl FnOnce(i64, &A) -> Result<Value, ApiError>,
    ) -> Result<Written, ApiError> {
        let request = mutation.idempotent_request();
        let mut tx = match begin(self.store.pool(), request.as_ref()).await? {
            Ok(tx) => tx,
            Err(replayed) => return Ok(replayed),
        };
        let (id, aggregate) = self
            .create_in(&mut tx, mutation.account.id, &mutation.metadata(), create)
            .await?;
        let stored = StoredResponse::json(AnswerKind::Created, &answer(id, &aggregate)?)?;
        finish(tx, request.as_ref(), &stored).await?;
        self.figures
            .appended
            .fetch_add(<A as Aggregate>::version(&aggregate), Ordering::Relaxed);
        let version = <A as Aggregate>::version(&aggregate);
        self.cache.put(id, aggregate);
        Ok(Written::now(stored, 0, version))
    }

    /// [`Repository::create`] in the caller's transaction: the new id and aggregate.
    /// The stream is decided before its id exists (its events never name it).
    pub async fn create_in(
        &self,
        conn: &mut PgConnection,
        created_by: i64,
        metadata: &EventMetadata,
        create: impl FnOnce() -> Result<(A, Vec<A::Event>), ApiError>,
    ) -> Result<(i64, A), ApiError> {
        let (mut aggregate, mut events) = create()?;
        let id = A::insert(conn, created_by, &aggregate).await?;
        aggregate.assign_id(id);
        events.extend(A::server_events(conn, id, &mut aggregate).await?);
        self.append(conn, id, 0, &events, metadata).await?;
        A::project(conn, id, &aggregate).await?;
        Ok((id, aggregate))
    }
}
