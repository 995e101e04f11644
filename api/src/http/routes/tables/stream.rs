//! `GET /v1/tables/{id}/stream`: the table pushed to the caller as it moves.
//!
//! Each event the caller may see (exactly what `/events` gives them, redacted the same
//! way) is one message whose id is its stream version; after each change comes the
//! caller's fresh view. A client resumes with `Last-Event-ID` (or `?after=`), on this
//! server or any other on the same database, and gets every event after it, once.
//! `docs/live.md` describes the protocol.

use actix_web::{HttpRequest, HttpResponse, web};
use serde::Deserialize;
use utoipa::IntoParams;

use super::dto::TableView;
use crate::app_state::AppState;
use crate::error::{ApiError, Problem};
use crate::http::auth::Authenticated;
use crate::http::push::follow::{self, Outbox, Source, Stop};
use crate::http::push::{
    self,
    body::{Format, resume_point},
};
use crate::tables::stream_id;
use crate::visibility::SeenTable;

/// Events read from a fold per message batch.
const EVENTS_PER_BATCH: usize = 1000;

#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct StreamQuery {
    /// Resume after this version (`Last-Event-ID` wins when both are sent). Without
    /// either, the stream starts with the current view and then sends what changes.
    #[param(minimum = 0)]
    pub after: Option<u64>,
}

/// The table, pushed: Server-Sent Events (or NDJSON with `Accept:
/// application/x-ndjson`). Messages: `event` (id = stream version; data as one item
/// of `/events`), `view` (data as `/view`, after each change), and a heartbeat when
/// quiet. The stream ends when the server stops; reconnect with `Last-Event-ID`.
#[utoipa::path(
    get,
    path = "/v1/tables/{id}/stream",
    tag = "tables",
    security(("bearer" = [])),
    params(
        ("id" = i64, Path, description = "Table id"),
        ("Last-Event-ID" = Option<u64>, Header, description = "Resume after this version"),
        StreamQuery,
    ),
    responses(
        (status = 200, description = "The live stream", content(
            (String = "text/event-stream"),
            (String = "application/x-ndjson"),
        )),
        (status = 404, description = "No such table (`not_found`)",
         body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "Too many live streams for this token, this address or \
         this server (`too_many_streams`); `Retry-After` says when to try again",
         body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn stream(
    state: web::Data<AppState>,
    auth: Authenticated,
    req: HttpRequest,
    path: web::Path<i64>,
    query: web::Query<StreamQuery>,
) -> Result<HttpResponse, ApiError> {
    let id = path.into_inner();
    // Refusals (no table) are answered as problems before the stream opens.
    SeenTable::read(&state, id, Some(&auth.account)).await?;
    let pass = push::admit(&state, Some(&auth), &req)?;
    let after = resume_point(&req, query.after);
    let source = TableSource { auth, id };
    Ok(follow::open(
        state,
        stream_id(id),
        Format::negotiate(&req),
        after,
        source,
        pass,
    ))
}

/// A table as one session may see it.
struct TableSource {
    /// The caller's session, asked again before each message: roles change while a
    /// stream stays open.
    auth: Authenticated,
    id: i64,
}

impl Source for TableSource {
    /// The events after `sent` as `/events` gives them, then the view, if anything
    /// moved; with `sent` unknown, only the view.
    async fn catch_up(
        &mut self,
        state: &AppState,
        sent: Option<u64>,
        head: u64,
        out: &Outbox,
    ) -> Result<u64, Stop> {
        let account = self
            .auth
            .current(state)
            .await?
            .ok_or(Stop::Failed(ApiError::InvalidToken))?;
        let seen = SeenTable::read_at_least(state, self.id, head, Some(&account)).await?;
        let seen = seen.seen();
        let table = seen.table();
        let mut done = match sent {
            Some(sent) if sent >= table.version => return Ok(sent),
            Some(sent) => sent,
            None => table.version,
        };
        while done < table.version {
            let (page, next) = seen.events(done, EVENTS_PER_BATCH);
            for event in &page {
                out.send("event", Some(event.version), event).await?;
            }
            if next <= done {
                break;
            }
            done = next;
        }
        out.send("view", None, &TableView::of(seen)).await?;
        Ok(table.version)
    }
}
