//! How a live stream is framed on the wire, and the response body that carries it.
//!
//! - Server-Sent Events (`text/event-stream`, the default): one message per item,
//!   `id:` the stream version for events (what `Last-Event-ID` resumes from),
//!   `event:` the item's kind, `data:` its JSON on one line; a comment line as the
//!   heartbeat.
//! - NDJSON (`Accept: application/x-ndjson`): one JSON object per line,
//!   `{"kind": ..., "id": ..., "data": ...}`; an empty line as the heartbeat.

use std::convert::Infallible;
use std::pin::Pin;
use std::task::{Context, Poll};

use actix_web::HttpRequest;
use actix_web::http::header;
use actix_web::web::Bytes;
use futures_core::Stream;
use serde::Serialize;
use serde_json::json;
use tokio::sync::mpsc;

/// The wire format of a stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Sse,
    Ndjson,
}

pub const SSE: &str = "text/event-stream";
pub const NDJSON: &str = "application/x-ndjson";

impl Format {
    /// NDJSON when the client asks for it (and not for SSE), SSE otherwise.
    pub fn negotiate(req: &HttpRequest) -> Self {
        let accept = req
            .headers()
            .get(header::ACCEPT)
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default();
        if accept.contains(NDJSON) && !accept.contains(SSE) {
            Self::Ndjson
        } else {
            Self::Sse
        }
    }

    pub fn content_type(self) -> &'static str {
        match self {
            Self::Sse => SSE,
            Self::Ndjson => NDJSON,
        }
    }

    /// One item. `id` is the stream version of an event.
    pub fn message(self, kind: &str, id: Option<u64>, data: &impl Serialize) -> Bytes {
        let data = serde_json::to_string(data).unwrap_or_else(|_| "null".to_owned());
        match self {
            Self::Sse => {
                let id = id.map(|id| format!("id: {id}\n")).unwrap_or_default();
                Bytes::from(format!("{id}event: {kind}\ndata: {data}\n\n"))
            }
            Self::Ndjson => {
                let data: serde_json::Value =
                    serde_json::from_str(&data).unwrap_or(serde_json::Value::Null);
                let line = json!({"kind": kind, "id": id, "data": data});
                Bytes::from(format!("{line}\n"))
            }
        }
    }

    /// Keeps proxies and clients from taking a quiet stream for a dead one.
    pub fn heartbeat(self) -> Bytes {
        Bytes::from_static(match self {
            Self::Sse => b": heartbeat\n\n",
            Self::Ndjson => b"\n",
        })
    }
}

/// The `after` a client resumes from: `Last-Event-ID` (what an SSE client sends by
/// itself on reconnection), else the query's `after`.
pub fn resume_point(req: &HttpRequest, after: Option<u64>) -> Option<u64> {
    req.headers()
        .get("last-event-id")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse().ok())
        .or(after)
}

/// The response body: what the stream's task sends, until either side stops.
#[derive(Debug)]
pub struct ChannelBody(pub mpsc::Receiver<Bytes>);

impl Stream for ChannelBody {
    type Item = Result<Bytes, Infallible>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        self.0.poll_recv(cx).map(|chunk| chunk.map(Ok))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sse_messages_carry_their_version_as_id() {
        let message = Format::Sse.message("event", Some(7), &json!({"a": 1}));
        assert_eq!(&message[..], b"id: 7\nevent: event\ndata: {\"a\":1}\n\n");
        let view = Format::Sse.message("view", None, &json!({"v": 2}));
        assert_eq!(&view[..], b"event: view\ndata: {\"v\":2}\n\n");
    }

    #[test]
    fn ndjson_lines_are_one_object_each() {
        let line = Format::Ndjson.message("event", Some(7), &json!({"a": 1}));
        let parsed: serde_json::Value =
            serde_json::from_slice(line.strip_suffix(b"\n").unwrap()).unwrap();
        assert_eq!(parsed, json!({"kind": "event", "id": 7, "data": {"a": 1}}));
    }
}
