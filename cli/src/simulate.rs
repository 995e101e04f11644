//! `yaniv simulate --preset P --players N --games G --seed S [--bot random|greedy]
//! [--records DIR] [--overrides JSON]`
//!
//! Plays `G` games of bots on one thread and prints a JSON summary on stdout, under the
//! preset's rules with `--overrides` applied as a table or a record applies them
//! (`Rules::with_overrides`: an unknown name or a bad value is refused, naming it). Game `i`
//! (from 0) is played from `sim::game_seed(S, i)`, each seat's bot from
//! `sim::seat_seed(game seed, seat)` (see `domain/src/sim.rs`), so the same arguments
//! always print the same counts. With `--records DIR` each game is also written as a
//! `yaniv-record/1` file, `DIR/game-000000.json` for game 0, that `yaniv replay` takes.
//!
//! Progress goes to stderr: a bar redrawn at most ten times a second on a terminal, a
//! line every two seconds otherwise (a log), each with an estimate of the time left.
//! Ctrl-C stops after the game being played: the summary of the games played so far is
//! printed, marked `"interrupted": true`, and the exit status is 130.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use clap::builder::{PossibleValuesParser, TypedValueParser};
use serde_json::{Value, json};
use yaniv_domain::bots::BotKind;
use yaniv_domain::game::Event;
use yaniv_domain::record;
use yaniv_domain::rules::{Overrides, PRESET_NAMES, Preset, Rules};
use yaniv_domain::sim::{OutcomeCounts, SimOptions, Simulator, game_seed, make_bots};

use crate::output;

const AFTER_HELP: &str = "\
Plays G games between bots under the preset's rules with the overrides applied, and
prints a JSON summary: rounds, turns, calls, outcomes, wins by seat, turns per second
and the overrides played. The same arguments always give the same games. Progress and
an estimate of the time left go to standard error. Ctrl-C stops after the current game
and prints the summary of the games played (exit status 130).";

/// Exit status after Ctrl-C: 128 + SIGINT, as shells report it.
const INTERRUPTED: u8 = 130;

/// The arguments as clap reads them; [`Options`] checks what depends on the rules.
#[derive(Debug, clap::Args)]
#[command(after_help = AFTER_HELP)]
pub struct Args {
    /// The rule preset
    #[arg(
        long,
        value_name = "P",
        value_parser = PossibleValuesParser::new(PRESET_NAMES).try_map(|name| name.parse::<Preset>()),
    )]
    preset: Preset,
    /// Seats at the table (within the rules' limits: 2 to 8 for every preset)
    #[arg(long, value_name = "N")]
    players: usize,
    /// Games to play (at least 1)
    #[arg(long, value_name = "G", value_parser = clap::value_parser!(u64).range(1..))]
    games: u64,
    /// The series' seed (0 to 18446744073709551615)
    #[arg(long, value_name = "S")]
    seed: u64,
    /// The bots' kind
    #[arg(
        long,
        value_name = "B",
        default_value = "random",
        value_parser = PossibleValuesParser::new(BotKind::ALL.map(BotKind::name)).try_map(|name| name.parse::<BotKind>()),
    )]
    bot: BotKind,
    /// Also write each game as a yaniv-record/1 file in DIR (game-000000.json, ...),
    /// which yaniv replay accepts
    #[arg(long, value_name = "DIR")]
    records: Option<PathBuf>,
    /// Rule parameters that replace the preset's, as a JSON object: the `overrides` of a
    /// table or a record, e.g. '{"call_threshold": 3, "hand_size": 7}'
    #[arg(long, value_name = "JSON", value_parser = overrides)]
    overrides: Option<Overrides>,
}

/// The `--overrides` text as an object of rule parameters; whether the names and values
/// fit the rules is the preset's to say, once it is known.
fn overrides(text: &str) -> Result<Overrides, String> {
    match serde_json::from_str::<Value>(text) {
        Ok(Value::Object(fields)) => Ok(fields),
        Ok(_) => {
            Err("expected a JSON object of rule parameters, e.g. {\"call_threshold\": 3}".into())
        }
        Err(e) => Err(format!("not JSON: {e}")),
    }
}

/// The validated arguments: the effective rules and a table they seat.
#[derive(Debug, PartialEq)]
pub struct Options {
    preset: Preset,
    overrides: Overrides,
    rules: Rules,
    players: usize,
    games: u64,
    seed: u64,
    bot: BotKind,
    records: Option<PathBuf>,
}

impl TryFrom<Args> for Options {
    type Error = String;

    fn try_from(args: Args) -> Result<Options, String> {
        let overrides = args.overrides.unwrap_or_default();
        let rules = args
            .preset
            .rules()
            .with_overrides(&overrides)
            .map_err(|e| format!("--overrides: {e}"))?;
        let players = args.players;
        if players < rules.min_players as usize || players > rules.max_players as usize {
            let with = if overrides.is_empty() {
                ""
            } else {
                " with these overrides"
            };
            return Err(format!(
                "--players {players}: the {} preset{with} seats {} to {} players",
                args.preset, rules.min_players, rules.max_players
            ));
        }
        Ok(Options {
            preset: args.preset,
            overrides,
            rules,
            players,
            games: args.games,
            seed: args.seed,
            bot: args.bot,
            records: args.records,
        })
    }
}

/// Set by Ctrl-C; the game loop stops before the next game.
fn interrupt_flag() -> Result<Arc<AtomicBool>, String> {
    let flag = Arc::new(AtomicBool::new(false));
    signal_hook::flag::register(signal_hook::consts::SIGINT, Arc::clone(&flag))
        .map_err(|e| format!("cannot handle Ctrl-C: {e}"))?;
    Ok(flag)
}

/// Writes game `index`'s events as a record in `dir`.
fn write_record(dir: &Path, index: u64, events: &[Event]) -> Result<(), String> {
    let record = record::export(events).map_err(|e| format!("game {index}: no record: {e}"))?;
    let path = dir.join(format!("game-{index:06}.json"));
    let text = serde_json::to_vec(&record).map_err(|e| e.to_string())?;
    std::fs::write(&path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

pub fn run(options: Options) -> Result<ExitCode, String> {
    let Options {
        preset,
        overrides,
        rules,
        players,
        games,
        seed,
        bot,
        records,
    } = options;
    if let Some(dir) = &records {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }
    let interrupted = interrupt_flag()?;

    let mut progress = Progress::new(games);
    let mut simulator = Simulator::new(SimOptions {
        record: records.is_some(),
        ..SimOptions::default()
    });
    let mut played = 0u64;
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
        if interrupted.load(Ordering::Relaxed) {
            break;
        }
        let seed = game_seed(seed, index);
        let mut bots = make_bots(bot, players, seed);
        let summary = simulator
            .play(&rules, players, seed, &mut bots)
            .map_err(|e| format!("game {index} (seed {seed}): {e}"))?;
        if let (Some(dir), Some(log)) = (&records, &summary.log) {
            write_record(dir, index, log)?;
        }
        played += 1;
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
        progress.update(played, turns);
    }
    let elapsed = started.elapsed().as_secs_f64();
    progress.finish();
    let stopped = played < games;
    let summary = json!({
        "preset": preset.name(),
        "overrides": overrides,
        "players": players,
        "bot": bot.name(),
        "seed": seed,
        "games": played,
        "games_requested": games,
        "interrupted": stopped,
        "rounds": rounds,
        "turns": turns,
        "calls": calls,
        "slaps": slaps,
        "add_ons": add_ons,
        "events": events,
        "outcomes": outcomes,
        "wins_by_seat": wins,
        "games_with_tied_winners": shared_wins,
        "records": records.as_ref().map(|dir| dir.display().to_string()),
        "elapsed_seconds": elapsed,
        "turns_per_second": if elapsed > 0.0 { turns as f64 / elapsed } else { 0.0 },
    });
    let text = serde_json::to_string_pretty(&summary).map_err(|e| e.to_string())?;
    output::print(&text)?;
    Ok(if stopped {
        ExitCode::from(INTERRUPTED)
    } else {
        ExitCode::SUCCESS
    })
}

/// Progress on stderr: a bar redrawn in place on a terminal, a line now and then
/// otherwise; both with an estimate of the time left.
struct Progress {
    terminal: bool,
    total: u64,
    started: Instant,
    last_draw: Option<Instant>,
}

impl Progress {
    /// How often the bar is redrawn on a terminal.
    const BAR_INTERVAL: Duration = Duration::from_millis(100);
    /// How often a line is written when stderr is a file or a pipe.
    const LINE_INTERVAL: Duration = Duration::from_secs(2);
    const WIDTH: u64 = 30;

    fn new(total: u64) -> Progress {
        Progress {
            terminal: std::io::stderr().is_terminal(),
            total,
            started: Instant::now(),
            last_draw: None,
        }
    }

    fn update(&mut self, done: u64, turns: u64) {
        let now = Instant::now();
        let interval = if self.terminal {
            Self::BAR_INTERVAL
        } else {
            Self::LINE_INTERVAL
        };
        // The first line waits a whole interval too: a short run prints none.
        let since = now.duration_since(self.last_draw.unwrap_or(self.started));
        let last = done == self.total && self.terminal && self.last_draw.is_some();
        if since < interval && !last {
            return;
        }
        self.last_draw = Some(now);
        let secs = now.duration_since(self.started).as_secs_f64();
        let rate = if secs > 0.0 { turns as f64 / secs } else { 0.0 };
        let left = estimate_left(secs, done, self.total);
        let mut err = std::io::stderr().lock();
        if self.terminal {
            let filled = (done * Self::WIDTH / self.total.max(1)) as usize;
            let bar = format!(
                "{}{}",
                "#".repeat(filled),
                "-".repeat(Self::WIDTH as usize - filled)
            );
            let _ = write!(
                err,
                "\r[{bar}] {done}/{} games, {rate:.0} turns/s, {left}   ",
                self.total
            );
        } else {
            let _ = writeln!(
                err,
                "yaniv simulate: {done}/{} games, {rate:.0} turns/s, {left}",
                self.total
            );
        }
        let _ = err.flush();
    }

    fn finish(&self) {
        if self.terminal && self.last_draw.is_some() {
            let _ = writeln!(std::io::stderr());
        }
    }
}

/// "about 12 s left", from the time the first `done` of `total` games took.
fn estimate_left(elapsed_secs: f64, done: u64, total: u64) -> String {
    if done == 0 {
        return "estimating the time left".into();
    }
    let left = elapsed_secs / done as f64 * total.saturating_sub(done) as f64;
    match left {
        s if s < 1.0 => "less than a second left".into(),
        s if s < 120.0 => format!("about {s:.0} s left"),
        s if s < 7200.0 => format!("about {:.0} min left", s / 60.0),
        s => format!("about {:.1} h left", s / 3600.0),
    }
}

#[cfg(test)]
mod tests {
    use clap::Parser;
    use serde_json::json;

    use super::*;
    use crate::{Cli, Command};

    /// `yaniv simulate` with `words` after it, as the tool reads it: clap's error text, or
    /// the message of a check made once the rules are known.
    fn parse_words(words: &[&str]) -> Result<Options, String> {
        let cli = Cli::try_parse_from(["yaniv", "simulate"].iter().chain(words))
            .map_err(|e| e.to_string())?;
        let Command::Simulate(args) = cli.command else {
            panic!("not the simulate command: {cli:?}")
        };
        Options::try_from(args)
    }

    fn parse(line: &str) -> Result<Options, String> {
        parse_words(&line.split_whitespace().collect::<Vec<_>>())
    }

    #[test]
    fn valid_arguments() {
        let o =
            parse("--preset belgian --players 8 --games 3 --seed 9 --bot greedy").expect("valid");
        assert_eq!(
            o,
            Options {
                preset: Preset::Belgian,
                overrides: Overrides::new(),
                rules: Preset::Belgian.rules(),
                players: 8,
                games: 3,
                seed: 9,
                bot: BotKind::Greedy,
                records: None,
            }
        );
        assert_eq!(
            parse("--preset israeli --players 2 --games 1 --seed 0 --records out")
                .map(|o| o.records),
            Ok(Some(PathBuf::from("out")))
        );
        assert_eq!(
            parse("--preset israeli --players 2 --games 1 --seed 0").map(|o| o.bot),
            Ok(BotKind::Random)
        );
        // The last of a repeated option counts.
        assert_eq!(
            parse("--preset israeli --players 2 --games 1 --seed 0 --games 4").map(|o| o.games),
            Ok(4)
        );
        assert_eq!(
            parse("--preset israeli --players 2 --games 1 --seed 18446744073709551615")
                .map(|o| o.seed),
            Ok(u64::MAX)
        );
    }

    #[test]
    fn overrides_change_the_rules_played() {
        let o = parse_words(&[
            "--preset",
            "belgian",
            "--players",
            "4",
            "--games",
            "1",
            "--seed",
            "1",
            "--overrides",
            r#"{"call_threshold": 3, "hand_size": 4}"#,
        ])
        .expect("valid overrides");
        assert_eq!(o.rules.call_threshold, Some(3));
        assert_eq!(o.rules.hand_size, 4);
        assert_ne!(o.rules, Preset::Belgian.rules());
        let Value::Object(expected) = json!({"call_threshold": 3, "hand_size": 4}) else {
            unreachable!()
        };
        assert_eq!(o.overrides, expected);
        // The rest of the preset stays.
        assert_eq!(o.rules.reductions, Preset::Belgian.rules().reductions);
    }

    #[test]
    fn the_players_are_checked_against_the_rules_with_their_overrides() {
        let base = ["--preset", "israeli", "--games", "1", "--seed", "1"];
        let with = |players: &str, overrides: &str| {
            let mut words = base.to_vec();
            words.extend(["--players", players, "--overrides", overrides]);
            parse_words(&words)
        };
        let err = with("4", r#"{"max_players": 3}"#).expect_err("4 > 3");
        assert!(
            err.contains("--players 4: the israeli preset with these overrides seats 2 to 3"),
            "{err}"
        );
        assert!(with("3", r#"{"max_players": 3}"#).is_ok());
    }

    #[test]
    fn the_estimate_scales_the_time_so_far() {
        assert_eq!(estimate_left(10.0, 0, 100), "estimating the time left");
        assert_eq!(estimate_left(10.0, 10, 100), "about 90 s left");
        assert_eq!(estimate_left(60.0, 10, 100), "about 9 min left");
        assert_eq!(estimate_left(3600.0, 1, 3), "about 2.0 h left");
        assert_eq!(estimate_left(5.0, 100, 100), "less than a second left");
    }

    #[test]
    fn clear_errors() {
        let error = |line| parse(line).expect_err("invalid");
        let wrong_preset = error("--preset dutch --players 4 --games 1 --seed 1");
        assert!(
            wrong_preset.contains("'dutch'")
                && wrong_preset.contains("israeli, nepali, kluft, belgian, wikipedia, house"),
            "{wrong_preset}"
        );
        assert!(
            error("--preset israeli --players 9 --games 1 --seed 1")
                .contains("the israeli preset seats 2 to 8 players")
        );
        assert!(
            error("--preset israeli --players 1 --games 1 --seed 1")
                .contains("seats 2 to 8 players")
        );
        assert!(error("--preset israeli --players 4 --games 0 --seed 1").contains("--games"));
        let missing = error("--preset israeli --players 4 --games 1");
        assert!(
            missing.contains("required") && missing.contains("--seed"),
            "{missing}"
        );
        assert!(error("--preset israeli --players 4 --games 1 --seed -3").contains("'-3'"));
        assert!(
            error("--preset israeli --players 4 --games 1 --seed 1 --bot smart")
                .contains("random, greedy")
        );
        assert!(
            error("--preset israeli --players 4 --games 1 --seed 1 --speed 3")
                .contains("unexpected argument '--speed'")
        );
    }

    #[test]
    fn a_bad_override_is_refused_naming_the_parameter() {
        let error = |overrides: &str| {
            parse_words(&[
                "--preset",
                "israeli",
                "--players",
                "4",
                "--games",
                "1",
                "--seed",
                "1",
                "--overrides",
                overrides,
            ])
            .expect_err("a bad override")
        };
        let unknown = error(r#"{"call_treshold": 3}"#);
        assert!(
            unknown.contains("--overrides") && unknown.contains("\"call_treshold\""),
            "{unknown}"
        );
        let bad_value = error(r#"{"call_threshold": "seven"}"#);
        assert!(bad_value.contains("\"call_threshold\""), "{bad_value}");
        let inconsistent = error(r#"{"hand_size": 0}"#);
        assert!(inconsistent.contains("hand_size"), "{inconsistent}");
        assert!(error("[1, 2]").contains("a JSON object"));
        assert!(error("{call_threshold: 3}").contains("not JSON"));
    }
}
