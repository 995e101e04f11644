//! Seasons (`docs/seasons.md`): the season model behind `/v1/seasons` (the HTTP side is
//! [`crate::http::routes::seasons`]; the rule is the domain's `yaniv_domain::season`).
//!
//! Each season is the stream `season-<id>`, written through the one stream repository
//! like a tournament ([`repo`]); the `seasons` table (migration `0024`) hands out ids
//! and keeps the name for the listing. The standings are folded from the season and
//! its members' streams whenever they are read ([`standings`]), never stored.

pub mod repo;
pub mod standings;

use yaniv_domain::aggregate::{DecodeError, StoredEvent};
use yaniv_domain::season::{Event, SeasonError};

use crate::error::ApiError;

/// Stream id of season `id`.
pub fn stream_id(id: i64) -> String {
    yaniv_domain::aggregate::stream_id::<yaniv_domain::season::Season>(id)
}

/// A refusal of the season rules as a problem document carrying its stable code.
pub fn refusal(error: &SeasonError) -> ApiError {
    crate::streams::refusal("Refused by the season", error)
}

/// Reads one stored event of a season stream.
pub fn decode(event_type: &str, payload: &str) -> Result<Event, DecodeError> {
    <Event as StoredEvent>::decode(event_type, payload)
}
