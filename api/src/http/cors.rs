//! Cross-origin calls from browser pages (CORS), for the origins the operator allows
//! (`YANIV_CORS_ORIGINS`).
//!
//! The API authenticates with bearer tokens that a page must hold and send itself;
//! browsers never attach them on their own, so allowing an origin exposes nothing a
//! plain HTTP client could not already read. Cookies are never allowed.

use actix_cors::Cors;
use actix_web::http::{Method, header};

use crate::config::CorsOrigins;

/// How long a browser may cache a preflight answer.
const PREFLIGHT_MAX_AGE_SECS: usize = 3600;

/// The CORS middleware for `origins`.
pub fn middleware(origins: &CorsOrigins) -> Cors {
    let cors = Cors::default()
        .allowed_methods([
            Method::GET,
            Method::HEAD,
            Method::POST,
            Method::PUT,
            Method::DELETE,
        ])
        .allowed_headers([
            header::AUTHORIZATION,
            header::CONTENT_TYPE,
            header::IF_MATCH,
            header::IF_NONE_MATCH,
            header::HeaderName::from_static("idempotency-key"),
            // A page resuming a live stream with fetch sends it itself.
            header::HeaderName::from_static("last-event-id"),
        ])
        .expose_headers([
            header::ETAG,
            header::LOCATION,
            header::RETRY_AFTER,
            header::HeaderName::from_static("x-request-id"),
            header::HeaderName::from_static("idempotent-replayed"),
            crate::http::replica_lag::REPLICA_LAG_HEADER,
        ])
        .max_age(PREFLIGHT_MAX_AGE_SECS)
        // A request from an origin not allowed still gets its answer, without the CORS
        // headers: the browser then hides it from the page. Refusing it here would
        // break clients that send an Origin of their own (and answer without a
        // problem document).
        .block_on_origin_mismatch(false);
    match origins {
        CorsOrigins::Any => cors.allow_any_origin().send_wildcard(),
        CorsOrigins::List(list) => list
            .iter()
            .fold(cors, |cors, origin| cors.allowed_origin(origin)),
        CorsOrigins::None => cors,
    }
}
