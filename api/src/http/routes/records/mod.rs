//! `POST /v1/records/replay`: a referee's tool. The body is a game record
//! (`yaniv-record/1`, see `docs/record-format.md`); the answer is what the rules make
//! of it: the `yaniv-result/1` document (200), or the first problem with its round and
//! action (422). Nothing is stored.
//!
//! # Decisions
//!
//! - **No authentication.** The endpoint reads nothing from the database and writes
//!   nothing; it computes what `yaniv replay` computes offline, so a token would protect
//!   nothing. What it costs is CPU, and that is bounded instead: by the body limit
//!   (`YANIV_MAX_RECORD_BYTES`, 1 MiB by default, separate from the 256 KiB of the other
//!   endpoints; a real game is a few KiB) and by [`RecordReplayer`]'s semaphore
//!   (`YANIV_REPLAY_CONCURRENCY` replays at once; a request waiting longer than
//!   [`REPLAY_MAX_WAIT`] gets 503 `server_busy`).
//! - **Off the executor.** A replay costs about 20 ms of CPU per MiB of record (release
//!   build, `cargo run --release -p yaniv-e2e-tests --example replay_bench`: a 1 MiB
//!   record of 75 rounds and 17,735 actions replays in 19-20 ms in process, 23-24 ms
//!   over HTTP; 16 MiB in about 270 ms; a debug build is 3-4 times slower). Run on the
//!   executor, that would stall every other connection of the actix worker for as
//!   long, so parsing, replaying and serializing run on tokio's blocking pool; the
//!   hand-off costs tens of microseconds, nothing next to a real record's replay.
//! - **Errors.** A body that is not JSON at all is 400 `malformed_json`, like every other
//!   endpoint. JSON that is not a valid record, or a record the rules refuse, is 422 with
//!   the rules engine's code as the problem's `code` (`unknown_card`, `illegal_draw`,
//!   `bad_rules`, `round_not_finished`, `bad_record`, ...) and the `yaniv-error/1` fields
//!   (`format`, `round`, `action`, `message`) next to the problem fields, so the body is
//!   both an RFC 9457 problem and the document `yaniv replay` prints.
//! - **Content type.** `application/json` or any `application/*+json`; a request without
//!   a `Content-Type` is read as JSON too (a referee's `curl --data-binary` with
//!   `-H 'Content-Type: application/json'` forgotten is common); anything else is 415.
//!
//! The OpenAPI schemas of the body and the answer are the rules engine's own types
//! ([`GameRecord`], [`ReplayResult`]); the engine parses the body itself, so that the
//! first problem is located by round and action.

pub mod steps;

use std::pin::Pin;
use std::time::Duration;

use actix_web::http::StatusCode;
use actix_web::http::header::{self, HeaderMap};
use actix_web::web::Bytes;
use actix_web::{HttpRequest, HttpResponse, web};
use futures_core::Stream;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use yaniv_domain::record::{self, RecordError};
pub use yaniv_domain::record::{GameRecord, ReplayResult, example_record, example_result};

use crate::app_state::AppState;
use crate::error::{ApiError, PROBLEM_JSON, Problem};
pub use crate::replayer::{REPLAY_MAX_WAIT, RecordReplayer, Replayed};

/// Replays a game record and returns its result; stores nothing.
///
/// The record is checked against the rules it names, action by action: the first
/// problem is answered with its round and action (0-based) and a stable code. No
/// authentication: the endpoint is read-only and stateless (see `docs/operations.md`).
#[utoipa::path(
    post,
    path = "/v1/records/replay",
    tag = "records",
    security(()),
    request_body(
        content = GameRecord,
        content_type = "application/json",
        description = "A `yaniv-record/1` game record (at most `YANIV_MAX_RECORD_BYTES`, 1 MiB by default)",
    ),
    responses(
        (status = 200, description = "The record replays: its `yaniv-result/1` result",
         body = ReplayResult),
        (status = 413, description = "The record is larger than `YANIV_MAX_RECORD_BYTES` (`payload_too_large`)",
         body = Problem, content_type = "application/problem+json"),
        (status = 415, description = "Sent with a content type other than JSON (`unsupported_media_type`)",
         body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "The record is malformed or breaks the rules: the first problem, \
         with `round`, `action` (0-based, `null` when not inside one), `code` (`bad_record`, \
         `bad_rules`, `unknown_card`, `unknown_player`, `bad_deal`, `bad_shuffle`, \
         `illegal_throw`, `illegal_draw`, `card_not_available`, `not_your_turn`, \
         `call_not_allowed`, `round_not_finished`, `round_over`, `game_over`, ...) and `message`",
         body = RecordProblem, content_type = "application/problem+json"),
        (status = 503, description = "Too many replays at once (`server_busy`, with `Retry-After`)",
         body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn replay(
    state: web::Data<AppState>,
    req: HttpRequest,
    payload: web::Payload,
) -> Result<HttpResponse, ApiError> {
    let bytes = record_body(&state, &req, payload).await?;
    Ok(answer(state.records.replay(bytes).await?))
}

/// 200 with the JSON computed, or the record's 422.
fn answer(replayed: Replayed) -> HttpResponse {
    match replayed {
        Ok(json) => HttpResponse::Ok()
            .insert_header((header::CONTENT_TYPE, "application/json"))
            .body(json),
        Err(error) => {
            tracing::info!(
                code = error.code,
                round = error.round,
                action = error.action,
                "record rejected"
            );
            RecordProblem::from(&error).into_response()
        }
    }
}

/// The body of a request that sends a record: JSON (by its content type), within the
/// record size limit.
async fn record_body(
    state: &AppState,
    req: &HttpRequest,
    payload: web::Payload,
) -> Result<Bytes, ApiError> {
    check_content_type(req.headers())?;
    let limit = state.records.max_bytes();
    let bytes = read_body(payload, limit, content_length(req.headers())).await?;
    // Not JSON at all is the same 400 as on every other endpoint; JSON that is not a
    // record is the record layer's 422, which locates the problem.
    if let Err(e) = serde_json::from_slice::<serde::de::IgnoredAny>(&bytes)
        && !e.is_data()
    {
        return Err(ApiError::MalformedJson(e.to_string()));
    }
    Ok(bytes)
}

/// Most bytes of an oversized body read and thrown away before the 413 is sent.
const DRAIN_MAX_BYTES: u64 = 16 * 1024 * 1024;

/// Longest time spent throwing an oversized body away.
const DRAIN_MAX_TIME: Duration = Duration::from_secs(5);

/// The body, if it is at most `limit` bytes; otherwise 413.
///
/// An oversized body is not answered at once: the rest of it is read and thrown away
/// first (at most [`DRAIN_MAX_BYTES`], for at most [`DRAIN_MAX_TIME`]; nothing is
/// kept), as nginx's lingering close does. Answering while the client is still
/// sending, then closing, makes the client's next write fail, and the client reports
/// a broken pipe instead of the 413 (seen in about one run in twenty of the tests).
/// A body announced larger than the limit plus [`DRAIN_MAX_BYTES`] is refused at once.
async fn read_body(
    mut payload: web::Payload,
    limit: usize,
    announced: Option<u64>,
) -> Result<Bytes, ApiError> {
    let too_large = ApiError::PayloadTooLarge { limit };
    let limit_u64 = limit as u64;
    if announced.is_some_and(|len| len > limit_u64.saturating_add(DRAIN_MAX_BYTES)) {
        return Err(too_large);
    }
    let mut body = web::BytesMut::new();
    let mut over = announced.is_some_and(|len| len > limit_u64);
    let mut drained = 0u64;
    let deadline = tokio::time::Instant::now() + DRAIN_MAX_TIME;
    loop {
        let next = std::future::poll_fn(|cx| Pin::new(&mut payload).poll_next(cx));
        let chunk = if over {
            match tokio::time::timeout_at(deadline, next).await {
                Ok(chunk) => chunk,
                Err(_) => return Err(too_large),
            }
        } else {
            next.await
        };
        match chunk {
            None => break,
            Some(Err(_)) if over => return Err(too_large),
            Some(Err(e)) => {
                return Err(ApiError::BadRequest(format!(
                    "the request body could not be read: {e}"
                )));
            }
            Some(Ok(bytes)) if over => {
                drained += bytes.len() as u64;
                if drained > DRAIN_MAX_BYTES {
                    return Err(too_large);
                }
            }
            Some(Ok(bytes)) => {
                if body.len() + bytes.len() > limit {
                    over = true;
                    drained = (body.len() + bytes.len()) as u64;
                    body = web::BytesMut::new();
                } else {
                    body.extend_from_slice(&bytes);
                }
            }
        }
    }
    if over {
        Err(too_large)
    } else {
        Ok(body.freeze())
    }
}

/// JSON, `application/*+json`, or no content type at all; anything else is 415.
fn check_content_type(headers: &HeaderMap) -> Result<(), ApiError> {
    let Some(value) = headers.get(header::CONTENT_TYPE) else {
        return Ok(());
    };
    let essence = value
        .to_str()
        .unwrap_or_default()
        .split(';')
        .next()
        .unwrap_or_default()
        .trim()
        .to_ascii_lowercase();
    let json = essence == "application/json"
        || (essence.starts_with("application/") && essence.ends_with("+json"));
    if json {
        Ok(())
    } else {
        Err(ApiError::UnsupportedMediaType)
    }
}

fn content_length(headers: &HeaderMap) -> Option<u64> {
    headers
        .get(header::CONTENT_LENGTH)?
        .to_str()
        .ok()?
        .trim()
        .parse()
        .ok()
}

// ---------------------------------------------------------------------------
// The 422 document.
// ---------------------------------------------------------------------------

/// A rejected record: an RFC 9457 problem whose `code` is the record's error code, with
/// the fields of the `yaniv-error/1` document (`format`, `round`, `action`, `message`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(example = json!({
    "type": "urn:yaniv:problem:illegal_draw",
    "title": "Invalid game record",
    "status": 422,
    "detail": "round 0, action 1: bob: illegal draw: 6S is not a card of the previous throw that may be drawn",
    "code": "illegal_draw",
    "format": "yaniv-error/1",
    "round": 0,
    "action": 1,
    "message": "bob: illegal draw: 6S is not a card of the previous throw that may be drawn"
}))]
pub struct RecordProblem {
    /// The problem document: `type` `urn:yaniv:problem:<code>`, `title` always `Invalid
    /// game record`, `status` always 422, `detail` the position and message in one
    /// sentence, `code` the record's error code.
    #[serde(flatten)]
    pub problem: Problem,
    /// Always `yaniv-error/1`.
    pub format: String,
    /// 0-based round of the problem; `null` when it is not inside a round.
    #[schema(required = true)]
    pub round: Option<usize>,
    /// 0-based action in that round; `null` when it is not at an action.
    #[schema(required = true)]
    pub action: Option<usize>,
    /// What is wrong, for a referee; players are named by name.
    pub message: String,
}

impl From<&RecordError> for RecordProblem {
    fn from(e: &RecordError) -> Self {
        Self {
            problem: Problem::new(
                StatusCode::UNPROCESSABLE_ENTITY,
                e.code,
                "Invalid game record",
                e.to_string(),
            ),
            format: record::ERROR_FORMAT.to_owned(),
            round: e.round,
            action: e.action,
            message: e.message.clone(),
        }
    }
}

impl RecordProblem {
    fn into_response(self) -> HttpResponse {
        let body = serde_json::to_vec(&self).unwrap_or_default();
        HttpResponse::UnprocessableEntity()
            .insert_header((header::CONTENT_TYPE, PROBLEM_JSON))
            .body(body)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixtures() -> std::path::PathBuf {
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../domain/tests/fixtures/records")
    }

    #[test]
    fn the_documented_example_replays_to_the_documented_result() {
        let bytes = serde_json::to_vec(&record::example_record()).unwrap();
        let outcome = record::replay_json(&bytes).expect("the example replays");
        assert_eq!(
            serde_json::to_value(&outcome.result).unwrap(),
            record::example_result()
        );
    }

    /// The types the OpenAPI document describes read every record and result of the
    /// conformance fixtures and write them back unchanged. That the schemas accept them
    /// is checked with a JSON Schema validator by `tests/client/check_client.py`.
    #[test]
    fn the_schemas_fit_the_engine_documents() {
        let mut records = 0;
        for entry in std::fs::read_dir(fixtures()).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            if name.starts_with("error_") || !name.ends_with(".json") {
                continue;
            }
            let value: serde_json::Value =
                serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
            if name.ends_with(".expected.json") {
                let doc: ReplayResult =
                    serde_json::from_value(value.clone()).unwrap_or_else(|e| panic!("{name}: {e}"));
                assert_eq!(serde_json::to_value(doc).unwrap(), value, "{name}");
            } else {
                let doc: GameRecord =
                    serde_json::from_value(value.clone()).unwrap_or_else(|e| panic!("{name}: {e}"));
                assert_eq!(serde_json::to_value(doc).unwrap(), value, "{name}");
                let outcome = record::replay_json(&serde_json::to_vec(&value).unwrap())
                    .unwrap_or_else(|e| panic!("{name}: {e}"));
                let result = serde_json::to_value(&outcome.result).unwrap();
                let doc: ReplayResult = serde_json::from_value(result.clone())
                    .unwrap_or_else(|e| panic!("{name} result: {e}"));
                assert_eq!(serde_json::to_value(doc).unwrap(), result, "{name}");
                records += 1;
            }
        }
        assert!(records >= 5, "only {records} fixtures");
    }

    #[test]
    fn record_errors_become_problems_with_the_yaniv_error_fields() {
        let e = RecordError::new(Some(0), Some(1), "illegal_draw", "bob cannot draw 6S");
        let problem = serde_json::to_value(RecordProblem::from(&e)).unwrap();
        let yaniv_error = e.to_json();
        for (k, v) in yaniv_error.as_object().unwrap() {
            assert_eq!(&problem[k.as_str()], v, "{k}");
        }
        assert_eq!(problem["type"], "urn:yaniv:problem:illegal_draw");
        assert_eq!(problem["status"], 422);
        let top = RecordError::new(None, None, "bad_rules", "unknown rule parameter");
        let problem = serde_json::to_value(RecordProblem::from(&top)).unwrap();
        assert_eq!(problem["round"], serde_json::Value::Null);
        assert_eq!(problem["action"], serde_json::Value::Null);
    }

    #[test]
    fn json_content_types_are_accepted() {
        let check = |value: Option<&str>| {
            let mut headers = HeaderMap::new();
            if let Some(v) = value {
                headers.insert(header::CONTENT_TYPE, v.parse().unwrap());
            }
            check_content_type(&headers).is_ok()
        };
        assert!(check(None));
        assert!(check(Some("application/json")));
        assert!(check(Some("Application/JSON; charset=utf-8")));
        assert!(check(Some("application/vnd.yaniv.record+json")));
        assert!(!check(Some("text/plain")));
        assert!(!check(Some("application/x-www-form-urlencoded")));
    }
}
