//! [`RecordReplayer`]: game records replayed through the rules off the async executor,
//! a bounded number at once (see `routes::records` for the endpoint and why).

use std::sync::Arc;
use std::time::{Duration, Instant};

use actix_web::web::Bytes;
use tokio::sync::Semaphore;
use yaniv_domain::record::{self, RecordError};

use crate::error::ApiError;
use crate::telemetry::spawn_blocking_with_tracing;

/// How long a replay waits for a slot before the request is refused with 503.
pub const REPLAY_MAX_WAIT: Duration = Duration::from_secs(5);

/// Seconds a refused client is told to wait.
pub const RETRY_AFTER_SECS: u32 = 1;

/// Replays records off the async executor, a bounded number at once; cheap to clone.
#[derive(Debug, Clone)]
pub struct RecordReplayer {
    permits: Arc<Semaphore>,
    max_wait: Duration,
    max_bytes: usize,
}

/// What a replay gave: the JSON to answer with, or the record's first problem.
pub type Replayed = Result<Vec<u8>, RecordError>;

impl RecordReplayer {
    /// `max_bytes`: the largest record accepted; `concurrency`: replays at once.
    pub fn new(max_bytes: usize, concurrency: usize) -> Self {
        Self {
            permits: Arc::new(Semaphore::new(concurrency.max(1))),
            max_wait: REPLAY_MAX_WAIT,
            max_bytes,
        }
    }

    /// The largest record accepted, in bytes.
    pub fn max_bytes(&self) -> usize {
        self.max_bytes
    }

    /// Parses and replays `bytes` on the blocking pool, once a slot is free.
    pub async fn replay(&self, bytes: Bytes) -> Result<Replayed, ApiError> {
        let permit = tokio::time::timeout(self.max_wait, self.permits.clone().acquire_owned())
            .await
            .map_err(|_| ApiError::Busy {
                retry_after_secs: RETRY_AFTER_SECS,
            })?
            .map_err(|e| ApiError::unexpected("replay semaphore closed", e))?;
        let task = spawn_blocking_with_tracing(move || {
            let _permit = permit;
            let started = Instant::now();
            let outcome = record::replay_json(&bytes)?;
            let json = serde_json::to_vec(&outcome.result).unwrap_or_default();
            tracing::info!(
                bytes = bytes.len(),
                rounds = outcome.result.rounds.len(),
                elapsed_ms = started.elapsed().as_secs_f64() * 1e3,
                "record replayed"
            );
            Ok(json)
        });
        task.await
            .map_err(|e| ApiError::unexpected("record replay task", e))
    }
}
