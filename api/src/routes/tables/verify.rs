//! `POST /v1/tables/{id}/verify`: check a table's stored history.

use actix_web::{HttpResponse, web};

use super::audit::require_auditor;
use super::load;
use crate::app_state::AppState;
use crate::auth::Authenticated;
use crate::error::{ApiError, Problem};
use crate::tables::verify::{self, Verification};
use crate::tables::{is_staff, not_found};

/// Verifies a table's stream as stored: recomputes its hash chain from the stored
/// bytes; replays its events (the table's structure, then every game event decided
/// again by the rules engine), naming the changed event when the rules only reject a
/// later one; compares the stream with its listing row (a truncated tail:
/// `truncated_stream`) and with every checkpoint of its head
/// (`truncated_since_checkpoint`, `rewritten_since_checkpoint`). `first_failure`
/// names the first event that does not check out. The answer is 200 whatever the
/// verdict; `ok` says it.
#[utoipa::path(
    post,
    path = "/v1/tables/{id}/verify",
    operation_id = "verify_table",
    tag = "audit",
    security(("bearer" = [])),
    params(("id" = i64, Path, description = "Table id")),
    responses(
        (status = 200, description = "The verdict", body = Verification),
        (status = 401, description = "Missing, unknown or expired token",
         body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Not staff, or playing at this table or in its \
         tournament while its game runs (`forbidden`)",
         body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such table (`not_found`)",
         body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn verify(
    state: web::Data<AppState>,
    auth: Authenticated,
    path: web::Path<i64>,
) -> Result<HttpResponse, ApiError> {
    let id = path.into_inner();
    // Who may verify is decided on the table as the server reads it; if that read
    // fails because the stream is damaged, the verification below says where.
    match load(&state, id).await {
        Ok(table) => require_auditor(&state, &table, &auth.account).await?,
        Err(ApiError::NotFound(what)) => return Err(ApiError::NotFound(what)),
        Err(_) if is_staff(&auth.account) => {}
        Err(err) => return Err(err),
    }
    let events = state.tables.read_all(id).await?;
    if events.is_empty() {
        return Err(not_found(id));
    }
    let verdict = verify::run(&state, id, &events).await?;
    if verdict.ok {
        tracing::info!(table = id, events = verdict.events, "table verified");
    } else {
        tracing::warn!(table = id, failure = ?verdict.first_failure, "table verification failed");
    }
    Ok(HttpResponse::Ok().json(verdict))
}
