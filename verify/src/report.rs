//! The pieces every verdict is made of: the first event that does not check out, and
//! one check's verdict.

use serde::Serialize;

/// The first event that does not check out.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct VerifyFailure {
    /// Stream version of the event.
    #[cfg_attr(feature = "openapi", schema(example = 17))]
    pub version: u64,
    /// Why, in English.
    pub reason: String,
    /// Stable code: `hash_mismatch`, `prev_hash_mismatch`, `version_gap` (the hash
    /// chain); `undecodable_event`, `unexpected_event`, `table_mismatch` (the
    /// stream's structure); the rules engine's code (`card_not_in_hand`,
    /// `event_mismatch`, `illegal_throw`, ...), or `diverging_event` (the rules accept
    /// this event, but a later rejection only goes away if it was different);
    /// `stand_in_mismatch` (a move after a timeout that is not the stand-in's);
    /// `truncated_stream`, `listing_mismatch` (the listing row); `missing_result` (a
    /// tournament's finished game whose result is not in the tournament);
    /// `truncated_since_checkpoint`, `rewritten_since_checkpoint`,
    /// `checkpoint_head_removed`, `checkpoint_root_mismatch` (the checkpoints).
    #[cfg_attr(feature = "openapi", schema(example = "card_not_in_hand"))]
    pub code: String,
}

/// The verdict of one of the two checks.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CheckReport {
    pub ok: bool,
    pub first_failure: Option<VerifyFailure>,
}

/// A failure at `version`, with its stable `code`.
pub fn failure(version: u64, code: &str, reason: impl Into<String>) -> VerifyFailure {
    VerifyFailure {
        version,
        reason: reason.into(),
        code: code.to_owned(),
    }
}

/// The verdict of a check whose first failure (if any) is `failure`.
pub fn report(failure: Option<VerifyFailure>) -> CheckReport {
    CheckReport {
        ok: failure.is_none(),
        first_failure: failure,
    }
}
