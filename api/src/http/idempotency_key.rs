//! HTTP side of idempotent requests: the `Idempotency-Key` header, the request
//! fingerprint and the replayed response. Persistence lives in
//! [`crate::store::idempotency`]; a handler that appends events uses both:
//!
//! ```text
//! let request = IdempotentRequest { actor, key, fingerprint: request_fingerprint(&req, &body) };
//! match idempotency::begin(store.pool(), &request).await? {
//!     Begin::Replay(stored) => Ok(respond(&stored, true)),
//!     Begin::Fresh(mut tx) => {
//!         let outcome = store.append_in(&mut tx, stream, expected, &events, &meta).await?;
//!         let stored = StoredResponse::json(AnswerKind::Created, &view)?;
//!         idempotency::complete(tx, &request, &stored).await?;
//!         Ok(respond(&stored, false))
//!     }
//! }
//! ```

use std::future::{Ready, ready};

use actix_web::dev::Payload;
use actix_web::http::StatusCode;
use actix_web::http::header::{self, HeaderName, HeaderValue};
use actix_web::{FromRequest, HttpRequest, HttpResponse};
use serde::Serialize;

use crate::error::ApiError;
use crate::store::idempotency::{IdempotencyKey, StoredResponse, fingerprint};
use crate::streams::{Effect, Written};

/// Request header carrying the key (IETF draft `Idempotency-Key`).
pub const IDEMPOTENCY_KEY_HEADER: HeaderName = HeaderName::from_static("idempotency-key");
/// Response header set to `true` on a replayed answer.
pub const REPLAYED_HEADER: HeaderName = HeaderName::from_static("idempotent-replayed");

/// The optional `Idempotency-Key` header; a malformed one is a 422 naming it.
#[derive(Debug, Clone)]
pub struct IdempotencyKeyHeader(pub Option<IdempotencyKey>);

impl FromRequest for IdempotencyKeyHeader {
    type Error = ApiError;
    type Future = Ready<Result<Self, ApiError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let result = match req.headers().get(&IDEMPOTENCY_KEY_HEADER) {
            None => Ok(Self(None)),
            Some(value) => value
                .to_str()
                .map_err(|_| "must be visible ASCII characters without spaces")
                .and_then(IdempotencyKey::parse)
                .map(|key| Self(Some(key)))
                .map_err(|msg| ApiError::invalid_field("Idempotency-Key", msg)),
        };
        ready(result)
    }
}

/// Fingerprint of a request: method, path and the body as parsed and re-serialised
/// (so insignificant whitespace does not make a retry look different).
pub fn request_fingerprint<B: Serialize>(req: &HttpRequest, body: &B) -> [u8; 32] {
    let body = serde_json::to_vec(body).unwrap_or_default();
    fingerprint(&[
        req.method().as_str().as_bytes(),
        req.path().as_bytes(),
        &body,
    ])
}

/// The response to a write: its answer, marked when it is a retry's.
impl From<Written> for HttpResponse {
    fn from(written: Written) -> Self {
        respond(&written.answer, written.effect == Effect::Replayed)
    }
}

/// The HTTP response for a stored answer; `replayed` marks a retry's answer.
pub fn respond(stored: &StoredResponse, replayed: bool) -> HttpResponse {
    let status = StatusCode::from_u16(stored.status).unwrap_or(StatusCode::OK);
    let mut builder = HttpResponse::build(status);
    builder.insert_header((header::CONTENT_TYPE, "application/json"));
    if replayed {
        builder.insert_header((REPLAYED_HEADER, HeaderValue::from_static("true")));
    }
    builder.body(stored.body.clone())
}
