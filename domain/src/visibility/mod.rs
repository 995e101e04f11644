//! # Who sees what of a table, now: the one policy every read applies
//!
//! A table's stream holds secrets while a round is played: the round's seed (so the
//! order of the stock and of every reshuffle), at a table with player entropy the
//! server's seed committed for the next deal, the hands, and a card set aside face
//! down. Everything else is laid face up at the table. This module decides, for one
//! account and one table, what of the stream it may see *now*; the server applies it to
//! every read (events, the pushed streams, views, records, audits, diffs, verifications,
//! archives) and decides nothing of it itself.
//!
//! | relation to the table ([`Relation`]) | while a round is played | once it is over |
//! | --- | --- | --- |
//! | [`Relation::Seat`]: plays at it | own hand, what is face up | everything |
//! | [`Relation::Referee`]: official of its tournament who plays nowhere in it (at a table outside any tournament: holds the referee role) | every hand, what is face up; never the seed, the stock or a face-down card | everything |
//! | [`Relation::PlayingOfficial`]: official of its tournament who plays at another of its tables | what is face up | everything |
//! | [`Relation::Operator`]: admin, none of the above | what is face up | everything |
//! | [`Relation::Spectator`]: anyone else, signed in or not | what is face up | everything |
//!
//! A round is over when the stream says so (`round_ended.v1`); the server's entropy seed
//! committed for a round is a secret of that round. Raw stored events (the exact bytes
//! and hashes an archive carries) can only be shown whole, so a stream is cut before its
//! first secret still in play ([`sealed_from`]): a hash over a secret would let anyone
//! try every card against it.
//!
//! - [`relation`]: how an account stands to a table, from the table, its tournament and
//!   the account's roles.
//! - `events.rs`: a table's events as a relation may see them ([`visible_events`]).
//! - `sealed.rs`: where the live secrets begin ([`sealed_from`]).
//!
//! Tests: `domain/tests/visibility.rs` (the relations, where secrets begin and end, and
//! whole games under random rules read by every relation after every few events).

mod events;
mod sealed;

pub use events::{VisibleEvent, visible_events};
pub use sealed::{SECRETS_BEGIN, SECRETS_END, sealed_from, sealed_from_types};

use crate::game::{Seat, Viewer};
use crate::table::Table;
use crate::tournament::{AccountId, Actor, Context, Roles, State as TournamentState};

/// How someone stands to one table (see the module's table).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Relation {
    /// Plays at this table, at this seat.
    Seat(Seat),
    /// Referees this table: an official of its tournament, holding the role that keeps
    /// the naming in force, who plays nowhere in that tournament; at a table outside any
    /// tournament, an account that holds the referee role.
    Referee,
    /// An official of the table's tournament who plays in it, at another table.
    PlayingOfficial,
    /// An admin with no other relation: runs the server, sees no more than the public.
    Operator,
    /// Anyone else, signed in or not.
    Spectator,
}

impl Relation {
    /// What of a round in play this relation sees.
    pub fn viewer(self) -> Viewer {
        match self {
            Relation::Seat(seat) => Viewer::Seat(seat),
            Relation::Referee => Viewer::Referee,
            Relation::PlayingOfficial | Relation::Operator | Relation::Spectator => {
                Viewer::Spectator
            }
        }
    }

    /// The seat, for a player of the table.
    pub fn seat(self) -> Option<Seat> {
        match self {
            Relation::Seat(seat) => Some(seat),
            _ => None,
        }
    }

    /// Whether it sees every hand of a round in play (to settle a dispute at the table).
    pub fn sees_hands_in_play(self) -> bool {
        self == Relation::Referee
    }

    /// Whether it may inspect the table's history (audits, diffs, verification): a
    /// referee, or the operator who answers for the server. What an inspection shows
    /// of a round in play is still only what [`Relation::viewer`] sees.
    pub fn may_inspect(self) -> bool {
        matches!(self, Relation::Referee | Relation::Operator)
    }
}

/// How `account` (none: a caller without a token), holding `roles`, stands to `table`;
/// `tournament` is the fold of the tournament that opened it, when one did.
pub fn relation(
    table: &Table,
    tournament: Option<&TournamentState>,
    account: Option<AccountId>,
    roles: Roles,
) -> Relation {
    let Some(account) = account else {
        return Relation::Spectator;
    };
    if let Some(seat) = table.seat_of(account) {
        return Relation::Seat(seat);
    }
    // Whether an official, and if so whether one who plays.
    let official_who_plays = match (table.created.tournament, tournament) {
        // A tournament's officials are the ones it names, as long as they hold the role.
        (Some(_), Some(t)) => t
            .acts_as_official(&Context::account(account, 0).holding(roles))
            .then(|| t.plays(account)),
        (Some(_), None) => None,
        // Outside any tournament, whoever holds the referee role referees.
        (None, _) => roles.referee.then_some(false),
    };
    match official_who_plays {
        Some(false) => Relation::Referee,
        Some(true) => Relation::PlayingOfficial,
        None if roles.admin => Relation::Operator,
        None => Relation::Spectator,
    }
}

/// The server, or an account named official of `tournament` that holds its role now:
/// who may read a tournament's archive before it is finished, besides the operator.
pub fn officiates(tournament: &TournamentState, actor: Actor, roles: Roles) -> bool {
    tournament.acts_as_official(&Context::new(actor, 0).holding(roles))
}
