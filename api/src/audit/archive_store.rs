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

/// The stored archive of `id`, slice by slice, into a channel the response reads: the
/// next slice is read once the client has taken the one before. A failed read ends
/// the body early (the client sees fewer bytes than `Content-Length` announced).
pub fn slices(pool: PgPool, id: i64, stored: Stored) -> mpsc::Receiver<Bytes> {
    let (sender, receiver) = mpsc::channel(1);
    actix_web::rt::spawn(async move {
        let mut offset = 0i64;
        while offset < stored.bytes {
            // PostgreSQL's substring counts in `integer`: a bytea is below 1 GB anyway.
            let Ok(from) = i32::try_from(offset + 1) else {
                tracing::warn!(tournament = id, offset, "a stored archive beyond 2 GB");
                return;
            };
            let slice: Result<Option<Vec<u8>>, sqlx::Error> = sqlx::query_scalar(
                "SELECT substring(body FROM $2 FOR $3) FROM tournament_archives \
                 WHERE tournament_id = $1 AND sha256 = $4",
            )
            .bind(id)
            .bind(from)
            .bind(SLICE_BYTES)
            .bind(stored.sha256.as_slice())
            .fetch_optional(&pool)
            .await;
            let slice = match slice {
                Ok(Some(slice)) if !slice.is_empty() => slice,
                Ok(_) => {
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
