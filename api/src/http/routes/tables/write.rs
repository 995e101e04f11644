//! What a table command answers with, for [`crate::tables::write::TableWrite`]: the
//! table's summary or the caller's view.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;
use yaniv_domain::table::Table;

use super::dto::{TableSummary, TableView};
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

/// The answer to an accepted command: what was appended and the caller's view
/// after it (and after the server's own moves).
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct ActionResponse {
    /// The table's version now.
    #[schema(example = 57)]
    pub version: u64,
    /// Version of the first event appended by this request (fetch them with
    /// `GET /v1/tables/{id}/events?after=<first_version - 1>`).
    pub first_version: u64,
    /// Events appended: the command's, the deals and the bots' moves.
    pub appended: u64,
    pub view: TableView,
}

impl ActionResponse {
    /// The answer for a table changed from version `before`, as `seen`'s caller sees it.
    pub fn of(seen: Seen<'_>, before: u64) -> Self {
        let version = seen.table().version;
        Self {
            version,
            first_version: before + 1,
            appended: version - before,
            view: TableView::of(seen),
        }
    }
}
