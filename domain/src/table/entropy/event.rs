//! The events of player entropy in a table's stream. Like every stored event, their
//! payload is the compact JSON including the `type` tag, and a change is a `.v2`.

use serde::{Deserialize, Serialize};

use crate::game::Seat;
use crate::shuffle::{Commitment, Contribution, Seed};

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(tag = "type")]
pub enum EntropyEvent {
    #[serde(rename = "deal_seed_committed.v1")]
    SeedCommitted(DealSeedCommitted),
    #[serde(rename = "entropy_contributed.v1")]
    Contributed(EntropyContributed),
}

impl EntropyEvent {
    /// Every type name, as stored in the `event_type` column.
    pub const TYPES: [&'static str; 2] = ["deal_seed_committed.v1", "entropy_contributed.v1"];

    pub fn type_name(&self) -> &'static str {
        match self {
            Self::SeedCommitted(_) => Self::TYPES[0],
            Self::Contributed(_) => Self::TYPES[1],
        }
    }

    /// The round the event prepares.
    pub fn round(&self) -> u32 {
        match self {
            Self::SeedCommitted(e) => e.round,
            Self::Contributed(e) => e.round,
        }
    }
}

/// The server drew its secret seed for the deal of `round` and commits to it. Players
/// see the commitment; the seed only once the round is over.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct DealSeedCommitted {
    pub round: u32,
    /// How the deal seed is made from this seed and the contributions
    /// (`yaniv-player-entropy/1`).
    pub procedure: String,
    /// SHA-256 of `seed`.
    pub commitment: Commitment,
    /// `null` where the viewer may not see it yet (the round is not over).
    #[cfg_attr(feature = "openapi", schema(value_type = Option<Seed>))]
    pub seed: Seed,
}

/// A seat's contribution to the deal seed of `round`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct EntropyContributed {
    pub round: u32,
    pub seat: Seat,
    /// The 32 bytes the player sent; `null` for the default (32 zero bytes) when the
    /// seat's clock ran out or the seat was absent.
    pub value: Option<Contribution>,
}
