//! `GET /v1/tables/{id}`: what everybody may know of a table.

use actix_web::{HttpResponse, web};

use super::dto::TableSummary;
use super::{load_public, with_etag};
use crate::app_state::AppState;
use crate::error::{ApiError, Problem};
use crate::http::auth::Authenticated;

/// The public summary of a table: seats and usernames, status, totals, whose turn,
/// version (also the `ETag`).
#[utoipa::path(
    get,
    path = "/v1/tables/{id}",
    tag = "tables",
    security(("bearer" = [])),
    params(("id" = i64, Path, description = "Table id")),
    responses(
        (status = 200, description = "The table", body = TableSummary,
         headers(("ETag" = String, description = "The table's version, quoted"))),
        (status = 404, description = "No such table (`not_found`)",
         body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn show(
    state: web::Data<AppState>,
    _auth: Authenticated,
    path: web::Path<i64>,
) -> Result<HttpResponse, ApiError> {
    let table = load_public(&state, path.into_inner()).await?;
    let version = table.version;
    Ok(with_etag(
        HttpResponse::Ok().json(TableSummary::of(&table)),
        version,
    ))
}
