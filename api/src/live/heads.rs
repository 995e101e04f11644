//! Announcing a stream's new head once its append has committed.
//!
//! A `NOTIFY` made inside a transaction (the trigger of migration 0008) makes
//! PostgreSQL take a database-wide lock when the transaction starts to commit and hold
//! it until the commit is on disk, so that notifications queue in commit order. Every
//! append then commits alone, each waiting for its own disk flush while the others
//! queue behind the lock: on a disk whose flush takes 0.5 ms, no more than about 2,000
//! appends a second, however many connections write.
//!
//! So the write paths that know their stream (a command on a table or a tournament)
//! ask the trigger to leave that stream alone (`yaniv.caller_notifies`, migration
//! 0016) and, once their commit has returned, hand the new head to this process's
//! [`HeadNotifier`]. Its task sends whatever has gathered in one statement of its own,
//! outside every write's transaction: the lock is then held for no disk flush, and one
//! round trip carries many notifications when the server is busy.
//!
//! Until the task runs ([`spawn`]), nothing is left to the caller and the trigger
//! notifies as before, so a store used without a server (tools, tests) loses nothing.
//! What a crash loses (a commit whose announcement was not sent yet) only delays the
//! other processes' followers: [`super::spawn_recheck`] finds such a head by reading.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use sqlx::PgPool;
use tokio::sync::Notify;

use super::CHANNEL;

/// How long the task waits before sending again after the database refused.
const RETRY_AFTER: Duration = Duration::from_millis(200);

/// How long an announcement waits for others to share its statement. A person does not
/// notice 5 ms; at a thousand moves a second, a statement then carries several heads
/// instead of one or two.
pub const LINGER: Duration = Duration::from_millis(5);

/// The heads this process has committed and not yet announced, and what announced them.
#[derive(Debug, Default)]
pub struct HeadNotifier {
    pending: Mutex<HashMap<String, u64>>,
    wake: Notify,
    running: AtomicBool,
    /// Heads announced, and the statements that carried them.
    announced: AtomicU64,
    statements: AtomicU64,
}

impl HeadNotifier {
    pub fn new() -> Self {
        Self::default()
    }

    fn pending(&self) -> std::sync::MutexGuard<'_, HashMap<String, u64>> {
        // The map holds no invariant a panic could break halfway.
        self.pending.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Whether a task sends the announcements: only then may a writer ask the
    /// trigger to leave its stream alone.
    pub fn is_running(&self) -> bool {
        self.running.load(Ordering::Acquire)
    }

    /// `stream` is at `version` after a commit: announce it. Only the highest version
    /// of a stream waits, so the backlog is bounded by the streams written.
    pub fn announce(&self, stream: &str, version: u64) {
        {
            let mut pending = self.pending();
            match pending.get_mut(stream) {
                Some(head) => *head = (*head).max(version),
                None => {
                    pending.insert(stream.to_owned(), version);
                }
            }
        }
        self.wake.notify_one();
    }

    fn take(&self) -> HashMap<String, u64> {
        std::mem::take(&mut *self.pending())
    }

    /// Puts back what could not be sent, keeping any later head announced meanwhile.
    fn put_back(&self, heads: HashMap<String, u64>) {
        let mut pending = self.pending();
        for (stream, version) in heads {
            let head = pending.entry(stream).or_insert(version);
            *head = (*head).max(version);
        }
    }

    /// Heads announced so far.
    pub fn announced(&self) -> u64 {
        self.announced.load(Ordering::Relaxed)
    }

    /// Statements that carried them.
    pub fn statements(&self) -> u64 {
        self.statements.load(Ordering::Relaxed)
    }

    /// Sends what is pending now, in one statement; on failure it stays pending.
    pub async fn flush(&self, pool: &PgPool) -> Result<(), sqlx::Error> {
        let heads = self.take();
        if heads.is_empty() {
            return Ok(());
        }
        match send(pool, &heads).await {
            Ok(()) => {
                self.announced
                    .fetch_add(heads.len() as u64, Ordering::Relaxed);
                self.statements.fetch_add(1, Ordering::Relaxed);
                Ok(())
            }
            Err(err) => {
                self.put_back(heads);
                Err(err)
            }
        }
    }
}

async fn send(pool: &PgPool, heads: &HashMap<String, u64>) -> Result<(), sqlx::Error> {
    let (streams, versions): (Vec<&str>, Vec<i64>) = heads
        .iter()
        .map(|(stream, &version)| (stream.as_str(), i64::try_from(version).unwrap_or(i64::MAX)))
        .unzip();
    sqlx::query(
        "SELECT pg_notify($1, h.stream || ':' || h.version) \
         FROM unnest($2::text[], $3::bigint[]) AS h(stream, version)",
    )
    .bind(CHANNEL)
    .bind(streams)
    .bind(versions)
    .execute(pool)
    .await
    .map(drop)
}

/// Starts sending `heads`' announcements through `pool` (a pool of its own, so that a
/// busy server never makes them wait for a connection), for as long as the task runs.
pub fn spawn(pool: PgPool, heads: Arc<HeadNotifier>) -> tokio::task::JoinHandle<()> {
    heads.running.store(true, Ordering::Release);
    tokio::spawn(async move {
        loop {
            heads.wake.notified().await;
            tokio::time::sleep(LINGER).await;
            if let Err(err) = heads.flush(&pool).await {
                tracing::warn!(error = %err, "live streams: announcing heads failed; retrying");
                tokio::time::sleep(RETRY_AFTER).await;
                heads.wake.notify_one();
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stream_waits_with_its_highest_head_only() {
        let heads = HeadNotifier::new();
        heads.announce("table-1", 4);
        heads.announce("table-1", 9);
        heads.announce("table-1", 7); // a slower writer's older head
        heads.announce("table-2", 3);
        let taken = heads.take();
        assert_eq!(taken.len(), 2);
        assert_eq!(taken["table-1"], 9);
        assert_eq!(taken["table-2"], 3);
        assert!(heads.take().is_empty());
    }

    #[test]
    fn what_could_not_be_sent_waits_again_beside_later_heads() {
        let heads = HeadNotifier::new();
        heads.announce("table-1", 4);
        heads.announce("table-2", 8);
        let failed = heads.take();
        heads.announce("table-1", 6);
        heads.put_back(failed);
        let taken = heads.take();
        assert_eq!(taken["table-1"], 6);
        assert_eq!(taken["table-2"], 8);
    }

    #[tokio::test]
    async fn nothing_is_left_to_the_caller_until_a_task_sends() {
        let heads = Arc::new(HeadNotifier::new());
        assert!(!heads.is_running());
        // A lazy pool never connects here: the task only waits for a head.
        let pool = PgPool::connect_lazy("postgres://nobody@127.0.0.1:1/none").unwrap();
        let task = spawn(pool, Arc::clone(&heads));
        assert!(heads.is_running());
        task.abort();
    }
}
