//! The failover run against the cluster of `deploy/cluster.sh` (driven by
//! `deploy/cluster-test.sh`, which names it in the README): tables played through
//! HAProxy while the PostgreSQL primary and API servers are killed; what is checked
//! is in `tests/src/failover.rs`.
//!
//! ```text
//! cargo build --release -p yaniv-e2e-tests --example failover
//! ./target/release/examples/failover --url http://127.0.0.1:17450 \
//!     --admin-password-file .local/cluster/admin-password \
//!     [--tables 20] [--seconds 150] [--think-ms 0] [--kill-primary 3] [--kill-api 2]
//! ```
//!
//! The faults are spread evenly over the run, the primary's kills first and the API
//! servers' between them. Exit status 0 when every check held.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use yaniv_e2e_tests::failover::{self, FailoverConfig, Fault};

const USAGE: &str = "\
usage: failover --url URL --admin-password-file FILE [--tables N] [--seconds S]
                [--think-ms MS] [--kill-primary N] [--kill-api N] [--cluster-script PATH]";

fn parse(mut args: impl Iterator<Item = String>) -> Result<FailoverConfig, String> {
    let mut url = None;
    let mut password_file = None;
    let mut tables = 20;
    let mut seconds = 150;
    let mut think_ms = 0;
    let mut primary_kills = 3;
    let mut api_kills = 2;
    let mut script = PathBuf::from("deploy/cluster.sh");
    while let Some(flag) = args.next() {
        let mut value = || args.next().ok_or(format!("{flag} needs a value"));
        let number = |v: String| v.parse::<u64>().map_err(|_| format!("not a number: {v}"));
        match flag.as_str() {
            "--url" => url = Some(value()?.trim_end_matches('/').to_owned()),
            "--admin-password-file" => password_file = Some(value()?),
            "--tables" => tables = number(value()?)?,
            "--seconds" => seconds = number(value()?)?,
            "--think-ms" => think_ms = number(value()?)?,
            "--kill-primary" => primary_kills = number(value()?)?,
            "--kill-api" => api_kills = number(value()?)?,
            "--cluster-script" => script = PathBuf::from(value()?),
            "--help" | "-h" => return Err(USAGE.to_owned()),
            other => return Err(format!("unknown argument {other:?}\n{USAGE}")),
        }
    }
    let url = url.ok_or(format!("--url is required\n{USAGE}"))?;
    let password_file =
        password_file.ok_or(format!("--admin-password-file is required\n{USAGE}"))?;
    let admin_password = std::fs::read_to_string(&password_file)
        .map_err(|e| format!("{password_file}: {e}"))?
        .trim()
        .to_owned();
    // Primary kills and API kills alternate, the primary's first.
    let mut faults = Vec::new();
    let (mut p, mut a) = (primary_kills, api_kills);
    let mut api = 1u8;
    while p + a > 0 {
        if p > 0 {
            faults.push(Fault::KillPrimary);
            p -= 1;
        }
        if a > 0 {
            faults.push(Fault::KillApi(api));
            api = api % 3 + 1;
            a -= 1;
        }
    }
    Ok(FailoverConfig {
        url,
        tables: usize::try_from(tables).map_err(|e| e.to_string())?,
        duration: Duration::from_secs(seconds),
        faults,
        cluster_script: script,
        admin_password,
        think: Duration::from_millis(think_ms),
    })
}

#[tokio::main]
async fn main() -> ExitCode {
    let config = match parse(std::env::args().skip(1)) {
        Ok(config) => config,
        Err(message) => {
            eprintln!("{message}");
            return ExitCode::from(2);
        }
    };
    eprintln!(
        "failover: {} tables through {} for {} s; faults: {}",
        config.tables,
        config.url,
        config.duration.as_secs(),
        config
            .faults
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(", ")
    );
    match failover::run(config).await {
        Ok(report) => {
            println!("{report}");
            if report.passed() {
                println!("PASSED");
                ExitCode::SUCCESS
            } else {
                println!("FAILED");
                ExitCode::FAILURE
            }
        }
        Err(e) => {
            eprintln!("failover: the run could not be made: {e}");
            ExitCode::FAILURE
        }
    }
}
