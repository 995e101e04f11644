//! Registration, check-in, withdrawal and disqualification.

use super::super::command::MAX_TEXT_LEN;
use super::super::error::{Role, TournamentError};
use super::super::event::*;
use super::super::refs::{AccountId, Actor, Context, StageKind};
use super::super::state::{Player, Registration, State};
use super::{Decision, OfficialsChange, text};

impl State {
    /// Refuses `player` as a player when they officiate here: whoever can void a game,
    /// ask for a new deal or enter a result must not compete, unless the organizer
    /// allowed it at creation, and even then an official who does not play must remain
    /// to act where those who do may not.
    fn official_may_register(&self, player: AccountId) -> Result<(), TournamentError> {
        if !self.is_official(Actor::Account(player)) || self.plays(player) {
            return Ok(());
        }
        if !self.officials_may_play() {
            return Err(TournamentError::OfficialCannotPlay(player));
        }
        self.require_a_neutral_official_after(
            OfficialsChange::Registers(player),
            "name a referee who does not play before an official registers",
        )
    }

    /// The registered player, still in the tournament.
    fn active_player(&self, player: AccountId) -> Result<&Player, TournamentError> {
        let p = self
            .player(player)
            .ok_or(TournamentError::NotRegistered(player))?;
        if p.disqualified.is_some() {
            return Err(TournamentError::Disqualified(player));
        }
        if p.withdrawn {
            return Err(TournamentError::Withdrawn(player));
        }
        Ok(p)
    }

    pub(super) fn decide_register(&self, ctx: &Context, player: AccountId) -> Decision {
        self.require(ctx, Role::PlayerOrOrganizer, Some(player))?;
        self.before_the_start("the qualification has started: registration is over")?;
        if !self.acts_as_organizer(ctx) {
            if self.registration != Registration::Open {
                return Err(TournamentError::RegistrationNotOpen);
            }
            let window = self
                .info
                .as_ref()
                .map(|i| i.registration_window)
                .unwrap_or_default();
            if !window.contains(ctx.now) {
                return Err(TournamentError::OutsideRegistrationWindow);
            }
        }
        self.official_may_register(player)?;
        if let Some(p) = self.player(player) {
            return Err(if p.disqualified.is_some() {
                TournamentError::Disqualified(player)
            } else if p.withdrawn {
                TournamentError::Withdrawn(player)
            } else {
                TournamentError::AlreadyRegistered(player)
            });
        }
        let capacity = self.info.as_ref().map_or(0, |i| i.capacity);
        if self.registered >= capacity {
            return Err(TournamentError::CapacityReached { capacity });
        }
        Ok(Event::PlayerRegistered(PlayerRegistered {
            player,
            by: ctx.actor,
            order: self.players.len() as u32 + 1,
        }))
    }

    /// A late entry (see [`Command::EnterLate`](super::super::Command::EnterLate)).
    pub(super) fn decide_enter_late(&self, ctx: &Context, player: AccountId) -> Decision {
        self.require(ctx, Role::Organizer, None)?;
        let stage = match self.current_stage() {
            None => {
                return Err(TournamentError::WrongPhase(
                    "the qualification has not started: register the player",
                ));
            }
            Some(s) if s.kind != StageKind::Qualification => {
                return Err(TournamentError::WrongPhase(
                    "the qualification is over: late entries join only the qualification",
                ));
            }
            Some(s) => s,
        };
        let rounds = self.rounds_in(StageKind::Qualification)?;
        if stage.rounds.len() >= rounds {
            return Err(TournamentError::WrongPhase(
                "every qualification round is drawn: no round is left to enter",
            ));
        }
        self.official_may_register(player)?;
        let order = match self.player(player) {
            Some(p) => {
                self.active_player(player)?;
                let entered = self
                    .index
                    .get(&player)
                    .is_some_and(|i| stage.entrants.contains(i));
                if entered {
                    return Err(TournamentError::AlreadyRegistered(player));
                }
                p.order
            }
            None => {
                let capacity = self.info.as_ref().map_or(0, |i| i.capacity);
                if self.registered >= capacity {
                    return Err(TournamentError::CapacityReached { capacity });
                }
                self.players.len() as u32 + 1
            }
        };
        Ok(Event::PlayerEnteredLate(PlayerEnteredLate {
            player,
            by: ctx.actor,
            order,
            first_round: stage.rounds.len() as u32 + 1,
        }))
    }

    pub(super) fn decide_check_in(&self, ctx: &Context, player: AccountId) -> Decision {
        self.require(ctx, Role::PlayerOrOfficial, Some(player))?;
        self.before_the_start("the qualification has started: check-in is over")?;
        if self.active_player(player)?.checked_in {
            return Err(TournamentError::AlreadyCheckedIn(player));
        }
        Ok(Event::PlayerCheckedIn(PlayerChanged {
            player,
            by: ctx.actor,
        }))
    }

    pub(super) fn decide_undo_check_in(&self, ctx: &Context, player: AccountId) -> Decision {
        self.require(ctx, Role::PlayerOrOfficial, Some(player))?;
        self.before_the_start("the qualification has started: check-in is over")?;
        if !self.active_player(player)?.checked_in {
            return Err(TournamentError::NotCheckedIn(player));
        }
        Ok(Event::PlayerCheckInUndone(PlayerChanged {
            player,
            by: ctx.actor,
        }))
    }

    pub(super) fn decide_withdraw(&self, ctx: &Context, player: AccountId) -> Decision {
        // Withdrawing someone else takes them out as surely as a disqualification: an
        // official's act, by one who plays nowhere in the tournament.
        self.require(ctx, Role::PlayerOrOfficial, Some(player))?;
        if ctx.actor != Actor::Account(player) {
            self.require_neutral(ctx)?;
        }
        self.active_player(player)?;
        Ok(Event::PlayerWithdrew(PlayerChanged {
            player,
            by: ctx.actor,
        }))
    }

    pub(super) fn decide_disqualify(
        &self,
        ctx: &Context,
        player: AccountId,
        reason: &str,
    ) -> Decision {
        self.require(ctx, Role::Official, None)?;
        // A disqualification moves everyone's standing, the official's own included.
        self.require_neutral(ctx)?;
        let reason = text(reason, MAX_TEXT_LEN, TournamentError::BadReason)?;
        let p = self
            .player(player)
            .ok_or(TournamentError::NotRegistered(player))?;
        if p.disqualified.is_some() {
            return Err(TournamentError::Disqualified(player));
        }
        Ok(Event::PlayerDisqualified(PlayerDisqualified {
            player,
            reason,
            by: ctx.actor,
        }))
    }
}
