//! `GET /v1/tables/{id}/rounds`: how each round that is over ended.

use actix_web::{HttpResponse, web};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use yaniv_domain::game::{Event as GameEvent, RoundEnded};

use super::{load_public, with_etag};
use crate::app_state::AppState;
use crate::error::{ApiError, Problem};
use crate::http::auth::Authenticated;

/// The rounds of a table that are over, oldest first.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct TableRounds {
    /// The table's version now (also the `ETag`).
    pub version: u64,
    /// Each round's `round_ended.v1` payload: who called, how it ended, every hand
    /// as it was shown, what each seat scored and every total after it.
    pub rounds: Vec<RoundEnded>,
}

/// Every round of the table that is over: the hands shown at its end, the points,
/// reductions and bonuses, and the totals after it. Public once a round is over, as
/// the hands were shown at the table; a round in play is not in the list.
#[utoipa::path(
    get,
    path = "/v1/tables/{id}/rounds",
    tag = "tables",
    security(("bearer" = [])),
    params(("id" = i64, Path, description = "Table id")),
    responses(
        (status = 200, description = "The rounds that are over", body = TableRounds,
         headers(("ETag" = String, description = "The table's version, quoted"))),
        (status = 404, description = "No such table (`not_found`)",
         body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn rounds(
    state: web::Data<AppState>,
    _auth: Authenticated,
    path: web::Path<i64>,
) -> Result<HttpResponse, ApiError> {
    let table = load_public(&state, path.into_inner()).await?;
    let rounds = table
        .game_events
        .iter()
        .filter_map(|event| match event {
            GameEvent::RoundEnded(ended) => Some(ended.clone()),
            _ => None,
        })
        .collect();
    Ok(with_etag(
        HttpResponse::Ok().json(TableRounds {
            version: table.version,
            rounds,
        }),
        table.version,
    ))
}
