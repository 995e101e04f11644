//! Where the primary's write-ahead log stood, and when: what turns a replica's replayed
//! position into a lag in time.
//!
//! A replica that has replayed up to position `R` holds every transaction that
//! committed on the primary before the last moment the primary's log stood at or
//! before `R`: a commit acknowledged before that moment ends before that position. So
//! the lag is the time since that moment. Unlike `now() - pg_last_xact_replay_timestamp()`,
//! this does not grow while the primary is idle (its position stands still, and every
//! sample taken since says so), and it needs no clock shared between the two machines:
//! every instant here is this process's monotonic clock.

use std::collections::VecDeque;
use std::time::Instant;

/// A position in the write-ahead log, in bytes since its start (`pg_lsn - '0/0'`).
pub type Lsn = i64;

/// The primary's positions, sampled: at most `capacity` moments, a run of samples at
/// one position kept as its latest.
#[derive(Debug)]
pub struct PrimaryPositions {
    samples: VecDeque<(Instant, Lsn)>,
    capacity: usize,
}

impl PrimaryPositions {
    pub fn new(capacity: usize) -> Self {
        Self {
            samples: VecDeque::with_capacity(capacity),
            capacity: capacity.max(1),
        }
    }

    /// The primary's log stood at `lsn` at `at` (`at` taken before the position was
    /// asked for, so that every commit acknowledged before `at` lies at or below it).
    pub fn record(&mut self, at: Instant, lsn: Lsn) {
        match self.samples.back_mut() {
            // Still there: a replica at `lsn` has missed nothing up to this later moment.
            Some(last) if last.1 == lsn => last.0 = last.0.max(at),
            // Behind what was seen: another primary (a failover) whose history these
            // samples do not describe.
            Some(last) if last.1 > lsn => {
                self.samples.clear();
                self.samples.push_back((at, lsn));
            }
            _ => {
                if self.samples.len() == self.capacity {
                    self.samples.pop_front();
                }
                self.samples.push_back((at, lsn));
            }
        }
    }

    /// The latest moment the primary stood at or before `replayed`: a replica at
    /// `replayed` holds everything committed before it. `None` when every kept sample
    /// lies beyond `replayed` (the replica is behind all the history kept, or nothing
    /// was sampled yet): its lag is unknown.
    pub fn caught_up_to(&self, replayed: Lsn) -> Option<Instant> {
        self.samples
            .iter()
            .rev()
            .find(|(_, lsn)| *lsn <= replayed)
            .map(|(at, _)| *at)
    }

    /// The latest sample.
    pub fn latest(&self) -> Option<(Instant, Lsn)> {
        self.samples.back().copied()
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    fn at(base: Instant, ms: u64) -> Instant {
        base + Duration::from_millis(ms)
    }

    #[test]
    fn a_replica_is_current_as_of_the_last_moment_the_primary_stood_at_or_before_it() {
        let t = Instant::now();
        let mut positions = PrimaryPositions::new(16);
        positions.record(at(t, 0), 100);
        positions.record(at(t, 500), 200);
        positions.record(at(t, 1000), 300);
        assert_eq!(positions.caught_up_to(300), Some(at(t, 1000)));
        assert_eq!(positions.caught_up_to(350), Some(at(t, 1000)));
        // Between two samples: only the earlier one is known to be held.
        assert_eq!(positions.caught_up_to(250), Some(at(t, 500)));
        assert_eq!(positions.caught_up_to(100), Some(at(t, 0)));
        assert_eq!(positions.caught_up_to(99), None, "behind all the history");
    }

    #[test]
    fn an_idle_primary_keeps_a_caught_up_replica_current() {
        let t = Instant::now();
        let mut positions = PrimaryPositions::new(4);
        positions.record(at(t, 0), 100);
        for ms in (500..=60_000).step_by(500) {
            positions.record(at(t, ms), 100);
        }
        assert_eq!(positions.caught_up_to(100), Some(at(t, 60_000)));
        // The run at one position takes one slot: the history is not pushed out.
        positions.record(at(t, 60_500), 150);
        assert_eq!(positions.caught_up_to(120), Some(at(t, 60_000)));
    }

    #[test]
    fn a_paused_replica_falls_behind_as_the_primary_moves() {
        let t = Instant::now();
        let mut positions = PrimaryPositions::new(8);
        positions.record(at(t, 0), 100);
        positions.record(at(t, 500), 100);
        for (i, ms) in (1000..=3000).step_by(500).enumerate() {
            positions.record(at(t, ms), 200 + i as i64);
        }
        let since = positions.caught_up_to(100).unwrap();
        assert_eq!(since, at(t, 500));
        assert_eq!(at(t, 3000) - since, Duration::from_millis(2500));
    }

    #[test]
    fn the_oldest_samples_go_first_and_a_position_that_went_back_starts_afresh() {
        let t = Instant::now();
        let mut positions = PrimaryPositions::new(3);
        for (i, lsn) in [10, 20, 30, 40].into_iter().enumerate() {
            positions.record(at(t, i as u64 * 100), lsn);
        }
        assert_eq!(positions.caught_up_to(15), None, "10 was pushed out");
        assert_eq!(positions.caught_up_to(25), Some(at(t, 100)));
        positions.record(at(t, 400), 5);
        assert_eq!(positions.latest(), Some((at(t, 400), 5)));
        assert_eq!(positions.caught_up_to(40), Some(at(t, 400)));
        assert_eq!(positions.caught_up_to(4), None);
    }
}
