//! Championship tournaments (described in `docs/tournaments.md`): a tournament is an event stream of its own, decided and folded
//! like a game. No I/O, no clock: the caller passes who acts and `now` in a
//! [`Context`].
//!
//! A tour, in the order a newcomer reads it:
//!
//! - `refs.rs`: accounts, actors, [`Context`], and the addresses of stages, rounds and
//!   tables ([`RoundRef`], [`TableRef`], all numbered from 1).
//! - `config.rs`: the format's parameters and their defaults ([`ConfigRequest`] in,
//!   effective [`Config`] stored), tie-breaks.
//! - `command.rs` / `event.rs` / `error.rs`: what comes in ([`Command`]), what is stored
//!   ([`Event`], versioned `type` tags such as `round_drawn.v1`), what is refused
//!   ([`TournamentError`], stable codes).
//! - `state.rs`: the fold ([`State`]); `decide/`: [`Tournament::decide`], one file per
//!   concern.
//! - `seating/`: table sizes, the random first round, Swiss rounds, knockout snake
//!   seeding, all from a committed seed (`tournament-draw/1`).
//! - `table_points.rs`: exact table points and score differences (840ths of a point).
//! - `standings.rs`: tie-break ordering and shared places; `ranking.rs`: qualification
//!   standings, knockout seeds and the final ranking from the folded state.
//! - `result.rs`: a table's result from an online game, a paper sheet round by round
//!   (`paper.rs` scores it) or a full game record.
//! - `view.rs`: read models for the API (phase, bracket, players).
//! - `sim.rs`: whole tournaments between bots, for tests, load and benchmarks.
//!
//! The usual loop of the API: load the events, [`Tournament::from_events`], then
//! [`Tournament::decide`] the request's command with its [`Context`], append the events,
//! [`Tournament::apply`] them.

mod aggregate;
pub mod audit;
mod command;
mod config;
mod decide;
mod error;
mod event;
mod interventions;
mod paper;
mod ranking;
mod refs;
mod result;
pub mod season_scale;
pub mod seating;
pub mod sim;
mod standings;
mod state;
mod table_points;
mod view;

pub use command::{Command, MAX_NAME_LEN, MAX_TEXT_LEN};
pub use config::{
    AbsentScoring, Config, ConfigRequest, DEFAULT_REDRAWS_PER_ROUND, DEFAULT_TIE_BREAKS,
    KnockoutCut, MAX_REDRAWS_PER_ROUND, Seeding, TieBreak,
};
pub use decide::MAX_CAPACITY;
pub use error::{Role, TournamentError};
pub use event::*;
pub use interventions::{Intervention, InterventionKind};
pub use paper::{
    PaperEnding, PaperGame, PaperRound, PaperRoundScore, PaperSheetCheck, PaperSheetError,
    check_paper_sheet, paper_rounds, score_paper_game,
};
pub use refs::{AccountId, Actor, Context, Roles, RoundRef, StageKind, TableRef, Timestamp};
pub use result::ResultInput;
pub use standings::{PlayerStats, StandingsRow, compare, rank, seeding_order};
pub use state::{Dispute, Info, Player, Registration, Round, Stage, State, Table};
pub use table_points::{
    Points, SCALE, ScoreDifference, place_points, score_differences, table_points,
};
pub use view::{
    OwnResult, OwnView, Phase, PlayerView, ResultLine, RoundView, SeatView, StageView, TableView,
    TournamentView,
};

/// A tournament: its events and what they fold to.
#[derive(Debug, Clone, Default)]
pub struct Tournament {
    /// Every event so far, in order: a correction re-runs past draws on them
    /// (`decide/flags.rs`).
    log: Vec<Event>,
    state: State,
}

impl Tournament {
    pub fn new() -> Tournament {
        Tournament::default()
    }

    /// Folds trusted events (read back from our own store).
    pub fn from_events<'a>(events: impl IntoIterator<Item = &'a Event>) -> Tournament {
        let mut t = Tournament::new();
        for e in events {
            t.apply(e);
        }
        t
    }

    /// Folds one event.
    pub fn apply(&mut self, event: &Event) {
        self.state.apply(event);
        self.log.push(event.clone());
    }

    /// Decides and applies `command`, returning the events it produced.
    pub fn execute(
        &mut self,
        ctx: &Context,
        command: &Command,
    ) -> Result<Vec<Event>, TournamentError> {
        let events = self.decide(ctx, command)?;
        for e in &events {
            self.apply(e);
        }
        Ok(events)
    }

    /// The events folded so far.
    pub fn events(&self) -> &[Event] {
        &self.log
    }

    /// Number of events folded: the stream version.
    pub fn version(&self) -> u64 {
        self.log.len() as u64
    }

    /// The folded state (read-only).
    pub fn state(&self) -> &State {
        &self.state
    }

    /// The rules every game of the tournament is played with.
    pub fn rules(&self) -> Option<&crate::rules::Rules> {
        self.state.info.as_ref().map(|i| &i.effective_rules)
    }

    pub fn view(&self) -> Option<TournamentView> {
        self.state.view()
    }

    /// The qualification standings now (computed from the results in force).
    pub fn standings(&self) -> Vec<StandingsRow> {
        self.state.qualification_standings()
    }

    pub fn stages(&self) -> Vec<StageView> {
        self.state.stage_views()
    }

    /// The published final ranking, once finished; before that, the ranking the results
    /// would give if the final table has been played.
    pub fn ranking(&self) -> Option<TournamentFinished> {
        self.state
            .finished
            .clone()
            .or_else(|| self.state.final_ranking())
    }
}
