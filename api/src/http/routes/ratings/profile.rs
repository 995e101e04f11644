//! `GET /v1/players/{username}/rating`: one player's rating now, the rated
//! tournaments they played (with their final place), every game's rating change, and
//! their record against `?opponent=`.

use std::collections::BTreeMap;

use actix_web::{HttpResponse, web};
use serde::{Deserialize, Serialize};
use time::OffsetDateTime;
use utoipa::{IntoParams, ToSchema};
use yaniv_domain::tournament::TableRef;

use super::at;
use crate::app_state::AppState;
use crate::auth::accounts::by_username;
use crate::error::{ApiError, Problem};
use crate::http::auth::MaybeAuthenticated;
use crate::ratings::Snapshot;

#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct ProfileQuery {
    /// Another player's username: the games the two played at one table.
    pub opponent: Option<String>,
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

/// One rated game and what it did to the player's rating.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct RatingPoint {
    pub tournament: i64,
    pub table: TableRef,
    /// When the table's result was first recorded: its place in the order.
    #[serde(with = "time::serde::rfc3339")]
    #[schema(value_type = String, format = DateTime)]
    pub played_at: OffsetDateTime,
    /// The player's place at the table (tied players share it), of `players`.
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
    /// Every rated game, in the rating order.
    pub history: Vec<RatingPoint>,
    /// With `?opponent=` only.
    pub head_to_head: Option<HeadToHead>,
}

/// A player's rating, the rated tournaments they played, every game's change, and
/// (with `opponent`) their record against another player.
#[utoipa::path(
    get,
    path = "/v1/players/{username}/rating",
    tag = "ratings",
    security((), ("bearer" = [])),
    params(("username" = String, Path, description = "The player's username (any case)"), ProfileQuery),
    responses(
        (status = 200, description = "The player's rating profile", body = RatingProfile),
        (status = 401, description = "A token was sent but is unknown, expired or revoked (`invalid_token`)",
         body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No account has this username (`not_found`)",
         body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "No account has the `opponent`'s username, or it is the player's own (`validation_failed`)",
         body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn profile(
    state: web::Data<AppState>,
    _auth: MaybeAuthenticated,
    path: web::Path<String>,
    query: web::Query<ProfileQuery>,
) -> Result<HttpResponse, ApiError> {
    let name = path.into_inner();
    let account = by_username(&state.db, &name)
        .await?
        .ok_or_else(|| ApiError::NotFound(format!("no account named {name}")))?;
    let opponent = match query.opponent.as_deref() {
        None => None,
        Some(other) => {
            let found = by_username(&state.db, other).await?.ok_or_else(|| {
                ApiError::invalid_field("opponent", "no account has this username")
            })?;
            if found.id == account.id {
                return Err(ApiError::invalid_field(
                    "opponent",
                    "must be another player than the profile's",
                ));
            }
            Some((found.id, found.username))
        }
    };
    let snapshot = state.ratings.current(&state.db).await?;
    Ok(HttpResponse::Ok().json(of(&snapshot, account.id, account.username, opponent)))
}

fn of(
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
        let slot = *position.entry(game.tournament).or_insert_with(|| {
            let info = snapshot.tournaments.get(&game.tournament);
            tournaments.push(PlayedTournament {
                tournament: game.tournament,
                name: info.map(|i| i.name.clone()).unwrap_or_default(),
                games: 0,
                place: info.and_then(|i| i.places.get(&player).copied()),
            });
            tournaments.len() - 1
        });
        tournaments[slot].games += 1;
        history.push(RatingPoint {
            tournament: game.tournament,
            table: game.table,
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
        history,
        head_to_head,
    }
}
