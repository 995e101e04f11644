//! `POST /v1/tables/{id}/join`: take a seat before the start.

use actix_web::{HttpResponse, web};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use yaniv_domain::table::TableCommand;

use super::dto::TableSummary;
use super::{TableAnswer, optional_body, run};
use crate::app_state::AppState;
use crate::error::ApiError;
use crate::http::routes::command::CommandRequest;
use crate::http::routes::problems::TableCommandProblems;

/// Which seat to take; the body may be empty (the first free seat).
#[derive(Debug, Default, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct JoinRequest {
    /// A free seat, from 0; the first free one when absent.
    #[schema(minimum = 0, maximum = 7, example = 1)]
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
    request_body(content = JoinRequest, description = "The seat wanted; `{}` (or no body at all) takes the first free one"),
    responses(
        (status = 200, description = "Seated; the table after it", body = TableSummary),
        TableCommandProblems,
    )
)]
pub async fn join(
    state: web::Data<AppState>,
    request: CommandRequest,
    path: web::Path<i64>,
    body: web::Bytes,
) -> Result<HttpResponse, ApiError> {
    let join: JoinRequest = optional_body(&body)?;
    // A seat outside every table's range is refused by the table with the real range.
    let seat = join.seat.map(|s| u8::try_from(s).unwrap_or(u8::MAX));
    let command = TableCommand::Join { seat };
    let answer = TableAnswer::Summary;
    run(&state, &request, path.into_inner(), &join, command, answer).await
}
