//! Live streams: waking the subscribers of a stream when it moves, on every instance.
//!
//! The event store stays the only truth. An append (on any server process) is
//! announced as `stream_id:version` on the channel `yaniv_streams`: by the writer once
//! its commit returned ([`heads`]), or else by PostgreSQL at commit (the trigger of
//! `migrations/0008_stream_notifications.sql`). Each process listens
//! ([`spawn_listener`]) and moves the [`Hub`]'s watch for that stream; a subscriber
//! wakes, reads what it has not sent yet from the store, and sends it.
//!
//! Nothing is buffered per event: a watch keeps only the latest head, so a slow
//! subscriber never holds memory or blocks an append, and it catches up by reading.
//! A lost notification only delays: after the listening connection dropped, every
//! subscriber is woken to read again; after a writer died between its commit and its
//! announcement, [`spawn_recheck`] reads the followed streams' heads within
//! [`RECHECK_EVERY`].
//!
//! [`gate`] caps how many streams are open at once (per token, per address, without a
//! token, in all).

pub mod gate;
pub mod heads;

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use sqlx::PgPool;
use sqlx::postgres::PgListener;
use tokio::sync::watch;

use crate::auth::session_cache::SessionCache;

/// The channel the trigger notifies on.
pub const CHANNEL: &str = "yaniv_streams";

/// How often each process reads the heads of the streams it follows, for the
/// announcements a dead writer never sent.
pub const RECHECK_EVERY: Duration = Duration::from_secs(5);

/// Per stream, the head its subscribers last heard of.
#[derive(Debug, Default)]
pub struct Hub {
    streams: Mutex<HashMap<String, watch::Sender<u64>>>,
    /// Moves when the server stops: every subscription ends.
    closing: watch::Sender<bool>,
}

/// What a subscriber holds: the stream's head as last heard, and the server's state.
#[derive(Debug)]
pub struct Subscription {
    pub head: watch::Receiver<u64>,
    pub closing: watch::Receiver<bool>,
}

impl Hub {
    pub fn new() -> Self {
        Self::default()
    }

    fn streams(&self) -> std::sync::MutexGuard<'_, HashMap<String, watch::Sender<u64>>> {
        // The map holds no invariant a panic could break halfway.
        self.streams.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Subscribes to `stream`.
    pub fn subscribe(&self, stream: &str) -> Subscription {
        let head = self
            .streams()
            .entry(stream.to_owned())
            .or_insert_with(|| watch::channel(0).0)
            .subscribe();
        Subscription {
            head,
            closing: self.closing.subscribe(),
        }
    }

    /// Moves when the server stops.
    pub fn closing(&self) -> watch::Receiver<bool> {
        self.closing.subscribe()
    }

    /// `stream` is now at `version` (a notification arrived). Streams nobody follows
    /// are dropped from the map here, so it only holds followed streams.
    pub fn moved(&self, stream: &str, version: u64) {
        let mut streams = self.streams();
        let followed = match streams.get(stream) {
            Some(sender) if sender.receiver_count() > 0 => {
                sender.send_modify(|head| *head = (*head).max(version));
                true
            }
            Some(_) => false,
            None => return,
        };
        if !followed {
            streams.remove(stream);
        }
    }

    /// `stream` was read at `version`: its subscribers wake only if they had heard
    /// of less.
    pub fn reached(&self, stream: &str, version: u64) {
        if let Some(sender) = self.streams().get(stream) {
            sender.send_if_modified(|head| {
                let behind = *head < version;
                *head = (*head).max(version);
                behind
            });
        }
    }

    /// The streams followed on this process.
    pub fn followed_streams(&self) -> Vec<String> {
        self.streams()
            .iter()
            .filter(|(_, sender)| sender.receiver_count() > 0)
            .map(|(stream, _)| stream.clone())
            .collect()
    }

    /// Wakes every subscriber, to read again whatever it may have missed.
    pub fn wake_all(&self) {
        let mut streams = self.streams();
        streams.retain(|_, sender| sender.receiver_count() > 0);
        for sender in streams.values() {
            sender.send_modify(|_| {});
        }
    }

    /// Ends every subscription (the server is stopping).
    pub fn close(&self) {
        self.closing.send_replace(true);
    }

    /// Open subscriptions on this process.
    pub fn subscribers(&self) -> usize {
        self.streams()
            .values()
            .map(watch::Sender::receiver_count)
            .sum()
    }

    /// Streams with at least one subscriber on this process.
    pub fn followed(&self) -> usize {
        self.streams()
            .values()
            .filter(|sender| sender.receiver_count() > 0)
            .count()
    }
}

/// Reads the heads of the streams followed here every [`RECHECK_EVERY`]: a
/// subscriber of a stream whose writer died before announcing its last commit
/// (see [`heads`]) wakes then rather than at the stream's next append. One indexed
/// read per followed stream.
pub fn spawn_recheck(pool: PgPool, hub: Arc<Hub>) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        let mut every = tokio::time::interval(RECHECK_EVERY);
        every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            every.tick().await;
            let streams = hub.followed_streams();
            if streams.is_empty() {
                continue;
            }
            match read_heads(&pool, &streams).await {
                Ok(heads) => {
                    for (stream, version) in heads {
                        hub.reached(&stream, u64::try_from(version).unwrap_or(0));
                    }
                }
                Err(err) => tracing::warn!(error = %err, "live streams: reading heads failed"),
            }
        }
    })
}

async fn read_heads(pool: &PgPool, streams: &[String]) -> Result<Vec<(String, i64)>, sqlx::Error> {
    sqlx::query_as(
        "SELECT s.stream_id, head.version \
         FROM unnest($1::text[]) AS s(stream_id) \
         CROSS JOIN LATERAL ( \
             SELECT version FROM events e WHERE e.stream_id = s.stream_id \
             ORDER BY version DESC LIMIT 1 \
         ) AS head",
    )
    .bind(streams)
    .fetch_all(pool)
    .await
}

/// `table-17:42` → (`table-17`, 42).
fn parse(payload: &str) -> Option<(&str, u64)> {
    let (stream, version) = payload.rsplit_once(':')?;
    Some((stream, version.parse().ok()?))
}

/// Listens on [`CHANNEL`] for as long as the task runs, reconnecting after a failure.
///
/// The same channel carries `auth-<account id>:0` when an account's sessions or roles
/// change: those entries of `sessions` are dropped. The session cache is trusted only
/// while this listener is connected.
pub fn spawn_listener(
    pool: PgPool,
    hub: Arc<Hub>,
    sessions: Arc<SessionCache>,
) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        loop {
            if let Err(err) = listen(&pool, &hub, &sessions).await {
                tracing::warn!(error = %err, "live streams: listening failed; retrying in 1 s");
            }
            sessions.set_listening(false);
            // Whatever was notified meanwhile is read again by every subscriber.
            hub.wake_all();
            tokio::time::sleep(Duration::from_secs(1)).await;
        }
    })
}

async fn listen(pool: &PgPool, hub: &Hub, sessions: &SessionCache) -> Result<(), sqlx::Error> {
    let mut listener = PgListener::connect_with(pool).await?;
    listener.listen(CHANNEL).await?;
    sessions.set_listening(true);
    // Subscribers that started before the listener missed nothing: they read the
    // store first. Those woken now re-read in case a notification was lost.
    hub.wake_all();
    loop {
        match listener.try_recv().await? {
            Some(notification) => match parse(notification.payload()) {
                Some((stream, _)) if stream.starts_with("auth-") => {
                    match stream["auth-".len()..].parse() {
                        Ok(account) => sessions.forget_account(account),
                        // Unreadable: forget everything rather than too little.
                        Err(_) => sessions.clear(),
                    }
                }
                Some((stream, version)) => hub.moved(stream, version),
                None => tracing::warn!(
                    payload = notification.payload(),
                    "live streams: a notification not of the form stream:version"
                ),
            },
            None => {
                // What was sent while the connection was down is lost: start over
                // (the caller stops trusting cached sessions until `LISTEN` is back).
                tracing::info!("live streams: the listening connection dropped; reconnecting");
                return Ok(());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn payloads_name_a_stream_and_its_head() {
        assert_eq!(parse("table-17:42"), Some(("table-17", 42)));
        assert_eq!(parse("tournament-3:1"), Some(("tournament-3", 1)));
        assert_eq!(parse("table-17"), None);
        assert_eq!(parse("table-17:x"), None);
    }

    #[tokio::test]
    async fn subscribers_hear_the_latest_head_and_unfollowed_streams_are_forgotten() {
        let hub = Hub::new();
        let mut sub = hub.subscribe("table-1");
        hub.moved("table-1", 3);
        hub.moved("table-1", 2); // a late notification never moves the head back
        hub.moved("table-2", 9); // nobody follows it
        sub.head.changed().await.unwrap();
        assert_eq!(*sub.head.borrow_and_update(), 3);
        assert_eq!(hub.followed(), 1);
        drop(sub);
        hub.moved("table-1", 4);
        assert_eq!(hub.followed(), 0);
        assert!(hub.streams().is_empty());
    }

    #[tokio::test]
    async fn a_head_read_wakes_only_subscribers_that_heard_of_less() {
        let hub = Hub::new();
        let mut sub = hub.subscribe("table-1");
        hub.moved("table-1", 5);
        sub.head.changed().await.unwrap();
        sub.head.borrow_and_update();
        hub.reached("table-1", 5); // already heard of
        assert!(!sub.head.has_changed().unwrap());
        hub.reached("table-1", 6); // an announcement that never came
        assert!(sub.head.has_changed().unwrap());
        assert_eq!(*sub.head.borrow_and_update(), 6);
        assert_eq!(hub.followed_streams(), vec!["table-1".to_owned()]);
    }
}
