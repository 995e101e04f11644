//! `GET /v1/tournaments/{id}/me`: the calling account's own part in a tournament
//! (its registration, the table it is drawn to and that table's online game, its
//! results, its standings row), so that a player's client needs one read. The view
//! is the domain's (`State::own_view`); the server adds the id of the online game
//! table it created for the seat.

use actix_web::{HttpResponse, web};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use yaniv_domain::tournament::{OwnResult, PlayerView, TableRef};

use super::standings::StandingsEntry;

use super::{load, with_etag};
use crate::app_state::AppState;
use crate::audit::tournament::linked_table;
use crate::error::{ApiError, Problem};
use crate::http::auth::Authenticated;

/// The calling account's part in a tournament.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct MyTournament {
    pub id: i64,
    /// The tournament's version (also the `ETag`).
    pub version: u64,
    /// The calling account.
    pub account: i64,
    /// Whether the account registered (it may have withdrawn or been disqualified
    /// since). `false` is not an error: the client may offer to register.
    pub registered: bool,
    /// `null` unless registered.
    #[schema(required = true)]
    pub player: Option<PlayerView>,
    /// The latest table the account was drawn to (the current round's, or the last one
    /// it played); `null` before its first draw.
    #[schema(required = true)]
    pub seat: Option<MySeat>,
    /// Every result in force that names the account, in the order the tables were
    /// drawn.
    pub results: Vec<OwnResult>,
    /// The account's row of `GET .../standings` (the qualification), once it entered
    /// the qualification; otherwise `null`.
    #[schema(required = true)]
    pub standing: Option<StandingsEntry>,
}

/// A table the account is drawn to.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct MySeat {
    pub table: TableRef,
    /// The account's place in the drawn seat order, from 0.
    pub seat: u32,
    /// Everyone at the table, in seat order.
    pub players: Vec<i64>,
    /// A game began at the table (online, or declared by an official).
    pub started: bool,
    /// The game's id as the tournament records it (`table-<id>` for this server's
    /// tables), if any.
    pub game: Option<String>,
    /// The online game table to play at, `/v1/tables/{game_table}`: while a game of
    /// this server runs for the table (not after a void).
    pub game_table: Option<i64>,
    /// The table has its result.
    pub has_result: bool,
}

/// The calling account's registration, table, results and standing in the tournament.
#[utoipa::path(
    get,
    path = "/v1/tournaments/{id}/me",
    tag = "tournaments",
    security(("bearer" = [])),
    params(("id" = i64, Path, description = "Tournament id")),
    responses(
        (status = 200, description = "The account's part (`registered: false` when it has none)",
         body = MyTournament,
         headers(("ETag" = String, description = "The tournament's version, quoted"))),
        (status = 404, description = "No such tournament (`not_found`)",
         body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn me(
    state: web::Data<AppState>,
    auth: Authenticated,
    path: web::Path<i64>,
) -> Result<HttpResponse, ApiError> {
    let id = path.into_inner();
    let tournament = load(&state, id).await?;
    let account = auth.account.id;
    let view = tournament.state().own_view(account);
    let body = MyTournament {
        id,
        version: tournament.version(),
        account,
        registered: view.player.is_some(),
        player: view.player,
        seat: view.seat.map(|seat| MySeat {
            table: seat.table,
            // A voided game keeps its id in the table's history; players are sent only
            // to the game that is running.
            game_table: seat
                .game
                .as_deref()
                .filter(|_| seat.started)
                .and_then(linked_table),
            seat: seat.seat,
            players: seat.players,
            started: seat.started,
            game: seat.game,
            has_result: seat.has_result,
        }),
        results: view.results,
        standing: view
            .standing
            .map(|row| StandingsEntry::new(row, Some(auth.account.username.clone()))),
    };
    Ok(with_etag(
        HttpResponse::Ok().json(body),
        tournament.version(),
    ))
}
