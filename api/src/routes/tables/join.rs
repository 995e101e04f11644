//! `POST /v1/tables/{id}/join`: take a seat before the start.

use actix_web::{HttpRequest, HttpResponse, web};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use yaniv_domain::table::TableCommand;

use super::dto::TableSummary;
use super::{TableAnswer, if_match, mutation, optional_body, run};
use crate::app_state::AppState;
use crate::auth::Authenticated;
use crate::error::{ApiError, Problem};
use crate::idempotency::{IdempotencyKeyHeader, request_fingerprint};
use crate::request_id::RequestId;

/// Which seat to take; the body may be empty (the first free seat).
#[derive(Debug, Default, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct JoinRequest {
    /// A free seat, from 0; the first free one when absent.
    #[schema(example = 1)]
    pub seat: Option<i64>,
}

/// Takes a seat at a table that has not started. One seat per account.
#[utoipa::path(
    post,
    path = "/v1/tables/{id}/join",
    tag = "tables",
    security(("bearer" = [])),
    params(
        ("id" = i64, Path, description = "Table id"),
        ("Idempotency-Key" = Option<String>, Header, description = "Retry safely: the same key gets the same answer"),
    ),
    request_body(content = Option<JoinRequest>, description = "Optional: the seat wanted"),
    responses(
        (status = 200, description = "Seated; the table after it", body = TableSummary),
        (status = 401, description = "Missing, unknown or expired token",
         body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such table (`not_found`)",
         body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "`table_started`, `already_seated`, `seat_taken`, \
         `table_full`, or `version_conflict`",
         body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "No such seat (`validation_failed`, field `seat`)",
         body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn join(
    state: web::Data<AppState>,
    auth: Authenticated,
    request_id: RequestId,
    key: IdempotencyKeyHeader,
    path: web::Path<i64>,
    req: HttpRequest,
    body: web::Bytes,
) -> Result<HttpResponse, ApiError> {
    let request: JoinRequest = optional_body(&body)?;
    let fingerprint = request_fingerprint(&req, &request);
    let mutation = mutation(&auth, &request_id, key.0, fingerprint, if_match(&req)?);
    // A seat outside every table's range is refused by the table with the real range.
    let seat = request.seat.map(|s| u8::try_from(s).unwrap_or(u8::MAX));
    let command = TableCommand::Join { seat };
    run(
        &state,
        &auth,
        path.into_inner(),
        mutation,
        command,
        TableAnswer::Summary,
    )
    .await
}
