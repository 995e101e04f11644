//! `/healthz` (the process is up) and `/readyz` (it can reach the database).

use std::time::Duration;

use actix_web::{HttpResponse, web};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::app_state::AppState;
use crate::error::{ApiError, Problem};
use crate::replica::{Replica, Standing};

/// How long `/readyz` waits for the database.
const READY_TIMEOUT: Duration = Duration::from_secs(2);

/// Health status.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct HealthStatus {
    /// `ok` for `/healthz`, `ready` for `/readyz`.
    #[schema(example = "ok")]
    pub status: String,
    /// On `/readyz` with a replica configured: where the lag-tolerant reads go now.
    /// Readiness never depends on it (a replica down sends those reads to the primary).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replica: Option<ReplicaStatus>,
}

/// The replica as the last probe saw it.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct ReplicaStatus {
    /// `in_use` (a standby within the bound: the listings are read from it), `lagging`
    /// (over the bound, or behind every position sampled: the listings go to the
    /// primary), `unreachable`, `not_a_standby` (it answers but is not in recovery) or
    /// `unknown` (not probed yet). A finished tournament's kept archive is asked of it
    /// unless it is `unreachable` or `not_a_standby`, whatever its lag: it gives only
    /// the very copy the primary names, by its SHA-256.
    #[schema(example = "in_use")]
    pub state: String,
    /// How far its replay was behind the primary, in milliseconds; absent when unknown.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(example = 12)]
    pub lag_ms: Option<u64>,
    /// `YANIV_REPLICA_MAX_LAG_MS`.
    #[schema(example = 5000)]
    pub max_lag_ms: u64,
}

impl ReplicaStatus {
    fn of(replica: &Replica) -> Self {
        let max_lag = replica.max_lag();
        let (state, lag) = match replica.standing().0 {
            Standing::Standby { lag: Some(lag) } if lag <= max_lag => ("in_use", Some(lag)),
            Standing::Standby { lag } => ("lagging", lag),
            Standing::Unreachable => ("unreachable", None),
            Standing::NotAStandby => ("not_a_standby", None),
            Standing::Unknown => ("unknown", None),
        };
        let millis = |d: Duration| u64::try_from(d.as_millis()).unwrap_or(u64::MAX);
        Self {
            state: state.to_owned(),
            lag_ms: lag.map(millis),
            max_lag_ms: millis(max_lag),
        }
    }
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
        replica: None,
    })
}

/// Readiness: the database answers. With a replica configured, the body also says where
/// the reads that tolerate lag go now and how far behind the replica is.
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
            replica: state.lag_tolerant.replica().map(|r| ReplicaStatus::of(r)),
        })),
        Ok(Err(e)) => Err(ApiError::DatabaseUnavailable(Some(e))),
        Err(_) => Err(ApiError::DatabaseUnavailable(None)),
    }
}
