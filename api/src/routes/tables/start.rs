//! `POST /v1/tables/{id}/start`: the game begins.

use actix_web::{HttpRequest, HttpResponse, web};
use yaniv_domain::table::TableCommand;

use super::actions::ActionResponse;
use super::{TableAnswer, if_match, mutation, run};
use crate::app_state::AppState;
use crate::auth::Authenticated;
use crate::error::{ApiError, Problem};
use crate::idempotency::{IdempotencyKeyHeader, request_fingerprint};
use crate::request_id::RequestId;

/// Starts a table whose human seats are all taken: the game is created with the
/// table's rules and players, round 1 is dealt from a fresh secret seed (its SHA-256
/// commitment is in the `round_dealt.v1` event; the seed is revealed to players once
/// the round is over) with a starter drawn at random, and the bots play until a
/// human must act. Only the table's creator or an organizer (or admin) may start it.
#[utoipa::path(
    post,
    path = "/v1/tables/{id}/start",
    tag = "tables",
    security(("bearer" = [])),
    params(
        ("id" = i64, Path, description = "Table id"),
        ("Idempotency-Key" = Option<String>, Header, description = "Retry safely: the same key gets the same answer"),
    ),
    responses(
        (status = 200, description = "Started; the caller's view after the server's moves", body = ActionResponse),
        (status = 401, description = "Missing, unknown or expired token",
         body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Neither the creator nor an organizer (`forbidden`)",
         body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such table (`not_found`)",
         body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "`table_started`, `seats_not_filled` or `version_conflict`",
         body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn start(
    state: web::Data<AppState>,
    auth: Authenticated,
    request_id: RequestId,
    key: IdempotencyKeyHeader,
    path: web::Path<i64>,
    req: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    let fingerprint = request_fingerprint(&req, &());
    let mutation = mutation(&auth, &request_id, key.0, fingerprint, if_match(&req)?);
    let command = TableCommand::Start;
    run(
        &state,
        &auth,
        path.into_inner(),
        mutation,
        command,
        TableAnswer::View,
    )
    .await
}
