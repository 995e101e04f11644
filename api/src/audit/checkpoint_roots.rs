//! The roots of the checkpoints around one stream, recomputed from the heads stored
//! with them ([`yaniv_verify::checkpoint_root`], where the check is described): a
//! deleted head row of the stream is named for it; one of another stream is left to
//! that stream's verification.

use yaniv_verify::checkpoint::{CheckpointReport, CoveredHead};
use yaniv_verify::checkpoint_root::{RootCheck, check_root, finding, heads_of};
use yaniv_verify::report::VerifyFailure;

use crate::app_state::AppState;
use crate::checkpoints;
use crate::error::ApiError;
use crate::store::RecordedEvent;

/// The earliest finding of the checkpoints' roots against `stream` (stored `events`,
/// `covered` by the checkpoints that list it).
pub async fn check(
    state: &AppState,
    stream: &str,
    events: &[RecordedEvent],
    covered: &[CoveredHead],
) -> Result<Option<VerifyFailure>, ApiError> {
    let Some(first) = events.first() else {
        return Ok(None);
    };
    let pool = state.store.pool();
    let own = heads_of(stream, events);
    let mut earliest: Option<VerifyFailure> = None;
    for checkpoint in checkpoints::around(pool, stream, first.recorded_at, covered).await? {
        let mut check = check_root(&checkpoint, &own);
        let listed = checkpoint.heads.iter().any(|h| h.stream_id == stream);
        if check == RootCheck::Unexplained && listed {
            // The row deleted may be another stream's: the root says whose.
            check = check_root(
                &checkpoint,
                &checkpoints::unlisted_heads(pool, &checkpoint).await?,
            );
        }
        if let Some(found) = finding(stream, &checkpoint, &check)
            && earliest.as_ref().is_none_or(|e| found.version < e.version)
        {
            earliest = Some(found);
        }
    }
    Ok(earliest)
}

/// `report` (the stream against the heads that list it) with the roots' finding: the
/// earlier of the two.
pub fn with_roots(report: CheckpointReport, roots: Option<VerifyFailure>) -> CheckpointReport {
    let Some(roots) = roots else {
        return report;
    };
    if report
        .first_failure
        .as_ref()
        .is_some_and(|f| f.version <= roots.version)
    {
        return report;
    }
    CheckpointReport {
        ok: false,
        first_failure: Some(roots),
        checked: report.checked,
    }
}
