//! `GET /metrics`: the server's figures for Prometheus (see [`crate::http::exposition`]).

use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse, web};
use secrecy::ExposeSecret;

use crate::app_state::{AppState, MetricsAccess};
use crate::error::{ApiError, Reason};

/// The figures of this instance in the Prometheus text format: requests and latency
/// by route, appends, lost races, fold cache hits and entries, pool use, live
/// subscribers, timeouts, resident memory. With `YANIV_METRICS_TOKEN` set, only a
/// scraper that sends it as a bearer token is answered; without one, only on a
/// loopback bind (or with `YANIV_METRICS_OPEN=true`).
#[utoipa::path(
    get,
    path = "/metrics",
    tag = "health",
    security((), ("metrics_token" = [])),
    responses(
        (status = 200, description = "The figures (text/plain; version=0.0.4)",
         body = String, content_type = "text/plain"),
        (status = 401, description = "`YANIV_METRICS_TOKEN` is set and the request does not carry it (`invalid_token`)",
         body = crate::error::Problem, content_type = "application/problem+json"),
        (status = 403, description = "The server listens beyond loopback and no \
         `YANIV_METRICS_TOKEN` is set (`metrics_closed`)",
         body = crate::error::Problem, content_type = "application/problem+json"),
    )
)]
pub async fn metrics(
    state: web::Data<AppState>,
    request: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    match &state.metrics {
        MetricsAccess::Open => {}
        MetricsAccess::Token(expected) => {
            let sent = request
                .headers()
                .get(header::AUTHORIZATION)
                .and_then(|value| value.to_str().ok())
                .and_then(|value| value.strip_prefix("Bearer "))
                .unwrap_or_default();
            if !same_secret(sent.as_bytes(), expected.expose_secret().as_bytes()) {
                return Err(ApiError::InvalidToken);
            }
        }
        MetricsAccess::Closed => {
            return Err(ApiError::Refused {
                reason: Reason::Forbidden,
                code: "metrics_closed",
                title: "Metrics closed",
                detail: "this server listens beyond loopback: set YANIV_METRICS_TOKEN and \
                         send it as a bearer token (or set YANIV_METRICS_OPEN=true)"
                    .into(),
            });
        }
    }
    Ok(HttpResponse::Ok()
        .content_type("text/plain; version=0.0.4; charset=utf-8")
        .body(crate::http::exposition::render(&state)))
}

/// Compares without stopping at the first difference, so the time taken does not
/// say how much of a guess was right.
fn same_secret(sent: &[u8], expected: &[u8]) -> bool {
    sent.len() == expected.len()
        && sent
            .iter()
            .zip(expected)
            .fold(0u8, |diff, (a, b)| diff | (a ^ b))
            == 0
}

#[cfg(test)]
mod tests {
    use super::same_secret;

    #[test]
    fn only_the_same_token_passes() {
        assert!(same_secret(b"scrape-token-1234", b"scrape-token-1234"));
        assert!(!same_secret(b"scrape-token-1235", b"scrape-token-1234"));
        assert!(!same_secret(b"scrape", b"scrape-token-1234"));
        assert!(!same_secret(b"", b"scrape-token-1234"));
    }
}
