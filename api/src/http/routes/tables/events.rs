//! `GET /v1/tables/{id}/events?after=N`: the table's stream as the caller may see it.

use actix_web::{HttpResponse, web};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
pub use yaniv_domain::visibility::VisibleEvent;

use super::with_etag;
use crate::app_state::AppState;
use crate::error::{ApiError, Problem};
use crate::http::auth::Authenticated;
use crate::http::routes::paging::EventsQuery;
use crate::visibility::SeenTable;

/// A page of a table's events.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct TableEventsPage {
    /// The table's version now.
    pub version: u64,
    pub events: Vec<VisibleEvent>,
    /// Pass as `after` for the next page.
    pub next_after: u64,
    /// More events follow this page.
    pub has_more: bool,
}

/// The events of a table after version `after`, as the caller may see them now: until
/// a round is over, a player sees their own cards and what is face up, a referee of
/// the table (an official of its tournament who plays nowhere in it) every hand as
/// well, and everyone else what is face up; nobody sees a round's seed, the stock or a
/// card set aside face down before the round is over. Then everyone sees all of it.
#[utoipa::path(
    get,
    path = "/v1/tables/{id}/events",
    tag = "tables",
    security(("bearer" = [])),
    params(("id" = i64, Path, description = "Table id"), EventsQuery),
    responses(
        (status = 200, description = "A page of events", body = TableEventsPage),
        (status = 404, description = "No such table (`not_found`)",
         body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`limit` out of range (`validation_failed`)",
         body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn events(
    state: web::Data<AppState>,
    auth: Authenticated,
    path: web::Path<i64>,
    query: web::Query<EventsQuery>,
) -> Result<HttpResponse, ApiError> {
    let (after, limit) = query.bounds()?;
    let seen = SeenTable::read(&state, path.into_inner(), Some(&auth.account)).await?;
    let (page, next_after) = seen.seen().events(after, limit as usize);
    let table = seen.table();
    if seen.relation().may_inspect() {
        // Those who answer for the table see it checked against what is stored: a fold
        // cached before a change behind the server's back must not hide that the stored
        // chain no longer holds.
        state.tables.check_chain_upto(table.id, next_after).await?;
    }
    Ok(with_etag(
        HttpResponse::Ok().json(TableEventsPage {
            version: table.version,
            has_more: next_after < table.version,
            next_after,
            events: page,
        }),
        table.version,
    ))
}
