//! The events a rating list is folded from, read straight from the store:
//!
//! - every tournament stream's events of the types below (migration `0022` keeps an
//!   index of exactly these rows), in stream and version order;
//! - of every casual table created with `rated` whose game has finished, its
//!   `table_created.v1`, `seat_taken.v1`, `seat_left.v1` and `game_finished.v1`
//!   (migration `0023`): who sat where and how the game ended, never its moves.
//!
//! Both reads, and the count, run in one snapshot of the store.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use sqlx::PgPool;
use time::OffsetDateTime;
use utoipa::ToSchema;
use yaniv_domain::table::StreamEvent;
use yaniv_domain::tournament::Event;

use crate::error::ApiError;
use crate::store::unix_micros;
use crate::streams::corrupt::Corruption;

/// The types that decide which games are rated and how (the config, results,
/// corrections, voids, redraws), and what a profile shows of a tournament (its name,
/// its final ranking). Written out in the SQL too, so the partial index applies.
macro_rules! rating_input_types {
    () => {
        "('tournament_created.v1', 'stages_configured.v1', 'result_recorded.v1', \
          'result_corrected.v1', 'game_voided.v1', 'round_redrawn.v1', \
          'tournament_finished.v1')"
    };
}

/// The `table_created.v1` rows of rated tables, as the partial index of migration
/// `0023` states them (the same text, so the planner can use it).
macro_rules! rated_tables {
    () => {
        "SELECT stream_id FROM events WHERE event_type = 'table_created.v1' \
         AND payload LIKE '%\"rated\":true}' AND stream_id LIKE 'table-%'"
    };
}

/// The tournaments' input rows, and the rated tables that finished: a rated table
/// counts once its game has finished, one `game_finished.v1` row each. Seat rows are
/// fixed by then (a started table takes no seat event), so the second count changes
/// exactly when a rated table's game enters the fold. One statement, one snapshot.
const COUNT: &str = concat!(
    "SELECT (SELECT count(*) FROM events WHERE event_type IN ",
    rating_input_types!(),
    " AND stream_id LIKE 'tournament-%') + \
     (SELECT count(*) FROM events WHERE event_type = 'game_finished.v1' \
      AND stream_id IN (",
    rated_tables!(),
    "))"
);

const READ: &str = concat!(
    "SELECT stream_id, version, event_type, payload, recorded_at FROM events \
     WHERE event_type IN ",
    rating_input_types!(),
    " AND stream_id LIKE 'tournament-%' ORDER BY stream_id, version"
);

/// The four kinds of rows of the rated tables that finished, each kind through its
/// partial index.
const READ_TABLES: &str = concat!(
    "WITH rated AS (",
    rated_tables!(),
    " INTERSECT SELECT stream_id FROM events WHERE event_type = 'game_finished.v1') \
     SELECT stream_id, version, event_type, payload, recorded_at FROM events \
     WHERE event_type = 'table_created.v1' AND payload LIKE '%\"rated\":true}' \
       AND stream_id IN (SELECT stream_id FROM rated) \
     UNION ALL \
     SELECT stream_id, version, event_type, payload, recorded_at FROM events \
     WHERE event_type IN ('seat_taken.v1', 'seat_left.v1', 'game_finished.v1') \
       AND stream_id IN (SELECT stream_id FROM rated) \
     ORDER BY stream_id, version"
);

/// One tournament's rating inputs, in version order, each with its recording time.
#[derive(Debug, Default)]
pub struct TournamentInputs {
    pub events: Vec<(i64, Event)>,
}

/// The inputs of every tournament and every finished rated table, by id, and how many
/// rows they came from (as [`count`] counts them).
#[derive(Debug, Default)]
pub struct Inputs {
    pub rows: i64,
    pub tournaments: BTreeMap<i64, TournamentInputs>,
    /// Each rated table's rows, in version order, with their recording times.
    pub tables: BTreeMap<i64, Vec<(i64, StreamEvent)>>,
}

/// One stored row of a rated table, as `GET /v1/ratings/tables` gives it: what the
/// reference verifier recomputes the casual games from.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct TableRow {
    #[schema(example = "table-12")]
    pub stream_id: String,
    pub version: u64,
    #[serde(rename = "type")]
    #[schema(example = "game_finished.v1")]
    pub event_type: String,
    /// The stored payload text, byte for byte.
    pub payload: String,
    /// When the store recorded it: a `game_finished.v1`'s is the game's position time.
    pub recorded_at_micros: i64,
}

/// How many input rows the store holds now. Rows are never deleted, so the same count
/// means the same rows: the cheap check of whether a list is still current.
pub async fn count(pool: &PgPool) -> Result<i64, ApiError> {
    let (rows,): (i64,) = sqlx::query_as(COUNT).fetch_one(pool).await?;
    Ok(rows)
}

type Row = (String, i64, String, String, OffsetDateTime);

/// The rated tables' rows as stored (in stream and version order).
pub async fn table_rows(pool: &PgPool) -> Result<Vec<TableRow>, ApiError> {
    let rows: Vec<Row> = sqlx::query_as(READ_TABLES).fetch_all(pool).await?;
    Ok(rows.into_iter().map(table_row).collect())
}

fn table_row((stream_id, version, event_type, payload, recorded_at): Row) -> TableRow {
    TableRow {
        stream_id,
        version: u64::try_from(version).unwrap_or(0),
        event_type,
        payload,
        recorded_at_micros: unix_micros(recorded_at),
    }
}

/// Every input row, decoded.
pub async fn read(pool: &PgPool) -> Result<Inputs, ApiError> {
    // One snapshot for both reads, so that the row count is that of one moment.
    let mut tx = pool.begin().await?;
    sqlx::query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        .execute(&mut *tx)
        .await?;
    let rows: Vec<Row> = sqlx::query_as(READ).fetch_all(&mut *tx).await?;
    let table_rows: Vec<Row> = sqlx::query_as(READ_TABLES).fetch_all(&mut *tx).await?;
    tx.commit().await?;
    let mut inputs = Inputs {
        rows: i64::try_from(rows.len()).unwrap_or(i64::MAX),
        ..Inputs::default()
    };
    for (stream, version, event_type, payload, recorded_at) in rows {
        let Some(id) = stream
            .strip_prefix("tournament-")
            .and_then(|id| id.parse::<i64>().ok())
        else {
            // Another kind of stream under a tournament-like name: not a tournament.
            continue;
        };
        let event = crate::tournaments::decode(&event_type, &payload)
            .map_err(|_| corrupt(&stream, version))?;
        inputs
            .tournaments
            .entry(id)
            .or_default()
            .events
            .push((unix_micros(recorded_at), event));
    }
    for row in table_rows.into_iter().map(table_row) {
        let Some(id) = crate::tables::table_id_of(&row.stream_id) else {
            continue;
        };
        let version = i64::try_from(row.version).unwrap_or(0);
        let event = yaniv_domain::table::decode(&row.event_type, &row.payload)
            .map_err(|_| corrupt(&row.stream_id, version))?;
        if row.event_type == "game_finished.v1" {
            inputs.rows = inputs.rows.saturating_add(1);
        }
        inputs
            .tables
            .entry(id)
            .or_default()
            .push((row.recorded_at_micros, event));
    }
    Ok(inputs)
}

fn corrupt(stream: &str, version: i64) -> ApiError {
    ApiError::StreamCorrupt {
        stream: stream.to_owned(),
        version: u64::try_from(version).unwrap_or(0),
        reason: Corruption::Undecodable.reason(),
    }
}
