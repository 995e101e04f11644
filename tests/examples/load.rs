//! The load tool: many game tables played at once through the HTTP API, at a
//! person's pace or flat out, over one server or several.
//!
//! ```text
//! cargo build --release -p yaniv-e2e-tests --example load
//! DATABASE_URL=postgres://USER@HOST:PORT/DB ./target/release/examples/load [OPTIONS]
//! ```
//!
//! Without `--url`, it starts `--instances` servers in this process on a fresh
//! database made through `DATABASE_URL` (dropped at the end), all on that one
//! database, like the other examples. With `--url` it plays against servers that
//! are already running; they must share one database, and `DATABASE_URL` is then
//! only needed for `--pgbench` and must name that database.
//!
//! Every table has `--humans` seats played by this client (the same accounts at
//! every table) and `--bots` greedy bots played by the server. Each table is its own
//! task: it waits the think time, makes the mover's move (the move `choose` picks
//! from the seat's legal actions), and when the game ends opens a new table. The
//! tables go to the servers round robin. What is counted and how is in
//! `tests/src/load.rs`.
//!
//! Options:
//!
//! - `--url URL`: a server to play against (`http://host:port`); repeat it for
//!   several instances.
//! - `--instances N`: without `--url`, how many servers to start (default 1).
//! - `--workers N`: without `--url`, HTTP workers of each started server (default 2).
//! - `--db-pool N`: without `--url`, database connections of each started server
//!   (default 10).
//! - `--tables N`: tables in play at every moment (default 20).
//! - `--humans H`: human seats per table (default 1).
//! - `--bots B`: greedy bots per table (default 3); humans + bots is 2 to 8.
//! - `--preset NAME`: the rules of every table: israeli, nepali, kluft, belgian,
//!   wikipedia or house (default israeli).
//! - `--think-ms MS`: mean pause before each move, drawn from 0.5x to 1.5x so that
//!   the tables drift out of step (default 0: as fast as the servers answer).
//! - `--eager-call`: the humans call whenever the rules let them, not only at 5 points
//!   or less: short rounds and many deals (the mix that showed the fold cache's
//!   estimate far below what its tables hold).
//! - `--readers`: beside every table, a spectator (one more account per table)
//!   follows the table's live stream (NDJSON) and reads the new events after each
//!   move (`GET .../events?after=`), as a referee's or a viewer's page would.
//! - `--seconds S`: how long the tables play, after the setup (default 20).
//! - `--pgbench`: after the run, `pgbench` with one client per table
//!   (`-c TABLES -j 2 -T SECONDS -n`) on the same database, storing what a move
//!   stores: per transaction, as many ~600-byte event rows (with two hashes, unique
//!   per stream and version) as the run stored per action, in one INSERT, and the
//!   update of a listing row, in throwaway `load_pgbench` tables. It prints pgbench's
//!   TPS and the ratio actions/s ÷ TPS, which says how close a move (fold, decide,
//!   append, commit, answer) comes to the same rows written with nothing around them.
//! - `--help`: this list.
//!
//! Progress lines go to stderr every 5 seconds; the report to stdout. The report
//! also says where the CPU went while the tables played (from `/proc`): the whole
//! machine, this process, its HTTP server workers, and what ran outside it (the
//! database). On a small machine that says whether a figure waited on the client,
//! the servers or PostgreSQL. For example,
//! 1,000 tables of one person and three bots, each person moving every 2 s or so:
//!
//! ```text
//! DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres \
//!     ./target/release/examples/load --tables 1000 --humans 1 --bots 3 --think-ms 2000 --seconds 30
//! ```

use std::process::ExitCode;
use std::time::Duration;

use sqlx::{Connection, Executor, PgConnection};
use yaniv_api::config::Settings;
use yaniv_api::startup::Application;
use yaniv_e2e_tests::load::{self, LoadConfig, LoadReport};
use yaniv_e2e_tests::{TestApp, spawn_app_with, test_settings};

const USAGE: &str = "\
usage: load [--url URL]... [--instances N] [--workers N] [--db-pool N]
            [--tables N] [--humans H] [--bots B] [--preset NAME]
            [--think-ms MS] [--eager-call] [--seconds S] [--pgbench] [--help]

Plays TABLES Yaniv tables at once through the HTTP API (H humans played by this
client, B greedy bots played by the server, a pause of about MS before each move)
for S seconds, then reports actions/s, events/s, the action POST latency
percentiles, the errors by request, status and code, and the CPU used by the
machine, this process and its HTTP workers while the tables played.

  --url URL        a running server; repeat for several (they share one database)
  --instances N    without --url: servers started in this process (default 1)
  --workers N      without --url: HTTP workers per started server (default 2)
  --db-pool N      without --url: database connections per started server (default 10)
  --tables N       tables in play (default 20)
  --humans H       human seats per table (default 1)
  --bots B         greedy bots per table (default 3)
  --preset NAME    israeli, nepali, kluft, belgian, wikipedia, house (default israeli)
  --think-ms MS    mean think time before each move, 0.5x..1.5x (default 0)
  --eager-call     the humans call whenever the rules let them: short rounds, many deals
  --readers        a spectator per table follows its live stream and reads its new
                   events after each move (one more account per table)
  --seconds S      how long the tables play (default 20)
  --pgbench        then run pgbench -c TABLES -T S on the same database and print
                   its TPS and actions/s / TPS
  --help           this text

DATABASE_URL: without --url, a role that may create databases (a fresh one is made
and dropped); with --url and --pgbench, the servers' database.";

/// The command line, parsed.
#[derive(Debug)]
struct Options {
    urls: Vec<String>,
    instances: usize,
    workers: usize,
    db_pool: u32,
    tables: usize,
    humans: usize,
    bots: usize,
    preset: String,
    think_ms: u64,
    eager_call: bool,
    readers: bool,
    seconds: u64,
    pgbench: bool,
}

impl Default for Options {
    fn default() -> Self {
        Self {
            urls: Vec::new(),
            instances: 1,
            workers: 2,
            db_pool: 10,
            tables: 20,
            humans: 1,
            bots: 3,
            preset: "israeli".into(),
            think_ms: 0,
            eager_call: false,
            readers: false,
            seconds: 20,
            pgbench: false,
        }
    }
}

/// `Ok(None)` for `--help`.
fn parse_options(args: impl IntoIterator<Item = String>) -> Result<Option<Options>, String> {
    fn number<T: std::str::FromStr>(flag: &str, value: Option<String>) -> Result<T, String> {
        let value = value.ok_or_else(|| format!("{flag} needs a value"))?;
        value
            .parse()
            .map_err(|_| format!("{flag}: {value:?} is not a number"))
    }
    let mut options = Options::default();
    let mut args = args.into_iter();
    while let Some(flag) = args.next() {
        match flag.as_str() {
            "--help" | "-h" => return Ok(None),
            "--url" => {
                let url = args.next().ok_or("--url needs a value")?;
                options.urls.push(url.trim_end_matches('/').to_owned());
            }
            "--instances" => options.instances = number(&flag, args.next())?,
            "--workers" => options.workers = number(&flag, args.next())?,
            "--db-pool" => options.db_pool = number(&flag, args.next())?,
            "--tables" => options.tables = number(&flag, args.next())?,
            "--humans" => options.humans = number(&flag, args.next())?,
            "--bots" => options.bots = number(&flag, args.next())?,
            "--preset" => options.preset = args.next().ok_or("--preset needs a value")?,
            "--think-ms" => options.think_ms = number(&flag, args.next())?,
            "--seconds" => options.seconds = number(&flag, args.next())?,
            "--pgbench" => options.pgbench = true,
            "--eager-call" => options.eager_call = true,
            "--readers" => options.readers = true,
            other => return Err(format!("unknown argument {other:?}")),
        }
    }
    if options.instances == 0 || options.workers == 0 || options.db_pool == 0 {
        return Err("--instances, --workers and --db-pool must be at least 1".into());
    }
    if options.seconds == 0 {
        return Err("--seconds must be at least 1".into());
    }
    Ok(Some(options))
}

fn server_settings(options: &Options) -> impl Fn(&mut Settings) + '_ {
    |settings| {
        settings.http_workers = Some(options.workers);
        settings.db_pool_size = options.db_pool;
        // One connection per table at least, with room for the setup's bursts.
        settings.http_max_connections = settings.http_max_connections.max(4 * options.tables);
    }
}

/// Another server on `app`'s database, with the same settings as the first.
async fn spawn_instance(app: &TestApp, options: &Options) -> String {
    let mut settings = test_settings(app.database.url.clone(), &app.admin_password);
    server_settings(options)(&mut settings);
    let server = Application::build(settings)
        .await
        .expect("another server failed to start");
    let address = format!("http://127.0.0.1:{}", server.port());
    tokio::spawn(server.run_until_stopped());
    address
}

/// A transaction like a move's: `rows` event rows (a stream id, a version, ~600 bytes
/// of payload, two 32-byte hashes, unique per stream and version as in `events`) in one
/// INSERT, and the update of the table's listing row.
fn pgbench_script(rows: usize) -> String {
    format!(
        "\\set version random(1, 1000000000)
BEGIN;
INSERT INTO load_pgbench (stream_id, version, payload, prev_hash, hash) \
SELECT 'table-' || :client_id, :version::bigint * 16 + g, repeat('x', 600), \
sha256(g::text::bytea), sha256((g + 1)::text::bytea) FROM generate_series(1, {rows}) AS g;
UPDATE load_pgbench_listing SET version = version + {rows}, updated_at = now() \
WHERE id = :client_id;
END;
"
    )
}

/// Runs pgbench on `database_url` with `clients` clients for `seconds`, each
/// transaction storing `rows` event rows and updating a listing row; its TPS.
async fn run_pgbench(
    database_url: &str,
    clients: usize,
    seconds: u64,
    rows: usize,
) -> Result<f64, String> {
    let mut connection = PgConnection::connect(database_url)
        .await
        .map_err(|e| format!("connect to the database: {e}"))?;
    for statement in [
        "CREATE TABLE IF NOT EXISTS load_pgbench \
         (id bigserial primary key, stream_id text, version bigint, payload text, \
          prev_hash bytea, hash bytea, UNIQUE (stream_id, version))",
        "CREATE TABLE IF NOT EXISTS load_pgbench_listing \
         (id bigint primary key, version bigint NOT NULL, updated_at timestamptz)",
    ] {
        connection
            .execute(statement)
            .await
            .map_err(|e| format!("create the pgbench tables: {e}"))?;
    }
    sqlx::query(
        "INSERT INTO load_pgbench_listing (id, version) \
         SELECT g, 0 FROM generate_series(1, $1::int) AS g ON CONFLICT DO NOTHING",
    )
    .bind(i32::try_from(clients).unwrap_or(i32::MAX))
    .execute(&mut connection)
    .await
    .map_err(|e| format!("fill the listing: {e}"))?;
    let script = std::env::temp_dir().join(format!("load_pgbench_{}.sql", std::process::id()));
    std::fs::write(&script, pgbench_script(rows)).map_err(|e| format!("write the script: {e}"))?;

    let arguments: Vec<String> = vec![
        "-c".into(),
        clients.to_string(),
        // pgbench refuses more threads than clients.
        "-j".into(),
        clients.min(2).to_string(),
        "-T".into(),
        seconds.to_string(),
        "-n".into(),
        "-f".into(),
        script.display().to_string(),
        database_url.to_owned(),
    ];
    eprintln!("pgbench {}", arguments[..arguments.len() - 1].join(" "));
    // pgbench blocks for `seconds`: off the runtime's workers, which serve the servers.
    let output = tokio::task::spawn_blocking(move || {
        std::process::Command::new("pgbench")
            .args(&arguments)
            .output()
    })
    .await
    .map_err(|e| format!("pgbench task: {e}"))?;
    std::fs::remove_file(&script).ok();
    connection
        .execute("DROP TABLE load_pgbench, load_pgbench_listing")
        .await
        .ok();
    connection.close().await.ok();

    let output = output.map_err(|e| format!("cannot run pgbench: {e}"))?;
    let stdout = String::from_utf8_lossy(&output.stdout);
    if !output.status.success() {
        return Err(format!(
            "pgbench failed ({}): {}{}",
            output.status,
            stdout,
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    stdout
        .lines()
        .find_map(|line| line.strip_prefix("tps = "))
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|tps| tps.parse().ok())
        .ok_or_else(|| format!("no `tps = ` line in pgbench's output: {stdout}"))
}

fn print_pgbench(report: &LoadReport, tps: f64, clients: usize, rows: usize) {
    println!(
        "pgbench, {clients} clients, {rows} ~600-byte event rows and a listing update per \
         transaction: {tps:.1} TPS"
    );
    println!(
        "actions/s / pgbench TPS: {:.3}  (events/s / TPS: {:.3})",
        report.actions_per_second() / tps,
        report.events_per_second() / tps
    );
}

#[tokio::main]
async fn main() -> ExitCode {
    let options = match parse_options(std::env::args().skip(1)) {
        Ok(Some(options)) => options,
        Ok(None) => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Err(problem) => {
            eprintln!("{problem}\n\n{USAGE}");
            return ExitCode::from(2);
        }
    };

    // Kept until the end: dropping it drops the fresh database.
    let mut started_app = None;
    let (targets, database_url) = if options.urls.is_empty() {
        let app = spawn_app_with(server_settings(&options), Vec::new()).await;
        let mut targets = vec![app.address.clone()];
        for _ in 1..options.instances {
            targets.push(spawn_instance(&app, &options).await);
        }
        let database_url = Some(app.database.url.clone());
        eprintln!(
            "started {} server(s) on database {}",
            targets.len(),
            app.database.name
        );
        started_app = Some(app);
        (targets, database_url)
    } else {
        let database_url = std::env::var("DATABASE_URL")
            .ok()
            .filter(|url| !url.is_empty());
        (options.urls.clone(), database_url)
    };
    if options.pgbench && database_url.is_none() {
        eprintln!("--pgbench needs DATABASE_URL: the servers' database");
        return ExitCode::from(2);
    }

    let config = LoadConfig {
        tables: options.tables,
        humans_per_table: options.humans,
        bots_per_table: options.bots,
        preset: options.preset.clone(),
        think_ms: options.think_ms,
        eager_call: options.eager_call,
        readers: options.readers,
        duration: Duration::from_secs(options.seconds),
        progress_every: Duration::from_secs(5),
        ..LoadConfig::new(targets)
    };
    eprintln!(
        "setting up {} tables on {}",
        config.tables,
        config.targets.join(", ")
    );
    let report = match load::run(&config, |progress| {
        eprintln!(
            "{:>6.1} s: {} actions ({:.0}/s), {} errors",
            progress.elapsed.as_secs_f64(),
            progress.actions,
            progress.actions as f64 / progress.elapsed.as_secs_f64().max(f64::EPSILON),
            progress.errors
        );
    })
    .await
    {
        Ok(report) => report,
        Err(error) => {
            eprintln!("{error}");
            return ExitCode::FAILURE;
        }
    };
    println!("{report}");

    if options.pgbench
        && let Some(database_url) = &database_url
    {
        // As many event rows per transaction as the run stored per action (a move and
        // the bots' answers), at least one.
        let rows = (report.events_per_second() / report.actions_per_second().max(1e-9))
            .round()
            .max(1.0) as usize;
        match run_pgbench(database_url, options.tables, options.seconds, rows).await {
            Ok(tps) => print_pgbench(&report, tps, options.tables, rows),
            Err(problem) => {
                eprintln!("{problem}");
                drop(started_app);
                return ExitCode::FAILURE;
            }
        }
    }
    drop(started_app);
    ExitCode::SUCCESS
}
