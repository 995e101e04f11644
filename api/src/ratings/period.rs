//! The filters of a rating list, as the API and the rating-list page both take them
//! from a query: a period (`from`, `to`), the least number of games, and a page of
//! rows (`offset`, `limit`). One parser for both, so a value the API refuses is refused
//! by the page too, for the same reason.

use std::ops::Range;

use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

use crate::error::ApiError;

/// Players per page unless `limit` says otherwise, and the most it may say.
pub const DEFAULT_LIMIT: u32 = 50;
pub const MAX_LIMIT: u32 = 500;

/// Why a list's filters are refused: each a `validation_failed` problem naming the
/// field in the API, a sentence in the page's language on the page.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum FilterError {
    #[error("{field}: must be an RFC 3339 date and time, e.g. 2026-06-01T00:00:00Z")]
    Malformed { field: &'static str },
    #[error("to: must be later than from")]
    Reversed,
    #[error("limit: must be 1 to 500")]
    Limit,
}

impl From<FilterError> for ApiError {
    fn from(error: FilterError) -> ApiError {
        match error {
            FilterError::Malformed { field } => ApiError::invalid_field(
                field,
                "must be an RFC 3339 date and time, e.g. 2026-06-01T00:00:00Z",
            ),
            FilterError::Reversed => ApiError::invalid_field("to", "must be later than from"),
            FilterError::Limit => ApiError::invalid_field("limit", "must be 1 to 500"),
        }
    }
}

/// Which players a list shows, and as they stood when (`docs/ratings.md`, section 5).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Period {
    /// Microseconds since the Unix epoch.
    pub from: Option<i64>,
    pub to: Option<i64>,
    pub min_games: u32,
}

impl Period {
    /// The period of RFC 3339 `from` and `to` (either absent), `to` later than `from`.
    pub fn parse(
        from: Option<&str>,
        to: Option<&str>,
        min_games: Option<u32>,
    ) -> Result<Period, FilterError> {
        let from = micros_of("from", from)?;
        let to = micros_of("to", to)?;
        if let (Some(from), Some(to)) = (from, to)
            && from >= to
        {
            return Err(FilterError::Reversed);
        }
        Ok(Period {
            from,
            to,
            min_games: min_games.unwrap_or(0),
        })
    }
}

/// The rows of one page of a list of `total` rows, and the next page's offset (`None`
/// on the last page).
pub fn page_of(
    total: usize,
    offset: Option<u32>,
    limit: Option<u32>,
) -> Result<(Range<usize>, Option<u32>), FilterError> {
    let limit = limit.unwrap_or(DEFAULT_LIMIT);
    if !(1..=MAX_LIMIT).contains(&limit) {
        return Err(FilterError::Limit);
    }
    let start = (offset.unwrap_or(0) as usize).min(total);
    let end = start.saturating_add(limit as usize).min(total);
    let next = (end < total).then(|| u32::try_from(end).unwrap_or(u32::MAX));
    Ok((start..end, next))
}

/// `micros` (since the Unix epoch) as a time.
pub fn at(micros: i64) -> OffsetDateTime {
    OffsetDateTime::from_unix_timestamp_nanos(i128::from(micros) * 1000)
        .unwrap_or(OffsetDateTime::UNIX_EPOCH)
}

/// An RFC 3339 query value as microseconds since the Unix epoch.
fn micros_of(field: &'static str, value: Option<&str>) -> Result<Option<i64>, FilterError> {
    value
        .map(|text| {
            OffsetDateTime::parse(text, &Rfc3339)
                .ok()
                .and_then(|t| i64::try_from(t.unix_timestamp_nanos() / 1000).ok())
                .ok_or(FilterError::Malformed { field })
        })
        .transpose()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_read_as_rfc_3339_to_the_microsecond() {
        assert_eq!(
            micros_of("from", Some("1970-01-01T00:00:01.000002Z")),
            Ok(Some(1_000_002))
        );
        assert_eq!(micros_of("from", None), Ok(None));
        assert_eq!(
            micros_of("to", Some("yesterday")),
            Err(FilterError::Malformed { field: "to" })
        );
        assert_eq!(at(1_000_002).unix_timestamp_nanos(), 1_000_002_000);
    }

    #[test]
    fn a_period_ends_after_it_starts() {
        let t = "2026-06-01T00:00:00Z";
        assert_eq!(
            Period::parse(Some(t), Some(t), None),
            Err(FilterError::Reversed)
        );
        let period = Period::parse(Some(t), None, Some(3));
        assert_eq!(period.map(|p| p.min_games), Ok(3));
    }

    #[test]
    fn a_page_is_cut_from_the_rows_and_says_where_the_next_starts() {
        assert_eq!(page_of(8, Some(3), Some(3)), Ok((3..6, Some(6))));
        assert_eq!(page_of(8, Some(6), Some(3)), Ok((6..8, None)));
        assert_eq!(page_of(8, Some(20), None), Ok((8..8, None)));
        assert_eq!(page_of(8, None, Some(0)), Err(FilterError::Limit));
        assert_eq!(page_of(8, None, Some(501)), Err(FilterError::Limit));
    }
}
