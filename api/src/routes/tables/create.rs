//! `POST /v1/tables`: create a table.

use actix_web::{HttpRequest, HttpResponse, web};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use yaniv_domain::game::{Command, Game, GameError};
use yaniv_domain::rules::{RuleSpec, RulesError};

use super::dto::TableSummary;
use super::mutation;
use crate::auth::Authenticated;
use crate::error::{ApiError, FieldError, Problem};
use crate::idempotency::{IdempotencyKeyHeader, request_fingerprint};
use crate::request_id::RequestId;
use crate::startup::AppState;
use crate::tables::events::{AccountRef, BotKindName, BotSeat, TableCreated};
use crate::tables::repo;

/// Fewest and most seats of a table.
pub const SEATS: std::ops::RangeInclusive<i64> = 2..=8;

/// A new table: the rules (a preset and overrides), the number of seats, and which
/// seats the server's bots fill.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CreateTableRequest {
    /// `israeli`, `nepali`, `kluft`, `belgian`, `wikipedia` or `house`.
    #[schema(example = "belgian")]
    pub preset: String,
    /// Rule parameters overridden by name (see the rules engine's `Rules`); an
    /// unknown name or a bad value is a 422 naming `overrides.<name>`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Object>, example = json!({"call_threshold": 7}))]
    pub overrides: Option<serde_json::Map<String, serde_json::Value>>,
    /// 2 to 8, within what the rules seat.
    #[schema(example = 4)]
    pub seats: i64,
    /// Seats played by the server's bots; at least one seat stays for a human.
    #[serde(default)]
    pub bots: Vec<BotSeatRequest>,
}

/// A seat for a bot.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct BotSeatRequest {
    /// From 0.
    #[schema(example = 3)]
    pub seat: i64,
    /// `greedy` or `random`.
    #[schema(example = "greedy")]
    pub kind: String,
}

/// Where a rules error belongs in the request.
fn rules_field(error: &RulesError) -> String {
    match error.parameter() {
        None => "preset".into(),
        Some("rules") => "overrides".into(),
        Some(name) => format!("overrides.{name}"),
    }
}

/// The table the request describes, or every invalid field.
fn validate(request: &CreateTableRequest, auth: &Authenticated) -> Result<TableCreated, ApiError> {
    let mut errors = Vec::new();
    let spec = RuleSpec {
        preset: request.preset.clone(),
        overrides: request.overrides.clone().unwrap_or_default(),
    };
    let rules = spec
        .resolve()
        .map_err(|e| errors.push(FieldError::new(rules_field(&e), e.to_string())))
        .ok();
    let seats = if SEATS.contains(&request.seats) {
        u8::try_from(request.seats).ok()
    } else {
        errors.push(FieldError::new("seats", "must be 2 to 8"));
        None
    };
    if let (Some(rules), Some(seats)) = (&rules, seats) {
        // The rules engine says how many players these rules seat.
        let players = (0..seats).map(|i| format!("seat {i}")).collect();
        match Game::new().decide(&Command::Create {
            rules: rules.clone(),
            players,
            initial_totals: Vec::new(),
        }) {
            Ok(_) => {}
            Err(GameError::BadPlayers(message)) => errors.push(FieldError::new("seats", message)),
            Err(GameError::BadRules(e)) => {
                errors.push(FieldError::new(rules_field(&e), e.to_string()))
            }
            Err(other) => errors.push(FieldError::new("body", other.to_string())),
        }
    }
    let mut bots: Vec<BotSeat> = Vec::new();
    for (i, bot) in request.bots.iter().enumerate() {
        let kind = match bot.kind.as_str() {
            "greedy" => Some(BotKindName::Greedy),
            "random" => Some(BotKindName::Random),
            _ => {
                errors.push(FieldError::new(
                    format!("bots[{i}].kind"),
                    "must be greedy or random",
                ));
                None
            }
        };
        let seat = match (u8::try_from(bot.seat), seats) {
            (Ok(seat), Some(seats)) if seat < seats => {
                if bots.iter().any(|b| b.seat == seat) {
                    errors.push(FieldError::new(
                        format!("bots[{i}].seat"),
                        "seat given twice",
                    ));
                    None
                } else {
                    Some(seat)
                }
            }
            (_, Some(seats)) => {
                errors.push(FieldError::new(
                    format!("bots[{i}].seat"),
                    format!("must be a seat from 0 to {}", seats - 1),
                ));
                None
            }
            (_, None) => None,
        };
        if let (Some(seat), Some(kind)) = (seat, kind) {
            bots.push(BotSeat {
                seat,
                kind,
                name: format!("{}#{}", kind.as_str(), u16::from(seat) + 1),
            });
        }
    }
    if seats.is_some_and(|s| request.bots.len() >= usize::from(s)) {
        errors.push(FieldError::new(
            "bots",
            "at least one seat must stay for a human player",
        ));
    }
    match (rules, seats) {
        (Some(effective_rules), Some(seats)) if errors.is_empty() => {
            bots.sort_by_key(|b| b.seat);
            Ok(TableCreated {
                rules: spec,
                effective_rules,
                seats,
                bots,
                created_by: AccountRef {
                    account_id: auth.account.id,
                    username: auth.account.username.clone(),
                },
                tournament: None,
            })
        }
        _ => Err(ApiError::Validation(errors)),
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
        (status = 401, description = "Missing, unknown or expired token",
         body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "Invalid field (`validation_failed`): unknown preset, bad \
         override (`overrides.<name>`), seats out of range for the rules, bad bot seat or kind",
         body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn create(
    state: web::Data<AppState>,
    auth: Authenticated,
    request_id: RequestId,
    key: IdempotencyKeyHeader,
    req: HttpRequest,
    body: web::Json<CreateTableRequest>,
) -> Result<HttpResponse, ApiError> {
    let created = validate(&body, &auth)?;
    let fingerprint = request_fingerprint(&req, &*body);
    let mutation = mutation(&auth, &request_id, key.0, fingerprint, None);
    let response = repo::create(&state, mutation, created, |table| {
        serde_json::to_value(TableSummary::of(table)).unwrap_or_default()
    })
    .await?;
    tracing::info!(account_id = auth.account.id, "table created");
    Ok(response)
}
