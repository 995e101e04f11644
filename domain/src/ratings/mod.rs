//! Ratings of players across tournaments (`docs/ratings.md`): a skill estimate with its
//! uncertainty for every player of a rated tournament or a rated casual table, updated
//! by every finished game.
//!
//! - `weng_lin.rs`: the update of one game (Weng-Lin, Plackett-Luce, ties), with its
//!   constants.
//! - `games.rs`: which games of a tournament's stream are rated, and their order across
//!   tournaments.
//! - `casual.rs`: the game of a casual table created with `rated`, humans only.
//! - `book.rs`: the fold of the ordered games into everyone's rating.
//!
//! The server keeps no rating: it folds them from the events whenever a rated result
//! lands, as the reference verifier folds them from the archives.

pub use crate::tournament::RATINGS_PROCEDURE;

mod book;
mod casual;
mod error;
mod games;
mod weng_lin;

pub use book::{Change, RatingBook, Standing};
pub use casual::{TimedTableEvent, casual_game};
pub use error::RatingError;
pub use games::{GameSource, RatedGame, RatedLine, Timed, rated_games, sort_games};
pub use weng_lin::{
    BETA, DISPLAY_SIGMAS, Entry, INITIAL_MU, INITIAL_SIGMA, KAPPA, Rating, TAU, rate_game,
};
