//! What the venue's wall screen shows beside the seating and the standings: a round
//! clock and an announcement, set by an official. Neither changes a result, a draw or
//! a ranking; they are events so that every screen (and every server behind a
//! balancer) shows the same, and so that the history says who set them.

use super::super::error::{Role, TournamentError};
use super::super::event::*;
use super::super::refs::Context;
use super::super::state::State;
use super::{Decision, text};

/// The longest round clock, in minutes: a whole day's session.
pub const MAX_CLOCK_MINUTES: u32 = 600;
/// The longest announcement, in characters: what a wall screen can show in large type.
pub const MAX_ANNOUNCEMENT_LEN: usize = 280;

impl State {
    pub(super) fn decide_set_round_clock(&self, ctx: &Context, minutes: Option<u32>) -> Decision {
        self.require(ctx, Role::Official, None)?;
        let ends_at = match minutes {
            None => None,
            Some(m @ 1..=MAX_CLOCK_MINUTES) => Some(ctx.now + i64::from(m) * 60),
            Some(_) => return Err(TournamentError::BadClock),
        };
        Ok(Event::RoundClockSet(RoundClockSet {
            minutes,
            ends_at,
            by: ctx.actor,
        }))
    }

    pub(super) fn decide_announce(&self, ctx: &Context, words: &str) -> Decision {
        self.require(ctx, Role::Official, None)?;
        let words = if words.trim().is_empty() {
            None
        } else {
            Some(text(
                words,
                MAX_ANNOUNCEMENT_LEN,
                TournamentError::BadAnnouncement,
            )?)
        };
        Ok(Event::Announced(Announced {
            text: words,
            by: ctx.actor,
        }))
    }
}
