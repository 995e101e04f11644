//! `/v1/tournaments`: championship tournaments, one event stream each. The
//! tournament model (stream, fold, refusals) is [`crate::tournaments`]; the format,
//! the commands and their error codes are the rules engine's (`docs/tournaments.md`).
//!
//! | method and path | who | what |
//! | --- | --- | --- |
//! | `GET /v1/tournaments?phase=&before=&limit=` | anyone | the tournaments, newest first, page by page |
//! | `POST /v1/tournaments` | organizer, admin | create a tournament; the caller is its organizer |
//! | `GET /v1/tournaments/{id}?as_of=N` | anyone | the tournament at a glance (phase, format, referees, ...) |
//! | `POST /v1/tournaments/{id}/commands` | depends on the command (checked by the domain) | any tournament command, as the domain's JSON tagged by `command` |
//! | `GET /v1/tournaments/{id}/standings?as_of=N&format=csv` | anyone | the qualification standings now, named, points as decimals; JSON or CSV |
//! | `GET /v1/tournaments/{id}/stages?as_of=N` | anyone | the bracket: stages, rounds, tables, results, byes, no-shows; the players' usernames |
//! | `GET /v1/tournaments/{id}/ranking?as_of=N&format=csv` | anyone | the final ranking (published, or what the final table gives), named; JSON or CSV |
//! | `GET /v1/tournaments/{id}/results?as_of=N&stage=&round=&format=csv` | anyone | every result in force, a line per player (no-shows marked), named, points as decimals; JSON or CSV |
//! | `GET /v1/tournaments/{id}/interventions?as_of=N` | anyone | results entered, corrected or voided by hand, no-shows, redraws (with the seating replaced), disqualifications and withdrawals by an official: who, why, at which version |
//! | `POST /v1/tournaments/{id}/registrations` | its organizer | a door list (CSV) registered at once; missing accounts created with set-up codes |
//! | `POST /v1/tournaments/{id}/players/{account}/setup-code` | its organizer, admins | a new set-up code for an account its door list created, not yet set up |
//! | `POST /v1/tournaments/{id}/tables/{stage}/{round}/{table}/no-show` | its officials | a drawn player did not come: the table plays without them |
//! | `GET /v1/tournaments/{id}/players?as_of=N` | anyone | the players in registration order, the referees and the organizer, with their usernames |
//! | `GET /v1/tournaments/{id}/me` | any account | the caller's registration, table (and its online game), results and standing |
//! | `GET /v1/tournaments/{id}/events` | anyone | the stream, page by page (nothing in it is secret) |
//! | `GET /v1/tournaments/{id}/stream` | anyone | the events, summary and standings, pushed (SSE or NDJSON) |
//! | `POST /v1/tournaments/{id}/paper-check` | any account | a referee's sheet scored by the tournament's rules as far as it goes; nothing recorded |
//! | `GET /v1/tournaments/{id}/archive` | anyone once finished; before, its officials and admins, with every round still in play left out | the tournament and its games in one file (`yaniv-archive/1`), for `yaniv verify` |
//! | `POST /v1/tournaments/{id}/verify` | its officials, admins | the stored stream checked: hash chain, draws, results, ranking, online games |
//!
//! "Its officials" are the organizer and the referees the tournament names, while they
//! hold the organizer or referee role; a server-wide role names nobody by itself.
//!
//! The reads are public: nothing in a tournament's stream is secret, so they need no
//! token ([`crate::http::auth::MaybeAuthenticated`]). A token that is sent must be valid
//! (401 otherwise), so a client whose session expired learns it. `as_of=N` reads the
//! tournament as its first `N` events left it (see [`read`]); `/me` needs a token.
//!
//! # Status codes of commands
//!
//! - 403 `forbidden`: the caller's place in this tournament does not allow the
//!   command (organizer, referee, the player themselves, ...), or, for
//!   `POST /v1/tournaments`, the account is neither organizer nor admin;
//!   `official_plays`: an official who plays (`officials_may_play`) acts on a result,
//!   a seating or a player, at any table.
//! - 409: the command may be right at another moment: `wrong_phase`,
//!   `registration_not_open`, `capacity_reached`, `already_registered`,
//!   `not_registered`, `round_incomplete`, `stage_incomplete`,
//!   `result_already_recorded`, `open_dispute`, `finished`, ... and
//!   `version_conflict` (lost the race 4 times in a row).
//! - 422: the command is wrong in itself: a malformed body (`validation_failed`,
//!   naming the field) or a refusal such as `bad_config`, `bad_name`, `bad_rules`,
//!   `bad_window`, `bad_reason`, `bad_clock`, `bad_announcement`, `bad_result`, `bad_paper_round`, `bad_record`,
//!   `game_not_finished`, `rules_mismatch`, `seed_mismatch`, `no_such_round`,
//!   `no_such_table`, `no_such_dispute`.
//!
//! Every command accepts `Idempotency-Key`: a retry gets the first answer
//! (`Idempotent-Replayed: true`) and appends nothing.

pub mod archive;
pub mod commands;
pub mod create;
pub mod draws;
pub mod list;
pub mod me;
pub mod no_show;
pub mod paper_check;
pub mod players;
pub mod ranking;
pub mod read;
pub mod registrations;
pub mod results;
pub mod setup_codes;
pub mod standings;
pub mod stream;
pub mod verify;

use actix_web::HttpResponse;
use actix_web::http::header::{self, HeaderValue};
use yaniv_domain::tournament::Tournament;

pub use self::create::CreateTournamentRequest;
pub use self::list::{TournamentCreator, TournamentList, TournamentListEntry};
pub use self::me::{MySeat, MyTournament};
pub use self::players::{
    TournamentOrganizer, TournamentPlayer, TournamentPlayers, TournamentReferee,
};
pub use self::ranking::RankingResponse;
pub use self::read::{AsOfQuery, InterventionsResponse, StagesResponse, TournamentEventsPage};
pub use self::standings::{StandingsEntry, StandingsResponse};
use crate::app_state::AppState;
use crate::error::ApiError;
pub use crate::tournaments::answers::{
    CommandResponse, DrawResponse, NoShowResponse, OnlineTableBody, TournamentEvent,
    TournamentSummary,
};

/// Tournament `id` as it is now (for reads).
async fn load(state: &AppState, id: i64) -> Result<std::sync::Arc<Tournament>, ApiError> {
    state.tournaments.read(id).await
}

/// A JSON answer tagged with the tournament's version (`ETag`).
fn with_etag(mut response: HttpResponse, version: u64) -> HttpResponse {
    if let Ok(value) = HeaderValue::from_str(&format!("\"{version}\"")) {
        response.headers_mut().insert(header::ETAG, value);
    }
    response
}
