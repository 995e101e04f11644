//! Checkpoints of every stream head (`migrations/0006_checkpoints.sql`,
//! `docs/checkpoints.md`).
//!
//! A checkpoint records, for every stream, its version and the hash of its last
//! event, and a Merkle root over them ([`merkle`]). It is written by a background
//! task every `YANIV_CHECKPOINT_INTERVAL_SECS` ([`task`]) and by `yaniv-server
//! checkpoint`, which prints it for publication outside the database. Verification
//! compares a stream with every checkpoint that covers it ([`check_stream`]): a
//! stream now shorter than a checkpointed version was truncated; a stream whose hash
//! at a checkpointed version differs was rewritten, whatever its chain says now.

pub mod merkle;
pub mod task;

use serde::Serialize;
use sqlx::PgPool;
use time::OffsetDateTime;
use utoipa::ToSchema;

use self::merkle::HeadLeaf;
use crate::store::RecordedEvent;
use crate::store::hash::Hash;
use crate::tables::verify::VerifyFailure;

/// Names the layout of a checkpoint and of its root (`docs/checkpoints.md`).
pub const FORMAT: &str = "yaniv/checkpoint/v1";

/// One stream's head in a checkpoint.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct Head {
    #[schema(example = "table-12")]
    pub stream_id: String,
    /// The stream's version: its number of events.
    #[schema(example = 87)]
    pub version: u64,
    /// Hex SHA-256 of the stream's event at that version (its chain hash).
    #[serde(serialize_with = "as_hex")]
    #[schema(value_type = String)]
    pub head_hash: Hash,
}

/// A checkpoint: every stream head at one moment, and the root over them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct Checkpoint {
    pub id: i64,
    #[serde(with = "time::serde::rfc3339")]
    #[schema(value_type = String, format = DateTime)]
    pub created_at: OffsetDateTime,
    /// `yaniv/checkpoint/v1`: how `root` is computed from `heads`.
    #[schema(example = "yaniv/checkpoint/v1")]
    pub format: String,
    /// Hex Merkle root over `heads`: the value to publish.
    #[serde(serialize_with = "as_hex")]
    #[schema(value_type = String)]
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

fn to_u64(version: i64) -> u64 {
    // The schema guarantees version >= 1.
    u64::try_from(version).unwrap_or(0)
}

fn heads_from_rows(rows: Vec<(String, i64, Hash)>) -> Vec<Head> {
    let mut heads: Vec<Head> = rows
        .into_iter()
        .map(|(stream_id, version, head_hash)| Head {
            stream_id,
            version: to_u64(version),
            head_hash,
        })
        .collect();
    // The database's collation may order text otherwise: the format says bytes.
    heads.sort_by(|a, b| a.stream_id.as_bytes().cmp(b.stream_id.as_bytes()));
    heads
}

/// Every stream's head now, read in one statement (one snapshot).
async fn heads_now(conn: &mut sqlx::PgConnection) -> Result<Vec<Head>, sqlx::Error> {
    let rows: Vec<(String, i64, Hash)> = sqlx::query_as(
        "SELECT DISTINCT ON (stream_id) stream_id, version, hash FROM events \
         ORDER BY stream_id, version DESC",
    )
    .fetch_all(conn)
    .await?;
    Ok(heads_from_rows(rows))
}

/// Writes a checkpoint of every stream head now.
pub async fn write(pool: &PgPool) -> Result<Checkpoint, sqlx::Error> {
    let mut tx = pool.begin().await?;
    let heads = heads_now(&mut tx).await?;
    let checkpoint = insert(&mut tx, heads).await?;
    tx.commit().await?;
    Ok(checkpoint)
}

/// Writes a checkpoint unless every head is what the latest checkpoint recorded (no
/// stream moved): `None` then, so an idle server adds nothing.
pub async fn write_if_changed(pool: &PgPool) -> Result<Option<Checkpoint>, sqlx::Error> {
    let mut tx = pool.begin().await?;
    let heads = heads_now(&mut tx).await?;
    let latest_root: Option<Hash> =
        sqlx::query_scalar("SELECT root FROM checkpoints ORDER BY id DESC LIMIT 1")
            .fetch_optional(&mut *tx)
            .await?;
    if latest_root == Some(root_of(&heads)) {
        return Ok(None);
    }
    let checkpoint = insert(&mut tx, heads).await?;
    tx.commit().await?;
    Ok(Some(checkpoint))
}

async fn insert(
    conn: &mut sqlx::PgConnection,
    heads: Vec<Head>,
) -> Result<Checkpoint, sqlx::Error> {
    let root = root_of(&heads);
    let (id, created_at): (i64, OffsetDateTime) = sqlx::query_as(
        "INSERT INTO checkpoints (root, streams) VALUES ($1, $2) RETURNING id, created_at",
    )
    .bind(root.to_vec())
    .bind(i64::try_from(heads.len()).unwrap_or(i64::MAX))
    .fetch_one(&mut *conn)
    .await?;
    let streams: Vec<&str> = heads.iter().map(|h| h.stream_id.as_str()).collect();
    let versions: Vec<i64> = heads
        .iter()
        .map(|h| i64::try_from(h.version).unwrap_or(i64::MAX))
        .collect();
    let hashes: Vec<Vec<u8>> = heads.iter().map(|h| h.head_hash.to_vec()).collect();
    sqlx::query(
        "INSERT INTO checkpoint_heads (checkpoint_id, stream_id, version, hash) \
         SELECT $1, h.stream_id, h.version, h.hash \
         FROM UNNEST($2::text[], $3::bigint[], $4::bytea[]) AS h(stream_id, version, hash)",
    )
    .bind(id)
    .bind(&streams)
    .bind(&versions)
    .bind(&hashes)
    .execute(&mut *conn)
    .await?;
    Ok(Checkpoint {
        id,
        created_at,
        format: FORMAT.to_owned(),
        root,
        heads,
    })
}

/// The latest checkpoint, with its heads.
pub async fn latest(pool: &PgPool) -> Result<Option<Checkpoint>, sqlx::Error> {
    let found: Option<(i64, OffsetDateTime, Hash)> =
        sqlx::query_as("SELECT id, created_at, root FROM checkpoints ORDER BY id DESC LIMIT 1")
            .fetch_optional(pool)
            .await?;
    with_heads(pool, found).await
}

/// Checkpoint `id`, with its heads.
pub async fn by_id(pool: &PgPool, id: i64) -> Result<Option<Checkpoint>, sqlx::Error> {
    let found: Option<(i64, OffsetDateTime, Hash)> =
        sqlx::query_as("SELECT id, created_at, root FROM checkpoints WHERE id = $1")
            .bind(id)
            .fetch_optional(pool)
            .await?;
    with_heads(pool, found).await
}

async fn with_heads(
    pool: &PgPool,
    found: Option<(i64, OffsetDateTime, Hash)>,
) -> Result<Option<Checkpoint>, sqlx::Error> {
    let Some((id, created_at, root)) = found else {
        return Ok(None);
    };
    let rows: Vec<(String, i64, Hash)> = sqlx::query_as(
        "SELECT stream_id, version, hash FROM checkpoint_heads WHERE checkpoint_id = $1",
    )
    .bind(id)
    .fetch_all(pool)
    .await?;
    Ok(Some(Checkpoint {
        id,
        created_at,
        format: FORMAT.to_owned(),
        root,
        heads: heads_from_rows(rows),
    }))
}

/// What one checkpoint says of one stream.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CoveredHead {
    pub checkpoint_id: i64,
    pub created_at: OffsetDateTime,
    pub version: u64,
    pub hash: Hash,
}

/// Every checkpoint that covers `stream`, by version.
pub async fn covering(pool: &PgPool, stream: &str) -> Result<Vec<CoveredHead>, sqlx::Error> {
    let rows: Vec<(i64, OffsetDateTime, i64, Hash)> = sqlx::query_as(
        "SELECT h.checkpoint_id, c.created_at, h.version, h.hash \
         FROM checkpoint_heads h JOIN checkpoints c ON c.id = h.checkpoint_id \
         WHERE h.stream_id = $1 ORDER BY h.version, h.checkpoint_id",
    )
    .bind(stream)
    .fetch_all(pool)
    .await?;
    Ok(rows
        .into_iter()
        .map(|(checkpoint_id, created_at, version, hash)| CoveredHead {
            checkpoint_id,
            created_at,
            version: to_u64(version),
            hash,
        })
        .collect())
}

/// The verdict of the checkpoints on one stream.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct CheckpointReport {
    pub ok: bool,
    /// `truncated_since_checkpoint` (the stream ends before a checkpointed version) or
    /// `rewritten_since_checkpoint` (its hash at a checkpointed version differs), at
    /// the checkpointed version.
    pub first_failure: Option<VerifyFailure>,
    /// Checkpoints compared with the stream.
    pub checked: u64,
}

/// Compares the stored `events` of a stream (in version order) with every checkpoint
/// that `covered` it.
pub fn check_stream(covered: &[CoveredHead], events: &[RecordedEvent]) -> CheckpointReport {
    let mut last_agreeing = 0;
    for head in covered {
        let stored = events
            .binary_search_by_key(&head.version, |e| to_u64(e.version))
            .ok()
            .map(|index| &events[index]);
        let failure = match stored {
            None if head.version > events.last().map_or(0, |e| to_u64(e.version)) => {
                Some(VerifyFailure {
                    version: head.version,
                    code: "truncated_since_checkpoint".into(),
                    reason: format!(
                        "checkpoint {} of {} recorded version {}; the stream now ends at \
                         version {}",
                        head.checkpoint_id,
                        head.created_at,
                        head.version,
                        events.last().map_or(0, |e| to_u64(e.version))
                    ),
                })
            }
            Some(event) if event.hash == head.hash => {
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
    use crate::store::TransactionId;

    fn event(version: i64, hash: u8) -> RecordedEvent {
        RecordedEvent {
            global_position: version,
            stream_id: "table-1".into(),
            version,
            event_type: "t".into(),
            payload: "{}".into(),
            actor: "system".into(),
            request_id: None,
            idempotency_key: None,
            recorded_at: OffsetDateTime::UNIX_EPOCH,
            prev_hash: [0; 32],
            hash: [hash; 32],
            transaction_id: TransactionId(1),
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
    fn a_shorter_or_rewritten_stream_fails_at_the_checkpointed_version() {
        let events: Vec<_> = (1..=5).map(|v| event(v, v as u8)).collect();
        let truncated = check_stream(&[head(1, 2, 2), head(2, 7, 7)], &events);
        let failure = truncated.first_failure.unwrap();
        assert_eq!(
            (failure.version, failure.code.as_str()),
            (7, "truncated_since_checkpoint")
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
