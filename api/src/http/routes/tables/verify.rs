//! `POST /v1/tables/{id}/verify`: check a table's stored history.

use actix_web::{HttpResponse, web};

use crate::app_state::AppState;
use crate::error::{ApiError, Problem};
use crate::http::auth::Authenticated;
use crate::tables::not_found;
use yaniv_verify::table::Verification;

use crate::audit::table;
use crate::visibility::{SeenTable, may_verify_unreadable, sealed_from_stored};

/// Verifies a table's stream as stored: recomputes its hash chain from the stored
/// bytes; replays its events (the table's structure, then every game event decided
/// again by the rules engine), naming the changed event when the rules only reject a
/// later one; compares the stream with its listing row (a truncated tail:
/// `truncated_stream`) and with every checkpoint of its head
/// (`truncated_since_checkpoint`, `rewritten_since_checkpoint`). `first_failure`
/// names the first event that does not check out. The answer is 200 whatever the
/// verdict; `ok` says it. For a referee of the table or an admin; while a round is in
/// play, `head_hash` stops before its first secret (`sealed_from`) and the reasons of
/// failures among them wait for its end.
#[utoipa::path(
    post,
    path = "/v1/tables/{id}/verify",
    operation_id = "verify_table",
    tag = "audit",
    security(("bearer" = [])),
    params(("id" = i64, Path, description = "Table id")),
    responses(
        (status = 200, description = "The verdict", body = Verification),
        (status = 403, description = "Neither a referee of this table nor an admin \
         (`forbidden`)",
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
    // fails because the stream is damaged, the listing tells who referees it, and the
    // verification below says where.
    match SeenTable::read(&state, id, Some(&auth.account)).await {
        Ok(seen) => seen.seen().require_inspector()?,
        Err(ApiError::NotFound(what)) => return Err(ApiError::NotFound(what)),
        Err(err) => {
            if !may_verify_unreadable(state.store.pool(), id, &auth.account).await? {
                return Err(err);
            }
        }
    }
    let events = state.tables.read_all(id).await?;
    if events.is_empty() {
        return Err(not_found(id));
    }
    let verdict = table::run(&state, id, &events)
        .await?
        .sealed(sealed_from_stored(&events), &events);
    if verdict.ok {
        tracing::info!(table = id, events = verdict.events, "table verified");
    } else {
        tracing::warn!(table = id, failure = ?verdict.first_failure, "table verification failed");
    }
    Ok(HttpResponse::Ok().json(verdict))
}
