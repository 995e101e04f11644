//! [`Written`]: what a write did, for whoever sent it. A route turns it into a
//! response (`crate::http::idempotency_key`); the clocks and hooks read [`Effect`] to learn
//! what happened to their own command, never a status code.

use crate::store::idempotency::StoredResponse;

/// The answer of a write, and what it did to the stream.
#[derive(Debug)]
pub struct Written {
    /// The answer, as it is stored for a retry under the same idempotency key.
    pub answer: StoredResponse,
    pub effect: Effect,
}

/// What a write did to its stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Effect {
    /// `events` were appended; the stream is now at `version`.
    Appended { events: u64, version: u64 },
    /// The command was decided and called for no event; the stream stays at `version`.
    Unchanged { version: u64 },
    /// The same request (the same idempotency key) was carried out before: the answer
    /// is the one it had then, and nothing was decided now.
    Replayed,
}

impl Written {
    pub(super) fn replayed(answer: StoredResponse) -> Self {
        Self {
            answer,
            effect: Effect::Replayed,
        }
    }

    pub(super) fn now(answer: StoredResponse, before: u64, events: u64) -> Self {
        let effect = if events == 0 {
            Effect::Unchanged { version: before }
        } else {
            Effect::Appended {
                events,
                version: before + events,
            }
        };
        Self { answer, effect }
    }
}
