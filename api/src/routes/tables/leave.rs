//! `POST /v1/tables/{id}/leave`: give a seat back before the start.

use actix_web::{HttpRequest, HttpResponse, web};
use yaniv_domain::table::TableCommand;

use super::dto::TableSummary;
use super::{TableAnswer, if_match, mutation, run};
use crate::app_state::AppState;
use crate::auth::Authenticated;
use crate::error::{ApiError, Problem};
use crate::idempotency::{IdempotencyKeyHeader, request_fingerprint};
use crate::request_id::RequestId;

/// Leaves the caller's seat; only before the table starts.
#[utoipa::path(
    post,
    path = "/v1/tables/{id}/leave",
    tag = "tables",
    security(("bearer" = [])),
    params(
        ("id" = i64, Path, description = "Table id"),
        ("Idempotency-Key" = Option<String>, Header, description = "Retry safely: the same key gets the same answer"),
    ),
    responses(
        (status = 200, description = "Left; the table after it", body = TableSummary),
        (status = 401, description = "Missing, unknown or expired token",
         body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "The caller has no seat here (`not_seated`)",
         body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such table (`not_found`)",
         body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "`table_started` or `version_conflict`",
         body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn leave(
    state: web::Data<AppState>,
    auth: Authenticated,
    request_id: RequestId,
    key: IdempotencyKeyHeader,
    path: web::Path<i64>,
    req: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    let fingerprint = request_fingerprint(&req, &());
    let mutation = mutation(&auth, &request_id, key.0, fingerprint, if_match(&req)?);
    let command = TableCommand::Leave;
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
