//! `yaniv`: replay game records, play bot games, measure the engine.
//!
//! ```text
//! yaniv replay FILE|-                 print the yaniv-result/1 JSON (exit 0) or the error JSON (exit 1)
//! yaniv simulate --preset P --players N --games G --seed S [--bot random|greedy]
//!                [--records DIR] [--overrides JSON]
//! yaniv bench [--seconds S]           turns per second and events folded per second, one thread
//! yaniv verify ARCHIVE|-              check a championship archive offline: exit 0, or 1 naming the first failure
//! yaniv --version
//! ```
//! One module per subcommand, each with its clap arguments; this file only dispatches.
//! Every command answers `--help` (or `-h`) with its usage on standard output and exit
//! status 0, and `--version` (or `-V`); a usage error is a message on standard error and
//! exit status 2.

mod bench;
mod output;
mod replay;
mod simulate;
mod verify;

use std::ffi::OsString;
use std::process::ExitCode;

use clap::error::ErrorKind;
use clap::{CommandFactory, Parser, Subcommand};

/// Usage first: a reader who typed the command wrong looks at the first line.
const HELP_TEMPLATE: &str = "\
{usage-heading} {usage}

{about-with-newline}
{all-args}{after-help}";

const EXAMPLES: &str = "\
Examples:
  yaniv replay game.json
  yaniv simulate --preset belgian --players 5 --games 100 --seed 1
  yaniv simulate --preset israeli --players 4 --games 100 --seed 1 --overrides '{\"call_threshold\": 3}'
  yaniv bench --seconds 3
  yaniv verify tournament-7.yaniv-archive.json

Each command's --help says more.";

/// Replay game records, play bot games, measure the engine.
#[derive(Debug, Parser)]
#[command(
    name = "yaniv",
    version,
    propagate_version = true,
    arg_required_else_help = true,
    help_template = HELP_TEMPLATE,
    after_help = EXAMPLES,
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

// `display_name`: `yaniv simulate --version` names the tool, not "yaniv-simulate".
// `args_override_self`: an option given twice takes its last value, as it did before
// clap, so a script can append to a command line it was handed.
#[derive(Debug, Subcommand)]
enum Command {
    /// Replay a yaniv-record/1 game record (FILE, or - for standard input)
    #[command(help_template = HELP_TEMPLATE, display_name = "yaniv", args_override_self = true)]
    Replay(replay::Args),
    /// Play bot games on one thread and print a JSON summary
    #[command(help_template = HELP_TEMPLATE, display_name = "yaniv", args_override_self = true)]
    Simulate(simulate::Args),
    /// Measure the engine on one thread
    #[command(help_template = HELP_TEMPLATE, display_name = "yaniv", args_override_self = true)]
    Bench(bench::Args),
    /// Check a championship archive (yaniv-archive/1) offline (FILE, or - for standard input)
    #[command(help_template = HELP_TEMPLATE, display_name = "yaniv", args_override_self = true)]
    Verify(verify::Args),
    /// The tool's version (as --version)
    #[command(hide = true)]
    Version,
}

/// The tool's answer to a command line clap could not parse. A line that asks for
/// help gets the help even when something else on it is wrong: the reader is about to
/// look up what is right.
fn help_first(error: clap::Error, argv: &[OsString]) -> clap::Error {
    let settled = matches!(
        error.kind(),
        ErrorKind::DisplayHelp
            | ErrorKind::DisplayVersion
            | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
    );
    let asks_help = argv
        .iter()
        .skip(1)
        .take_while(|word| *word != "--")
        .any(|word| word == "--help" || word == "-h");
    if settled || !asks_help {
        return error;
    }
    let just_help = argv
        .iter()
        .take(2)
        .cloned()
        .chain([OsString::from("--help")]);
    match Cli::try_parse_from(just_help) {
        Err(help) if help.kind() == ErrorKind::DisplayHelp => help,
        _ => error,
    }
}

/// A usage error found after parsing (a value that depends on another), shown like
/// clap's own: the message, the subcommand's usage, exit status 2.
fn usage_error(subcommand: &str, message: String) -> ! {
    let mut cli = Cli::command();
    cli.build();
    match cli.find_subcommand_mut(subcommand) {
        Some(command) => command.error(ErrorKind::ValueValidation, message).exit(),
        None => cli.error(ErrorKind::ValueValidation, message).exit(),
    }
}

fn main() -> ExitCode {
    let argv: Vec<OsString> = std::env::args_os().collect();
    let cli = match Cli::try_parse_from(&argv) {
        Ok(cli) => cli,
        Err(error) => help_first(error, &argv).exit(),
    };
    let result = match cli.command {
        Command::Replay(args) => replay::run(&args),
        Command::Simulate(args) => match simulate::Options::try_from(args) {
            Ok(options) => simulate::run(options),
            Err(message) => usage_error("simulate", message),
        },
        Command::Bench(args) => bench::run(&args),
        Command::Verify(args) => verify::run(&args),
        Command::Version => output::print(&format!("yaniv {}", env!("CARGO_PKG_VERSION"))),
    };
    match result {
        Ok(code) => code,
        Err(message) => {
            eprintln!("yaniv: {message}");
            ExitCode::from(2)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_command_line_definition_is_consistent() {
        Cli::command().debug_assert();
    }
}
