//! `GET /v1/tables/{id}/stream`: the table pushed to the caller as it moves.
//!
//! Each event the caller may see (exactly what `/events` gives them, redacted the same
//! way) is one message whose id is its stream version; after each change comes the
//! caller's fresh view. A client resumes with `Last-Event-ID` (or `?after=`), on this
//! server or any other on the same database, and gets every event after it, once.
//! `docs/live.md` describes the protocol.

use actix_web::{HttpRequest, HttpResponse, http::header, web};
use serde::Deserialize;
use tokio::sync::mpsc;
use utoipa::IntoParams;

use super::dto::TableView;
use super::events::visible_page;
use super::load;
use crate::app_state::AppState;
use crate::auth::Authenticated;
use crate::auth::accounts::Account;
use crate::error::{ApiError, Problem};
use crate::live::body::{ChannelBody, Format, resume_point};
use crate::tables::stream_id;
use crate::tournaments::fairness::table_access;

/// Messages a stream may have waiting for a slow client before its task waits too.
const BUFFERED_MESSAGES: usize = 64;
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
        (status = 401, description = "Missing, unknown or expired token",
         body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such table (`not_found`)",
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
    // Refusals (no table, no access) are answered as problems before the stream opens.
    let table = load(&state, id).await?;
    table_access(&state, &table, &auth.account).await?;
    let format = Format::negotiate(&req);
    let after = resume_point(&req, query.after);
    let (messages, body) = mpsc::channel(BUFFERED_MESSAGES);
    let follower = Follower {
        state: state.clone(),
        account: auth.account,
        id,
        format,
        messages,
    };
    actix_web::rt::spawn(follower.run(after));
    Ok(HttpResponse::Ok()
        .content_type(format.content_type())
        .insert_header((header::CACHE_CONTROL, "no-store"))
        // Reverse proxies (nginx) would otherwise hold the messages back.
        .insert_header(("X-Accel-Buffering", "no"))
        .streaming(ChannelBody(body)))
}

/// The task behind one open stream.
struct Follower {
    state: web::Data<AppState>,
    account: Account,
    id: i64,
    format: Format,
    messages: mpsc::Sender<web::Bytes>,
}

/// Why a stream stops.
enum Stop {
    /// The client went away (or the server is stopping): nothing to say.
    Gone,
    /// The table could not be read: said once, as an `error` message.
    Failed(ApiError),
}

impl Follower {
    async fn run(self, after: Option<u64>) {
        if let Err(Stop::Failed(error)) = self.follow(after).await {
            let problem = error.problem();
            let _ = self
                .messages
                .send(self.format.message("error", None, &problem))
                .await;
        }
    }

    async fn send(&self, message: web::Bytes) -> Result<(), Stop> {
        self.messages.send(message).await.map_err(|_| Stop::Gone)
    }

    async fn follow(&self, after: Option<u64>) -> Result<(), Stop> {
        // Subscribe before the first read: a change in between then wakes us.
        let mut subscription = self.state.live.subscribe(&stream_id(self.id));
        let mut sent = after;
        let heartbeat = self.state.stream_heartbeat;
        loop {
            sent = Some(self.catch_up(sent).await?);
            tokio::select! {
                moved = subscription.head.changed() => {
                    if moved.is_err() {
                        return Err(Stop::Gone);
                    }
                }
                _ = subscription.closing.changed() => return Err(Stop::Gone),
                () = self.messages.closed() => return Err(Stop::Gone),
                () = tokio::time::sleep(heartbeat) => self.send(self.format.heartbeat()).await?,
            }
        }
    }

    /// Sends the events after `sent` and then the view, if anything moved; the
    /// version now sent. With `sent` unknown (a fresh stream), only the view.
    async fn catch_up(&self, sent: Option<u64>) -> Result<u64, Stop> {
        let table = load(&self.state, self.id).await.map_err(Stop::Failed)?;
        let access = table_access(&self.state, &table, &self.account)
            .await
            .map_err(Stop::Failed)?;
        let mut done = match sent {
            Some(sent) if sent >= table.version => return Ok(sent),
            Some(sent) => sent,
            None => table.version,
        };
        while done < table.version {
            let (page, next) = visible_page(&table, access.viewer(), done, EVENTS_PER_BATCH);
            for event in &page {
                self.send(self.format.message("event", Some(event.version), event))
                    .await?;
            }
            if next <= done {
                break;
            }
            done = next;
        }
        let view = TableView::of(&table, access);
        self.send(self.format.message("view", None, &view)).await?;
        Ok(table.version)
    }
}
