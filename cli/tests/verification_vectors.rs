//! docs/verification.md section 25: both verifiers, run over every archive of
//! `tests/fixtures/verification/`, give the verdict `expected.json` states: the
//! server's archives verify, and each tampered copy fails with the first finding
//! (stream, version, code) its tampering makes. The tampered copies are the ones
//! `make_vectors.py` derives from the committed archives.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn vectors() -> PathBuf {
    root().join("tests/fixtures/verification")
}

/// Exit status and verdict of one verifier's run.
fn verdict(who: &str, output: Output) -> (i32, Value) {
    let status = output.status.code().unwrap_or(-1);
    let verdict = serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
        panic!(
            "{who}'s verdict is JSON ({e}): {}\n{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        )
    });
    (status, verdict)
}

fn yaniv_verify(file: &Path) -> (i32, Value) {
    let output = Command::new(env!("CARGO_BIN_EXE_yaniv"))
        .arg("verify")
        .arg(file)
        .output()
        .expect("run yaniv verify");
    verdict("yaniv verify", output)
}

fn reference_verify(file: &Path) -> (i32, Value) {
    let output = Command::new("python3")
        .arg(root().join("tools/reference-verifier/verify_archive.py"))
        .arg(file)
        .output()
        .expect("run python3 (deploy/test.sh installs it)");
    verdict("the reference verifier", output)
}

fn finding(verdict: &Value) -> (Value, Value, Value) {
    let first = &verdict["first_failure"];
    (
        first["stream"].clone(),
        first["version"].clone(),
        first["code"].clone(),
    )
}

#[test]
fn both_verifiers_give_every_vector_its_expected_verdict() {
    let text = std::fs::read_to_string(vectors().join("expected.json")).expect("expected.json");
    let expected: Vec<Value> = serde_json::from_str(&text).expect("a list");
    assert!(expected.len() >= 20, "too few vectors: {}", expected.len());
    let mut wrong = Vec::new();
    for entry in &expected {
        let file = vectors().join(entry["file"].as_str().expect("a file"));
        let ok = entry["ok"].as_bool().expect("ok");
        let want = (
            entry["stream"].clone(),
            entry["version"].clone(),
            entry["code"].clone(),
        );
        for (who, (status, verdict)) in [
            ("yaniv verify", yaniv_verify(&file)),
            ("reference", reference_verify(&file)),
        ] {
            let right = if ok {
                status == 0 && verdict["ok"] == true
            } else {
                status == 1 && finding(&verdict) == want
            };
            if !right {
                wrong.push(format!(
                    "{who} on {}: exit {status}, first finding {:?}, expected {}",
                    entry["file"],
                    finding(&verdict),
                    if ok {
                        "ok".to_owned()
                    } else {
                        format!("{want:?}")
                    }
                ));
            }
        }
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
}

/// The tampered copies and `expected.json` are what the generator derives from the
/// committed archives (it is re-run, not trusted).
#[test]
fn the_tampered_vectors_are_what_the_generator_makes() {
    let output = Command::new("python3")
        .arg(vectors().join("make_vectors.py"))
        .arg("--check")
        .output()
        .expect("run python3");
    assert!(
        output.status.success(),
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}

/// "Keep the files small": the whole folder stays under a few megabytes.
#[test]
fn the_vectors_stay_small() {
    fn size(dir: &Path) -> u64 {
        std::fs::read_dir(dir)
            .expect("a folder")
            .map(|entry| {
                let path = entry.expect("an entry").path();
                if path.is_dir() {
                    size(&path)
                } else {
                    path.metadata().map_or(0, |m| m.len())
                }
            })
            .sum()
    }
    let bytes = size(&vectors());
    assert!(bytes < 6_000_000, "{bytes} bytes");
}
