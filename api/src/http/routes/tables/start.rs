//! `POST /v1/tables/{id}/start`: the game begins.

use actix_web::{HttpResponse, web};
use yaniv_domain::table::TableCommand;

use super::write::ActionResponse;
use super::{TableAnswer, run};
use crate::app_state::AppState;
use crate::error::ApiError;
use crate::http::routes::command::CommandRequest;
use crate::http::routes::problems::TableCommandProblems;

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
        TableCommandProblems,
    )
)]
pub async fn start(
    state: web::Data<AppState>,
    request: CommandRequest,
    path: web::Path<i64>,
) -> Result<HttpResponse, ApiError> {
    let (command, answer) = (TableCommand::Start, TableAnswer::View);
    run(&state, &request, path.into_inner(), &(), command, answer).await
}
