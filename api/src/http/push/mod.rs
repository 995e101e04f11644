//! Live streams over HTTP: [`follow`] pushes a stream's new events (and what the
//! caller may see of them) as they are announced by [`crate::live`]; [`body`] writes
//! them as Server-Sent Events or NDJSON.
//! How many may be open at once is `crate::live::gate`'s.

pub mod body;
pub mod follow;

use actix_web::HttpRequest;

use crate::app_state::AppState;
use crate::error::ApiError;
use crate::http::auth::Authenticated;
use crate::live::gate::StreamPass;

/// A place under the stream caps for a stream of `auth` (or an anonymous one) from
/// the request's TCP peer.
pub fn admit(
    state: &AppState,
    auth: Option<&Authenticated>,
    req: &HttpRequest,
) -> Result<StreamPass, ApiError> {
    state.streams.enter(
        auth.map(|a| *a.token_hash()),
        req.peer_addr().map(|peer| peer.ip()),
    )
}
