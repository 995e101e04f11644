//! `yaniv bench` (being written).

use std::process::ExitCode;

pub fn run(_args: &[String]) -> Result<ExitCode, String> {
    Err("`bench` is not available in this build yet".into())
}
