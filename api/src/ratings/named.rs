//! A rating list with its players' usernames, as `GET /v1/ratings` gives it and the
//! rating-list page shows it: both read through here.

use serde::{Deserialize, Serialize};
use time::OffsetDateTime;
use utoipa::ToSchema;

use super::ListRow;
use super::period::{Period, at};
use sqlx::PgPool;

use super::Ratings;
use crate::auth::accounts::usernames;
use crate::error::ApiError;

/// One player of the list.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct RatingEntry {
    /// From 1, in the list's order (after the filters).
    pub rank: u32,
    pub player: i64,
    /// `null` if the account is gone.
    #[schema(example = "ann")]
    pub username: Option<String>,
    /// What the list sorts by: `mu - 3 * sigma` (0 for a new player).
    #[schema(example = 6.41)]
    pub rating: f64,
    /// The estimated skill (25 for a new player).
    #[schema(example = 27.63)]
    pub mu: f64,
    /// Its uncertainty (25/3 for a new player; it shrinks as games are played).
    #[schema(example = 7.07)]
    pub sigma: f64,
    /// Rated games played (before `to`).
    pub games: u32,
    /// When the latest of them was recorded.
    #[serde(with = "time::serde::rfc3339")]
    #[schema(value_type = String, format = DateTime)]
    pub last_played: OffsetDateTime,
}

/// The list's rows over `period`, and the rated games before its end.
pub async fn list_of(
    ratings: &Ratings,
    db: &PgPool,
    period: &Period,
) -> Result<(Vec<ListRow>, u32), ApiError> {
    let snapshot = ratings.current(db).await?;
    let games = match period.to {
        Some(to) => snapshot.games.partition_point(|g| g.game.at_micros < to),
        None => snapshot.games.len(),
    };
    let rows = snapshot.list(period.from, period.to, period.min_games);
    Ok((rows, u32::try_from(games).unwrap_or(u32::MAX)))
}

/// `rows` named, ranked from `offset + 1`.
pub async fn entries(
    db: &PgPool,
    rows: &[ListRow],
    offset: u32,
) -> Result<Vec<RatingEntry>, ApiError> {
    let ids: Vec<i64> = rows.iter().map(|r| r.player).collect();
    let mut conn = db.acquire().await?;
    let names = usernames(&mut conn, &ids).await?;
    Ok(rows
        .iter()
        .zip(names)
        .zip(offset.saturating_add(1)..)
        .map(|((row, username), rank)| RatingEntry {
            rank,
            player: row.player,
            username,
            rating: row.change.after.displayed(),
            mu: row.change.after.mu,
            sigma: row.change.after.sigma,
            games: row.games,
            last_played: at(row.last_played_micros),
        })
        .collect())
}
