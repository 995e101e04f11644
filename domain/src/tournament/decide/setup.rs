//! Creating the tournament, its format and referees; opening and closing registration.

use crate::rules::RuleSpec;

use super::super::command::MAX_NAME_LEN;
use super::super::config::ConfigRequest;
use super::super::error::{Role, TournamentError};
use super::super::event::*;
use super::super::refs::{AccountId, Context};
use super::super::state::{Registration, State};
use super::{Decision, OfficialsChange, text};

/// Most players a tournament may accept.
pub const MAX_CAPACITY: u32 = 100_000;

impl State {
    pub(super) fn decide_create(
        &self,
        ctx: &Context,
        name: &str,
        rules: &RuleSpec,
        capacity: u32,
        window: &RegistrationWindow,
        config: &ConfigRequest,
    ) -> Result<Vec<Event>, TournamentError> {
        if self.info.is_some() {
            return Err(TournamentError::AlreadyCreated);
        }
        let organizer = ctx
            .actor
            .account()
            .ok_or(TournamentError::Forbidden(Role::Organizer))?;
        let name = text(name, MAX_NAME_LEN, TournamentError::BadName)?;
        let effective_rules = rules.resolve()?;
        if !(2..=MAX_CAPACITY).contains(&capacity) {
            return Err(TournamentError::BadConfig {
                field: "capacity",
                message: format!("2 to {MAX_CAPACITY} players"),
            });
        }
        if let (Some(opens), Some(closes)) = (window.opens_at, window.closes_at)
            && opens >= closes
        {
            return Err(TournamentError::BadWindow(
                "registration must open before it closes",
            ));
        }
        let config = config.resolve(&effective_rules)?;
        Ok(vec![Event::Created(TournamentCreated {
            organizer,
            name,
            rules: rules.clone(),
            effective_rules,
            capacity,
            registration_window: *window,
            config,
        })])
    }

    pub(super) fn decide_configure(&self, ctx: &Context, config: &ConfigRequest) -> Decision {
        self.require(ctx, Role::Organizer, None)?;
        self.before_the_start("the qualification has started: the format is fixed")?;
        let rules = self.rules()?;
        let mut resolved = config.resolve(rules)?;
        // Who may play was settled when players and officials signed up under it.
        let chosen = self.officials_may_play();
        match config.officials_may_play {
            Some(asked) if asked != chosen => {
                return Err(TournamentError::BadConfig {
                    field: "officials_may_play",
                    message: "is chosen when the tournament is created and never changes".into(),
                });
            }
            _ => resolved.officials_may_play = chosen,
        }
        Ok(Event::StagesConfigured(StagesConfigured {
            config: resolved,
        }))
    }

    pub(super) fn decide_add_referee(&self, ctx: &Context, referee: AccountId) -> Decision {
        self.require(ctx, Role::Organizer, None)?;
        if self.referees.contains(&referee) {
            return Err(TournamentError::AlreadyReferee(referee));
        }
        // A player who withdrew or was disqualified still has friends at the tables.
        if self.player(referee).is_some() && !self.officials_may_play() {
            return Err(TournamentError::PlayerCannotOfficiate(referee));
        }
        self.require_a_neutral_official_after(
            OfficialsChange::RefereeAdded(referee),
            "name a referee who does not play first",
        )?;
        Ok(Event::RefereeAdded(RefereeChanged { referee }))
    }

    pub(super) fn decide_remove_referee(&self, ctx: &Context, referee: AccountId) -> Decision {
        self.require(ctx, Role::Organizer, None)?;
        if !self.referees.contains(&referee) {
            return Err(TournamentError::NotReferee(referee));
        }
        self.require_a_neutral_official_after(
            OfficialsChange::RefereeRemoved(referee),
            "name another referee who does not play before removing this one",
        )?;
        Ok(Event::RefereeRemoved(RefereeChanged { referee }))
    }

    pub(super) fn decide_open_registration(&self, ctx: &Context) -> Decision {
        self.require(ctx, Role::Organizer, None)?;
        self.before_the_start("the qualification has started")?;
        if self.registration == Registration::Open {
            return Err(TournamentError::WrongPhase("registration is already open"));
        }
        Ok(Event::RegistrationOpened(RegistrationChanged {}))
    }

    pub(super) fn decide_close_registration(&self, ctx: &Context) -> Decision {
        self.require(ctx, Role::Organizer, None)?;
        if self.registration != Registration::Open {
            return Err(TournamentError::RegistrationNotOpen);
        }
        Ok(Event::RegistrationClosed(RegistrationChanged {}))
    }
}
