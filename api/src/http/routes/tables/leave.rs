//! `POST /v1/tables/{id}/leave`: give a seat back before the start.

use actix_web::{HttpResponse, web};
use yaniv_domain::table::TableCommand;

use super::dto::TableSummary;
use super::{TableAnswer, run};
use crate::app_state::AppState;
use crate::error::ApiError;
use crate::http::routes::command::CommandRequest;
use crate::http::routes::problems::TableCommandProblems;

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
        TableCommandProblems,
    )
)]
pub async fn leave(
    state: web::Data<AppState>,
    request: CommandRequest,
    path: web::Path<i64>,
) -> Result<HttpResponse, ApiError> {
    let (command, answer) = (TableCommand::Leave, TableAnswer::Summary);
    run(&state, &request, path.into_inner(), &(), command, answer).await
}
