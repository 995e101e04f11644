//! What an organizer sends a season, tagged by `command` like a tournament's commands.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(tag = "command", rename_all = "snake_case", deny_unknown_fields)]
pub enum Command {
    /// A new season; the sender is its organizer.
    Create {
        name: String,
        points: Vec<u32>,
        #[serde(default)]
        best: Option<u32>,
    },
    /// A new name, scale and count, all three at once.
    Configure {
        name: String,
        points: Vec<u32>,
        #[serde(default)]
        best: Option<u32>,
    },
    AddTournament {
        tournament: i64,
    },
    RemoveTournament {
        tournament: i64,
    },
}
