//! `GET /v1/tournaments/{id}/players`: who is in a tournament, by name. The other
//! reads name accounts by id only; this one gives each registered player (the domain's
//! `PlayerView`, in registration order), each referee and the organizer their
//! username from `accounts`, so a client can label them. Public and `?as_of=N` like
//! the other reads ([`super::read`]).

use actix_web::{HttpResponse, web};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::read::{AsOfQuery, ReadProblems, load_as_of};
use super::with_etag;
use crate::app_state::AppState;
use crate::auth::accounts::usernames;
use crate::error::ApiError;
use crate::http::auth::MaybeAuthenticated;

/// A tournament's players and officials, with their usernames.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct TournamentPlayers {
    pub id: i64,
    /// The version read: the tournament's version, or `as_of` when given.
    pub version: u64,
    /// Everyone who registered, in registration order (withdrawn and disqualified
    /// players included, flagged).
    pub players: Vec<TournamentPlayer>,
    /// The tournament's referees, by account id.
    pub referees: Vec<TournamentReferee>,
    pub organizer: TournamentOrganizer,
}

/// A registered player: the domain's `PlayerView` with the account's username.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct TournamentPlayer {
    /// The player's account id.
    pub player: i64,
    /// `null` when the account no longer exists.
    pub username: Option<String>,
    /// The registration order, from 1.
    pub registration: u32,
    pub checked_in: bool,
    pub withdrawn: bool,
    pub disqualified: bool,
}

/// A referee of the tournament.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct TournamentReferee {
    /// The referee's account id.
    pub referee: i64,
    /// `null` when the account no longer exists.
    pub username: Option<String>,
}

/// The tournament's organizer.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct TournamentOrganizer {
    /// The organizer's account id.
    pub organizer: i64,
    /// `null` when the account no longer exists.
    pub username: Option<String>,
}

/// The players in registration order, the referees and the organizer, with their
/// usernames.
#[utoipa::path(
    get,
    path = "/v1/tournaments/{id}/players",
    tag = "tournaments",
    security((), ("bearer" = [])),
    params(("id" = i64, Path, description = "Tournament id"), AsOfQuery),
    responses(
        (status = 200, description = "The players and officials", body = TournamentPlayers,
         headers(("ETag" = String, description = "The version read, quoted"))),
        ReadProblems,
    )
)]
pub async fn players(
    state: web::Data<AppState>,
    _auth: MaybeAuthenticated,
    path: web::Path<i64>,
    query: web::Query<AsOfQuery>,
) -> Result<HttpResponse, ApiError> {
    let id = path.into_inner();
    let tournament = load_as_of(&state, id, query.as_of).await?;
    let s = tournament.state();
    let organizer = s
        .info
        .as_ref()
        .ok_or_else(|| ApiError::unexpected("naming a tournament's players", "no tournament"))?
        .organizer;
    let views = s.player_views();
    // One query for everyone: the players, then the referees, then the organizer.
    let accounts: Vec<i64> = views
        .iter()
        .map(|p| p.player)
        .chain(s.referees.iter().copied())
        .chain([organizer])
        .collect();
    let mut conn = state.db.acquire().await?;
    let mut names = usernames(&mut conn, &accounts).await?.into_iter();
    let players = views
        .iter()
        .zip(names.by_ref())
        .map(|(p, username)| TournamentPlayer {
            player: p.player,
            username,
            registration: p.registration,
            checked_in: p.checked_in,
            withdrawn: p.withdrawn,
            disqualified: p.disqualified,
        })
        .collect();
    let referees = s
        .referees
        .iter()
        .zip(names.by_ref())
        .map(|(&referee, username)| TournamentReferee { referee, username })
        .collect();
    let body = TournamentPlayers {
        id,
        version: tournament.version(),
        players,
        referees,
        organizer: TournamentOrganizer {
            organizer,
            username: names.next().flatten(),
        },
    };
    Ok(with_etag(
        HttpResponse::Ok().json(body),
        tournament.version(),
    ))
}
