//! A stored event as verification reads it: the fields its hash covers. The server's
//! rows and an archive's events both are one ([`Row`]), so every check runs on either
//! without copying a payload.

use crate::chain::{Hash, HashInput};

/// A stored event, in version order within its stream.
pub trait Row {
    /// Its version (1 for a stream's first event).
    fn version(&self) -> u64;
    /// Its type name, as stored beside the payload.
    fn event_type(&self) -> &str;
    /// The exact JSON text stored and hashed.
    fn payload(&self) -> &str;
    /// The stored hash.
    fn hash(&self) -> &Hash;
    /// Every field the hash covers.
    fn hash_input(&self) -> HashInput<'_>;

    /// Whether the stored hash is the hash of the stored fields.
    fn hash_holds(&self) -> bool {
        self.hash_input().digest() == *self.hash()
    }
}

/// A stored event owned by verification: what an archive gives for each event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EventRow {
    pub stream_id: String,
    pub version: u64,
    pub event_type: String,
    pub payload: String,
    pub actor: String,
    pub request_id: Option<String>,
    pub idempotency_key: Option<String>,
    /// When it was stored, in microseconds since the Unix epoch (what the hash covers).
    pub recorded_at_micros: i64,
    pub prev_hash: Hash,
    pub hash: Hash,
}

impl Row for EventRow {
    fn version(&self) -> u64 {
        self.version
    }

    fn event_type(&self) -> &str {
        &self.event_type
    }

    fn payload(&self) -> &str {
        &self.payload
    }

    fn hash(&self) -> &Hash {
        &self.hash
    }

    fn hash_input(&self) -> HashInput<'_> {
        HashInput {
            stream_id: &self.stream_id,
            version: self.version,
            event_type: &self.event_type,
            payload: &self.payload,
            actor: &self.actor,
            request_id: self.request_id.as_deref(),
            idempotency_key: self.idempotency_key.as_deref(),
            recorded_at_micros: self.recorded_at_micros,
            prev_hash: &self.prev_hash,
        }
    }
}

/// The version of the last of `events` (0 for none).
pub fn last_version<R: Row>(events: &[R]) -> u64 {
    events.last().map_or(0, Row::version)
}
