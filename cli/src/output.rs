//! Standard output for the subcommands: a reader that stops listening (`yaniv ... | head`)
//! ends the tool quietly, with no error message and exit status 0, as it would end a
//! `cat`.

use std::io::{ErrorKind, Write};
use std::process::ExitCode;

/// Prints `text` and a newline on standard output: the subcommand's answer.
pub fn print(text: &str) -> Result<ExitCode, String> {
    let mut out = std::io::stdout().lock();
    match writeln!(out, "{text}").and_then(|()| out.flush()) {
        Ok(()) => Ok(ExitCode::SUCCESS),
        // Nobody reads the rest: nothing is lost by stopping, and nothing to report.
        Err(error) if error.kind() == ErrorKind::BrokenPipe => std::process::exit(0),
        Err(error) => Err(format!("cannot write to standard output: {error}")),
    }
}
