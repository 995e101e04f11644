//! Whole games between bots, for tests, the `yaniv simulate` command and benchmarks.
//!
//! # Seeds
//!
//! Everything random in a game follows from one `u64` seed through [`SplitMix64`]
//! (Steele, Lea and Flood 2014; the generator `java.util.SplittableRandom` uses):
//!
//! 1. the first output, modulo the number of players, is the starter of round 1 (the bias
//!    is below `players / 2^64`);
//! 2. every round then takes the next four outputs, each written as 8 bytes little-endian
//!    one after the other, as its 32-byte deal [`Seed`] (`chacha20-fisher-yates/1`, see
//!    `docs/shuffle.md`).
//!
//! The bots bring their own randomness. [`seat_seed`] derives one `u64` per seat from the
//! game seed for drivers that need one ([`BotKind::make`]), so `(preset, players, seed,
//! bot kind)` fixes a whole simulated game.
//!
//! # The turn loop
//!
//! [`crate::bots::turn_loop`], the loop a server table runs too: deal when a round is
//! due, ask the bot of the seat that must act, offer the out-of-turn window after every
//! throw. A command the rules refuse ends the simulation with [`SimError::Refused`]:
//! bots must only send legal commands.

use serde::Serialize;

use crate::bots::turn_loop::{self, LoopError, SeatPlayer};
use crate::bots::{AnyBot, Bot, BotKind};
use crate::game::{Command, DealSource, Event, Game, GameError, Outcome, Seat, Standing};
use crate::rules::Rules;
use crate::shuffle::Seed;

/// SplitMix64: a tiny, fast generator with a 64-bit state; every seed gives a full-period
/// stream of well-mixed outputs.
#[derive(Debug, Clone)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    pub fn new(seed: u64) -> SplitMix64 {
        SplitMix64 { state: seed }
    }

    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A 32-byte deal seed: the next four outputs, little-endian, in order.
    pub fn next_seed(&mut self) -> Seed {
        let mut bytes = [0u8; 32];
        for chunk in bytes.chunks_exact_mut(8) {
            chunk.copy_from_slice(&self.next_u64().to_le_bytes());
        }
        Seed(bytes)
    }
}

/// The seed of the bot at `seat` in the game played from `game_seed`: output `seat` (from
/// 0) of a SplitMix64 started at `game_seed` XOR `0xB075_B075_B075_B075`, a stream apart
/// from the one that deals.
pub fn seat_seed(game_seed: u64, seat: Seat) -> u64 {
    let mut stream = SplitMix64::new(game_seed ^ 0xB075_B075_B075_B075);
    (0..seat).for_each(|_| {
        stream.next_u64();
    });
    stream.next_u64()
}

/// The seed of game `index` (from 0) of a series started from `series_seed`: output
/// `index` of a SplitMix64 started at `series_seed`.
pub fn game_seed(series_seed: u64, index: u64) -> u64 {
    // SplitMix64 steps by a constant, so output `index` is reached without the ones before.
    SplitMix64::new(series_seed.wrapping_add(index.wrapping_mul(0x9E37_79B9_7F4A_7C15))).next_u64()
}

/// One bot of `kind` per seat, seeded with [`seat_seed`].
pub fn make_bots(kind: BotKind, players: usize, game_seed: u64) -> Vec<AnyBot> {
    (0..players)
        .map(|s| kind.make(seat_seed(game_seed, s as Seat)))
        .collect()
}

/// How many rounds ended each way.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct OutcomeCounts {
    pub yaniv: u64,
    pub assaf: u64,
    pub false_call: u64,
    pub empty_hand: u64,
    pub kluft: u64,
    pub onderkluft: u64,
}

impl OutcomeCounts {
    pub fn add(&mut self, outcome: Outcome) {
        *self.slot(outcome) += 1;
    }

    pub fn get(&self, outcome: Outcome) -> u64 {
        match outcome {
            Outcome::Yaniv => self.yaniv,
            Outcome::Assaf => self.assaf,
            Outcome::FalseCall => self.false_call,
            Outcome::EmptyHand => self.empty_hand,
            Outcome::Kluft => self.kluft,
            Outcome::Onderkluft => self.onderkluft,
        }
    }

    fn slot(&mut self, outcome: Outcome) -> &mut u64 {
        match outcome {
            Outcome::Yaniv => &mut self.yaniv,
            Outcome::Assaf => &mut self.assaf,
            Outcome::FalseCall => &mut self.false_call,
            Outcome::EmptyHand => &mut self.empty_hand,
            Outcome::Kluft => &mut self.kluft,
            Outcome::Onderkluft => &mut self.onderkluft,
        }
    }

    pub fn merge(&mut self, other: &OutcomeCounts) {
        self.yaniv += other.yaniv;
        self.assaf += other.assaf;
        self.false_call += other.false_call;
        self.empty_hand += other.empty_hand;
        self.kluft += other.kluft;
        self.onderkluft += other.onderkluft;
    }

    pub fn total(&self) -> u64 {
        self.yaniv + self.assaf + self.false_call + self.empty_hand + self.kluft + self.onderkluft
    }
}

/// What happened in one simulated game.
#[derive(Debug, Clone, PartialEq)]
pub struct GameSummary {
    pub seed: u64,
    pub players: usize,
    pub rounds: u64,
    /// Turns played: throws with their draw (`turn_played` events).
    pub turns: u64,
    pub calls: u64,
    pub slaps: u64,
    pub add_ons: u64,
    /// Going-along and Onderkluft declarations.
    pub declarations: u64,
    pub reshuffles: u64,
    /// Events produced, all kinds.
    pub events: u64,
    /// Commands decided (every bot action, deals and the creation).
    pub commands: u64,
    pub outcomes: OutcomeCounts,
    pub totals: Vec<u32>,
    pub standings: Vec<Standing>,
    /// Seats in first place (several when tied).
    pub winners: Vec<Seat>,
    /// Every event, when recording was asked for.
    pub log: Option<Vec<Event>>,
}

/// Why a simulated game stopped before its end.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SimError {
    #[error("the table cannot be set: {0}")]
    Setup(GameError),
    #[error("seat {seat} had to act but its bot returned nothing (after {events} events)")]
    NoAction { seat: Seat, events: u64 },
    #[error("the rules refused {command:?} (after {events} events): {error}")]
    Refused {
        command: Box<Command>,
        error: GameError,
        events: u64,
    },
    #[error("the game did not end within {0} commands")]
    TooLong(u64),
}

/// Options of a [`Simulator`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SimOptions {
    /// Keep every event in [`GameSummary::log`].
    pub record: bool,
    /// Give up (with [`SimError::TooLong`]) after this many commands.
    pub max_commands: u64,
}

impl Default for SimOptions {
    fn default() -> Self {
        SimOptions {
            record: false,
            max_commands: 2_000_000,
        }
    }
}

/// Plays games; keeps its buffers from one game to the next.
#[derive(Debug, Default)]
pub struct Simulator {
    pub options: SimOptions,
    events: Vec<Event>,
}

/// Plays one game from `seed` with `bots[seat]` at each seat (see the module docs).
pub fn play_game<B: Bot>(
    rules: &Rules,
    players: usize,
    seed: u64,
    bots: &mut [B],
) -> Result<GameSummary, SimError> {
    Simulator::default().play(rules, players, seed, bots)
}

/// Player names of simulated games: `bot0`, `bot1`, ...
pub fn player_names(players: usize) -> Vec<String> {
    (0..players).map(|s| format!("bot{s}")).collect()
}

/// The simulator's side of the shared bot loop ([`turn_loop`]): every seat is a bot,
/// deals follow from the game's seed, and every event is counted (and kept when asked).
struct Run<'b, B, O> {
    bots: &'b mut [B],
    deals: SplitMix64,
    first_starter: Seat,
    summary: GameSummary,
    observe: O,
    record: bool,
    max_commands: u64,
    buffer: &'b mut Vec<Event>,
}

impl<B: Bot, O: FnMut(&Game, &Event)> turn_loop::TurnLoop for Run<'_, B, O> {
    type Bot = B;
    type Error = SimError;

    fn player(&mut self, seat: Seat) -> SeatPlayer<'_, B> {
        // `play_observed` checked that every seat has a bot.
        self.bots
            .get_mut(seat as usize)
            .map_or(SeatPlayer::Human, SeatPlayer::Bot)
    }

    fn deal(&mut self, game: &Game) -> Result<Option<Command>, SimError> {
        let starter = (game.round_number() == 0).then_some(self.first_starter);
        Ok(Some(Command::Deal {
            starter,
            source: DealSource::Seeded(self.deals.next_seed()),
        }))
    }

    /// Decides `command` and folds its events.
    fn execute(&mut self, game: &mut Game, command: &Command) -> Result<(), SimError> {
        self.summary.commands += 1;
        if self.summary.commands > self.max_commands {
            return Err(SimError::TooLong(self.max_commands));
        }
        let buffer = &mut *self.buffer;
        buffer.clear();
        game.decide_into(command, buffer)
            .map_err(|error| SimError::Refused {
                command: Box::new(command.clone()),
                error,
                events: self.summary.events,
            })?;
        for event in buffer.iter() {
            game.apply(event);
            let s = &mut self.summary;
            s.events += 1;
            match event {
                Event::TurnPlayed(_) => s.turns += 1,
                Event::Called(_) => s.calls += 1,
                Event::SlappedDown(_) => s.slaps += 1,
                Event::AddedOn(_) => s.add_ons += 1,
                Event::WentAlong(_) | Event::OnderkluftDeclared(_) => s.declarations += 1,
                Event::StockReshuffled(_) => s.reshuffles += 1,
                Event::RoundEnded(e) => {
                    s.rounds += 1;
                    s.outcomes.add(e.outcome);
                }
                Event::GameCreated(_)
                | Event::RoundDealt(_)
                | Event::GameFinished(_)
                | Event::HandsShown(_)
                | Event::ForcedToDraw(_)
                | Event::PinataSetAside(_)
                | Event::PinataTaken(_)
                | Event::HandsRedealt(_)
                | Event::QueenSwapped(_)
                | Event::WaterfallStarted(_)
                | Event::WaterfallPicked(_)
                | Event::PileKilled(_) => {}
            }
            (self.observe)(game, event);
        }
        if self.record {
            self.summary
                .log
                .get_or_insert_with(Vec::new)
                .extend(buffer.iter().cloned());
        }
        Ok(())
    }
}

impl Simulator {
    pub fn new(options: SimOptions) -> Simulator {
        Simulator {
            options,
            events: Vec::new(),
        }
    }

    /// Plays one game from `seed` with `bots[seat]` at each seat.
    pub fn play<B: Bot>(
        &mut self,
        rules: &Rules,
        players: usize,
        seed: u64,
        bots: &mut [B],
    ) -> Result<GameSummary, SimError> {
        self.play_observed(rules, players, seed, bots, |_, _| {})
    }

    /// [`Simulator::play`], calling `observe` with the game after each event is folded.
    pub fn play_observed<B: Bot>(
        &mut self,
        rules: &Rules,
        players: usize,
        seed: u64,
        bots: &mut [B],
        observe: impl FnMut(&Game, &Event),
    ) -> Result<GameSummary, SimError> {
        if bots.len() < players {
            return Err(SimError::Setup(GameError::BadPlayers(format!(
                "{} bots for {players} players",
                bots.len()
            ))));
        }
        let mut deals = SplitMix64::new(seed);
        let first_starter = (deals.next_u64() % players as u64) as Seat;
        let mut run = Run {
            bots,
            deals,
            first_starter,
            summary: GameSummary {
                seed,
                players,
                rounds: 0,
                turns: 0,
                calls: 0,
                slaps: 0,
                add_ons: 0,
                declarations: 0,
                reshuffles: 0,
                events: 0,
                commands: 0,
                outcomes: OutcomeCounts::default(),
                totals: Vec::new(),
                standings: Vec::new(),
                winners: Vec::new(),
                log: None,
            },
            observe,
            record: self.options.record,
            max_commands: self.options.max_commands,
            buffer: &mut self.events,
        };
        let mut game = Game::new();
        let create = Command::Create {
            rules: rules.clone(),
            players: player_names(players),
            initial_totals: Vec::new(),
        };
        turn_loop::TurnLoop::execute(&mut run, &mut game, &create).map_err(|e| match e {
            SimError::Refused { error, .. } => SimError::Setup(error),
            other => other,
        })?;
        let events = |run: &Run<'_, B, _>| run.summary.events;
        match turn_loop::run(&mut game, &mut run) {
            Ok(_) => {}
            Err(LoopError::Driver(error)) => return Err(error),
            Err(LoopError::NoAction { seat }) => {
                return Err(SimError::NoAction {
                    seat,
                    events: events(&run),
                });
            }
            Err(LoopError::NobodyToAct) => {
                return Err(SimError::NoAction {
                    seat: 0,
                    events: events(&run),
                });
            }
        }
        let mut summary = run.summary;
        summary.totals = game.totals().to_vec();
        summary.standings = game.standings();
        summary.winners = summary
            .standings
            .iter()
            .filter(|s| s.place == 1)
            .map(|s| s.seat)
            .collect();
        Ok(summary)
    }
}

/// The events of a whole game of `kind` bots under `rules`, for the tests of what reads
/// a game's events (exports, positions, piles, diffs).
#[cfg(test)]
pub(crate) fn bots_game(
    kind: BotKind,
    rules: &crate::rules::Rules,
    players: usize,
    seed: u64,
) -> Vec<crate::game::Event> {
    let mut simulator = Simulator::new(SimOptions {
        record: true,
        ..SimOptions::default()
    });
    let mut bots = make_bots(kind, players, seed);
    let summary = simulator
        .play(rules, players, seed, &mut bots)
        .expect("the bots finish");
    summary.log.expect("recorded")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Preset;

    #[test]
    fn splitmix64_matches_the_reference_outputs() {
        // The reference implementation (Vigna, splitmix64.c) seeded with 0.
        let mut g = SplitMix64::new(0);
        assert_eq!(g.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(g.next_u64(), 0x6E78_9E6A_A1B9_65F4);
        assert_eq!(g.next_u64(), 0x06C4_5D18_8009_454F);
    }

    #[test]
    fn a_deal_seed_is_four_outputs_little_endian() {
        let mut a = SplitMix64::new(9);
        let mut b = SplitMix64::new(9);
        let seed = a.next_seed();
        let words: Vec<u8> = (0..4).flat_map(|_| b.next_u64().to_le_bytes()).collect();
        assert_eq!(seed.0.as_slice(), words.as_slice());
    }

    #[test]
    fn game_seeds_are_the_outputs_of_the_series_generator() {
        let mut series = SplitMix64::new(123);
        for index in 0..5 {
            assert_eq!(game_seed(123, index), series.next_u64());
        }
        assert_ne!(seat_seed(5, 0), seat_seed(5, 1));
    }

    #[test]
    fn play_game_plays_to_the_end_and_counts() {
        let rules = Preset::Israeli.rules();
        let mut bots = make_bots(BotKind::Random, 3, 11);
        let summary = play_game(&rules, 3, 11, &mut bots).expect("a whole game");
        assert!(summary.rounds >= 1 && summary.turns > 0);
        assert_eq!(summary.outcomes.total(), summary.rounds);
        assert_eq!(summary.winners.len(), 1);
        assert_eq!(summary.log, None);
    }

    #[test]
    fn too_few_bots_is_an_error() {
        let rules = Preset::Israeli.rules();
        let mut bots = make_bots(BotKind::Random, 2, 1);
        assert!(matches!(
            play_game(&rules, 3, 1, &mut bots),
            Err(SimError::Setup(_))
        ));
    }
}
