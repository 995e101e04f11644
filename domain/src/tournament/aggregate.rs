//! A tournament as an [`Aggregate`]: its stream folds with [`Tournament::apply`], its
//! commands are decided as the [`Context`]'s actor at the context's time (the clock
//! and who asks are its injected services), and its refusals carry their kinds.

use crate::aggregate::{Aggregate, DecodeError, FoldError, Refusal, RefusalKind, StoredEvent};

use super::{Command, Context, Event, Tournament, TournamentError};

impl StoredEvent for Event {
    fn type_name(&self) -> &'static str {
        Event::type_name(self)
    }

    fn decode(event_type: &str, payload: &str) -> Result<Self, DecodeError> {
        let event: Event =
            serde_json::from_str(payload).map_err(|e| DecodeError::payload(event_type, &e))?;
        DecodeError::check_type(event_type, event.type_name())?;
        Ok(event)
    }
}

impl Aggregate for Tournament {
    type Event = Event;
    type Command = Command;
    type Error = TournamentError;
    type Services<'s> = Context;

    const KIND: &'static str = "tournament";

    fn create(
        _id: i64,
        command: &Command,
        ctx: &mut Context,
    ) -> Result<(Self, Vec<Event>), TournamentError> {
        let mut tournament = Tournament::new();
        let events = tournament.execute(ctx, command)?;
        Ok((tournament, events))
    }

    fn from_first(_id: i64, event: Event) -> Result<Self, FoldError> {
        let mut tournament = Tournament::new();
        tournament.apply(&event);
        Ok(tournament)
    }

    fn version(&self) -> u64 {
        Tournament::version(self)
    }

    fn apply(&mut self, event: Event) -> Result<(), FoldError> {
        Tournament::apply(self, &event);
        Ok(())
    }

    fn execute(
        &mut self,
        command: &Command,
        ctx: &mut Context,
    ) -> Result<Vec<Event>, TournamentError> {
        Tournament::execute(self, ctx, command)
    }
}

impl Refusal for TournamentError {
    fn code(&self) -> &'static str {
        TournamentError::code(self)
    }

    fn kind(&self) -> RefusalKind {
        use TournamentError as E;
        match self {
            E::Forbidden(_) | E::OfficialPlays(_) => RefusalKind::Forbidden,
            E::ReasonRequired(_)
            | E::BadRules(_)
            | E::BadConfig { .. }
            | E::BadName
            | E::BadWindow(_)
            | E::BadReason
            | E::BadResult(_)
            | E::BadRecord { .. }
            | E::BadPaperRound { .. }
            | E::GameNotFinished
            | E::RulesMismatch
            | E::SeedMismatch { .. }
            | E::NoSuchRound(_)
            | E::NoSuchTable(_)
            | E::NoSuchDispute(_)
            | E::NotAtTable { .. }
            | E::BadSeeding(_) => RefusalKind::Invalid,
            _ => RefusalKind::NotNow,
        }
    }

    fn catalogue() -> &'static [(&'static str, RefusalKind)] {
        use RefusalKind::{Forbidden, Invalid, NotNow};
        &[
            ("forbidden", Forbidden),
            ("bad_rules", Invalid),
            ("bad_config", Invalid),
            ("bad_name", Invalid),
            ("bad_window", Invalid),
            ("bad_reason", Invalid),
            ("bad_result", Invalid),
            ("bad_record", Invalid),
            ("bad_paper_round", Invalid),
            ("bad_seeding", Invalid),
            ("game_not_finished", Invalid),
            ("rules_mismatch", Invalid),
            ("seed_mismatch", Invalid),
            ("no_such_round", Invalid),
            ("no_such_table", Invalid),
            ("no_such_dispute", Invalid),
            ("not_created", NotNow),
            ("already_created", NotNow),
            ("wrong_phase", NotNow),
            ("registration_not_open", NotNow),
            ("outside_registration_window", NotNow),
            ("capacity_reached", NotNow),
            ("already_registered", NotNow),
            ("not_registered", NotNow),
            ("already_checked_in", NotNow),
            ("not_checked_in", NotNow),
            ("player_withdrawn", NotNow),
            ("player_disqualified", NotNow),
            ("already_referee", NotNow),
            ("not_referee", NotNow),
            ("official_cannot_play", NotNow),
            ("player_cannot_officiate", NotNow),
            ("official_plays", Forbidden),
            ("no_neutral_official", NotNow),
            ("redraw_limit_reached", NotNow),
            ("reason_required", Invalid),
            ("rounds_required", Invalid),
            ("bad_clock", Invalid),
            ("bad_announcement", Invalid),
            ("seed_already_committed", NotNow),
            ("no_table_split", NotNow),
            ("not_enough_players", NotNow),
            ("round_incomplete", NotNow),
            ("stage_rounds_drawn", NotNow),
            ("stage_incomplete", NotNow),
            ("final_reached", NotNow),
            ("round_started", NotNow),
            ("not_latest_round", NotNow),
            ("table_already_started", NotNow),
            ("result_already_recorded", NotNow),
            ("no_result", NotNow),
            ("dispute_resolved", NotNow),
            ("open_dispute", NotNow),
            ("finished", NotNow),
            ("not_at_table", Invalid),
            ("already_absent", NotNow),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::{Role, RoundRef};

    #[test]
    fn kinds_follow_the_moment_or_the_command_itself() {
        let round = RoundRef { stage: 1, round: 1 };
        for (error, kind) in [
            (
                TournamentError::Forbidden(Role::Organizer),
                RefusalKind::Forbidden,
            ),
            (TournamentError::BadReason, RefusalKind::Invalid),
            (TournamentError::NoSuchRound(round), RefusalKind::Invalid),
            (TournamentError::WrongPhase("x"), RefusalKind::NotNow),
            (TournamentError::RoundIncomplete(round), RefusalKind::NotNow),
            (TournamentError::Finished, RefusalKind::NotNow),
        ] {
            assert_eq!(error.kind(), kind, "{error:?}");
            assert!(
                TournamentError::catalogue().contains(&(error.code(), kind)),
                "{error:?} is not catalogued"
            );
        }
    }

    #[test]
    fn the_catalogue_names_each_code_once() {
        let mut codes: Vec<_> = TournamentError::catalogue().iter().map(|c| c.0).collect();
        let count = codes.len();
        codes.sort_unstable();
        codes.dedup();
        assert_eq!(codes.len(), count);
    }
}
