//! A season as an [`Aggregate`]: its events fold into the name, scale, count and
//! members; its commands are decided as the context's actor. Only the organizer who
//! created it (while they hold the organizer role), an admin or the server change it.

use crate::aggregate::{Aggregate, FoldError};
use crate::tournament::{AccountId, Actor, Context, MAX_NAME_LEN};

use super::command::Command;
use super::error::SeasonError;
use super::event::{Event, SeasonConfigured, SeasonMemberChanged};
use super::scoring::{MAX_MEMBERS, Scoring};

/// A season folded from its stream.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Season {
    version: u64,
    name: String,
    scoring: Scoring,
    organizer: Option<AccountId>,
    /// In the order they were added.
    members: Vec<i64>,
}

impl Season {
    pub fn name(&self) -> &str {
        &self.name
    }

    pub fn scoring(&self) -> &Scoring {
        &self.scoring
    }

    /// Who created it; `None` only when the server did.
    pub fn organizer(&self) -> Option<AccountId> {
        self.organizer
    }

    pub fn members(&self) -> &[i64] {
        &self.members
    }

    pub fn holds(&self, tournament: i64) -> bool {
        self.members.contains(&tournament)
    }

    /// Whether `ctx`'s actor may change the season.
    pub fn may_change(&self, ctx: &Context) -> bool {
        match ctx.actor {
            Actor::Server => true,
            Actor::Account(id) => {
                ctx.roles.admin || (Some(id) == self.organizer && ctx.roles.keep_organizer())
            }
        }
    }

    fn configured(
        &self,
        ctx: &Context,
        name: &str,
        points: &[u32],
        best: Option<u32>,
    ) -> Result<SeasonConfigured, SeasonError> {
        let name = name.trim();
        if name.is_empty() || name.chars().count() > MAX_NAME_LEN {
            return Err(SeasonError::BadName);
        }
        let scoring = Scoring {
            points: points.to_vec(),
            best,
        };
        scoring.validate()?;
        Ok(SeasonConfigured {
            name: name.to_owned(),
            points: scoring.points,
            best: scoring.best,
            by: ctx.actor,
        })
    }

    fn decide(&self, ctx: &Context, command: &Command) -> Result<Event, SeasonError> {
        if let Command::Create { name, points, best } = command {
            if self.version > 0 {
                return Err(SeasonError::AlreadyCreated);
            }
            if !ctx.roles.keep_organizer() {
                return Err(SeasonError::Forbidden);
            }
            return Ok(Event::Created(self.configured(ctx, name, points, *best)?));
        }
        if self.version == 0 {
            return Err(SeasonError::NotCreated);
        }
        if !self.may_change(ctx) {
            return Err(SeasonError::Forbidden);
        }
        let by = ctx.actor;
        match command {
            Command::Create { .. } => Err(SeasonError::AlreadyCreated),
            Command::Configure { name, points, best } => Ok(Event::Configured(
                self.configured(ctx, name, points, *best)?,
            )),
            Command::AddTournament { tournament } => {
                if self.holds(*tournament) {
                    return Err(SeasonError::AlreadyInSeason(*tournament));
                }
                if self.members.len() >= MAX_MEMBERS {
                    return Err(SeasonError::TooManyTournaments(MAX_MEMBERS));
                }
                Ok(Event::TournamentAdded(SeasonMemberChanged {
                    tournament: *tournament,
                    by,
                }))
            }
            Command::RemoveTournament { tournament } => {
                if !self.holds(*tournament) {
                    return Err(SeasonError::NotInSeason(*tournament));
                }
                Ok(Event::TournamentRemoved(SeasonMemberChanged {
                    tournament: *tournament,
                    by,
                }))
            }
        }
    }

    fn fold(&mut self, event: &Event) -> Result<(), FoldError> {
        let refuse = |reason| FoldError {
            event: event.type_name(),
            reason,
        };
        match event {
            Event::Created(_) if self.version > 0 => {
                return Err(refuse("a season is created once"));
            }
            Event::Created(_) => {}
            _ if self.version == 0 => return Err(refuse("the season was not created")),
            _ => {}
        }
        match event {
            Event::Created(e) => {
                self.organizer = e.by.account();
                self.name.clone_from(&e.name);
                self.scoring = e.scoring();
            }
            Event::Configured(e) => {
                self.name.clone_from(&e.name);
                self.scoring = e.scoring();
            }
            Event::TournamentAdded(e) => self.members.push(e.tournament),
            Event::TournamentRemoved(e) => self.members.retain(|&t| t != e.tournament),
        }
        self.version += 1;
        Ok(())
    }
}

impl Aggregate for Season {
    type Event = Event;
    type Command = Command;
    type Error = SeasonError;
    type Services<'s> = Context;

    const KIND: &'static str = "season";

    fn create(
        _id: i64,
        command: &Command,
        ctx: &mut Context,
    ) -> Result<(Self, Vec<Event>), SeasonError> {
        let mut season = Season::default();
        let events = season.execute(command, ctx)?;
        Ok((season, events))
    }

    fn from_first(_id: i64, event: Event) -> Result<Self, FoldError> {
        let mut season = Season::default();
        season.fold(&event)?;
        Ok(season)
    }

    fn version(&self) -> u64 {
        self.version
    }

    fn apply(&mut self, event: Event) -> Result<(), FoldError> {
        self.fold(&event)
    }

    fn execute(&mut self, command: &Command, ctx: &mut Context) -> Result<Vec<Event>, SeasonError> {
        let event = self.decide(ctx, command)?;
        // A decided event always folds: decide checked what fold requires.
        self.fold(&event).map_err(|_| SeasonError::NotCreated)?;
        Ok(vec![event])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::aggregate::Refusal;
    use crate::tournament::Roles;

    const ORGANIZER: Roles = Roles {
        admin: false,
        organizer: true,
        referee: false,
    };

    fn as_account(id: AccountId, roles: Roles) -> Context {
        Context::account(id, 0).holding(roles)
    }

    fn created() -> Season {
        let create = Command::Create {
            name: " Club series ".into(),
            points: vec![10, 6, 4],
            best: Some(2),
        };
        Season::create(1, &create, &mut as_account(5, ORGANIZER))
            .expect("an organizer creates a season")
            .0
    }

    /// seasons.md 1: "Only an account with the organizer role creates a season; the
    /// season's organizer is whoever created it, and only they (or an admin) change it."
    #[test]
    fn only_its_organizer_or_an_admin_changes_a_season() {
        let create = Command::Create {
            name: "Series".into(),
            points: vec![1],
            best: None,
        };
        let refused = Season::create(1, &create, &mut as_account(5, Roles::NONE));
        assert_eq!(refused.err(), Some(SeasonError::Forbidden));

        let mut season = created();
        assert_eq!(season.name(), "Club series");
        assert_eq!(season.organizer(), Some(5));
        let add = Command::AddTournament { tournament: 12 };
        let other = season.execute(&add, &mut as_account(6, ORGANIZER));
        assert_eq!(other.err(), Some(SeasonError::Forbidden));
        let demoted = season.execute(&add, &mut as_account(5, Roles::NONE));
        assert_eq!(demoted.err(), Some(SeasonError::Forbidden));
        let admin = Roles {
            admin: true,
            ..Roles::NONE
        };
        season
            .execute(&add, &mut as_account(9, admin))
            .expect("an admin may");
        assert_eq!(season.members(), &[12]);
    }

    /// seasons.md 1: "A tournament is in the series at most once".
    #[test]
    fn members_join_once_and_leave_in_order() {
        let mut season = created();
        let ctx = &mut as_account(5, ORGANIZER);
        for t in [12, 15, 11] {
            season
                .execute(&Command::AddTournament { tournament: t }, ctx)
                .expect("added");
        }
        let again = season.execute(&Command::AddTournament { tournament: 15 }, ctx);
        assert_eq!(again.err(), Some(SeasonError::AlreadyInSeason(15)));
        season
            .execute(&Command::RemoveTournament { tournament: 15 }, ctx)
            .expect("removed");
        assert_eq!(season.members(), &[12, 11]);
        let gone = season.execute(&Command::RemoveTournament { tournament: 15 }, ctx);
        assert_eq!(gone.err().map(|e| e.code()), Some("not_in_season"));
        assert_eq!(season.version(), 5);
    }

    #[test]
    fn a_bad_configuration_names_its_field_and_changes_nothing() {
        let mut season = created();
        let ctx = &mut as_account(5, ORGANIZER);
        let rising = Command::Configure {
            name: "Series".into(),
            points: vec![4, 6],
            best: None,
        };
        let refused = season.execute(&rising, ctx).expect_err("rising scale");
        assert_eq!(refused.field().as_deref(), Some("points"));
        let unnamed = Command::Configure {
            name: "  ".into(),
            points: vec![4],
            best: None,
        };
        assert_eq!(
            season.execute(&unnamed, ctx).err(),
            Some(SeasonError::BadName)
        );
        assert_eq!(season.scoring().points, vec![10, 6, 4]);
        assert_eq!(season.version(), 1);
    }

    /// A stream replays to the state its decisions left, through the stored JSON.
    #[test]
    fn a_stream_replays_through_its_stored_events() {
        use crate::aggregate::StoredEvent;
        let mut season = Season::default();
        let mut stored = Vec::new();
        let ctx = &mut as_account(5, ORGANIZER);
        for command in [
            Command::Create {
                name: "S".into(),
                points: vec![3, 2, 1],
                best: None,
            },
            Command::AddTournament { tournament: 4 },
            Command::Configure {
                name: "S2".into(),
                points: vec![5],
                best: Some(1),
            },
        ] {
            for event in season.execute(&command, ctx).expect("decided") {
                stored.push((event.type_name(), serde_json::to_string(&event).unwrap()));
            }
        }
        let mut events = stored
            .iter()
            .map(|(t, p)| Event::decode(t, p).expect("decodes"));
        let mut replayed = Season::from_first(1, events.next().unwrap()).unwrap();
        for event in events {
            replayed.apply(event).unwrap();
        }
        assert_eq!(replayed, season);
        assert!(
            Season::default()
                .apply(Event::TournamentAdded(SeasonMemberChanged {
                    tournament: 1,
                    by: Actor::Server,
                }))
                .is_err()
        );
    }
}
