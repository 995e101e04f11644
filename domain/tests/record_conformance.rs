//! Conformance: every `NAME.json` in `tests/fixtures/records/` is a game record, and
//! `NAME.expected.json` next to it is what replaying it must give: a `yaniv-result/1`
//! document, or the `yaniv-error/1` document of its first problem. The fixtures and what
//! each one checks are described in that folder's README.md.
//!
//! A record that replays is also exported again from its events; the exported record
//! must replay to the same result.

use std::path::{Path, PathBuf};

use serde_json::Value;
use yaniv_domain::record;

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/records")
}

fn read_json(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The records of the folder, by name, sorted.
fn records() -> Vec<(String, PathBuf)> {
    let mut found: Vec<(String, PathBuf)> = std::fs::read_dir(fixtures())
        .expect("fixtures folder")
        .map(|entry| entry.expect("entry").path())
        .filter_map(|path| {
            let name = path.file_name()?.to_str()?.to_owned();
            let stem = name.strip_suffix(".json")?;
            (!stem.ends_with(".expected")).then(|| (stem.to_owned(), path))
        })
        .collect();
    found.sort();
    found
}

/// What replaying the record gives, as JSON.
fn actual(path: &Path) -> Value {
    let bytes = std::fs::read(path).expect("record");
    match record::replay_json(&bytes) {
        Ok(outcome) => {
            let result = serde_json::to_value(&outcome.result).expect("result serializes");
            let exported = record::export(&outcome.events).expect("export");
            let again = record::replay(&exported)
                .unwrap_or_else(|e| panic!("{}: exported record: {e}", path.display()));
            assert_eq!(
                again.result,
                outcome.result,
                "{}: export then replay",
                path.display()
            );
            assert_eq!(
                again.events,
                outcome.events,
                "{}: export then replay",
                path.display()
            );
            result
        }
        Err(e) => serde_json::to_value(&e).expect("error serializes"),
    }
}

#[test]
fn every_record_replays_to_its_expected_result() {
    let records = records();
    let mut failures = Vec::new();
    for (name, path) in &records {
        let expected_path = fixtures().join(format!("{name}.expected.json"));
        assert!(
            expected_path.exists(),
            "{name}.json has no {name}.expected.json"
        );
        let expected = read_json(&expected_path);
        let actual = actual(path);
        if actual != expected {
            failures.push(format!(
                "{name}:\n  expected {}\n  actual   {}",
                serde_json::to_string(&expected).unwrap_or_default(),
                serde_json::to_string(&actual).unwrap_or_default()
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} fixture(s) differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn the_required_fixtures_are_present() {
    let names: Vec<String> = records().into_iter().map(|(name, _)| name).collect();
    for required in [
        "belgian_meegaan",
        "israeli_assaf",
        "pagat_200_to_100",
        "kluft_onderkluft",
        "israeli_seeded_round",
        "error_unknown_card",
        "error_illegal_draw",
        "error_not_your_turn",
        "error_call_above_threshold",
        "error_unknown_override",
        "error_round_not_finished",
        "error_bad_shuffle_commitment",
    ] {
        assert!(
            names.iter().any(|n| n == required),
            "missing fixture {required}.json"
        );
    }
    // Every expected file belongs to a record.
    for entry in std::fs::read_dir(fixtures()).expect("fixtures folder") {
        let path = entry.expect("entry").path();
        let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
            continue;
        };
        if let Some(stem) = name.strip_suffix(".expected.json") {
            assert!(
                names.iter().any(|n| n == stem),
                "{name} has no record {stem}.json"
            );
        }
    }
}

#[test]
fn expected_documents_name_their_format() {
    for (name, _) in records() {
        let expected = read_json(&fixtures().join(format!("{name}.expected.json")));
        let format = expected["format"].as_str().unwrap_or_default().to_owned();
        let is_error = name.starts_with("error_");
        assert_eq!(
            format,
            if is_error {
                "yaniv-error/1"
            } else {
                "yaniv-result/1"
            },
            "{name}: error fixtures are named error_*"
        );
    }
}
