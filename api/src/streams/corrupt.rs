//! A stored stream that does not read back as written: which event, why, and a log
//! line once per event rather than once per request that meets it.

use std::collections::{HashSet, VecDeque};
use std::sync::Mutex;

use crate::error::ApiError;
use crate::store::RecordedEvent;
use yaniv_verify::chain::Hash;

/// Why a stored event cannot be served.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Corruption {
    /// The version is not the one after the previous event: an event was deleted.
    Missing,
    /// Its stored hash is not the hash of its stored fields, or it does not point at
    /// the previous event's hash: it was changed behind the server's back.
    Changed,
    /// Its payload does not decode as an event of its type.
    Undecodable,
    /// It decodes, but cannot follow the events before it.
    DoesNotFollow,
}

impl Corruption {
    pub fn reason(self) -> &'static str {
        match self {
            Self::Missing => "an event is missing",
            Self::Changed => "the event's hash does not match it: it was changed",
            Self::Undecodable => "the event cannot be decoded",
            Self::DoesNotFollow => "the event cannot follow the events before it",
        }
    }
}

/// Checks stored events one by one against the chain, as a read meets them.
///
/// A read that starts from a cached fold does not know the hash of the cached prefix's
/// last event, so the first event it reads is checked against its own hash only; every
/// later one is also checked against its predecessor.
#[derive(Debug)]
pub struct ChainOnRead {
    expected_version: u64,
    prev_hash: Option<Hash>,
}

impl ChainOnRead {
    /// For a read of the events after `version` (0: the whole stream).
    pub fn after(version: u64) -> Self {
        Self {
            // A client's cursor may be anything, u64::MAX included.
            expected_version: version.saturating_add(1),
            prev_hash: (version == 0).then_some(yaniv_verify::chain::GENESIS_HASH),
        }
    }

    /// For a read that starts with the event of `version` itself (the head a cached
    /// fold reached), which is checked on its own and then chains the rest.
    pub fn resuming(event: &RecordedEvent, version: u64) -> Result<Self, (u64, Corruption)> {
        if u64::try_from(event.version).ok() != Some(version) {
            return Err((version, Corruption::Missing));
        }
        if !event.hash_holds() {
            return Err((version, Corruption::Changed));
        }
        Ok(Self {
            expected_version: version.saturating_add(1),
            prev_hash: Some(event.hash),
        })
    }

    /// The version and hash of the last event checked, when the read showed it (or
    /// version 0 and the genesis hash when it read an empty stream from the start).
    pub fn head(&self) -> Option<(u64, Hash)> {
        self.prev_hash
            .map(|hash| (self.expected_version.saturating_sub(1), hash))
    }

    /// Checks the next stored event.
    pub fn check(&mut self, event: &RecordedEvent) -> Result<(), (u64, Corruption)> {
        let version = u64::try_from(event.version).unwrap_or(0);
        if version != self.expected_version {
            return Err((self.expected_version, Corruption::Missing));
        }
        let linked = self.prev_hash.is_none_or(|prev| prev == event.prev_hash);
        if !linked || !event.hash_holds() {
            return Err((version, Corruption::Changed));
        }
        self.expected_version = self.expected_version.saturating_add(1);
        self.prev_hash = Some(event.hash);
        Ok(())
    }
}

/// A stream id and a version.
type StreamVersion = (String, u64);

/// What [`ReportedOnce`] remembers: the pairs, and their order for forgetting.
#[derive(Debug, Default)]
struct Seen {
    pairs: HashSet<StreamVersion>,
    oldest_first: VecDeque<StreamVersion>,
}

/// The (stream, version) pairs already logged, bounded: the oldest is forgotten first.
#[derive(Debug)]
pub struct ReportedOnce {
    seen: Mutex<Seen>,
    capacity: usize,
}

impl ReportedOnce {
    pub fn new(capacity: usize) -> Self {
        Self {
            seen: Mutex::new(Seen::default()),
            capacity: capacity.max(1),
        }
    }

    /// `true` the first time `(stream, version)` is reported (again after it was
    /// forgotten to make room).
    pub fn first_time(&self, stream: &str, version: u64) -> bool {
        let mut seen = self.seen.lock().unwrap_or_else(|e| e.into_inner());
        let key = (stream.to_owned(), version);
        if seen.pairs.contains(&key) {
            return false;
        }
        if seen.oldest_first.len() >= self.capacity
            && let Some(oldest) = seen.oldest_first.pop_front()
        {
            seen.pairs.remove(&oldest);
        }
        seen.pairs.insert(key.clone());
        seen.oldest_first.push_back(key);
        true
    }
}

/// Stream and versions remembered as reported, per kind of stream.
pub const REPORTED_CAPACITY: usize = 1024;

/// The problem for a corrupt stream, logged the first time.
pub fn corrupt(
    reported: &ReportedOnce,
    stream: String,
    version: u64,
    why: Corruption,
    detail: impl std::fmt::Display,
) -> ApiError {
    if reported.first_time(&stream, version) {
        tracing::error!(
            stream = %stream,
            version,
            reason = why.reason(),
            detail = %detail,
            "a stored stream does not read back as written"
        );
    }
    ApiError::StreamCorrupt {
        stream,
        version,
        reason: why.reason(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_read_after_any_cursor_starts_without_overflow() {
        let chain = ChainOnRead::after(u64::MAX);
        assert_eq!(chain.expected_version, u64::MAX);
        assert!(ChainOnRead::after(0).prev_hash.is_some());
    }

    #[test]
    fn each_stream_and_version_is_reported_once_within_the_bound() {
        let reported = ReportedOnce::new(2);
        assert!(reported.first_time("table-1", 7));
        assert!(!reported.first_time("table-1", 7));
        assert!(reported.first_time("table-1", 8));
        assert!(reported.first_time("table-2", 1));
        // The oldest made room, and is reported again.
        assert!(reported.first_time("table-1", 7));
        assert!(!reported.first_time("table-2", 1));
    }
}
