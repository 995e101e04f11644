//! One id per request, accepted from or given back in `X-Request-Id`.
//!
//! The middleware takes the client's `X-Request-Id` when it is a short token of safe
//! characters (so a proxy's id flows through), otherwise makes one up; opens the
//! `http_request` span every log line of the request belongs to; stores the id in
//! the request extensions (handlers extract [`RequestId`] and record it in event
//! metadata); echoes it in the response; and logs one line per finished request.

use std::future::{Ready, ready};
use std::time::Instant;

use actix_web::body::MessageBody;
use actix_web::dev::{Payload, ServiceRequest, ServiceResponse};
use actix_web::http::header::{HeaderName, HeaderValue};
use actix_web::middleware::Next;
use actix_web::{FromRequest, HttpMessage, HttpRequest};
use tracing::Instrument;

/// The header carrying the id, both ways.
pub const REQUEST_ID_HEADER: HeaderName = HeaderName::from_static("x-request-id");

/// Longest client-supplied id we keep; longer ones are replaced.
const MAX_LEN: usize = 128;

/// The id of the current request. Always present behind the middleware.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RequestId(String);

impl RequestId {
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// A new random id: 16 bytes from the OS, in hex.
    fn generate() -> Self {
        let mut bytes = [0u8; 16];
        // Failing to read the OS RNG leaves zeros: an id is a label, not a secret.
        if getrandom::fill(&mut bytes).is_err() {
            tracing::warn!("could not read the OS random generator for a request id");
        }
        Self(hex::encode(bytes))
    }

    /// Accepts a client id made of 1..=128 ASCII letters, digits and `-_.:/+=`.
    fn parse(value: &HeaderValue) -> Option<Self> {
        let s = value.to_str().ok()?;
        let ok = !s.is_empty()
            && s.len() <= MAX_LEN
            && s.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"-_.:/+=".contains(&b));
        ok.then(|| Self(s.to_owned()))
    }
}

impl std::fmt::Display for RequestId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl FromRequest for RequestId {
    type Error = std::convert::Infallible;
    type Future = Ready<Result<Self, Self::Error>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        // Behind the middleware the id is always there; without it (a bare test
        // service), make one up rather than fail.
        let id = req
            .extensions()
            .get::<RequestId>()
            .cloned()
            .unwrap_or_else(RequestId::generate);
        ready(Ok(id))
    }
}

/// The request-id and access-log middleware (use with `middleware::from_fn`).
pub async fn middleware(
    req: ServiceRequest,
    next: Next<impl MessageBody>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let id = req
        .headers()
        .get(&REQUEST_ID_HEADER)
        .and_then(RequestId::parse)
        .unwrap_or_else(RequestId::generate);
    req.extensions_mut().insert(id.clone());

    let span = tracing::info_span!(
        "http_request",
        request_id = %id,
        method = %req.method(),
        path = %req.path(),
        account_id = tracing::field::Empty,
    );
    let started = Instant::now();
    let result = next.call(req).instrument(span.clone()).await;
    let elapsed_ms = started.elapsed().as_secs_f64() * 1000.0;

    let _entered = span.enter();
    match result {
        Ok(mut res) => {
            let status = res.status().as_u16();
            if let Ok(value) = HeaderValue::from_str(id.as_str()) {
                res.headers_mut().insert(REQUEST_ID_HEADER, value);
            }
            tracing::info!(status, elapsed_ms, "request finished");
            Ok(res)
        }
        Err(err) => {
            tracing::info!(
                status = err.as_response_error().status_code().as_u16(),
                elapsed_ms,
                "request failed"
            );
            Err(err)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn client_ids_are_kept_when_safe() {
        let ok = HeaderValue::from_static("abc-123_x.y:z/w+=");
        assert_eq!(RequestId::parse(&ok).unwrap().as_str(), "abc-123_x.y:z/w+=");
        for bad in ["", "has space", "semi;colon", "quote\""] {
            assert!(
                RequestId::parse(&HeaderValue::from_static(bad)).is_none(),
                "{bad:?}"
            );
        }
        let long = HeaderValue::from_str(&"a".repeat(MAX_LEN + 1)).unwrap();
        assert!(RequestId::parse(&long).is_none());
    }

    #[test]
    fn generated_ids_are_distinct_hex() {
        let a = RequestId::generate();
        let b = RequestId::generate();
        assert_eq!(a.as_str().len(), 32);
        assert!(a.as_str().bytes().all(|c| c.is_ascii_hexdigit()));
        assert_ne!(a, b);
    }
}
