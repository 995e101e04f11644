//! # yaniv-domain: the rules of Yaniv as a pure, deterministic engine
//!
//! No I/O, no clock, no threads: the same commands on the same events always give the
//! same result, on every machine. The server stores what this crate decides; referees
//! replay it; the `yaniv` tool and the tests drive it directly.
//!
//! A tour, in the order a newcomer reads it:
//!
//! - [`cards`]: cards in record notation (`10H`, `JK`), inline card lists, the deck.
//! - [`rules`]: one [`rules::Rules`] type holding every parameter of `RULES.md`, the six
//!   presets, overrides by name, validation.
//! - [`combos`]: what may be thrown (sets, runs, jokers, aces), what may be drawn from the
//!   previous throw, what may be laid on it afterwards (slap-downs, add-ons).
//! - [`shuffle`]: the committed seed and the portable ChaCha20 + Fisher-Yates shuffle.
//! - [`game`]: the game itself. [`game::Game::decide`] turns a [`game::Command`] into
//!   [`game::Event`]s or a [`game::GameError`]; [`game::Game::apply`] folds events into
//!   state; [`game::Game::replay_checked`] re-decides a stored stream to audit it;
//!   [`game::Game::view`] is what one seat may see; [`game::visible_events`] redacts the
//!   log per viewer.
//! - [`record`]: the portable game record (`yaniv-record/1`): import, export, replay
//!   results.
//! - [`bots`] and [`sim`]: players built on the legal-move lists, and whole bot games for
//!   simulations, tests and load.
//! - [`text`]: names and reasons that show as written (no invisible or direction
//!   characters, no piles of combining marks).
//! - [`aggregate`]: the contract every stream fulfils ([`aggregate::Aggregate`]): fold
//!   stored events, execute a command with injected services, refuse with a stable code.
//! - [`table`]: an online game table as a stream: seats, the start, every move, and the
//!   table's own moves (deals from fresh seeds, bot seats).
//! - [`tournament`]: championships as an event stream of their own: registration,
//!   seating (Swiss rounds, knockout tables), results from online, paper or recorded
//!   games, standings with tie-breaks, referee decisions.
//! - [`ratings`]: every player's rating across rated tournaments (Weng-Lin,
//!   Plackett-Luce), folded from the results in force.
//! - [`visibility`]: the one policy of who sees what of a table now (a seat, a referee,
//!   an official who plays, the operator, anyone else), which every read of the server
//!   applies.
//!
//! Where a rule lives: `docs/rules.md` names the file that applies each rule.

pub mod aggregate;
pub mod bots;
pub mod cards;
pub mod combos;
pub mod game;
pub mod ratings;
pub mod record;
pub mod rules;
pub mod season;
pub mod shuffle;
pub mod sim;
pub mod table;
pub mod text;
pub mod tournament;
pub mod visibility;
