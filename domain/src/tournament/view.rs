//! Read models for the API: the tournament at a glance, the stages and their bracket, the
//! players. Plain serializable values computed from the folded state.

use serde::Serialize;

use crate::rules::RuleSpec;
use crate::shuffle::{Commitment, Seed};

use super::config::Config;
use super::event::{PlayerResult, RegistrationWindow};
use super::refs::{AccountId, RoundRef, StageKind, TableRef};
use super::state::{Registration, Round, State};

/// Where the tournament stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Created; registration never opened.
    Setup,
    RegistrationOpen,
    RegistrationClosed,
    Qualification,
    Knockout,
    Finished,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TournamentView {
    pub name: String,
    pub organizer: AccountId,
    pub phase: Phase,
    pub rules: RuleSpec,
    pub capacity: u32,
    /// Registered and not withdrawn.
    pub registered: u32,
    pub registration_window: RegistrationWindow,
    pub config: Config,
    pub referees: Vec<AccountId>,
    pub current_stage: Option<u32>,
    /// The published commitment of the next draw, if any.
    pub pending_commitment: Option<Commitment>,
    /// Rounds whose draw a later result change would have altered (see `flags.rs`).
    pub flagged_rounds: Vec<RoundRef>,
    pub open_disputes: Vec<u32>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PlayerView {
    pub player: AccountId,
    pub registration: u32,
    pub checked_in: bool,
    pub withdrawn: bool,
    pub disqualified: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StageView {
    pub stage: u32,
    pub kind: StageKind,
    /// Qualification: players dropped for not checking in.
    pub dropped: Vec<AccountId>,
    pub rounds: Vec<RoundView>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RoundView {
    pub round: RoundRef,
    pub algorithm: String,
    pub commitment: Commitment,
    pub seed: Seed,
    pub precommitted: bool,
    pub redraws: u32,
    pub flagged: bool,
    pub complete: bool,
    pub final_table: bool,
    /// Knockout: entrants best first; byes go through without playing.
    pub seeds: Vec<AccountId>,
    pub byes: Vec<AccountId>,
    pub tables: Vec<TableView>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TableView {
    pub table: TableRef,
    /// In seat order.
    pub players: Vec<AccountId>,
    pub started: bool,
    pub game: Option<String>,
    pub result: Option<Vec<PlayerResult>>,
    pub corrections: u32,
    pub voids: u32,
    /// Knockout tables with a result: who goes through.
    pub advancing: Vec<AccountId>,
}

impl State {
    pub fn phase(&self) -> Phase {
        if self.finished.is_some() {
            return Phase::Finished;
        }
        match (self.current_stage().map(|s| s.kind), self.registration) {
            (Some(StageKind::Qualification), _) => Phase::Qualification,
            (Some(StageKind::Knockout), _) => Phase::Knockout,
            (None, Registration::NotOpened) => Phase::Setup,
            (None, Registration::Open) => Phase::RegistrationOpen,
            (None, Registration::Closed) => Phase::RegistrationClosed,
        }
    }

    pub fn view(&self) -> Option<TournamentView> {
        let info = self.info.as_ref()?;
        Some(TournamentView {
            name: info.name.clone(),
            organizer: info.organizer,
            phase: self.phase(),
            rules: info.rules.clone(),
            capacity: info.capacity,
            registered: self.registered,
            registration_window: info.registration_window,
            config: self.config.clone()?,
            referees: self.referees.iter().copied().collect(),
            current_stage: self.current_stage().map(|s| s.number),
            pending_commitment: self.pending_commitment,
            flagged_rounds: self.flagged.iter().copied().collect(),
            open_disputes: self
                .disputes
                .iter()
                .filter(|d| d.resolution.is_none())
                .map(|d| d.id)
                .collect(),
        })
    }

    pub fn player_views(&self) -> Vec<PlayerView> {
        self.players
            .iter()
            .map(|p| PlayerView {
                player: p.account,
                registration: p.order,
                checked_in: p.checked_in,
                withdrawn: p.withdrawn,
                disqualified: p.disqualified.is_some(),
            })
            .collect()
    }

    /// Every stage with its rounds and tables: the bracket.
    pub fn stage_views(&self) -> Vec<StageView> {
        let advance = self
            .config
            .as_ref()
            .map_or(1, |c| c.advance_per_table as usize);
        self.stages
            .iter()
            .map(|s| StageView {
                stage: s.number,
                kind: s.kind,
                dropped: s.dropped.clone(),
                rounds: s
                    .rounds
                    .iter()
                    .map(|r| self.round_view(r, s.kind, advance))
                    .collect(),
            })
            .collect()
    }

    fn round_view(&self, r: &Round, kind: StageKind, advance: usize) -> RoundView {
        let at = r.draw.round_ref();
        let position = |a: &AccountId| {
            r.draw
                .seeds
                .iter()
                .position(|s| s == a)
                .unwrap_or(usize::MAX)
        };
        RoundView {
            round: at,
            algorithm: r.draw.algorithm.clone(),
            commitment: r.draw.commitment,
            seed: r.draw.seed,
            precommitted: r.draw.precommitted,
            redraws: r.redraws,
            flagged: self.flagged.contains(&at),
            complete: r.is_complete(),
            final_table: r.draw.final_table,
            seeds: r.draw.seeds.clone(),
            byes: r.draw.byes.clone(),
            tables: r
                .tables
                .iter()
                .enumerate()
                .map(|(i, t)| {
                    let advancing = match (&t.result, kind, r.draw.final_table) {
                        (Some(result), StageKind::Knockout, false) => {
                            let mut lines: Vec<&PlayerResult> = result.iter().collect();
                            lines.sort_by_key(|l| (l.place, position(&l.player)));
                            lines.iter().take(advance).map(|l| l.player).collect()
                        }
                        _ => Vec::new(),
                    };
                    TableView {
                        table: TableRef {
                            stage: at.stage,
                            round: at.round,
                            table: i as u32 + 1,
                        },
                        players: t.players.clone(),
                        started: t.started,
                        game: t.game.clone(),
                        result: t.result.clone(),
                        corrections: t.corrections,
                        voids: t.voids.len() as u32,
                        advancing,
                    }
                })
                .collect(),
        }
    }
}
