//! Deleting what the server no longer needs: sessions past their expiry and
//! idempotency records past their retention (`YANIV_IDEMPOTENCY_RETENTION_HOURS`).
//!
//! Both tables otherwise grow with every log in and every command, forever. Nothing
//! here touches history: events are never pruned.

use std::time::Duration;

use sqlx::PgPool;

/// What one pass deleted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pruned {
    pub sessions: u64,
    pub idempotency_records: u64,
}

/// One pass. An idempotency record still in progress (no answer yet) is left alone:
/// its request holds it.
pub async fn prune_once(pool: &PgPool, retention: Duration) -> Result<Pruned, sqlx::Error> {
    let sessions = sqlx::query("DELETE FROM sessions WHERE expires_at <= now()")
        .execute(pool)
        .await?
        .rows_affected();
    let idempotency_records = sqlx::query(
        "DELETE FROM idempotency_records \
         WHERE response_status IS NOT NULL AND created_at < now() - make_interval(secs => $1)",
    )
    .bind(retention.as_secs_f64())
    .execute(pool)
    .await?
    .rows_affected();
    Ok(Pruned {
        sessions,
        idempotency_records,
    })
}

/// Prunes every `interval` until the task is aborted; a failed pass is logged and
/// tried again at the next tick.
pub fn spawn(pool: PgPool, interval: Duration, retention: Duration) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        let mut ticks = tokio::time::interval(interval);
        ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            ticks.tick().await;
            match prune_once(&pool, retention).await {
                Ok(pruned) if pruned.sessions + pruned.idempotency_records > 0 => {
                    tracing::info!(
                        sessions = pruned.sessions,
                        idempotency_records = pruned.idempotency_records,
                        "pruned"
                    );
                }
                Ok(_) => {}
                Err(err) => {
                    tracing::warn!(error = %err, "pruning failed; next try at the next tick")
                }
            }
        }
    })
}
