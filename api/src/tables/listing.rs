//! The listing projection of tables (`game_tables`, migration `0003`): ids handed out
//! at creation, and each table's status, free seats and version kept up to date in the
//! transaction of every append, for `GET /v1/tables`.

use sqlx::PgConnection;
use time::OffsetDateTime;
use yaniv_domain::table::{Table, TableStatus};

use crate::error::ApiError;
use crate::streams::ListingUpdate;
use yaniv_verify::listing::ListingRow;

/// A new table's row; returns its id.
pub async fn insert(
    conn: &mut PgConnection,
    created_by: i64,
    table: &Table,
) -> Result<i64, ApiError> {
    // A tournament's table is created started: its clock runs from here.
    let (waiting_on, deadline_ms) = waiting(table);
    let id = sqlx::query_scalar(
        "INSERT INTO game_tables \
             (created_by, preset, seats, free_seats, status, version, tournament_id, \
              waiting_on, deadline_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, \
                 clock_timestamp() + make_interval(secs => $9::bigint / 1000.0)) RETURNING id",
    )
    .bind(created_by)
    .bind(&table.created.rules.preset)
    .bind(i16::from(table.created.seats))
    .bind(i16::try_from(table.free_seats()).unwrap_or(0))
    .bind(table.status().as_str())
    .bind(i64::try_from(table.version).unwrap_or(i64::MAX))
    .bind(table.created.tournament.map(|link| link.tournament_id))
    .bind(waiting_on)
    .bind(deadline_ms)
    .fetch_one(&mut *conn)
    .await?;
    sync_seats(conn, id, table).await?;
    Ok(id)
}

/// Rewrites the seats of table `id` and wakes the live streams of every account
/// whose seating changed (`account-<id>`, see `api/src/live/`).
async fn sync_seats(conn: &mut PgConnection, id: i64, table: &Table) -> Result<(), ApiError> {
    let (seats, accounts): (Vec<i16>, Vec<i64>) = table
        .seats
        .iter()
        .enumerate()
        .filter_map(|(seat, holder)| Some((i16::try_from(seat).ok()?, holder.account_id()?)))
        .unzip();
    let gone: Vec<i64> =
        sqlx::query_scalar("DELETE FROM table_seats WHERE table_id = $1 RETURNING account_id")
            .bind(id)
            .fetch_all(&mut *conn)
            .await?;
    sqlx::query(
        "INSERT INTO table_seats (table_id, seat, account_id) \
         SELECT $1, seat, account_id FROM unnest($2::smallint[], $3::bigint[]) AS s(seat, account_id)",
    )
    .bind(id)
    .bind(&seats)
    .bind(&accounts)
    .execute(&mut *conn)
    .await?;
    let mut changed: Vec<i64> = gone
        .iter()
        .filter(|a| !accounts.contains(a))
        .chain(accounts.iter().filter(|a| !gone.contains(a)))
        .copied()
        .collect();
    changed.dedup();
    if !changed.is_empty() {
        // Sent at commit, like the events' own notifications.
        sqlx::query(
            "SELECT pg_notify('yaniv_streams', 'account-' || a || ':0') FROM unnest($1::bigint[]) AS a",
        )
        .bind(&changed)
        .execute(&mut *conn)
        .await?;
    }
    Ok(())
}

/// The tournament whose draw created table `table`; `None` for a table outside
/// tournaments or one that does not exist.
pub async fn tournament_of(pool: &sqlx::PgPool, table: i64) -> Result<Option<i64>, ApiError> {
    Ok(
        sqlx::query_scalar::<_, Option<i64>>("SELECT tournament_id FROM game_tables WHERE id = $1")
            .bind(table)
            .fetch_optional(pool)
            .await?
            .flatten(),
    )
}

/// An account's tables not yet finished, with the seat it holds at each.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct SeatedAt {
    pub table_id: i64,
    pub seat: i16,
    pub status: String,
    pub waiting_on: Option<i16>,
    pub version: i64,
}

/// The tables `account` sits at that are open or in play, by id.
pub async fn seated_at(pool: &sqlx::PgPool, account: i64) -> Result<Vec<SeatedAt>, ApiError> {
    Ok(sqlx::query_as::<_, SeatedAt>(
        "SELECT t.id AS table_id, s.seat, t.status, t.waiting_on, t.version \
         FROM table_seats s JOIN game_tables t ON t.id = s.table_id \
         WHERE s.account_id = $1 AND t.status <> 'finished' ORDER BY t.id",
    )
    .bind(account)
    .fetch_all(pool)
    .await?)
}

/// The seat `table` waits on, and the milliseconds its clock allows for that (the
/// deadline, from the append that brought the table here).
fn waiting(table: &Table) -> (Option<i16>, Option<i64>) {
    let due = table.due();
    let waiting_on = match due {
        Some(due) => due.waiting.seat(),
        None => table.started.then(|| table.game.to_act()).flatten(),
    };
    (
        waiting_on.map(i16::from),
        due.map(|due| i64::from(due.limit_ms)),
    )
}

/// The row's columns after a write that [`project`] would store with its update alone
/// (no seat changes: the table is not open), for a write in one statement.
pub fn one_statement(table: &Table) -> Option<ListingUpdate> {
    if table.status() == TableStatus::Open {
        return None;
    }
    let (waiting_on, deadline_ms) = waiting(table);
    Some(ListingUpdate {
        status: table.status().as_str(),
        free_seats: i16::try_from(table.free_seats()).unwrap_or(0),
        waiting_on,
        deadline_ms,
    })
}

/// Brings the row of table `id` up to the table's version (`project_table_listing`,
/// migration 0018, which the write in one statement calls too).
pub async fn project(conn: &mut PgConnection, id: i64, table: &Table) -> Result<(), ApiError> {
    // The deadline counts from this append as it is written, not from its
    // transaction's start (migration 0020): a write that waited hands the next player
    // a whole turn.
    let (waiting_on, deadline_ms) = waiting(table);
    sqlx::query("SELECT project_table_listing($1, $2, $3, $4, $5, $6)")
        .bind(id)
        .bind(table.status().as_str())
        .bind(i16::try_from(table.free_seats()).unwrap_or(0))
        .bind(i64::try_from(table.version).unwrap_or(i64::MAX))
        .bind(waiting_on)
        .bind(deadline_ms)
        .execute(&mut *conn)
        .await?;
    // Seats change only before the start (a tournament's table opens seated, at insert).
    if table.status() == TableStatus::Open {
        sync_seats(conn, id, table).await?;
    }
    Ok(())
}

/// A row of the listing.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ListedTable {
    pub id: i64,
    pub created_by: i64,
    pub created_by_username: String,
    pub created_at: OffsetDateTime,
    pub preset: String,
    pub seats: i16,
    pub free_seats: i16,
    pub status: String,
    pub version: i64,
    pub tournament_id: Option<i64>,
    pub waiting_on: Option<i16>,
    /// The account in the seat `waiting_on` names, when a person sits there.
    pub waiting_on_username: Option<String>,
    pub updated_at: OffsetDateTime,
    pub deadline_at: Option<OffsetDateTime>,
}

/// Which tables a listing asks for.
#[derive(Debug, Clone, Copy, Default)]
pub struct ListFilter {
    pub status: Option<TableStatus>,
    /// Only the tables of this tournament.
    pub tournament: Option<i64>,
    /// Only the tables where this account has a seat.
    pub player: Option<i64>,
    /// Only tables in play whose last change is at least this many seconds old.
    pub idle_for_secs: Option<u32>,
}

/// Up to `limit` tables, newest first, with an id below `before`, that pass `filter`.
pub async fn list(
    pool: &sqlx::PgPool,
    filter: ListFilter,
    before: Option<i64>,
    limit: u32,
) -> Result<Vec<ListedTable>, ApiError> {
    let rows = sqlx::query_as::<_, ListedTable>(
        "SELECT t.id, t.created_by, a.username AS created_by_username, t.created_at, t.preset, \
                t.seats, t.free_seats, t.status, t.version, t.tournament_id, t.waiting_on, \
                w.username AS waiting_on_username, t.updated_at, t.deadline_at \
         FROM game_tables t JOIN accounts a ON a.id = t.created_by \
         LEFT JOIN table_seats ws ON ws.table_id = t.id AND ws.seat = t.waiting_on \
         LEFT JOIN accounts w ON w.id = ws.account_id \
         WHERE ($1::text IS NULL OR t.status = $1) AND ($2::bigint IS NULL OR t.id < $2) \
           AND ($4::bigint IS NULL OR t.tournament_id = $4) \
           AND ($5::int IS NULL OR (t.status = 'playing' \
                AND t.updated_at <= now() - make_interval(secs => $5))) \
           AND ($6::bigint IS NULL OR EXISTS ( \
                SELECT 1 FROM table_seats s WHERE s.table_id = t.id AND s.account_id = $6)) \
         ORDER BY t.id DESC LIMIT $3",
    )
    .bind(filter.status.map(TableStatus::as_str))
    .bind(before)
    .bind(i64::from(limit))
    .bind(filter.tournament)
    .bind(
        filter
            .idle_for_secs
            .map(|s| i32::try_from(s).unwrap_or(i32::MAX)),
    )
    .bind(filter.player)
    .fetch_all(pool)
    .await?;
    Ok(rows)
}

/// What the listing row of table `id` says of its stream, if there is a row.
pub async fn row(pool: &sqlx::PgPool, id: i64) -> Result<Option<ListingRow>, ApiError> {
    let row: Option<(i64, String)> =
        sqlx::query_as("SELECT version, status FROM game_tables WHERE id = $1")
            .bind(id)
            .fetch_optional(pool)
            .await?;
    Ok(row.map(|(version, status)| ListingRow {
        version: u64::try_from(version).unwrap_or(0),
        state: status,
    }))
}
