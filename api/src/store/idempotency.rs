//! Idempotency records: a retried request replays its first answer and appends
//! nothing.
//!
//! A record is keyed by (actor, `Idempotency-Key`) and remembers a fingerprint of
//! the request (method, path, body) and the response sent. The protocol:
//!
//! 1. [`begin`] opens a transaction and inserts the record with no response yet.
//!    - If the key is new, the insert succeeds and the caller gets
//!      [`Begin::Fresh`] with the transaction: it appends its events in it
//!      ([`super::EventStore::append_in`]) and finishes with [`complete`], which
//!      stores the response and commits — events and record together, or neither.
//!    - If a record exists (or a concurrent duplicate commits one while we wait on
//!      the primary key), the transaction is rolled back and the stored response
//!      is returned as [`Begin::Replay`]; a different fingerprint under the same key
//!      is [`IdempotencyError::KeyReused`].
//! 2. A request that fails (conflict, validation) rolls back and stores nothing, so
//!    its retry is executed again and fails the same way, or succeeds if the cause
//!    went away. Only successful answers are replayed.
//!
//! Records are kept; pruning old ones (say, after a week) is a later operations task.

use sha2::{Digest, Sha256};
use sqlx::{PgPool, Postgres, Transaction};

use crate::error::ApiError;

/// Longest accepted key.
pub const MAX_KEY_LEN: usize = 255;

/// A client-chosen `Idempotency-Key`: 1 to 255 visible ASCII characters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IdempotencyKey(String);

impl IdempotencyKey {
    pub fn parse(s: &str) -> Result<Self, &'static str> {
        if s.is_empty() || s.len() > MAX_KEY_LEN {
            return Err("must be 1 to 255 characters");
        }
        if !s.bytes().all(|b| b.is_ascii_graphic()) {
            return Err("must be visible ASCII characters without spaces");
        }
        Ok(Self(s.to_owned()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// The identity of a request for idempotency purposes.
#[derive(Debug, Clone)]
pub struct IdempotentRequest {
    /// Same actor string as the events' metadata: keys are per account.
    pub actor: String,
    pub key: IdempotencyKey,
    /// [`fingerprint`] of the request.
    pub fingerprint: [u8; 32],
}

/// A response stored for replay.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredResponse {
    /// The HTTP status the answer was first sent with (the record replays it as is).
    pub status: u16,
    /// JSON body.
    pub body: Vec<u8>,
}

/// What an answer reports: a change to something that existed, or something new.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum AnswerKind {
    #[default]
    Changed,
    Created,
}

impl StoredResponse {
    /// A JSON answer to store and send.
    pub fn json<B: serde::Serialize>(kind: AnswerKind, body: &B) -> Result<Self, ApiError> {
        let body = serde_json::to_vec(body)
            .map_err(|e| ApiError::unexpected("serialising a response", e))?;
        let status = match kind {
            AnswerKind::Changed => 200,
            AnswerKind::Created => 201,
        };
        Ok(Self { status, body })
    }
}

/// What to do with a request that carries a key.
#[derive(Debug)]
pub enum Begin {
    /// First time: do the work in this transaction, then call [`complete`].
    Fresh(Transaction<'static, Postgres>),
    /// Seen before: answer with this, do nothing else.
    Replay(StoredResponse),
}

#[derive(Debug, thiserror::Error)]
pub enum IdempotencyError {
    #[error("idempotency key reused for a different request")]
    KeyReused,
    #[error("a request with this idempotency key is still in progress")]
    InProgress,
    #[error("database error in idempotency record")]
    Database(#[from] sqlx::Error),
}

impl From<IdempotencyError> for ApiError {
    fn from(err: IdempotencyError) -> Self {
        match err {
            IdempotencyError::KeyReused => Self::IdempotencyKeyReused,
            IdempotencyError::InProgress => Self::IdempotencyInProgress,
            IdempotencyError::Database(e) => e.into(),
        }
    }
}

/// SHA-256 over length-prefixed parts (e.g. method, path, canonical body).
pub fn fingerprint(parts: &[&[u8]]) -> [u8; 32] {
    let mut h = Sha256::new();
    h.update(b"yaniv/idempotency/v1\0");
    for part in parts {
        h.update((part.len() as u64).to_be_bytes());
        h.update(part);
    }
    h.finalize().into()
}

#[derive(sqlx::FromRow)]
struct RecordRow {
    request_fingerprint: [u8; 32],
    response_status: Option<i16>,
    response_body: Option<Vec<u8>>,
}

/// Starts an idempotent request (see the module documentation).
#[tracing::instrument(name = "idempotency.begin", skip_all, fields(key = request.key.as_str()))]
pub async fn begin(pool: &PgPool, request: &IdempotentRequest) -> Result<Begin, IdempotencyError> {
    let mut tx = pool.begin().await?;
    let inserted = sqlx::query(
        "INSERT INTO idempotency_records (actor, idempotency_key, request_fingerprint) \
         VALUES ($1, $2, $3)",
    )
    .bind(&request.actor)
    .bind(request.key.as_str())
    .bind(request.fingerprint)
    .execute(&mut *tx)
    .await;
    match inserted {
        Ok(_) => Ok(Begin::Fresh(tx)),
        Err(sqlx::Error::Database(db)) if db.is_unique_violation() => {
            // The record was committed by an earlier (or concurrent, which we
            // waited for) request. Our transaction is aborted: read it outside.
            tx.rollback().await?;
            let stored: Option<RecordRow> = sqlx::query_as(
                "SELECT request_fingerprint, response_status, response_body \
                 FROM idempotency_records WHERE actor = $1 AND idempotency_key = $2",
            )
            .bind(&request.actor)
            .bind(request.key.as_str())
            .fetch_optional(pool)
            .await?;
            match stored {
                Some(row) if row.request_fingerprint != request.fingerprint => {
                    Err(IdempotencyError::KeyReused)
                }
                Some(RecordRow {
                    response_status: Some(status),
                    response_body: Some(body),
                    ..
                }) => {
                    tracing::info!("replaying the stored response");
                    Ok(Begin::Replay(StoredResponse {
                        status: u16::try_from(status).unwrap_or(200),
                        body,
                    }))
                }
                _ => Err(IdempotencyError::InProgress),
            }
        }
        Err(other) => Err(other.into()),
    }
}

/// Stores the response of a fresh request and commits its transaction.
pub async fn complete(
    mut tx: Transaction<'static, Postgres>,
    request: &IdempotentRequest,
    response: &StoredResponse,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE idempotency_records SET response_status = $3, response_body = $4 \
         WHERE actor = $1 AND idempotency_key = $2",
    )
    .bind(&request.actor)
    .bind(request.key.as_str())
    .bind(i16::try_from(response.status).unwrap_or(500))
    .bind(&response.body)
    .execute(&mut *tx)
    .await?;
    tx.commit().await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_short_visible_ascii() {
        assert!(IdempotencyKey::parse("a1b2-c3").is_ok());
        assert!(IdempotencyKey::parse(&"k".repeat(255)).is_ok());
        assert!(IdempotencyKey::parse("").is_err());
        assert!(IdempotencyKey::parse(&"k".repeat(256)).is_err());
        assert!(IdempotencyKey::parse("with space").is_err());
        assert!(IdempotencyKey::parse("ключ").is_err());
    }

    #[test]
    fn fingerprints_separate_their_parts() {
        assert_ne!(fingerprint(&[b"ab", b"c"]), fingerprint(&[b"a", b"bc"]));
        assert_eq!(
            fingerprint(&[b"POST", b"/x"]),
            fingerprint(&[b"POST", b"/x"])
        );
    }
}
