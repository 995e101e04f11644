//! Sessions this instance has checked, so that a request finds its account without a
//! round trip to the database.
//!
//! Revocation still takes effect everywhere at once: deleting a session or changing an
//! account's roles makes the database notify `auth-<account id>` at commit (migration
//! 0012), and the live streams' listener ([`crate::live::spawn_listener`]) drops that
//! account's entries on every instance. The instance that revokes drops them itself
//! before it answers. The cache is only used while the listener is connected: when its
//! connection drops, notifications may be lost, so the cache is emptied and every
//! request checks the database until the listener is back. An entry also ends at its
//! session's expiry, and after [`MAX_AGE`] whatever happens.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use time::OffsetDateTime;

use super::accounts::Account;

/// Most sessions kept; when full, an arbitrary one makes room.
pub const CAPACITY: usize = 10_000;

/// Longest an entry is trusted without asking the database again.
pub const MAX_AGE: Duration = Duration::from_secs(300);

#[derive(Debug, Clone)]
struct Entry {
    account: Account,
    expires_at: OffsetDateTime,
    checked_at: Instant,
}

/// Token hash → the account of its session (see the module docs).
#[derive(Debug, Default)]
pub struct SessionCache {
    entries: Mutex<HashMap<[u8; 32], Entry>>,
    /// Whether notifications are being heard: only then may entries be trusted.
    listening: AtomicBool,
    /// Moves with every revocation: a lookup that started before one must not cache
    /// what it read.
    generation: AtomicU64,
}

impl SessionCache {
    pub fn new() -> Self {
        Self::default()
    }

    fn entries(&self) -> MutexGuard<'_, HashMap<[u8; 32], Entry>> {
        self.entries.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The account of session `token_hash`, if it is cached and still valid.
    pub fn get(&self, token_hash: &[u8; 32]) -> Option<Account> {
        if !self.listening.load(Ordering::Acquire) {
            return None;
        }
        let mut entries = self.entries();
        let entry = entries.get(token_hash)?;
        if entry.expires_at <= OffsetDateTime::now_utc() || entry.checked_at.elapsed() > MAX_AGE {
            entries.remove(token_hash);
            return None;
        }
        Some(entry.account.clone())
    }

    /// Read before asking the database; hand it to [`SessionCache::put`].
    pub fn generation(&self) -> u64 {
        self.generation.load(Ordering::Acquire)
    }

    /// Keeps what the database said of session `token_hash`, asked at `generation`:
    /// unless a revocation was heard since (the answer may predate it) or the
    /// listener is not connected.
    pub fn put(
        &self,
        token_hash: [u8; 32],
        account: Account,
        expires_at: OffsetDateTime,
        generation: u64,
    ) {
        let mut entries = self.entries();
        if !self.listening.load(Ordering::Acquire) || self.generation() != generation {
            return;
        }
        if entries.len() >= CAPACITY
            && !entries.contains_key(&token_hash)
            && let Some(victim) = entries.keys().next().copied()
        {
            entries.remove(&victim);
        }
        entries.insert(
            token_hash,
            Entry {
                account,
                expires_at,
                checked_at: Instant::now(),
            },
        );
    }

    /// Drops every session of `account_id` (its sessions or roles changed).
    pub fn forget_account(&self, account_id: i64) {
        let mut entries = self.entries();
        self.generation.fetch_add(1, Ordering::AcqRel);
        entries.retain(|_, entry| entry.account.id != account_id);
    }

    /// Drops session `token_hash` (logged out here).
    pub fn forget(&self, token_hash: &[u8; 32]) {
        let mut entries = self.entries();
        self.generation.fetch_add(1, Ordering::AcqRel);
        entries.remove(token_hash);
    }

    /// Drops everything (a notification that could not be read).
    pub fn clear(&self) {
        let mut entries = self.entries();
        self.generation.fetch_add(1, Ordering::AcqRel);
        entries.clear();
    }

    /// The listener heard its `LISTEN` confirmed (`true`), or lost its connection
    /// (`false`: everything is dropped, since notifications may be missed).
    pub fn set_listening(&self, listening: bool) {
        let mut entries = self.entries();
        self.listening.store(listening, Ordering::Release);
        if !listening {
            self.generation.fetch_add(1, Ordering::AcqRel);
            entries.clear();
        }
    }

    pub fn len(&self) -> usize {
        self.entries().len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn account(id: i64) -> Account {
        Account {
            id,
            username: format!("user{id}"),
            roles: Vec::new(),
            created_at: OffsetDateTime::UNIX_EPOCH,
        }
    }

    fn later() -> OffsetDateTime {
        OffsetDateTime::now_utc() + Duration::from_secs(3600)
    }

    #[test]
    fn nothing_is_trusted_unless_notifications_are_heard() {
        let cache = SessionCache::new();
        cache.put([1; 32], account(1), later(), cache.generation());
        assert!(cache.get(&[1; 32]).is_none(), "not kept while deaf");
        cache.set_listening(true);
        cache.put([1; 32], account(1), later(), cache.generation());
        assert_eq!(cache.get(&[1; 32]).map(|a| a.id), Some(1));
        cache.set_listening(false);
        assert!(cache.get(&[1; 32]).is_none());
        assert!(cache.is_empty(), "a lost connection empties the cache");
    }

    #[test]
    fn revocations_and_expiry_drop_entries() {
        let cache = SessionCache::new();
        cache.set_listening(true);
        cache.put([1; 32], account(1), later(), cache.generation());
        cache.put([2; 32], account(1), later(), cache.generation());
        cache.put([3; 32], account(2), later(), cache.generation());
        cache.forget_account(1);
        assert!(cache.get(&[1; 32]).is_none() && cache.get(&[2; 32]).is_none());
        assert!(cache.get(&[3; 32]).is_some());
        cache.forget(&[3; 32]);
        assert!(cache.get(&[3; 32]).is_none());
        cache.put(
            [4; 32],
            account(3),
            OffsetDateTime::now_utc() - Duration::from_secs(1),
            cache.generation(),
        );
        assert!(
            cache.get(&[4; 32]).is_none(),
            "an expired session is not served"
        );
    }

    #[test]
    fn a_lookup_that_started_before_a_revocation_caches_nothing() {
        let cache = SessionCache::new();
        cache.set_listening(true);
        let asked_at = cache.generation();
        // The database answered "valid", but the session was revoked meanwhile.
        cache.forget_account(1);
        cache.put([1; 32], account(1), later(), asked_at);
        assert!(cache.get(&[1; 32]).is_none());
    }
}
