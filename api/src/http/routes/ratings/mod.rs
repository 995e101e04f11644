//! `/v1/ratings` and `/v1/players/{username}/rating`: the rating list across rated
//! tournaments and one player's profile (`docs/ratings.md`). Public, like every
//! tournament read: nothing in them is secret, and a token sent must be valid.
//!
//! | method and path | what |
//! | --- | --- |
//! | `GET /v1/ratings?from=&to=&min_games=&offset=&limit=&format=csv` | the list, best first, page by page; JSON or CSV |
//! | `GET /v1/ratings.csv?from=&to=&min_games=` | the whole list as CSV |
//! | `GET /v1/players/{username}/rating?opponent=` | a player's rating, tournaments, history and head-to-head |

pub mod list;
pub mod profile;

use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

use crate::error::ApiError;

/// `micros` (since the Unix epoch) as a time.
fn at(micros: i64) -> OffsetDateTime {
    OffsetDateTime::from_unix_timestamp_nanos(i128::from(micros) * 1000)
        .unwrap_or(OffsetDateTime::UNIX_EPOCH)
}

/// An RFC 3339 query value as microseconds since the Unix epoch, or a 422 naming it.
fn micros_of(field: &'static str, value: Option<&str>) -> Result<Option<i64>, ApiError> {
    value
        .map(|text| {
            OffsetDateTime::parse(text, &Rfc3339)
                .ok()
                .and_then(|t| i64::try_from(t.unix_timestamp_nanos() / 1000).ok())
                .ok_or_else(|| {
                    ApiError::invalid_field(
                        field,
                        "must be an RFC 3339 date and time, e.g. 2026-06-01T00:00:00Z",
                    )
                })
        })
        .transpose()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_read_as_rfc_3339_to_the_microsecond() {
        assert_eq!(
            micros_of("from", Some("1970-01-01T00:00:01.000002Z")).ok(),
            Some(Some(1_000_002))
        );
        assert_eq!(micros_of("from", None).ok(), Some(None));
        assert!(micros_of("to", Some("yesterday")).is_err());
        assert_eq!(at(1_000_002).unix_timestamp_nanos(), 1_000_002_000);
    }
}
