//! `yaniv simulate --preset P --players N --games G --seed S [--bot random|greedy]`
//!
//! Plays `G` games of bots on one thread and prints a JSON summary on stdout. Game `i`
//! (from 0) is played from `sim::game_seed(S, i)`, each seat's bot from
//! `sim::seat_seed(game seed, seat)` (see `domain/src/sim.rs`), so the same arguments
//! always print the same counts. A progress bar is drawn on stderr only when stderr is a
//! terminal, at most ten times a second.

use std::io::{IsTerminal, Write};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use serde_json::json;
use yaniv_domain::bots::BotKind;
use yaniv_domain::rules::{PRESET_NAMES, Preset};
use yaniv_domain::sim::{OutcomeCounts, SimOptions, Simulator, game_seed, make_bots};

use crate::args::Args;

/// The validated arguments.
#[derive(Debug, PartialEq)]
struct Options {
    preset: Preset,
    players: usize,
    games: u64,
    seed: u64,
    bot: BotKind,
}

fn options(args: &[String]) -> Result<Options, String> {
    let args = Args::parse(args, &["preset", "players", "games", "seed", "bot"])?;
    if let Some(extra) = args.positional.first() {
        return Err(format!("unexpected argument {extra:?}"));
    }
    let preset_name: String = args.require("preset")?;
    let preset: Preset = preset_name.parse().map_err(|_| {
        format!(
            "--preset {preset_name:?}: expected one of {}",
            PRESET_NAMES.join(", ")
        )
    })?;
    let rules = preset.rules();
    let players: usize = args.require("players")?;
    if players < rules.min_players as usize || players > rules.max_players as usize {
        return Err(format!(
            "--players {players}: the {preset} preset seats {} to {} players",
            rules.min_players, rules.max_players
        ));
    }
    let games: u64 = args.require("games")?;
    if games == 0 {
        return Err("--games must be at least 1".into());
    }
    let seed: u64 = args.require("seed")?;
    let bot: BotKind = args.get("bot")?.unwrap_or(BotKind::Random);
    Ok(Options {
        preset,
        players,
        games,
        seed,
        bot,
    })
}

pub fn run(args: &[String]) -> Result<ExitCode, String> {
    let Options {
        preset,
        players,
        games,
        seed,
        bot,
    } = options(args)?;
    let rules = preset.rules();

    let mut progress = Progress::new(games);
    let mut simulator = Simulator::new(SimOptions::default());
    let mut rounds = 0u64;
    let mut turns = 0u64;
    let mut calls = 0u64;
    let mut slaps = 0u64;
    let mut add_ons = 0u64;
    let mut events = 0u64;
    let mut outcomes = OutcomeCounts::default();
    let mut wins = vec![0u64; players];
    let mut shared_wins = 0u64;
    let started = Instant::now();
    for index in 0..games {
        let seed = game_seed(seed, index);
        let mut bots = make_bots(bot, players, seed);
        let summary = simulator
            .play(&rules, players, seed, &mut bots)
            .map_err(|e| format!("game {index} (seed {seed}): {e}"))?;
        rounds += summary.rounds;
        turns += summary.turns;
        calls += summary.calls;
        slaps += summary.slaps;
        add_ons += summary.add_ons;
        events += summary.events;
        outcomes.merge(&summary.outcomes);
        for &seat in &summary.winners {
            wins[seat as usize] += 1;
        }
        if summary.winners.len() > 1 {
            shared_wins += 1;
        }
        progress.update(index + 1, turns);
    }
    let elapsed = started.elapsed().as_secs_f64();
    progress.finish();
    let summary = json!({
        "preset": preset.name(),
        "players": players,
        "bot": bot.name(),
        "seed": seed,
        "games": games,
        "rounds": rounds,
        "turns": turns,
        "calls": calls,
        "slaps": slaps,
        "add_ons": add_ons,
        "events": events,
        "outcomes": outcomes,
        "wins_by_seat": wins,
        "games_with_tied_winners": shared_wins,
        "elapsed_seconds": elapsed,
        "turns_per_second": if elapsed > 0.0 { turns as f64 / elapsed } else { 0.0 },
    });
    let text = serde_json::to_string_pretty(&summary).map_err(|e| e.to_string())?;
    println!("{text}");
    Ok(ExitCode::SUCCESS)
}

/// A one-line progress bar on stderr, drawn only on a terminal.
struct Progress {
    enabled: bool,
    total: u64,
    started: Instant,
    last_draw: Option<Instant>,
}

impl Progress {
    const INTERVAL: Duration = Duration::from_millis(100);
    const WIDTH: u64 = 30;

    fn new(total: u64) -> Progress {
        Progress {
            enabled: std::io::stderr().is_terminal(),
            total,
            started: Instant::now(),
            last_draw: None,
        }
    }

    fn update(&mut self, done: u64, turns: u64) {
        if !self.enabled {
            return;
        }
        let now = Instant::now();
        if self
            .last_draw
            .is_some_and(|t| now.duration_since(t) < Self::INTERVAL)
            && done < self.total
        {
            return;
        }
        self.last_draw = Some(now);
        let filled = (done * Self::WIDTH / self.total.max(1)) as usize;
        let secs = now.duration_since(self.started).as_secs_f64();
        let rate = if secs > 0.0 { turns as f64 / secs } else { 0.0 };
        let bar = format!(
            "{}{}",
            "#".repeat(filled),
            "-".repeat(Self::WIDTH as usize - filled)
        );
        let mut err = std::io::stderr().lock();
        let _ = write!(
            err,
            "\r[{bar}] {done}/{} games, {rate:.0} turns/s",
            self.total
        );
        let _ = err.flush();
    }

    fn finish(&self) {
        if self.enabled && self.last_draw.is_some() {
            let _ = writeln!(std::io::stderr());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(line: &str) -> Result<Options, String> {
        options(
            &line
                .split_whitespace()
                .map(String::from)
                .collect::<Vec<_>>(),
        )
    }

    #[test]
    fn valid_arguments() {
        let o =
            parse("--preset belgian --players 8 --games 3 --seed 9 --bot greedy").expect("valid");
        assert_eq!(
            o,
            Options {
                preset: Preset::Belgian,
                players: 8,
                games: 3,
                seed: 9,
                bot: BotKind::Greedy
            }
        );
        assert_eq!(
            parse("--preset israeli --players 2 --games 1 --seed 0").map(|o| o.bot),
            Ok(BotKind::Random)
        );
    }

    #[test]
    fn clear_errors() {
        let error = |line| parse(line).expect_err("invalid");
        assert!(
            error("--preset dutch --players 4 --games 1 --seed 1")
                .contains("expected one of israeli, nepali")
        );
        assert!(
            error("--preset israeli --players 9 --games 1 --seed 1")
                .contains("seats 2 to 8 players")
        );
        assert!(
            error("--preset israeli --players 1 --games 1 --seed 1")
                .contains("seats 2 to 8 players")
        );
        assert!(error("--preset israeli --players 4 --games 0 --seed 1").contains("at least 1"));
        assert!(error("--preset israeli --players 4 --games 1").contains("--seed is required"));
        assert!(error("--preset israeli --players 4 --games 1 --seed -3").contains("--seed"));
        assert!(
            error("--preset israeli --players 4 --games 1 --seed 1 --bot smart")
                .contains("random or greedy")
        );
        assert!(
            error("--preset israeli --players 4 --games 1 --seed 1 --speed 3")
                .contains("unknown option")
        );
    }
}
