//! The `?after=N&limit=M` query of every event-list endpoint (tables, tournaments).

use serde::Deserialize;
use utoipa::IntoParams;

use crate::error::ApiError;

/// Events per page unless `limit` says otherwise, and the most it may say.
pub const DEFAULT_LIMIT: u32 = 500;
pub const MAX_LIMIT: u32 = 1000;

#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct EventsQuery {
    /// Only events with a version above this one (0, the default, for all).
    #[param(minimum = 0)]
    pub after: Option<u64>,
    /// 1 to 1000 (default 500).
    #[param(minimum = 1, maximum = 1000)]
    pub limit: Option<u32>,
}

impl EventsQuery {
    /// `(after, limit)` with the defaults applied; a `limit` out of range is a 422 naming it.
    pub fn bounds(&self) -> Result<(u64, u32), ApiError> {
        let limit = self.limit.unwrap_or(DEFAULT_LIMIT);
        if !(1..=MAX_LIMIT).contains(&limit) {
            return Err(ApiError::invalid_field("limit", "must be 1 to 1000"));
        }
        Ok((self.after.unwrap_or(0), limit))
    }
}
