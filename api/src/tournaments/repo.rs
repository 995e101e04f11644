//! Reading tournaments from the event store and appending to them.
//!
//! - [`load`]: a tournament folded from its whole stream.
//! - [`mutate`]: the write path of every tournament command. In one transaction: the
//!   `Idempotency-Key` record (a retry replays the first answer), the fresh fold, the
//!   decision, the append with the version the decision was made on, and the
//!   projection row. When another writer appended first, the whole thing is done
//!   again on the new state, up to [`MAX_RETRIES`] times (safe: deciding validates
//!   again), then the client gets 409 `version_conflict`.
//! - [`create`]: the same for a new tournament (a new id, a new stream).
//! - [`read_page`]: stored events of a stream, for `GET .../events`.

use actix_web::HttpResponse;
use actix_web::http::StatusCode;
use serde_json::Value;
use sqlx::PgConnection;
use yaniv_domain::tournament::{Event, Tournament};

use super::{decode, stream_id};
use crate::error::ApiError;
use crate::idempotency::respond;
use crate::startup::AppState;
use crate::store::idempotency::{self, Begin, StoredResponse};
use crate::store::{AppendError, EventStore, NewEvent, RecordedEvent};
use crate::stream_command::append_all;
pub use crate::stream_command::{MAX_RETRIES, Mutation};

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

/// Tournament `id` as its stream says now (`None` when there is no such tournament),
/// read through `conn`.
pub async fn load(conn: &mut PgConnection, id: i64) -> Result<Option<Tournament>, ApiError> {
    let stream = stream_id(id);
    let mut tournament = Tournament::new();
    loop {
        let from = tournament.version() + 1;
        let page = EventStore::read_stream_in(&mut *conn, &stream, from, PAGE).await?;
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
        if page.len() < PAGE as usize {
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
        .read_stream(&stream_id(id), after + 1, limit)
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

/// Runs a command on tournament `id` (see the module docs): `decide` gets the
/// tournament as it is now and returns the events to append, or refuses; `answer`
/// makes the response body from the tournament after them and the new events.
pub async fn mutate(
    state: &AppState,
    id: i64,
    mutation: Mutation<'_>,
    mut decide: impl FnMut(&Tournament) -> Result<Vec<Event>, ApiError>,
    answer: impl Fn(&Tournament, &[Event]) -> Value,
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
        let mut tournament = load(&mut tx, id).await?.ok_or_else(|| not_found(id))?;
        let expected = tournament.version();
        let events = decide(&tournament)?;
        let encoded = encode(&events)?;
        if !encoded.is_empty() {
            match append_all(state, &mut tx, &stream, expected, &encoded, &metadata).await {
                Ok(()) => {}
                Err(AppendError::Conflict { .. }) if attempt < MAX_RETRIES => {
                    attempt += 1;
                    tracing::info!(tournament = id, attempt, "lost a race: deciding again");
                    drop(tx);
                    continue;
                }
                Err(err) => return Err(err.into()),
            }
            for event in &events {
                tournament.apply(event);
            }
            project(&mut tx, id, &tournament).await?;
        }
        let stored = StoredResponse::json(StatusCode::OK, &answer(&tournament, &events))?;
        match &request {
            Some(request) => idempotency::complete(tx, request, &stored).await?,
            None => tx.commit().await?,
        }
        return Ok(respond(&stored, false));
    }
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
    let encoded = encode(&events)?;
    append_all(
        state,
        &mut tx,
        &stream_id(id),
        0,
        &encoded,
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
