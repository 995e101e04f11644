//! A deadline on request bodies.
//!
//! actix-web limits how long a request head may take, not its body: a client that
//! sends a body one byte every few seconds holds a connection (and a file handle)
//! for as long as it likes, and a thousand such clients starve everyone else. Here the
//! body must arrive within [`crate::config::Settings::http_body_timeout`] of the head;
//! past that the body stream fails, the request answers `408 body_timeout` and the
//! connection is closed.

use std::cell::Cell;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll};
use std::time::Duration;

use actix_web::body::{BoxBody, MessageBody};
use actix_web::dev::{Payload, ServiceRequest, ServiceResponse};
use actix_web::error::PayloadError;
use actix_web::http::header::{self, HeaderValue};
use actix_web::middleware::Next;
use actix_web::web::Bytes;
use futures_core::Stream;
use tokio::time::Sleep;

use crate::error::ApiError;

/// The body stream with a deadline: after it, one error, then the end.
struct DeadlinePayload {
    body: Payload,
    deadline: Pin<Box<Sleep>>,
    expired: Rc<Cell<bool>>,
}

impl Stream for DeadlinePayload {
    type Item = Result<Bytes, PayloadError>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        if self.expired.get() {
            return Poll::Ready(None);
        }
        if let Poll::Ready(chunk) = Pin::new(&mut self.body).poll_next(cx) {
            return Poll::Ready(chunk);
        }
        match self.deadline.as_mut().poll(cx) {
            Poll::Ready(()) => {
                self.expired.set(true);
                Poll::Ready(Some(Err(PayloadError::Io(std::io::Error::new(
                    std::io::ErrorKind::TimedOut,
                    "the request body did not arrive in time",
                )))))
            }
            Poll::Pending => Poll::Pending,
        }
    }
}

/// Puts the deadline on the request's body; a request whose body missed it answers
/// 408, whatever its handler made of the failed read.
pub async fn middleware(
    limit: Duration,
    mut req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
    let expired = Rc::new(Cell::new(false));
    let (_, payload) = req.parts_mut();
    let body = payload.take();
    let timed: Pin<Box<dyn Stream<Item = Result<Bytes, PayloadError>>>> =
        Box::pin(DeadlinePayload {
            body,
            deadline: Box::pin(tokio::time::sleep(limit)),
            expired: Rc::clone(&expired),
        });
    req.set_payload(Payload::from(timed));
    let res = next.call(req).await?.map_into_boxed_body();
    if !expired.get() {
        return Ok(res);
    }
    tracing::info!(
        limit_ms = limit.as_millis() as u64,
        "request body too slow: closing"
    );
    let (request, _) = res.into_parts();
    let mut response = actix_web::ResponseError::error_response(&ApiError::BodyTimeout);
    response
        .headers_mut()
        .insert(header::CONNECTION, HeaderValue::from_static("close"));
    Ok(ServiceResponse::new(request, response))
}
