//! `yaniv verify ARCHIVE|-`: checks a championship archive (`yaniv-archive/1`, from
//! `GET /v1/tournaments/{id}/archive`) offline, without the server that ran the
//! tournament: every stream's hash chain, every game replayed through the rules with
//! its deals against their commitments, the tournament's draws, results and ranking
//! re-derived, each online result against its game, and every stream against the
//! checkpoints whose roots its heads lead to.
//!
//! - Everything checks out: the verdict JSON on standard output, exit status 0.
//! - Something does not: the verdict JSON naming the first failure (stream, version,
//!   check, code, reason) and each failing stream's, exit status 1.
//! - The input cannot be read or is not an archive: a message on standard error, exit
//!   status 2.

use std::io::Read;
use std::process::ExitCode;

use yaniv_verify::archive::{Archive, FORMAT, verify};

use crate::output;

/// Archives are larger than records: a championship holds every move of every game.
const MAX_ARCHIVE_BYTES: u64 = 1 << 30;

const EXIT_STATUS: &str = "\
Exit status:
  0  the archive checks out: the verdict JSON on standard output
  1  something does not: the verdict names the first failure (stream, version, check, code)
  2  the input cannot be read or is not an archive, or the arguments are wrong

The roots of the checkpoints in the archive are those the server recorded: compare them
with the roots the organizer published.";

#[derive(Debug, clap::Args)]
#[command(after_help = EXIT_STATUS)]
pub struct Args {
    /// The archive's file, or - to read standard input
    #[arg(value_name = "ARCHIVE|-")]
    file: String,
}

pub fn run(args: &Args) -> Result<ExitCode, String> {
    let bytes = read(&args.file)?;
    let archive: Archive = serde_json::from_slice(&bytes)
        .map_err(|e| format!("{} is not a {FORMAT} document: {e}", args.file))?;
    if archive.format != FORMAT {
        return Err(format!(
            "{} is a {:?} document, not {FORMAT}: this version of yaniv cannot check it",
            args.file, archive.format
        ));
    }
    let verdict = verify(&archive);
    let json = serde_json::to_string_pretty(&verdict)
        .map_err(|e| format!("cannot write the verdict: {e}"))?;
    output::print(&json)?;
    Ok(if verdict.ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

fn read(path: &str) -> Result<Vec<u8>, String> {
    let mut bytes = Vec::new();
    let read = if path == "-" {
        std::io::stdin()
            .lock()
            .take(MAX_ARCHIVE_BYTES)
            .read_to_end(&mut bytes)
    } else {
        let file = std::fs::File::open(path).map_err(|e| format!("cannot open {path}: {e}"))?;
        file.take(MAX_ARCHIVE_BYTES).read_to_end(&mut bytes)
    };
    read.map_err(|e| format!("cannot read {path}: {e}"))?;
    Ok(bytes)
}
