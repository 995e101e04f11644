//! `yaniv-server`: runs the server, creates an admin, writes a checkpoint, or prints
//! the OpenAPI document. Everything else lives in the library (see `lib.rs`).

#![deny(clippy::unwrap_used)]

use std::io::BufRead;
use std::process::ExitCode;

use secrecy::SecretString;
use yaniv_api::auth::accounts::{self, BootstrapOutcome};
use yaniv_api::auth::password::PasswordService;
use yaniv_api::config::Settings;
use yaniv_api::error::error_chain;
use yaniv_api::startup::{self, Application, MIGRATOR};
use yaniv_api::telemetry::{self, LogFormat};

const USAGE: &str = "\
usage:
  yaniv-server [serve]                      run the HTTP server (configuration from the environment)
  yaniv-server create-admin --username NAME create an admin; the password is read from stdin
  yaniv-server migrate                      apply the pending database migrations, then exit
  yaniv-server checkpoint                   write a checkpoint of every stream head now and
                                            print it as JSON (publish its root elsewhere)
  yaniv-server openapi                      print the OpenAPI document (openapi/openapi.json)
";

type BoxError = Box<dyn std::error::Error + Send + Sync>;

fn main() -> ExitCode {
    // Before any thread or allocation of note: this may start the program again.
    if let Err(err) = yaniv_api::memory::fix_threshold_or_restart() {
        eprintln!(
            "could not start again with {}={}: {err}; glibc's own threshold is used",
            yaniv_api::memory::MMAP_THRESHOLD_VARIABLE,
            yaniv_api::memory::MMAP_THRESHOLD_BYTES
        );
    }
    run()
}

#[tokio::main]
async fn run() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let result = match args.as_slice() {
        [] | ["serve"] => serve().await,
        ["create-admin", "--username", name] => create_admin(name).await,
        ["create-admin", arg] if arg.starts_with("--username=") => {
            create_admin(&arg["--username=".len()..]).await
        }
        ["migrate"] => migrate().await,
        ["checkpoint"] => checkpoint().await,
        ["openapi"] => {
            print!("{}", yaniv_api::http::openapi::to_pretty_json());
            Ok(())
        }
        ["-h" | "--help" | "help"] => {
            print!("{USAGE}");
            Ok(())
        }
        _ => {
            eprint!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            // Through the log (stdout, JSON if configured), where operators look.
            tracing::error!(error = %error_chain(&*err), "exiting");
            ExitCode::FAILURE
        }
    }
}

async fn serve() -> Result<(), BoxError> {
    telemetry::init_subscriber(LogFormat::from_env());
    let settings = Settings::from_env()?;
    let app = Application::build(settings).await?;
    let stop = app.graceful_stop();
    tokio::spawn(async move {
        startup::shutdown_signal().await;
        stop.stop().await;
    });
    app.run_until_stopped().await?;
    tracing::info!("stopped");
    Ok(())
}

/// `migrate`: applies the pending migrations as the role of DATABASE_URL (the schema's
/// owner), for servers that run with `YANIV_MIGRATIONS=check` under a role without DDL.
async fn migrate() -> Result<(), BoxError> {
    telemetry::init_subscriber(LogFormat::from_env());
    let settings = Settings::from_env()?;
    let pool = startup::connect(&settings).await?;
    MIGRATOR.run(&pool).await?;
    startup::check_migrations(&pool).await?;
    tracing::info!(
        migrations = MIGRATOR.iter().count(),
        "every migration is applied"
    );
    pool.close().await;
    Ok(())
}

/// `checkpoint`: writes one now, whatever the interval, and prints it on stdout as one
/// JSON line, the last (log lines, if any, come before it).
async fn checkpoint() -> Result<(), BoxError> {
    telemetry::init_subscriber(LogFormat::from_env());
    let settings = Settings::from_env()?;
    let pool = startup::connect(&settings).await?;
    match settings.migrations {
        yaniv_api::config::Migrations::Apply => MIGRATOR.run(&pool).await?,
        yaniv_api::config::Migrations::Check => startup::check_migrations(&pool).await?,
    }
    let written = yaniv_api::checkpoints::write(&pool).await?;
    println!("{}", serde_json::to_string(&written)?);
    pool.close().await;
    Ok(())
}

/// `create-admin --username NAME`: reads the password from the first line of stdin.
async fn create_admin(username: &str) -> Result<(), BoxError> {
    telemetry::init_subscriber(LogFormat::from_env());
    let settings = Settings::from_env()?;
    let mut line = String::new();
    std::io::stdin().lock().read_line(&mut line)?;
    let password = SecretString::from(line.trim_end_matches(['\r', '\n']).to_owned());

    let pool = startup::connect(&settings).await?;
    MIGRATOR.run(&pool).await?;
    let passwords = PasswordService::new(1, std::time::Duration::from_secs(60));
    match accounts::ensure_admin(&pool, &passwords, username, &password, false).await? {
        BootstrapOutcome::Created(account) | BootstrapOutcome::AlreadyAdmin(account) => {
            println!("admin `{}` created (id {})", account.username, account.id);
        }
    }
    pool.close().await;
    Ok(())
}
