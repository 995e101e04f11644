//! Where a table sits in a tournament: the address of a round and of a table, which a
//! tournament's events and a tournament's online game both name. Stages, rounds and
//! tables are numbered from 1, in the order they are played.

use std::fmt;

use serde::{Deserialize, Serialize};

/// One round of one stage.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct RoundRef {
    pub stage: u32,
    pub round: u32,
}

impl fmt::Display for RoundRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "stage {} round {}", self.stage, self.round)
    }
}

/// One table of one round.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct TableRef {
    pub stage: u32,
    pub round: u32,
    pub table: u32,
}

impl TableRef {
    pub fn round_ref(self) -> RoundRef {
        RoundRef {
            stage: self.stage,
            round: self.round,
        }
    }
}

impl fmt::Display for TableRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "stage {} round {} table {}",
            self.stage, self.round, self.table
        )
    }
}
