//! Seasons (`docs/seasons.md`): a series of tournaments whose final rankings add up to
//! one table of standings.
//!
//! - `event.rs`, `command.rs`: the stream `season-<id>` and what an organizer sends it.
//! - `scoring.rs`: the points scale and the "best N" count, validated.
//! - `decide.rs`: the season as an [`crate::aggregate::Aggregate`]: who may change it,
//!   and how its events fold.
//! - `standings.rs`: the standings (`yaniv-season/1`), computed from the scoring and the
//!   members' finished rankings, never stored.
//!
//! A season reads tournaments (their rankings and the seeding a final records); the
//! tournament module knows nothing of seasons beyond a season's id in a config.

mod command;
mod decide;
mod error;
mod event;
mod scoring;
mod standings;

pub use crate::tournament::SEASON_PROCEDURE;
pub use command::Command;
pub use decide::Season;
pub use error::SeasonError;
pub use event::{Event, SeasonConfigured, SeasonMemberChanged};
pub use scoring::{MAX_BEST, MAX_MEMBERS, MAX_PLACES, MAX_POINTS, Scoring};
pub use standings::{FinishedMember, SeasonResult, StandingsRow, standings};
