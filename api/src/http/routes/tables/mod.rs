//! `/v1/tables`: online game tables, one file per action. The table model (events,
//! fold, bots, verification) is [`crate::tables`].
//!
//! | method and path | who | what |
//! | --- | --- | --- |
//! | `POST /v1/tables` | any account | create a table (rules, seats, bot seats) |
//! | `GET /v1/tables` | any account | list tables, newest first, by status, tournament or time waited |
//! | `GET /v1/tables/{id}` | any account | public summary: seats, status, totals, whose turn, version |
//! | `POST /v1/tables/{id}/join` | any account | take a seat before the start |
//! | `POST /v1/tables/{id}/leave` | seated account | leave before the start |
//! | `POST /v1/tables/{id}/start` | creator, organizer | deal round 1; every human seat taken |
//! | `POST /v1/tables/{id}/actions` | seated account | play, call, slap, add on, go along, onderkluft, waterfall, waterfall pick, kill pile |
//! | `GET /v1/tables/{id}/view` | any account | the caller's view: own seat, public, or everything for staff |
//! | `GET /v1/tables/{id}/events` | any account | the stream, redacted for the caller |
//! | `GET /v1/tables/{id}/stream` | any account | the same events and the caller's view, pushed (SSE or NDJSON) |
//! | `GET /v1/tables/{id}/record` | any account | the game record of the finished rounds |
//! | `GET /v1/tables/{id}/rounds` | any account | how each finished round ended: hands shown, points, totals |
//! | `GET /v1/tables/{id}/audit` | staff | the full state after the first N events (or after a record action), with the round's discard pile |
//! | `GET /v1/tables/{id}/diff` | staff | what changed between two versions: events, hands, stock, scores, turn |
//! | `POST /v1/tables/{id}/verify` | staff | hash chain + replay through the rules |
//!
//! "Staff" is a referee, organizer or admin who does not play at that table while
//! its game runs (a player never sees other hands, whatever their roles).
//!
//! # Status codes of commands
//!
//! - 403 `not_seated`: the caller has no seat at this table (actions, leave).
//! - 409: the command may be right at another moment: `not_your_turn`,
//!   `wrong_phase`, `game_over` (from the rules), `table_not_started`,
//!   `table_started`, `table_full`, `seat_taken`, `already_seated`,
//!   `seats_not_filled`, `version_conflict` (lost the race 4 times in a row).
//! - 412 `precondition_failed`: `If-Match` named another version.
//! - 422: the command is wrong in itself: a malformed body (`validation_failed`,
//!   naming the field) or a move the rules refuse (`illegal_throw`,
//!   `card_not_in_hand`, `illegal_draw`, `call_not_allowed`, `slap_not_allowed`,
//!   `add_on_not_allowed`, `declaration_not_allowed`, ...).
//!
//! Every command accepts `Idempotency-Key`: a retry gets the first answer
//! (`Idempotent-Replayed: true`) and appends nothing.

pub mod actions;
pub mod audit;
pub mod create;
pub mod diff;
pub mod dto;
pub mod events;
pub mod join;
pub mod leave;
pub mod list;
pub mod record;
pub mod rounds;
pub mod show;
pub mod start;
pub mod stream;
pub mod verify;
pub mod view;
pub mod write;

use actix_web::http::header::{self, HeaderValue};
use actix_web::{HttpResponse, web};
use yaniv_domain::table::{Table, TableCommand};

pub use self::actions::{
    ActionRequest, AddOnAction, CallAction, DiscardDraw, DrawRequest, GoAlongAction,
    KillPileAction, OnderkluftAction, PassAction, PlayAction, ReturnAction, SlapAction, StockDraw,
    WaterfallAction, WaterfallPickAction,
};
pub use self::audit::AuditView;
pub use self::create::{BotSeatRequest, CreateTableRequest};
pub use self::diff::{DiffEvent, DiffView};
pub use self::events::{TableEventsPage, VisibleEvent};
pub use self::join::JoinRequest;
pub use self::list::{TableList, TableListEntry};
pub use self::write::{ActionResponse, TableAnswer};
use crate::app_state::AppState;
use crate::error::ApiError;
use crate::http::routes::command::CommandRequest;
use crate::tables::write::TableWrite;

/// Table `id` as it is now, for an answer that shows only what everyone may see at
/// any moment (its summary, the record of rounds that are over). Every other read goes
/// through [`crate::visibility::SeenTable`].
async fn load_public(state: &AppState, id: i64) -> Result<std::sync::Arc<Table>, ApiError> {
    state.tables.read(id).await
}

/// Runs `command` as the caller on table `id`; `body` is the request's body as parsed.
async fn run<B: serde::Serialize>(
    state: &AppState,
    request: &CommandRequest,
    id: i64,
    body: &B,
    command: TableCommand,
    answer: TableAnswer,
) -> Result<HttpResponse, ApiError> {
    let account = request.account();
    let write = TableWrite::new(account, command, |table: &Table, before| {
        answer.body(account, table, before)
    });
    let written = state
        .tables
        .mutate(id, request.mutation(body), write)
        .await?;
    Ok(written.into())
}

/// A JSON answer tagged with the table's version (`ETag`).
fn with_etag(mut response: HttpResponse, version: u64) -> HttpResponse {
    if let Ok(value) = HeaderValue::from_str(&format!("\"{version}\"")) {
        response.headers_mut().insert(header::ETAG, value);
    }
    response
}

/// An optional JSON body: empty means `T::default()`; otherwise it must parse.
fn optional_body<T: serde::de::DeserializeOwned + Default>(
    body: &web::Bytes,
) -> Result<T, ApiError> {
    if body.iter().all(u8::is_ascii_whitespace) {
        return Ok(T::default());
    }
    serde_json::from_slice(body).map_err(|e| crate::error::from_serde_json(&e))
}
