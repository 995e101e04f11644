//! Counts every request in the server's [`crate::metrics::HttpMetrics`]: method, route pattern,
//! status and latency.

use std::time::Instant;

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::middleware::Next;
use actix_web::web;

use crate::app_state::AppState;

/// Counts every request in the server's [`crate::metrics::HttpMetrics`] (use with
/// `middleware::from_fn`).
pub async fn middleware(
    req: ServiceRequest,
    next: Next<impl MessageBody>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let started = Instant::now();
    let state = req.app_data::<web::Data<AppState>>().cloned();
    let method = req.method().as_str().to_owned();
    let result = next.call(req).await;
    if let Some(state) = state {
        let (route, status) = match &result {
            Ok(res) => (res.request().match_pattern(), res.status().as_u16()),
            Err(err) => (None, err.as_response_error().status_code().as_u16()),
        };
        let route = route.unwrap_or_else(|| "unmatched".to_owned());
        state
            .http_metrics
            .observe(&method, &route, status, started.elapsed());
    }
    result
}
