//! `yaniv`: replay game records, play bot games, measure the engine.
//!
//! ```text
//! yaniv replay FILE|-                 print the yaniv-result/1 JSON (exit 0) or the error JSON (exit 1)
//! yaniv simulate --preset P --players N --games G --seed S [--bot random|greedy] [--records DIR]
//! yaniv bench [--seconds S]           turns per second and events folded per second, one thread
//! yaniv --version
//! ```
//! One module per subcommand; this file only dispatches. Every subcommand answers
//! `--help` (or `-h`) with its usage on standard output and exit status 0; a usage
//! error is a message on standard error and exit status 2.

mod args;
mod bench;
mod output;
mod replay;
mod simulate;

use std::process::ExitCode;

const USAGE: &str = "usage:
  yaniv replay FILE            replay a yaniv-record/1 game record (FILE or - for stdin)
  yaniv simulate --preset P --players N --games G --seed S [--bot random|greedy] [--records DIR]
  yaniv bench [--seconds S]    measure the engine on one thread
  yaniv help | --help          this text
  yaniv --version              the tool's version

Each command's --help says more.";

fn main() -> ExitCode {
    let mut argv = std::env::args().skip(1);
    let command = argv.next();
    let rest: Vec<String> = argv.collect();
    let asks_help = rest.iter().any(|word| word == "--help" || word == "-h");
    let result = match command.as_deref() {
        Some("replay") if asks_help => output::print(replay::USAGE),
        Some("simulate") if asks_help => output::print(&simulate::usage()),
        Some("bench") if asks_help => output::print(bench::USAGE),
        Some("replay") => replay::run(&rest),
        Some("simulate") => simulate::run(&rest),
        Some("bench") => bench::run(&rest),
        Some("help" | "--help" | "-h") => output::print(USAGE),
        Some("version" | "--version" | "-V") => {
            output::print(&format!("yaniv {}", env!("CARGO_PKG_VERSION")))
        }
        Some(other) => Err(format!("unknown command {other:?}\n{USAGE}")),
        None => Err(USAGE.to_owned()),
    };
    match result {
        Ok(code) => code,
        Err(message) => {
            eprintln!("yaniv: {message}");
            ExitCode::from(2)
        }
    }
}
