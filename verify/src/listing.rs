//! A stream against its listing row (`game_tables`, `tournaments`).
//!
//! The row is written in the same transaction as every append, so it always names
//! the stream's version and what the stream says (a table's status, a tournament's
//! phase). A forger who deletes a stream's tail leaves a chain that still holds up to
//! the new end; only something written alongside the deleted events remembers them.
//! The row is one such witness (a checkpoint is another, and a forger with database
//! access can rewrite the row too: see `docs/security.md`).

use crate::report::{CheckReport, VerifyFailure};

/// What a listing row says of its stream.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListingRow {
    pub version: u64,
    /// The table's status or the tournament's phase.
    pub state: String,
}

fn failure(version: u64, code: &str, reason: String) -> CheckReport {
    CheckReport {
        ok: false,
        first_failure: Some(VerifyFailure {
            version,
            code: code.to_owned(),
            reason,
        }),
    }
}

/// Compares the row with the stream: `stored` events, and `folded` the state they
/// fold to (`None` when they do not fold; the replay says why). A stream without a
/// row is not compared.
pub fn check(row: Option<&ListingRow>, stored: u64, folded: Option<&str>) -> CheckReport {
    // A stream without a row (events restored on their own, as the stored-stream
    // fixtures are) has no witness here; the checkpoints still cover it.
    let Some(row) = row else {
        return CheckReport {
            ok: true,
            first_failure: None,
        };
    };
    if row.version > stored {
        return failure(
            stored + 1,
            "truncated_stream",
            format!(
                "the listing row says the stream reached version {} ({}), but it ends at \
                 version {stored}: its tail was deleted",
                row.version, row.state
            ),
        );
    }
    if row.version < stored {
        return failure(
            row.version + 1,
            "listing_mismatch",
            format!(
                "the stream has {stored} events, but the listing row reflects only {}: \
                 events were added without it",
                row.version
            ),
        );
    }
    match folded {
        Some(state) if state != row.state => failure(
            stored,
            "listing_mismatch",
            format!(
                "the listing row says `{}`, the stream says `{state}`",
                row.state
            ),
        ),
        _ => CheckReport {
            ok: true,
            first_failure: None,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(version: u64, state: &str) -> ListingRow {
        ListingRow {
            version,
            state: state.to_owned(),
        }
    }

    fn code(report: &CheckReport) -> Option<(u64, &str)> {
        report
            .first_failure
            .as_ref()
            .map(|f| (f.version, f.code.as_str()))
    }

    #[test]
    fn a_row_that_agrees_checks_out() {
        assert!(check(Some(&row(12, "playing")), 12, Some("playing")).ok);
        assert!(check(Some(&row(12, "playing")), 12, None).ok);
    }

    #[test]
    fn a_row_ahead_of_its_stream_says_the_tail_was_deleted() {
        let report = check(Some(&row(22, "finished")), 12, Some("playing"));
        assert_eq!(code(&report), Some((13, "truncated_stream")));
    }

    #[test]
    fn a_row_behind_or_saying_otherwise_is_a_mismatch_and_no_row_is_no_witness() {
        assert_eq!(
            code(&check(Some(&row(10, "playing")), 12, Some("playing"))),
            Some((11, "listing_mismatch"))
        );
        assert_eq!(
            code(&check(Some(&row(12, "finished")), 12, Some("playing"))),
            Some((12, "listing_mismatch"))
        );
        assert!(check(None, 12, Some("playing")).ok, "no row, no witness");
    }
}
