//! What officials did by hand to the results, listed for review: results entered,
//! corrected or voided, and players disqualified, with who did it, why and at which
//! version of the tournament's stream.
//!
//! A result an online game reports itself is not an intervention; the same result
//! typed in by a person is, and is marked `online` when the table had a game that
//! could have reported it: the entries a reviewer looks at first.

use serde::Serialize;

use super::Tournament;
use super::event::Event;
use super::refs::{AccountId, Actor, TableRef};

/// What kind of act.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum InterventionKind {
    ResultEntered,
    ResultCorrected,
    GameVoided,
    PlayerDisqualified,
}

/// One act, as its event records it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Intervention {
    /// Version of the tournament's stream at which it was recorded.
    pub version: u64,
    pub kind: InterventionKind,
    /// The table it concerns (not for a disqualification).
    pub table: Option<TableRef>,
    /// The player it concerns (a disqualification only).
    pub player: Option<AccountId>,
    /// The table had an online game, which reports its own result.
    pub online: bool,
    pub by: Actor,
    /// Why, in the official's words (always given, except for a paper table's result).
    pub reason: Option<String>,
}

impl Tournament {
    /// Every intervention, oldest first.
    pub fn interventions(&self) -> Vec<Intervention> {
        let mut online_tables: Vec<TableRef> = Vec::new();
        let mut found = Vec::new();
        for (index, event) in self.events().iter().enumerate() {
            let version = index as u64 + 1;
            let at = |kind, table: TableRef, by, reason: Option<&String>| Intervention {
                version,
                kind,
                table: Some(table),
                player: None,
                online: online_tables.contains(&table),
                by,
                reason: reason.cloned(),
            };
            match event {
                Event::TableGameStarted(e) if e.game.is_some() => online_tables.push(e.table),
                Event::ResultRecorded(e) if e.by != Actor::Server => found.push(at(
                    InterventionKind::ResultEntered,
                    e.table,
                    e.by,
                    e.reason.as_ref(),
                )),
                Event::ResultCorrected(e) => found.push(at(
                    InterventionKind::ResultCorrected,
                    e.table,
                    e.by,
                    Some(&e.reason),
                )),
                Event::GameVoided(e) => found.push(at(
                    InterventionKind::GameVoided,
                    e.table,
                    e.by,
                    Some(&e.reason),
                )),
                Event::PlayerDisqualified(e) => found.push(Intervention {
                    version,
                    kind: InterventionKind::PlayerDisqualified,
                    table: None,
                    player: Some(e.player),
                    online: false,
                    by: e.by,
                    reason: Some(e.reason.clone()),
                }),
                _ => {}
            }
        }
        found
    }
}
