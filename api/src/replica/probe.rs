//! The task that samples the primary's position and probes the replica every
//! [`super::PROBE_INTERVAL`]: the samples turn a replica's replayed position into a lag
//! (see [`super::positions`]), the probe's answer is what `/metrics` and `/readyz` show
//! and what lets reads skip a replica that is down without trying it each time.

use std::sync::Arc;
use std::time::{Duration, Instant};

use sqlx::PgPool;

use super::{PROBE_INTERVAL, Replica, Standing};

/// The longest one probe may take before the replica counts as unreachable.
const PROBE_TIMEOUT: Duration = Duration::from_secs(2);

/// Runs until aborted.
pub fn spawn(primary: PgPool, replica: Arc<Replica>) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        let mut ticks = tokio::time::interval(PROBE_INTERVAL);
        ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            ticks.tick().await;
            once(&primary, &replica).await;
        }
    })
}

/// One sample of the primary and one probe of the replica.
pub async fn once(primary: &PgPool, replica: &Replica) {
    // Taken before asking: every commit acknowledged before `at` lies at or below the
    // position the primary answers.
    let at = Instant::now();
    match tokio::time::timeout(PROBE_TIMEOUT, super::primary_position(primary)).await {
        Ok(Ok(lsn)) => replica.record_primary(at, lsn),
        // No sample: the ones kept age, and reads go to the primary once they are too
        // old, which is where they should go while the primary cannot be asked.
        Ok(Err(error)) => tracing::debug!(%error, "replica probe: the primary's position"),
        Err(_) => tracing::debug!("replica probe: the primary's position timed out"),
    }
    let standing = match tokio::time::timeout(PROBE_TIMEOUT, standing(replica)).await {
        Ok(standing) => standing,
        Err(_) => Standing::Unreachable,
    };
    let (before, _) = replica.standing();
    if std::mem::discriminant(&before) != std::mem::discriminant(&standing) {
        tracing::info!(?standing, "replica: its standing changed");
    }
    replica.set_standing(standing);
}

async fn standing(replica: &Replica) -> Standing {
    let mut connection = match replica.pool().acquire().await {
        Ok(connection) => connection,
        Err(_) => return Standing::Unreachable,
    };
    match super::replayed(&mut connection).await {
        Ok(Some(lsn)) => Standing::Standby {
            lag: replica.lag_of(lsn),
        },
        Ok(None) => Standing::NotAStandby,
        Err(_) => Standing::Unreachable,
    }
}
