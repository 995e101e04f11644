//! `decide`: a command, who sends it and the current state in; new events (or the reason
//! for refusal) out. One file per concern:
//!
//! - `setup.rs`: creating the tournament, its format, referees, opening and closing
//!   registration.
//! - `players.rs`: registration, late entry, check-in, withdrawal, disqualification.
//! - `draws.rs`: seed commitments, starting and advancing stages, drawing and redrawing
//!   rounds (the seating itself is `seating/`).
//! - `results.rs`: table games starting, results recorded, corrected, voided; no-shows.
//! - `flags.rs`: which later draws a changed result affects.
//! - `disputes.rs`: disputes opened and resolved.
//! - `finish.rs`: the end and the final ranking.

mod disputes;
mod draws;
mod finish;
mod flags;
mod players;
mod results;
mod setup;
mod venue;

pub(crate) use flags::change_flags;
pub use setup::MAX_CAPACITY;

use super::Tournament;
use super::command::Command;
use super::error::{Role, TournamentError};
use super::event::Event;
use super::refs::{AccountId, Actor, Context};
use super::state::State;
use crate::rules::Rules;
use crate::text::shows_as_written;

/// What deciding one command gives: its event, or why it is refused.
pub(super) type Decision = Result<Event, TournamentError>;

impl Tournament {
    /// Decides `command` sent by `ctx.actor` at `ctx.now`. Nothing changes until the
    /// caller folds the returned events with [`Tournament::apply`].
    pub fn decide(&self, ctx: &Context, command: &Command) -> Result<Vec<Event>, TournamentError> {
        let s = &self.state;
        if let Command::Create {
            name,
            rules,
            capacity,
            registration_window,
            config,
        } = command
        {
            return s.decide_create(ctx, name, rules, *capacity, registration_window, config);
        }
        if s.info.is_none() {
            return Err(TournamentError::NotCreated);
        }
        if s.finished.is_some() {
            return Err(TournamentError::Finished);
        }
        let one = |e: Event| Ok(vec![e]);
        match command {
            Command::Create { .. } => Err(TournamentError::AlreadyCreated),
            Command::ConfigureStages { config } => one(s.decide_configure(ctx, config)?),
            Command::AddReferee { referee } => one(s.decide_add_referee(ctx, *referee)?),
            Command::RemoveReferee { referee } => one(s.decide_remove_referee(ctx, *referee)?),
            Command::OpenRegistration => one(s.decide_open_registration(ctx)?),
            Command::CloseRegistration => one(s.decide_close_registration(ctx)?),
            Command::Register { player } => one(s.decide_register(ctx, *player)?),
            Command::EnterLate { player } => one(s.decide_enter_late(ctx, *player)?),
            Command::CheckIn { player } => one(s.decide_check_in(ctx, *player)?),
            Command::UndoCheckIn { player } => one(s.decide_undo_check_in(ctx, *player)?),
            Command::SetRoundClock { minutes } => one(s.decide_set_round_clock(ctx, *minutes)?),
            Command::Announce { text } => one(s.decide_announce(ctx, text)?),
            Command::Withdraw { player } => one(s.decide_withdraw(ctx, *player)?),
            Command::Disqualify { player, reason } => {
                one(s.decide_disqualify(ctx, *player, reason)?)
            }
            Command::CommitDrawSeed { commitment } => one(s.decide_commit(ctx, *commitment)?),
            Command::StartQualification { seeding } => {
                one(s.decide_start_qualification(ctx, seeding.as_ref())?)
            }
            Command::DrawRound { seed } => one(s.decide_draw(ctx, seed)?),
            Command::RedrawRound {
                round,
                seed,
                reason,
            } => one(s.decide_redraw(ctx, *round, seed, reason)?),
            Command::AdvanceStage => one(s.decide_advance(ctx)?),
            Command::StartTableGame { table, game } => {
                one(s.decide_start_table(ctx, *table, game)?)
            }
            Command::RecordResult {
                table,
                input,
                reason,
            } => one(self.decide_record(ctx, *table, input, reason.as_deref())?),
            Command::CorrectResult {
                table,
                input,
                reason,
            } => one(self.decide_correct(ctx, *table, input, reason)?),
            Command::VoidGame { table, reason } => one(self.decide_void(ctx, *table, reason)?),
            Command::RecordNoShow {
                table,
                player,
                reason,
            } => one(self.decide_no_show(ctx, *table, *player, reason)?),
            Command::OpenDispute { table, reason } => {
                one(s.decide_open_dispute(ctx, *table, reason)?)
            }
            Command::ResolveDispute {
                dispute,
                resolution,
            } => one(s.decide_resolve_dispute(ctx, *dispute, resolution)?),
            Command::Finish => one(s.decide_finish(ctx)?),
        }
    }
}

/// A change to who officiates or who plays, checked before it is made.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum OfficialsChange {
    /// An account registers (or enters late) as a player.
    Registers(AccountId),
    RefereeAdded(AccountId),
    RefereeRemoved(AccountId),
}

impl State {
    /// Refuses unless `ctx.actor` has `role` now (for the player-facing roles, `player` is
    /// the player the command names). Officials act only while they hold the role that
    /// keeps their naming in force ([`State::acts_as_official`]).
    pub(super) fn require(
        &self,
        ctx: &Context,
        role: Role,
        player: Option<AccountId>,
    ) -> Result<(), TournamentError> {
        let is_player = player.is_some_and(|p| ctx.actor == Actor::Account(p));
        let allowed = match role {
            Role::Organizer => self.acts_as_organizer(ctx),
            Role::Official => self.acts_as_official(ctx),
            Role::PlayerOrOfficial => is_player || self.acts_as_official(ctx),
            Role::PlayerOrOrganizer => is_player || self.acts_as_organizer(ctx),
            Role::SeatedPlayerOrOfficial => is_player || self.acts_as_official(ctx),
        };
        if allowed {
            Ok(())
        } else {
            Err(TournamentError::Forbidden(role))
        }
    }

    /// Whether this tournament lets its officials play (see [`Config::officials_may_play`]).
    pub(super) fn officials_may_play(&self) -> bool {
        self.config.as_ref().is_some_and(|c| c.officials_may_play)
    }

    /// Refuses an official who plays in this tournament, at any table: results,
    /// seatings and players are decided by officials who compete with nobody.
    /// Call after [`State::require`].
    pub(super) fn require_neutral(&self, ctx: &Context) -> Result<(), TournamentError> {
        match ctx.actor.account() {
            Some(account) if self.plays(account) => Err(TournamentError::OfficialPlays(account)),
            _ => Ok(()),
        }
    }

    /// Refuses `change` when it would leave officials who play and no official who does
    /// not (officials who play may act on no result; someone must).
    pub(super) fn require_a_neutral_official_after(
        &self,
        change: OfficialsChange,
        why: &'static str,
    ) -> Result<(), TournamentError> {
        let Some(info) = self.info.as_ref() else {
            return Ok(());
        };
        let plays = |a: AccountId| self.plays(a) || change == OfficialsChange::Registers(a);
        let mut officials: Vec<AccountId> = std::iter::once(info.organizer)
            .chain(self.referees.iter().copied())
            .filter(|a| change != OfficialsChange::RefereeRemoved(*a))
            .collect();
        if let OfficialsChange::RefereeAdded(a) = change {
            officials.push(a);
        }
        let someone_plays = officials.iter().any(|a| plays(*a));
        let someone_neutral = officials.iter().any(|a| !plays(*a));
        if someone_plays && !someone_neutral {
            Err(TournamentError::NoNeutralOfficial(why))
        } else {
            Ok(())
        }
    }

    /// Whether the qualification has started (the format and the field are fixed).
    pub(super) fn started(&self) -> bool {
        !self.stages.is_empty()
    }

    /// The rules every game of the tournament plays.
    pub(super) fn rules(&self) -> Result<&Rules, TournamentError> {
        let info = self.info.as_ref().ok_or(TournamentError::NotCreated)?;
        Ok(&info.effective_rules)
    }

    /// Refuses as `WrongPhase(why)` once the qualification has started.
    pub(super) fn before_the_start(&self, why: &'static str) -> Result<(), TournamentError> {
        if self.started() {
            Err(TournamentError::WrongPhase(why))
        } else {
            Ok(())
        }
    }
}

/// A name, reason or resolution: trimmed, 1 to `max` characters, and shown to people
/// as it is meant ([`crate::text::shows_as_written`]): no control character (a reason
/// may span lines and hold tabs), nothing invisible or direction-changing, which would
/// make a name display as another, and no pile of combining marks.
pub(super) fn text(
    value: &str,
    max: usize,
    error: TournamentError,
) -> Result<String, TournamentError> {
    let t = value.trim();
    let allowed: &[char] = match error {
        TournamentError::BadReason => &['\n', '\t'],
        _ => &[],
    };
    if t.is_empty() || t.chars().count() > max || !shows_as_written(t, allowed) {
        Err(error)
    } else {
        Ok(t.to_owned())
    }
}

#[cfg(test)]
mod text_tests {
    use super::*;

    #[test]
    fn names_and_reasons_refuse_what_would_not_show_as_written() {
        let name = |s: &str| text(s, 100, TournamentError::BadName);
        let reason = |s: &str| text(s, 1000, TournamentError::BadReason);
        assert_eq!(name("  Spring Cup  ").as_deref(), Ok("Spring Cup"));
        assert_eq!(name("Tel Aviv – קיץ").as_deref(), Ok("Tel Aviv – קיץ"));
        for bad in [
            "Cup\u{0}",
            "Cup\u{7}",
            "A\nB",
            "Cup \u{202E}puC",
            "x\u{2066}y",
            "Cup\u{200F}2026",
            "Cup\u{E0041}",
            "Z\u{301}\u{302}\u{303}\u{304}",
            "",
            "   ",
        ] {
            assert_eq!(name(bad), Err(TournamentError::BadName), "{bad:?}");
        }
        assert!(name(&"n".repeat(101)).is_err());
        assert_eq!(
            reason("late\n\tby 10 min").as_deref(),
            Ok("late\n\tby 10 min")
        );
        assert_eq!(reason("late\u{0}"), Err(TournamentError::BadReason));
        assert_eq!(reason("x\u{202D}y"), Err(TournamentError::BadReason));
        assert_eq!(reason("x\u{2028}y"), Err(TournamentError::BadReason));
    }
}
