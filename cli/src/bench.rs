//! `yaniv bench [--seconds S]`: measures the engine on one thread and prints a table, then
//! the same figures as JSON.
//!
//! 1. Random-bot turns per second: whole games (creation, deals, every bot decision,
//!    `decide` and `apply`, round ends), cycling through the six presets and 2 to 8
//!    players; then the same for each preset alone at 4 players, and for the House
//!    Rules at 4 players with all thirteen bonus rules on.
//! 2. Greedy-bot turns per second, the same mix.
//! 3. Events folded per second: `Game::apply` over a log of greedy-bot games (the preset
//!    mix) recorded beforehand, at least 1,000,000 events, one fresh `Game` per game.
//! 4. Checked replay events per second: `Game::replay_checked` over the same log.
//! 5. A championship: 200 four-player Belgian games between greedy bots, folded (and
//!    replayed with checks) game by game; the time of the whole log.
//!
//! Each timed measurement runs for `S` seconds of wall time (default 3; the per-preset
//! figures for a third of that each). Every rate is given per wall-clock second and, on
//! Linux, per second of CPU time of the measuring thread (`/proc/thread-self/schedstat`):
//! on a busy machine the thread shares its core, and the CPU-time figure is what one core
//! does. Build with `cargo build --release` before believing a figure.

use std::hint::black_box;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use yaniv_domain::bots::BotKind;
use yaniv_domain::game::{Event, Game};
use yaniv_domain::rules::{BonusRule, Preset, Rules};
use yaniv_domain::sim::{SimOptions, Simulator, game_seed, make_bots};

use crate::output;

const AFTER_HELP: &str = "\
Measures bot turns per second (random and greedy bots, every preset, 2 to 8 players),
events folded and replayed with checks per second, and a 200-game championship log.
Prints a table, then the same figures as JSON. Build with --release before believing
a figure.";

/// The wall time of each timed measurement, in seconds.
fn seconds(text: &str) -> Result<f64, String> {
    let seconds: f64 = text.parse().map_err(|e| format!("{e}"))?;
    if seconds.is_finite() && seconds > 0.0 && seconds <= 3600.0 {
        Ok(seconds)
    } else {
        Err("expected a number of seconds above 0 and at most 3600".into())
    }
}

#[derive(Debug, clap::Args)]
#[command(after_help = AFTER_HELP)]
pub struct Args {
    /// Wall time of each timed measurement (above 0, at most 3600)
    #[arg(long, value_name = "S", default_value = "3", value_parser = seconds)]
    seconds: f64,
}

/// Every (preset, players) pair, the mix the throughput figures cycle through.
fn mix() -> Vec<(Preset, usize)> {
    Preset::ALL
        .into_iter()
        .flat_map(|p| (2..=8).map(move |n| (p, n)))
        .collect()
}

/// CPU time of the calling thread, in seconds (Linux only).
fn thread_cpu_seconds() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let nanos: u64 = text.split_whitespace().next()?.parse().ok()?;
    Some(nanos as f64 / 1e9)
}

/// Wall-clock and CPU seconds spent, added up over timed stretches.
#[derive(Debug, Default, Clone, Copy)]
struct Spent {
    wall: f64,
    cpu: Option<f64>,
}

impl Spent {
    /// Runs `work`, adding its time (time long stretches: reading the CPU clock costs a
    /// system call).
    fn time<T>(&mut self, work: impl FnOnce() -> T) -> T {
        let cpu = thread_cpu_seconds();
        let wall = Instant::now();
        let out = work();
        self.wall += wall.elapsed().as_secs_f64();
        self.cpu = match (self.cpu.or(Some(0.0)), cpu, thread_cpu_seconds()) {
            (Some(sum), Some(start), Some(end)) => Some(sum + (end - start)),
            _ => None,
        };
        out
    }

    /// `count` per wall second and per CPU second.
    fn rates(&self, count: f64) -> (f64, Option<f64>) {
        (
            count / self.wall.max(f64::MIN_POSITIVE),
            self.cpu.map(|c| count / c.max(f64::MIN_POSITIVE)),
        )
    }
}

/// A rate per wall second and per CPU second, as text.
fn show(rates: (f64, Option<f64>)) -> String {
    match rates.1 {
        Some(cpu) => format!("{:>11.0} /s wall {:>11.0} /s cpu", rates.0, cpu),
        None => format!("{:>11.0} /s wall", rates.0),
    }
}

fn rates_json(rates: (f64, Option<f64>)) -> Value {
    json!({ "per_wall_second": rates.0, "per_cpu_second": rates.1 })
}

#[derive(Debug, Default, Clone, Copy)]
struct Played {
    games: u64,
    turns: u64,
    events: u64,
    spent: Spent,
}

/// Plays games of `kind` bots over `configs`, round-robin, for `budget` of wall time.
fn play_for(
    kind: BotKind,
    configs: &[(Preset, usize)],
    budget: Duration,
) -> Result<Played, String> {
    let rules: Vec<_> = configs.iter().map(|(p, n)| (p.rules(), *n)).collect();
    play_rules_for(kind, &rules, budget)
}

/// [`play_for`] with the rules given outright.
fn play_rules_for(
    kind: BotKind,
    rules: &[(Rules, usize)],
    budget: Duration,
) -> Result<Played, String> {
    let mut simulator = Simulator::new(SimOptions::default());
    let mut played = Played::default();
    let mut spent = Spent::default();
    let started = Instant::now();
    spent.time(|| {
        let mut index = 0u64;
        while played.games == 0 || started.elapsed() < budget {
            let (rules, players) = &rules[(index % rules.len() as u64) as usize];
            let seed = game_seed(0xBE4C, index);
            let mut bots = make_bots(kind, *players, seed);
            let summary = simulator
                .play(rules, *players, seed, &mut bots)
                .map_err(|e| format!("bench game {index}: {e}"))?;
            played.games += 1;
            played.turns += summary.turns;
            played.events += summary.events;
            index += 1;
        }
        Ok::<(), String>(())
    })?;
    played.spent = spent;
    Ok(played)
}

/// The House Rules with all thirteen bonus rules on: what the bonus rules cost at most.
fn house_with_every_bonus_rule() -> Result<Rules, String> {
    let mut rules = Preset::House.rules();
    rules.bonus_rules = BonusRule::ALL.to_vec();
    rules
        .validate()
        .map_err(|e| format!("house with every bonus rule: {e}"))?;
    Ok(rules)
}

/// Records games of `kind` bots over `configs` until the logs hold `events` events.
fn record(
    kind: BotKind,
    configs: &[(Preset, usize)],
    events: usize,
    series: u64,
) -> Result<Vec<Vec<Event>>, String> {
    let mut simulator = Simulator::new(SimOptions {
        record: true,
        ..SimOptions::default()
    });
    let mut logs = Vec::new();
    let mut total = 0;
    let mut index = 0u64;
    while total < events {
        let (preset, players) = configs[(index % configs.len() as u64) as usize];
        let seed = game_seed(series, index);
        let mut bots = make_bots(kind, players, seed);
        let summary = simulator
            .play(&preset.rules(), players, seed, &mut bots)
            .map_err(|e| format!("recording game {index}: {e}"))?;
        let log = summary.log.unwrap_or_default();
        total += log.len();
        logs.push(log);
        index += 1;
    }
    Ok(logs)
}

/// The logs of a championship: 200 four-player Belgian games between greedy bots.
fn championship_logs() -> Result<Vec<Vec<Event>>, String> {
    let rules = Preset::Belgian.rules();
    let mut simulator = Simulator::new(SimOptions {
        record: true,
        ..SimOptions::default()
    });
    (0..200u64)
        .map(|index| {
            let seed = game_seed(0xC4A3, index);
            let mut bots = make_bots(BotKind::Greedy, 4, seed);
            let summary = simulator
                .play(&rules, 4, seed, &mut bots)
                .map_err(|e| format!("championship game {index}: {e}"))?;
            Ok(summary.log.unwrap_or_default())
        })
        .collect()
}

/// Folds every log once, each into a fresh game.
fn fold_all(logs: &[Vec<Event>]) {
    for log in logs {
        let mut game = Game::new();
        for e in log {
            game.apply(e);
        }
        black_box(&game);
    }
}

/// Replays every log with checks once.
fn replay_all(logs: &[Vec<Event>]) -> Result<(), String> {
    for (i, log) in logs.iter().enumerate() {
        let game =
            Game::replay_checked(log).map_err(|(at, e)| format!("log {i}, event {at}: {e}"))?;
        black_box(&game);
    }
    Ok(())
}

/// Repeats `pass` until `budget` of wall time is spent; returns the passes and the time.
fn repeat(
    budget: Duration,
    mut pass: impl FnMut() -> Result<(), String>,
) -> Result<(u64, Spent), String> {
    let mut passes = 0;
    let mut spent = Spent::default();
    let started = Instant::now();
    spent.time(|| {
        while passes == 0 || started.elapsed() < budget {
            pass()?;
            passes += 1;
        }
        Ok::<(), String>(())
    })?;
    Ok((passes, spent))
}

fn cpu_model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|text| {
            text.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, v)| v.trim().to_owned())
        })
        .unwrap_or_else(|| "unknown".into())
}

pub fn run(args: &Args) -> Result<ExitCode, String> {
    let seconds = args.seconds;
    let budget = Duration::from_secs_f64(seconds);
    let profile = if cfg!(debug_assertions) {
        "debug"
    } else {
        "release"
    };
    if cfg!(debug_assertions) {
        eprintln!("yaniv bench: this is a debug build; figures are meaningful only with --release");
    }
    let configs = mix();
    let mut rows: Vec<(String, String)> = Vec::new();

    let random = play_for(BotKind::Random, &configs, budget)?;
    let random_rates = random.spent.rates(random.turns as f64);
    rows.push((
        "random-bot turns (6 presets x 2-8 players)".into(),
        format!(
            "{}  ({} games, {} turns)",
            show(random_rates),
            random.games,
            random.turns
        ),
    ));
    let mut per_preset = serde_json::Map::new();
    for preset in Preset::ALL {
        let played = play_for(BotKind::Random, &[(preset, 4)], budget / 3)?;
        let rates = played.spent.rates(played.turns as f64);
        rows.push((
            format!("  random-bot turns, {preset}, 4 players"),
            format!("{}  ({} games)", show(rates), played.games),
        ));
        per_preset.insert(preset.name().into(), rates_json(rates));
    }
    let all_bonus = house_with_every_bonus_rule()?;
    let played = play_rules_for(BotKind::Random, &[(all_bonus, 4)], budget / 3)?;
    let all_bonus_rates = played.spent.rates(played.turns as f64);
    rows.push((
        "  random-bot turns, house + all 13 bonus rules, 4 players".into(),
        format!("{}  ({} games)", show(all_bonus_rates), played.games),
    ));
    let greedy = play_for(BotKind::Greedy, &configs, budget)?;
    let greedy_rates = greedy.spent.rates(greedy.turns as f64);
    rows.push((
        "greedy-bot turns (6 presets x 2-8 players)".into(),
        format!(
            "{}  ({} games, {} turns)",
            show(greedy_rates),
            greedy.games,
            greedy.turns
        ),
    ));

    let logs = record(BotKind::Greedy, &configs, 1_000_000, 0x106)?;
    let events: usize = logs.iter().map(Vec::len).sum();
    let (passes, spent) = repeat(budget, || {
        fold_all(&logs);
        Ok(())
    })?;
    let fold_rates = spent.rates((events as u64 * passes) as f64);
    rows.push((
        "events folded (Game::apply)".into(),
        format!(
            "{}  ({} games, {events} events, {passes} passes)",
            show(fold_rates),
            logs.len()
        ),
    ));
    let (passes, spent) = repeat(budget, || replay_all(&logs))?;
    let replay_rates = spent.rates((events as u64 * passes) as f64);
    rows.push((
        "checked replay events (Game::replay_checked)".into(),
        format!("{}  ({passes} passes)", show(replay_rates)),
    ));

    let championship = championship_logs()?;
    let champ_events: usize = championship.iter().map(Vec::len).sum();
    let per_pass_ms = |passes: u64, spent: Spent| {
        (
            spent.wall / passes as f64 * 1e3,
            spent.cpu.map(|c| c / passes as f64 * 1e3),
        )
    };
    let (passes, spent) = repeat(budget / 3, || {
        fold_all(&championship);
        Ok(())
    })?;
    let champ_fold = per_pass_ms(passes, spent);
    let (passes, spent) = repeat(budget / 3, || replay_all(&championship))?;
    let champ_replay = per_pass_ms(passes, spent);
    let show_ms = |(wall, cpu): (f64, Option<f64>)| match cpu {
        Some(cpu) => format!("{wall:>11.2} ms wall {cpu:>11.2} ms cpu"),
        None => format!("{wall:>11.2} ms wall"),
    };
    rows.push((
        "championship log fold (200 Belgian 4p games)".into(),
        format!("{}  ({champ_events} events)", show_ms(champ_fold)),
    ));
    rows.push((
        "championship log checked replay".into(),
        show_ms(champ_replay),
    ));

    let width = rows.iter().map(|(k, _)| k.len()).max().unwrap_or(0);
    let mut table =
        format!("yaniv bench: one thread, {profile} build, {seconds} s per measurement\n");
    for (k, v) in &rows {
        table.push_str(&format!("{k:<width$}  {v}\n"));
    }
    output::print(&table)?;
    let report: Value = json!({
        "profile": profile,
        "cpu": cpu_model(),
        "threads_available": std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1),
        "seconds_per_measurement": seconds,
        "random_turns": rates_json(random_rates),
        "random_games": random.games,
        "random_turns_by_preset_4_players": per_preset,
        "random_turns_house_all_bonus_rules_4_players": rates_json(all_bonus_rates),
        "greedy_turns": rates_json(greedy_rates),
        "greedy_games": greedy.games,
        "fold_events": rates_json(fold_rates),
        "replay_checked_events": rates_json(replay_rates),
        "log_games": logs.len(),
        "log_events": events,
        "championship": {
            "games": championship.len(),
            "events": champ_events,
            "fold_ms": { "wall": champ_fold.0, "cpu": champ_fold.1 },
            "replay_checked_ms": { "wall": champ_replay.0, "cpu": champ_replay.1 },
        },
    });
    output::print(&serde_json::to_string_pretty(&report).map_err(|e| e.to_string())?)
}
