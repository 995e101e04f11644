//! Reading tournaments from the event store and appending to them.
//!
//! - [`load`]: a tournament folded from its whole stream; [`load_upto`]: from its first
//!   events only (the tournament at an earlier version).
//! - [`mutate`]: the write path of every tournament command. In one transaction: the
//!   `Idempotency-Key` record (a retry replays the first answer), the tournament's
//!   row lock ([`lock`]), the fresh fold, the decision ([`TournamentWrite`]), the
//!   server's next seed commitment when one is due (`seeds.rs`), the append with the
//!   version the decision was made on, and the projection row. Should another writer
//!   still append first, the whole thing is done again on the new state, up to
//!   [`MAX_RETRIES`] times (safe: deciding validates again), then the client gets 409
//!   `version_conflict`.
//! - [`create`]: the same for a new tournament (a new id, a new stream).
//! - [`read_page`]: stored events of a stream, for `GET .../events`.

use actix_web::HttpResponse;
use actix_web::http::StatusCode;
use serde_json::Value;
use sqlx::PgConnection;
use yaniv_domain::tournament::{Event, Tournament};

use super::{decode, seeds, stream_id};
use crate::error::ApiError;
use crate::fold_cache::{FoldCache, Versioned};
use crate::idempotency::respond;
use crate::startup::AppState;
use crate::store::idempotency::{self, Begin, StoredResponse};
use crate::store::{AppendError, EventMetadata, EventStore, NewEvent, RecordedEvent};
pub use crate::stream_command::{MAX_RETRIES, Mutation};
use crate::stream_command::{append_all, check_if_match};

/// Events read per query.
const PAGE: u32 = 1000;

/// 404 for tournament `id`.
pub fn not_found(id: i64) -> ApiError {
    ApiError::NotFound(format!("no tournament with id {id}"))
}

fn broken(id: i64, err: impl std::fmt::Display) -> ApiError {
    tracing::error!(tournament = id, error = %err, "a tournament stream cannot be folded");
    ApiError::Unexpected {
        context: "folding a tournament stream",
        source: None,
    }
}

/// Tournaments kept folded per process (a 10,000-player tournament is ~30,000 events,
/// a few MB folded).
pub const CACHE_CAPACITY: usize = 64;

/// Folded tournaments (see [`crate::fold_cache`]).
pub type TournamentCache = FoldCache<Tournament>;

impl Versioned for Tournament {
    fn version(&self) -> u64 {
        Tournament::version(self)
    }
}

/// Tournament `id` as its stream says now (`None` when there is no such tournament),
/// read through `conn` from the database alone (what audits use).
pub async fn load(conn: &mut PgConnection, id: i64) -> Result<Option<Tournament>, ApiError> {
    load_from(conn, Tournament::new(), id, u64::MAX).await
}

/// Tournament `id` folded from its first `n` events only, from the database alone
/// (fewer when the stream is shorter; `None` when there is no such tournament).
pub async fn load_upto(
    conn: &mut PgConnection,
    id: i64,
    n: u64,
) -> Result<Option<Tournament>, ApiError> {
    load_from(conn, Tournament::new(), id, n).await
}

/// Tournament `id` for a writer that holds its lock ([`lock`]): the cached fold of a
/// prefix is taken out of the cache, not copied (a copy of a 10,000-player tournament
/// costs more than the rest of a command), and brought up to date. The writer puts it
/// back after its transaction commits, or at once when it changes nothing.
pub async fn take_and_load(
    conn: &mut PgConnection,
    cache: &TournamentCache,
    id: i64,
) -> Result<Option<Tournament>, ApiError> {
    let start = cache.take(id).unwrap_or_default();
    load_from(conn, start, id, u64::MAX).await
}

/// The same, starting from the cached fold of a prefix of the stream: only the events
/// after it are read.
pub async fn load_cached(
    conn: &mut PgConnection,
    cache: &TournamentCache,
    id: i64,
) -> Result<Option<Tournament>, ApiError> {
    let start = cache.get(id).unwrap_or_default();
    let loaded = load_from(conn, start, id, u64::MAX).await;
    if loaded.is_err() {
        cache.forget(id);
    }
    loaded
}

/// Folds the events of tournament `id` after `tournament`'s version, up to version
/// `upto`.
async fn load_from(
    conn: &mut PgConnection,
    mut tournament: Tournament,
    id: i64,
    upto: u64,
) -> Result<Option<Tournament>, ApiError> {
    let stream = stream_id(id);
    loop {
        let from = tournament.version() + 1;
        let wanted = upto
            .saturating_sub(tournament.version())
            .min(u64::from(PAGE)) as u32;
        if wanted == 0 {
            break;
        }
        let page = EventStore::read_stream_in(&mut *conn, &stream, from, wanted).await?;
        for recorded in &page {
            let version = u64::try_from(recorded.version).unwrap_or(0);
            let expected = tournament.version() + 1;
            if version != expected {
                return Err(broken(
                    id,
                    format!("version {version} where {expected} was expected"),
                ));
            }
            let event =
                decode(&recorded.event_type, &recorded.payload).map_err(|e| broken(id, e))?;
            tournament.apply(&event);
        }
        if page.len() < wanted as usize {
            break;
        }
    }
    Ok((tournament.version() > 0).then_some(tournament))
}

/// Up to `limit` stored events of tournament `id` after version `after`.
pub async fn read_page(
    state: &AppState,
    id: i64,
    after: u64,
    limit: u32,
) -> Result<Vec<RecordedEvent>, ApiError> {
    Ok(state
        .store
        .read_stream(&stream_id(id), after.saturating_add(1), limit)
        .await?)
}

fn encode(events: &[Event]) -> Result<Vec<NewEvent>, ApiError> {
    events
        .iter()
        .map(|e| {
            NewEvent::new(e.type_name(), e)
                .map_err(|err| ApiError::unexpected("serialising an event", err))
        })
        .collect()
}

/// The phase of `tournament` as stored in the projection.
fn phase(tournament: &Tournament) -> String {
    tournament
        .view()
        .and_then(|v| serde_json::to_value(v.phase).ok())
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_else(|| "setup".to_owned())
}

/// Brings the projection row of tournament `id` up to its version.
async fn project(
    conn: &mut PgConnection,
    id: i64,
    tournament: &Tournament,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE tournaments SET phase = $2, version = $3, updated_at = now() \
         WHERE id = $1 AND version < $3",
    )
    .bind(id)
    .bind(phase(tournament))
    .bind(i64::try_from(tournament.version()).unwrap_or(i64::MAX))
    .execute(conn)
    .await?;
    Ok(())
}

/// One write to a tournament, decided inside [`mutate`]'s transaction.
///
/// `decide` may write other rows through `conn` (game tables, secret seeds): they
/// commit or roll back with the tournament's events. It may be called again on a fresh
/// state after a lost race, so it must not keep anything from an earlier call.
pub trait TournamentWrite {
    /// The events to append to `tournament` (as it is now), or the refusal.
    fn decide(
        &mut self,
        conn: &mut PgConnection,
        tournament: &Tournament,
    ) -> impl Future<Output = Result<Vec<Event>, ApiError>>;

    /// The response body, from the tournament after the write and every event it
    /// appended (the server's own seed commitment included).
    fn answer(&self, id: i64, tournament: &Tournament, events: &[Event]) -> Value;

    /// The response status.
    fn status(&self) -> StatusCode {
        StatusCode::OK
    }
}

/// A command decided by a plain function of the tournament (most commands).
pub struct Decided<D, A> {
    pub decide: D,
    pub answer: A,
}

impl<D, A> std::fmt::Debug for Decided<D, A> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Decided")
    }
}

impl<D, A> TournamentWrite for Decided<D, A>
where
    D: FnMut(&Tournament) -> Result<Vec<Event>, ApiError>,
    A: Fn(i64, &Tournament, &[Event]) -> Value,
{
    async fn decide(
        &mut self,
        _conn: &mut PgConnection,
        tournament: &Tournament,
    ) -> Result<Vec<Event>, ApiError> {
        (self.decide)(tournament)
    }

    fn answer(&self, id: i64, tournament: &Tournament, events: &[Event]) -> Value {
        (self.answer)(id, tournament, events)
    }
}

/// Takes tournament `id`'s row lock for the rest of the transaction; `false` when there
/// is no such tournament.
///
/// Every writer of a tournament stream takes it first: the commands, the draws, and
/// the game tables whose last action records a result. Under READ COMMITTED the stream
/// read after the lock sees every earlier writer's events, so writers queue instead of
/// losing version races (several tables of a round often end within milliseconds).
pub async fn lock(conn: &mut PgConnection, id: i64) -> Result<bool, ApiError> {
    let row: Option<i64> =
        sqlx::query_scalar("SELECT version FROM tournaments WHERE id = $1 FOR UPDATE")
            .bind(id)
            .fetch_optional(conn)
            .await?;
    Ok(row.is_some())
}

/// Appends `events` to tournament `id` after version `tournament.version()`, folds them
/// into `tournament`, and brings the projection row up to date, in the caller's
/// transaction.
pub async fn append(
    state: &AppState,
    conn: &mut PgConnection,
    id: i64,
    tournament: &mut Tournament,
    events: &[Event],
    metadata: &EventMetadata,
) -> Result<(), AppendError> {
    let expected = tournament.version();
    for event in events {
        tournament.apply(event);
    }
    append_folded(state, conn, id, expected, tournament, events, metadata).await
}

/// Appends `events` after version `expected`; `after` is the tournament with them
/// folded already (for the projection row).
async fn append_folded(
    state: &AppState,
    conn: &mut PgConnection,
    id: i64,
    expected: u64,
    after: &Tournament,
    events: &[Event],
    metadata: &EventMetadata,
) -> Result<(), AppendError> {
    let encoded =
        encode(events).map_err(|_| AppendError::Invalid("an event does not serialise"))?;
    append_all(state, conn, &stream_id(id), expected, &encoded, metadata).await?;
    project(conn, id, after).await?;
    Ok(())
}

/// Runs `write` on tournament `id` (see the module docs): under the tournament's row
/// lock, decide on the tournament as it is now, add the server's next seed commitment
/// when one is due, append, answer.
pub async fn mutate(
    state: &AppState,
    id: i64,
    mutation: Mutation<'_>,
    mut write: impl TournamentWrite,
) -> Result<HttpResponse, ApiError> {
    let request = mutation.idempotent_request();
    let metadata = mutation.metadata();
    let mut attempt = 0;
    loop {
        let mut tx = match &request {
            Some(request) => match idempotency::begin(state.store.pool(), request).await? {
                Begin::Replay(stored) => return Ok(respond(&stored, true)),
                Begin::Fresh(tx) => tx,
            },
            None => state.store.pool().begin().await?,
        };
        if !lock(&mut tx, id).await? {
            return Err(not_found(id));
        }
        let mut tournament = take_and_load(&mut tx, &state.tournaments, id)
            .await?
            .ok_or_else(|| not_found(id))?;
        let expected = tournament.version();
        let decided = match check_if_match(mutation.if_match, expected, "tournament") {
            Ok(()) => write.decide(&mut tx, &tournament).await,
            Err(refused) => Err(refused),
        };
        let mut events = match decided {
            Ok(events) => events,
            Err(refused) => {
                state.tournaments.put(id, tournament);
                return Err(refused);
            }
        };
        if !events.is_empty() {
            for event in &events {
                tournament.apply(event);
            }
            if let Some(commitment) = seeds::commit_if_due(&mut tx, id, &tournament, now()).await? {
                tournament.apply(&commitment);
                events.push(commitment);
            }
            let appended = append_folded(
                state,
                &mut tx,
                id,
                expected,
                &tournament,
                &events,
                &metadata,
            )
            .await;
            match appended {
                Ok(()) => {}
                Err(AppendError::Conflict { .. }) if attempt < MAX_RETRIES => {
                    attempt += 1;
                    tracing::info!(tournament = id, attempt, "lost a race: deciding again");
                    drop(tx);
                    continue;
                }
                Err(err) => return Err(err.into()),
            }
        }
        let body = write.answer(id, &tournament, &events);
        let stored = StoredResponse::json(write.status(), &body)?;
        match &request {
            Some(request) => idempotency::complete(tx, request, &stored).await?,
            None => tx.commit().await?,
        }
        // Only committed events may enter the cache: it must hold a prefix of the stream.
        state.tournaments.put(id, tournament);
        return Ok(respond(&stored, false));
    }
}

/// The server's clock: seconds since the Unix epoch.
pub fn now() -> i64 {
    time::OffsetDateTime::now_utc().unix_timestamp()
}

/// Creates a tournament from the events of its `create` command (already decided on
/// an empty tournament): a new id, its projection row and its stream, in one
/// transaction. `answer` makes the response from the id and the new tournament.
pub async fn create(
    state: &AppState,
    mutation: Mutation<'_>,
    events: Vec<Event>,
    answer: impl FnOnce(i64, &Tournament) -> Value,
) -> Result<HttpResponse, ApiError> {
    let request = mutation.idempotent_request();
    let mut tx = match &request {
        Some(request) => match idempotency::begin(state.store.pool(), request).await? {
            Begin::Replay(stored) => return Ok(respond(&stored, true)),
            Begin::Fresh(tx) => tx,
        },
        None => state.store.pool().begin().await?,
    };
    let tournament = Tournament::from_events(&events);
    let name = tournament.view().map(|v| v.name).unwrap_or_default();
    let id: i64 = sqlx::query_scalar(
        "INSERT INTO tournaments (created_by, name, phase, version) \
         VALUES ($1, $2, $3, $4) RETURNING id",
    )
    .bind(mutation.account.id)
    .bind(&name)
    .bind(phase(&tournament))
    .bind(i64::try_from(tournament.version()).unwrap_or(i64::MAX))
    .fetch_one(&mut *tx)
    .await?;
    let mut events = events;
    events.extend(seeds::commit_if_due(&mut tx, id, &tournament, now()).await?);
    let mut tournament = Tournament::new();
    append(
        state,
        &mut tx,
        id,
        &mut tournament,
        &events,
        &mutation.metadata(),
    )
    .await?;
    let stored = StoredResponse::json(StatusCode::CREATED, &answer(id, &tournament))?;
    match &request {
        Some(request) => idempotency::complete(tx, request, &stored).await?,
        None => tx.commit().await?,
    }
    Ok(respond(&stored, false))
}
