//! `GET /v1/tables`: the tables, newest first, one page at a time.

use actix_web::{HttpResponse, web};
use serde::{Deserialize, Serialize};
use time::OffsetDateTime;
use utoipa::{IntoParams, ToSchema};

use crate::app_state::AppState;
use crate::error::{ApiError, Problem};
use crate::http::auth::Authenticated;
use yaniv_domain::table::TableStatus;

use crate::tables::listing;

/// Tables per page unless `limit` says otherwise, and the most it may say.
pub const DEFAULT_LIMIT: u32 = 20;
pub const MAX_LIMIT: u32 = 100;
/// The longest `idle_for` (a week).
pub const MAX_IDLE_FOR_SECS: u32 = 7 * 24 * 60 * 60;

#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct ListQuery {
    /// Only tables in this status: `open`, `playing` or `finished`.
    pub status: Option<String>,
    /// Only tables with an id below this one: the `next_before` of the previous page.
    pub before: Option<i64>,
    /// Only the tables of this tournament.
    pub tournament: Option<i64>,
    /// Only the tables where this account has a seat.
    pub player: Option<i64>,
    /// Only tables in play that have waited at least this many seconds since their
    /// last change: the stalled ones, for a referee (0 to 604800).
    #[param(minimum = 0, maximum = 604_800)]
    pub idle_for: Option<u32>,
    /// 1 to 100 (default 20).
    pub limit: Option<u32>,
}

/// One table of the listing (the summary has the seats and the game).
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct TableListEntry {
    pub id: i64,
    pub status: TableStatus,
    #[schema(example = "israeli")]
    pub preset: String,
    pub seats: u8,
    pub free_seats: u8,
    pub created_by: i64,
    pub created_by_username: String,
    #[serde(with = "time::serde::rfc3339")]
    #[schema(value_type = String, format = DateTime)]
    pub created_at: OffsetDateTime,
    /// The stream's version when listed.
    pub version: u64,
    /// The tournament the table belongs to, if any.
    pub tournament_id: Option<i64>,
    /// While in play, the seat the table waits on (the one that must act); `null`
    /// while a clock holds the out-of-turn window open for everyone.
    pub waiting_on: Option<u8>,
    /// The table's last change: how long it has waited on `waiting_on`.
    #[serde(with = "time::serde::rfc3339")]
    #[schema(value_type = String, format = DateTime)]
    pub last_change_at: OffsetDateTime,
    /// At a table with a clock: when the wait runs out and the server moves.
    #[serde(default, with = "time::serde::rfc3339::option")]
    #[schema(value_type = Option<String>, format = DateTime)]
    pub deadline_at: Option<OffsetDateTime>,
}

/// A page of tables.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct TableList {
    pub tables: Vec<TableListEntry>,
    /// Pass as `before` for the next page; `null` on the last page.
    pub next_before: Option<i64>,
}

/// Lists tables, newest first. `?status=playing&idle_for=300` lists the tables that
/// have waited five minutes or more on the seat in `waiting_on`;
/// `?player=12&status=playing` the tables account 12 plays at now;
/// `?tournament=3&status=playing` a tournament's tables still in play.
#[utoipa::path(
    get,
    path = "/v1/tables",
    tag = "tables",
    security(("bearer" = [])),
    params(ListQuery),
    responses(
        (status = 200, description = "A page of tables", body = TableList),
        (status = 422, description = "Unknown status or limit out of range (`validation_failed`)",
         body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn list(
    state: web::Data<AppState>,
    _auth: Authenticated,
    query: web::Query<ListQuery>,
) -> Result<HttpResponse, ApiError> {
    let status = match query.status.as_deref() {
        None => None,
        Some(s) => Some(TableStatus::parse(s).ok_or_else(|| {
            ApiError::invalid_field("status", "must be open, playing or finished")
        })?),
    };
    let limit = query.limit.unwrap_or(DEFAULT_LIMIT);
    if !(1..=MAX_LIMIT).contains(&limit) {
        return Err(ApiError::invalid_field("limit", "must be 1 to 100"));
    }
    if query.idle_for.is_some_and(|secs| secs > MAX_IDLE_FOR_SECS) {
        return Err(ApiError::invalid_field(
            "idle_for",
            "must be 0 to 604800 seconds",
        ));
    }
    let filter = listing::ListFilter {
        status,
        tournament: query.tournament,
        player: query.player,
        idle_for_secs: query.idle_for,
    };
    let rows = listing::list(&state.db, filter, query.before, limit).await?;
    let next_before = (rows.len() == limit as usize)
        .then(|| rows.last().map(|r| r.id))
        .flatten();
    let tables = rows
        .into_iter()
        .map(|row| TableListEntry {
            id: row.id,
            status: TableStatus::parse(&row.status).unwrap_or(TableStatus::Open),
            preset: row.preset,
            seats: u8::try_from(row.seats).unwrap_or(0),
            free_seats: u8::try_from(row.free_seats).unwrap_or(0),
            created_by: row.created_by,
            created_by_username: row.created_by_username,
            created_at: row.created_at,
            version: u64::try_from(row.version).unwrap_or(0),
            tournament_id: row.tournament_id,
            waiting_on: row.waiting_on.and_then(|seat| u8::try_from(seat).ok()),
            last_change_at: row.updated_at,
            deadline_at: row.deadline_at,
        })
        .collect();
    Ok(HttpResponse::Ok().json(TableList {
        tables,
        next_before,
    }))
}
