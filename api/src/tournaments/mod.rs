//! Championship tournaments: the tournament model behind `/v1/tournaments` (the HTTP
//! side is [`crate::http::routes::tournaments`]; the format, the draws and every error code
//! are the rules engine's, `yaniv_domain::tournament`, described in
//! `docs/tournaments.md`).
//!
//! # One tournament, one stream
//!
//! Each tournament is the event stream `tournament-<id>`. Its events are the domain's
//! tournament events stored under their own type names (`tournament_created.v1`,
//! `player_registered.v1`, `round_drawn.v1`, `result_recorded.v1`, ...); the payload
//! is the event's JSON including its `type` tag, and [`decode`] insists that the
//! store's `event_type` column and the tag agree.
//!
//! # State is folded, never stored
//!
//! Every request folds the stream: the per-process fold cache (`crate::streams::fold_cache`)
//! saves re-reading a prefix of it, and audits ([`repo::load_upto`],
//! [`crate::audit::tournament`]) read it all from the database. The `tournaments` table (migration `0004`) only hands out
//! ids and keeps a small projection (name, phase, version) written in the same
//! transaction as the events.
//!
//! # Writing
//!
//! Every write goes through the one stream repository ([`repo`], `crate::streams`):
//! under the tournament's row lock, the write executes on the freshly folded state
//! (the rules engine's `Aggregate::execute`: the actor is the caller's account, and
//! the domain checks what that account may do in this tournament), the server commits
//! the next draw seed when one is due ([`seeds`]), the events are appended with the
//! version they were decided on, a lost race is decided again (up to
//! [`repo::MAX_RETRIES`] times), and `Idempotency-Key` is honoured. The writes, one
//! file each: [`command`] (any command an account sends, with the checks only the
//! server can make), [`door_list`], [`draw`], [`no_show`] and [`online`] (a drawn
//! table's online game); [`game_end`] records the result of an online game that
//! ended; [`answers`] are what they answer with.
//!
//! # Refusals
//!
//! [`refusal`] turns a [`TournamentError`] into a problem document with the domain's
//! stable code: 403 `forbidden`, 422 for a command wrong in itself (bad settings,
//! a bad result, a reference to nothing), 409 for everything that depends on the
//! moment (phase, registration, draws, results already in, disputes, finished).

pub mod answers;
pub mod command;
pub mod door_list;
pub mod draw;
pub mod game_end;
pub mod listing;
pub mod named;
pub mod no_show;
pub mod online;
pub mod repo;
pub mod seeds;

use yaniv_domain::aggregate::{DecodeError, StoredEvent};
use yaniv_domain::tournament::{Context, Event, TournamentError};

use crate::auth::accounts::Account;
use crate::auth::accounts::roles_of;
use crate::error::ApiError;

/// What a tournament command by `account` at `now` is decided with: the account and the
/// server-wide roles it holds now, which keep its namings as an official in force
/// (`yaniv_domain::tournament::Roles`). Every command of a person goes through it.
pub fn context(account: &Account, now: i64) -> Context {
    Context::account(account.id, now).holding(roles_of(Some(account)))
}

/// Stream id of tournament `id`.
pub fn stream_id(id: i64) -> String {
    yaniv_domain::aggregate::stream_id::<yaniv_domain::tournament::Tournament>(id)
}

/// A refusal of the tournament rules as a problem document carrying its stable code
/// (its status from the refusal's kind, see the module docs).
pub fn refusal(error: &TournamentError) -> ApiError {
    crate::streams::refusal("Refused by the tournament", error)
}

/// Reads one stored event of a tournament stream.
pub fn decode(event_type: &str, payload: &str) -> Result<Event, DecodeError> {
    <Event as StoredEvent>::decode(event_type, payload)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Reason;
    use yaniv_domain::tournament::{Command, Context, Role, Tournament};

    #[test]
    fn refusals_carry_their_reason() {
        let status = |e: &TournamentError| match refusal(e) {
            ApiError::Refused { reason, .. } => reason,
            other => panic!("not a refusal: {other:?}"),
        };
        assert_eq!(
            status(&TournamentError::Forbidden(Role::Organizer)),
            Reason::Forbidden
        );
        assert_eq!(status(&TournamentError::BadReason), Reason::Invalid);
        assert_eq!(status(&TournamentError::WrongPhase("x")), Reason::NotNow);
        assert_eq!(status(&TournamentError::Finished), Reason::NotNow);
    }

    #[test]
    fn events_round_trip_and_the_type_column_must_agree() {
        let command: Command = serde_json::from_value(serde_json::json!({
            "command": "create",
            "name": "Cup",
            "rules": {"preset": "belgian"},
            "capacity": 8,
        }))
        .unwrap();
        let events = Tournament::new()
            .execute(&Context::account(1, 0), &command)
            .unwrap();
        let event = &events[0];
        let text = serde_json::to_string(event).unwrap();
        assert_eq!(decode(event.type_name(), &text).unwrap(), *event);
        assert!(matches!(
            decode("registration_closed.v1", &text),
            Err(DecodeError::TypeMismatch { .. })
        ));
        assert!(decode("registration_opened.v1", "{").is_err());
    }
}
