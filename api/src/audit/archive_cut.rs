//! The checkpoint an archive is cut at: one that records every exported stream's head,
//! so that the archive proves, offline, where each of its streams ended when it was
//! exported (`docs/checkpoints.md`, "The checkpoint an archive is cut at").
//!
//! The latest checkpoint serves when it already records the streams' heads now (a
//! finished tournament's streams stand still, so its readers never add one). Otherwise
//! a fresh one is taken, at most one per [`CheckpointGap`] for all the readers of an
//! instance: a reader that comes while one is due waits for it and is cut at it, even if
//! its streams moved again meanwhile (the checkpoint is still later than its request).

use std::time::{Duration, Instant};

use sqlx::PgPool;
use time::OffsetDateTime;

use crate::checkpoints::{self, CheckpointGap};
use crate::error::ApiError;

/// How long a reader waits for its checkpoint (its turn, and the gap) before
/// `503 server_busy`.
pub const CUT_WAIT: Duration = Duration::from_secs(30);

/// The id of a checkpoint that records every stream of `streams` (those with events)
/// at a head no earlier than where it stood when this was called: the latest one when
/// it records their heads now, else one taken for this call or for a reader waiting
/// alongside.
pub async fn checkpoint_for(
    pool: &PgPool,
    gap: &CheckpointGap,
    streams: &[&str],
) -> Result<i64, ApiError> {
    let deadline = Instant::now() + CUT_WAIT;
    let seen = checkpoints::latest_id(pool).await?;
    if let Some((id, _)) = seen
        && checkpoints::records_heads_of(pool, id, streams).await?
    {
        return Ok(id);
    }
    let seen_id = seen.map_or(0, |(id, _)| id);
    let Ok(_turn) = tokio::time::timeout_at(deadline.into(), gap.turn.lock()).await else {
        return Err(busy());
    };
    // Taken while this one waited for its turn: later than this request, so it will do.
    let latest = checkpoints::latest_id(pool).await?;
    if let Some((id, _)) = latest.filter(|&(id, _)| id > seen_id) {
        return Ok(id);
    }
    if let Some((_, written)) = latest {
        let due = written + gap.gap;
        let wait = due - OffsetDateTime::now_utc();
        if wait.is_positive() {
            let wait = Duration::try_from(wait).unwrap_or(gap.gap);
            if Instant::now() + wait > deadline {
                return Err(busy());
            }
            tokio::time::sleep(wait).await;
        }
    }
    let id = checkpoints::write_unless_newer_than(pool, seen_id).await?;
    tracing::info!(checkpoint = id, "checkpoint taken for an archive");
    Ok(id)
}

fn busy() -> ApiError {
    ApiError::Busy {
        retry_after_secs: 5,
    }
}
