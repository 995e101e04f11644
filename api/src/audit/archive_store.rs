//! A finished tournament's archive, built once and kept (`tournament_archives`,
//! migration 0021), then served in slices.
//!
//! A 160-player championship gives an archive of about 50 MB: building it for every
//! request took over a second and hundreds of megabytes each, so a few anonymous
//! readers could exhaust the server. Now the first read of a finished tournament
//! builds it (one build at a time on an instance, see [`turn`]) and stores it with
//! its SHA-256, which is also its `ETag`; every read after that sends the stored copy
//! in [`SLICE_BYTES`] slices, each read from the database as it is sent, so a reader
//! holds at most a couple of slices in memory however large the archive.
//!
//! The copy is kept while what it was built from is the same ([`Stamp`]): the
//! tournament's version, its game tables' versions, and the latest checkpoint.
//!
//! With a replica configured, the stamp and the copy's SHA-256 are read on the primary
//! and the slices on the replica, each slice asked for by that SHA-256: a replica that
//! has not replayed the copy yet (or holds an older one) gives nothing, and the primary
//! gives that slice. The bytes sent are the primary's copy whatever the replica's lag.

use std::sync::Arc;
use std::time::Duration;

use actix_web::web::Bytes;
use sha2::{Digest, Sha256};
use sqlx::PgPool;
use tokio::sync::{OwnedSemaphorePermit, Semaphore, mpsc};

use crate::error::ApiError;

/// How much of a stored archive one read from the database brings.
pub const SLICE_BYTES: i32 = 256 * 1024;

/// What a stored archive was built from; it holds while all three are unchanged.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stamp {
    pub tournament_version: i64,
    pub tables_version: i64,
    pub checkpoint_id: i64,
}

impl Stamp {
    /// The stamp of an archive cut at checkpoint `id`: the checkpoint it carries may be
    /// newer than the latest one when the stamp was read (it was taken for it), and the
    /// next reader's stamp names that one.
    pub fn cut_at(self, id: i64) -> Self {
        Self {
            checkpoint_id: self.checkpoint_id.max(id),
            ..self
        }
    }
}

/// A stored archive: its SHA-256 (the `ETag`) and length.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stored {
    pub sha256: [u8; 32],
    pub bytes: i64,
}

impl Stored {
    /// The `ETag` value, quoted.
    pub fn etag(&self) -> String {
        format!("\"{}\"", hex::encode(self.sha256))
    }
}

/// What tournament `id` at `tournament_version` is built from now.
pub async fn stamp(pool: &PgPool, id: i64, tournament_version: u64) -> Result<Stamp, ApiError> {
    let (tables_version, checkpoint_id): (i64, i64) = sqlx::query_as(
        "SELECT (SELECT coalesce(sum(version), 0)::bigint FROM game_tables \
                 WHERE tournament_id = $1), \
                (SELECT coalesce(max(id), 0) FROM checkpoints)",
    )
    .bind(id)
    .fetch_one(pool)
    .await?;
    Ok(Stamp {
        tournament_version: i64::try_from(tournament_version).unwrap_or(i64::MAX),
        tables_version,
        checkpoint_id,
    })
}

/// The stored archive of `id`, if it was built from `stamp`.
pub async fn find(pool: &PgPool, id: i64, stamp: &Stamp) -> Result<Option<Stored>, ApiError> {
    let row: Option<(Vec<u8>, i64)> = sqlx::query_as(
        "SELECT sha256, bytes FROM tournament_archives \
         WHERE tournament_id = $1 AND tournament_version = $2 AND tables_version = $3 \
           AND checkpoint_id = $4",
    )
    .bind(id)
    .bind(stamp.tournament_version)
    .bind(stamp.tables_version)
    .bind(stamp.checkpoint_id)
    .fetch_optional(pool)
    .await?;
    Ok(row.and_then(|(sha256, bytes)| {
        Some(Stored {
            sha256: sha256.try_into().ok()?,
            bytes,
        })
    }))
}

/// Keeps `body` as the archive of `id` built from `stamp`, in place of any older copy.
pub async fn save(pool: &PgPool, id: i64, stamp: &Stamp, body: &[u8]) -> Result<Stored, ApiError> {
    let stored = Stored {
        sha256: Sha256::digest(body).into(),
        bytes: i64::try_from(body.len()).unwrap_or(i64::MAX),
    };
    sqlx::query(
        "INSERT INTO tournament_archives \
             (tournament_id, tournament_version, tables_version, checkpoint_id, sha256, bytes, body) \
         VALUES ($1, $2, $3, $4, $5, $6, $7) \
         ON CONFLICT (tournament_id) DO UPDATE SET \
             tournament_version = EXCLUDED.tournament_version, \
             tables_version = EXCLUDED.tables_version, checkpoint_id = EXCLUDED.checkpoint_id, \
             sha256 = EXCLUDED.sha256, bytes = EXCLUDED.bytes, body = EXCLUDED.body, \
             built_at = now()",
    )
    .bind(id)
    .bind(stamp.tournament_version)
    .bind(stamp.tables_version)
    .bind(stamp.checkpoint_id)
    .bind(stored.sha256.as_slice())
    .bind(stored.bytes)
    .bind(body)
    .execute(pool)
    .await?;
    Ok(stored)
}

/// Where the slices of a kept archive are read: the replica when it gave the first one
/// (the rest then come from it too, each checked by the archive's SHA-256 as the first
/// was), the primary for any slice the replica cannot give.
#[derive(Debug, Clone)]
pub struct SliceSources {
    pub primary: PgPool,
    pub replica: Option<PgPool>,
}

/// The slice of the stored archive `stored` of `id` that begins at byte `from`
/// (counted from 1), read on `db`; `None` when `db` holds no archive of `id` with
/// `stored`'s SHA-256 (a replica that has not replayed it yet, or a copy replaced).
pub async fn slice(
    db: impl sqlx::PgExecutor<'_>,
    id: i64,
    from: i32,
    stored: &Stored,
) -> Result<Option<Vec<u8>>, sqlx::Error> {
    let slice: Option<Vec<u8>> = sqlx::query_scalar(
        "SELECT substring(body FROM $2 FOR $3) FROM tournament_archives \
         WHERE tournament_id = $1 AND sha256 = $4",
    )
    .bind(id)
    .bind(from)
    .bind(SLICE_BYTES)
    .bind(stored.sha256.as_slice())
    .fetch_optional(db)
    .await?;
    Ok(slice.filter(|slice| !slice.is_empty()))
}

/// The stored archive of `id`, slice by slice, into a channel the response reads: the
/// next slice is read once the client has taken the one before. `first`, when given,
/// is the first slice, read already. A failed read ends the body early (the client
/// sees fewer bytes than `Content-Length` announced).
pub fn slices(
    sources: SliceSources,
    id: i64,
    stored: Stored,
    first: Option<Vec<u8>>,
) -> mpsc::Receiver<Bytes> {
    let (sender, receiver) = mpsc::channel(1);
    actix_web::rt::spawn(async move {
        let mut offset = 0i64;
        let mut next = first;
        while offset < stored.bytes {
            // PostgreSQL's substring counts in `integer`: a bytea is below 1 GB anyway.
            let Ok(from) = i32::try_from(offset + 1) else {
                tracing::warn!(tournament = id, offset, "a stored archive beyond 2 GB");
                return;
            };
            let read = match next.take() {
                Some(slice) => Ok(Some(slice)),
                None => read_slice(&sources, id, from, &stored).await,
            };
            let slice = match read {
                Ok(Some(slice)) => slice,
                Ok(None) => {
                    tracing::warn!(
                        tournament = id,
                        offset,
                        "the stored archive changed while it was sent"
                    );
                    return;
                }
                Err(error) => {
                    tracing::warn!(tournament = id, offset, %error, "reading the stored archive failed");
                    return;
                }
            };
            offset += i64::try_from(slice.len()).unwrap_or(i64::from(SLICE_BYTES));
            if sender.send(Bytes::from(slice)).await.is_err() {
                return;
            }
        }
    });
    receiver
}

/// One slice from the replica if it has it, else from the primary.
async fn read_slice(
    sources: &SliceSources,
    id: i64,
    from: i32,
    stored: &Stored,
) -> Result<Option<Vec<u8>>, sqlx::Error> {
    if let Some(replica) = &sources.replica {
        match slice(replica, id, from, stored).await {
            Ok(Some(slice)) => return Ok(Some(slice)),
            Ok(None) => tracing::debug!(tournament = id, from, "replica: no such slice"),
            Err(error) => tracing::debug!(tournament = id, from, %error, "replica: slice failed"),
        }
    }
    slice(&sources.primary, id, from, stored).await
}

/// Archives built at once on one instance: one, since each takes a core and memory
/// in proportion to its tournament (`AppState::archive_builds` holds the permits).
pub const BUILDS_AT_ONCE: usize = 1;

/// How long a request waits for its turn to build before `503 server_busy`.
pub const BUILD_WAIT: Duration = Duration::from_secs(30);

/// A turn to build an archive, or `503 server_busy` after [`BUILD_WAIT`].
pub async fn turn(builds: &Arc<Semaphore>) -> Result<OwnedSemaphorePermit, ApiError> {
    match tokio::time::timeout(BUILD_WAIT, Arc::clone(builds).acquire_owned()).await {
        Ok(Ok(permit)) => Ok(permit),
        _ => Err(ApiError::Busy {
            retry_after_secs: 5,
        }),
    }
}
