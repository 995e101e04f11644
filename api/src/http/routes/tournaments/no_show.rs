//! `POST /v1/tournaments/{id}/tables/{stage}/{round}/{table}/no-show`: a referee
//! decides that a drawn player did not come (the write is
//! `crate::tournaments::no_show`).
//!
//! The `record_no_show` command does the same for a table whose game has not begun
//! (a paper table); this route also voids a game already dealt online and deals a new
//! one for the players who came, in the same write.

use actix_web::{HttpResponse, web};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use yaniv_domain::tournament::TableRef;

use crate::app_state::AppState;
use crate::error::ApiError;
use crate::http::routes::command::CommandRequest;
use crate::http::routes::problems::TournamentCommandProblems;
use crate::tournaments::answers::NoShowResponse;
use crate::tournaments::no_show::NoShow;
use crate::tournaments::online::Writer;

/// Who did not come, and the referee's reason.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NoShowBody {
    /// The player's account id.
    pub player: i64,
    #[schema(
        min_length = 1,
        max_length = 1000,
        example = "not at the table 15 minutes after the start"
    )]
    pub reason: String,
}

/// Records that a drawn player did not come (a referee or the organizer who does not
/// sit at the table). Qualification tables only; the round counts as missed for the
/// player (`config.absent_scoring`). A game already dealt online is voided and a new
/// one dealt for the players who came.
#[utoipa::path(
    post,
    path = "/v1/tournaments/{id}/tables/{stage}/{round}/{table}/no-show",
    tag = "tournaments",
    security(("bearer" = [])),
    request_body = NoShowBody,
    params(
        ("id" = i64, Path, description = "Tournament id"),
        ("stage" = u32, Path, description = "Stage number, from 1"),
        ("round" = u32, Path, description = "Round number within the stage, from 1"),
        ("table" = u32, Path, description = "Table number within the round, from 1"),
        ("Idempotency-Key" = Option<String>, Header, description = "Retry safely: the same key gets the same answer"),
        ("If-Match" = Option<String>, Header, description = "Only if the tournament is still at this version (its `ETag`)"),
    ),
    responses(
        (status = 200, description = "Recorded; the table plays without the player", body = NoShowResponse),
        TournamentCommandProblems,
    )
)]
pub async fn no_show(
    state: web::Data<AppState>,
    request: CommandRequest,
    path: web::Path<(i64, u32, u32, u32)>,
    body: web::Json<NoShowBody>,
) -> Result<HttpResponse, ApiError> {
    let (id, stage, round, table) = path.into_inner();
    let body = body.into_inner();
    let mutation = request.mutation(&body);
    let metadata = mutation.metadata();
    let writer = Writer::new(&state.tables, request.account(), &metadata);
    let at = TableRef {
        stage,
        round,
        table,
    };
    let write = NoShow::new(id, writer, at, body.player, body.reason);
    Ok(state.tournaments.mutate(id, mutation, write).await?.into())
}
