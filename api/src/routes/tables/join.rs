//! `POST /v1/tables/{id}/join`: take a seat before the start.

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::dto::TableSummary;
use super::{if_match, mutation, optional_body};
use crate::auth::Authenticated;
use crate::error::{ApiError, Problem};
use crate::idempotency::{IdempotencyKeyHeader, request_fingerprint};
use crate::request_id::RequestId;
use crate::startup::AppState;
use crate::tables::events::{SeatTaken, StreamEvent, TableEvent};
use crate::tables::repo::{self, Decision};
use crate::tables::state::SeatHolder;
use crate::tables::table_refusal;

/// Which seat to take; the body may be empty (the first free seat).
#[derive(Debug, Default, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct JoinRequest {
    /// A free seat, from 0; the first free one when absent.
    #[schema(example = 1)]
    pub seat: Option<i64>,
}

/// Takes a seat at a table that has not started. One seat per account.
#[utoipa::path(
    post,
    path = "/v1/tables/{id}/join",
    tag = "tables",
    security(("bearer" = [])),
    params(
        ("id" = i64, Path, description = "Table id"),
        ("Idempotency-Key" = Option<String>, Header, description = "Retry safely: the same key gets the same answer"),
    ),
    request_body(content = Option<JoinRequest>, description = "Optional: the seat wanted"),
    responses(
        (status = 200, description = "Seated; the table after it", body = TableSummary),
        (status = 401, description = "Missing, unknown or expired token",
         body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such table (`not_found`)",
         body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "`table_started`, `already_seated`, `seat_taken`, \
         `table_full`, or `version_conflict`",
         body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "No such seat (`validation_failed`, field `seat`)",
         body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn join(
    state: web::Data<AppState>,
    auth: Authenticated,
    request_id: RequestId,
    key: IdempotencyKeyHeader,
    path: web::Path<i64>,
    req: HttpRequest,
    body: web::Bytes,
) -> Result<HttpResponse, ApiError> {
    let request: JoinRequest = optional_body(&body)?;
    let fingerprint = request_fingerprint(&req, &request);
    let mutation = mutation(&auth, &request_id, key.0, fingerprint, if_match(&req)?);
    let account = &auth.account;
    repo::mutate(&state, path.into_inner(), mutation, |mut loaded| {
        let table = &loaded.state;
        if table.started {
            return Err(table_refusal(
                StatusCode::CONFLICT,
                "table_started",
                "the table has started: seats can no longer be taken",
            ));
        }
        if let Some(seat) = table.seat_of(account.id) {
            return Err(table_refusal(
                StatusCode::CONFLICT,
                "already_seated",
                format!("you already sit at seat {seat}"),
            ));
        }
        let seat = match request.seat {
            Some(wanted) => {
                let holder = usize::try_from(wanted)
                    .ok()
                    .and_then(|s| table.seats.get(s));
                match holder {
                    None => {
                        return Err(ApiError::invalid_field(
                            "seat",
                            format!("must be a seat from 0 to {}", table.seats.len() - 1),
                        ));
                    }
                    Some(SeatHolder::Empty) => u8::try_from(wanted).unwrap_or(0),
                    Some(_) => {
                        return Err(table_refusal(
                            StatusCode::CONFLICT,
                            "seat_taken",
                            format!("seat {wanted} is taken"),
                        ));
                    }
                }
            }
            None => table.first_free_seat().ok_or_else(|| {
                table_refusal(StatusCode::CONFLICT, "table_full", "every seat is taken")
            })?,
        };
        let event = StreamEvent::Table(TableEvent::SeatTaken(SeatTaken {
            seat,
            account_id: account.id,
            username: account.username.clone(),
        }));
        loaded
            .state
            .apply(event.clone())
            .map_err(|e| ApiError::unexpected("taking a seat", e))?;
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
