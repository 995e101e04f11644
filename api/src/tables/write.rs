//! [`TableWrite`]: one command on a table as the repository runs it, the caller as
//! the actor and the OS generator as the randomness; and [`TimeoutWrite`], the
//! server's own timeout, which learns from the table itself whether it is still due.

use serde_json::Value;
use sqlx::PgConnection;
use yaniv_domain::aggregate::Aggregate;
use yaniv_domain::table::{Actor, StreamEvent, Table, TableCommand, TableError, TableServices};

use super::os_random::OsRandom;
use crate::auth::accounts::Account;
use crate::error::ApiError;
use crate::streams::{Write, refusal};

/// A table command sent by `account`; `answer` makes the answer's body from the table
/// after the write and the version the write was decided on.
#[derive(Debug)]
pub struct TableWrite<F> {
    actor: Actor,
    command: TableCommand,
    answer: F,
}

impl<F> TableWrite<F>
where
    F: Fn(&Table, u64) -> Result<Value, ApiError>,
{
    pub fn new(account: &Account, command: TableCommand, answer: F) -> Self {
        Self {
            actor: super::actor(account),
            command,
            answer,
        }
    }
}

/// Refusals of a table as problem documents.
pub fn table_refusal(error: &TableError) -> ApiError {
    let title = match error {
        TableError::Game(_) => "Refused by the rules",
        _ => "Refused by the table",
    };
    refusal(title, error)
}

/// Decides `command` on `table` as `actor` and folds it in.
fn decide(
    id: i64,
    actor: &Actor,
    command: &TableCommand,
    table: &mut Table,
) -> Result<Vec<StreamEvent>, TableError> {
    let mut random = OsRandom;
    let mut services = TableServices {
        actor,
        random: &mut random,
    };
    let events = table.execute(command, &mut services)?;
    if let Some(stall) = &table.stall {
        tracing::error!(
            table = id,
            ?stall,
            "the server's moves stopped early: the table waits"
        );
    }
    Ok(events)
}

impl<F> Write<Table> for TableWrite<F>
where
    F: Fn(&Table, u64) -> Result<Value, ApiError>,
{
    async fn execute(
        &mut self,
        _conn: &mut PgConnection,
        id: i64,
        table: &mut Table,
    ) -> Result<Vec<StreamEvent>, ApiError> {
        decide(id, &self.actor, &self.command, table).map_err(|e| table_refusal(&e))
    }

    fn answer(
        &self,
        _id: i64,
        table: &Table,
        _events: &[StreamEvent],
        before: u64,
    ) -> Result<Value, ApiError> {
        (self.answer)(table, before)
    }
}

/// The server's timeout for a table whose deadline it claimed at `claimed` (the
/// version the deadline was written at). The time waited is measured as the timeout
/// is decided, inside its write (see [`Self::waited_ms`]). When the table has moved on
/// or nothing is due any more, it appends nothing and says why in [`Self::skipped`].
#[derive(Debug)]
pub struct TimeoutWrite {
    actor: Actor,
    claimed: u64,
    waited_ms: u64,
    skipped: Option<Skipped>,
}

/// Why a timeout appended nothing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Skipped {
    /// The table moved on since the claim (a player acted, another instance fired).
    Overtaken,
    /// The table's clock waits on nothing, or not for that long.
    NotDue,
}

impl TimeoutWrite {
    pub fn new(claimed: u64) -> Self {
        Self {
            actor: super::actor(&Account::system()),
            claimed,
            waited_ms: 0,
            skipped: None,
        }
    }

    /// Why the last decision appended nothing, if it did.
    pub fn skipped(&self) -> Option<Skipped> {
        self.skipped
    }

    /// How long the table had waited when the timeout was last decided: the time its
    /// clock allowed plus how far past the deadline the decision came, by the
    /// database's clock (0 before any decision).
    pub fn waited_ms(&self) -> u64 {
        self.waited_ms
    }
}

impl Write<Table> for &mut TimeoutWrite {
    async fn execute(
        &mut self,
        conn: &mut PgConnection,
        id: i64,
        table: &mut Table,
    ) -> Result<Vec<StreamEvent>, ApiError> {
        self.skipped = None;
        if table.version != self.claimed {
            self.skipped = Some(Skipped::Overtaken);
            return Ok(Vec::new());
        }
        let Some(due) = table.due() else {
            self.skipped = Some(Skipped::NotDue);
            return Ok(Vec::new());
        };
        // How far past the deadline this decision comes: the table waited the time its
        // clock allowed, from the write that set the deadline, plus that.
        let past_deadline_ms: Option<i64> = sqlx::query_scalar(
            "SELECT (extract(epoch FROM clock_timestamp() - deadline_at) * 1000)::bigint \
             FROM game_tables WHERE id = $1",
        )
        .bind(id)
        .fetch_optional(&mut *conn)
        .await?
        .flatten();
        let Some(past_deadline_ms) = past_deadline_ms.filter(|&ms| ms >= 0) else {
            self.skipped = Some(Skipped::NotDue);
            return Ok(Vec::new());
        };
        self.waited_ms = u64::from(due.limit_ms) + past_deadline_ms.unsigned_abs();
        let command = TableCommand::TimeOut {
            waited_ms: self.waited_ms,
        };
        match decide(id, &self.actor, &command, table) {
            Ok(events) => Ok(events),
            Err(TableError::NothingDue | TableError::NotYetDue { .. }) => {
                self.skipped = Some(Skipped::NotDue);
                Ok(Vec::new())
            }
            Err(other) => Err(table_refusal(&other)),
        }
    }

    fn answer(
        &self,
        _id: i64,
        _table: &Table,
        _events: &[StreamEvent],
        _before: u64,
    ) -> Result<Value, ApiError> {
        // Nobody reads it: the server asked, and it keeps no idempotency record.
        Ok(Value::Null)
    }
}
