//! What every command on a stream brings with it, whatever the stream holds: who asks
//! and how the request is identified (the metadata stored with the events, the
//! idempotency record), the version the client based it on (`If-Match`), and the retry
//! bound after a lost race. (Reading them from a request is the edge's,
//! `crate::http::routes::command`.)

use crate::error::{ApiError, Reason};

use crate::auth::accounts::Account;
use crate::store::EventMetadata;
use crate::store::idempotency::{IdempotencyKey, IdempotentRequest};

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

/// 412 when the client's `If-Match` names another version than the stream's.
pub fn check_if_match(asked: Option<u64>, actual: u64, what: &str) -> Result<(), ApiError> {
    match asked {
        Some(asked) if asked != actual => Err(ApiError::Refused {
            reason: Reason::Stale,
            code: "precondition_failed",
            title: "Precondition failed",
            detail: format!(
                "If-Match names version {asked}, but the {what} is at version {actual}"
            ),
        }),
        _ => Ok(()),
    }
}
