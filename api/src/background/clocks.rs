//! Turn clocks on the server: firing the timeouts of tables whose wait ran out,
//! exactly once whatever the number of instances.
//!
//! The domain decides what a timeout does (`yaniv_domain::table::clock`); the server
//! only measures time. The listing projection writes each table's deadline with every
//! append (`game_tables.deadline_at`, migrations 0011 and 0020): the time its clock
//! allows for what it waits on now, from when the append was written (the last
//! statement before its commit, not its transaction's start). Every instance runs
//! [`spawn`]:
//!
//! 1. each tick it claims up to [`BATCH`] tables whose deadline has passed and that
//!    nobody holds, with `FOR UPDATE SKIP LOCKED`, marking each as held for a lease
//!    (ten ticks), so other instances skip them;
//! 2. it sends each a `TimeOut` through the normal write path as the server itself
//!    ([`TimeoutWrite`]), for the version the deadline was written at; the time waited
//!    is measured inside that write, by the database's clock, as the time the clock
//!    allowed plus how far past the deadline the timeout is decided.
//!
//! Each table's timeout is its own task: the next tick does not wait for the last
//! one's timeouts to finish, so a write held up at one table delays no other table's
//! timeout. At most [`IN_FLIGHT`] timeouts are on their way at once.
//!
//! The write path is what makes a timeout happen once: the timeout is decided on the
//! table as it is inside the write's transaction, and if the player moved meanwhile,
//! or another instance fired first, the version has moved on and nothing is appended
//! ([`Skipped::Overtaken`]). The lease only saves that wasted work. An
//! instance killed while holding a claim leaves it to expire; another instance then
//! fires the table. Each append clears the claim and sets the next deadline.

use std::time::Duration;

use actix_web::web;

use crate::app_state::AppState;
use crate::auth::accounts::Account;
use crate::error::ApiError;
use crate::streams::{Effect, Mutation};
use crate::tables::write::{Skipped, TimeoutWrite};

/// Most tables one tick claims.
pub const BATCH: i64 = 64;

/// Most timeouts on their way at once, on one instance.
pub const IN_FLIGHT: usize = 256;

/// A table whose deadline passed, as claimed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, sqlx::FromRow)]
pub struct DueTable {
    pub id: i64,
    /// The version the deadline was written at.
    pub version: i64,
}

/// What became of one timeout.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fired {
    /// Appended: the window closed, or the stand-in moved.
    Appended,
    /// The table had moved on (a player acted, another instance fired first).
    Overtaken,
    /// The table refused it: nothing was due after all.
    NotDue,
}

/// Claims up to `batch` due tables for `lease`.
pub async fn claim_due(
    pool: &sqlx::PgPool,
    batch: i64,
    lease: Duration,
) -> Result<Vec<DueTable>, sqlx::Error> {
    sqlx::query_as::<_, DueTable>(
        "UPDATE game_tables t \
         SET deadline_claimed_until = now() + make_interval(secs => $2) \
         FROM (SELECT id FROM game_tables \
               WHERE deadline_at <= now() \
                 AND (deadline_claimed_until IS NULL OR deadline_claimed_until <= now()) \
               ORDER BY deadline_at LIMIT $1 \
               FOR UPDATE SKIP LOCKED) due \
         WHERE t.id = due.id \
         RETURNING t.id, t.version",
    )
    .bind(batch)
    .bind(lease.as_secs_f64())
    .fetch_all(pool)
    .await
}

/// Sends table `due` its timeout as the server (see the module docs); with what
/// became of it, the milliseconds the table was found to have waited.
pub async fn fire(state: &AppState, due: DueTable) -> Result<(Fired, u64), ApiError> {
    let system = Account::system();
    let version = u64::try_from(due.version).unwrap_or(0);
    let mutation = Mutation {
        account: &system,
        request_id: Some(format!("clock:{}:{version}", due.id)),
        key: None,
        fingerprint: [0; 32],
        if_match: None,
    };
    let mut write = TimeoutWrite::new(version);
    let written = state.tables.mutate(due.id, mutation, &mut write).await?;
    let fired = match (written.effect, write.skipped()) {
        (Effect::Appended { .. }, _) => Fired::Appended,
        (_, Some(Skipped::Overtaken)) => Fired::Overtaken,
        (_, Some(Skipped::NotDue) | None) => Fired::NotDue,
    };
    Ok((fired, write.waited_ms()))
}

/// Fires one claimed table and says what became of it.
async fn fire_and_log(state: web::Data<AppState>, table: DueTable) {
    match fire(&state, table).await {
        Ok((Fired::Appended, waited_ms)) => {
            state
                .counters
                .timeouts_appended
                .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            tracing::info!(
                table = table.id,
                version = table.version,
                waited_ms,
                "clock ran out: timeout appended"
            );
        }
        Ok((outcome, _)) => {
            tracing::debug!(table = table.id, ?outcome, "timeout not needed");
        }
        Err(error) => {
            tracing::warn!(table = table.id, %error, "timeout failed; retried after the lease");
        }
    }
}

/// Fires due timeouts every `tick` until the task is aborted. Each claimed table is
/// fired in a task of its own, which the next tick does not wait for.
pub fn spawn(state: web::Data<AppState>, tick_every: Duration) -> tokio::task::JoinHandle<()> {
    let lease = tick_every * 10;
    tokio::spawn(async move {
        let mut ticks = tokio::time::interval(tick_every);
        ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let mut firing = tokio::task::JoinSet::new();
        loop {
            ticks.tick().await;
            while let Some(done) = firing.try_join_next() {
                if let Err(error) = done {
                    tracing::error!(%error, "a timeout task failed");
                }
            }
            let room = IN_FLIGHT.saturating_sub(firing.len()).min(BATCH as usize);
            if room == 0 {
                continue;
            }
            match claim_due(&state.db, room as i64, lease).await {
                Ok(due) => {
                    for table in due {
                        firing.spawn(fire_and_log(web::Data::clone(&state), table));
                    }
                }
                Err(error) => {
                    tracing::warn!(%error, "looking for due timeouts failed; next try at the next tick");
                }
            }
        }
    })
}
