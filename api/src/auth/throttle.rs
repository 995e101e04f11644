//! [`LoginThrottle`]: wrong passwords slow the guesser down, per account and per
//! address, in bounded memory.
//!
//! Each key (an account's name, a client address) may fail a few times for free
//! ([`Limits::free_failures`]); every failure after that locks the key for twice as
//! long as the one before, from [`Limits::first_lock`] up to [`Limits::longest_lock`].
//! While a key is locked, a log-in for it is answered 429 `too_many_attempts` with
//! `Retry-After` before any password is checked, the right one included, so a locked
//! account cannot be probed. A success clears its account's count (not its address's:
//! one good password must not launder a spray over other accounts). An address gets more
//! free failures than an account, since many people can share one (a club's network).
//!
//! The table is bounded ([`Limits::capacity`] keys): when full, keys whose lock is over
//! and that have been quiet for a lock's length go first, then the quietest. A key that
//! is forgotten starts again from zero, which only ever helps an attacker with more
//! distinct keys than the table holds; the per-address limit bounds that.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The numbers of the throttle.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Failures an account may have before it is locked.
    pub free_failures: u32,
    /// Failures an address may have before it is locked.
    pub free_failures_per_address: u32,
    pub first_lock: Duration,
    pub longest_lock: Duration,
    /// Keys remembered at most.
    pub capacity: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            free_failures: 5,
            free_failures_per_address: 20,
            first_lock: Duration::from_secs(2),
            longest_lock: Duration::from_secs(15 * 60),
            capacity: 100_000,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Key {
    Account(String),
    Address(IpAddr),
}

#[derive(Debug, Clone, Copy)]
struct Failures {
    count: u32,
    locked_until: Instant,
    last: Instant,
}

#[derive(Debug, Default)]
pub struct LoginThrottle {
    limits: Limits,
    keys: Mutex<HashMap<Key, Failures>>,
}

fn account_key(username: &str) -> Key {
    Key::Account(username.trim().to_lowercase())
}

impl LoginThrottle {
    pub fn new(limits: Limits) -> Self {
        Self {
            limits,
            keys: Mutex::new(HashMap::new()),
        }
    }

    /// `Err(wait)` while `username` or `address` is locked.
    pub fn check(
        &self,
        username: &str,
        address: Option<IpAddr>,
        now: Instant,
    ) -> Result<(), Duration> {
        let keys = self.keys.lock().unwrap_or_else(|e| e.into_inner());
        let wait = [Some(account_key(username)), address.map(Key::Address)]
            .into_iter()
            .flatten()
            .filter_map(|key| keys.get(&key))
            .map(|f| f.locked_until.saturating_duration_since(now))
            .max()
            .unwrap_or_default();
        if wait.is_zero() { Ok(()) } else { Err(wait) }
    }

    /// Counts a wrong password for `username` from `address`.
    pub fn failed(&self, username: &str, address: Option<IpAddr>, now: Instant) {
        let mut keys = self.keys.lock().unwrap_or_else(|e| e.into_inner());
        let entries = [
            Some((account_key(username), self.limits.free_failures)),
            address.map(|a| (Key::Address(a), self.limits.free_failures_per_address)),
        ];
        for (key, free) in entries.into_iter().flatten() {
            if !keys.contains_key(&key) && keys.len() >= self.limits.capacity {
                self.make_room(&mut keys, now);
            }
            let entry = keys.entry(key).or_insert(Failures {
                count: 0,
                locked_until: now,
                last: now,
            });
            entry.count = entry.count.saturating_add(1);
            entry.last = now;
            if let Some(beyond) = entry.count.checked_sub(free).filter(|&n| n > 0) {
                let factor = 1u32.checked_shl(beyond - 1).unwrap_or(u32::MAX);
                let lock = self
                    .limits
                    .first_lock
                    .saturating_mul(factor)
                    .min(self.limits.longest_lock);
                entry.locked_until = now + lock;
            }
        }
    }

    /// A right password: the account starts again from zero.
    pub fn succeeded(&self, username: &str) {
        let mut keys = self.keys.lock().unwrap_or_else(|e| e.into_inner());
        keys.remove(&account_key(username));
    }

    fn make_room(&self, keys: &mut HashMap<Key, Failures>, now: Instant) {
        let quiet = self.limits.longest_lock;
        keys.retain(|_, f| f.locked_until > now || now.duration_since(f.last) < quiet);
        if keys.len() >= self.limits.capacity
            && let Some(oldest) = keys
                .iter()
                .min_by_key(|(_, f)| f.last)
                .map(|(k, _)| k.clone())
        {
            keys.remove(&oldest);
        }
    }

    #[cfg(test)]
    fn len(&self) -> usize {
        self.keys.lock().map(|k| k.len()).unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits() -> Limits {
        Limits {
            free_failures: 3,
            free_failures_per_address: 5,
            first_lock: Duration::from_secs(2),
            longest_lock: Duration::from_secs(60),
            capacity: 4,
        }
    }

    #[test]
    fn an_account_locks_after_its_free_failures_for_longer_each_time() {
        let t = LoginThrottle::new(limits());
        let start = Instant::now();
        for _ in 0..3 {
            assert!(t.check("ann", None, start).is_ok());
            t.failed("Ann", None, start);
        }
        assert!(
            t.check("ann", None, start).is_ok(),
            "three failures are free"
        );
        t.failed("ann", None, start);
        assert_eq!(t.check("ANN", None, start), Err(Duration::from_secs(2)));
        assert!(t.check("ann", None, start + Duration::from_secs(2)).is_ok());
        t.failed("ann", None, start + Duration::from_secs(2));
        assert_eq!(
            t.check("ann", None, start + Duration::from_secs(2)),
            Err(Duration::from_secs(4))
        );
        for _ in 0..20 {
            t.failed("ann", None, start);
        }
        assert_eq!(
            t.check("ann", None, start),
            Err(Duration::from_secs(60)),
            "capped"
        );
        assert!(
            t.check("bob", None, start).is_ok(),
            "other accounts are not touched"
        );
        t.succeeded("ann");
        assert!(t.check("ann", None, start).is_ok());
    }

    #[test]
    fn an_address_spraying_many_accounts_locks_too() {
        let t = LoginThrottle::new(Limits {
            capacity: 100,
            ..limits()
        });
        let now = Instant::now();
        let address: IpAddr = [10, 0, 0, 7].into();
        for i in 0..6 {
            t.failed(&format!("user{i}"), Some(address), now);
        }
        assert!(t.check("someone-else", Some(address), now).is_err());
        assert!(
            t.check("someone-else", Some([10, 0, 0, 8].into()), now)
                .is_ok()
        );
    }

    #[test]
    fn the_table_stays_within_its_capacity() {
        let t = LoginThrottle::new(limits());
        let now = Instant::now();
        for i in 0..50 {
            t.failed(&format!("user{i}"), None, now + Duration::from_millis(i));
        }
        assert!(t.len() <= 4);
    }
}
