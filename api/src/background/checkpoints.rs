//! The background task that writes a checkpoint every `YANIV_CHECKPOINT_INTERVAL_SECS`.

use std::time::Duration;

use sqlx::PgPool;

/// Writes a checkpoint now and then every `interval`, when a stream moved since the
/// latest one, until the pool closes. A failed attempt is logged and tried again at
/// the next tick: a missed checkpoint only widens the window the next one covers.
pub fn spawn(pool: PgPool, interval: Duration) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        let mut ticks = tokio::time::interval(interval);
        ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            ticks.tick().await;
            if pool.is_closed() {
                return;
            }
            match crate::checkpoints::write_if_changed(&pool).await {
                Ok(Some(checkpoint)) => tracing::info!(
                    checkpoint = checkpoint.id,
                    root = %hex::encode(checkpoint.root),
                    streams = checkpoint.heads.len(),
                    "checkpoint written"
                ),
                Ok(None) => tracing::debug!("no stream moved: no checkpoint"),
                Err(error) => tracing::warn!(error = %error, "checkpoint failed"),
            }
        }
    })
}
