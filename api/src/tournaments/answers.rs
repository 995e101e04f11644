//! What tournament writes answer with, and the reads share: the tournament at a
//! glance, the events a write appended, the online tables it opened. A write's answer
//! is decided inside its transaction (it is what a retry with the same
//! `Idempotency-Key` gets back), so it is built here, beside the writes.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use yaniv_domain::tournament::{Event, TableRef, Tournament, TournamentView};

use crate::error::ApiError;

/// A tournament at a glance.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct TournamentSummary {
    pub id: i64,
    /// The stream's version (also the `ETag`), or `as_of` when the read asked for
    /// an earlier one.
    pub version: u64,
    pub tournament: TournamentView,
}

impl TournamentSummary {
    pub fn of(id: i64, tournament: &Tournament) -> Result<TournamentSummary, ApiError> {
        Ok(TournamentSummary {
            id,
            version: tournament.version(),
            tournament: view(tournament)?,
        })
    }
}

/// The tournament at a glance; every stream the server reads begins with its creation,
/// so a missing view means a broken stream, not a bad request.
pub fn view(tournament: &Tournament) -> Result<TournamentView, ApiError> {
    tournament
        .view()
        .ok_or_else(|| ApiError::unexpected("viewing a tournament", "no tournament_created.v1"))
}

/// One stored event of a tournament.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct TournamentEvent {
    /// Its version in the tournament's stream.
    pub version: u64,
    /// `tournament_created.v1`, `player_registered.v1`, `round_drawn.v1`, ...
    #[serde(rename = "type")]
    #[schema(example = "round_drawn.v1")]
    pub event_type: String,
    /// The event's JSON, with its `type` tag.
    pub payload: Event,
}

impl TournamentEvent {
    /// The last `events` appended to `tournament`, numbered by their versions.
    pub fn appended(tournament: &Tournament, events: &[Event]) -> Vec<TournamentEvent> {
        let first = (tournament.version() + 1).saturating_sub(events.len() as u64);
        (first..)
            .zip(events)
            .map(|(version, event)| TournamentEvent {
                version,
                event_type: event.type_name().to_owned(),
                payload: event.clone(),
            })
            .collect()
    }
}

/// What a command did.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct CommandResponse {
    pub id: i64,
    /// The stream's version after the command.
    pub version: u64,
    /// The events it appended, in order.
    pub events: Vec<TournamentEvent>,
    /// The tournament after them.
    pub tournament: TournamentView,
}

/// What a draw did.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct DrawResponse {
    pub id: i64,
    /// The stream's version after the draw.
    pub version: u64,
    /// The events appended: the draw, one `table_game_started.v1` per online table,
    /// and the server's commitment to the next draw's seed.
    pub events: Vec<TournamentEvent>,
    /// The tournament after them.
    pub tournament: TournamentView,
    /// The online game tables created, one per drawn table not played on paper.
    pub online_tables: Vec<OnlineTableBody>,
}

/// A drawn table and the game table that plays it online.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct OnlineTableBody {
    pub table: TableRef,
    /// Its id under `/v1/tables/{id}`.
    pub game_table: i64,
    /// The stream's version after it started (only in the answer of
    /// `.../online`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<u64>,
}

/// What the decision did.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct NoShowResponse {
    pub id: i64,
    pub version: u64,
    /// `game_voided.v1` when a game was already dealt, `no_show_recorded.v1`, and
    /// `table_game_started.v1` for the new online game.
    pub events: Vec<TournamentEvent>,
    pub tournament: TournamentView,
    /// The new game table of the players who came, when the table is played online.
    pub online_table: Option<OnlineTableBody>,
}
