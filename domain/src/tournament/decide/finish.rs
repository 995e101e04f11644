//! The end: the final table has its result; the final ranking (`ranking.rs`) is published
//! in the event.

use super::super::error::{Role, TournamentError};
use super::super::event::Event;
use super::super::refs::Context;
use super::super::state::State;
use super::Decision;

impl State {
    pub(super) fn decide_finish(&self, ctx: &Context) -> Decision {
        self.require(ctx, Role::Organizer, None)?;
        if let Some(id) = self.open_dispute() {
            return Err(TournamentError::OpenDispute(id));
        }
        let ranking = self.final_ranking().ok_or(TournamentError::WrongPhase(
            "the final table has not been played",
        ))?;
        Ok(Event::Finished(ranking))
    }
}
