//! The per-stream SHA-256 hash chain: what an event's hash covers, and how a chain
//! read back from the database is checked.
//!
//! ```text
//! hash = SHA-256( "yaniv/event/v1\0"
//!               ‖ str(stream_id) ‖ u64be(version) ‖ str(event_type) ‖ str(payload)
//!               ‖ str(actor) ‖ opt(request_id) ‖ opt(idempotency_key)
//!               ‖ i64be(recorded_at in µs since the Unix epoch)
//!               ‖ prev_hash )
//! str(s) = u64be(byte length) ‖ bytes        opt(None) = 0x00, opt(Some(s)) = 0x01 ‖ str(s)
//! ```
//!
//! `prev_hash` is the hash of the previous version of the same stream, or
//! [`GENESIS_HASH`] (32 zero bytes) for version 1. Every variable-length field is
//! length-prefixed, so no two different events hash the same bytes. `payload` is the
//! exact JSON text stored in the `payload` column: the chain is recomputed from the
//! stored bytes, never from a re-serialisation.
//!
//! The chain shows that history was changed after the fact (by someone able to
//! bypass the append-only trigger), but not by whom; an attacker who rewrites a
//! stream's tail and recomputes every later hash is only caught by comparing the head
//! hash with one published or stored elsewhere (a later checkpoint, see
//! `docs/checkpoints.md` and [`crate::checkpoint`]).

use sha2::{Digest, Sha256};

/// A SHA-256 digest.
pub type Hash = [u8; 32];

/// `prev_hash` of every stream's first event.
pub const GENESIS_HASH: Hash = [0u8; 32];

/// Domain-separation tag, versioned so the encoding can evolve.
const DOMAIN_TAG: &[u8] = b"yaniv/event/v1\0";

/// The fields an event's hash covers, borrowed from a new or a stored event.
#[derive(Debug, Clone, Copy)]
pub struct HashInput<'a> {
    pub stream_id: &'a str,
    pub version: u64,
    pub event_type: &'a str,
    pub payload: &'a str,
    pub actor: &'a str,
    pub request_id: Option<&'a str>,
    pub idempotency_key: Option<&'a str>,
    pub recorded_at_micros: i64,
    pub prev_hash: &'a Hash,
}

impl HashInput<'_> {
    /// The event's hash.
    pub fn digest(&self) -> Hash {
        let mut h = Sha256::new();
        h.update(DOMAIN_TAG);
        put_str(&mut h, self.stream_id);
        h.update(self.version.to_be_bytes());
        put_str(&mut h, self.event_type);
        put_str(&mut h, self.payload);
        put_str(&mut h, self.actor);
        put_opt(&mut h, self.request_id);
        put_opt(&mut h, self.idempotency_key);
        h.update(self.recorded_at_micros.to_be_bytes());
        h.update(self.prev_hash);
        h.finalize().into()
    }
}

fn put_str(h: &mut Sha256, s: &str) {
    h.update((s.len() as u64).to_be_bytes());
    h.update(s.as_bytes());
}

fn put_opt(h: &mut Sha256, s: Option<&str>) {
    match s {
        None => h.update([0u8]),
        Some(s) => {
            h.update([1u8]);
            put_str(h, s);
        }
    }
}

/// Why a stream's chain is broken at some version.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChainBreak {
    /// Versions are not 1, 2, 3, ... (a row is missing or was renumbered).
    VersionGap,
    /// `prev_hash` differs from the previous event's stored hash.
    PrevHashMismatch,
    /// The stored hash differs from the one recomputed from the stored fields.
    HashMismatch,
}

/// Outcome of checking a stream's chain.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ChainStatus {
    /// Every event checks out; `head` is the last event's hash (`None` when empty).
    Intact { events: u64, head: Option<Hash> },
    /// `version` is the first event that does not check out.
    Broken { version: u64, reason: ChainBreak },
}

/// Checks a stream's events one by one, in version order.
#[derive(Debug, Clone)]
pub struct ChainVerifier {
    expected_version: u64,
    prev_hash: Hash,
}

impl Default for ChainVerifier {
    fn default() -> Self {
        Self {
            expected_version: 1,
            prev_hash: GENESIS_HASH,
        }
    }
}

impl ChainVerifier {
    pub fn new() -> Self {
        Self::default()
    }

    /// Checks the next event; `stored_prev` and `stored_hash` are the columns read
    /// back, `input.prev_hash` must point at `stored_prev`.
    pub fn check(
        &mut self,
        input: &HashInput<'_>,
        stored_hash: &Hash,
    ) -> Result<(), (u64, ChainBreak)> {
        let version = input.version;
        if version != self.expected_version {
            // The first version that should be there but is not.
            return Err((self.expected_version.min(version), ChainBreak::VersionGap));
        }
        if *input.prev_hash != self.prev_hash {
            return Err((version, ChainBreak::PrevHashMismatch));
        }
        if input.digest() != *stored_hash {
            return Err((version, ChainBreak::HashMismatch));
        }
        self.expected_version += 1;
        self.prev_hash = *stored_hash;
        Ok(())
    }

    /// The status once every event has been checked.
    pub fn finish(self) -> ChainStatus {
        let events = self.expected_version - 1;
        ChainStatus::Intact {
            events,
            head: (events > 0).then_some(self.prev_hash),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Ev {
        version: u64,
        payload: String,
        prev: Hash,
        hash: Hash,
    }

    fn input<'a>(version: u64, payload: &'a str, prev: &'a Hash) -> HashInput<'a> {
        HashInput {
            stream_id: "table-1",
            version,
            event_type: "Dealt",
            payload,
            actor: "account:1",
            request_id: Some("req"),
            idempotency_key: None,
            recorded_at_micros: 1_700_000_000_000_000,
            prev_hash: prev,
        }
    }

    fn chain(n: u64) -> Vec<Ev> {
        let mut prev = GENESIS_HASH;
        (1..=n)
            .map(|version| {
                let payload = format!("{{\"n\":{version}}}");
                let hash = input(version, &payload, &prev).digest();
                let ev = Ev {
                    version,
                    payload,
                    prev,
                    hash,
                };
                prev = hash;
                ev
            })
            .collect()
    }

    fn verify(events: &[Ev]) -> ChainStatus {
        let mut v = ChainVerifier::new();
        for e in events {
            if let Err((version, reason)) = v.check(&input(e.version, &e.payload, &e.prev), &e.hash)
            {
                return ChainStatus::Broken { version, reason };
            }
        }
        v.finish()
    }

    #[test]
    fn an_untouched_chain_is_intact() {
        let events = chain(5);
        assert_eq!(
            verify(&events),
            ChainStatus::Intact {
                events: 5,
                head: Some(events[4].hash)
            }
        );
        assert_eq!(
            verify(&[]),
            ChainStatus::Intact {
                events: 0,
                head: None
            }
        );
    }

    #[test]
    fn a_changed_payload_names_its_version() {
        let mut events = chain(5);
        events[2].payload = "{\"n\":99}".into();
        assert_eq!(
            verify(&events),
            ChainStatus::Broken {
                version: 3,
                reason: ChainBreak::HashMismatch
            }
        );
    }

    #[test]
    fn a_recomputed_hash_breaks_the_next_link() {
        let mut events = chain(5);
        events[2].payload = "{\"n\":99}".into();
        events[2].hash = input(3, &events[2].payload, &events[2].prev).digest();
        assert_eq!(
            verify(&events),
            ChainStatus::Broken {
                version: 4,
                reason: ChainBreak::PrevHashMismatch
            }
        );
    }

    #[test]
    fn a_deleted_event_is_a_gap() {
        let mut events = chain(5);
        events.remove(1);
        assert_eq!(
            verify(&events),
            ChainStatus::Broken {
                version: 2,
                reason: ChainBreak::VersionGap
            }
        );
    }

    #[test]
    fn every_field_is_covered() {
        let prev = GENESIS_HASH;
        let base = input(1, "{}", &prev);
        let other_prev = [1u8; 32];
        let variants = [
            HashInput {
                stream_id: "table-2",
                ..base
            },
            HashInput { version: 2, ..base },
            HashInput {
                event_type: "Drawn",
                ..base
            },
            HashInput {
                payload: "{ }",
                ..base
            },
            HashInput {
                actor: "account:2",
                ..base
            },
            HashInput {
                request_id: None,
                ..base
            },
            HashInput {
                idempotency_key: Some("k"),
                ..base
            },
            HashInput {
                recorded_at_micros: 1,
                ..base
            },
            HashInput {
                prev_hash: &other_prev,
                ..base
            },
        ];
        for v in variants {
            assert_ne!(v.digest(), base.digest(), "{v:?}");
        }
        // Length prefixes keep field boundaries apart.
        let a = HashInput {
            stream_id: "ab",
            event_type: "c",
            ..base
        };
        let b = HashInput {
            stream_id: "a",
            event_type: "bc",
            ..base
        };
        assert_ne!(a.digest(), b.digest());
    }
}
