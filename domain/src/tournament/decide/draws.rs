//! Seed commitments, starting the qualification, drawing and redrawing rounds, advancing
//! to the next stage.

use crate::game::MAX_PLAYERS;
use crate::shuffle::{Commitment, Seed};

use super::super::command::MAX_TEXT_LEN;
use super::super::config::{DEFAULT_REDRAWS_PER_ROUND, Seeding};
use super::super::error::{Role, TournamentError};
use super::super::event::*;
use super::super::refs::{AccountId, Context, RoundRef, StageKind};
use super::super::seating::{self, DRAW_ALGORITHM, NoSplit, Seating};
use super::super::state::{Player, Registration, Stage, State};
use super::{Decision, text};

/// A draw before it becomes an event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Plan {
    pub seeds: Vec<AccountId>,
    pub tables: Vec<Vec<AccountId>>,
    pub byes: Vec<AccountId>,
    pub final_table: bool,
}

impl Plan {
    /// Whether `drawn` seats the same players the same way.
    pub fn matches(&self, drawn: &RoundDrawn) -> bool {
        self.seeds == drawn.seeds
            && self.tables == drawn.tables
            && self.byes == drawn.byes
            && self.final_table == drawn.final_table
    }
}

fn no_split(e: NoSplit) -> TournamentError {
    TournamentError::NoTableSplit {
        players: e.players,
        min: e.min,
        max: e.max,
        hard_max: e.hard_max,
    }
}

impl State {
    /// Most players the rules (and the engine) seat at one game.
    fn hard_max(&self) -> usize {
        self.info.as_ref().map_or(MAX_PLAYERS, |i| {
            (i.effective_rules.max_players as usize).min(MAX_PLAYERS)
        })
    }

    fn fewest_at_a_table(&self) -> usize {
        self.info
            .as_ref()
            .map_or(2, |i| (i.effective_rules.min_players as usize).max(2))
    }

    pub(super) fn decide_commit(&self, ctx: &Context, commitment: Commitment) -> Decision {
        self.require(ctx, Role::Organizer, None)?;
        if self.pending_commitment.is_some() {
            return Err(TournamentError::SeedAlreadyCommitted);
        }
        Ok(Event::DrawSeedCommitted(DrawSeedCommitted { commitment }))
    }

    pub(super) fn decide_start_qualification(
        &self,
        ctx: &Context,
        seeding: Option<&RecordedSeeding>,
    ) -> Decision {
        self.require(ctx, Role::Organizer, None)?;
        self.before_the_start("the qualification has already started")?;
        if self.registration == Registration::Open {
            return Err(TournamentError::WrongPhase("close registration first"));
        }
        let config = self.config.as_ref().ok_or(TournamentError::NotCreated)?;
        let entrants = self.qualification_entrants().count();
        seating::table_sizes(
            entrants,
            config.table_min as usize,
            config.table_max as usize,
            self.hard_max(),
        )
        .map_err(no_split)?;
        let dropped = self
            .players
            .iter()
            .filter(|p| p.is_active() && !p.checked_in)
            .map(|p| p.account)
            .collect();
        self.check_seeding(seeding)?;
        let seeding = seeding.cloned();
        Ok(Event::StageStarted(StageStarted {
            stage: 1,
            kind: StageKind::Qualification,
            dropped,
            seeding,
        }))
    }

    /// The players who enter the qualification when it starts: active and checked in.
    pub fn qualification_entrants(&self) -> impl Iterator<Item = &Player> {
        self.players
            .iter()
            .filter(|p| p.is_active() && p.checked_in)
    }

    /// The seeding a start of the qualification may record: one exactly when the
    /// config asks for seeding by rating or by a season, naming that procedure (and
    /// that season), listing every entrant once and nobody else.
    pub(crate) fn check_seeding(
        &self,
        seeding: Option<&RecordedSeeding>,
    ) -> Result<(), TournamentError> {
        let config = self.config.as_ref().ok_or(TournamentError::NotCreated)?;
        let seeding = match (seeding, config.seeding) {
            (None, Seeding::Random) => return Ok(()),
            (Some(_), Seeding::Random) => {
                return Err(TournamentError::BadSeeding(
                    "this tournament's first round is drawn at random",
                ));
            }
            (None, Seeding::Rating) => {
                return Err(TournamentError::BadSeeding(
                    "a tournament seeded by rating starts from the rating list's order",
                ));
            }
            (None, Seeding::Season) => {
                return Err(TournamentError::BadSeeding(
                    "a tournament seeded by a season starts from its standings' order",
                ));
            }
            (Some(seeding), kind) => (seeding, kind),
        };
        match seeding {
            (s, Seeding::Rating) if s.procedure != RATINGS_PROCEDURE || s.season.is_some() => {
                return Err(TournamentError::BadSeeding(
                    "a seeding by rating names the rating procedure and no season",
                ));
            }
            (s, Seeding::Season)
                if s.procedure != SEASON_PROCEDURE
                    || s.season.as_ref().map(|b| b.season) != config.season =>
            {
                return Err(TournamentError::BadSeeding(
                    "a seeding by a season names the season procedure and the config's season",
                ));
            }
            (s, Seeding::Season) => {
                if let Some(problem) = s.season.as_ref().and_then(SeasonBasis::problem) {
                    return Err(TournamentError::BadSeeding(problem));
                }
            }
            _ => {}
        }
        let mut listed = seeding.0.order.clone();
        listed.sort_unstable();
        let mut entrants: Vec<AccountId> =
            self.qualification_entrants().map(|p| p.account).collect();
        entrants.sort_unstable();
        if listed != entrants {
            return Err(TournamentError::BadSeeding(
                "the order must list every entrant once, and nobody else",
            ));
        }
        Ok(())
    }

    /// The commitment a draw from `seed` carries, checked against a published one.
    fn commitment_for(&self, seed: &Seed) -> Result<(Commitment, bool), TournamentError> {
        match self.pending_commitment {
            Some(c) if !c.matches(seed) => Err(TournamentError::SeedMismatch {
                commitment: c.to_hex(),
            }),
            Some(c) => Ok((c, true)),
            None => Ok((seed.commitment(), false)),
        }
    }

    /// The stage being played, when no dispute holds the tournament.
    fn stage_in_play(&self) -> Result<&Stage, TournamentError> {
        let stage = self
            .current_stage()
            .ok_or(TournamentError::WrongPhase("start the qualification first"))?;
        if let Some(id) = self.open_dispute() {
            return Err(TournamentError::OpenDispute(id));
        }
        Ok(stage)
    }

    /// How many rounds a stage of `kind` draws: the configured qualification rounds, or
    /// one knockout round.
    pub(crate) fn rounds_in(&self, kind: StageKind) -> Result<usize, TournamentError> {
        let config = self.config.as_ref().ok_or(TournamentError::NotCreated)?;
        Ok(match kind {
            StageKind::Qualification => config.qualification_rounds as usize,
            StageKind::Knockout => 1,
        })
    }

    /// Round `at` drawn (or, with a `reason`, redrawn) from `seed`.
    fn draw_from(
        &self,
        at: RoundRef,
        seed: &Seed,
        reason: Option<String>,
    ) -> Result<RoundDrawn, TournamentError> {
        let (commitment, precommitted) = self.commitment_for(seed)?;
        let plan = self.plan_draw(at.stage, at.round, seed)?;
        Ok(RoundDrawn {
            stage: at.stage,
            round: at.round,
            algorithm: DRAW_ALGORITHM.to_owned(),
            commitment,
            seed: *seed,
            precommitted,
            seeds: plan.seeds,
            tables: plan.tables,
            byes: plan.byes,
            final_table: plan.final_table,
            reason,
            by: None,
            replaced: None,
        })
    }

    pub(super) fn decide_draw(&self, ctx: &Context, seed: &Seed) -> Decision {
        self.require(ctx, Role::Organizer, None)?;
        let stage = self.stage_in_play()?;
        if stage.rounds.len() >= self.rounds_in(stage.kind)? {
            return Err(if self.final_round().is_some() {
                TournamentError::FinalReached
            } else {
                TournamentError::StageRoundsDrawn
            });
        }
        let round = stage.rounds.len() as u32 + 1;
        let at = RoundRef {
            stage: stage.number,
            round,
        };
        Ok(Event::RoundDrawn(self.draw_from(at, seed, None)?))
    }

    /// Why round `at` cannot be drawn again now, whoever asks; `None` when it can. The
    /// desk offers a redraw only where this says it would work.
    pub fn redraw_refused(&self, at: RoundRef) -> Option<TournamentError> {
        let Some(round) = self.round(at) else {
            return Some(TournamentError::NoSuchRound(at));
        };
        let latest = self
            .current_stage()
            .and_then(|s| s.rounds.last().map(|r| (s.number, r.draw.round)));
        if latest != Some((at.stage, at.round)) {
            return Some(TournamentError::NotLatestRound(at));
        }
        // Online tables are dealt when they are drawn, so such a round has started.
        if round.has_started() {
            return Some(TournamentError::RoundStarted(at));
        }
        let limit = self
            .config
            .as_ref()
            .map_or(DEFAULT_REDRAWS_PER_ROUND, |c| c.redraws_per_round);
        if round.redraws >= limit {
            return Some(TournamentError::RedrawLimit { round: at, limit });
        }
        None
    }

    pub(super) fn decide_redraw(
        &self,
        ctx: &Context,
        at: RoundRef,
        seed: &Seed,
        reason: &str,
    ) -> Decision {
        // Any official may redraw, so that one who plays is never the only one who can;
        // one who plays may not: a redraw is a new seating, their own table's too.
        self.require(ctx, Role::Official, None)?;
        self.require_neutral(ctx)?;
        let reason = text(reason, MAX_TEXT_LEN, TournamentError::BadReason)?;
        if let Some(refused) = self.redraw_refused(at) {
            return Err(refused);
        }
        let round = self.round(at).ok_or(TournamentError::NoSuchRound(at))?;
        let replaced = ReplacedSeating {
            tables: round.draw.tables.clone(),
            byes: round.draw.byes.clone(),
        };
        Ok(Event::RoundRedrawn(RoundDrawn {
            by: Some(ctx.actor),
            replaced: Some(replaced),
            ..self.draw_from(at, seed, Some(reason))?
        }))
    }

    pub(super) fn decide_advance(&self, ctx: &Context) -> Decision {
        self.require(ctx, Role::Organizer, None)?;
        let stage = self.stage_in_play()?;
        if self.final_round().is_some() {
            return Err(TournamentError::FinalReached);
        }
        let rounds = self.rounds_in(stage.kind)?;
        if stage.rounds.len() < rounds || !stage.rounds.iter().all(|r| r.is_complete()) {
            return Err(TournamentError::StageIncomplete(stage.number));
        }
        Ok(Event::StageStarted(StageStarted {
            stage: stage.number + 1,
            kind: StageKind::Knockout,
            dropped: Vec::new(),
            seeding: None,
        }))
    }

    /// The seating of round `round` of stage `stage` from `seed`, on the state as it is;
    /// rounds of the stage from `round` on are ignored (so a redraw, and the re-run of a
    /// past draw by `flags.rs`, see exactly what the original draw saw).
    pub(crate) fn plan_draw(
        &self,
        stage: u32,
        round: u32,
        seed: &Seed,
    ) -> Result<Plan, TournamentError> {
        let config = self.config.as_ref().ok_or(TournamentError::NotCreated)?;
        let st = self
            .stage(stage)
            .ok_or(TournamentError::NoSuchRound(RoundRef { stage, round }))?;
        let account = |i: &u32| self.players[*i as usize].account;
        let to_accounts = |s: Seating| {
            (
                s.tables
                    .iter()
                    .map(|t| t.iter().map(account).collect())
                    .collect(),
                s.byes.iter().map(account).collect(),
            )
        };
        match st.kind {
            StageKind::Qualification => {
                for earlier in 1..round {
                    let previous = RoundRef {
                        stage,
                        round: earlier,
                    };
                    if !self.round(previous).is_some_and(|r| r.is_complete()) {
                        return Err(TournamentError::RoundIncomplete(previous));
                    }
                }
                let active: Vec<u32> = st
                    .entrants
                    .iter()
                    .copied()
                    .filter(|&i| self.players[i as usize].is_active())
                    .collect();
                let sizes = seating::table_sizes(
                    active.len(),
                    config.table_min as usize,
                    config.table_max as usize,
                    self.hard_max(),
                )
                .map_err(no_split)?;
                let seeded = (round == 1 && !st.seed_order.is_empty()).then(|| {
                    let mut playing = vec![false; self.players.len()];
                    for &i in &active {
                        playing[i as usize] = true;
                    }
                    st.seed_order
                        .iter()
                        .copied()
                        .filter(|&i| playing[i as usize])
                        .collect::<Vec<u32>>()
                });
                let seating = if let Some(order) = &seeded {
                    seating::seeded_draw(order, &sizes, seed)
                } else if round == 1 {
                    seating::random_draw(&active, &sizes, seed)
                } else {
                    let ranked = self.seeded(&active, Some(round));
                    seating::swiss_draw(&ranked, &sizes, &self.played_with(stage, round), seed)
                };
                let (tables, byes) = to_accounts(seating);
                Ok(Plan {
                    seeds: seeded.unwrap_or_default().iter().map(account).collect(),
                    tables,
                    byes,
                    final_table: false,
                })
            }
            StageKind::Knockout => {
                if let Some(previous) = self.stage(stage - 1)
                    && !previous.rounds.iter().all(|r| r.is_complete())
                {
                    return Err(TournamentError::StageIncomplete(previous.number));
                }
                let seeds = self
                    .knockout_seeds(stage)
                    .ok_or(TournamentError::StageIncomplete(stage - 1))?;
                let fewest = self.fewest_at_a_table();
                if seeds.len() < fewest {
                    return Err(TournamentError::NotEnoughPlayers {
                        players: seeds.len(),
                        min: fewest,
                    });
                }
                let final_max = config.final_table_max as usize;
                let seating = seating::knockout_draw(
                    &seeds,
                    config.knockout_table_size as usize,
                    final_max,
                    seed,
                );
                let (tables, byes) = to_accounts(seating);
                Ok(Plan {
                    seeds: seeds.iter().map(account).collect(),
                    tables,
                    byes,
                    final_table: seeds.len() <= final_max,
                })
            }
        }
    }
}
