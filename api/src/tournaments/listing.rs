//! The listing of tournaments, read from the `tournaments` projection (migration
//! `0004`) rather than by folding every stream: newest first, one page at a time,
//! keyed on the id so that a page never repeats or skips a tournament created while
//! a client pages through.

use sqlx::PgPool;
use time::OffsetDateTime;

use crate::error::ApiError;
use yaniv_verify::listing::ListingRow;

/// A row of the projection, with its creator's username.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ListedTournament {
    pub id: i64,
    pub name: String,
    pub phase: String,
    pub version: i64,
    pub created_by: i64,
    pub created_by_username: String,
    pub created_at: OffsetDateTime,
}

/// Up to `limit` tournaments, newest first, with an id below `before`, in `phase`
/// (on the primary's pool, or on a replica's connection: see `crate::replica`).
pub async fn list(
    db: impl sqlx::PgExecutor<'_>,
    phase: Option<&str>,
    before: Option<i64>,
    limit: u32,
) -> Result<Vec<ListedTournament>, ApiError> {
    let rows = sqlx::query_as::<_, ListedTournament>(
        "SELECT t.id, t.name, t.phase, t.version, t.created_by, \
                a.username AS created_by_username, t.created_at \
         FROM tournaments t JOIN accounts a ON a.id = t.created_by \
         WHERE ($1::text IS NULL OR t.phase = $1) AND ($2::bigint IS NULL OR t.id < $2) \
         ORDER BY t.id DESC LIMIT $3",
    )
    .bind(phase)
    .bind(before)
    .bind(i64::from(limit))
    .fetch_all(db)
    .await?;
    Ok(rows)
}

/// What the listing row of tournament `id` says of its stream, if there is a row.
pub async fn row(pool: &PgPool, id: i64) -> Result<Option<ListingRow>, ApiError> {
    let row: Option<(i64, String)> =
        sqlx::query_as("SELECT version, phase FROM tournaments WHERE id = $1")
            .bind(id)
            .fetch_optional(pool)
            .await?;
    Ok(row.map(|(version, phase)| ListingRow {
        version: u64::try_from(version).unwrap_or(0),
        state: phase,
    }))
}
