//! `yaniv replay FILE|-`: replays a `yaniv-record/1` game record (a file, or standard
//! input for `-`).
//!
//! - The record replays: the `yaniv-result/1` JSON on standard output, exit status 0.
//! - The record is rejected: the `yaniv-error/1` JSON (round, action, code, message) on
//!   standard output, exit status 1.
//! - The input cannot be read (missing file, ...): a message on standard error, exit
//!   status 2.
//!
//! At most `MAX_RECORD_BYTES` (16 MiB) are read; a longer input is a rejected record.

use std::io::Read;
use std::process::ExitCode;

use yaniv_domain::record::{self, MAX_RECORD_BYTES};

use crate::output;

const EXIT_STATUS: &str = "\
Exit status:
  0  the record replays: the yaniv-result/1 JSON on standard output
  1  the record is rejected: the yaniv-error/1 JSON (round, action, code, message)
  2  the input cannot be read, or the arguments are wrong";

#[derive(Debug, clap::Args)]
#[command(after_help = EXIT_STATUS)]
pub struct Args {
    /// The record's file, or - to read standard input
    #[arg(value_name = "FILE|-")]
    file: String,
}

pub fn run(args: &Args) -> Result<ExitCode, String> {
    let bytes = read_capped(&args.file)?;
    let (document, code) = replay(&bytes);
    output::print(&document)?;
    Ok(code)
}

/// The pretty JSON to print and the exit status.
fn replay(bytes: &[u8]) -> (String, ExitCode) {
    let (json, code) = match record::replay_json(bytes) {
        Ok(outcome) => (
            serde_json::to_string_pretty(&outcome.result),
            ExitCode::SUCCESS,
        ),
        Err(error) => (serde_json::to_string_pretty(&error), ExitCode::from(1)),
    };
    // Both documents are plain data; serializing them cannot fail.
    (
        json.unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}")),
        code,
    )
}

/// Reads the whole input, but never more than one byte past the limit (enough for the
/// record layer to reject it as too large).
fn read_capped(path: &str) -> Result<Vec<u8>, String> {
    let limit = MAX_RECORD_BYTES as u64 + 1;
    let mut bytes = Vec::new();
    let read = if path == "-" {
        std::io::stdin().lock().take(limit).read_to_end(&mut bytes)
    } else {
        let file = std::fs::File::open(path).map_err(|e| format!("cannot open {path}: {e}"))?;
        file.take(limit).read_to_end(&mut bytes)
    };
    read.map_err(|e| format!("cannot read {path}: {e}"))?;
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rejected_record_prints_the_error_document_and_exits_1() {
        let (json, code) = replay(br#"{"format": "yaniv-record/1", "rules": {"preset": "nope"}, "players": [], "rounds": []}"#);
        assert_eq!(code, ExitCode::from(1));
        let value: serde_json::Value = serde_json::from_str(&json).expect("json");
        assert_eq!(value["format"], "yaniv-error/1");
        assert_eq!(value["code"], "bad_rules");
    }

    #[test]
    fn a_valid_record_prints_the_result_and_exits_0() {
        let text = br#"{"format": "yaniv-record/1", "rules": {"preset": "israeli"}, "players": ["ann", "bob"], "rounds": [
            {"starter": "bob", "hands": {"ann": ["KS", "KD", "KH", "9C", "8C"], "bob": ["AS", "AD", "AH", "2C", "JK"]},
             "up_card": "5D", "actions": [{"player": "bob", "call": "yaniv"}]}]}"#;
        let (json, code) = replay(text);
        assert_eq!(code, ExitCode::SUCCESS);
        let value: serde_json::Value = serde_json::from_str(&json).expect("json");
        assert_eq!(value["format"], "yaniv-result/1");
        assert_eq!(value["rounds"][0]["points"]["ann"], 47);
    }

    #[test]
    fn a_missing_file_is_an_io_error() {
        let err = read_capped("/nonexistent/record.json").expect_err("missing");
        assert!(
            err.contains("cannot open /nonexistent/record.json"),
            "{err}"
        );
    }
}
