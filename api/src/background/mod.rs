//! What each instance does on its own, beside answering requests: [`clocks`] fire the
//! timeouts of tables whose wait ran out, [`checkpoints`] writes a checkpoint of every
//! stream head at an interval, [`pruning`] removes expired sessions and idempotency
//! records. Each goes through the same write paths as the requests.

pub mod checkpoints;
pub mod clocks;
pub mod pruning;
