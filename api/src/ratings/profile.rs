//! One player's rating profile, as `GET /v1/players/{username}/rating` gives it and
//! the player's page shows it: both read through here.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use time::OffsetDateTime;
use utoipa::ToSchema;
use yaniv_domain::ratings::GameSource;
use yaniv_domain::tournament::TableRef;

use super::Snapshot;
use super::period::at;
use crate::auth::accounts::{Account, by_username};
use crate::error::ApiError;

/// Why there is no profile to show.
#[derive(Debug, thiserror::Error)]
pub enum ProfileError {
    #[error("no account named {0}")]
    NoPlayer(String),
    #[error("opponent: no account has this username")]
    NoOpponent,
    #[error("opponent: must be another player than the profile's")]
    SameOpponent,
    #[error(transparent)]
    Store(#[from] ApiError),
}

impl From<ProfileError> for ApiError {
    fn from(error: ProfileError) -> ApiError {
        match error {
            ProfileError::NoPlayer(name) => ApiError::NotFound(format!("no account named {name}")),
            ProfileError::NoOpponent => {
                ApiError::invalid_field("opponent", "no account has this username")
            }
            ProfileError::SameOpponent => {
                ApiError::invalid_field("opponent", "must be another player than the profile's")
            }
            ProfileError::Store(error) => error,
        }
    }
}

/// The accounts a profile is about: the player named `name` (any case), and the one
/// named `opponent`, another player, with their id and username.
pub async fn accounts(
    pool: &sqlx::PgPool,
    name: &str,
    opponent: Option<&str>,
) -> Result<(Account, Option<(i64, String)>), ProfileError> {
    let account = named(pool, name)
        .await?
        .ok_or_else(|| ProfileError::NoPlayer(name.to_owned()))?;
    let Some(other) = opponent else {
        return Ok((account, None));
    };
    let other = named(pool, other).await?.ok_or(ProfileError::NoOpponent)?;
    if other.id == account.id {
        return Err(ProfileError::SameOpponent);
    }
    Ok((account, Some((other.id, other.username))))
}

async fn named(pool: &sqlx::PgPool, name: &str) -> Result<Option<Account>, ProfileError> {
    by_username(pool, name)
        .await
        .map_err(|e| ProfileError::Store(e.into()))
}

/// Where the player stands now.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct CurrentRating {
    /// From 1: the player's row in the whole list (`GET /v1/ratings`).
    pub rank: u32,
    /// `mu - 3 * sigma`.
    pub rating: f64,
    pub mu: f64,
    pub sigma: f64,
    pub games: u32,
    #[serde(with = "time::serde::rfc3339")]
    #[schema(value_type = String, format = DateTime)]
    pub last_played: OffsetDateTime,
}

/// A rated tournament the player played.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct PlayedTournament {
    pub tournament: i64,
    pub name: String,
    /// Rated games the player played in it.
    pub games: u32,
    /// The player's place in its published final ranking; `null` until it is finished
    /// (or for a disqualified player).
    pub place: Option<u32>,
}

/// One rated game and what it did to the player's rating: a tournament's (with
/// `tournament` and `table`) or a rated casual table's (with `casual_table`).
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct RatingPoint {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tournament: Option<i64>,
    /// The tournament's table (stage, round, table).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub table: Option<TableRef>,
    /// The casual table's id (`/v1/tables/{id}`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub casual_table: Option<i64>,
    /// Its position time: when a tournament table's result was first recorded, when a
    /// casual table's game finished.
    #[serde(with = "time::serde::rfc3339")]
    #[schema(value_type = String, format = DateTime)]
    pub played_at: OffsetDateTime,
    /// The player's place at the table (tied players share it), of `players`; at a
    /// casual table among its humans only.
    pub place: u8,
    pub players: u32,
    /// After the game.
    pub rating: f64,
    pub mu: f64,
    pub sigma: f64,
    /// `rating` after minus before.
    pub change: f64,
}

/// The games two players played at one table.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct HeadToHead {
    pub opponent: i64,
    #[schema(example = "bob")]
    pub username: String,
    pub games: u32,
    /// Games the player finished ahead of the opponent.
    pub ahead: u32,
    /// Games the opponent finished ahead.
    pub behind: u32,
    /// Games they shared a place.
    pub tied: u32,
}

/// A player's rating profile.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct RatingProfile {
    pub player: i64,
    #[schema(example = "ann")]
    pub username: String,
    /// `null` before the player's first rated game.
    pub rating: Option<CurrentRating>,
    /// In the order the player first played in them.
    pub tournaments: Vec<PlayedTournament>,
    /// Rated casual tables the player played (each one game).
    pub casual_games: u32,
    /// Every rated game, in the rating order.
    pub history: Vec<RatingPoint>,
    /// With `?opponent=` only.
    pub head_to_head: Option<HeadToHead>,
}

/// The profile of `player` (named `username`) in `snapshot`, with the head-to-head
/// against `opponent` when given.
pub fn of(
    snapshot: &Snapshot,
    player: i64,
    username: String,
    opponent: Option<(i64, String)>,
) -> RatingProfile {
    let list = snapshot.list(None, None, 0);
    let rating = list
        .iter()
        .zip(1u32..)
        .find(|(row, _)| row.player == player)
        .map(|(row, rank)| CurrentRating {
            rank,
            rating: row.change.after.displayed(),
            mu: row.change.after.mu,
            sigma: row.change.after.sigma,
            games: row.games,
            last_played: at(row.last_played_micros),
        });
    let mut tournaments: Vec<PlayedTournament> = Vec::new();
    let mut casual_games = 0;
    let mut position: BTreeMap<i64, usize> = BTreeMap::new();
    let mut history = Vec::new();
    let mut head_to_head = opponent.map(|(id, username)| HeadToHead {
        opponent: id,
        username,
        games: 0,
        ahead: 0,
        behind: 0,
        tied: 0,
    });
    for (record, line) in snapshot.played(player) {
        let game = &record.game;
        let change = record.changes[line];
        let (tournament, table, casual_table) = match game.source {
            GameSource::Tournament { tournament, table } => {
                let slot = *position.entry(tournament).or_insert_with(|| {
                    let info = snapshot.tournaments.get(&tournament);
                    tournaments.push(PlayedTournament {
                        tournament,
                        name: info.map(|i| i.name.clone()).unwrap_or_default(),
                        games: 0,
                        place: info.and_then(|i| i.places.get(&player).copied()),
                    });
                    tournaments.len() - 1
                });
                tournaments[slot].games += 1;
                (Some(tournament), Some(table), None)
            }
            GameSource::Casual { table } => {
                casual_games += 1;
                (None, None, Some(table))
            }
        };
        history.push(RatingPoint {
            tournament,
            table,
            casual_table,
            played_at: at(game.at_micros),
            place: change.place,
            players: u32::try_from(game.lines.len()).unwrap_or(u32::MAX),
            rating: change.after.displayed(),
            mu: change.after.mu,
            sigma: change.after.sigma,
            change: change.after.displayed() - change.before.displayed(),
        });
        if let Some(h2h) = head_to_head.as_mut()
            && let Some(theirs) = game.lines.iter().find(|l| l.player == h2h.opponent)
        {
            h2h.games += 1;
            match change.place.cmp(&theirs.place) {
                std::cmp::Ordering::Less => h2h.ahead += 1,
                std::cmp::Ordering::Greater => h2h.behind += 1,
                std::cmp::Ordering::Equal => h2h.tied += 1,
            }
        }
    }
    RatingProfile {
        player,
        username,
        rating,
        tournaments,
        casual_games,
        history,
        head_to_head,
    }
}
