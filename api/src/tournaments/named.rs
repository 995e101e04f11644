//! Reads that put usernames on a tournament's account ids (the domain knows ids only):
//! the routes and the pages both read through these, one query per answer.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};
use sqlx::PgPool;
use utoipa::ToSchema;
use yaniv_domain::tournament::{StandingsRow, Tournament};

use crate::auth::accounts::usernames;
use crate::error::ApiError;

/// The username of each of `accounts` (one query), by id: `None` for an account that
/// is gone.
pub async fn usernames_of(
    db: &PgPool,
    accounts: impl Iterator<Item = i64>,
) -> Result<BTreeMap<i64, Option<String>>, ApiError> {
    let ids: Vec<i64> = accounts.collect::<BTreeSet<i64>>().into_iter().collect();
    let mut conn = db.acquire().await?;
    let names = usernames(&mut conn, &ids).await?;
    Ok(ids.into_iter().zip(names).collect())
}

/// One player's line of the standings.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct StandingsEntry {
    #[serde(flatten)]
    pub row: StandingsRow,
    /// The account's username (`null` if the account is gone).
    pub username: Option<String>,
    /// `table_points` in points, to hundredths (rounded half away from zero), for
    /// display: `table_points` itself is exact, in 840ths of a point.
    #[schema(example = "12.50")]
    pub table_points_decimal: String,
    /// `score_difference` in points, to hundredths, likewise.
    #[schema(example = "-3.33")]
    pub score_difference_decimal: String,
}

impl StandingsEntry {
    /// `row` of the account named `username`.
    pub fn new(row: StandingsRow, username: Option<String>) -> Self {
        Self {
            table_points_decimal: row.stats.table_points.to_string(),
            score_difference_decimal: row.stats.score_difference.to_string(),
            username,
            row,
        }
    }
}

/// The standings of `tournament` with each player's username (one lookup for all).
pub async fn standings_of(
    db: &PgPool,
    tournament: &Tournament,
) -> Result<Vec<StandingsEntry>, ApiError> {
    let rows = tournament.standings();
    let ids: Vec<i64> = rows.iter().map(|row| row.stats.player).collect();
    let mut conn = db.acquire().await?;
    let names = usernames(&mut conn, &ids).await?;
    Ok(rows
        .into_iter()
        .zip(names)
        .map(|(row, username)| StandingsEntry::new(row, username))
        .collect())
}
