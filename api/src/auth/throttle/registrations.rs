//! [`RegistrationRate`]: how fast one address may create accounts
//! (`POST /v1/accounts`), a bucket per address that refills at a steady pace.
//!
//! A venue's walk-ins all sign up from the venue's one public address, so the bucket
//! is deep (a queue at the door passes) and refills quickly enough for a day's
//! trickle, while a script creating accounts by the hundred is held to the refill
//! pace. The table is bounded like the log-in throttle's: full buckets are forgotten
//! first (forgetting one only ever gives that address a full bucket, which it would
//! have had anyway).

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How many accounts an address may create at once and how fast it may go on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RegistrationLimit {
    /// Accounts one address may create in a burst.
    pub burst: u32,
    /// One more account becomes possible each time this much time passes.
    pub refill_every: Duration,
}

impl Default for RegistrationLimit {
    fn default() -> Self {
        Self {
            burst: 30,
            refill_every: Duration::from_secs(20),
        }
    }
}

#[derive(Debug, Clone, Copy)]
struct Bucket {
    /// Registrations that may still be made, as of `at`.
    left: f64,
    at: Instant,
}

#[derive(Debug)]
pub struct RegistrationRate {
    limit: RegistrationLimit,
    capacity: usize,
    buckets: Mutex<HashMap<IpAddr, Bucket>>,
}

impl RegistrationRate {
    pub fn new(limit: RegistrationLimit, capacity: usize) -> Self {
        Self {
            limit,
            capacity,
            buckets: Mutex::new(HashMap::new()),
        }
    }

    fn left(&self, bucket: &Bucket, now: Instant) -> f64 {
        let refilled = now.saturating_duration_since(bucket.at).as_secs_f64()
            / self.limit.refill_every.as_secs_f64().max(f64::MIN_POSITIVE);
        (bucket.left + refilled).min(f64::from(self.limit.burst))
    }

    /// Takes one registration for `address`, or says how long until one is possible.
    /// A request without an address (no TCP peer) is not limited.
    pub fn take(&self, address: Option<IpAddr>, now: Instant) -> Result<(), Duration> {
        let Some(address) = address else {
            return Ok(());
        };
        let mut buckets = self.buckets.lock().unwrap_or_else(|e| e.into_inner());
        if !buckets.contains_key(&address) && buckets.len() >= self.capacity {
            let full = f64::from(self.limit.burst);
            buckets.retain(|_, b| self.left(b, now) < full);
            if buckets.len() >= self.capacity
                && let Some(oldest) = buckets.iter().min_by_key(|(_, b)| b.at).map(|(a, _)| *a)
            {
                buckets.remove(&oldest);
            }
        }
        let burst = f64::from(self.limit.burst);
        let bucket = buckets.entry(address).or_insert(Bucket {
            left: burst,
            at: now,
        });
        let left = self.left(bucket, now);
        if left >= 1.0 {
            *bucket = Bucket {
                left: left - 1.0,
                at: now,
            };
            Ok(())
        } else {
            Err(self.limit.refill_every.mul_f64(1.0 - left))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LIMIT: RegistrationLimit = RegistrationLimit {
        burst: 3,
        refill_every: Duration::from_secs(10),
    };

    #[test]
    fn an_address_registers_its_burst_then_at_the_refill_pace() {
        let rate = RegistrationRate::new(LIMIT, 100);
        let now = Instant::now();
        let venue: IpAddr = [192, 0, 2, 1].into();
        for _ in 0..3 {
            assert!(rate.take(Some(venue), now).is_ok());
        }
        assert_eq!(rate.take(Some(venue), now), Err(Duration::from_secs(10)));
        assert_eq!(
            rate.take(Some(venue), now + Duration::from_secs(4)),
            Err(Duration::from_secs(6))
        );
        assert!(
            rate.take(Some(venue), now + Duration::from_secs(10))
                .is_ok()
        );
        assert!(
            rate.take(Some(venue), now + Duration::from_secs(10))
                .is_err()
        );
        assert!(
            rate.take(Some([192, 0, 2, 2].into()), now).is_ok(),
            "another address has its own bucket"
        );
        assert!(rate.take(None, now).is_ok());
    }

    #[test]
    fn the_table_stays_within_its_capacity() {
        let rate = RegistrationRate::new(LIMIT, 4);
        let now = Instant::now();
        for i in 0..50u8 {
            let _ = rate.take(Some([10, 0, 0, i].into()), now);
        }
        assert!(rate.buckets.lock().unwrap().len() <= 4);
    }
}
