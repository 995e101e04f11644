//! One open stream: the task that waits for its stream to move and sends what its
//! client has not had yet, until the client leaves or the server stops.
//!
//! What to send is a [`Source`]'s business (a table's redacted events and the
//! caller's view; a tournament's events and summary); the waiting, the heartbeats
//! and the response are the same for all.

use std::future::Future;

use actix_web::http::header;
use actix_web::web::Bytes;
use actix_web::{HttpResponse, web};
use serde::Serialize;
use tokio::sync::mpsc;

use super::body::{ChannelBody, Format};
use crate::app_state::AppState;
use crate::error::ApiError;
use crate::live::gate::StreamPass;

/// Messages a stream may have waiting for a slow client before its task waits too.
const BUFFERED_MESSAGES: usize = 64;

/// Why a stream stops.
#[derive(Debug)]
pub enum Stop {
    /// The client went away, or the server is stopping: nothing more to say.
    Gone,
    /// The stream could not be read: said once, as an `error` message.
    Failed(ApiError),
}

impl From<ApiError> for Stop {
    fn from(error: ApiError) -> Self {
        Self::Failed(error)
    }
}

/// Where a source puts its messages.
#[derive(Debug)]
pub struct Outbox {
    format: Format,
    messages: mpsc::Sender<Bytes>,
}

impl Outbox {
    /// Sends one message; `id` is the stream version of an event.
    pub async fn send(
        &self,
        kind: &str,
        id: Option<u64>,
        data: &impl Serialize,
    ) -> Result<(), Stop> {
        self.raw(self.format.message(kind, id, data)).await
    }

    async fn raw(&self, bytes: Bytes) -> Result<(), Stop> {
        self.messages.send(bytes).await.map_err(|_| Stop::Gone)
    }

    /// A heartbeat, when the stream has been quiet.
    pub async fn heartbeat(&self) -> Result<(), Stop> {
        self.raw(self.format.heartbeat()).await
    }

    /// Resolves when the client has gone.
    pub async fn closed(&self) {
        self.messages.closed().await;
    }
}

/// What a stream sends.
pub trait Source: 'static {
    /// Sends what moved after version `sent` (with `sent` unknown, a fresh stream:
    /// only the current state), and returns the version now sent. `head` is the
    /// stream's version as last notified (0 when none was yet): what a read must
    /// reach at least.
    fn catch_up(
        &mut self,
        state: &AppState,
        sent: Option<u64>,
        head: u64,
        out: &Outbox,
    ) -> impl Future<Output = Result<u64, Stop>>;
}

/// Opens the stream `stream_id` for `source`, resuming after `after`: the response,
/// whose body the spawned task feeds.
pub fn open(
    state: web::Data<AppState>,
    stream_id: String,
    format: Format,
    after: Option<u64>,
    source: impl Source,
    pass: StreamPass,
) -> HttpResponse {
    open_with(format, pass, |out| {
        run(state, stream_id, after, source, out)
    })
}

/// The response of a stream whose messages `task` sends through its [`Outbox`]: for
/// streams that follow more than one stream of the store. The stream keeps its
/// `pass` (its place under the stream caps) until its task ends.
pub fn open_with<F: Future<Output = ()> + 'static>(
    format: Format,
    pass: StreamPass,
    task: impl FnOnce(Outbox) -> F,
) -> HttpResponse {
    let (messages, body) = mpsc::channel(BUFFERED_MESSAGES);
    let task = task(Outbox { format, messages });
    actix_web::rt::spawn(async move {
        task.await;
        drop(pass);
    });
    HttpResponse::Ok()
        .content_type(format.content_type())
        .insert_header((header::CACHE_CONTROL, "no-store"))
        // Reverse proxies (nginx) would otherwise hold the messages back.
        .insert_header(("X-Accel-Buffering", "no"))
        .streaming(ChannelBody(body))
}

async fn run(
    state: web::Data<AppState>,
    stream_id: String,
    after: Option<u64>,
    mut source: impl Source,
    out: Outbox,
) {
    if let Err(Stop::Failed(error)) = follow(&state, &stream_id, after, &mut source, &out).await {
        let _ = out.send("error", None, &error.problem()).await;
    }
}

async fn follow(
    state: &AppState,
    stream_id: &str,
    after: Option<u64>,
    source: &mut impl Source,
    out: &Outbox,
) -> Result<(), Stop> {
    // Subscribe before the first read: a change in between then wakes us.
    let mut subscription = state.live.subscribe(stream_id);
    let mut sent = after;
    loop {
        let head = *subscription.head.borrow_and_update();
        sent = Some(source.catch_up(state, sent, head, out).await?);
        tokio::select! {
            moved = subscription.head.changed() => {
                if moved.is_err() {
                    return Err(Stop::Gone);
                }
            }
            _ = subscription.closing.changed() => return Err(Stop::Gone),
            () = out.closed() => return Err(Stop::Gone),
            () = tokio::time::sleep(state.stream_heartbeat) => out.heartbeat().await?,
        }
    }
}
