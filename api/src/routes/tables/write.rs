//! [`TableWrite`]: one command on a table, as the repository runs it: the caller is
//! the actor, the OS generator the randomness, and the answer is the table's summary
//! or the caller's view.

use serde_json::Value;
use sqlx::PgConnection;
use yaniv_domain::aggregate::Aggregate;
use yaniv_domain::table::{Actor, StreamEvent, Table, TableCommand, TableServices};

use super::actions::ActionResponse;
use super::dto::TableSummary;
use crate::auth::accounts::Account;
use crate::error::ApiError;
use crate::streams::{Write, refusal};
use crate::tables::os_random::OsRandom;
use crate::visibility::Seen;

/// What a table command answers with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TableAnswer {
    /// The table's public summary (joining, leaving).
    Summary,
    /// What was appended and the caller's view after it (starting, acting).
    View,
}

/// A table command sent by `account`.
#[derive(Debug)]
pub struct TableWrite<'a> {
    account: &'a Account,
    actor: Actor,
    command: TableCommand,
    answer: TableAnswer,
}

impl<'a> TableWrite<'a> {
    pub fn new(account: &'a Account, command: TableCommand, answer: TableAnswer) -> Self {
        Self {
            account,
            actor: crate::tables::actor(account),
            command,
            answer,
        }
    }
}

/// Refusals of a table as problem documents.
pub fn table_refusal(error: &yaniv_domain::table::TableError) -> ApiError {
    let title = match error {
        yaniv_domain::table::TableError::Game(_) => "Refused by the rules",
        _ => "Refused by the table",
    };
    refusal(title, error)
}

impl Write<Table> for TableWrite<'_> {
    async fn execute(
        &mut self,
        _conn: &mut PgConnection,
        id: i64,
        table: &mut Table,
    ) -> Result<Vec<StreamEvent>, ApiError> {
        let mut random = OsRandom;
        let mut services = TableServices {
            actor: &self.actor,
            random: &mut random,
        };
        let events = table
            .execute(&self.command, &mut services)
            .map_err(|e| table_refusal(&e))?;
        if let Some(stall) = &table.stall {
            tracing::error!(
                table = id,
                ?stall,
                "the server's moves stopped early: the table waits"
            );
        }
        Ok(events)
    }

    fn answer(
        &self,
        _id: i64,
        table: &Table,
        _events: &[StreamEvent],
        before: u64,
    ) -> Result<Value, ApiError> {
        match self.answer {
            TableAnswer::Summary => to_json(&TableSummary::of(table)),
            TableAnswer::View => to_json(&ActionResponse::of(
                Seen::by_writer(table, self.account),
                before,
            )),
        }
    }
}

/// The JSON of one of the server's own answers.
pub fn to_json<T: serde::Serialize>(answer: &T) -> Result<Value, ApiError> {
    serde_json::to_value(answer).map_err(|e| ApiError::unexpected("serialising an answer", e))
}
