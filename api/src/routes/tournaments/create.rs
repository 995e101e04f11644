//! `POST /v1/tournaments`: create a tournament.

use actix_web::{HttpRequest, HttpResponse, web};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use utoipa::ToSchema;
use yaniv_domain::tournament::{Command, Context, Tournament};

use super::{TournamentSummary, mutation, now};
use crate::app_state::AppState;
use crate::auth::{Authenticated, Role};
use crate::error::{ApiError, Problem, from_serde_json};
use crate::idempotency::{IdempotencyKeyHeader, request_fingerprint};
use crate::request_id::RequestId;
use crate::tournaments::{refusal, repo};

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
    /// 1 to 100 characters.
    #[schema(example = "Belgian championship 2026")]
    pub name: String,
    /// The rules every game plays: `{"preset": ..., "overrides": {...}}`, resolved
    /// once and stored in full.
    #[schema(value_type = Object, example = json!({"preset": "belgian"}))]
    pub rules: Value,
    /// 2 to 100,000 players.
    #[schema(example = 64)]
    pub capacity: u32,
    /// `opens_at`, `closes_at` (seconds since the epoch, each optional): when players
    /// may register themselves.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Object>)]
    pub registration_window: Option<Value>,
    /// The format (every field optional, see `docs/tournaments.md`):
    /// `qualification_rounds`, `table_min`, `table_max`, `knockout_cut`
    /// (`"better_half"` or `{"top": n}`), `knockout_table_size`,
    /// `advance_per_table`, `final_table_max`, `tie_breaks`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Object>)]
    pub config: Option<Value>,
}

impl CreateTournamentRequest {
    /// The domain's `create` command.
    fn command(&self) -> Result<Command, ApiError> {
        let mut fields = Map::new();
        fields.insert("command".into(), "create".into());
        fields.insert("name".into(), self.name.clone().into());
        fields.insert("rules".into(), self.rules.clone());
        fields.insert("capacity".into(), self.capacity.into());
        if let Some(window) = &self.registration_window {
            fields.insert("registration_window".into(), window.clone());
        }
        if let Some(config) = &self.config {
            fields.insert("config".into(), config.clone());
        }
        serde_json::from_value(Value::Object(fields)).map_err(|e| from_serde_json(&e))
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
        (status = 401, description = "Missing, unknown or expired token",
         body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "The account is neither organizer nor admin (`forbidden`)",
         body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "Malformed field (`validation_failed`), or refused by the \
         tournament rules: `bad_name`, `bad_rules`, `bad_config`, `bad_window`",
         body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn create(
    state: web::Data<AppState>,
    auth: Authenticated,
    request_id: RequestId,
    key: IdempotencyKeyHeader,
    req: HttpRequest,
    body: web::Json<CreateTournamentRequest>,
) -> Result<HttpResponse, ApiError> {
    auth.require(Role::Organizer)?;
    let command = body.command()?;
    let ctx = Context::account(auth.account.id, now());
    let events = Tournament::new()
        .decide(&ctx, &command)
        .map_err(|e| refusal(&e))?;
    let fingerprint = request_fingerprint(&req, &*body);
    let mutation = mutation(&auth, &request_id, key.0, fingerprint);
    let response = repo::create(&state, mutation, events, |id, tournament| {
        serde_json::to_value(TournamentSummary::of(id, tournament)).unwrap_or_default()
    })
    .await?;
    tracing::info!(account_id = auth.account.id, "tournament created");
    Ok(response)
}
