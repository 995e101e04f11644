//! Live streams: waking the subscribers of a stream when it moves, on every instance.
//!
//! The event store stays the only truth. An append (on any server process) makes
//! PostgreSQL send `stream_id:version` on the channel `yaniv_streams` at commit (the
//! trigger of `migrations/0008_stream_notifications.sql`). Each process listens
//! ([`spawn_listener`]) and moves the [`Hub`]'s watch for that stream; a subscriber
//! wakes, reads what it has not sent yet from the store, and sends it.
//!
//! Nothing is buffered per event: a watch keeps only the latest head, so a slow
//! subscriber never holds memory or blocks an append, and it catches up by reading.
//! A lost notification (the listening connection dropped) only delays: after a
//! reconnection every subscriber is woken to read again.

pub mod body;
pub mod follow;

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use sqlx::PgPool;
use sqlx::postgres::PgListener;
use tokio::sync::watch;

use crate::auth::session_cache::SessionCache;

/// The channel the trigger notifies on.
pub const CHANNEL: &str = "yaniv_streams";

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
}
