//! Checkpoints of every stream head in the database (`migrations/0006_checkpoints.sql`,
//! `docs/checkpoints.md`): written by a background task every
//! `YANIV_CHECKPOINT_INTERVAL_SECS` ([`crate::background::checkpoints`]) and by `yaniv-server checkpoint`, which
//! prints it for publication outside the database; read back for the API, the
//! archives and the verifications. The document, its Merkle root and the comparison of
//! a stream with every checkpoint that covers it are [`yaniv_verify::checkpoint`]'s.

use std::time::Duration;

use sqlx::PgPool;
use time::OffsetDateTime;
use yaniv_verify::chain::Hash;
pub use yaniv_verify::checkpoint::{Checkpoint, CoveredHead, FORMAT, Head, root_of};
use yaniv_verify::checkpoint_root::{RootCheck, check_root, restore};

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

/// Any two writers of checkpoints take this lock (transaction-scoped) before they read
/// the heads, so checkpoints are written one at a time, and a later id always holds
/// heads read later: an archive may then trust that no checkpoint up to the one it
/// was cut at records a head past the cut.
const WRITERS_LOCK: i64 = 0x7961_6e69_7663_6b70; // "yanivckp"

async fn begin_writing(
    pool: &PgPool,
) -> Result<sqlx::Transaction<'static, sqlx::Postgres>, sqlx::Error> {
    let mut tx = pool.begin().await?;
    sqlx::query("SELECT pg_advisory_xact_lock($1)")
        .bind(WRITERS_LOCK)
        .execute(&mut *tx)
        .await?;
    Ok(tx)
}

/// Writes a checkpoint of every stream head now.
pub async fn write(pool: &PgPool) -> Result<Checkpoint, sqlx::Error> {
    let mut tx = begin_writing(pool).await?;
    let heads = heads_now(&mut tx).await?;
    let checkpoint = insert(&mut tx, heads).await?;
    tx.commit().await?;
    Ok(checkpoint)
}

/// Writes a checkpoint unless every head is what the latest checkpoint recorded (no
/// stream moved): `None` then, so an idle server adds nothing.
pub async fn write_if_changed(pool: &PgPool) -> Result<Option<Checkpoint>, sqlx::Error> {
    let mut tx = begin_writing(pool).await?;
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

/// Writes a checkpoint of every stream head now, unless one newer than checkpoint
/// `seen` (0: none) was written meanwhile, by this instance or another: that one
/// then, so that writers who saw the same latest one add one checkpoint between them.
pub async fn write_unless_newer_than(pool: &PgPool, seen: i64) -> Result<i64, sqlx::Error> {
    let mut tx = begin_writing(pool).await?;
    let newest: Option<i64> = sqlx::query_scalar("SELECT max(id) FROM checkpoints")
        .fetch_one(&mut *tx)
        .await?;
    if let Some(newest) = newest.filter(|&newest| newest > seen) {
        return Ok(newest);
    }
    let heads = heads_now(&mut tx).await?;
    let checkpoint = insert(&mut tx, heads).await?;
    tx.commit().await?;
    Ok(checkpoint.id)
}

/// The latest checkpoint's id and when it was written, if there is one.
pub async fn latest_id(pool: &PgPool) -> Result<Option<(i64, OffsetDateTime)>, sqlx::Error> {
    sqlx::query_as("SELECT id, created_at FROM checkpoints ORDER BY id DESC LIMIT 1")
        .fetch_optional(pool)
        .await
}

/// Whether checkpoint `id` records each of `streams` that has an event at its head
/// now (read in one statement), and no stream of them at another head.
pub async fn records_heads_of(
    pool: &PgPool,
    id: i64,
    streams: &[&str],
) -> Result<bool, sqlx::Error> {
    let differing: i64 = sqlx::query_scalar(
        "WITH current_heads AS ( \
             SELECT DISTINCT ON (stream_id) stream_id, version, hash FROM events \
             WHERE stream_id = ANY($2) ORDER BY stream_id, version DESC), \
         recorded AS ( \
             SELECT stream_id, version, hash FROM checkpoint_heads \
             WHERE checkpoint_id = $1 AND stream_id = ANY($2)) \
         SELECT count(*) FROM current_heads FULL JOIN recorded USING (stream_id) \
         WHERE current_heads.version IS DISTINCT FROM recorded.version \
            OR current_heads.hash IS DISTINCT FROM recorded.hash",
    )
    .bind(id)
    .bind(streams)
    .fetch_one(pool)
    .await?;
    Ok(differing == 0)
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

/// The checkpoints whose roots a verification of `stream` recomputes: every one taken
/// since its first event (`first_recorded_at`) that does not list it, where a deleted
/// head row of the stream shows; and of those that list it (`covered`), the ones an
/// archive carries: the first to record each version, and the latest.
pub async fn around(
    pool: &PgPool,
    stream: &str,
    first_recorded_at: OffsetDateTime,
    covered: &[CoveredHead],
) -> Result<Vec<Checkpoint>, sqlx::Error> {
    // A minute of slack: the events' times are the server's clock, the checkpoint's
    // the database's.
    let unlisted: Vec<i64> = sqlx::query_scalar(
        "SELECT c.id FROM checkpoints c WHERE c.created_at >= $2 - interval '1 minute' \
         AND NOT EXISTS (SELECT 1 FROM checkpoint_heads h \
                         WHERE h.checkpoint_id = c.id AND h.stream_id = $1)",
    )
    .bind(stream)
    .bind(first_recorded_at)
    .fetch_all(pool)
    .await?;
    let mut ids: std::collections::BTreeSet<i64> = unlisted.into_iter().collect();
    let mut last_version = None;
    for head in covered {
        if last_version != Some(head.version) {
            ids.insert(head.checkpoint_id);
            last_version = Some(head.version);
        }
    }
    ids.extend(covered.iter().map(|h| h.checkpoint_id).max());
    let mut found = Vec::with_capacity(ids.len());
    for id in ids {
        found.extend(by_id(pool, id).await?);
    }
    Ok(found)
}

/// The heads `checkpoint` may have lost: of every stream it does not list, the last
/// events stored by the time it was taken. Read only when its root does not come out,
/// which takes a changed database.
pub async fn unlisted_heads(
    pool: &PgPool,
    checkpoint: &Checkpoint,
) -> Result<Vec<Head>, sqlx::Error> {
    let rows: Vec<(String, i64, Hash)> = sqlx::query_as(
        "SELECT stream_id, version, hash FROM ( \
           SELECT e.stream_id, e.version, e.hash, row_number() OVER \
                  (PARTITION BY e.stream_id ORDER BY e.version DESC) AS latest \
           FROM events e WHERE e.recorded_at <= $2 + interval '1 minute' \
           AND NOT EXISTS (SELECT 1 FROM checkpoint_heads h \
                           WHERE h.checkpoint_id = $1 AND h.stream_id = e.stream_id)) recent \
         WHERE latest <= 20 ORDER BY stream_id, version DESC",
    )
    .bind(checkpoint.id)
    .bind(checkpoint.created_at)
    .fetch_all(pool)
    .await?;
    Ok(rows
        .into_iter()
        .map(|(stream_id, version, head_hash)| Head {
            stream_id,
            version: to_u64(version),
            head_hash,
        })
        .collect())
}

/// `checkpoint` as its published root says it was: when a head row was deleted from
/// it and the root names which (`yaniv_verify::checkpoint_root`), with that head back.
/// An archive built from it then proves every head it recorded, the deleted one
/// included; the verification of that stream names the deletion.
pub async fn restored(
    pool: &PgPool,
    mut checkpoint: Checkpoint,
) -> Result<Checkpoint, sqlx::Error> {
    if check_root(&checkpoint, &[]) == RootCheck::Holds {
        return Ok(checkpoint);
    }
    let unlisted = unlisted_heads(pool, &checkpoint).await?;
    if let RootCheck::Removed(head) = check_root(&checkpoint, &unlisted) {
        restore(&mut checkpoint, head);
    }
    Ok(checkpoint)
}

/// The least time between two checkpoints taken for archives, and the turn to take one
/// (`audit::archive_cut`). Kept here, below the shared state that holds it.
#[derive(Debug)]
pub struct CheckpointGap {
    pub(crate) gap: Duration,
    pub(crate) turn: tokio::sync::Mutex<()>,
}

impl CheckpointGap {
    pub fn new(gap: Duration) -> Self {
        Self {
            gap,
            turn: tokio::sync::Mutex::new(()),
        }
    }
}
