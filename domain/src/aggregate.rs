//! The contract every event stream of the engine fulfils: a game table
//! ([`crate::table::Table`]) and a tournament ([`crate::tournament::Tournament`]) are
//! both an [`Aggregate`], so a server stores, folds, decides and retries them with one
//! piece of code.
//!
//! - [`Aggregate::apply`] folds an event read back from the stream: no decision, no
//!   business rule beyond "this event may follow the ones before".
//! - [`Aggregate::execute`] decides a command on the aggregate as it is now and folds
//!   the events it produced, which it returns for the caller to append. All business
//!   rules live here.
//! - What a decision needs from outside the stream (who asks, the clock, randomness) is
//!   passed in as [`Aggregate::Services`], so the aggregate stays pure: a test gives it
//!   events, a command and fixed services, and checks the events that come out.
//! - A refusal is an error with a stable code and a [`RefusalKind`] ([`Refusal`]), which
//!   a server maps to its own answers (403, 409, 422).

use serde::Serialize;

/// How a refusal reads to whoever sent the command.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RefusalKind {
    /// The sender's place does not allow it (not their seat, not their tournament).
    Forbidden,
    /// It may be right at another moment (not your turn, the table has started):
    /// reload and look again.
    NotNow,
    /// It is wrong in itself (an illegal throw, a bad setting, a seat that does not
    /// exist): sending it again changes nothing.
    Invalid,
    /// Not the sender's fault: the engine or what was injected into it failed (no
    /// randomness, a bot that broke a rule). The aggregate must be dropped and folded
    /// again from its stream.
    Internal,
}

/// An error that refuses a command, with a stable machine-readable code.
pub trait Refusal: std::error::Error {
    /// Stable, snake_case (`not_your_turn`, `table_full`, ...): part of the API.
    fn code(&self) -> &'static str;

    fn kind(&self) -> RefusalKind;

    /// The request field the refusal is about, when there is exactly one (`seat`,
    /// `overrides.call_threshold`, ...): a server reports it as a field error.
    fn field(&self) -> Option<String> {
        None
    }

    /// Every code this error type can carry, with its kind, for documentation.
    fn catalogue() -> &'static [(&'static str, RefusalKind)]
    where
        Self: Sized;
}

/// Why a stored event could not be folded: the stream is not one this aggregate wrote.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{event} cannot follow here: {reason}")]
pub struct FoldError {
    pub event: &'static str,
    pub reason: &'static str,
}

/// Why a stored event could not be read back.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DecodeError {
    #[error("the payload is not a valid {event_type} event: {message}")]
    Payload { event_type: String, message: String },
    #[error("the event type column says {column} but the payload says {payload}")]
    TypeMismatch {
        column: String,
        payload: &'static str,
    },
}

impl DecodeError {
    /// A payload that does not parse as an event of `event_type`.
    pub fn payload(event_type: &str, error: &serde_json::Error) -> Self {
        Self::Payload {
            event_type: event_type.chars().take(64).collect(),
            message: error.to_string(),
        }
    }

    /// Refuses an event whose payload's tag is not the stored type name.
    pub fn check_type(column: &str, payload: &'static str) -> Result<(), Self> {
        if column == payload {
            Ok(())
        } else {
            Err(Self::TypeMismatch {
                column: column.chars().take(64).collect(),
                payload,
            })
        }
    }
}

/// An event as a stream stores it: a versioned type name and its JSON (which repeats
/// the type name as its `type` tag).
pub trait StoredEvent: Serialize + Sized {
    /// `table_created.v1`, `round_drawn.v1`, ...
    fn type_name(&self) -> &'static str;

    /// Reads one stored event back; the type name and the payload's tag must agree.
    fn decode(event_type: &str, payload: &str) -> Result<Self, DecodeError>;
}

/// One event stream's state and decisions (see the module docs).
pub trait Aggregate: Sized {
    type Event: StoredEvent + Clone;
    type Command;
    type Error: Refusal;
    /// What deciding needs from outside the stream.
    type Services<'s>;

    /// The stream of aggregate `id` is `<KIND>-<id>`.
    const KIND: &'static str;

    /// Starts a new stream: decides `command` (a creation) and returns the aggregate
    /// with the events it folded.
    fn create(
        id: i64,
        command: &Self::Command,
        services: &mut Self::Services<'_>,
    ) -> Result<(Self, Vec<Self::Event>), Self::Error>;

    /// The aggregate after the first event of its stream.
    fn from_first(id: i64, event: Self::Event) -> Result<Self, FoldError>;

    /// Events folded so far: the stream's version.
    fn version(&self) -> u64;

    /// Folds the next stored event.
    fn apply(&mut self, event: Self::Event) -> Result<(), FoldError>;

    /// Decides `command` on the aggregate as it is, folds the events and returns them.
    /// A refusal leaves the aggregate unchanged, except one of kind
    /// [`RefusalKind::Internal`], after which it must be dropped.
    fn execute(
        &mut self,
        command: &Self::Command,
        services: &mut Self::Services<'_>,
    ) -> Result<Vec<Self::Event>, Self::Error>;
}

/// The stream id of aggregate `id`.
pub fn stream_id<A: Aggregate>(id: i64) -> String {
    format!("{}-{id}", A::KIND)
}
