//! The events of a season's stream (`docs/seasons.md` section 1).

use serde::{Deserialize, Serialize};

use crate::aggregate::{DecodeError, StoredEvent};
use crate::tournament::Actor;

use super::scoring::Scoring;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(tag = "type")]
pub enum Event {
    #[serde(rename = "season_created.v1")]
    Created(SeasonConfigured),
    #[serde(rename = "season_configured.v1")]
    Configured(SeasonConfigured),
    #[serde(rename = "season_tournament_added.v1")]
    TournamentAdded(SeasonMemberChanged),
    #[serde(rename = "season_tournament_removed.v1")]
    TournamentRemoved(SeasonMemberChanged),
}

impl Event {
    /// Every type name, as stored in the `event_type` column.
    pub const TYPES: [&'static str; 4] = [
        "season_created.v1",
        "season_configured.v1",
        "season_tournament_added.v1",
        "season_tournament_removed.v1",
    ];

    pub fn type_name(&self) -> &'static str {
        match self {
            Event::Created(_) => Self::TYPES[0],
            Event::Configured(_) => Self::TYPES[1],
            Event::TournamentAdded(_) => Self::TYPES[2],
            Event::TournamentRemoved(_) => Self::TYPES[3],
        }
    }
}

impl StoredEvent for Event {
    fn type_name(&self) -> &'static str {
        Event::type_name(self)
    }

    fn decode(event_type: &str, payload: &str) -> Result<Self, DecodeError> {
        let event: Event =
            serde_json::from_str(payload).map_err(|e| DecodeError::payload(event_type, &e))?;
        DecodeError::check_type(event_type, event.type_name())?;
        Ok(event)
    }
}

/// The season's name, scale and count, as created or as changed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct SeasonConfigured {
    pub name: String,
    /// Points of places 1, 2, 3, ...
    pub points: Vec<u32>,
    /// How many results count; absent: all.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub best: Option<u32>,
    pub by: Actor,
}

impl SeasonConfigured {
    pub fn scoring(&self) -> Scoring {
        Scoring {
            points: self.points.clone(),
            best: self.best,
        }
    }
}

/// A tournament joined or left the series.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct SeasonMemberChanged {
    pub tournament: i64,
    pub by: Actor,
}
