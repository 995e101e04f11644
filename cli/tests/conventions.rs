//! The command line's conventions, run against the built `yaniv` binary: help on every
//! command, a version, a closed pipe that ends quietly, Ctrl-C that keeps the partial
//! summary, progress with an estimate, and simulated games written as records that
//! `yaniv replay` accepts.

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

fn yaniv(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_yaniv"))
        .args(args)
        .output()
        .expect("run yaniv")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A fresh directory under the system's temporary one.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("yaniv-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

#[test]
fn every_command_answers_help_with_its_usage_and_exit_0() {
    for command in ["replay", "simulate", "bench"] {
        for flag in ["--help", "-h"] {
            let out = yaniv(&[command, flag]);
            assert!(out.status.success(), "yaniv {command} {flag}: {out:?}");
            let usage = text(&out.stdout);
            assert!(
                usage.starts_with(&format!("Usage: yaniv {command}")),
                "yaniv {command} {flag}: {usage}"
            );
            assert!(out.stderr.is_empty(), "{}", text(&out.stderr));
        }
    }
    // Help wins over whatever else is on the line, even a wrong option.
    let out = yaniv(&["simulate", "--preset", "nope", "--help"]);
    assert!(out.status.success());
    let usage = text(&out.stdout);
    assert!(usage.contains("--records <DIR>") && usage.contains("--overrides <JSON>"));
    for preset in yaniv_domain::rules::PRESET_NAMES {
        assert!(usage.contains(preset), "the help names {preset}: {usage}");
    }
    for top in [&["--help"][..], &["help"], &["-h"]] {
        let out = yaniv(top);
        assert!(out.status.success());
        assert!(text(&out.stdout).contains("yaniv simulate"));
    }
    // `help COMMAND` is the command's --help.
    let out = yaniv(&["help", "simulate"]);
    assert!(out.status.success());
    assert!(text(&out.stdout).starts_with("Usage: yaniv simulate"));
    // A usage error still goes to stderr with exit 2, and nothing to stdout.
    for wrong in [
        &["simulate", "--speed", "3"][..],
        &["replay"],
        &["replay", "a.json", "b.json"],
        &["bench", "--seconds", "0"],
        &["deal"],
        &[],
    ] {
        let out = yaniv(wrong);
        assert_eq!(out.status.code(), Some(2), "yaniv {wrong:?}");
        assert!(
            out.stdout.is_empty(),
            "yaniv {wrong:?}: {}",
            text(&out.stdout)
        );
        let message = text(&out.stderr);
        assert!(
            message.contains("Usage: yaniv") || message.contains("try '--help'"),
            "yaniv {wrong:?}: {message}"
        );
    }
    let out = yaniv(&["simulate", "--speed", "3"]);
    assert!(text(&out.stderr).contains("unexpected argument '--speed'"));
}

#[test]
fn the_version_is_the_package_version() {
    for flag in ["--version", "-V", "version"] {
        let out = yaniv(&[flag]);
        assert!(out.status.success(), "{flag}");
        assert_eq!(
            text(&out.stdout).trim(),
            format!("yaniv {}", env!("CARGO_PKG_VERSION"))
        );
    }
    for command in ["replay", "simulate", "bench"] {
        for flag in ["--version", "-V"] {
            let out = yaniv(&[command, flag]);
            assert!(out.status.success(), "yaniv {command} {flag}");
            assert_eq!(
                text(&out.stdout).trim(),
                format!("yaniv {}", env!("CARGO_PKG_VERSION")),
                "yaniv {command} {flag}"
            );
        }
    }
}

#[test]
fn a_reader_that_stops_listening_ends_the_tool_quietly() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_yaniv"))
        .args(["replay", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run yaniv replay -");
    // The reader goes away before the tool has anything to write: it waits for its
    // input, which comes only now.
    drop(child.stdout.take());
    let record = br#"{"format": "yaniv-record/1", "rules": {"preset": "israeli"}, "players": ["ann", "bob"], "rounds": [
        {"starter": "bob", "hands": {"ann": ["KS", "KD", "KH", "9C", "8C"], "bob": ["AS", "AD", "AH", "2C", "JK"]},
         "up_card": "5D", "actions": [{"player": "bob", "call": "yaniv"}]}]}"#;
    let mut stdin = child.stdin.take().expect("stdin");
    stdin.write_all(record).expect("write the record");
    drop(stdin);
    let out = child.wait_with_output().expect("wait");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(out.stderr.is_empty(), "no message: {}", text(&out.stderr));
}

#[test]
fn ctrl_c_prints_the_summary_of_the_games_played_after_progress_with_an_estimate() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_yaniv"))
        .args(["simulate", "--preset", "israeli", "--players", "4"])
        .args(["--games", "100000000", "--seed", "7"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run yaniv simulate");
    // Stderr is a pipe, not a terminal: progress comes as a line every two seconds.
    let mut progress = BufReader::new(child.stderr.take().expect("stderr"));
    let mut line = String::new();
    let started = Instant::now();
    progress.read_line(&mut line).expect("a progress line");
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "progress within seconds"
    );
    assert!(
        line.starts_with("yaniv simulate: ") && line.contains("/100000000 games"),
        "{line}"
    );
    assert!(line.contains(" left"), "an estimate: {line}");

    let interrupted = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill -INT");
    assert!(interrupted.success());
    let out = child.wait_with_output().expect("wait");
    assert_eq!(out.status.code(), Some(130), "128 + SIGINT");
    let summary: Value = serde_json::from_slice(&out.stdout).expect("the summary as JSON");
    assert_eq!(summary["interrupted"], true);
    assert_eq!(summary["games_requested"], 100_000_000);
    let played = summary["games"].as_u64().expect("games played");
    assert!((1..100_000_000).contains(&played), "{summary}");
    let won: u64 = summary["wins_by_seat"]
        .as_array()
        .expect("wins")
        .iter()
        .filter_map(Value::as_u64)
        .sum();
    assert!(won >= played, "every game played is counted: {summary}");
}

#[test]
fn simulated_games_are_written_as_records_that_replay() {
    let dir = scratch("records");
    let dir_arg = dir.to_str().expect("a UTF-8 path");
    let out = yaniv(&[
        "simulate",
        "--preset",
        "belgian",
        "--players",
        "3",
        "--games",
        "3",
        "--seed",
        "11",
        "--bot",
        "greedy",
        "--records",
        dir_arg,
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let summary: Value = serde_json::from_slice(&out.stdout).expect("the summary");
    assert_eq!(summary["interrupted"], false);

    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("the records' directory")
        .map(|entry| entry.expect("an entry").path())
        .collect();
    files.sort();
    let names: Vec<_> = files
        .iter()
        .map(|f| {
            f.file_name()
                .and_then(|n| n.to_str())
                .unwrap_or("")
                .to_owned()
        })
        .collect();
    assert_eq!(
        names,
        ["game-000000.json", "game-000001.json", "game-000002.json"]
    );
    let mut rounds = 0;
    for file in &files {
        let replayed = yaniv(&["replay", file.to_str().expect("a UTF-8 path")]);
        assert!(replayed.status.success(), "{}", text(&replayed.stdout));
        let result: Value = serde_json::from_slice(&replayed.stdout).expect("the result");
        assert_eq!(result["format"], "yaniv-result/1");
        rounds += result["rounds"].as_array().expect("rounds").len() as u64;
    }
    assert_eq!(
        Some(rounds),
        summary["rounds"].as_u64(),
        "every round was written"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
