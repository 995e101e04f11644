//! A route that exists only in the tests: `POST /test/streams/{stream}/events`
//! appends raw events through the event store, with `Idempotency-Key` support.
//!
//! The real API never lets a client choose events (the rules engine decides them);
//! this route exercises the generic machinery over HTTP, and shows how a resource
//! plugs into the router (`spawn_app_with(.., vec![test_routes::configure])`) and
//! how a handler combines idempotency with an append.

use actix_web::{HttpRequest, HttpResponse, web};
use serde::{Deserialize, Serialize};
use yaniv_api::error::ApiError;
use yaniv_api::http::auth::Authenticated;
use yaniv_api::http::idempotency_key::{IdempotencyKeyHeader, request_fingerprint, respond};
use yaniv_api::http::request_id::RequestId;
use yaniv_api::http::routes::resource;
use yaniv_api::startup::AppState;
use yaniv_api::store::idempotency::{self, Begin, IdempotentRequest, StoredResponse};
use yaniv_api::store::{EventMetadata, NewEvent};

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(resource("/test/streams/{stream}/events", "POST").route(web::post().to(append)));
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AppendRequest {
    pub expected_version: u64,
    pub events: Vec<RawEvent>,
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawEvent {
    #[serde(rename = "type")]
    pub event_type: String,
    pub payload: serde_json::Value,
}

#[derive(Debug, Serialize, Deserialize)]
pub struct AppendResponse {
    pub stream: String,
    pub first_version: u64,
    pub last_version: u64,
    pub global_positions: Vec<i64>,
}

async fn append(
    state: web::Data<AppState>,
    auth: Authenticated,
    request_id: RequestId,
    key: IdempotencyKeyHeader,
    stream: web::Path<String>,
    req: HttpRequest,
    body: web::Json<AppendRequest>,
) -> Result<HttpResponse, ApiError> {
    let events: Vec<NewEvent> = body
        .events
        .iter()
        .map(|e| NewEvent::from_json(&e.event_type, &e.payload))
        .collect();
    let metadata = EventMetadata {
        actor: auth.account.actor(),
        request_id: Some(request_id.as_str().to_owned()),
        idempotency_key: key.0.as_ref().map(|k| k.as_str().to_owned()),
    };
    let respond_with = |outcome: yaniv_api::store::AppendOutcome| AppendResponse {
        stream: outcome.stream_id,
        first_version: outcome.first_version,
        last_version: outcome.last_version,
        global_positions: outcome.global_positions,
    };

    let Some(key) = key.0 else {
        let outcome = state
            .store
            .append(&stream, body.expected_version, &events, &metadata)
            .await?;
        return Ok(HttpResponse::Created().json(respond_with(outcome)));
    };

    let request = IdempotentRequest {
        actor: auth.account.actor(),
        key,
        fingerprint: request_fingerprint(&req, &*body),
    };
    match idempotency::begin(state.store.pool(), &request).await? {
        Begin::Replay(stored) => Ok(respond(&stored, true)),
        Begin::Fresh(mut tx) => {
            let outcome = state
                .store
                .append_in(&mut tx, &stream, body.expected_version, &events, &metadata)
                .await?;
            let stored =
                StoredResponse::json(idempotency::AnswerKind::Created, &respond_with(outcome))?;
            idempotency::complete(tx, &request, &stored).await?;
            Ok(respond(&stored, false))
        }
    }
}
