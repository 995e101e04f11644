//! Player entropy: a table where no single party chooses a deal.
//!
//! At a table created with `player_entropy`, each round's deal seed is not the
//! server's alone. Before the round, the server draws a secret seed and records its
//! commitment (`deal_seed_committed.v1`); then every human seat still in the game
//! sends 32 bytes of its own (`entropy_contributed.v1`), or gets the default when its
//! clock runs out or it is absent; only then is the round dealt, from
//! [`mix`] of the server's seed and every contribution. The server cannot change its
//! seed after seeing the contributions (the commitment binds it), and no player knows
//! the server's seed before the round is over, so the last contributor cannot aim at a
//! deal either. The round-1 starter is drawn from the mixed seed too ([`first_starter`]).
//!
//! - `event.rs`: the two events.
//! - `decide.rs`: the commitment, a contribution, the default, the deal.
//! - `state.rs`: [`EntropyState`], the fold that knows which seats still owe a
//!   contribution, and checks a stored stream against this procedure.
//! - `record.rs`: how each round's seed was made, written into the table's record.
//!
//! The mixing itself ([`mix`], [`first_starter`]) is `crate::shuffle::entropy`, where
//! a record's replay checks it too.

mod decide;
mod event;
mod record;
mod state;

pub(super) use decide::prepare_deal;
pub use event::{DealSeedCommitted, EntropyContributed, EntropyEvent};
pub use record::attach_entropy;
pub use state::{EntropyMismatch, EntropyState, PendingDeal};

pub use crate::shuffle::entropy::{ENTROPY_PROCEDURE, STARTER_STREAM, first_starter, mix};
