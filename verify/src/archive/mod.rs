//! A championship archive (`yaniv-archive/1`): one file holding everything needed to
//! check a tournament without the server that ran it.
//!
//! - The types here are the file: the tournament's stream, the stream of every online
//!   game it opened (voided ones included), each event with every field its hash
//!   covers, and the checkpoints that recorded those streams, each head with its Merkle
//!   path to the checkpoint's root. Paper results are events of the tournament's
//!   stream, so they come with it. The server builds one from its store.
//! - [`check`]: re-derives and checks all of it offline, with the code the server's
//!   own verification runs: each stream's hash chain, each game replayed through the
//!   rules (deals against their commitments), the tournament's draws, results and
//!   ranking, each online result against its game, no finished game without its
//!   result, and every stream against the checkpoints (the roots recomputed from the
//!   paths, to compare with the roots the operator published), one of which must
//!   record each stream at its last version (`completeness.rs`). `yaniv verify ARCHIVE`
//!   runs it.
//!
//! `docs/verification.md` specifies every step for a verifier written elsewhere.

pub mod check;
mod completeness;
mod failure;

pub use check::{ArchiveFailure, ArchiveVerdict, SealedStream, verify};

use serde::{Deserialize, Serialize};
use time::OffsetDateTime;

use crate::chain::Hash;
use crate::merkle::ProofStep;
use crate::row::EventRow;

/// Names the layout of an archive.
pub const FORMAT: &str = "yaniv-archive/1";

/// A tournament and its games, as stored.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Archive {
    /// `yaniv-archive/1`.
    #[cfg_attr(feature = "openapi", schema(example = "yaniv-archive/1"))]
    pub format: String,
    pub tournament_id: i64,
    /// When the server wrote the archive.
    #[serde(with = "time::serde::rfc3339")]
    #[cfg_attr(feature = "openapi", schema(value_type = String, format = DateTime))]
    pub exported_at: OffsetDateTime,
    /// The tournament's stream (`tournament-<id>`) first, then every game stream
    /// (`table-<id>`) the tournament opened, by id.
    pub streams: Vec<ArchivedStream>,
    /// The checkpoints that recorded these streams (for each stream and version, the
    /// first checkpoint that recorded it, and last the one the archive was cut at,
    /// which records every stream at the head the archive holds), by id.
    pub checkpoints: Vec<ArchivedCheckpoint>,
}

/// One stream, every event of it in version order, or, while one of its rounds is in
/// play, every event before that round's first secret.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ArchivedStream {
    #[cfg_attr(feature = "openapi", schema(example = "table-12"))]
    pub stream_id: String,
    pub events: Vec<ArchivedEvent>,
    /// A game stream whose round is in play: the version of its first event left out
    /// (the round's committed seed or its deal). The events from there on leave the
    /// server once the round is over; a checkpoint head past it is left out too.
    /// Absent when the stream is whole.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sealed_from: Option<u64>,
}

/// One stored event with every field its hash covers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ArchivedEvent {
    pub version: u64,
    #[serde(rename = "type")]
    #[cfg_attr(feature = "openapi", schema(example = "turn_played.v1"))]
    pub event_type: String,
    /// The JSON text exactly as stored and hashed (a string, not an object: a
    /// re-serialised object would not hash the same).
    pub payload: String,
    /// Who caused it: `account:<id>` or `system`.
    pub actor: String,
    pub request_id: Option<String>,
    pub idempotency_key: Option<String>,
    /// When it was stored, in microseconds since the Unix epoch (what the hash covers).
    pub recorded_at_micros: i64,
    /// Hex SHA-256 of the previous event (64 zeros for version 1).
    pub prev_hash: String,
    /// Hex SHA-256 of this event.
    pub hash: String,
}

/// A checkpoint, with the heads of the archive's streams it recorded.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ArchivedCheckpoint {
    pub id: i64,
    #[serde(with = "time::serde::rfc3339")]
    #[cfg_attr(feature = "openapi", schema(value_type = String, format = DateTime))]
    pub created_at: OffsetDateTime,
    /// `yaniv/checkpoint/v1`.
    pub format: String,
    /// Hex Merkle root over every head of the checkpoint: the value that was published.
    pub root: String,
    /// How many streams the whole checkpoint recorded.
    pub streams: u64,
    /// The heads of this archive's streams in it.
    pub heads: Vec<ArchivedHead>,
}

/// One stream's head in a checkpoint, and the path from its leaf to the root.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ArchivedHead {
    pub stream_id: String,
    pub version: u64,
    /// Hex hash of the stream's event at `version`.
    pub head_hash: String,
    /// From the leaf up: each step names the sibling's hash and its side.
    pub path: Vec<PathStep>,
}

/// A sibling on the way from a leaf to the root.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum PathStep {
    /// Hex hash to the left: `node(sibling, value)`.
    Left(String),
    /// Hex hash to the right: `node(value, sibling)`.
    Right(String),
}

impl From<&ProofStep> for PathStep {
    fn from(step: &ProofStep) -> Self {
        match step {
            ProofStep::Left(hash) => Self::Left(hex::encode(hash)),
            ProofStep::Right(hash) => Self::Right(hex::encode(hash)),
        }
    }
}

impl PathStep {
    /// The step, or `None` when its hash is not 64 hex digits.
    pub fn decode(&self) -> Option<ProofStep> {
        Some(match self {
            Self::Left(hash) => ProofStep::Left(decode_hash(hash)?),
            Self::Right(hash) => ProofStep::Right(decode_hash(hash)?),
        })
    }
}

/// 64 hex digits as a hash.
pub fn decode_hash(hex_digits: &str) -> Option<Hash> {
    let mut hash = [0u8; 32];
    hex::decode_to_slice(hex_digits, &mut hash).ok()?;
    Some(hash)
}

impl ArchivedEvent {
    /// The event as a stored row, for the checks; `None` when a hash is malformed or the
    /// version or the time is out of range.
    pub fn to_row(&self, stream_id: &str) -> Option<EventRow> {
        i64::try_from(self.version).ok()?;
        let nanos = i128::from(self.recorded_at_micros) * 1000;
        OffsetDateTime::from_unix_timestamp_nanos(nanos).ok()?;
        Some(EventRow {
            stream_id: stream_id.to_owned(),
            version: self.version,
            event_type: self.event_type.clone(),
            payload: self.payload.clone(),
            actor: self.actor.clone(),
            request_id: self.request_id.clone(),
            idempotency_key: self.idempotency_key.clone(),
            recorded_at_micros: self.recorded_at_micros,
            prev_hash: decode_hash(&self.prev_hash)?,
            hash: decode_hash(&self.hash)?,
        })
    }
}
