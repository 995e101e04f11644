//! `GET /v1/tables/{id}/audit?as_of=N` (or `?round=R&action=A`): the whole table after
//! its first N events, or right after action A of round R of its game record, with the
//! discard pile's history in the round.

use actix_web::{HttpResponse, web};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use yaniv_domain::game::{Deal, DiscardPile, Event as GameEvent, discard_pile};
use yaniv_domain::record::{self, PositionError, RecordPosition};

use super::dto::TableView;
use super::with_etag;
use crate::app_state::AppState;
use crate::error::{ApiError, FieldError, Problem};
use crate::http::auth::Authenticated;
use crate::tables;
use crate::visibility::SeenTable;
use yaniv_domain::table::Table;

#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct AuditQuery {
    /// Fold only the first `as_of` events (1 to the table's version; all by default).
    pub as_of: Option<u64>,
    /// With `action`, instead of `as_of`: the table right after that action of the game
    /// record. Rounds count from 1 in the order they were dealt (the round in play too).
    pub round: Option<u32>,
    /// With `round`: the action's place among the round's actions, from 1 (as the
    /// record lists them).
    pub action: Option<u32>,
}

/// The full state of a table at some version: every hand, the stock size, totals,
/// stage, and the seed of its round once that round is over.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct AuditView {
    /// Events folded.
    pub as_of: u64,
    /// The table's version now.
    pub version: u64,
    /// Type of the last event folded.
    pub last_event: String,
    /// The table as staff see it at `as_of` (`hands` holds every hand).
    pub view: TableView,
    /// Every seat's hand total at `as_of` (once started).
    pub hand_totals: Option<Vec<u32>>,
    /// Hex seed of the round in play at `as_of` (a round dealt from a seed), once that
    /// round is over; `null` while it is played, for everyone.
    pub seed: Option<String>,
    /// The last action of the game record folded at `as_of`: its round and its place in
    /// the round, both from 1 (what `round` and `action` take). `null` before the first
    /// action of a round.
    pub record_position: Option<RecordPosition>,
    /// Every throw of the round in play at `as_of` (or of the last round, between
    /// rounds), in order: who threw what at which version, what they drew, what was laid
    /// on it and taken from it. `null` before the first deal.
    pub discard_pile: Option<DiscardPile>,
}

/// The version the query asks for: `as_of`, or the version of record action
/// `(round, action)` of `now`'s game; 422 `validation_failed` naming the field.
fn requested_version(now: &Table, query: &AuditQuery) -> Result<u64, ApiError> {
    let position = match (query.as_of, query.round, query.action) {
        (Some(_), None, None) | (None, None, None) => None,
        (Some(_), round, action) => {
            let mut errors = vec![FieldError::new(
                "as_of",
                "give either `as_of` or `round` and `action`, not both",
            )];
            for (field, given) in [("round", round), ("action", action)] {
                if given.is_some() {
                    errors.push(FieldError::new(field, "not with `as_of`"));
                }
            }
            return Err(ApiError::Validation(errors));
        }
        (None, Some(_), None) => {
            return Err(ApiError::invalid_field("action", "required with `round`"));
        }
        (None, None, Some(_)) => {
            return Err(ApiError::invalid_field("round", "required with `action`"));
        }
        (None, Some(round), Some(action)) => Some(RecordPosition {
            round: round as usize,
            action: action as usize,
        }),
    };
    let Some(position) = position else {
        let as_of = query.as_of.unwrap_or(now.version);
        if as_of == 0 || as_of > now.version {
            return Err(ApiError::invalid_field(
                "as_of",
                format!("must be 1 to {} (the table's version)", now.version),
            ));
        }
        return Ok(as_of);
    };
    let index = record::action_index(&now.game_events, position).map_err(|e| match e {
        PositionError::NoSuchRound { .. } => ApiError::invalid_field("round", e.to_string()),
        PositionError::NoSuchAction { .. } => ApiError::invalid_field("action", e.to_string()),
    })?;
    now.game_versions.get(index).copied().ok_or_else(|| {
        ApiError::unexpected(
            "a table's game event without its version",
            format!("game event {index} of table {}", now.id),
        )
    })
}

/// The table after its first `as_of` events, or right after action `action` of round
/// `round` of its game record (both from 1), every hand shown, with the history of the
/// round's discard pile. For a referee of the table (an official of its tournament who
/// plays nowhere in it; outside tournaments, an account with the referee role) and
/// admins; a version in the round still in play for its referees only, and its seed
/// for nobody until the round is over.
#[utoipa::path(
    get,
    path = "/v1/tables/{id}/audit",
    operation_id = "table_as_of",
    tag = "audit",
    security(("bearer" = [])),
    params(("id" = i64, Path, description = "Table id"), AuditQuery),
    responses(
        (status = 200, description = "The table at `as_of` (or right after record action `round`, `action`)", body = AuditView),
        (status = 403, description = "Neither a referee of this table nor an admin, or a version in the round still in play asked by an admin (`forbidden`)",
         body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such table (`not_found`)",
         body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`as_of`, `round` or `action` out of range, `round` without `action` or the reverse, or `as_of` with them (`validation_failed`)",
         body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn audit(
    state: web::Data<AppState>,
    auth: Authenticated,
    path: web::Path<i64>,
    query: web::Query<AuditQuery>,
) -> Result<HttpResponse, ApiError> {
    let id = path.into_inner();
    let now = SeenTable::read(&state, id, Some(&auth.account)).await?;
    now.seen().require_inspector()?;
    let as_of = requested_version(now.table(), &query)?;
    now.seen().require_inspection(as_of)?;
    // From the database, not the cache: an audit looks at what is stored.
    let past = state
        .tables
        .load_fresh(id, Some(as_of))
        .await?
        .ok_or_else(|| tables::not_found(id))?;
    let seen = now.seen().inspecting(&past);
    let table = seen.table();
    let last_event = match (table.game_events.last(), table.table_events.last()) {
        (Some(e), _) => e.type_name(),
        (None, Some(e)) => e.type_name(),
        (None, None) => "",
    };
    // A round's seed is its own secret until it is over, a referee's eyes included.
    let seed = now
        .seen()
        .is_over_at(as_of)
        .then(|| {
            table.game_events.iter().rev().find_map(|e| match e {
                GameEvent::RoundDealt(dealt) => Some(match &dealt.deal {
                    Deal::Shuffled { seed, .. } => Some(seed.to_hex()),
                    Deal::Explicit { .. } => None,
                }),
                _ => None,
            })
        })
        .flatten()
        .flatten();
    let hand_totals = table.started.then(|| {
        (0..table.seats.len())
            .map(|s| {
                let hand = table.game.hand(u8::try_from(s).unwrap_or(u8::MAX));
                table.rules().hand_total(hand.as_slice())
            })
            .collect()
    });
    let answer = AuditView {
        as_of: table.version,
        version: now.table().version,
        last_event: last_event.to_owned(),
        view: TableView::of(seen),
        hand_totals,
        seed,
        record_position: record::last_position(&table.game_events),
        discard_pile: discard_pile(table.game_versions.iter().copied().zip(&table.game_events)),
    };
    tracing::info!(
        table = id,
        as_of,
        account_id = auth.account.id,
        "table audited"
    );
    Ok(with_etag(
        HttpResponse::Ok().json(answer),
        now.table().version,
    ))
}
