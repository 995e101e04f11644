//! Live streams over HTTP: [`follow`] pushes a stream's new events (and what the
//! caller may see of them) as they are announced by [`crate::live`]; [`body`] writes
//! them as Server-Sent Events or NDJSON.

pub mod body;
pub mod follow;
