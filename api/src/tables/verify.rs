//! Verifying a table's stream: the hash chain, recomputed from the stored bytes,
//! and the game, replayed through the rules.
//!
//! The two checks catch different things. Someone who edits a row behind the
//! server's back (with the append-only trigger disabled) breaks the hash chain at
//! that row. Someone who also recomputes every later hash keeps the chain intact,
//! but the game they wrote must still be one the rules produce: every game event is
//! decided again from the state before it (`Game::replay_checked`), so an
//! impossible throw, a changed deal or a rewritten score is caught at the first
//! event that does not follow.

use serde::Serialize;
use utoipa::ToSchema;
use yaniv_domain::game::{Event as GameEvent, Game};

use crate::store::RecordedEvent;
use crate::store::hash::{ChainBreak, ChainStatus};
use yaniv_domain::table::{StreamEvent, Table, TableEvent, decode};

/// The first event that does not check out.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct VerifyFailure {
    /// Stream version of the event.
    #[schema(example = 17)]
    pub version: u64,
    /// Why, in English.
    pub reason: String,
    /// Stable code: `hash_mismatch`, `prev_hash_mismatch`, `version_gap` (the hash
    /// chain); `undecodable_event`, `unexpected_event`, `table_mismatch` (the
    /// stream's structure); or the rules engine's code (`card_not_in_hand`,
    /// `event_mismatch`, `illegal_throw`, ...).
    #[schema(example = "card_not_in_hand")]
    pub code: String,
}

/// The verdict of one of the two checks.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct CheckReport {
    pub ok: bool,
    pub first_failure: Option<VerifyFailure>,
}

/// `POST /v1/tables/{id}/verify`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct Verification {
    /// Both checks passed.
    pub ok: bool,
    /// Events in the stream.
    pub events: u64,
    /// The earlier of the two checks' first failures.
    pub first_failure: Option<VerifyFailure>,
    /// The hash chain, recomputed from the stored bytes.
    pub chain: CheckReport,
    /// The stream replayed: structure, then every game event re-decided by the rules.
    pub replay: CheckReport,
    /// Hex SHA-256 of the last event when the chain is intact.
    pub head_hash: Option<String>,
}

fn failure(version: u64, code: &str, reason: impl Into<String>) -> VerifyFailure {
    VerifyFailure {
        version,
        reason: reason.into(),
        code: code.to_owned(),
    }
}

fn report(failure: Option<VerifyFailure>) -> CheckReport {
    CheckReport {
        ok: failure.is_none(),
        first_failure: failure,
    }
}

/// The chain's verdict.
pub fn chain_report(status: &ChainStatus) -> (CheckReport, Option<String>) {
    match status {
        ChainStatus::Intact { head, .. } => (report(None), head.map(hex::encode)),
        ChainStatus::Broken { version, reason } => {
            let (code, text) = match reason {
                ChainBreak::VersionGap => ("version_gap", "a version is missing or repeated"),
                ChainBreak::PrevHashMismatch => (
                    "prev_hash_mismatch",
                    "the event does not point at the previous event's hash",
                ),
                ChainBreak::HashMismatch => (
                    "hash_mismatch",
                    "the stored hash is not the hash of the stored event: it was changed",
                ),
            };
            (report(Some(failure(*version, code, text))), None)
        }
    }
}

/// Replays a table's stored events: decodes each, checks the table's structure,
/// then re-decides every game event with the rules.
pub fn replay_report(id: i64, events: &[RecordedEvent]) -> CheckReport {
    report(first_replay_failure(id, events))
}

fn first_replay_failure(id: i64, events: &[RecordedEvent]) -> Option<VerifyFailure> {
    let mut table: Option<Table> = None;
    let mut game_events: Vec<GameEvent> = Vec::new();
    let mut game_versions: Vec<u64> = Vec::new();
    let mut started_players: Option<Vec<String>> = None;
    for (index, recorded) in events.iter().enumerate() {
        let version = index as u64 + 1;
        let event = match decode(&recorded.event_type, &recorded.payload) {
            Ok(event) => event,
            Err(e) => return Some(failure(version, "undecodable_event", e.to_string())),
        };
        match event {
            StreamEvent::Table(table_event) => {
                if let TableEvent::Started(started) = &table_event {
                    let seated = table.as_ref().map(Table::player_names);
                    if seated.as_ref() != Some(&started.players)
                        || started.players.iter().any(String::is_empty)
                    {
                        return Some(failure(
                            version,
                            "table_mismatch",
                            "the players named at the start are not the ones seated",
                        ));
                    }
                    started_players = Some(started.players.clone());
                }
                let event = StreamEvent::Table(table_event);
                let applied = match &mut table {
                    Some(state) => state.apply(event).map_err(|e| e.to_string()),
                    None => Table::fold(id, [event])
                        .map(|state| table = state)
                        .map_err(|e| e.to_string()),
                };
                if let Err(reason) = applied {
                    return Some(failure(version, "unexpected_event", reason));
                }
            }
            StreamEvent::Game(game_event) => {
                let Some(players) = &started_players else {
                    return Some(failure(
                        version,
                        "unexpected_event",
                        format!("{} before the table started", game_event.type_name()),
                    ));
                };
                if game_events.is_empty() {
                    let matches = match (&game_event, &table) {
                        (GameEvent::GameCreated(created), Some(table)) => {
                            &created.players == players && &created.rules == table.rules()
                        }
                        _ => false,
                    };
                    if !matches {
                        return Some(failure(
                            version,
                            "table_mismatch",
                            "the game must be created with the table's players and rules",
                        ));
                    }
                }
                game_events.push(game_event);
                game_versions.push(version);
            }
        }
    }
    match Game::replay_checked(&game_events) {
        Ok(_) => None,
        Err((index, error)) => {
            let version = game_versions.get(index).copied().unwrap_or(0);
            Some(failure(version, error.code(), error.to_string()))
        }
    }
}

/// Both verdicts combined.
pub fn combine(events: u64, chain: &ChainStatus, replay: CheckReport) -> Verification {
    let (chain, head_hash) = chain_report(chain);
    let first_failure = [&chain.first_failure, &replay.first_failure]
        .into_iter()
        .flatten()
        .min_by_key(|f| f.version)
        .cloned();
    Verification {
        ok: chain.ok && replay.ok,
        events,
        first_failure,
        chain,
        replay,
        head_hash,
    }
}
