//! How the pages write times and figures, and values into links: one way everywhere.

use time::OffsetDateTime;

/// `2026-03-14 15:09 UTC`: to the minute, in UTC, as every clock of the server.
pub fn minute_utc(at: OffsetDateTime) -> String {
    let at = at.to_offset(time::UtcOffset::UTC);
    format!(
        "{:04}-{:02}-{:02} {:02}:{:02} UTC",
        at.year(),
        u8::from(at.month()),
        at.day(),
        at.hour(),
        at.minute()
    )
}

/// `2026-03-14`: the day in UTC, where the minute would only crowd a list.
pub fn day_utc(at: OffsetDateTime) -> String {
    let at = at.to_offset(time::UtcOffset::UTC);
    format!(
        "{:04}-{:02}-{:02}",
        at.year(),
        u8::from(at.month()),
        at.day()
    )
}

/// `value` for a query string: everything but unreserved characters and `/` escaped.
pub fn query_value(value: &str) -> String {
    value
        .bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' | b'/' => {
                (b as char).to_string()
            }
            other => format!("%{other:02X}"),
        })
        .collect()
}

/// A rating figure as the pages show it: two decimals, a minus sign that is one.
pub fn figure(value: f64) -> String {
    format!("{value:.2}").replace('-', "−")
}

/// A change of rating: its sign always shown.
pub fn signed_figure(value: f64) -> String {
    if value > 0.0 {
        format!("+{}", figure(value))
    } else {
        figure(value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_are_written_to_the_minute_in_utc() {
        let at = OffsetDateTime::from_unix_timestamp(1_773_500_940).expect("a time");
        assert_eq!(minute_utc(at), "2026-03-14 15:09 UTC");
        assert_eq!(day_utc(at), "2026-03-14");
    }

    #[test]
    fn figures_have_two_decimals_and_changes_their_sign() {
        assert_eq!(figure(6.4149), "6.41");
        assert_eq!(figure(-0.5), "−0.50");
        assert_eq!(signed_figure(1.0), "+1.00");
        assert_eq!(
            query_value("2026-06-01T00:00:00+02:00"),
            "2026-06-01T00%3A00%3A00%2B02%3A00"
        );
    }
}
