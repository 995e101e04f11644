//! What officials did by hand to the results, the seatings and the players, listed for
//! review: results entered, corrected or voided, no-shows, rounds redrawn (with the
//! seating each replaced), players disqualified or withdrawn by someone else, with who
//! did it, why and at which version of the tournament's stream.
//!
//! A result an online game reports itself is not an intervention; the same result
//! typed in by a person is, and is marked `online` when the table had a game that
//! could have reported it: the entries a reviewer looks at first.

use serde::Serialize;

use super::Tournament;
use super::event::{Event, ReplacedSeating};
use super::refs::{AccountId, Actor, RoundRef, TableRef};

/// What kind of act.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum InterventionKind {
    ResultEntered,
    ResultCorrected,
    GameVoided,
    NoShowRecorded,
    RoundRedrawn,
    PlayerDisqualified,
    /// A player taken out of the tournament by someone else (an organizer).
    PlayerWithdrawn,
}

/// One act, as its event records it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Intervention {
    /// Version of the tournament's stream at which it was recorded.
    pub version: u64,
    pub kind: InterventionKind,
    /// The table it concerns (results, voids, no-shows).
    pub table: Option<TableRef>,
    /// The round it concerns (a redraw).
    pub round: Option<RoundRef>,
    /// The player it concerns (a no-show, a disqualification, a withdrawal).
    pub player: Option<AccountId>,
    /// The table had an online game, which reports its own result.
    pub online: bool,
    pub by: Actor,
    /// Why, in the official's words (always given, except for a paper table's result
    /// and a withdrawal).
    pub reason: Option<String>,
    /// A redraw: the seating it replaced (`null` for redraws stored before it was
    /// recorded).
    pub replaced: Option<ReplacedSeating>,
}

impl Tournament {
    /// Every intervention, oldest first.
    pub fn interventions(&self) -> Vec<Intervention> {
        let mut online_tables: Vec<TableRef> = Vec::new();
        let mut found = Vec::new();
        for (index, event) in self.events().iter().enumerate() {
            let version = index as u64 + 1;
            let entry = |kind, by, reason: Option<&String>| Intervention {
                version,
                kind,
                table: None,
                round: None,
                player: None,
                online: false,
                by,
                reason: reason.cloned(),
                replaced: None,
            };
            let at = |kind, table: TableRef, by, reason: Option<&String>| Intervention {
                table: Some(table),
                online: online_tables.contains(&table),
                ..entry(kind, by, reason)
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
                Event::NoShowRecorded(e) => found.push(Intervention {
                    player: Some(e.player),
                    ..at(
                        InterventionKind::NoShowRecorded,
                        e.table,
                        e.by,
                        Some(&e.reason),
                    )
                }),
                // Before redraws recorded who made them, only the organizer could.
                Event::RoundRedrawn(e) => found.push(Intervention {
                    round: Some(e.round_ref()),
                    replaced: e.replaced.clone(),
                    ..entry(
                        InterventionKind::RoundRedrawn,
                        e.by.unwrap_or(self.organizer()),
                        e.reason.as_ref(),
                    )
                }),
                Event::PlayerDisqualified(e) => found.push(Intervention {
                    player: Some(e.player),
                    ..entry(InterventionKind::PlayerDisqualified, e.by, Some(&e.reason))
                }),
                Event::PlayerWithdrew(e) if e.by != Actor::Account(e.player) => {
                    found.push(Intervention {
                        player: Some(e.player),
                        ..entry(InterventionKind::PlayerWithdrawn, e.by, None)
                    })
                }
                _ => {}
            }
        }
        found
    }

    /// The organizer the stream names (the server for a stream not yet created).
    fn organizer(&self) -> Actor {
        self.state()
            .info
            .as_ref()
            .map_or(Actor::Server, |i| Actor::Account(i.organizer))
    }
}
