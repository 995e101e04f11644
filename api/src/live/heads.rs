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

/// The task sends at most one statement per `LINGER`: what is announced sooner after
/// the last statement waits for the rest of it, so that at a thousand moves a second
/// a statement carries several heads instead of one or two. A quiet server's
/// announcement goes at once, and a person does not notice 5 ms on a busy one.
pub const LINGER: Duration = Duration::from_millis(5);

/// The heads this process has committed and not yet announced, and what announced them.
#[derive(Debug, Default)]
pub struct HeadNotifier {
    pending: Mutex<HashMap<String, u64>>,
    wake: Notify,
    running: AtomicBool,
    silenced: AtomicBool,
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
        if self.silenced.load(Ordering::Acquire) {
            return;
        }
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

    /// Heads announced so far.
    pub fn announced(&self) -> u64 {
        self.announced.load(Ordering::Relaxed)
    }

    /// Statements that carried them.
    pub fn statements(&self) -> u64 {
        self.statements.load(Ordering::Relaxed)
    }

    /// Sends what is pending now, in one statement. What it sends stays pending until
    /// the database has taken it, so a send that fails or is cut short (the task
    /// aborted mid-statement) leaves it for the next one: a head may then be announced
    /// twice, never not at all.
    pub async fn flush(&self, pool: &PgPool) -> Result<(), sqlx::Error> {
        let heads = self.pending().clone();
        if heads.is_empty() {
            return Ok(());
        }
        send(pool, &heads).await?;
        self.sent(&heads);
        self.announced
            .fetch_add(heads.len() as u64, Ordering::Relaxed);
        self.statements.fetch_add(1, Ordering::Relaxed);
        Ok(())
    }

    /// `heads` reached the database: they wait no more, unless a later head of the
    /// same stream was announced meanwhile.
    fn sent(&self, heads: &HashMap<String, u64>) {
        let mut pending = self.pending();
        for (stream, version) in heads {
            if pending.get(stream).is_some_and(|head| head <= version) {
                pending.remove(stream);
            }
        }
    }

    /// Drops what is pending and sends nothing more, as a process killed outright
    /// would (the kill switch of the tests).
    pub fn silence(&self) {
        self.silenced.store(true, Ordering::Release);
        self.pending().clear();
    }
}

/// Clears [`HeadNotifier::is_running`] when the task ends, however it ends (aborted
/// by a stop or a kill): writers then leave their announcements to the trigger again.
struct Running(Arc<HeadNotifier>);

impl Drop for Running {
    fn drop(&mut self) {
        self.0.running.store(false, Ordering::Release);
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
    let running = Running(Arc::clone(&heads));
    tokio::spawn(async move {
        let _running = running;
        let now = tokio::time::Instant::now();
        let mut last_sent = now.checked_sub(LINGER).unwrap_or(now);
        loop {
            heads.wake.notified().await;
            tokio::time::sleep_until(last_sent + LINGER).await;
            last_sent = tokio::time::Instant::now();
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
        let pending = heads.pending().clone();
        assert_eq!(pending.len(), 2);
        assert_eq!(pending["table-1"], 9);
        assert_eq!(pending["table-2"], 3);
    }

    #[test]
    fn a_head_announced_during_a_send_still_waits_after_it() {
        let heads = HeadNotifier::new();
        heads.announce("table-1", 4);
        heads.announce("table-2", 8);
        let sending = heads.pending().clone();
        heads.announce("table-1", 6);
        heads.sent(&sending);
        let pending = heads.pending().clone();
        assert_eq!(pending.len(), 1);
        assert_eq!(pending["table-1"], 6);
    }

    #[tokio::test]
    async fn announcements_are_left_to_writers_only_while_a_task_sends() {
        let heads = Arc::new(HeadNotifier::new());
        assert!(!heads.is_running());
        // A lazy pool never connects here: the task only waits for a head.
        let pool = PgPool::connect_lazy("postgres://nobody@127.0.0.1:1/none").unwrap();
        let task = spawn(pool, Arc::clone(&heads));
        assert!(heads.is_running());
        task.abort();
        let _ = task.await;
        assert!(
            !heads.is_running(),
            "an ended task hands the announcements back"
        );
    }
}
