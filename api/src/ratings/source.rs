//! The events a rating list is folded from, read straight from the store: every
//! tournament stream's events of the types below (migration `0022` keeps an index of
//! exactly these rows), in stream and version order.

use std::collections::BTreeMap;

use sqlx::PgPool;
use time::OffsetDateTime;
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

const COUNT: &str = concat!(
    "SELECT count(*) FROM events WHERE event_type IN ",
    rating_input_types!(),
    " AND stream_id LIKE 'tournament-%'"
);

const READ: &str = concat!(
    "SELECT stream_id, version, event_type, payload, recorded_at FROM events \
     WHERE event_type IN ",
    rating_input_types!(),
    " AND stream_id LIKE 'tournament-%' ORDER BY stream_id, version"
);

/// One tournament's rating inputs, in version order, each with its recording time.
#[derive(Debug, Default)]
pub struct TournamentInputs {
    pub events: Vec<(i64, Event)>,
}

/// The inputs of every tournament, by id, and how many rows they came from.
#[derive(Debug, Default)]
pub struct Inputs {
    pub rows: i64,
    pub tournaments: BTreeMap<i64, TournamentInputs>,
}

/// How many input rows the store holds now. Rows are never deleted, so the same count
/// means the same rows: the cheap check of whether a list is still current.
pub async fn count(pool: &PgPool) -> Result<i64, ApiError> {
    let (rows,): (i64,) = sqlx::query_as(COUNT).fetch_one(pool).await?;
    Ok(rows)
}

/// Every input row, decoded.
pub async fn read(pool: &PgPool) -> Result<Inputs, ApiError> {
    let rows: Vec<(String, i64, String, String, OffsetDateTime)> =
        sqlx::query_as(READ).fetch_all(pool).await?;
    let mut inputs = Inputs {
        rows: i64::try_from(rows.len()).unwrap_or(i64::MAX),
        ..Inputs::default()
    };
    for (stream, version, event_type, payload, recorded_at) in rows {
        let corrupt = || ApiError::StreamCorrupt {
            stream: stream.clone(),
            version: u64::try_from(version).unwrap_or(0),
            reason: Corruption::Undecodable.reason(),
        };
        let Some(id) = stream
            .strip_prefix("tournament-")
            .and_then(|id| id.parse::<i64>().ok())
        else {
            // Another kind of stream under a tournament-like name: not a tournament.
            continue;
        };
        let event = crate::tournaments::decode(&event_type, &payload).map_err(|_| corrupt())?;
        inputs
            .tournaments
            .entry(id)
            .or_default()
            .events
            .push((unix_micros(recorded_at), event));
    }
    Ok(inputs)
}
