//! `POST /v1/tournaments/{id}/commands`: any tournament command.
//!
//! The body is the domain's command JSON, tagged by `command` (`open_registration`,
//! `register`, `check_in`, `start_qualification`, `draw_round`, `record_result`,
//! `advance_stage`, `finish`, ...; see `docs/tournaments.md`). The caller acts as
//! `Actor::Account(<their id>)`: the domain decides whether that account may send
//! the command in this tournament (organizer, referee, the player themselves).

use actix_web::{HttpRequest, HttpResponse, web};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use utoipa::ToSchema;
use yaniv_domain::tournament::{Command, Context};

use super::{TournamentEvent, TournamentSummary, mutation, now};
use crate::auth::Authenticated;
use crate::error::{ApiError, Problem, from_serde_json};
use crate::idempotency::{IdempotencyKeyHeader, request_fingerprint};
use crate::request_id::RequestId;
use crate::startup::AppState;
use crate::tournaments::{refusal, repo};

/// A tournament command: `command` names it, the other fields are its own (for
/// example `{"command": "register", "player": 12}`,
/// `{"command": "draw_round", "seed": "<64 hex digits>"}`,
/// `{"command": "record_result", "table": {"stage": 1, "round": 1, "table": 2},
/// "input": {"source": "game", "standings": [{"player": 12, "total": 40, "place": 1}, ...]}}`).
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[schema(example = json!({"command": "register", "player": 12}))]
pub struct TournamentCommandBody {
    /// `configure_stages`, `add_referee`, `remove_referee`, `open_registration`,
    /// `close_registration`, `register`, `check_in`, `withdraw`, `commit_draw_seed`,
    /// `start_qualification`, `draw_round`, `redraw_round`, `start_table_game`,
    /// `record_result`, `correct_result`, `void_game`, `disqualify`, `open_dispute`,
    /// `resolve_dispute`, `advance_stage`, `finish`.
    #[schema(example = "register")]
    pub command: String,
    /// The command's own fields.
    #[serde(flatten)]
    #[schema(value_type = Object)]
    pub fields: Map<String, Value>,
}

/// What a command did.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct CommandResponse {
    pub id: i64,
    /// The stream's version after the command.
    pub version: u64,
    /// The events it appended, in order.
    pub events: Vec<TournamentEvent>,
    /// The tournament after them (the domain's `TournamentView`).
    #[schema(value_type = Object)]
    pub tournament: Value,
}

/// Sends a command to a tournament; the domain decides it on the freshly folded
/// tournament and the events it produces are appended.
#[utoipa::path(
    post,
    path = "/v1/tournaments/{id}/commands",
    tag = "tournaments",
    security(("bearer" = [])),
    request_body = TournamentCommandBody,
    params(
        ("id" = i64, Path, description = "Tournament id"),
        ("Idempotency-Key" = Option<String>, Header, description = "Retry safely: the same key gets the same answer"),
    ),
    responses(
        (status = 200, description = "Accepted: the events appended and the tournament after them",
         body = CommandResponse),
        (status = 400, description = "The id is not a number (`invalid_path`)",
         body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "Missing, unknown or expired token",
         body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "The caller may not send this command in this tournament (`forbidden`)",
         body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such tournament (`not_found`)",
         body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "Not now: `wrong_phase`, `registration_not_open`, \
         `outside_registration_window`, `capacity_reached`, `already_registered`, \
         `not_registered`, `already_checked_in`, `player_withdrawn`, `player_disqualified`, \
         `already_referee`, `not_referee`, `seed_already_committed`, `no_table_split`, \
         `not_enough_players`, `round_incomplete`, `stage_rounds_drawn`, `stage_incomplete`, \
         `final_reached`, `round_started`, `not_latest_round`, `table_already_started`, \
         `result_already_recorded`, `no_result`, `dispute_resolved`, `open_dispute`, \
         `finished`, `already_created`, `version_conflict`",
         body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "Wrong in itself: a malformed command (`validation_failed`) \
         or `bad_config`, `bad_rules`, `bad_name`, `bad_window`, `bad_reason`, `bad_result`, \
         `bad_paper_round`, `bad_record`, `game_not_finished`, `rules_mismatch`, \
         `seed_mismatch`, `no_such_round`, `no_such_table`, `no_such_dispute`",
         body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn command(
    state: web::Data<AppState>,
    auth: Authenticated,
    request_id: RequestId,
    key: IdempotencyKeyHeader,
    req: HttpRequest,
    path: web::Path<i64>,
    body: web::Json<Value>,
) -> Result<HttpResponse, ApiError> {
    let id = path.into_inner();
    let command: Command = serde_json::from_value(body.clone()).map_err(|e| from_serde_json(&e))?;
    let ctx = Context::account(auth.account.id, now());
    let fingerprint = request_fingerprint(&req, &*body);
    let mutation = mutation(&auth, &request_id, key.0, fingerprint);
    repo::mutate(
        &state,
        id,
        mutation,
        |tournament| tournament.decide(&ctx, &command).map_err(|e| refusal(&e)),
        |tournament, events| {
            let first = tournament.version() - events.len() as u64 + 1;
            let response = CommandResponse {
                id,
                version: tournament.version(),
                events: (first..)
                    .zip(events)
                    .map(|(version, event)| TournamentEvent::of(version, event))
                    .collect(),
                tournament: TournamentSummary::of(id, tournament).tournament,
            };
            serde_json::to_value(response).unwrap_or_default()
        },
    )
    .await
}
