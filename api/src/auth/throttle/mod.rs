//! Throttles against guessing and mass sign-up, which slow an attacker down without
//! locking anyone else out.
//!
//! [`LoginThrottle`] counts wrong passwords (and wrong set-up codes, apart) per
//! *client of an account*: a known device of the account ([`super::devices`]) or else
//! the address it comes from. Failures beyond a few free ones make that client wait,
//! twice as long per failure up to a ceiling, and they fade one by one
//! ([`decay::Failures`]). While a client waits, its attempt is answered 429
//! `too_many_attempts` with `Retry-After` before any password is checked. What the
//! throttle never does is make a client wait for someone else's failures on the same
//! account: a player who logs in from their own phone (its device token) is judged by
//! that phone's failures alone, wherever the guesser is, the same network included; and
//! from another address than the guesser's, by that address's.
//!
//! An address also has a gentler budget for failures on *any* account, so one
//! machine cannot spray guesses across many names. It applies to clients that are no
//! known device of the account they name: a player whose phone already logged in once
//! is not held up by a neighbour at the venue spraying names.
//!
//! [`registrations::RegistrationRate`] limits how fast one address creates accounts.
//!
//! The tables live in this instance's memory, bounded ([`Limits::capacity`] keys); when
//! full, forgotten keys go first, then the quietest. A key that is dropped starts again
//! from zero, which only helps an attacker with more distinct keys than the table
//! holds; the per-address budget bounds that.

pub mod decay;
pub mod registrations;

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use self::decay::{Failures, Policy};

/// The numbers of the log-in throttle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// One client (device or address) of one account.
    pub per_client: Policy,
    /// One address, whatever the account, for clients that are not a known device.
    pub per_address: Policy,
    /// Keys remembered at most.
    pub capacity: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            per_client: Policy {
                free: 5,
                first_wait: Duration::from_secs(2),
                longest_wait: Duration::from_secs(15 * 60),
                forget_one_every: Duration::from_secs(5 * 60),
            },
            per_address: Policy {
                free: 30,
                first_wait: Duration::from_secs(1),
                longest_wait: Duration::from_secs(60),
                forget_one_every: Duration::from_secs(10),
            },
            capacity: 100_000,
        }
    }
}

/// What is being guessed: passwords and set-up codes are counted apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Secret {
    Password,
    SetupCode,
}

/// Who tries: the account's known device, or an address (or nothing known).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Client {
    /// The SHA-256 of a device token that belongs to the account named.
    Device([u8; 32]),
    Address(IpAddr),
    Unknown,
}

/// One log-in (or set-up) attempt, as the throttle sees it.
#[derive(Debug, Clone, Copy)]
pub struct Attempt<'a> {
    pub secret: Secret,
    pub username: &'a str,
    pub client: Client,
    /// The TCP peer, when there is one.
    pub address: Option<IpAddr>,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Key {
    Client {
        secret: Secret,
        account: String,
        client: Client,
    },
    Address {
        secret: Secret,
        address: IpAddr,
    },
}

impl Attempt<'_> {
    fn client_key(&self) -> Key {
        Key::Client {
            secret: self.secret,
            account: self.username.trim().to_lowercase(),
            client: self.client,
        }
    }

    /// The address's budget applies to anything but a known device.
    fn address_key(&self) -> Option<Key> {
        match self.client {
            Client::Device(_) => None,
            _ => self.address.map(|address| Key::Address {
                secret: self.secret,
                address,
            }),
        }
    }
}

#[derive(Debug, Default)]
pub struct LoginThrottle {
    limits: Limits,
    keys: Mutex<HashMap<Key, Failures>>,
}

impl LoginThrottle {
    pub fn new(limits: Limits) -> Self {
        Self {
            limits,
            keys: Mutex::new(HashMap::new()),
        }
    }

    fn policy(&self, key: &Key) -> &Policy {
        match key {
            Key::Client { .. } => &self.limits.per_client,
            Key::Address { .. } => &self.limits.per_address,
        }
    }

    /// `Err(wait)` while the attempt's client (or its address) must wait.
    pub fn check(&self, attempt: &Attempt, now: Instant) -> Result<(), Duration> {
        let keys = self.keys.lock().unwrap_or_else(|e| e.into_inner());
        let wait = [Some(attempt.client_key()), attempt.address_key()]
            .into_iter()
            .flatten()
            .filter_map(|key| keys.get(&key))
            .map(|f| f.wait(now))
            .max()
            .unwrap_or_default();
        if wait.is_zero() { Ok(()) } else { Err(wait) }
    }

    /// Counts a wrong password (or code) of the attempt.
    pub fn failed(&self, attempt: &Attempt, now: Instant) {
        let mut keys = self.keys.lock().unwrap_or_else(|e| e.into_inner());
        for key in [Some(attempt.client_key()), attempt.address_key()]
            .into_iter()
            .flatten()
        {
            if !keys.contains_key(&key) && keys.len() >= self.limits.capacity {
                self.make_room(&mut keys, now);
            }
            let policy = *self.policy(&key);
            keys.entry(key)
                .or_insert_with(|| Failures::new(now))
                .fail(now, &policy);
        }
    }

    /// The right secret: this client of the account starts again from zero (its
    /// address's budget does not: one good password must not launder a spray).
    pub fn succeeded(&self, attempt: &Attempt) {
        let mut keys = self.keys.lock().unwrap_or_else(|e| e.into_inner());
        keys.remove(&attempt.client_key());
    }

    fn make_room(&self, keys: &mut HashMap<Key, Failures>, now: Instant) {
        keys.retain(|key, f| !f.forgotten(now, self.policy(key)));
        if keys.len() >= self.limits.capacity
            && let Some(quietest) = keys
                .iter()
                .min_by_key(|(_, f)| f.last_counted())
                .map(|(k, _)| k.clone())
        {
            keys.remove(&quietest);
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
            per_client: Policy {
                free: 3,
                first_wait: Duration::from_secs(2),
                longest_wait: Duration::from_secs(60),
                forget_one_every: Duration::from_secs(300),
            },
            per_address: Policy {
                free: 5,
                first_wait: Duration::from_secs(1),
                longest_wait: Duration::from_secs(10),
                forget_one_every: Duration::from_secs(10),
            },
            capacity: 100,
        }
    }

    const GUESSER: IpAddr = IpAddr::V4(std::net::Ipv4Addr::new(10, 0, 0, 66));
    const VENUE: IpAddr = IpAddr::V4(std::net::Ipv4Addr::new(10, 0, 0, 7));
    const PHONE: [u8; 32] = [7; 32];

    fn from(username: &str, address: IpAddr) -> Attempt<'_> {
        Attempt {
            secret: Secret::Password,
            username,
            client: Client::Address(address),
            address: Some(address),
        }
    }

    #[test]
    fn a_guesser_waits_longer_each_time_and_its_victim_elsewhere_does_not() {
        let t = LoginThrottle::new(limits());
        let now = Instant::now();
        for _ in 0..3 {
            t.failed(&from("Ann", GUESSER), now);
        }
        assert!(
            t.check(&from("ann", GUESSER), now).is_ok(),
            "three are free"
        );
        t.failed(&from("ann", GUESSER), now);
        assert_eq!(
            t.check(&from("ANN", GUESSER), now),
            Err(Duration::from_secs(2))
        );
        t.failed(&from("ann", GUESSER), now);
        assert_eq!(
            t.check(&from("ann", GUESSER), now),
            Err(Duration::from_secs(4))
        );
        assert!(
            t.check(&from("ann", VENUE), now).is_ok(),
            "ann from another address has not failed"
        );
        t.succeeded(&from("ann", VENUE));
        assert!(
            t.check(&from("ann", GUESSER), now).is_err(),
            "her success does not clear the guesser"
        );
    }

    #[test]
    fn a_known_device_is_judged_by_its_own_failures_on_the_guessers_network() {
        let t = LoginThrottle::new(limits());
        let now = Instant::now();
        // The guesser sprays names and ann's from the venue's one address.
        for i in 0..20 {
            t.failed(&from(&format!("user{i}"), VENUE), now);
            t.failed(&from("ann", VENUE), now);
        }
        assert!(t.check(&from("ann", VENUE), now).is_err());
        assert!(
            t.check(&from("bob", VENUE), now).is_err(),
            "the address's budget is spent"
        );
        let phone = Attempt {
            client: Client::Device(PHONE),
            ..from("ann", VENUE)
        };
        assert!(t.check(&phone, now).is_ok(), "ann's phone has not failed");
        for _ in 0..4 {
            t.failed(&phone, now);
        }
        assert!(t.check(&phone, now).is_err(), "until it fails itself");
    }

    #[test]
    fn set_up_codes_are_counted_apart_from_passwords() {
        let t = LoginThrottle::new(limits());
        let now = Instant::now();
        for _ in 0..10 {
            t.failed(&from("ann", GUESSER), now);
        }
        let code = Attempt {
            secret: Secret::SetupCode,
            ..from("ann", GUESSER)
        };
        assert!(t.check(&code, now).is_ok());
    }

    #[test]
    fn an_address_spraying_many_accounts_waits_too_briefly() {
        let t = LoginThrottle::new(limits());
        let now = Instant::now();
        for i in 0..6 {
            t.failed(&from(&format!("user{i}"), GUESSER), now);
        }
        assert_eq!(
            t.check(&from("someone-else", GUESSER), now),
            Err(Duration::from_secs(1))
        );
        assert!(t.check(&from("someone-else", VENUE), now).is_ok());
        // The address's failures fade quickly.
        assert!(
            t.check(&from("someone-else", GUESSER), now + Duration::from_secs(1))
                .is_ok()
        );
    }

    #[test]
    fn the_table_stays_within_its_capacity() {
        let t = LoginThrottle::new(Limits {
            capacity: 4,
            ..limits()
        });
        let now = Instant::now();
        for i in 0..50 {
            t.failed(
                &from(&format!("user{i}"), VENUE),
                now + Duration::from_millis(i),
            );
        }
        assert!(t.len() <= 4);
    }
}
