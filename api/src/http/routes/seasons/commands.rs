//! `POST /v1/seasons/{id}/commands`: `configure`, `add_tournament`,
//! `remove_tournament`, decided as the caller (its organizer or an admin).

use actix_web::{HttpResponse, web};
use serde_json::Value;
use yaniv_domain::season::Command;

use crate::app_state::AppState;
use crate::error::{ApiError, from_serde_json};
use crate::http::routes::command::CommandRequest;
use crate::http::routes::problems::SeasonCommandProblems;
use crate::seasons::repo::{SeasonWrite, SeasonWritten};

/// Sends a command to a season.
#[utoipa::path(
    post,
    path = "/v1/seasons/{id}/commands",
    tag = "seasons",
    security(("bearer" = [])),
    request_body(
        content = Command,
        description = "A season command: `command` names it",
        example = json!({"command": "add_tournament", "tournament": 12}),
    ),
    params(
        ("id" = i64, Path, description = "Season id"),
        ("Idempotency-Key" = Option<String>, Header, description = "Retry safely: the same key gets the same answer"),
        ("If-Match" = Option<String>, Header, description = "Only if the season is still at this version (its `ETag`)"),
    ),
    responses(
        (status = 200, description = "Accepted: the events appended", body = SeasonWritten),
        SeasonCommandProblems,
    )
)]
pub async fn command(
    state: web::Data<AppState>,
    request: CommandRequest,
    path: web::Path<i64>,
    body: web::Json<Value>,
) -> Result<HttpResponse, ApiError> {
    let id = path.into_inner();
    let command: Command = serde_json::from_value(body.clone()).map_err(|e| from_serde_json(&e))?;
    if matches!(command, Command::Create { .. }) {
        return Err(ApiError::invalid_field(
            "command",
            "a season is created with POST /v1/seasons",
        ));
    }
    let write = SeasonWrite {
        account: request.account().clone(),
        command,
        tournaments: &state.tournaments,
    };
    let written = state
        .seasons
        .mutate(id, request.mutation(&*body), write)
        .await?;
    Ok(written.into())
}
