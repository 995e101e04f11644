//! Checkpoints of every stream head: the document (`docs/checkpoints.md`), its Merkle
//! root ([`crate::merkle`]), and a stream compared with every checkpoint that recorded
//! it ([`check_stream`]): a stream now shorter than a checkpointed version was
//! truncated; a stream whose hash at a checkpointed version differs was rewritten,
//! whatever its chain says now.

use serde::Serialize;
use time::OffsetDateTime;

use crate::chain::Hash;
use crate::merkle::{self, HeadLeaf};
use crate::report::VerifyFailure;
use crate::row::{Row, last_version};

/// Names the layout of a checkpoint and of its root (`docs/checkpoints.md`).
pub const FORMAT: &str = "yaniv/checkpoint/v1";

/// One stream's head in a checkpoint.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Head {
    #[cfg_attr(feature = "openapi", schema(example = "table-12"))]
    pub stream_id: String,
    /// The stream's version: its number of events.
    #[cfg_attr(feature = "openapi", schema(example = 87))]
    pub version: u64,
    /// Hex SHA-256 of the stream's event at that version (its chain hash).
    #[serde(serialize_with = "as_hex")]
    #[cfg_attr(feature = "openapi", schema(value_type = String))]
    pub head_hash: Hash,
}

/// A checkpoint: every stream head at one moment, and the root over them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Checkpoint {
    pub id: i64,
    #[serde(with = "time::serde::rfc3339")]
    #[cfg_attr(feature = "openapi", schema(value_type = String, format = DateTime))]
    pub created_at: OffsetDateTime,
    /// `yaniv/checkpoint/v1`: how `root` is computed from `heads`.
    #[cfg_attr(feature = "openapi", schema(example = "yaniv/checkpoint/v1"))]
    pub format: String,
    /// Hex Merkle root over `heads`: the value to publish.
    #[serde(serialize_with = "as_hex")]
    #[cfg_attr(feature = "openapi", schema(value_type = String))]
    pub root: Hash,
    /// Every stream, sorted by the bytes of its id.
    pub heads: Vec<Head>,
}

fn as_hex<S: serde::Serializer>(hash: &Hash, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_str(&hex::encode(hash))
}

/// The Merkle root of `heads`, sorted by stream id.
pub fn root_of(heads: &[Head]) -> Hash {
    let leaves: Vec<HeadLeaf<'_>> = heads
        .iter()
        .map(|h| HeadLeaf {
            stream_id: &h.stream_id,
            version: h.version,
            hash: &h.head_hash,
        })
        .collect();
    merkle::root(&leaves)
}

/// What one checkpoint says of one stream.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CoveredHead {
    pub checkpoint_id: i64,
    pub created_at: OffsetDateTime,
    pub version: u64,
    pub hash: Hash,
}

/// The verdict of the checkpoints on one stream.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CheckpointReport {
    pub ok: bool,
    /// `truncated_since_checkpoint` (the stream ends before a checkpointed version: at
    /// the first version missing) or `rewritten_since_checkpoint` (its hash at a
    /// checkpointed version differs: at that version); on the server also
    /// `checkpoint_head_removed` and `checkpoint_root_mismatch`
    /// ([`crate::checkpoint_root`]).
    pub first_failure: Option<VerifyFailure>,
    /// Checkpoints compared with the stream.
    pub checked: u64,
}

/// Compares the stored `events` of a stream (in version order) with every checkpoint
/// that `covered` it.
pub fn check_stream<R: Row>(covered: &[CoveredHead], events: &[R]) -> CheckpointReport {
    let mut last_agreeing = 0;
    for head in covered {
        let stored = events
            .binary_search_by_key(&head.version, |e| e.version())
            .ok()
            .map(|index| &events[index]);
        let failure = match stored {
            // Named at the first version gone, as the listing row names a cut tail:
            // the stream ends before it, and the checkpoint says it existed.
            None if head.version > last_version(events) => Some(VerifyFailure {
                version: last_version(events) + 1,
                code: "truncated_since_checkpoint".into(),
                reason: format!(
                    "checkpoint {} of {} recorded version {}; the stream now ends at \
                         version {}: its tail from version {} on was deleted",
                    head.checkpoint_id,
                    head.created_at,
                    head.version,
                    last_version(events),
                    last_version(events) + 1
                ),
            }),
            Some(event) if *event.hash() == head.hash => {
                last_agreeing = head.version;
                None
            }
            _ => Some(VerifyFailure {
                version: head.version,
                code: "rewritten_since_checkpoint".into(),
                reason: format!(
                    "the hash at version {} is not the one checkpoint {} of {} recorded: an \
                     event from version {} to {} was changed after it",
                    head.version,
                    head.checkpoint_id,
                    head.created_at,
                    last_agreeing + 1,
                    head.version
                ),
            }),
        };
        if failure.is_some() {
            return CheckpointReport {
                ok: false,
                first_failure: failure,
                checked: covered.len() as u64,
            };
        }
    }
    CheckpointReport {
        ok: true,
        first_failure: None,
        checked: covered.len() as u64,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::row::EventRow;

    fn event(version: u64, hash: u8) -> EventRow {
        EventRow {
            stream_id: "table-1".into(),
            version,
            event_type: "t".into(),
            payload: "{}".into(),
            actor: "system".into(),
            request_id: None,
            idempotency_key: None,
            recorded_at_micros: 0,
            prev_hash: [0; 32],
            hash: [hash; 32],
        }
    }

    fn head(checkpoint_id: i64, version: u64, hash: u8) -> CoveredHead {
        CoveredHead {
            checkpoint_id,
            created_at: OffsetDateTime::UNIX_EPOCH,
            version,
            hash: [hash; 32],
        }
    }

    #[test]
    fn a_stream_that_kept_its_checkpointed_heads_checks_out() {
        let events: Vec<_> = (1..=5).map(|v| event(v, v as u8)).collect();
        let report = check_stream(&[head(1, 2, 2), head(2, 5, 5)], &events);
        assert!(report.ok);
        assert_eq!(report.checked, 2);
    }

    #[test]
    fn a_shorter_stream_fails_where_it_ends_and_a_rewritten_one_at_the_checkpointed_version() {
        let events: Vec<_> = (1..=5).map(|v| event(v, v as u8)).collect();
        // docs/verification.md 20.3: "`truncated_since_checkpoint` at the first
        // version missing (the stream's last version + 1)".
        let truncated = check_stream(&[head(1, 2, 2), head(2, 7, 7)], &events);
        let failure = truncated.first_failure.unwrap();
        assert_eq!(
            (failure.version, failure.code.as_str()),
            (6, "truncated_since_checkpoint")
        );
        let rewritten = check_stream(&[head(1, 2, 2), head(2, 4, 9)], &events);
        let failure = rewritten.first_failure.unwrap();
        assert_eq!(
            (failure.version, failure.code.as_str()),
            (4, "rewritten_since_checkpoint")
        );
        assert!(
            failure.reason.contains("from version 3 to 4"),
            "{failure:?}"
        );
    }
}
