//! Why a game cannot be rated.

use thiserror::Error;

use crate::tournament::AccountId;

#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum RatingError {
    /// A rating compares players: a game needs two.
    #[error("a rated game needs at least two players, not {0}")]
    TooFewPlayers(usize),
    /// One account holds two lines of one game's result.
    #[error("player {0} appears twice in one game")]
    PlayerTwice(AccountId),
}
