//! Headers every answer carries, and conditional reads.
//!
//! - `X-Content-Type-Options: nosniff`, `X-Frame-Options: DENY` and
//!   `Referrer-Policy: no-referrer` on every answer: a JSON API is never framed, never
//!   sniffed as HTML, and has no business telling another site where a user came from.
//! - A `Content-Security-Policy` on the Swagger UI (`/docs/`): scripts, styles and the
//!   document from this server only (the UI sets inline styles as it runs), never framed.
//! - `If-None-Match` on a `GET` or `HEAD` whose answer carries an `ETag` (a table's or a
//!   tournament's version): the same tag answers `304 Not Modified` with no body, so a
//!   client polling a table only pays for a change.

use actix_web::HttpResponse;
use actix_web::body::{BoxBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::{self, HeaderMap, HeaderValue};
use actix_web::http::{Method, StatusCode};
use actix_web::middleware::Next;

/// The Swagger UI's policy (see the module docs).
const DOCS_POLICY: &str = "default-src 'self'; img-src 'self' data:; style-src 'self' \
                           'unsafe-inline'; frame-ancestors 'none'";

/// Whether `if_none_match` (the request's header) names `etag`: `*`, or one of a
/// comma-separated list, compared weakly (`W/"7"` matches `"7"`), as RFC 9110 asks.
fn none_match(if_none_match: &str, etag: &str) -> bool {
    let bare = |tag: &str| tag.trim().trim_start_matches("W/").to_owned();
    let etag = bare(etag);
    if_none_match
        .split(',')
        .any(|tag| tag.trim() == "*" || bare(tag) == etag)
}

/// The 304 that replaces a 200 whose `ETag` the client already holds.
fn not_modified(headers: &HeaderMap) -> HttpResponse {
    let mut response = HttpResponse::NotModified().finish();
    for name in [header::ETAG, header::CACHE_CONTROL] {
        if let Some(value) = headers.get(&name) {
            response.headers_mut().insert(name, value.clone());
        }
    }
    response
}

pub async fn middleware(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
    let conditional = matches!(*req.method(), Method::GET | Method::HEAD)
        .then(|| req.headers().get(header::IF_NONE_MATCH).cloned())
        .flatten();
    let docs = req.path().starts_with("/docs");
    let mut res = next.call(req).await?.map_into_boxed_body();
    let unchanged = conditional
        .as_ref()
        .and_then(|asked| asked.to_str().ok())
        .is_some_and(|asked| {
            res.status() == StatusCode::OK
                && res
                    .headers()
                    .get(header::ETAG)
                    .and_then(|etag| etag.to_str().ok())
                    .is_some_and(|etag| none_match(asked, etag))
        });
    if unchanged {
        let response = not_modified(res.headers());
        res = res.into_response(response);
    }
    let headers = res.headers_mut();
    for (name, value) in [
        (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        (header::X_FRAME_OPTIONS, "DENY"),
        (header::REFERRER_POLICY, "no-referrer"),
    ] {
        headers.insert(name, HeaderValue::from_static(value));
    }
    if docs {
        headers.insert(
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static(DOCS_POLICY),
        );
    }
    Ok(res)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_match_weakly_in_lists_and_with_a_star() {
        assert!(none_match("\"7\"", "\"7\""));
        assert!(none_match("W/\"7\"", "\"7\""));
        assert!(none_match("\"3\", \"7\"", "\"7\""));
        assert!(none_match("*", "\"7\""));
        assert!(!none_match("\"8\"", "\"7\""));
        assert!(!none_match("\"70\"", "\"7\""));
    }
}
