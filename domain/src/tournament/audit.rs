//! Auditing a tournament's stream: is every event one that `decide` could have made?
//!
//! The events carry what was decided (a draw's seating, a table's result, the final
//! ranking) so that no later version of the code has to recompute them. An auditor
//! recomputes them anyway. [`Audit`] folds the events one by one and, on the state
//! *before* each event, re-derives what the event claims:
//!
//! - `round_drawn.v1` / `round_redrawn.v1`: the algorithm is `tournament-draw/1`, the
//!   commitment is SHA-256 of the revealed seed, `precommitted` is true exactly when a
//!   `draw_seed_committed.v1` was pending and then names that very seed, the round is
//!   the one that could be drawn (or redrawn) then, and the seating planned again from
//!   the seed ([`State::plan_draw`]) is the seating the event publishes; a redraw that
//!   records the seating it `replaced` names the one in force and stays within the
//!   tournament's `redraws_per_round`;
//! - `stage_started.v1`: the next stage number, the qualification first, the
//!   players dropped for not checking in, and under `seeding: rating` a seeding that
//!   lists every entrant once (its order comes from the rating list, which the stream
//!   alone cannot re-derive: `docs/ratings.md`);
//! - `result_recorded.v1` / `result_corrected.v1` / `game_voided.v1`: the later draws
//!   the change flags are the ones it alters (re-planned from the log before it);
//! - `result_recorded.v1` / `result_corrected.v1`: the input resolves under the
//!   tournament's rules to the stored result, the table exists and is in the right
//!   state, the players are the ones seated there, and an official entered it;
//! - `tournament_finished.v1`: the ranking the state gives is the published one;
//! - `player_registered.v1` / `player_entered_late.v1`: `order` is the player's index
//!   + 1 (the next one for a new player, their own for one dropped and entered late);
//! - and the shape of the stream: `tournament_created.v1` first and only first,
//!   nothing after `tournament_finished.v1`.
//!
//! What cannot be re-derived from the stream alone is left to the caller: a result
//! taken from an online game names that game ([`OnlineGameResult`]); the server checks
//! it against the game's own stream.
//!
//! The first event that does not check out stops the audit ([`AuditError`], with the
//! stream version of that event and a stable code).

use super::Tournament;
use super::config::DEFAULT_REDRAWS_PER_ROUND;
use super::decide::change_flags;
use super::error::{Role, TournamentError};
use super::event::{Event, PlayerResult, RoundDrawn, StageStarted, TournamentFinished};
use super::refs::{AccountId, Actor, RoundRef, StageKind, TableRef};
use super::result::ResultInput;
use super::seating::DRAW_ALGORITHM;
use super::state::State;

/// Why an event does not follow from the events before it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Mismatch {
    #[error("the stream must begin with tournament_created.v1")]
    NotCreatedFirst,
    #[error("the tournament was already created")]
    CreatedAgain,
    #[error("the tournament had finished: nothing may follow tournament_finished.v1")]
    AfterFinish,
    #[error("stage {stored} ({kind:?}) is not the stage that could start next (stage {expected})")]
    WrongStage {
        stored: u32,
        kind: StageKind,
        expected: u32,
    },
    #[error("the players dropped for not checking in are not the ones who did not check in")]
    DroppedMismatch,
    #[error("unknown draw algorithm {0:?}")]
    UnknownAlgorithm(String),
    #[error("the commitment {stored} is not the SHA-256 of the revealed seed ({computed})")]
    CommitmentMismatch { stored: String, computed: String },
    #[error("the draw does not use the seed committed before it ({published})")]
    UncommittedSeed { published: String },
    #[error("the draw says precommitted: true, but no commitment was published before it")]
    NothingCommitted,
    #[error("the draw says precommitted: false, but its seed was committed before it")]
    CommitmentNotFlagged,
    #[error("{0} is not the round that could be drawn here")]
    WrongRound(RoundRef),
    #[error("{round}: the seed does not give this draw (its {differs} differ)")]
    DrawMismatch {
        round: RoundRef,
        differs: &'static str,
    },
    #[error("{0}: the seating the redraw says it replaced is not the one in force before it")]
    ReplacedMismatch(RoundRef),
    #[error("the stored result of {0} is not what its input gives")]
    ResultMismatch(TableRef),
    #[error("the published ranking is not the one the results give")]
    RankingMismatch,
    #[error("the rounds flagged by the change to {0} are not the ones it alters")]
    FlagsMismatch(TableRef),
    #[error("player {player} has order {stored}, but is player {expected} of the registrations")]
    OrderMismatch {
        player: AccountId,
        stored: u32,
        expected: u32,
    },
    #[error("the rules would have refused it: {0}")]
    Refused(TournamentError),
}

impl Mismatch {
    /// Stable machine-readable code: the domain's own code when `decide` would have
    /// refused the event, otherwise what does not match.
    pub fn code(&self) -> &'static str {
        match self {
            Mismatch::NotCreatedFirst => "not_created",
            Mismatch::CreatedAgain => "already_created",
            Mismatch::AfterFinish => "finished",
            Mismatch::WrongStage { .. } => "wrong_stage",
            Mismatch::DroppedMismatch => "dropped_mismatch",
            Mismatch::UnknownAlgorithm(_) => "unknown_draw_algorithm",
            Mismatch::CommitmentMismatch { .. } => "commitment_mismatch",
            Mismatch::UncommittedSeed { .. } => "seed_mismatch",
            Mismatch::NothingCommitted | Mismatch::CommitmentNotFlagged => "precommitted_mismatch",
            Mismatch::WrongRound(_) => "wrong_round",
            Mismatch::DrawMismatch { .. } => "draw_mismatch",
            Mismatch::ReplacedMismatch(_) => "replaced_mismatch",
            Mismatch::ResultMismatch(_) => "result_mismatch",
            Mismatch::RankingMismatch => "ranking_mismatch",
            Mismatch::FlagsMismatch(_) => "flags_mismatch",
            Mismatch::OrderMismatch { .. } => "player_order",
            Mismatch::Refused(e) => e.code(),
        }
    }
}

impl From<TournamentError> for Mismatch {
    fn from(e: TournamentError) -> Mismatch {
        Mismatch::Refused(e)
    }
}

/// The first event of a stream that does not check out.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("event {version} ({event_type}): {mismatch}")]
pub struct AuditError {
    /// Its stream version (1 for the first event).
    pub version: u64,
    pub event_type: &'static str,
    pub mismatch: Mismatch,
}

impl AuditError {
    pub fn code(&self) -> &'static str {
        self.mismatch.code()
    }
}

/// A result that says it comes from an online game: what the game's own stream must
/// confirm.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OnlineGameResult {
    pub table: TableRef,
    /// The game's id as entered (on this server, `table-<id>`).
    pub game: String,
    /// The tournament table's players in seat order: seat `i` of the game is `seats[i]`.
    pub seats: Vec<AccountId>,
    /// The result stored for the table.
    pub result: Vec<PlayerResult>,
}

/// An audit in progress: feed it the events in stream order with [`Audit::check`].
#[derive(Debug, Clone, Default)]
pub struct Audit {
    /// The events checked so far, folded (with their log: a result's flags re-plan
    /// the later draws from it).
    tournament: Tournament,
    version: u64,
    /// The tournament's id, when the stream's name gives it: a final's seeding must
    /// not count the final among its season's members.
    id: Option<i64>,
}

impl Audit {
    pub fn new() -> Audit {
        Audit::default()
    }

    /// An audit of tournament `id`'s stream.
    pub fn of_tournament(id: i64) -> Audit {
        Audit {
            id: Some(id),
            ..Audit::default()
        }
    }

    /// Events checked so far (the stream version reached).
    pub fn version(&self) -> u64 {
        self.version
    }

    /// The state after the events checked so far.
    pub fn state(&self) -> &State {
        self.tournament.state()
    }

    /// Checks the next event against the state before it, then folds it. Returns the
    /// online game the event's result claims to come from, if any.
    pub fn check(&mut self, event: &Event) -> Result<Option<OnlineGameResult>, AuditError> {
        let version = self.version + 1;
        let online = self
            .tournament
            .state()
            .audit(event)
            .and_then(|online| {
                self.audit_flags(event)?;
                self.audit_own_season(event)?;
                Ok(online)
            })
            .map_err(|mismatch| AuditError {
                version,
                event_type: event.type_name(),
                mismatch,
            })?;
        self.tournament.apply(event);
        self.version = version;
        Ok(online)
    }
}

impl Audit {
    /// docs/seasons.md 4: a final is never one of its own season's members
    /// (`final_in_its_season` on the server), which its archive alone shows.
    fn audit_own_season(&self, event: &Event) -> Result<(), Mismatch> {
        let Event::StageStarted(started) = event else {
            return Ok(());
        };
        let basis = started.seeding.as_ref().and_then(|s| s.season.as_ref());
        match (basis, self.id) {
            (Some(basis), Some(id)) if basis.tournaments.contains(&id) => {
                Err(TournamentError::BadSeeding(
                    "the seeding counts this tournament among its season's members",
                )
                .into())
            }
            _ => Ok(()),
        }
    }

    /// A changed result flags the later draws it would have changed: the same rounds
    /// as deciding it found, re-planned from the log before it.
    fn audit_flags(&self, event: &Event) -> Result<(), Mismatch> {
        let mut unflagged = event.clone();
        let Some((at, flagged)) = change_flags(&mut unflagged) else {
            return Ok(());
        };
        let stored = std::mem::take(flagged);
        if self.tournament.flags(at, &unflagged) != stored {
            return Err(Mismatch::FlagsMismatch(at));
        }
        Ok(())
    }
}

/// Audits a whole stream: the number of events checked, or the first that does not
/// check out.
pub fn audit<'a>(events: impl IntoIterator<Item = &'a Event>) -> Result<u64, AuditError> {
    let mut audit = Audit::new();
    for event in events {
        audit.check(event)?;
    }
    Ok(audit.version())
}

impl State {
    /// What `event` claims, re-derived from `self`, the state before it.
    fn audit(&self, event: &Event) -> Result<Option<OnlineGameResult>, Mismatch> {
        match (event, self.info.is_some()) {
            (Event::Created(_), false) => return Ok(None),
            (Event::Created(_), true) => return Err(Mismatch::CreatedAgain),
            (_, false) => return Err(Mismatch::NotCreatedFirst),
            (_, true) => {}
        }
        if self.finished.is_some() {
            return Err(Mismatch::AfterFinish);
        }
        match event {
            Event::StageStarted(started) => self.audit_stage(started)?,
            Event::RoundDrawn(drawn) => self.audit_draw(drawn, false)?,
            Event::RoundRedrawn(drawn) => self.audit_draw(drawn, true)?,
            Event::ResultRecorded(e) => {
                return self.audit_result(e.table, &e.input, &e.result, e.by, false);
            }
            Event::ResultCorrected(e) => {
                return self.audit_result(e.table, &e.input, &e.result, e.by, true);
            }
            Event::Finished(published) => self.audit_finish(published)?,
            Event::PlayerRegistered(e) => self.audit_order(e.player, e.order)?,
            Event::PlayerEnteredLate(e) => self.audit_order(e.player, e.order)?,
            _ => {}
        }
        Ok(None)
    }

    /// A player's `order` is their index + 1: the next one for a new player, their
    /// own for one entered late after being dropped (the `registration_order`
    /// tie-break reads it).
    fn audit_order(&self, player: AccountId, stored: u32) -> Result<(), Mismatch> {
        let index = match self.index.get(&player) {
            Some(&known) => known,
            None => u32::try_from(self.players.len()).unwrap_or(u32::MAX),
        };
        let expected = index.saturating_add(1);
        if stored != expected {
            return Err(Mismatch::OrderMismatch {
                player,
                stored,
                expected,
            });
        }
        Ok(())
    }

    fn audit_stage(&self, started: &StageStarted) -> Result<(), Mismatch> {
        let expected = self.stages.len() as u32 + 1;
        let kind = if expected == 1 {
            StageKind::Qualification
        } else {
            StageKind::Knockout
        };
        if started.stage != expected || started.kind != kind {
            return Err(Mismatch::WrongStage {
                stored: started.stage,
                kind: started.kind,
                expected,
            });
        }
        let not_checked_in: Vec<AccountId> = match kind {
            StageKind::Qualification => self
                .players
                .iter()
                .filter(|p| p.is_active() && !p.checked_in)
                .map(|p| p.account)
                .collect(),
            StageKind::Knockout => Vec::new(),
        };
        if started.dropped != not_checked_in {
            return Err(Mismatch::DroppedMismatch);
        }
        match (kind, &started.seeding) {
            (StageKind::Qualification, seeding) => Ok(self.check_seeding(seeding.as_ref())?),
            (StageKind::Knockout, None) => Ok(()),
            (StageKind::Knockout, Some(_)) => Err(TournamentError::BadSeeding(
                "only the qualification of a seeded tournament records a seeding",
            )
            .into()),
        }
    }

    fn audit_draw(&self, drawn: &RoundDrawn, redraw: bool) -> Result<(), Mismatch> {
        if drawn.algorithm != DRAW_ALGORITHM {
            return Err(Mismatch::UnknownAlgorithm(drawn.algorithm.clone()));
        }
        let computed = drawn.seed.commitment();
        if drawn.commitment != computed {
            return Err(Mismatch::CommitmentMismatch {
                stored: drawn.commitment.to_hex(),
                computed: computed.to_hex(),
            });
        }
        match self.pending_commitment {
            Some(published) if published != drawn.commitment => {
                return Err(Mismatch::UncommittedSeed {
                    published: published.to_hex(),
                });
            }
            Some(_) if !drawn.precommitted => return Err(Mismatch::CommitmentNotFlagged),
            None if drawn.precommitted => return Err(Mismatch::NothingCommitted),
            _ => {}
        }
        self.audit_round_number(drawn.round_ref(), redraw)?;
        if redraw {
            self.audit_redraw_record(drawn)?;
        }
        let plan = self.plan_draw(drawn.stage, drawn.round, &drawn.seed)?;
        if !plan.matches(drawn) {
            let differs = if plan.tables != drawn.tables {
                "tables"
            } else if plan.byes != drawn.byes {
                "byes"
            } else if plan.seeds != drawn.seeds {
                "seeds"
            } else {
                "final-table flags"
            };
            return Err(Mismatch::DrawMismatch {
                round: drawn.round_ref(),
                differs,
            });
        }
        Ok(())
    }

    /// A redraw that records who made it and what it replaced (every redraw since they
    /// are listed as interventions) was made by an official the stream names who plays
    /// nowhere in the tournament, names the seating in force before it, and stays
    /// within the tournament's bound on redraws of one round. Older redraws record none
    /// of it and are not held to the bound, which came with the record.
    fn audit_redraw_record(&self, drawn: &RoundDrawn) -> Result<(), Mismatch> {
        let at = drawn.round_ref();
        if let Some(by) = drawn.by {
            if !self.is_official(by) {
                return Err(TournamentError::Forbidden(Role::Official).into());
            }
            if let Some(account) = by.account().filter(|a| self.plays(*a)) {
                return Err(TournamentError::OfficialPlays(account).into());
            }
        }
        let (Some(replaced), Some(round)) = (&drawn.replaced, self.round(at)) else {
            return Ok(());
        };
        if replaced.tables != round.draw.tables || replaced.byes != round.draw.byes {
            return Err(Mismatch::ReplacedMismatch(at));
        }
        let limit = self
            .config
            .as_ref()
            .map_or(DEFAULT_REDRAWS_PER_ROUND, |c| c.redraws_per_round);
        if round.redraws >= limit {
            return Err(TournamentError::RedrawLimit { round: at, limit }.into());
        }
        Ok(())
    }

    /// Whether `at` is the round a draw (the next round of the current stage) or a
    /// redraw (its latest round, not started) could address, as `decide` sees it.
    fn audit_round_number(&self, at: RoundRef, redraw: bool) -> Result<(), Mismatch> {
        let stage = self
            .current_stage()
            .ok_or(TournamentError::WrongPhase("start the qualification first"))?;
        let drawn = stage.rounds.len() as u32;
        let expected = if redraw { drawn } else { drawn + 1 };
        if at.stage != stage.number || at.round != expected || expected == 0 {
            return Err(Mismatch::WrongRound(at));
        }
        if redraw {
            if self.round(at).is_some_and(|r| r.has_started()) {
                return Err(TournamentError::RoundStarted(at).into());
            }
            return Ok(());
        }
        if let Some(dispute) = self.open_dispute() {
            return Err(TournamentError::OpenDispute(dispute).into());
        }
        if drawn as usize >= self.rounds_in(stage.kind)? {
            return Err(TournamentError::StageRoundsDrawn.into());
        }
        Ok(())
    }

    fn audit_result(
        &self,
        at: TableRef,
        input: &ResultInput,
        stored: &[PlayerResult],
        by: Actor,
        correction: bool,
    ) -> Result<Option<OnlineGameResult>, Mismatch> {
        if !self.is_official(by) {
            return Err(TournamentError::Forbidden(Role::Official).into());
        }
        let table = self.table(at).ok_or(TournamentError::NoSuchTable(at))?;
        match (correction, table.result.is_some()) {
            (false, true) => return Err(TournamentError::ResultAlreadyRecorded(at).into()),
            (true, false) => return Err(TournamentError::NoResult(at).into()),
            _ => {}
        }
        // The same checks the decision made: scored by the rules, seated players only.
        let resolved = self.checked_result(at, input)?;
        if resolved != stored {
            return Err(Mismatch::ResultMismatch(at));
        }
        Ok(match input {
            ResultInput::Game {
                game: Some(game), ..
            } => Some(OnlineGameResult {
                table: at,
                game: game.clone(),
                seats: table.players.clone(),
                result: stored.to_vec(),
            }),
            _ => None,
        })
    }

    fn audit_finish(&self, published: &TournamentFinished) -> Result<(), Mismatch> {
        let ranking = self.final_ranking().ok_or(TournamentError::WrongPhase(
            "the final table has not been played",
        ))?;
        if ranking != *published {
            return Err(Mismatch::RankingMismatch);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bots::BotKind;
    use crate::rules::{Preset, RuleSpec};
    use crate::shuffle::Seed;
    use crate::tournament::config::ConfigRequest;
    use crate::tournament::event::ResultRecorded;
    use crate::tournament::sim::{FIRST_PLAYER, TournamentSim, simulate};
    use crate::tournament::{Command, Context};

    /// The payload of `$event` (a `&Event` or `&mut Event`), which must be an
    /// `Event::$variant`.
    macro_rules! variant {
        ($event:expr, $variant:ident) => {
            match $event {
                Event::$variant(payload) => payload,
                other => panic!("{} is not {}", other.type_name(), stringify!($variant)),
            }
        };
    }

    /// A whole championship between bots: 16 players, the default format (Swiss
    /// rounds, knockout stages, a final), results entered in all three ways.
    fn championship() -> Vec<Event> {
        let sim = simulate(&TournamentSim {
            rules: RuleSpec {
                preset: "belgian".into(),
                overrides: Default::default(),
            },
            config: ConfigRequest::default(),
            players: 16,
            bot: BotKind::Greedy,
            seed: 7,
        })
        .expect("the simulation runs to the end");
        sim.tournament.events().to_vec()
    }

    /// The index of the first event `pick` accepts (its version is the index + 1).
    fn find(events: &[Event], pick: impl Fn(&Event) -> bool) -> usize {
        events.iter().position(pick).expect("such an event")
    }

    /// `events` with the first event `pick` accepts changed by `edit`; and that event's
    /// index.
    fn changed(
        mut events: Vec<Event>,
        pick: impl Fn(&Event) -> bool,
        edit: impl FnOnce(&mut Event),
    ) -> (Vec<Event>, usize) {
        let at = find(&events, pick);
        edit(&mut events[at]);
        (events, at)
    }

    fn failure(events: &[Event]) -> AuditError {
        audit(events).expect_err("the audit must fail")
    }

    /// The audit of `events` fails at the event of index `at`, with `code`.
    fn fails_at(events: &[Event], at: usize, code: &str) -> AuditError {
        let error = failure(events);
        assert_eq!((error.version, error.code()), (at as u64 + 1, code));
        error
    }

    #[test]
    fn a_clean_championship_passes() {
        let events = championship();
        assert!(
            events
                .iter()
                .filter(|e| matches!(e, Event::RoundDrawn(_)))
                .count()
                >= 3,
            "Swiss and knockout draws are exercised"
        );
        assert_eq!(audit(&events), Ok(events.len() as u64));
    }

    #[test]
    fn online_results_are_handed_to_the_caller() {
        let events = championship();
        let mut audit = Audit::new();
        let mut online = Vec::new();
        for event in &events {
            if let Some(game) = audit.check(event).expect("clean") {
                online.push((audit.version(), game));
            }
        }
        assert!(!online.is_empty());
        for (version, game) in &online {
            let Event::ResultRecorded(recorded) = &events[*version as usize - 1] else {
                panic!("an online result comes from a result event");
            };
            assert_eq!(game.table, recorded.table);
            assert_eq!(game.result, recorded.result);
            assert!(game.game.starts_with("sim-"));
            let seated = audit.state().table(game.table).expect("the table");
            assert_eq!(game.seats, seated.players);
        }
    }

    /// The second qualification round: a Swiss draw, planned from the standings.
    fn is_swiss_draw(event: &Event) -> bool {
        matches!(event, Event::RoundDrawn(d) if d.round == 2)
    }

    #[test]
    fn a_changed_seed_fails_at_its_draw() {
        let (events, at) = changed(championship(), is_swiss_draw, |e| {
            variant!(e, RoundDrawn).seed = Seed([9; 32]);
        });
        let error = fails_at(&events, at, "commitment_mismatch");
        assert_eq!(error.event_type, "round_drawn.v1");
        assert!(
            error
                .to_string()
                .starts_with(&format!("event {} (round_drawn.v1): ", at + 1))
        );
    }

    #[test]
    fn a_new_seed_with_its_own_commitment_is_not_the_one_committed() {
        let (events, at) = changed(championship(), is_swiss_draw, |e| {
            let drawn = variant!(e, RoundDrawn);
            drawn.seed = Seed([9; 32]);
            drawn.commitment = drawn.seed.commitment();
        });
        fails_at(&events, at, "seed_mismatch");

        // Without the published commitment, the flag must say so.
        let mut events = championship();
        let at = find(&events, is_swiss_draw);
        assert!(matches!(events[at - 1], Event::DrawSeedCommitted(_)));
        events.remove(at - 1);
        // The draw is one event earlier now.
        fails_at(&events, at - 1, "precommitted_mismatch");
    }

    #[test]
    fn a_seating_the_seed_does_not_give_fails_at_its_draw() {
        let (events, at) = changed(championship(), is_swiss_draw, |e| {
            let tables = &mut variant!(e, RoundDrawn).tables;
            let first = tables[0][0];
            tables[0][0] = tables[1][0];
            tables[1][0] = first;
        });
        let error = fails_at(&events, at, "draw_mismatch");
        assert_eq!(
            error.mismatch,
            Mismatch::DrawMismatch {
                round: RoundRef { stage: 1, round: 2 },
                differs: "tables"
            }
        );
    }

    #[test]
    fn a_round_drawn_twice_is_refused() {
        let (events, at) = changed(championship(), is_swiss_draw, |e| {
            variant!(e, RoundDrawn).round = 1;
        });
        fails_at(&events, at, "wrong_round");
    }

    #[test]
    fn a_changed_result_fails_where_it_was_recorded() {
        for source in ["game", "paper_rounds", "record"] {
            let (events, at) = changed(
                championship(),
                |e| {
                    matches!(e, Event::ResultRecorded(r)
                        if serde_json::to_value(&r.input).unwrap()["source"] == source)
                },
                |e| variant!(e, ResultRecorded).result[0].total += 1,
            );
            let error = failure(&events);
            assert_eq!(error.version, at as u64 + 1, "{source}");
            assert_eq!(error.code(), "result_mismatch", "{source}");
        }
    }

    #[test]
    fn a_result_naming_someone_else_is_refused() {
        let (events, at) = changed(
            championship(),
            |e| matches!(e, Event::ResultRecorded(r) if matches!(r.input, ResultInput::Game { .. })),
            |e| {
                let recorded = variant!(e, ResultRecorded);
                let ResultInput::Game { standings, .. } = &mut recorded.input else {
                    unreachable!()
                };
                standings[0].player = 1;
                recorded.result = recorded.input.resolve(&Preset::Belgian.rules()).unwrap();
            },
        );
        fails_at(&events, at, "bad_result");
    }

    #[test]
    fn a_result_entered_by_a_player_is_refused() {
        let is_result = |e: &Event| matches!(e, Event::ResultRecorded(_));
        let (events, at) = changed(championship(), is_result, |e| {
            let recorded = variant!(e, ResultRecorded);
            recorded.by = Actor::Account(recorded.result[0].player);
        });
        fails_at(&events, at, "forbidden");
    }

    #[test]
    fn a_changed_ranking_fails_at_the_finish() {
        let mut events = championship();
        let last = events.len() - 1;
        let ranking = &mut variant!(&mut events[last], Finished).ranking;
        let (first, second) = (ranking[0].player, ranking[1].player);
        ranking[0].player = second;
        ranking[1].player = first;
        let error = failure(&events);
        assert_eq!(error.version, events.len() as u64);
        assert_eq!(error.mismatch, Mismatch::RankingMismatch);
    }

    #[test]
    fn the_stream_starts_with_its_creation_and_stops_at_its_end() {
        let events = championship();
        fails_at(&events[1..], 0, "not_created");

        let mut twice = events.clone();
        twice.insert(1, events[0].clone());
        assert_eq!(failure(&twice).code(), "already_created");

        let mut after = events.clone();
        after.push(events[1].clone());
        fails_at(&after, events.len(), "finished");
    }

    const ORGANIZER: AccountId = 1;

    /// Runs `command` as the organizer; it must be accepted.
    fn run(t: &mut Tournament, command: Command) {
        t.execute(&Context::account(ORGANIZER, 0), &command)
            .unwrap_or_else(|e| panic!("{command:?}: {e}"));
    }

    /// 8 players registered and checked in, at tables of 4 for `rounds` qualification
    /// rounds, the qualification started.
    fn qualifying_eight(rounds: u32) -> Tournament {
        let mut t = Tournament::new();
        run(
            &mut t,
            serde_json::from_value(serde_json::json!({
                "command": "create", "name": "Cup", "rules": {"preset": "belgian"},
                "capacity": 8,
                "config": {"qualification_rounds": rounds, "table_min": 4, "table_max": 4},
            }))
            .unwrap(),
        );
        run(&mut t, Command::OpenRegistration);
        for player in 10..18 {
            run(&mut t, Command::Register { player });
            run(&mut t, Command::CheckIn { player });
        }
        run(&mut t, Command::CloseRegistration);
        run(&mut t, Command::StartQualification { seeding: None });
        t
    }

    /// Draws the next round from a seed of `byte`s.
    fn draw(t: &mut Tournament, byte: u8) {
        let seed = Seed([byte; 32]);
        run(t, Command::DrawRound { seed });
    }

    /// Round 1's result at `table`: seat i (counted from the last seat when `reversed`)
    /// finishes i-th with 10 × (i + `shift`) points.
    fn round_one_result(
        t: &Tournament,
        table: u32,
        shift: u32,
        reversed: bool,
    ) -> (TableRef, ResultInput) {
        let at = TableRef {
            stage: 1,
            round: 1,
            table,
        };
        let mut players = t.state().table(at).unwrap().players.clone();
        if reversed {
            players.reverse();
        }
        let standings = (0u32..)
            .zip(&players)
            .map(|(i, &player)| PlayerResult {
                player,
                total: 10 * (i + shift),
                place: i as u8 + 1,
            })
            .collect();
        let input = ResultInput::Game {
            game: None,
            standings,
        };
        (at, input)
    }

    /// Records round 1's results at both tables (see [`round_one_result`]).
    fn record_round_one(t: &mut Tournament, shift: u32) {
        for table in [1, 2] {
            let (at, input) = round_one_result(t, table, shift, false);
            run(
                t,
                Command::RecordResult {
                    table: at,
                    input,
                    reason: None,
                },
            );
        }
    }

    /// Corrects a recorded result.
    fn correct(t: &mut Tournament, (table, input): (TableRef, ResultInput), reason: &str) {
        let reason = reason.into();
        run(
            t,
            Command::CorrectResult {
                table,
                input,
                reason,
            },
        );
    }

    /// 8 players at two tables of 4: round 1 drawn, redrawn, then results recorded,
    /// corrected, voided and recorded again.
    fn redrawn_and_corrected() -> Vec<Event> {
        let mut t = qualifying_eight(1);
        draw(&mut t, 1);
        let round = RoundRef { stage: 1, round: 1 };
        let (seed, reason) = (Seed([2; 32]), "a player came late".into());
        run(
            &mut t,
            Command::RedrawRound {
                round,
                seed,
                reason,
            },
        );
        record_round_one(&mut t, 1);
        let miscounted = round_one_result(&t, 1, 2, false);
        correct(&mut t, miscounted, "a miscounted hand");
        let (at, input) = round_one_result(&t, 2, 3, false);
        let reason = "a marked deck".into();
        run(&mut t, Command::VoidGame { table: at, reason });
        run(
            &mut t,
            Command::RecordResult {
                table: at,
                input,
                reason: None,
            },
        );
        t.events().to_vec()
    }

    /// 8 players, two Swiss rounds at tables of 4: round 1's results, round 2 drawn,
    /// then round 1's table 1 corrected (its order reversed).
    fn corrected_after_a_later_draw() -> Vec<Event> {
        let mut t = qualifying_eight(2);
        draw(&mut t, 3);
        record_round_one(&mut t, 0);
        draw(&mut t, 4);
        let reversed = round_one_result(&t, 1, 0, true);
        correct(&mut t, reversed, "the sheet was read upside down");
        t.events().to_vec()
    }

    fn is_correction(event: &Event) -> bool {
        matches!(event, Event::ResultCorrected(_))
    }

    #[test]
    fn a_correction_flags_exactly_the_later_draws_it_alters() {
        let events = corrected_after_a_later_draw();
        assert_eq!(audit(&events), Ok(events.len() as u64));
        // A round the correction cannot alter (its own), claimed as flagged.
        let (claimed, at) = changed(events.clone(), is_correction, |e| {
            let own = RoundRef { stage: 1, round: 1 };
            variant!(e, ResultCorrected).flagged.push(own);
        });
        fails_at(&claimed, at, "flags_mismatch");
        // Round 2 was seated from the standings the correction changes: hiding its flag
        // is caught too.
        let honest = variant!(&events[at], ResultCorrected);
        assert_eq!(honest.flagged, [RoundRef { stage: 1, round: 2 }]);
        let (hidden, _) = changed(events, is_correction, |e| {
            variant!(e, ResultCorrected).flagged.clear();
        });
        assert_eq!(audit(&hidden).unwrap_err().code(), "flags_mismatch");
    }

    #[test]
    fn a_players_order_is_their_index_plus_one() {
        // docs/verification.md 12: "The event's `order` field is always index + 1".
        let events = redrawn_and_corrected();
        let registered = |e: &Event| matches!(e, Event::PlayerRegistered(_));
        let second = events
            .iter()
            .enumerate()
            .filter(|(_, e)| registered(e))
            .nth(1)
            .map(|(at, _)| at)
            .expect("two registrations");
        assert_eq!(variant!(&events[second], PlayerRegistered).order, 2);
        for forged in [1, 3] {
            let mut edited = events.clone();
            variant!(&mut edited[second], PlayerRegistered).order = forged;
            let error = fails_at(&edited, second, "player_order");
            assert!(error.to_string().contains("player 2"), "{error}");
        }
    }

    #[test]
    fn redraws_corrections_and_voids_pass() {
        let events = redrawn_and_corrected();
        assert_eq!(audit(&events), Ok(events.len() as u64));
    }

    #[test]
    fn a_redraw_is_planned_again_from_its_own_seed() {
        let (events, redraw) = changed(
            redrawn_and_corrected(),
            |e| matches!(e, Event::RoundRedrawn(_)),
            |e| variant!(e, RoundRedrawn).tables.swap(0, 1),
        );
        fails_at(&events, redraw, "draw_mismatch");
    }

    #[test]
    fn a_changed_correction_fails_where_it_was_entered() {
        let (events, at) = changed(redrawn_and_corrected(), is_correction, |e| {
            variant!(e, ResultCorrected).result.swap(0, 1);
        });
        fails_at(&events, at, "result_mismatch");
    }

    #[test]
    fn a_result_needs_the_table_without_one_and_a_correction_with_one() {
        let (events, at) = changed(redrawn_and_corrected(), is_correction, |e| {
            let corrected = variant!(e, ResultCorrected).clone();
            *e = Event::ResultRecorded(ResultRecorded {
                table: corrected.table,
                input: corrected.input,
                result: corrected.result,
                by: corrected.by,
                flagged: corrected.flagged,
                reason: None,
            });
        });
        fails_at(&events, at, "result_already_recorded");
    }

    #[test]
    fn stages_start_in_order_and_drop_who_did_not_check_in() {
        let (events, _) = changed(
            championship(),
            |e| matches!(e, Event::StageStarted(_)),
            |e| variant!(e, StageStarted).dropped.push(FIRST_PLAYER),
        );
        assert_eq!(failure(&events).code(), "dropped_mismatch");

        let (events, at) = changed(
            championship(),
            |e| matches!(e, Event::StageStarted(s) if s.stage == 2),
            |e| variant!(e, StageStarted).stage = 3,
        );
        fails_at(&events, at, "wrong_stage");
    }
}
