//! Turn clocks on the server: firing the timeouts of tables whose wait ran out,
//! exactly once whatever the number of instances.
//!
//! The domain decides what a timeout does (`yaniv_domain::table::clock`); the server
//! only measures time. The listing projection writes each table's deadline with every
//! append (`game_tables.deadline_at`, migration 0011): the time its clock allows for
//! what it waits on now, from the append's commit. Every instance runs [`spawn`]:
//!
//! 1. each tick it claims up to [`BATCH`] tables whose deadline has passed and that
//!    nobody holds, with `FOR UPDATE SKIP LOCKED`, marking each as held for a lease
//!    (ten ticks), so other instances skip them;
//! 2. it sends each a `TimeOut` through the normal write path as the server itself
//!    ([`TimeoutWrite`]), for the version the deadline was written at and the waited
//!    time measured by the database's clock since that append.
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

/// A table whose deadline passed, as claimed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, sqlx::FromRow)]
pub struct DueTable {
    pub id: i64,
    /// The version the deadline was written at.
    pub version: i64,
    /// Milliseconds since that version was appended, by the database's clock.
    pub waited_ms: i64,
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
         RETURNING t.id, t.version, \
                   (extract(epoch FROM now() - t.updated_at) * 1000)::bigint AS waited_ms",
    )
    .bind(batch)
    .bind(lease.as_secs_f64())
    .fetch_all(pool)
    .await
}

/// Sends table `due` its timeout as the server (see the module docs).
pub async fn fire(state: &AppState, due: DueTable) -> Result<Fired, ApiError> {
    let system = Account::system();
    let version = u64::try_from(due.version).unwrap_or(0);
    let waited_ms = u64::try_from(due.waited_ms).unwrap_or(0);
    let mutation = Mutation {
        account: &system,
        request_id: Some(format!("clock:{}:{version}", due.id)),
        key: None,
        fingerprint: [0; 32],
        if_match: None,
    };
    let mut write = TimeoutWrite::new(version, waited_ms);
    let written = state.tables.mutate(due.id, mutation, &mut write).await?;
    Ok(match (written.effect, write.skipped()) {
        (Effect::Appended { .. }, _) => Fired::Appended,
        (_, Some(Skipped::Overtaken)) => Fired::Overtaken,
        (_, Some(Skipped::NotDue) | None) => Fired::NotDue,
    })
}

/// One tick: claims what is due and fires it all, concurrently. Returns how many
/// timeouts were appended.
pub async fn tick(state: &web::Data<AppState>, lease: Duration) -> Result<usize, sqlx::Error> {
    let due = claim_due(&state.db, BATCH, lease).await?;
    let mut firing = tokio::task::JoinSet::new();
    for table in due {
        let state = web::Data::clone(state);
        firing.spawn(async move { (table, fire(&state, table).await) });
    }
    let mut appended = 0;
    while let Some(joined) = firing.join_next().await {
        match joined {
            Ok((table, Ok(Fired::Appended))) => {
                appended += 1;
                state
                    .counters
                    .timeouts_appended
                    .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                tracing::info!(
                    table = table.id,
                    version = table.version,
                    waited_ms = table.waited_ms,
                    "clock ran out: timeout appended"
                );
            }
            Ok((table, Ok(outcome))) => {
                tracing::debug!(table = table.id, ?outcome, "timeout not needed");
            }
            Ok((table, Err(error))) => {
                tracing::warn!(table = table.id, %error, "timeout failed; retried after the lease");
            }
            Err(error) => tracing::error!(%error, "a timeout task failed"),
        }
    }
    Ok(appended)
}

/// Fires due timeouts every `tick` until the task is aborted.
pub fn spawn(state: web::Data<AppState>, tick_every: Duration) -> tokio::task::JoinHandle<()> {
    let lease = tick_every * 10;
    tokio::spawn(async move {
        let mut ticks = tokio::time::interval(tick_every);
        ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            ticks.tick().await;
            if let Err(error) = tick(&state, lease).await {
                tracing::warn!(%error, "looking for due timeouts failed; next try at the next tick");
            }
        }
    })
}
