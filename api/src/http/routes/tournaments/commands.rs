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
use crate::seasons::repo::final_in_its_season;
use crate::tournaments::answers::CommandResponse;
use crate::tournaments::command::{CommandWrite, SeedingOrder};

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
    if let Command::ConfigureStages { config } = &command {
        season_exists(&state, config.season).await?;
    }
    let mut write = CommandWrite::new(id, request.account().clone(), command);
    if let Some(order) = seeding_order(&state, id, &write).await? {
        write = write.with_seeding(order);
    }
    let written = state
        .tournaments
        .mutate(id, request.mutation(&*body), write)
        .await?;
    Ok(written.into())
}

/// The order a `start_qualification` of a seeded tournament starts from, read before
/// the tournament is locked (a stale rating list takes a while to fold): the rating
/// list, or the standings of the season the config names. Nothing for any other
/// command or tournament. A tournament whose config changes before the write is
/// refused by the rules engine for want of the right seeding, and the next try reads
/// again.
async fn seeding_order(
    state: &AppState,
    id: i64,
    write: &CommandWrite,
) -> Result<Option<SeedingOrder>, ApiError> {
    if !matches!(
        write.command(),
        Command::StartQualification { seeding: None }
    ) {
        return Ok(None);
    }
    let Ok(tournament) = state.tournaments.read(id).await else {
        return Ok(None);
    };
    let Some(config) = tournament.state().config.clone() else {
        return Ok(None);
    };
    let now = i64::try_from(time::OffsetDateTime::now_utc().unix_timestamp_nanos() / 1000)
        .unwrap_or(i64::MAX);
    match (config.seeding, config.season) {
        (Seeding::Rating, _) => {
            let snapshot = state.ratings.current(&state.db).await?;
            let as_of_micros = snapshot.as_of(now);
            Ok(Some(SeedingOrder {
                as_of_micros,
                season: None,
                best_first: snapshot.order_before(as_of_micros),
            }))
        }
        (Seeding::Season, Some(season_id)) => {
            let season = state.seasons.read(season_id).await?;
            if season.holds(id) {
                return Err(final_in_its_season(id, season_id));
            }
            let standings =
                crate::seasons::standings::of(&state.tournaments, season_id, &season).await?;
            Ok(Some(SeedingOrder {
                as_of_micros: now,
                best_first: standings.best_first(),
                season: Some(standings.basis),
            }))
        }
        _ => Ok(None),
    }
}

/// A config that names a season must name one that exists (`unknown_season`).
pub async fn season_exists(state: &AppState, season: Option<i64>) -> Result<(), ApiError> {
    let Some(season) = season else {
        return Ok(());
    };
    match state.seasons.read(season).await {
        Ok(_) => Ok(()),
        Err(ApiError::NotFound(_)) => Err(ApiError::Refused {
            reason: crate::error::Reason::Invalid,
            code: "unknown_season",
            title: "Refused by the tournament",
            detail: format!("config.season: no season with id {season}"),
        }),
        Err(other) => Err(other),
    }
}
