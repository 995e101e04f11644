//! What a table command answers with, for [`crate::tables::write::TableWrite`]: the
//! table's summary or the caller's view.

use serde_json::Value;
use yaniv_domain::table::Table;

use super::actions::ActionResponse;
use super::dto::TableSummary;
use crate::auth::accounts::Account;
use crate::error::ApiError;
use crate::streams::json_answer;
use crate::visibility::Seen;

/// What a table command answers with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TableAnswer {
    /// The table's public summary (joining, leaving).
    Summary,
    /// What was appended and the caller's view after it (starting, acting).
    View,
}

impl TableAnswer {
    /// The answer's body for `account`, from the table after the write and the
    /// version before it.
    pub fn body(self, account: &Account, table: &Table, before: u64) -> Result<Value, ApiError> {
        match self {
            TableAnswer::Summary => json_answer(&TableSummary::of(table)),
            TableAnswer::View => {
                json_answer(&ActionResponse::of(Seen::by_writer(table, account), before))
            }
        }
    }
}
