//! [`RecordReplayer`]: game records replayed through the rules off the async executor,
//! a bounded number at once (see `routes::records` for the endpoint and why).

use std::sync::Arc;
use std::time::{Duration, Instant};

use bytes::Bytes;
use tokio::sync::Semaphore;
use yaniv_domain::record::{self, RecordError};

use crate::error::ApiError;
use crate::telemetry::spawn_blocking_with_tracing;

/// The codes of a record that is not in the record format (its schema would refuse
/// it), as opposed to one the rules refuse.
const FORM_CODES: [&str; 4] = ["bad_record", "unknown_card", "bad_shuffle", "bad_rules"];

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

    /// Parses and replays `bytes` on the blocking pool, once a slot is free: the
    /// `yaniv-result/1` document.
    pub async fn replay(&self, bytes: Bytes) -> Result<Replayed, ApiError> {
        self.run(bytes, "record replayed", |bytes| {
            let outcome = record::replay_json(bytes)?;
            Ok((
                serde_json::to_vec(&outcome.result).unwrap_or_default(),
                outcome.result.rounds.len(),
            ))
        })
        .await
    }

    /// Parses `bytes` and replays the record step by step, as far as the rules accept
    /// it ([`record::record_steps`]): only a record that does not parse is a problem.
    pub async fn steps(&self, bytes: Bytes) -> Result<Replayed, ApiError> {
        self.run(bytes, "record stepped through", |bytes| {
            let parsed = record::parse_record(bytes)?;
            let unreadable = record::unreadable(&parsed);
            let walked = record::record_steps(&parsed);
            // A record is refused whole, with the problem `/replay` names first, when
            // it is no record in the format: something in it cannot be read (a card
            // or a seed that is not one, even after a move the rules refuse), its
            // first problem is one of form (`bad_record`, ...), or nothing of it can
            // be stepped through (unknown rules). A 200 shows the steps up to what
            // the rules refuse.
            let refused = unreadable.is_some()
                || walked.steps.is_empty()
                || walked
                    .problem
                    .as_ref()
                    .is_some_and(|problem| FORM_CODES.contains(&problem.code));
            if refused && let Some(problem) = walked.problem.clone().or(unreadable) {
                return Err(problem);
            }
            Ok((
                serde_json::to_vec(&walked).unwrap_or_default(),
                walked.discard_piles.len(),
            ))
        })
        .await
    }

    /// Runs `work` (the answer and the rounds it covers) on the blocking pool, once a
    /// slot is free, and logs how long it took.
    async fn run(
        &self,
        bytes: Bytes,
        done: &'static str,
        work: impl FnOnce(&[u8]) -> Result<(Vec<u8>, usize), RecordError> + Send + 'static,
    ) -> Result<Replayed, ApiError> {
        let permit = tokio::time::timeout(self.max_wait, self.permits.clone().acquire_owned())
            .await
            .map_err(|_| ApiError::Busy {
                retry_after_secs: RETRY_AFTER_SECS,
            })?
            .map_err(|e| ApiError::unexpected("replay semaphore closed", e))?;
        let task = spawn_blocking_with_tracing(move || {
            let _permit = permit;
            let started = Instant::now();
            let (json, rounds) = work(&bytes)?;
            tracing::info!(
                bytes = bytes.len(),
                rounds,
                elapsed_ms = started.elapsed().as_secs_f64() * 1e3,
                "{done}"
            );
            Ok(json)
        });
        task.await
            .map_err(|e| ApiError::unexpected("record replay task", e))
    }
}
