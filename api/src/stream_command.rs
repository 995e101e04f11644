//! What every command on an event stream shares, whatever the stream holds (a table, a
//! tournament): who asks and how the request is identified, the metadata stored with the
//! events, the idempotency record, the retry bound after a lost race, and appending a
//! decision in chunks the store accepts. The folding and deciding stay with each stream's
//! own `repo` module.

use actix_web::HttpRequest;
use actix_web::http::header;
use sqlx::PgConnection;

use crate::error::ApiError;

use crate::app_state::AppState;
use crate::auth::accounts::Account;
use crate::store::idempotency::{IdempotencyKey, IdempotentRequest};
use crate::store::{AppendError, EventMetadata, MAX_EVENTS_PER_APPEND, NewEvent};

/// How many times a command is decided again on fresh state after losing a race for the
/// stream's next version (safe: deciding validates again), before answering 409.
pub const MAX_RETRIES: usize = 3;

/// Who asks for a change, and how the request is identified.
#[derive(Debug, Clone)]
pub struct Mutation<'a> {
    pub account: &'a Account,
    pub request_id: Option<String>,
    pub key: Option<IdempotencyKey>,
    /// `idempotency::request_fingerprint` of the request.
    pub fingerprint: [u8; 32],
    /// The version the client based its request on (`If-Match`), if it said.
    pub if_match: Option<u64>,
}

impl Mutation<'_> {
    /// The metadata stored beside each event the command appends.
    pub fn metadata(&self) -> EventMetadata {
        EventMetadata {
            actor: self.account.actor(),
            request_id: self.request_id.clone(),
            idempotency_key: self.key.as_ref().map(|k| k.as_str().to_owned()),
        }
    }

    /// The idempotency record to claim, when the request carries a key.
    pub fn idempotent_request(&self) -> Option<IdempotentRequest> {
        self.key.clone().map(|key| IdempotentRequest {
            actor: self.account.actor(),
            key,
            fingerprint: self.fingerprint,
        })
    }
}

/// Appends `events` after version `expected`, in chunks the store accepts, all in the
/// caller's transaction.
pub async fn append_all(
    state: &AppState,
    conn: &mut PgConnection,
    stream: &str,
    expected: u64,
    events: &[NewEvent],
    metadata: &EventMetadata,
) -> Result<(), AppendError> {
    let mut version = expected;
    for chunk in events.chunks(MAX_EVENTS_PER_APPEND) {
        let outcome = state
            .store
            .append_in(&mut *conn, stream, version, chunk, metadata)
            .await?;
        version = outcome.last_version;
    }
    Ok(())
}

/// The version an `If-Match` header names (`"12"`, `12` or `W/"12"`), if there is one:
/// the client's "only if nobody changed the stream since version 12".
pub fn if_match(req: &HttpRequest) -> Result<Option<u64>, ApiError> {
    let Some(value) = req.headers().get(header::IF_MATCH) else {
        return Ok(None);
    };
    value
        .to_str()
        .ok()
        .map(|s| s.trim().trim_start_matches("W/").trim_matches('"'))
        .and_then(|s| s.parse().ok())
        .map(Some)
        .ok_or_else(|| ApiError::invalid_field("If-Match", "must be a stream version, e.g. \"12\""))
}

/// 412 when the client's `If-Match` names another version than the stream's.
pub fn check_if_match(asked: Option<u64>, actual: u64, what: &str) -> Result<(), ApiError> {
    match asked {
        Some(asked) if asked != actual => Err(ApiError::Refused {
            status: actix_web::http::StatusCode::PRECONDITION_FAILED,
            code: "precondition_failed",
            title: "Precondition failed",
            detail: format!(
                "If-Match names version {asked}, but the {what} is at version {actual}"
            ),
        }),
        _ => Ok(()),
    }
}
