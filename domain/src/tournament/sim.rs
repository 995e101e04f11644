//! Whole tournaments between bots, in pure domain code: for tests, load and the
//! benchmark. Every table's game is a real engine game ([`crate::sim::Simulator`]), and
//! its result enters the tournament in one of the three ways TOURNAMENT.md names, in
//! turn: the online game's standings, the paper sheet round by round (`paper.rs`), or the
//! exported game record (replayed by `record::replay`).
//!
//! Everything follows from one `u64` seed: draw seeds and game seeds are successive
//! outputs of a [`SplitMix64`] started at it.

use crate::bots::BotKind;
use crate::game::Event as GameEvent;
use crate::record::export;
use crate::rules::RuleSpec;
use crate::sim::{SimOptions, Simulator, SplitMix64, make_bots};

use super::Tournament;
use super::command::Command;
use super::config::ConfigRequest;
use super::event::RegistrationWindow;
use super::paper::paper_rounds;
use super::refs::{AccountId, Context, TableRef};
use super::result::ResultInput;

/// What to simulate.
#[derive(Debug, Clone)]
pub struct TournamentSim {
    pub rules: RuleSpec,
    pub config: ConfigRequest,
    pub players: usize,
    pub bot: BotKind,
    pub seed: u64,
}

/// The organizer's account in simulations; players are `FIRST_PLAYER`, `FIRST_PLAYER + 1`,
/// ... in registration order.
pub const ORGANIZER: AccountId = 1;
pub const FIRST_PLAYER: AccountId = 1000;

/// One game played at one table.
#[derive(Debug, Clone)]
pub struct PlayedGame {
    pub table: TableRef,
    /// The account at each seat.
    pub seats: Vec<AccountId>,
    /// The game's events.
    pub events: Vec<GameEvent>,
    /// How its result was entered.
    pub input: ResultInput,
}

/// A finished simulated tournament.
#[derive(Debug, Clone)]
pub struct SimulatedTournament {
    pub tournament: Tournament,
    pub games: Vec<PlayedGame>,
}

/// Plays a whole tournament from creation to the published ranking.
pub fn simulate(sim: &TournamentSim) -> Result<SimulatedTournament, String> {
    let mut t = Tournament::new();
    let mut random = SplitMix64::new(sim.seed);
    let organizer = Context::account(ORGANIZER, 0);
    let server = Context::server(0);
    let run = |t: &mut Tournament, ctx: &Context, command: Command| {
        t.execute(ctx, &command)
            .map(|_| ())
            .map_err(|e| format!("{command:?} refused: {} ({e})", e.code()))
    };
    run(
        &mut t,
        &organizer,
        Command::Create {
            name: "Simulated championship".into(),
            rules: sim.rules.clone(),
            capacity: sim.players as u32,
            registration_window: RegistrationWindow::default(),
            config: sim.config.clone(),
        },
    )?;
    run(&mut t, &organizer, Command::OpenRegistration)?;
    for i in 0..sim.players {
        let player = FIRST_PLAYER + i as AccountId;
        let own = Context::account(player, 0);
        run(&mut t, &own, Command::Register { player })?;
        run(&mut t, &own, Command::CheckIn { player })?;
    }
    run(&mut t, &organizer, Command::CloseRegistration)?;
    run(
        &mut t,
        &organizer,
        Command::StartQualification { seeding: None },
    )?;
    let rules = t.rules().cloned().ok_or("no rules")?;
    let mut simulator = Simulator::new(SimOptions {
        record: true,
        ..SimOptions::default()
    });
    let mut games = Vec::new();
    loop {
        let seed = random.next_seed();
        run(
            &mut t,
            &organizer,
            Command::CommitDrawSeed {
                commitment: seed.commitment(),
            },
        )?;
        run(&mut t, &organizer, Command::DrawRound { seed })?;
        let (stage, round) = {
            let s = t.state().current_stage().ok_or("no stage")?;
            (s.number, s.rounds.len() as u32)
        };
        let tables = t
            .state()
            .current_stage()
            .and_then(|s| s.rounds.last())
            .map(|r| r.tables.clone())
            .unwrap_or_default();
        for (k, table) in tables.iter().enumerate() {
            let at = TableRef {
                stage,
                round,
                table: k as u32 + 1,
            };
            let game_seed = random.next_u64();
            let mut bots = make_bots(sim.bot, table.players.len(), game_seed);
            let summary = simulator
                .play(&rules, table.players.len(), game_seed, &mut bots)
                .map_err(|e| format!("{at}: {e}"))?;
            let events = summary.log.unwrap_or_default();
            let seats = table.players.clone();
            let input = match games.len() % 3 {
                0 => ResultInput::Game {
                    game: Some(format!("sim-{game_seed:016x}")),
                    standings: summary
                        .standings
                        .iter()
                        .map(|s| super::event::PlayerResult {
                            player: seats[s.seat as usize],
                            total: s.total,
                            place: s.place,
                        })
                        .collect(),
                },
                1 => ResultInput::PaperRounds {
                    seats: seats.clone(),
                    rounds: paper_rounds(&events),
                },
                _ => ResultInput::Record {
                    seats: seats.clone(),
                    record: export(&events).map_err(|e| format!("{at}: {e}"))?,
                },
            };
            run(
                &mut t,
                &server,
                Command::StartTableGame {
                    table: at,
                    game: None,
                },
            )?;
            run(
                &mut t,
                &server,
                Command::RecordResult {
                    reason: None,
                    table: at,
                    input: input.clone(),
                },
            )?;
            games.push(PlayedGame {
                table: at,
                seats,
                events,
                input,
            });
        }
        let state = t.state();
        if state.final_round().is_some() {
            break;
        }
        let config = state.config().ok_or("no config")?;
        let stage_done = state.current_stage().is_some_and(|s| {
            s.kind == super::refs::StageKind::Knockout
                || s.rounds.len() as u32 >= config.qualification_rounds
        });
        if stage_done {
            run(&mut t, &organizer, Command::AdvanceStage)?;
        }
    }
    run(&mut t, &organizer, Command::Finish)?;
    Ok(SimulatedTournament {
        tournament: t,
        games,
    })
}
