//! `/healthz` (the process is up) and `/readyz` (it can reach the database).

use std::time::Duration;

use actix_web::{HttpResponse, web};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::app_state::AppState;
use crate::error::{ApiError, Problem};

/// How long `/readyz` waits for the database.
const READY_TIMEOUT: Duration = Duration::from_secs(2);

/// Health status.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct HealthStatus {
    /// `ok` for `/healthz`, `ready` for `/readyz`.
    #[schema(example = "ok")]
    pub status: String,
}

/// Liveness: the process is up and serving requests.
#[utoipa::path(
    get,
    path = "/healthz",
    tag = "health",
    security(()),
    responses((status = 200, description = "The process is up", body = HealthStatus))
)]
pub async fn healthz() -> HttpResponse {
    HttpResponse::Ok().json(HealthStatus {
        status: "ok".into(),
    })
}

/// Readiness: the database answers.
#[utoipa::path(
    get,
    path = "/readyz",
    tag = "health",
    security(()),
    responses(
        (status = 200, description = "Ready to serve", body = HealthStatus),
        (status = 503, description = "The database cannot be reached (`database_unavailable`), \
         or this instance is stopping (`shutting_down`): a balancer sends new requests elsewhere",
         body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn readyz(state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    if state.drain.is_stopping() {
        return Err(ApiError::ShuttingDown);
    }
    let ping = sqlx::query("SELECT 1").execute(&state.db);
    match tokio::time::timeout(READY_TIMEOUT, ping).await {
        Ok(Ok(_)) => Ok(HttpResponse::Ok().json(HealthStatus {
            status: "ready".into(),
        })),
        Ok(Err(e)) => Err(ApiError::DatabaseUnavailable(Some(e))),
        Err(_) => Err(ApiError::DatabaseUnavailable(None)),
    }
}
