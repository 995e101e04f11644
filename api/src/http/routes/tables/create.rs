//! `POST /v1/tables`: create a table.

use actix_web::{HttpResponse, web};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use yaniv_domain::aggregate::Aggregate;
use yaniv_domain::rules::RuleSpec;
use yaniv_domain::table::clock::Clock;
use yaniv_domain::table::{BotKindName, NewTable, Table, TableCommand, TableError, TableServices};

use super::dto::TableSummary;
use crate::app_state::AppState;
use crate::error::{ApiError, FieldError, Problem};
use crate::http::routes::command::CommandRequest;
use crate::streams::json_answer;
use crate::tables::write::table_refusal;
use crate::tables::{self, os_random::OsRandom};

/// A new table: the rules (a preset and overrides), the number of seats, and which
/// seats the server's bots fill.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CreateTableRequest {
    /// `israeli`, `nepali`, `kluft`, `belgian`, `wikipedia` or `house`.
    #[schema(value_type = yaniv_domain::rules::Preset, example = "belgian")]
    pub preset: String,
    /// Rule parameters overridden by name (see the rules engine's `Rules`); an
    /// unknown name or a bad value is a 422 naming `overrides.<name>`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<yaniv_domain::rules::RuleOverrides>, example = json!({"call_threshold": 7}))]
    pub overrides: Option<serde_json::Map<String, serde_json::Value>>,
    /// 2 to 8, within what the rules seat.
    #[schema(minimum = 2, maximum = 8, example = 4)]
    pub seats: i64,
    /// Seats played by the server's bots; at least one seat stays for a human.
    #[serde(default)]
    pub bots: Vec<BotSeatRequest>,
    /// The table's clock (see `docs/live.md`); without one the table waits for its
    /// players forever.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(example = json!({"turn_ms": 30000, "decision_ms": 15000, "window_ms": 3000, "absent_after": 2}))]
    pub clock: Option<Clock>,
    /// Player entropy (see `docs/verification.md`): before each deal the server
    /// commits to its seed, every human seat sends 32 bytes of its own (a
    /// `contribute` action), and the deal's seed mixes them all, so neither the
    /// operator nor any one player chooses a deal. `false` by default.
    #[serde(default)]
    pub player_entropy: bool,
    /// The finished game counts towards the rating list (`docs/ratings.md` section 4):
    /// the human seats only, and only with two humans or more. Only an organizer may
    /// ask for it (`403 forbidden` otherwise). `false` by default.
    #[serde(default)]
    pub rated: bool,
}

/// A seat for a bot.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct BotSeatRequest {
    /// From 0.
    #[schema(minimum = 0, maximum = 7, example = 3)]
    pub seat: i64,
    /// `greedy` or `random`.
    #[schema(value_type = BotKindName, example = "greedy")]
    pub kind: String,
}

impl TryFrom<&CreateTableRequest> for NewTable {
    type Error = ApiError;

    /// The request as the table's command. Numbers out of every table's range are
    /// passed on as such (the table names the range); only what has no meaning at all
    /// (an unknown bot kind) is refused here.
    fn try_from(request: &CreateTableRequest) -> Result<Self, ApiError> {
        let out_of_range = |n: i64| u8::try_from(n).unwrap_or(u8::MAX);
        let mut errors = Vec::new();
        let mut bots = Vec::new();
        for (i, bot) in request.bots.iter().enumerate() {
            match BotKindName::parse(&bot.kind) {
                Some(kind) => bots.push((out_of_range(bot.seat), kind)),
                None => errors.push(FieldError::new(
                    format!("bots[{i}].kind"),
                    "must be greedy or random",
                )),
            }
        }
        if !errors.is_empty() {
            return Err(ApiError::Validation(errors));
        }
        Ok(NewTable {
            rules: RuleSpec {
                preset: request.preset.clone(),
                overrides: request.overrides.clone().unwrap_or_default(),
            },
            seats: out_of_range(request.seats),
            bots,
            clock: request.clock,
            player_entropy: request.player_entropy,
            rated: request.rated,
        })
    }
}

/// A table's setup refused field by field, as a validation problem.
fn setup_refused(error: TableError) -> ApiError {
    match error {
        TableError::BadSetup(problems) => ApiError::Validation(
            problems
                .into_iter()
                .map(|p| FieldError::new(p.field, p.message))
                .collect(),
        ),
        other => table_refusal(&other),
    }
}

/// Creates a table. Nobody sits at it yet but its bots: the creator joins like
/// everyone else.
#[utoipa::path(
    post,
    path = "/v1/tables",
    tag = "tables",
    security(("bearer" = [])),
    request_body = CreateTableRequest,
    params(("Idempotency-Key" = Option<String>, Header, description = "Retry safely: the same key gets the same answer")),
    responses(
        (status = 201, description = "Table created", body = TableSummary),
        (status = 422, description = "Invalid field (`validation_failed`): unknown preset, bad \
         override (`overrides.<name>`), seats out of range for the rules, bad bot seat or kind",
         body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "`rated` asked for by an account without the organizer role (`forbidden`)",
         body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn create(
    state: web::Data<AppState>,
    request: CommandRequest,
    body: web::Json<CreateTableRequest>,
) -> Result<HttpResponse, ApiError> {
    let command = TableCommand::Create(NewTable::try_from(&*body)?);
    let actor = tables::actor(request.account());
    let create = || {
        let mut services = TableServices {
            actor: &actor,
            random: &mut OsRandom,
        };
        Table::create(0, &command, &mut services).map_err(setup_refused)
    };
    let answer = |_, table: &Table| json_answer(&TableSummary::of(table));
    let response = state
        .tables
        .create(request.mutation(&*body), create, answer)
        .await?;
    tracing::info!(account_id = actor.account_id, "table created");
    Ok(response.into())
}
