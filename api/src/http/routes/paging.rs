//! The `?after=N&limit=M` query of every event-list endpoint (tables, tournaments).

use serde::Deserialize;
use utoipa::IntoParams;

use crate::error::ApiError;

/// Events per page unless `limit` says otherwise, and the most it may say.
pub const DEFAULT_LIMIT: u32 = 500;
pub const MAX_LIMIT: u32 = 1000;

/// The largest `after`: versions are PostgreSQL `bigint`s, so no stream goes past it.
pub const MAX_AFTER: u64 = i64::MAX.unsigned_abs();

#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct EventsQuery {
    /// Only events with a version above this one (0, the default, for all).
    #[param(minimum = 0, maximum = 9_223_372_036_854_775_807_u64)]
    pub after: Option<u64>,
    /// 1 to 1000 (default 500).
    #[param(minimum = 1, maximum = 1000)]
    pub limit: Option<u32>,
}

impl EventsQuery {
    /// `(after, limit)` with the defaults applied; either out of range is a 422 naming it.
    pub fn bounds(&self) -> Result<(u64, u32), ApiError> {
        let limit = self.limit.unwrap_or(DEFAULT_LIMIT);
        if !(1..=MAX_LIMIT).contains(&limit) {
            return Err(ApiError::invalid_field("limit", "must be 1 to 1000"));
        }
        let after = self.after.unwrap_or(0);
        // The document says `int64`: a client that sends more gets told so, instead of
        // an empty page whose `next_after` jumps back to the head.
        if after > MAX_AFTER {
            return Err(ApiError::invalid_field(
                "after",
                format!("must be 0 to {MAX_AFTER}"),
            ));
        }
        Ok((after, limit))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bounds(after: Option<u64>, limit: Option<u32>) -> Result<(u64, u32), ApiError> {
        EventsQuery { after, limit }.bounds()
    }

    /// Schemathesis sent `after=9223372036854775808`, past the documented `int64`, and
    /// got a 200: the server now refuses what the document does not allow.
    #[test]
    fn after_stays_within_the_documented_int64() {
        assert_eq!(bounds(None, None).ok(), Some((0, DEFAULT_LIMIT)));
        assert_eq!(bounds(Some(MAX_AFTER), Some(1)).ok(), Some((MAX_AFTER, 1)));
        let Err(ApiError::Validation(errors)) = bounds(Some(MAX_AFTER + 1), None) else {
            panic!("an `after` past i64 must be refused");
        };
        assert_eq!(errors[0].field, "after");
        assert!(bounds(Some(0), Some(MAX_LIMIT + 1)).is_err());
    }
}
