//! `POST /v1/tournaments`: create a tournament.

use actix_web::{HttpResponse, web};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use yaniv_domain::rules::RuleSpec;
use yaniv_domain::tournament::{Command, ConfigRequest, RegistrationWindow};

use super::TournamentSummary;
use crate::app_state::AppState;
use crate::auth::Role;
use crate::error::{ApiError, Problem};
use crate::http::routes::command::CommandRequest;
use crate::tournaments::repo;

/// A new tournament: the domain's `create` command without its tag.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({
    "name": "Belgian championship 2026",
    "rules": {"preset": "belgian"},
    "capacity": 64,
    "registration_window": {"opens_at": 1790000000, "closes_at": 1790600000},
    "config": {"qualification_rounds": 3, "table_min": 4, "table_max": 6}
}))]
pub struct CreateTournamentRequest {
    /// 1 to 100 characters (surrounding spaces are trimmed).
    #[schema(
        example = "Belgian championship 2026",
        min_length = 1,
        max_length = 100
    )]
    pub name: String,
    /// The rules every game plays: a preset and overrides, resolved once and stored in
    /// full.
    #[schema(example = json!({"preset": "belgian"}))]
    pub rules: RuleSpec,
    /// 2 to 100,000 players.
    #[schema(example = 64, minimum = 2, maximum = 100_000)]
    pub capacity: u32,
    /// When players may register themselves (seconds since the epoch, each end
    /// optional); unbounded when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub registration_window: Option<RegistrationWindow>,
    /// The format (every field optional, see `docs/tournaments.md`); the defaults when
    /// absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub config: Option<ConfigRequest>,
}

impl CreateTournamentRequest {
    /// The domain's `create` command.
    fn command(&self) -> Command {
        Command::Create {
            name: self.name.clone(),
            rules: self.rules.clone(),
            capacity: self.capacity,
            registration_window: self.registration_window.unwrap_or_default(),
            config: self.config.clone().unwrap_or_default(),
        }
    }
}

/// Creates a tournament with the caller as its organizer. Registration is not open
/// yet: the organizer opens it with the `open_registration` command.
#[utoipa::path(
    post,
    path = "/v1/tournaments",
    tag = "tournaments",
    security(("bearer" = [])),
    request_body = CreateTournamentRequest,
    params(("Idempotency-Key" = Option<String>, Header, description = "Retry safely: the same key gets the same answer")),
    responses(
        (status = 201, description = "Tournament created", body = TournamentSummary),
        (status = 403, description = "The account is neither organizer nor admin (`forbidden`)",
         body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "Malformed field (`validation_failed`), or refused by the \
         tournament rules: `bad_name`, `bad_rules`, `bad_config`, `bad_window`",
         body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn create(
    state: web::Data<AppState>,
    request: CommandRequest,
    body: web::Json<CreateTournamentRequest>,
) -> Result<HttpResponse, ApiError> {
    request.auth.require(Role::Organizer)?;
    super::commands::season_exists(&state, body.config.as_ref().and_then(|c| c.season)).await?;
    let command = body.command();
    let written = repo::create(&state.tournaments, request.mutation(&*body), &command).await?;
    tracing::info!(account_id = request.account().id, "tournament created");
    Ok(written.into())
}
