//! `POST /v1/tournaments/{id}/commands`: any tournament command.
//!
//! The body is the domain's command JSON, tagged by `command` (`open_registration`,
//! `register`, `check_in`, `start_qualification`, `draw_round`, `record_result`,
//! `advance_stage`, `finish`, ...; see `docs/tournaments.md`). The caller acts as
//! `Actor::Account(<their id>)`: the domain decides whether that account may send
//! the command in this tournament (organizer, referee, the player themselves).

use actix_web::{HttpResponse, web};
use serde_json::Value;
use yaniv_domain::tournament::{Command, Seeding};

use crate::app_state::AppState;
use crate::error::{ApiError, from_serde_json};
use crate::http::routes::command::CommandRequest;
use crate::http::routes::problems::TournamentCommandProblems;
use crate::tournaments::answers::CommandResponse;
use crate::tournaments::command::{CommandWrite, RatingOrder};

/// Sends a command to a tournament; the domain decides it on the freshly folded
/// tournament and the events it produces are appended.
#[utoipa::path(
    post,
    path = "/v1/tournaments/{id}/commands",
    tag = "tournaments",
    security(("bearer" = [])),
    request_body(
        content = Command,
        description = "A tournament command: `command` names it, the other fields are its own",
        example = json!({"command": "register", "player": 12}),
    ),
    params(
        ("id" = i64, Path, description = "Tournament id"),
        ("Idempotency-Key" = Option<String>, Header, description = "Retry safely: the same key gets the same answer"),
        ("If-Match" = Option<String>, Header, description = "Only if the tournament is still at this version (its `ETag`)"),
    ),
    responses(
        (status = 200, description = "Accepted: the events appended and the tournament after them",
         body = CommandResponse),
        TournamentCommandProblems,
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
    // Only a tournament seeded by rating needs the list (a fold can take seconds when
    // it is stale); one whose config changes before the write is refused by the rules
    // engine for want of a seeding, and the next try reads the list.
    let seeded_start = matches!(command, Command::StartQualification { seeding: None })
        && state.tournaments.read(id).await.is_ok_and(|t| {
            t.state()
                .config
                .as_ref()
                .is_some_and(|c| c.seeding == Seeding::Rating)
        });
    let mut write = CommandWrite::new(id, request.account().clone(), command);
    if seeded_start {
        // Read before the tournament is locked: the fold may take a while, and the
        // seeding says which instant of the list it is (`as_of_micros`).
        let snapshot = state.ratings.current(&state.db).await?;
        let now = i64::try_from(time::OffsetDateTime::now_utc().unix_timestamp_nanos() / 1000)
            .unwrap_or(i64::MAX);
        let as_of_micros = snapshot.as_of(now);
        write = write.with_ratings(RatingOrder {
            as_of_micros,
            best_first: snapshot.order_before(as_of_micros),
        });
    }
    let written = state
        .tournaments
        .mutate(id, request.mutation(&*body), write)
        .await?;
    Ok(written.into())
}
