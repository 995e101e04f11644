//! `yaniv`: replay game records, play bot games, measure the engine.
//!
//! ```text
//! yaniv replay FILE|-                 print the yaniv-result/1 JSON (exit 0) or the error JSON (exit 1)
//! yaniv simulate --preset P --players N --games G --seed S [--bot random|greedy]
//! yaniv bench [--seconds S]           turns per second and events folded per second, one thread
//! ```
//! One module per subcommand; this file only dispatches.

mod args;
mod bench;
mod replay;
mod simulate;

use std::process::ExitCode;

const USAGE: &str = "usage:
  yaniv replay FILE            replay a yaniv-record/1 game record (FILE or - for stdin)
  yaniv simulate --preset P --players N --games G --seed S [--bot random|greedy]
  yaniv bench [--seconds S]    measure the engine on one thread
  yaniv help";

fn main() -> ExitCode {
    let mut argv = std::env::args().skip(1);
    let command = argv.next();
    let rest: Vec<String> = argv.collect();
    let result = match command.as_deref() {
        Some("replay") => replay::run(&rest),
        Some("simulate") => simulate::run(&rest),
        Some("bench") => bench::run(&rest),
        Some("help" | "--help" | "-h") => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
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
