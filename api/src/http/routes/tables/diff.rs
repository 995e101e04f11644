//! `GET /v1/tables/{id}/diff?from=N&to=M`: what changed in a table between two
//! versions, for referees: the events in between and, per seat, the cards gained and
//! lost, hand totals and scores; the stock, the top throw, whose turn. The comparison of
//! the two game states is the rules engine's ([`yaniv_domain::game::diff`]).

use actix_web::{HttpResponse, web};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use yaniv_domain::game::{Game, GameDiff, describe, diff};
use yaniv_domain::record::{self, RecordPosition};
use yaniv_domain::table::{
    Table, describe_clock_event, describe_entropy_event, describe_table_events,
};

use super::with_etag;
use crate::app_state::AppState;
use crate::error::{ApiError, Problem};
use crate::http::auth::Authenticated;
use crate::tables;
use crate::visibility::SeenTable;

#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct DiffQuery {
    /// The earlier version (1 to the table's version, below `to`).
    pub from: u64,
    /// The later version (above `from`, at most the table's version; the version now
    /// by default).
    pub to: Option<u64>,
}

/// One event between the two versions.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct DiffEvent {
    pub version: u64,
    /// The event's type, as in `GET /v1/tables/{id}/events`.
    #[serde(rename = "type")]
    #[schema(example = "turn_played.v1")]
    pub event_type: String,
    /// The seat whose action the event records (game actions only).
    pub seat: Option<u8>,
    /// That seat's player.
    pub player: Option<String>,
    /// The event in words, players by name and every card of a game event named.
    #[schema(example = "bob threw QS QD and drew 3C from the stock")]
    pub summary: Option<String>,
}

/// What changed in a table from version `from` to version `to`.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct DiffView {
    pub from: u64,
    pub to: u64,
    /// The table's version now.
    pub version: u64,
    /// The last record action folded at `from` and at `to` (round and action from 1,
    /// as `GET /v1/tables/{id}/audit` takes them); `null` before a round's first action.
    pub record_position_from: Option<RecordPosition>,
    pub record_position_to: Option<RecordPosition>,
    /// Every event after `from` up to `to` included, in order (table, game and clock
    /// events).
    pub events: Vec<DiffEvent>,
    /// The game at `from` compared with the game at `to`.
    pub game: GameDiff,
}

/// Every event of `table` with a version in `from + 1 ..= table.version`, in order.
fn events_after(table: &Table, from: u64) -> Vec<DiffEvent> {
    let names = table.player_names();
    let event = |version: u64, event_type: &str, seat: Option<u8>| DiffEvent {
        version,
        event_type: event_type.to_owned(),
        seat,
        player: seat.and_then(|s| names.get(usize::from(s)).cloned()),
        summary: None,
    };
    let lifecycle = (1..)
        .zip(&table.table_events)
        .zip(describe_table_events(&table.table_events))
        .filter(|&((v, _), _)| v > from)
        .map(|((v, e), words)| DiffEvent {
            summary: Some(words),
            ..event(v, e.type_name(), None)
        });
    // Only the events after `from` are put in words.
    let game = table
        .game_versions
        .iter()
        .copied()
        .zip(&table.game_events)
        .skip(table.game_index_after(from))
        .map(|(v, e)| DiffEvent {
            summary: Some(describe(e, table.game.players())),
            ..event(v, e.type_name(), e.actor())
        });
    let clock = table
        .clock_versions
        .iter()
        .copied()
        .zip(&table.clock_events)
        .skip(table.clock_index_after(from))
        .map(|(v, e)| DiffEvent {
            summary: Some(describe_clock_event(e, &names)),
            ..event(v, e.type_name(), None)
        });
    let entropy = table
        .entropy_versions
        .iter()
        .copied()
        .zip(&table.entropy_events)
        .skip(table.entropy_index_after(from))
        .map(|(v, e)| DiffEvent {
            summary: Some(describe_entropy_event(e, &names)),
            ..event(v, e.type_name(), None)
        });
    let mut events: Vec<DiffEvent> = lifecycle.chain(game).chain(clock).chain(entropy).collect();
    events.sort_by_key(|e| e.version);
    events
}

/// What changed in the table from version `from` to version `to`: the events in
/// between, and per seat the cards gained and lost, hand sizes and totals, scores; the
/// stock, the top throw, the round's stage and whose turn it is. For the same callers
/// as the audit: a referee of the table or an admin, and up to a version in the round
/// still in play for the table's referees only.
#[utoipa::path(
    get,
    path = "/v1/tables/{id}/diff",
    operation_id = "table_diff",
    tag = "audit",
    security(("bearer" = [])),
    params(("id" = i64, Path, description = "Table id"), DiffQuery),
    responses(
        (status = 200, description = "What changed from `from` to `to`", body = DiffView),
        (status = 403, description = "Neither a referee of this table nor an admin, or `to` in the round still in play asked by an admin (`forbidden`)",
         body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such table (`not_found`)",
         body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`from` or `to` out of range, or `from` not below `to` (`validation_failed`)",
         body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn diff_versions(
    state: web::Data<AppState>,
    auth: Authenticated,
    path: web::Path<i64>,
    query: web::Query<DiffQuery>,
) -> Result<HttpResponse, ApiError> {
    let id = path.into_inner();
    let seen_now = SeenTable::read(&state, id, Some(&auth.account)).await?;
    seen_now.seen().require_inspector()?;
    let now = seen_now.table();
    let to = query.to.unwrap_or(now.version);
    if to == 0 || to > now.version {
        return Err(ApiError::invalid_field(
            "to",
            format!("must be 1 to {} (the table's version)", now.version),
        ));
    }
    if query.from == 0 || query.from >= to {
        return Err(ApiError::invalid_field(
            "from",
            format!("must be at least 1 and below `to` ({to})"),
        ));
    }
    seen_now.seen().require_inspection(to)?;
    // From the database, not the cache, as the audit: what is stored.
    let table = state
        .tables
        .load_fresh(id, Some(to))
        .await?
        .ok_or_else(|| tables::not_found(id))?;
    let before_events = &table.game_events[..table.game_index_after(query.from)];
    let before = Game::from_events(before_events);
    let answer = DiffView {
        from: query.from,
        to: table.version,
        version: now.version,
        record_position_from: record::last_position(before_events),
        record_position_to: record::last_position(&table.game_events),
        events: events_after(&table, query.from),
        game: diff(&before, &table.game),
    };
    tracing::info!(
        table = id,
        from = query.from,
        to,
        account_id = auth.account.id,
        "table diffed"
    );
    Ok(with_etag(HttpResponse::Ok().json(answer), now.version))
}
