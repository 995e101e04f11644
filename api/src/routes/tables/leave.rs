//! `POST /v1/tables/{id}/leave`: give a seat back before the start.

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};

use super::dto::TableSummary;
use super::{if_match, mutation};
use crate::auth::Authenticated;
use crate::error::{ApiError, Problem};
use crate::idempotency::{IdempotencyKeyHeader, request_fingerprint};
use crate::request_id::RequestId;
use crate::startup::AppState;
use crate::tables::events::{SeatLeft, StreamEvent, TableEvent};
use crate::tables::repo::{self, Decision};
use crate::tables::table_refusal;

/// Leaves the caller's seat; only before the table starts.
#[utoipa::path(
    post,
    path = "/v1/tables/{id}/leave",
    tag = "tables",
    security(("bearer" = [])),
    params(
        ("id" = i64, Path, description = "Table id"),
        ("Idempotency-Key" = Option<String>, Header, description = "Retry safely: the same key gets the same answer"),
    ),
    responses(
        (status = 200, description = "Left; the table after it", body = TableSummary),
        (status = 401, description = "Missing, unknown or expired token",
         body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "The caller has no seat here (`not_seated`)",
         body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such table (`not_found`)",
         body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "`table_started` or `version_conflict`",
         body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn leave(
    state: web::Data<AppState>,
    auth: Authenticated,
    request_id: RequestId,
    key: IdempotencyKeyHeader,
    path: web::Path<i64>,
    req: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    let fingerprint = request_fingerprint(&req, &());
    let mutation = mutation(&auth, &request_id, key.0, fingerprint, if_match(&req)?);
    let account = &auth.account;
    repo::mutate(&state, path.into_inner(), mutation, |mut loaded| {
        let table = &loaded.state;
        let Some(seat) = table.seat_of(account.id) else {
            return Err(table_refusal(
                StatusCode::FORBIDDEN,
                "not_seated",
                "you have no seat at this table",
            ));
        };
        if table.started {
            return Err(table_refusal(
                StatusCode::CONFLICT,
                "table_started",
                "the table has started: nobody can leave it",
            ));
        }
        let event = StreamEvent::Table(TableEvent::SeatLeft(SeatLeft {
            seat,
            account_id: account.id,
        }));
        loaded
            .state
            .apply(event.clone())
            .map_err(|e| ApiError::unexpected("leaving a seat", e))?;
        let body = serde_json::to_value(TableSummary::of(&loaded.state))
            .map_err(|e| ApiError::unexpected("serialising a table", e))?;
        Ok(Decision {
            events: vec![event],
            after: loaded,
            status: StatusCode::OK,
            body,
        })
    })
    .await
}
