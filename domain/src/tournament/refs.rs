//! Names of things in a tournament: accounts, who acts, and the address of a stage, a
//! round or a table. Stages, rounds and tables are numbered from 1, in the order they
//! are played (stage 1 is the qualification; round 1 is a stage's first round; table 1 is
//! the first table of a draw).

use serde::{Deserialize, Serialize};

/// Longest tournament name, in characters.
pub const MAX_NAME_LEN: usize = 100;
/// Longest reason or resolution, in characters.
pub const MAX_TEXT_LEN: usize = 1000;

/// An account of the server (the API's `accounts.id`): organizers, referees, players.
pub type AccountId = i64;

/// A point in time as the caller's clock gives it, in seconds since the Unix epoch. The
/// domain has no clock: commands that depend on time carry `now` in their [`Context`].
pub type Timestamp = i64;

/// Who issues a command. Stored in the events that record a decision (`by`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum Actor {
    /// A signed-in account; what it may do follows from its role in this tournament.
    Account(AccountId),
    /// The server itself (recording the result of an online game, automated draws). It
    /// may do whatever the organizer may.
    Server,
}

impl Actor {
    pub fn account(self) -> Option<AccountId> {
        match self {
            Actor::Account(id) => Some(id),
            Actor::Server => None,
        }
    }
}

/// The server-wide roles an account holds now, as the server read them for this
/// request. A tournament's stream names its officials; a role is what keeps a naming in
/// force: a named organizer acts as organizer while it holds the organizer role, a
/// named referee as referee while it holds the referee role, and an admin holds both.
/// Losing the role ends the powers at once, in every tournament, without an event.
/// Roles give nothing by themselves: an account that is not named has no power over a
/// tournament, whatever it holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Roles {
    pub admin: bool,
    pub organizer: bool,
    pub referee: bool,
}

impl Roles {
    /// No role beyond playing.
    pub const NONE: Roles = Roles {
        admin: false,
        organizer: false,
        referee: false,
    };

    /// What a replay of a stored stream assumes: the stream does not record roles, so
    /// every official it names is taken to have held its role when it acted.
    pub const NAMED: Roles = Roles {
        admin: true,
        organizer: true,
        referee: true,
    };

    /// A named organizer still organizes.
    pub fn keep_organizer(self) -> bool {
        self.organizer || self.admin
    }

    /// A named referee still referees.
    pub fn keep_referee(self) -> bool {
        self.referee || self.admin
    }
}

/// What every command is decided with besides the state: who asks, the roles they hold
/// now and, for the few decisions that depend on time (the registration window), the
/// caller's clock.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Context {
    pub actor: Actor,
    pub now: Timestamp,
    /// The actor's server-wide roles (see [`Roles`]); the server holds them all.
    pub roles: Roles,
}

impl Context {
    /// `actor` acting at `now`, with every official naming of the stream in force
    /// ([`Roles::NAMED`]): what a replay and a test mean.
    pub fn new(actor: Actor, now: Timestamp) -> Context {
        Context {
            actor,
            now,
            roles: Roles::NAMED,
        }
    }

    /// `account` acting at `now` (see [`Context::new`]).
    pub fn account(account: AccountId, now: Timestamp) -> Context {
        Context::new(Actor::Account(account), now)
    }

    /// The server acting at `now`.
    pub fn server(now: Timestamp) -> Context {
        Context::new(Actor::Server, now)
    }

    /// The same actor holding only `roles`: what the server passes for a request.
    pub fn holding(self, roles: Roles) -> Context {
        Context { roles, ..self }
    }
}

pub use crate::table::link::{RoundRef, TableRef};

/// What kind of stage: the Swiss qualification, then knockout stages. The last knockout
/// stage is the one whose draw seats a single final table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum StageKind {
    Qualification,
    Knockout,
}
