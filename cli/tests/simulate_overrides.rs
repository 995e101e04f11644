//! `yaniv simulate --overrides`, run against the built binary: the games are played
//! under the overridden rules (the summary and the records show it, and the records
//! replay under them), and an override the rules refuse is a usage error that names it.

use std::path::PathBuf;
use std::process::{Command, Output};

use serde_json::{Value, json};

fn yaniv(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_yaniv"))
        .args(args)
        .output()
        .expect("run yaniv")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The JSON summary of 20 four-player Israeli games from seed 5, under `extra` arguments.
fn simulate(extra: &[&str]) -> Value {
    let mut args = vec![
        "simulate",
        "--preset",
        "israeli",
        "--players",
        "4",
        "--games",
        "20",
        "--seed",
        "5",
    ];
    args.extend(extra);
    let out = yaniv(&args);
    assert!(out.status.success(), "{}", text(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("the summary as JSON")
}

fn count(summary: &Value, field: &str) -> u64 {
    summary[field]
        .as_u64()
        .unwrap_or_else(|| panic!("{field}: {summary}"))
}

#[test]
fn a_lower_call_threshold_makes_longer_rounds() {
    let plain = simulate(&[]);
    let strict = simulate(&["--overrides", r#"{"call_threshold": 2}"#]);
    assert_eq!(plain["overrides"], json!({}));
    assert_eq!(strict["overrides"], json!({"call_threshold": 2}));
    assert_eq!(count(&plain, "games"), 20);
    assert_eq!(count(&strict, "games"), 20);
    // Israeli rules let a hand of 7 call; at 2 the bots must throw far longer before
    // anyone may call, so a round takes more turns on average.
    let per_round = |s: &Value| count(s, "turns") as f64 / count(s, "rounds") as f64;
    assert!(
        per_round(&strict) > per_round(&plain) * 1.2,
        "turns per round: {} at threshold 2, {} at 7",
        per_round(&strict),
        per_round(&plain)
    );
}

#[test]
fn the_records_carry_the_overrides_and_replay_under_them() {
    let dir = std::env::temp_dir().join(format!("yaniv-cli-overrides-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let dir_arg = dir.to_str().expect("a UTF-8 path");
    let summary = simulate(&[
        "--games",
        "2",
        "--records",
        dir_arg,
        "--overrides",
        r#"{"hand_size": 3, "max_players": 6}"#,
    ]);
    assert_eq!(count(&summary, "games"), 2);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("the records' directory")
        .map(|entry| entry.expect("an entry").path())
        .collect();
    files.sort();
    assert_eq!(files.len(), 2);
    for file in &files {
        let record: Value =
            serde_json::from_slice(&std::fs::read(file).expect("the record")).expect("JSON");
        assert_eq!(record["rules"]["overrides"]["hand_size"], 3, "{record}");
        // Every deal in the record is of three cards.
        for round in record["rounds"].as_array().expect("rounds") {
            for hand in round["hands"].as_object().expect("hands").values() {
                assert_eq!(hand.as_array().map(Vec::len), Some(3), "{round}");
            }
        }
        let replayed = yaniv(&["replay", file.to_str().expect("a UTF-8 path")]);
        assert!(replayed.status.success(), "{}", text(&replayed.stdout));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_override_the_rules_refuse_is_a_usage_error_naming_it() {
    for (overrides, named) in [
        (
            r#"{"call_treshold": 3}"#,
            "unknown rule parameter \"call_treshold\"",
        ),
        (r#"{"call_threshold": "low"}"#, "\"call_threshold\""),
        (r#"{"hand_size": 0}"#, "hand_size"),
        ("[3]", "a JSON object"),
        ("{call_threshold: 3}", "not JSON"),
    ] {
        let out = yaniv(&[
            "simulate",
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
        ]);
        let message = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{overrides}: {message}");
        assert!(out.stdout.is_empty(), "no games played for {overrides}");
        assert!(
            message.contains("--overrides") && message.contains(named),
            "{overrides}: {message}"
        );
    }
}
