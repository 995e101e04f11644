//! [`Failures`]: a count of failures that fades with time, and the wait it imposes.

use std::time::{Duration, Instant};

/// How a kind of key is judged.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Policy {
    /// Failures that cost nothing.
    pub free: u32,
    /// The wait after the first failure beyond the free ones; each further one
    /// doubles it ...
    pub first_wait: Duration,
    /// ... up to this.
    pub longest_wait: Duration,
    /// One failure is forgotten each time this much time passes, so a key left alone
    /// returns to zero and an attacker who keeps a pace slower than this gains nothing
    /// from waiting between guesses.
    pub forget_one_every: Duration,
}

/// Failures of one key: how many (fading), and until when the key must wait.
#[derive(Debug, Clone, Copy)]
pub struct Failures {
    count: f64,
    counted_at: Instant,
    wait_until: Instant,
}

impl Failures {
    pub fn new(now: Instant) -> Self {
        Self {
            count: 0.0,
            counted_at: now,
            wait_until: now,
        }
    }

    /// The failures still remembered at `now`.
    pub fn count(&self, now: Instant, policy: &Policy) -> f64 {
        let faded = now.saturating_duration_since(self.counted_at).as_secs_f64()
            / policy.forget_one_every.as_secs_f64().max(f64::MIN_POSITIVE);
        (self.count - faded).max(0.0)
    }

    /// One more failure at `now`: beyond the free ones, the key waits for
    /// `first_wait` doubled per failure, at most `longest_wait`.
    pub fn fail(&mut self, now: Instant, policy: &Policy) {
        self.count = self.count(now, policy) + 1.0;
        self.counted_at = now;
        let beyond = (self.count - f64::from(policy.free)).ceil();
        if beyond >= 1.0 {
            // `beyond` is at most the number of failures ever counted: a small integer.
            let doublings = (beyond as u32 - 1).min(31);
            let wait = policy
                .first_wait
                .saturating_mul(1u32 << doublings)
                .min(policy.longest_wait);
            self.wait_until = self.wait_until.max(now + wait);
        }
    }

    /// How long the key must still wait at `now` (zero: it may try).
    pub fn wait(&self, now: Instant) -> Duration {
        self.wait_until.saturating_duration_since(now)
    }

    /// Nothing left to remember: no wait, every failure faded.
    pub fn forgotten(&self, now: Instant, policy: &Policy) -> bool {
        self.wait(now).is_zero() && self.count(now, policy) == 0.0
    }

    pub fn last_counted(&self) -> Instant {
        self.counted_at
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const POLICY: Policy = Policy {
        free: 2,
        first_wait: Duration::from_secs(2),
        longest_wait: Duration::from_secs(30),
        forget_one_every: Duration::from_secs(60),
    };

    #[test]
    fn waits_start_after_the_free_failures_and_double_up_to_the_longest() {
        let now = Instant::now();
        let mut f = Failures::new(now);
        f.fail(now, &POLICY);
        f.fail(now, &POLICY);
        assert_eq!(f.wait(now), Duration::ZERO, "two are free");
        f.fail(now, &POLICY);
        assert_eq!(f.wait(now), Duration::from_secs(2));
        f.fail(now, &POLICY);
        assert_eq!(f.wait(now), Duration::from_secs(4));
        for _ in 0..40 {
            f.fail(now, &POLICY);
        }
        assert_eq!(f.wait(now), Duration::from_secs(30), "capped");
    }

    #[test]
    fn failures_fade_one_per_period_until_the_key_is_forgotten() {
        let now = Instant::now();
        let mut f = Failures::new(now);
        for _ in 0..4 {
            f.fail(now, &POLICY);
        }
        assert_eq!(f.count(now + Duration::from_secs(90), &POLICY), 2.5);
        // After two periods two failures are gone: the next one is the third again.
        let later = now + Duration::from_secs(120);
        f.fail(later, &POLICY);
        assert_eq!(f.wait(later), Duration::from_secs(2));
        assert!(f.forgotten(later + Duration::from_secs(180), &POLICY));
        assert!(!f.forgotten(later + Duration::from_secs(179), &POLICY));
    }
}
