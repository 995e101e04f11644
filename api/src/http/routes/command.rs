//! [`CommandRequest`]: what every command request brings besides its body, extracted
//! once: who asks (a valid bearer token), the request's id, its `Idempotency-Key` and
//! its `If-Match`. A handler then only reads its body and names its command.

use std::future::Future;
use std::pin::Pin;

use actix_web::dev::Payload;
use actix_web::http::header;
use actix_web::{FromRequest, HttpRequest};
use serde::Serialize;

use crate::auth::accounts::Account;
use crate::error::ApiError;
use crate::http::auth::Authenticated;
use crate::http::idempotency_key::{IdempotencyKeyHeader, request_fingerprint};
use crate::http::request_id::RequestId;
use crate::store::idempotency::IdempotencyKey;
use crate::streams::Mutation;

/// The parts of a command request the repositories need (see the module docs).
#[derive(Debug)]
pub struct CommandRequest {
    pub auth: Authenticated,
    request_id: RequestId,
    key: Option<IdempotencyKey>,
    if_match: Option<u64>,
    request: HttpRequest,
}

impl CommandRequest {
    pub fn account(&self) -> &Account {
        &self.auth.account
    }

    /// The command as the repository takes it; `body` is the request's body as
    /// parsed (what a retry with the same `Idempotency-Key` must repeat).
    pub fn mutation<B: Serialize>(&self, body: &B) -> Mutation<'_> {
        Mutation {
            account: &self.auth.account,
            request_id: Some(self.request_id.as_str().to_owned()),
            key: self.key.clone(),
            fingerprint: request_fingerprint(&self.request, body),
            if_match: self.if_match,
        }
    }
}

impl FromRequest for CommandRequest {
    type Error = ApiError;
    type Future = Pin<Box<dyn Future<Output = Result<Self, ApiError>>>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let request = req.clone();
        Box::pin(async move {
            // In the order the handlers always read them: a missing token answers
            // before a malformed header.
            let auth = Authenticated::extract(&request).await?;
            let Ok(request_id) = RequestId::extract(&request).await;
            let key = IdempotencyKeyHeader::extract(&request).await?.0;
            let if_match = if_match(&request)?;
            Ok(Self {
                auth,
                request_id,
                key,
                if_match,
                request,
            })
        })
    }
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
