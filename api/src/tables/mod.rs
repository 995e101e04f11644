//! Online game tables: the table model behind `/v1/tables` (the HTTP side is
//! [`crate::routes::tables`]).
//!
//! # One table, one stream
//!
//! Each table is the event stream `table-<id>` (see [`events`] for every event type
//! and its payload): lifecycle events first (`table_created.v1`, `seat_taken.v1`,
//! `seat_left.v1`, `table_started.v1`), then the rules engine's own game events
//! (`game_created.v1`, `round_dealt.v1`, `turn_played.v1`, ...). The rules engine
//! (`yaniv-domain`) decides every game event; the server only chooses what the
//! engine leaves to whoever deals (a fresh secret seed per round, the first starter)
//! and what its bot seats play ([`autoplay`]).
//!
//! # State is folded, never stored
//!
//! Every request folds the stream ([`state::TableState`]) and decides on that. The
//! per-process [`cache::TableCache`] keeps the fold of a prefix so that a request
//! reads only the events after it; it is never the truth, so a restarted server,
//! or a second one on the same database, sees the same table. The `game_tables`
//! table (migration `0003`) only hands out ids and keeps a listing projection,
//! written in the same transaction as the events.
//!
//! # Writing
//!
//! [`repo::mutate`]: decide on the freshly folded state, append with the version it
//! was folded at, retry on a lost race (up to 3 times), support `Idempotency-Key`.
//!
//! # Who sees what
//!
//! [`state::Access`]: a seated player sees their seat (the engine's `Game::view` and
//! `visible_events`); a logged-in account without a seat sees what is face up;
//! referees, organizers and admins see everything, except at a table where they play
//! while the game runs. [`verify`] checks a stream's hash chain and replays its game
//! through the rules.

pub mod autoplay;
pub mod cache;
pub mod events;
pub mod repo;
pub mod state;
pub mod tournament_game;
pub mod verify;

use actix_web::http::StatusCode;
use yaniv_domain::game::GameError;

use crate::error::ApiError;

/// A refusal of the rules engine as a problem document carrying its stable code:
/// 409 when the command may be right at another moment (`not_your_turn`,
/// `wrong_phase`, `game_over`: reload the table), 422 when it is wrong in itself
/// (`illegal_throw`, `card_not_in_hand`, `call_not_allowed`, ...).
pub fn game_refusal(error: &GameError) -> ApiError {
    let status = match error {
        GameError::NotYourTurn { .. } | GameError::WrongPhase(_) | GameError::GameOver => {
            StatusCode::CONFLICT
        }
        _ => StatusCode::UNPROCESSABLE_ENTITY,
    };
    ApiError::Refused {
        status,
        code: error.code(),
        title: "Refused by the rules",
        detail: error.to_string(),
    }
}

/// 403 `forbidden` for something the caller's roles or place do not allow.
pub fn forbidden(detail: impl Into<String>) -> ApiError {
    ApiError::Refused {
        status: StatusCode::FORBIDDEN,
        code: "forbidden",
        title: "Forbidden",
        detail: detail.into(),
    }
}

/// A refusal by the table itself (`table_full`, `not_seated`, ...).
pub fn table_refusal(
    status: StatusCode,
    code: &'static str,
    detail: impl Into<String>,
) -> ApiError {
    ApiError::Refused {
        status,
        code,
        title: "Refused by the table",
        detail: detail.into(),
    }
}
