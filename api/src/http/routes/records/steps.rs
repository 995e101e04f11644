//! `POST /v1/records/steps`: a game record replayed step by step, for the replay viewer
//! (`/replay`) and any client that shows a record move by move. Same body, limits,
//! content types and absence of authentication as `POST /v1/records/replay` (see the
//! parent module); what differs is the answer.
//!
//! # Decisions
//!
//! - **A record the rules refuse is still 200.** A referee opens a faulty record to see
//!   where it goes wrong: the answer holds every step up to the first problem and the
//!   problem beside them. Only a body that is not a record at all (it does not parse,
//!   names a player twice, ...) is 422, as for `replay`.
//! - **Whole snapshots.** Each step carries every hand, so a client steps back and
//!   forth without replaying anything itself (the rules live on the server only). The
//!   discard piles come once per round, their throws stamped with step numbers, so the
//!   answer grows with the record, not with its square: a real game of a few KiB
//!   answers with a few hundred KiB.

use actix_web::{HttpRequest, HttpResponse, web};
pub use yaniv_domain::record::{RecordStep, RecordSteps};

use super::{GameRecord, RecordProblem, answer, record_body};
use crate::app_state::AppState;
use crate::error::{ApiError, Problem};

/// Replays a game record step by step and returns the game after every event, every
/// hand shown; stores nothing.
///
/// A record the rules refuse answers with the steps up to its first problem and the
/// problem (`problem`, a `yaniv-error/1` document with 0-based `round` and `action`);
/// only a body that is not a record, a record naming a card that is not one, or a
/// record whose first problem comes before its first step (unknown rules, players that
/// cannot sit), is 422. No authentication.
#[utoipa::path(
    post,
    path = "/v1/records/steps",
    tag = "records",
    security(()),
    request_body(
        content = GameRecord,
        content_type = "application/json",
        description = "A `yaniv-record/1` game record (at most `YANIV_MAX_RECORD_BYTES`, 1 MiB by default)",
    ),
    responses(
        (status = 200, description = "Every step the record replays to, with its first problem if it has one",
         body = RecordSteps),
        (status = 400, description = "The body is not JSON (`malformed_json`)",
         body = Problem, content_type = "application/problem+json"),
        (status = 413, description = "The record is larger than `YANIV_MAX_RECORD_BYTES` (`payload_too_large`)",
         body = Problem, content_type = "application/problem+json"),
        (status = 415, description = "Sent with a content type other than JSON (`unsupported_media_type`)",
         body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "The body is not a record, names a card that is not \
         one (`unknown_card`), or cannot start (`bad_record`, `bad_rules`, `bad_players`, \
         ...): the first problem, with `round`, `action`, `code` and `message`",
         body = RecordProblem, content_type = "application/problem+json"),
        (status = 503, description = "Too many replays at once (`server_busy`, with `Retry-After`)",
         body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn steps(
    state: web::Data<AppState>,
    req: HttpRequest,
    payload: web::Payload,
) -> Result<HttpResponse, ApiError> {
    let bytes = record_body(&state, &req, payload).await?;
    Ok(answer(state.records.steps(bytes).await?))
}
