//! The state of a tournament, folded from its events ([`State::apply`]). Folding trusts
//! the events (they came out of `decide`) and never panics on any event.

use std::collections::{BTreeSet, HashMap};

use crate::rules::{RuleSpec, Rules};
use crate::shuffle::Commitment;

use super::config::Config;
use super::event::*;
use super::refs::{AccountId, Actor, Context, RoundRef, StageKind, TableRef, Timestamp};
use super::result::ResultInput;

/// What `tournament_created.v1` set.
#[derive(Debug, Clone, PartialEq)]
pub struct Info {
    pub organizer: AccountId,
    pub name: String,
    pub rules: RuleSpec,
    pub effective_rules: Rules,
    pub capacity: u32,
    pub registration_window: RegistrationWindow,
}

/// Where registration stands.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Registration {
    #[default]
    NotOpened,
    Open,
    Closed,
}

/// A registered player.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Player {
    pub account: AccountId,
    /// 1 for the first registration; the player's index is `order - 1`.
    pub order: u32,
    pub checked_in: bool,
    pub withdrawn: bool,
    /// The referee's reason, once disqualified.
    pub disqualified: Option<String>,
    /// Entered late: the first qualification round the player could be drawn into (the
    /// rounds before it count as missed).
    pub first_round: Option<u32>,
}

impl Player {
    /// May still be seated.
    pub fn is_active(&self) -> bool {
        !self.withdrawn && self.disqualified.is_none()
    }
}

/// One table of a drawn round.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Table {
    /// In seat order.
    pub players: Vec<AccountId>,
    pub started: bool,
    /// The online game's id, when there is one.
    pub game: Option<String>,
    /// The result that counts now (after corrections); `None` before the first one and
    /// after a void.
    pub result: Option<Vec<PlayerResult>>,
    /// What was entered for the result that counts.
    pub input: Option<ResultInput>,
    pub corrections: u32,
    /// Reasons of the voids of this table's games, oldest first.
    pub voids: Vec<String>,
    /// Drawn here and recorded as no-shows by a referee: the game is played without
    /// them.
    pub absent: Vec<AccountId>,
}

impl Table {
    /// The players drawn here who play the game (every one but the no-shows).
    pub fn present(&self) -> impl Iterator<Item = AccountId> + '_ {
        self.players
            .iter()
            .copied()
            .filter(|p| !self.absent.contains(p))
    }
}

/// One drawn round.
#[derive(Debug, Clone, PartialEq)]
pub struct Round {
    /// The draw in force (the latest redraw, if any).
    pub draw: RoundDrawn,
    pub tables: Vec<Table>,
    pub redraws: u32,
}

impl Round {
    pub fn is_complete(&self) -> bool {
        self.tables.iter().all(|t| t.result.is_some())
    }

    pub fn has_started(&self) -> bool {
        self.tables
            .iter()
            .any(|t| t.started || t.result.is_some() || !t.voids.is_empty())
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Stage {
    pub number: u32,
    pub kind: StageKind,
    /// Qualification: the players who entered it (checked in), by player index. Knockout:
    /// the seeds of its draw, best first (empty until drawn).
    pub entrants: Vec<u32>,
    pub dropped: Vec<AccountId>,
    pub rounds: Vec<Round>,
    /// Stage 1 of a tournament seeded by rating: the entrants by player index in the
    /// recorded rating order. Empty otherwise.
    pub seed_order: Vec<u32>,
    /// The seeding as recorded, to be shown.
    pub seeding: Option<RecordedSeeding>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dispute {
    pub id: u32,
    pub table: TableRef,
    pub reason: String,
    pub opened_by: Actor,
    pub resolution: Option<String>,
}

/// Everything the events say, folded.
#[derive(Debug, Clone, Default)]
pub struct State {
    pub info: Option<Info>,
    pub config: Option<Config>,
    pub referees: BTreeSet<AccountId>,
    pub registration: Registration,
    /// In registration order: the player with order `k` is at index `k - 1`.
    pub players: Vec<Player>,
    pub index: HashMap<AccountId, u32>,
    /// Registered and not withdrawn: what the capacity limits.
    pub registered: u32,
    pub pending_commitment: Option<Commitment>,
    pub stages: Vec<Stage>,
    pub disputes: Vec<Dispute>,
    /// Rounds whose draw a later result change would have altered; cleared by a redraw.
    pub flagged: BTreeSet<RoundRef>,
    pub finished: Option<TournamentFinished>,
    /// The projector's round clock: when it ends.
    pub clock_ends_at: Option<Timestamp>,
    /// The projector's announcement.
    pub announcement: Option<String>,
}

impl State {
    pub fn apply(&mut self, event: &Event) {
        match event {
            Event::Created(e) => {
                self.info = Some(Info {
                    organizer: e.organizer,
                    name: e.name.clone(),
                    rules: e.rules.clone(),
                    effective_rules: e.effective_rules.clone(),
                    capacity: e.capacity,
                    registration_window: e.registration_window,
                });
                self.config = Some(e.config.clone());
            }
            Event::StagesConfigured(e) => self.config = Some(e.config.clone()),
            Event::RefereeAdded(e) => {
                self.referees.insert(e.referee);
            }
            Event::RefereeRemoved(e) => {
                self.referees.remove(&e.referee);
            }
            Event::RegistrationOpened(_) => self.registration = Registration::Open,
            Event::RegistrationClosed(_) => self.registration = Registration::Closed,
            Event::PlayerRegistered(e) => {
                self.index.insert(e.player, self.players.len() as u32);
                self.players.push(Player {
                    account: e.player,
                    order: e.order,
                    checked_in: false,
                    withdrawn: false,
                    disqualified: None,
                    first_round: None,
                });
                self.registered += 1;
            }
            Event::PlayerEnteredLate(e) => self.apply_late_entry(e),
            Event::PlayerCheckedIn(e) => {
                if let Some(p) = self.player_mut(e.player) {
                    p.checked_in = true;
                }
            }
            Event::PlayerCheckInUndone(e) => {
                if let Some(p) = self.player_mut(e.player) {
                    p.checked_in = false;
                }
            }
            Event::PlayerWithdrew(e) => {
                if let Some(p) = self.player_mut(e.player)
                    && !p.withdrawn
                {
                    p.withdrawn = true;
                    self.registered = self.registered.saturating_sub(1);
                }
            }
            Event::PlayerDisqualified(e) => {
                if let Some(p) = self.player_mut(e.player) {
                    p.disqualified = Some(e.reason.clone());
                }
            }
            Event::DrawSeedCommitted(e) => self.pending_commitment = Some(e.commitment),
            Event::StageStarted(e) => {
                let entrants = match e.kind {
                    StageKind::Qualification => (0..self.players.len() as u32)
                        .filter(|&i| {
                            let p = &self.players[i as usize];
                            p.checked_in && p.is_active()
                        })
                        .collect(),
                    StageKind::Knockout => Vec::new(),
                };
                let seed_order = e
                    .seeding
                    .iter()
                    .flat_map(|s| &s.order)
                    .filter_map(|a| self.index.get(a).copied())
                    .collect();
                self.stages.push(Stage {
                    number: e.stage,
                    kind: e.kind,
                    entrants,
                    dropped: e.dropped.clone(),
                    rounds: Vec::new(),
                    seed_order,
                    seeding: e.seeding.clone(),
                });
            }
            Event::RoundDrawn(e) | Event::RoundRedrawn(e) => {
                self.apply_draw(e, matches!(event, Event::RoundRedrawn(_)))
            }
            Event::TableGameStarted(e) => {
                if let Some(t) = self.table_mut(e.table) {
                    t.started = true;
                    t.game = e.game.clone();
                }
            }
            Event::ResultRecorded(e) => {
                if let Some(t) = self.table_mut(e.table) {
                    t.started = true;
                    t.result = Some(e.result.clone());
                    t.input = Some(e.input.clone());
                }
                self.flagged.extend(e.flagged.iter().copied());
            }
            Event::ResultCorrected(e) => {
                if let Some(t) = self.table_mut(e.table) {
                    t.result = Some(e.result.clone());
                    t.input = Some(e.input.clone());
                    t.corrections += 1;
                }
                self.flagged.extend(e.flagged.iter().copied());
            }
            Event::GameVoided(e) => {
                if let Some(t) = self.table_mut(e.table) {
                    t.started = false;
                    t.result = None;
                    t.input = None;
                    t.voids.push(e.reason.clone());
                }
                self.flagged.extend(e.flagged.iter().copied());
            }
            Event::NoShowRecorded(e) => {
                if let Some(t) = self.table_mut(e.table)
                    && !t.absent.contains(&e.player)
                {
                    t.absent.push(e.player);
                }
                self.flagged.extend(e.flagged.iter().copied());
            }
            Event::DisputeOpened(e) => self.disputes.push(Dispute {
                id: e.dispute,
                table: e.table,
                reason: e.reason.clone(),
                opened_by: e.by,
                resolution: None,
            }),
            Event::DisputeResolved(e) => {
                if let Some(d) = self.disputes.iter_mut().find(|d| d.id == e.dispute) {
                    d.resolution = Some(e.resolution.clone());
                }
            }
            Event::Finished(e) => self.finished = Some(e.clone()),
            Event::RoundClockSet(e) => self.clock_ends_at = e.ends_at,
            Event::Announced(e) => self.announcement = e.text.clone(),
        }
    }

    /// A new player joins the registrations; a dropped one is checked in. Either enters
    /// the qualification's entrants (kept in registration order).
    fn apply_late_entry(&mut self, e: &PlayerEnteredLate) {
        let index = match self.index.get(&e.player) {
            Some(&i) => i,
            None => {
                let i = self.players.len() as u32;
                self.index.insert(e.player, i);
                self.players.push(Player {
                    account: e.player,
                    order: e.order,
                    checked_in: false,
                    withdrawn: false,
                    disqualified: None,
                    first_round: None,
                });
                self.registered += 1;
                i
            }
        };
        if let Some(p) = self.players.get_mut(index as usize) {
            p.checked_in = true;
            p.first_round = Some(e.first_round);
        }
        if let Some(stage) = self.stages.first_mut() {
            if let Err(at) = stage.entrants.binary_search(&index) {
                stage.entrants.insert(at, index);
            }
            stage.dropped.retain(|&a| a != e.player);
        }
    }

    fn apply_draw(&mut self, e: &RoundDrawn, redraw: bool) {
        self.pending_commitment = None;
        let seeds: Vec<u32> = e
            .seeds
            .iter()
            .filter_map(|a| self.index.get(a).copied())
            .collect();
        let Some(stage) = self.stages.iter_mut().find(|s| s.number == e.stage) else {
            return;
        };
        if stage.kind == StageKind::Knockout {
            stage.entrants = seeds;
        }
        let round = Round {
            draw: e.clone(),
            tables: e
                .tables
                .iter()
                .map(|players| Table {
                    players: players.clone(),
                    ..Table::default()
                })
                .collect(),
            redraws: 0,
        };
        let at = e.round as usize;
        if redraw && at >= 1 && at <= stage.rounds.len() {
            let redraws = stage.rounds[at - 1].redraws + 1;
            stage.rounds[at - 1] = Round { redraws, ..round };
            self.flagged.remove(&e.round_ref());
        } else {
            stage.rounds.push(round);
        }
    }

    // ---- lookups ----------------------------------------------------------------------

    pub fn config(&self) -> Option<&Config> {
        self.config.as_ref()
    }

    pub fn player(&self, account: AccountId) -> Option<&Player> {
        self.index.get(&account).map(|&i| &self.players[i as usize])
    }

    fn player_mut(&mut self, account: AccountId) -> Option<&mut Player> {
        let i = *self.index.get(&account)?;
        self.players.get_mut(i as usize)
    }

    pub fn current_stage(&self) -> Option<&Stage> {
        self.stages.last()
    }

    pub fn stage(&self, number: u32) -> Option<&Stage> {
        self.stages.get((number as usize).checked_sub(1)?)
    }

    pub fn round(&self, r: RoundRef) -> Option<&Round> {
        self.stage(r.stage)?
            .rounds
            .get((r.round as usize).checked_sub(1)?)
    }

    pub fn table(&self, t: TableRef) -> Option<&Table> {
        self.round(t.round_ref())?
            .tables
            .get((t.table as usize).checked_sub(1)?)
    }

    fn table_mut(&mut self, t: TableRef) -> Option<&mut Table> {
        let stage = self.stages.get_mut((t.stage as usize).checked_sub(1)?)?;
        let round = stage.rounds.get_mut((t.round as usize).checked_sub(1)?)?;
        round.tables.get_mut((t.table as usize).checked_sub(1)?)
    }

    pub fn is_organizer(&self, actor: Actor) -> bool {
        match actor {
            Actor::Server => true,
            Actor::Account(a) => self.info.as_ref().is_some_and(|i| i.organizer == a),
        }
    }

    /// Whether the stream names `actor` an official (its organizer or one of its
    /// referees); the server always is one.
    pub fn is_official(&self, actor: Actor) -> bool {
        self.is_organizer(actor) || actor.account().is_some_and(|a| self.referees.contains(&a))
    }

    /// Whether `ctx.actor` organizes this tournament now: named its organizer and still
    /// holding the organizer role (see [`Roles`]).
    pub fn acts_as_organizer(&self, ctx: &Context) -> bool {
        match ctx.actor {
            Actor::Server => true,
            actor => self.is_organizer(actor) && ctx.roles.keep_organizer(),
        }
    }

    /// Whether `ctx.actor` is an official of this tournament now: its organizer as
    /// [`State::acts_as_organizer`] says, or a named referee still holding the referee role.
    pub fn acts_as_official(&self, ctx: &Context) -> bool {
        self.acts_as_organizer(ctx)
            || (ctx
                .actor
                .account()
                .is_some_and(|a| self.referees.contains(&a))
                && ctx.roles.keep_referee())
    }

    /// Whether `account` plays in this tournament: registered, whatever became of it
    /// since (a withdrawn or disqualified player still has friends at the tables).
    pub fn plays(&self, account: AccountId) -> bool {
        self.player(account).is_some()
    }

    /// Whether `ctx.actor` is an official now who plays nowhere in this tournament:
    /// the only kind of official with power over a result.
    pub fn acts_as_neutral_official(&self, ctx: &Context) -> bool {
        self.acts_as_official(ctx) && !ctx.actor.account().is_some_and(|a| self.plays(a))
    }

    /// The officials the stream names who play nowhere in this tournament (the server
    /// is not counted: it decides no dispute).
    pub fn neutral_officials(&self) -> impl Iterator<Item = AccountId> + '_ {
        self.info
            .iter()
            .map(|info| info.organizer)
            .chain(self.referees.iter().copied())
            .filter(|a| !self.plays(*a))
    }

    pub fn open_dispute(&self) -> Option<u32> {
        self.disputes
            .iter()
            .find(|d| d.resolution.is_none())
            .map(|d| d.id)
    }

    /// The final table's round, once drawn.
    pub fn final_round(&self) -> Option<&Round> {
        self.current_stage()?
            .rounds
            .last()
            .filter(|r| r.draw.final_table)
    }
}
