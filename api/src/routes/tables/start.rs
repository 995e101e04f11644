//! `POST /v1/tables/{id}/start`: the game begins.

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use yaniv_domain::game::{Command, Event as GameEvent};

use super::actions::ActionResponse;
use super::{if_match, mutation};
use crate::auth::{Authenticated, Role};
use crate::error::{ApiError, Problem};
use crate::idempotency::{IdempotencyKeyHeader, request_fingerprint};
use crate::request_id::RequestId;
use crate::startup::AppState;
use crate::tables::events::{StreamEvent, TableEvent, TableStarted};
use crate::tables::repo::{self, Decision};
use crate::tables::{autoplay, forbidden, table_refusal};

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
    let account = &auth.account;
    repo::mutate(&state, path.into_inner(), mutation, |mut loaded| {
        let table = &loaded.state;
        if table.created.created_by.account_id != account.id && !account.has_role(Role::Organizer) {
            return Err(forbidden(
                "only the table's creator or an organizer may start it",
            ));
        }
        if table.started {
            return Err(table_refusal(
                StatusCode::CONFLICT,
                "table_started",
                "the table has started already",
            ));
        }
        let free = table.free_seats();
        if free > 0 {
            return Err(table_refusal(
                StatusCode::CONFLICT,
                "seats_not_filled",
                format!("{free} seat(s) are still free"),
            ));
        }
        let before = table.version;
        let players = table.player_names();
        let rules = table.rules().clone();
        let started = StreamEvent::Table(TableEvent::Started(TableStarted {
            started_by: account.id,
            players: players.clone(),
        }));
        loaded
            .state
            .apply(started.clone())
            .map_err(|e| ApiError::unexpected("starting a table", e))?;
        let mut game_events: Vec<GameEvent> = loaded
            .state
            .game
            .execute(&Command::Create {
                rules,
                players,
                initial_totals: Vec::new(),
            })
            .map_err(|e| ApiError::unexpected("creating a table's game", e))?;
        autoplay::advance(&mut loaded.state.game, &mut loaded.bots, &mut game_events)?;
        loaded.state.record_executed(game_events.iter().cloned());
        let mut events = vec![started];
        events.extend(game_events.into_iter().map(StreamEvent::Game));
        let access = loaded.state.access(account);
        let body = ActionResponse::body(&loaded.state, access, before)?;
        Ok(Decision {
            events,
            after: loaded,
            status: StatusCode::OK,
            body,
        })
    })
    .await
}
