//! `GET /v1/accounts/me/stream`: the caller's tables, pushed whenever one of them moves
//! or the caller is seated somewhere (a tournament's draw seats them at its next table).

use std::collections::HashMap;
use std::sync::Arc;

use actix_web::{HttpRequest, HttpResponse, web};
use serde::Serialize;
use tokio::sync::Notify;
use utoipa::ToSchema;

use crate::app_state::AppState;
use crate::error::{ApiError, Problem};
use crate::http::auth::Authenticated;
use crate::http::push::follow::{self, Outbox, Stop};
use crate::http::push::{self, body::Format};
use crate::live::Hub;
use crate::tables::listing::{self, SeatedAt};
use crate::tables::stream_id;

/// One table the caller sits at, open or in play.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct MyTable {
    pub table: i64,
    /// The caller's seat.
    pub seat: u8,
    /// `open` (waiting for players) or `playing` (a finished table leaves the list).
    #[schema(value_type = yaniv_domain::table::TableStatus)]
    pub status: String,
    /// The seat the table waits on, while in play.
    pub waiting_on: Option<u8>,
    /// The table waits on the caller.
    pub your_turn: bool,
    /// The table's version: fetch `/v1/tables/{table}/view` for the rest.
    pub version: u64,
}

impl From<SeatedAt> for MyTable {
    fn from(row: SeatedAt) -> Self {
        let seat = u8::try_from(row.seat).unwrap_or(u8::MAX);
        let waiting_on = row.waiting_on.and_then(|s| u8::try_from(s).ok());
        Self {
            table: row.table_id,
            seat,
            your_turn: waiting_on == Some(seat),
            status: row.status,
            waiting_on,
            version: u64::try_from(row.version).unwrap_or(0),
        }
    }
}

/// The caller's tables, pushed: Server-Sent Events (or NDJSON with `Accept:
/// application/x-ndjson`). One message kind, `tables`: every table the caller sits at
/// that is open or in play, with whose turn it is, sent when the stream opens and
/// again whenever that list changes (a move at one of them, a seat taken or left, a
/// tournament's draw). A heartbeat when quiet.
#[utoipa::path(
    get,
    path = "/v1/accounts/me/stream",
    tag = "accounts",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The live stream of `tables` messages (`[MyTable]`)",
         content(
            (String = "text/event-stream"),
            (String = "application/x-ndjson"),
        )),
        (status = 429, description = "Too many live streams for this token, this address or \
         this server (`too_many_streams`); `Retry-After` says when to try again",
         body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn stream(
    state: web::Data<AppState>,
    auth: Authenticated,
    req: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    let account = auth.account.id;
    let pass = push::admit(&state, Some(&auth), &req)?;
    Ok(follow::open_with(
        Format::negotiate(&req),
        pass,
        move |out| async move {
            if let Err(Stop::Failed(error)) = follow_tables(&state, account, &out).await {
                let _ = out.send("error", None, &error.problem()).await;
            }
        },
    ))
}

/// The streams an account stream listens to: its own (seats taken and left) and each
/// of its tables'. Each forwards its wake-ups to one bell.
struct Watches {
    hub: Arc<Hub>,
    bell: Arc<Notify>,
    tasks: HashMap<String, tokio::task::JoinHandle<()>>,
}

impl Watches {
    fn watch(&mut self, stream: String) {
        if self.tasks.contains_key(&stream) {
            return;
        }
        let mut subscription = self.hub.subscribe(&stream);
        let bell = Arc::clone(&self.bell);
        let task = tokio::spawn(async move {
            while subscription.head.changed().await.is_ok() {
                bell.notify_one();
            }
        });
        self.tasks.insert(stream, task);
    }

    /// Keeps watching `keep` (and nothing else).
    fn retain(&mut self, keep: &[String]) {
        self.tasks.retain(|stream, task| {
            let kept = keep.contains(stream);
            if !kept {
                task.abort();
            }
            kept
        });
    }
}

impl Drop for Watches {
    fn drop(&mut self) {
        for task in self.tasks.values() {
            task.abort();
        }
    }
}

async fn follow_tables(state: &AppState, account: i64, out: &Outbox) -> Result<(), Stop> {
    let own = format!("account-{account}");
    let mut watches = Watches {
        hub: Arc::clone(&state.live),
        bell: Arc::new(Notify::new()),
        tasks: HashMap::new(),
    };
    let mut closing = state.live.closing();
    // Listen first, read after: a change in between rings the bell.
    watches.watch(own.clone());
    let mut sent: Option<Vec<MyTable>> = None;
    loop {
        let tables: Vec<MyTable> = listing::seated_at(&state.db, account)
            .await?
            .into_iter()
            .map(MyTable::from)
            .collect();
        let mut streams: Vec<String> = tables.iter().map(|t| stream_id(t.table)).collect();
        for stream in &streams {
            watches.watch(stream.clone());
        }
        streams.push(own.clone());
        watches.retain(&streams);
        if sent.as_ref() != Some(&tables) {
            out.send("tables", None, &tables).await?;
            sent = Some(tables);
        }
        tokio::select! {
            () = watches.bell.notified() => {}
            _ = closing.changed() => return Err(Stop::Gone),
            () = out.closed() => return Err(Stop::Gone),
            () = tokio::time::sleep(state.stream_heartbeat) => out.heartbeat().await?,
        }
    }
}
