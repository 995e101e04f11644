//! Reading tables from the event store and appending to them.
//!
//! - [`load`]: a table folded from its stream (the cached fold of a prefix plus every
//!   later event, read through the caller's connection).
//! - [`load_fresh`]: the same from the database alone, optionally only the first
//!   `N` events (audits).
//! - [`mutate`]: the write path of every table command. In one transaction: the
//!   `Idempotency-Key` record (a retry replays the first answer), the fresh fold,
//!   the decision, the append with the version the decision was made on, and the
//!   listing row, and, when the command ends the game of a tournament's table, the
//!   result recorded in the tournament (`crate::tournaments::play`). When another
//!   writer appended first, the whole thing is done again on the new state, up to
//!   [`MAX_RETRIES`] times (safe: deciding validates again), then the client gets 409
//!   `version_conflict`.
//! - [`create`]: the same for a new table (a new id, a new stream).
//! - [`list`]: the listing projection (`game_tables`).

use actix_web::HttpResponse;
use actix_web::http::StatusCode;
use serde_json::Value;
use sqlx::PgConnection;
use time::OffsetDateTime;

use super::autoplay::make_bots;
use super::cache::{Loaded, TableCache};
use super::events::{StreamEvent, TableCreated, TableEvent, decode, stream_id};
use super::state::{TableState, TableStatus};
use crate::error::ApiError;
use crate::idempotency::respond;
use crate::startup::AppState;
use crate::store::idempotency::{self, Begin, StoredResponse};
use crate::store::{AppendError, EventStore, NewEvent};
pub use crate::stream_command::{MAX_RETRIES, Mutation};
use crate::stream_command::{append_all, check_if_match};
use crate::tournaments::play::record_online_result;

/// Events read per query.
const PAGE: u32 = 1000;

/// 404 for table `id`.
pub fn not_found(id: i64) -> ApiError {
    ApiError::NotFound(format!("no table with id {id}"))
}

fn broken(id: i64, cache: Option<&TableCache>, err: impl std::fmt::Display) -> ApiError {
    if let Some(cache) = cache {
        cache.forget(id);
    }
    tracing::error!(table = id, error = %err, "a table stream cannot be folded");
    ApiError::Unexpected {
        context: "folding a table stream",
        source: None,
    }
}

/// Folds `events` (read from the store, in version order) into `state`.
fn fold_into(
    id: i64,
    state: &mut Option<TableState>,
    events: &[crate::store::RecordedEvent],
    cache: Option<&TableCache>,
    upto: Option<u64>,
) -> Result<bool, ApiError> {
    for recorded in events {
        let version = u64::try_from(recorded.version).unwrap_or(0);
        if upto.is_some_and(|n| version > n) {
            return Ok(false);
        }
        let expected = state.as_ref().map_or(1, |s| s.version + 1);
        if version != expected {
            return Err(broken(
                id,
                cache,
                format!("version {version} where {expected} was expected"),
            ));
        }
        let event =
            decode(&recorded.event_type, &recorded.payload).map_err(|e| broken(id, cache, e))?;
        match state {
            Some(s) => s.apply(event).map_err(|e| broken(id, cache, e))?,
            None => {
                *state = TableState::fold(id, [event]).map_err(|e| broken(id, cache, e))?;
            }
        }
    }
    Ok(true)
}

/// Table `id` as its stream says now (`None` when there is no such table), read
/// through `conn`; the cache saves re-reading the prefix it holds.
pub async fn load(
    conn: &mut PgConnection,
    cache: &TableCache,
    id: i64,
) -> Result<Option<Loaded>, ApiError> {
    let stream = stream_id(id);
    let cached = cache.get(id);
    let (mut state, mut bots) = match cached {
        Some(Loaded { state, bots }) => (Some(state), Some(bots)),
        None => (None, None),
    };
    loop {
        let from = state.as_ref().map_or(1, |s| s.version + 1);
        let page = EventStore::read_stream_in(&mut *conn, &stream, from, PAGE).await?;
        fold_into(id, &mut state, &page, Some(cache), None)?;
        if page.len() < PAGE as usize {
            break;
        }
    }
    let Some(state) = state else {
        return Ok(None);
    };
    let bots = match bots.take() {
        Some(bots) if bots.len() == state.seats.len() => bots,
        _ => make_bots(&state.bot_kinds())?,
    };
    Ok(Some(Loaded { state, bots }))
}

/// Table `id` from the database alone, after its first `upto` events (all when
/// `None`): what audits look at.
pub async fn load_fresh(
    state: &AppState,
    id: i64,
    upto: Option<u64>,
) -> Result<Option<TableState>, ApiError> {
    let stream = stream_id(id);
    let mut table = None;
    loop {
        let from = table.as_ref().map_or(1, |s: &TableState| s.version + 1);
        let page = state.store.read_stream(&stream, from, PAGE).await?;
        let more = fold_into(id, &mut table, &page, None, upto)?;
        if !more || page.len() < PAGE as usize {
            break;
        }
    }
    Ok(table)
}

/// What a command decided: the events to append, the table after them, and the
/// answer to send.
#[derive(Debug)]
pub struct Decision {
    pub events: Vec<StreamEvent>,
    pub after: Loaded,
    pub status: StatusCode,
    pub body: Value,
}

fn encode(events: &[StreamEvent]) -> Result<Vec<NewEvent>, ApiError> {
    events
        .iter()
        .map(|e| {
            e.to_new_event()
                .map_err(|err| ApiError::unexpected("serialising an event", err))
        })
        .collect()
}

/// Brings the listing row of `table` up to its version.
async fn project(conn: &mut PgConnection, table: &TableState) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE game_tables SET status = $2, free_seats = $3, version = $4, updated_at = now() \
         WHERE id = $1 AND version < $4",
    )
    .bind(table.id)
    .bind(table.status().as_str())
    .bind(i16::try_from(table.free_seats()).unwrap_or(0))
    .bind(i64::try_from(table.version).unwrap_or(i64::MAX))
    .execute(conn)
    .await?;
    Ok(())
}

/// Runs a command on table `id` (see the module docs): `decide` gets the table as it
/// is now and says what to append and answer, or refuses.
pub async fn mutate(
    state: &AppState,
    id: i64,
    mutation: Mutation<'_>,
    mut decide: impl FnMut(Loaded) -> Result<Decision, ApiError>,
) -> Result<HttpResponse, ApiError> {
    let stream = stream_id(id);
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
        let loaded = load(&mut tx, &state.tables, id)
            .await?
            .ok_or_else(|| not_found(id))?;
        let expected = loaded.state.version;
        check_if_match(mutation.if_match, expected, "table")?;
        let was_finished = loaded.state.game.is_finished();
        let mut tournament_fold = None;
        let decision = decide(loaded)?;
        let events = encode(&decision.events)?;
        if !events.is_empty() {
            match append_all(state, &mut tx, &stream, expected, &events, &metadata).await {
                Ok(()) => {}
                Err(AppendError::Conflict { .. }) if attempt < MAX_RETRIES => {
                    attempt += 1;
                    tracing::info!(table = id, attempt, "lost a race: deciding again");
                    drop(tx);
                    continue;
                }
                Err(err) => return Err(err.into()),
            }
            project(&mut tx, &decision.after.state).await?;
            if !was_finished && decision.after.state.game.is_finished() {
                tournament_fold =
                    record_online_result(state, &mut tx, &decision.after.state, &metadata).await?;
            }
        }
        let stored = StoredResponse::json(decision.status, &decision.body)?;
        match &request {
            Some(request) => idempotency::complete(tx, request, &stored).await?,
            None => tx.commit().await?,
        }
        state.tables.put(id, decision.after);
        if let Some(fold) = tournament_fold {
            state.tournaments.put(fold.tournament_id, fold.tournament);
        }
        return Ok(respond(&stored, false));
    }
}

/// Creates a table: a new id, its listing row and its stream's first event, in one
/// transaction. `answer` makes the response from the new table.
pub async fn create(
    state: &AppState,
    mutation: Mutation<'_>,
    created: TableCreated,
    answer: impl FnOnce(&TableState) -> Value,
) -> Result<HttpResponse, ApiError> {
    let request = mutation.idempotent_request();
    let mut tx = match &request {
        Some(request) => match idempotency::begin(state.store.pool(), request).await? {
            Begin::Replay(stored) => return Ok(respond(&stored, true)),
            Begin::Fresh(tx) => tx,
        },
        None => state.store.pool().begin().await?,
    };
    let free = usize::from(created.seats).saturating_sub(created.bots.len());
    let id: i64 = sqlx::query_scalar(
        "INSERT INTO game_tables (created_by, preset, seats, free_seats, status, version) \
         VALUES ($1, $2, $3, $4, 'open', 1) RETURNING id",
    )
    .bind(mutation.account.id)
    .bind(&created.rules.preset)
    .bind(i16::from(created.seats))
    .bind(i16::try_from(free).unwrap_or(0))
    .fetch_one(&mut *tx)
    .await?;
    let event = StreamEvent::Table(TableEvent::Created(created.clone()));
    let events = encode(std::slice::from_ref(&event))?;
    append_all(
        state,
        &mut tx,
        &stream_id(id),
        0,
        &events,
        &mutation.metadata(),
    )
    .await?;
    let table = TableState::new(id, created);
    let stored = StoredResponse::json(StatusCode::CREATED, &answer(&table))?;
    match &request {
        Some(request) => idempotency::complete(tx, request, &stored).await?,
        None => tx.commit().await?,
    }
    let bots = make_bots(&table.bot_kinds())?;
    state.tables.put(id, Loaded { state: table, bots });
    Ok(respond(&stored, false))
}

/// A row of the listing projection.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ListedTable {
    pub id: i64,
    pub created_by: i64,
    pub created_by_username: String,
    pub created_at: OffsetDateTime,
    pub preset: String,
    pub seats: i16,
    pub free_seats: i16,
    pub status: String,
    pub version: i64,
}

/// Up to `limit` tables, newest first, with an id below `before`, of `status`.
pub async fn list(
    state: &AppState,
    status: Option<TableStatus>,
    before: Option<i64>,
    limit: u32,
) -> Result<Vec<ListedTable>, ApiError> {
    let rows = sqlx::query_as::<_, ListedTable>(
        "SELECT t.id, t.created_by, a.username AS created_by_username, t.created_at, t.preset, \
                t.seats, t.free_seats, t.status, t.version \
         FROM game_tables t JOIN accounts a ON a.id = t.created_by \
         WHERE ($1::text IS NULL OR t.status = $1) AND ($2::bigint IS NULL OR t.id < $2) \
         ORDER BY t.id DESC LIMIT $3",
    )
    .bind(status.map(TableStatus::as_str))
    .bind(before)
    .bind(i64::from(limit))
    .fetch_all(&state.db)
    .await?;
    Ok(rows)
}

/// Every stored event of table `id`'s stream, in order (for verification).
pub async fn read_all(
    state: &AppState,
    id: i64,
) -> Result<Vec<crate::store::RecordedEvent>, ApiError> {
    let stream = stream_id(id);
    let mut all = Vec::new();
    loop {
        let from = all.last().map_or(1, |e: &crate::store::RecordedEvent| {
            u64::try_from(e.version).unwrap_or(0) + 1
        });
        let page = state.store.read_stream(&stream, from, PAGE).await?;
        let done = page.len() < PAGE as usize;
        all.extend(page);
        if done {
            return Ok(all);
        }
    }
}
