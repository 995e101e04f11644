//! A finding of the archive check: the first event of one stream that does not check
//! out, with the stable code both verifiers print. Apart from `check.rs` so that the
//! checks it runs (`completeness.rs`) can name findings without importing it back.

use serde::Serialize;

use crate::report::VerifyFailure;

/// The first event of one stream that does not check out.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ArchiveFailure {
    #[serde(rename = "stream")]
    pub stream_id: String,
    pub version: u64,
    /// `archive`, `chain`, `replay`, `domain`, `game`, `links` or `checkpoints`.
    pub check: &'static str,
    /// The same stable codes as the server's verification.
    pub code: String,
    pub reason: String,
}

impl ArchiveFailure {
    pub(super) fn new(stream_id: &str, check: &'static str, failure: &VerifyFailure) -> Self {
        Self {
            stream_id: stream_id.to_owned(),
            version: failure.version,
            check,
            code: failure.code.clone(),
            reason: failure.reason.clone(),
        }
    }

    pub(super) fn archive(
        stream_id: &str,
        version: u64,
        code: &str,
        reason: impl Into<String>,
    ) -> Self {
        Self {
            stream_id: stream_id.to_owned(),
            version,
            check: "archive",
            code: code.to_owned(),
            reason: reason.into(),
        }
    }
}
