//! Game tables that a tournament creates for its drawn tables: every seat taken by the
//! drawn player in the drawn order, started and dealt at once, and linked to the
//! tournament table in `table_created.v1` so that the game's end records its result
//! (through the [`super::GameEndHook`] the tournaments install).
//!
//! The table is an ordinary table from then on: the players act through
//! `/v1/tables/{id}/actions`, the audit and the record export work as for any other.

use sqlx::PgConnection;
use yaniv_domain::aggregate::Aggregate;
use yaniv_domain::table::{SeatedTable, Table, TableCommand, TableServices};

use super::Tables;
use super::os_random::OsRandom;
use crate::auth::accounts::Account;
use crate::error::ApiError;
use crate::store::EventMetadata;
use crate::streams::refusal;

/// Creates, seats, starts and deals the game table of `seated` in the caller's
/// transaction, as `official`; returns its id.
pub async fn create_started(
    tables: &Tables,
    conn: &mut PgConnection,
    seated: SeatedTable,
    official: &Account,
    metadata: &EventMetadata,
) -> Result<i64, ApiError> {
    let actor = super::actor(official);
    let command = TableCommand::OpenSeated(seated);
    let (id, _) = tables
        .create_in(conn, official.id, metadata, || {
            let mut random = OsRandom;
            let mut services = TableServices {
                actor: &actor,
                random: &mut random,
            };
            Table::create(0, &command, &mut services)
                .map_err(|e| refusal("Refused by the table", &e))
        })
        .await?;
    Ok(id)
}
