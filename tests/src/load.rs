//! The load tool's engine (`tests/examples/load.rs` is its command line): many game
//! tables played at once through the HTTP API, the way people play them.
//!
//! Every table has `humans_per_table` seats played by this client and
//! `bots_per_table` greedy bots, which the server plays inside the humans' requests.
//! The same few accounts sit at every table (an account may sit at many tables at
//! once): a run of a thousand tables needs no thousand registrations, which argon2
//! would make the slowest part of the setup.
//!
//! Each table has its own task. It learns whose turn it is (from the last answer, or
//! with a `GET .../view` when the mover is another human), waits the think time
//! (0.5x to 1.5x of `think_ms`, drawn per move, so that tables drift out of step as
//! at a venue), picks a legal move with [`choose`] and posts it. When the game is
//! over it opens a new table on the same server. Tables go to the servers round
//! robin.
//!
//! What is counted:
//! - actions: accepted `POST /v1/tables/{id}/actions`;
//! - events: what those answers say they `appended` (the move, then the deals and
//!   the bots' moves that followed it). The events of creating, joining and starting
//!   tables are left out: they are setup, not play;
//! - latency: every action POST that got an answer, accepted or refused;
//! - errors: every failed request, by request, status and problem code. A refusal
//!   such as 409 `not_your_turn` is counted, then the table looks again and goes on.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant, SystemTime};

use reqwest::{Client, RequestBuilder};
use serde_json::{Value, json};
use yaniv_domain::rules::PRESET_NAMES;

use crate::tables::choose;
use crate::{join_all, random_hex};

/// Long enough never to cut short a slow answer that should be measured, short
/// enough that a hung server does not hang the run.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(30);
/// Shorter than the server's keep-alive (actix closes idle connections after 5 s),
/// so that the client never sends a request on a connection the server is closing.
const IDLE_CONNECTION_TIMEOUT: Duration = Duration::from_secs(4);
/// Tables opened at once during the setup: enough to keep the servers busy, few
/// enough not to queue a thousand transactions on their pools.
const SETUP_CONCURRENCY: usize = 32;
/// A table that fails this many requests in a row is left for a new one, so that one
/// broken table cannot spin on errors for the whole run.
const FAILURES_BEFORE_NEW_TABLE: u32 = 5;
/// So that a failing server is not hammered by a tight retry loop.
const PAUSE_AFTER_FAILURE: Duration = Duration::from_millis(50);

/// What to run.
#[derive(Debug, Clone)]
pub struct LoadConfig {
    /// Base URLs of the servers (`http://host:port`), all on one database.
    pub targets: Vec<String>,
    /// Tables in play at every moment of the run.
    pub tables: usize,
    /// Seats played by this client at each table (the same accounts at every table).
    pub humans_per_table: usize,
    /// Greedy bots at each table, played by the server.
    pub bots_per_table: usize,
    /// The rules preset of every table (`israeli`, `belgian`, ...).
    pub preset: String,
    /// Mean pause before each move; 0 plays as fast as the servers answer.
    pub think_ms: u64,
    /// The humans call whenever the rules let them (short rounds, many deals), instead
    /// of only at 5 points or less.
    pub eager_call: bool,
    /// Beside every table a spectator (an account of its own) follows the table's live
    /// stream and, after each move, reads the new events (`GET .../events?after=`), as
    /// a referee's or a viewer's page would.
    pub readers: bool,
    /// How long the tables are played, after the setup.
    pub duration: Duration,
    /// How often the progress callback of [`run`] is called.
    pub progress_every: Duration,
}

impl LoadConfig {
    /// Twenty Israeli tables of one human and three greedy bots, without pauses, for
    /// twenty seconds.
    pub fn new(targets: Vec<String>) -> Self {
        Self {
            targets,
            tables: 20,
            humans_per_table: 1,
            bots_per_table: 3,
            preset: "israeli".into(),
            think_ms: 0,
            eager_call: false,
            readers: false,
            duration: Duration::from_secs(20),
            progress_every: Duration::from_secs(5),
        }
    }

    pub fn seats(&self) -> usize {
        self.humans_per_table + self.bots_per_table
    }

    /// Refuses what the server would refuse at the first table, with a clearer message.
    pub fn check(&self) -> Result<(), LoadError> {
        let problem = if self.targets.is_empty() {
            Some("no target URL".to_owned())
        } else if self.tables == 0 {
            Some("at least one table".to_owned())
        } else if self.humans_per_table == 0 {
            Some("at least one human per table (a table keeps a human seat)".to_owned())
        } else if !(2..=8).contains(&self.seats()) {
            Some(format!(
                "humans + bots must be 2 to 8 seats, not {}",
                self.seats()
            ))
        } else if !PRESET_NAMES.contains(&self.preset.as_str()) {
            Some(format!(
                "unknown preset {:?} (one of {})",
                self.preset,
                PRESET_NAMES.join(", ")
            ))
        } else if self.duration.is_zero() || self.progress_every.is_zero() {
            Some("the duration and the progress interval must be positive".to_owned())
        } else {
            None
        };
        problem.map_or(Ok(()), |problem| Err(LoadError::Config(problem)))
    }

    /// The `POST /v1/tables` body: humans take the first seats, bots the last.
    fn table_body(&self) -> Value {
        let bots: Vec<Value> = (self.humans_per_table..self.seats())
            .map(|seat| json!({"seat": seat, "kind": "greedy"}))
            .collect();
        json!({"preset": self.preset, "seats": self.seats(), "bots": bots})
    }

    fn target_of_table(&self, table: usize) -> &str {
        &self.targets[table % self.targets.len()]
    }
}

/// Why a run could not be made.
#[derive(Debug)]
pub enum LoadError {
    /// The configuration cannot be run.
    Config(String),
    /// The accounts or the first tables could not be set up.
    Setup(String),
    /// A table's task ended abnormally (a panic in this client).
    Driver(String),
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Config(problem) => write!(f, "configuration: {problem}"),
            Self::Setup(problem) => write!(f, "setup: {problem}"),
            Self::Driver(problem) => write!(f, "a table's task failed: {problem}"),
        }
    }
}

impl std::error::Error for LoadError {}

/// A request that did not succeed, as counted in the report.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Failure {
    /// What was asked: `action`, `view`, `create`, `join`, `start`, `register`,
    /// `log in`; `choose` when the mover's view offered no move to make.
    pub request: &'static str,
    /// The HTTP status; `None` when no answer came or no request was sent.
    pub status: Option<u16>,
    /// The problem document's `code` (`not_your_turn`, ...); without an answer, what
    /// went wrong (`timeout`, `connect`, ...).
    pub code: String,
}

impl Failure {
    fn client_side(request: &'static str, code: &str) -> Self {
        Self {
            request,
            status: None,
            code: code.to_owned(),
        }
    }

    fn transport(request: &'static str, error: &reqwest::Error) -> Self {
        let code = if error.is_timeout() {
            "timeout"
        } else if error.is_connect() {
            "connect"
        } else {
            "transport"
        };
        Self::client_side(request, code)
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.status {
            Some(status) => write!(f, "{} {status} {}", self.request, self.code),
            None => write!(f, "{} {}", self.request, self.code),
        }
    }
}

/// Percentiles of a set of durations (nearest rank).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Latencies {
    pub samples: usize,
    pub p50: Duration,
    pub p90: Duration,
    pub p99: Duration,
    pub max: Duration,
}

impl Latencies {
    pub fn of(mut durations: Vec<Duration>) -> Self {
        durations.sort_unstable();
        let samples = durations.len();
        let at = |fraction: f64| {
            let rank = (fraction * samples as f64).ceil() as usize;
            durations
                .get(rank.clamp(1, samples.max(1)) - 1)
                .copied()
                .unwrap_or_default()
        };
        Self {
            samples,
            p50: at(0.50),
            p90: at(0.90),
            p99: at(0.99),
            max: durations.last().copied().unwrap_or_default(),
        }
    }
}

/// Counts so far, handed to the progress callback of [`run`].
#[derive(Debug, Clone, Copy)]
pub struct Progress {
    /// Since the tables started playing.
    pub elapsed: Duration,
    pub actions: u64,
    pub errors: u64,
}

/// What a run measured.
#[derive(Debug, Clone)]
pub struct LoadReport {
    pub config: LoadConfig,
    /// Registering the accounts and opening the first tables (not measured).
    pub setup: Duration,
    /// From the first move to the last answer.
    pub elapsed: Duration,
    /// Accepted action POSTs.
    pub actions: u64,
    /// Events appended by those actions (their answers' `appended`).
    pub events: u64,
    /// `GET .../view` made to learn a human's hand when it is their turn.
    pub views: u64,
    /// With [`LoadConfig::readers`]: the spectators' `GET .../events` and the messages
    /// their live streams brought.
    pub event_reads: u64,
    pub stream_messages: u64,
    pub games_finished: u64,
    /// Tables opened during the run to replace finished ones.
    pub tables_opened: u64,
    /// Every action POST that got an answer.
    pub latency: Latencies,
    /// Where the CPU went while the tables played; `None` where `/proc` cannot say.
    pub cpu: Option<CpuUse>,
    pub errors: BTreeMap<Failure, u64>,
}

impl LoadReport {
    pub fn actions_per_second(&self) -> f64 {
        per_second(self.actions, self.elapsed)
    }

    pub fn events_per_second(&self) -> f64 {
        per_second(self.events, self.elapsed)
    }

    pub fn error_count(&self) -> u64 {
        self.errors.values().sum()
    }
}

fn per_second(count: u64, elapsed: Duration) -> f64 {
    if elapsed.is_zero() {
        0.0
    } else {
        count as f64 / elapsed.as_secs_f64()
    }
}

fn millis(duration: Duration) -> f64 {
    duration.as_secs_f64() * 1000.0
}

impl fmt::Display for LoadReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let config = &self.config;
        let pace = if config.think_ms == 0 {
            "no think time".to_owned()
        } else {
            format!("think {} ms (0.5x to 1.5x)", config.think_ms)
        };
        writeln!(
            f,
            "{} tables of {} human(s) + {} greedy bot(s), {}, {pace}, on {} server(s)",
            config.tables,
            config.humans_per_table,
            config.bots_per_table,
            config.preset,
            config.targets.len()
        )?;
        writeln!(
            f,
            "setup (accounts, first tables): {:.1} s; played for {:.1} s",
            self.setup.as_secs_f64(),
            self.elapsed.as_secs_f64()
        )?;
        writeln!(
            f,
            "actions:  {:>9}  {:>9.1}/s",
            self.actions,
            self.actions_per_second()
        )?;
        writeln!(
            f,
            "events:   {:>9}  {:>9.1}/s  ({:.2} per action)",
            self.events,
            self.events_per_second(),
            if self.actions == 0 {
                0.0
            } else {
                self.events as f64 / self.actions as f64
            }
        )?;
        writeln!(
            f,
            "views fetched {}, games finished {}, tables opened during the run {}",
            self.views, self.games_finished, self.tables_opened
        )?;
        if self.config.readers {
            writeln!(
                f,
                "spectators: {} event reads, {} stream messages",
                self.event_reads, self.stream_messages
            )?;
        }
        let latency = &self.latency;
        writeln!(
            f,
            "action POST latency over {} answers: p50 {:.2} ms, p90 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
            latency.samples,
            millis(latency.p50),
            millis(latency.p90),
            millis(latency.p99),
            millis(latency.max)
        )?;
        if let Some(cpu) = &self.cpu {
            writeln!(
                f,
                "CPU while playing, in cores of {}: machine {:.2}, this process {:.2} (its HTTP \
                 server workers {:.2}), outside it (PostgreSQL, anything else) {:.2}",
                cpu.cores,
                cpu.machine,
                cpu.process,
                cpu.http_workers,
                cpu.outside_process()
            )?;
        }
        if self.errors.is_empty() {
            write!(f, "errors: none")
        } else {
            write!(f, "errors: {}", self.error_count())?;
            for (failure, count) in &self.errors {
                write!(f, "\n  {failure}: {count}")?;
            }
            Ok(())
        }
    }
}

/// Plays `config.tables` tables for `config.duration` and reports what was measured.
/// `on_progress` is called every `config.progress_every` while the tables play.
pub async fn run(
    config: &LoadConfig,
    mut on_progress: impl FnMut(&Progress),
) -> Result<LoadReport, LoadError> {
    config.check()?;
    let client = Client::builder()
        .timeout(REQUEST_TIMEOUT)
        .pool_idle_timeout(IDLE_CONNECTION_TIMEOUT)
        .build()
        .map_err(|e| LoadError::Setup(format!("HTTP client: {e}")))?;

    let setup_started = Instant::now();
    let accounts: Arc<[Account]> =
        open_accounts(&client, &config.targets[0], config.humans_per_table)
            .await?
            .into();
    let body = config.table_body();
    let mut seatings = Vec::with_capacity(config.tables);
    let table_numbers: Vec<usize> = (0..config.tables).collect();
    for chunk in table_numbers.chunks(SETUP_CONCURRENCY) {
        let opened =
            join_all(chunk.iter().map(|&table| {
                open_table(&client, config.target_of_table(table), &accounts, &body)
            }))
            .await;
        for (&table, result) in chunk.iter().zip(opened) {
            let seating = result.map_err(|failure| {
                LoadError::Setup(format!(
                    "table {table} on {}: {failure}",
                    config.target_of_table(table)
                ))
            })?;
            seatings.push(seating);
        }
    }
    let spectators = if config.readers {
        open_accounts(&client, &config.targets[0], config.tables).await?
    } else {
        Vec::new()
    };
    // A live stream lasts as long as its table: no request timeout for it.
    let stream_client = Client::builder()
        .pool_idle_timeout(IDLE_CONNECTION_TIMEOUT)
        .build()
        .map_err(|e| LoadError::Setup(format!("HTTP client: {e}")))?;
    let setup = setup_started.elapsed();

    let counters = Arc::new(Counters::default());
    let seed = random_seed();
    let cpu_at_start = CpuSample::now();
    let started = Instant::now();
    let deadline = started + config.duration;
    let handles: Vec<_> = seatings
        .into_iter()
        .enumerate()
        .map(|(table, seating)| {
            let driver = TableDriver {
                client: client.clone(),
                target: config.target_of_table(table).to_owned(),
                accounts: Arc::clone(&accounts),
                body: body.clone(),
                think: Duration::from_millis(config.think_ms),
                eager_call: config.eager_call,
                spectator: spectators
                    .get(table)
                    .map(|spectator| (spectator.clone(), stream_client.clone())),
                deadline,
                jitter: Jitter(seed ^ (table as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)),
                counters: Arc::clone(&counters),
                stats: TableStats::default(),
            };
            tokio::spawn(driver.drive(seating))
        })
        .collect();

    loop {
        let now = Instant::now();
        if now >= deadline {
            break;
        }
        tokio::time::sleep(config.progress_every.min(deadline - now)).await;
        on_progress(&Progress {
            elapsed: started.elapsed(),
            actions: counters.actions.load(Ordering::Relaxed),
            errors: counters.errors.load(Ordering::Relaxed),
        });
    }
    let mut total = TableStats::default();
    for handle in handles {
        let stats = handle.await.map_err(|e| LoadError::Driver(e.to_string()))?;
        total.merge(stats);
    }
    let elapsed = started.elapsed();
    let cpu = cpu_at_start.zip(CpuSample::now()).map(|(a, b)| b.since(&a));

    Ok(LoadReport {
        config: config.clone(),
        setup,
        elapsed,
        actions: total.actions,
        events: total.events,
        views: total.views,
        event_reads: total.event_reads,
        stream_messages: counters.stream_messages.load(Ordering::Relaxed),
        games_finished: total.games_finished,
        tables_opened: total.tables_opened,
        latency: Latencies::of(total.latencies),
        cpu,
        errors: total.errors,
    })
}

/// Where the CPU went during a run, in cores busy on average (2.0 is two cores
/// all the time). Client, servers and database share a benchmark machine; this says
/// which of them a figure was waiting on.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CpuUse {
    /// Cores of the machine.
    pub cores: usize,
    /// Busy, whatever ran.
    pub machine: f64,
    /// Used by this process: the client, and the servers when they run in it.
    pub process: f64,
    /// Of that, by in-process servers' HTTP workers (threads `actix-server worker N`),
    /// where requests are handled; the client's tasks run on the other threads.
    pub http_workers: f64,
}

impl CpuUse {
    /// Used outside this process: the database and anything else on the machine.
    pub fn outside_process(&self) -> f64 {
        (self.machine - self.process).max(0.0)
    }
}

/// CPU counters from `/proc`, in clock ticks.
#[derive(Debug, Clone, Copy)]
struct CpuSample {
    cores: usize,
    machine_busy: u64,
    machine_total: u64,
    process: u64,
    http_workers: u64,
}

impl CpuSample {
    fn now() -> Option<Self> {
        let stat = std::fs::read_to_string("/proc/stat").ok()?;
        let mut lines = stat.lines();
        let all: Vec<u64> = lines
            .next()?
            .strip_prefix("cpu ")?
            .split_whitespace()
            .filter_map(|n| n.parse().ok())
            .collect();
        // user nice system idle iowait irq softirq steal (guest time is in user).
        let [user, nice, system, idle, iowait, irq, softirq, steal, ..] = all[..] else {
            return None;
        };
        let machine_busy = user + nice + system + irq + softirq + steal;
        let cores = lines.filter(|line| line.starts_with("cpu")).count();

        let process = ticks_of(&std::fs::read_to_string("/proc/self/stat").ok()?)?.1;
        let mut http_workers = 0;
        for task in std::fs::read_dir("/proc/self/task").ok()?.flatten() {
            let Ok(stat) = std::fs::read_to_string(task.path().join("stat")) else {
                continue; // the thread ended meanwhile
            };
            if let Some((name, ticks)) = ticks_of(&stat)
                && name.starts_with("actix-server w")
            {
                http_workers += ticks;
            }
        }
        Some(Self {
            cores,
            machine_busy,
            machine_total: machine_busy + idle + iowait,
            process,
            http_workers,
        })
    }

    fn since(&self, earlier: &Self) -> CpuUse {
        let total = self
            .machine_total
            .saturating_sub(earlier.machine_total)
            .max(1) as f64;
        let cores_of =
            |now: u64, then: u64| now.saturating_sub(then) as f64 / total * self.cores as f64;
        CpuUse {
            cores: self.cores,
            machine: cores_of(self.machine_busy, earlier.machine_busy),
            process: cores_of(self.process, earlier.process),
            http_workers: cores_of(self.http_workers, earlier.http_workers),
        }
    }
}

/// The name and user + system clock ticks of a `/proc/.../stat` line. The name is in
/// parentheses and may hold spaces, so the fields are counted after the last `)`.
fn ticks_of(stat: &str) -> Option<(&str, u64)> {
    let open = stat.find('(')?;
    let close = stat.rfind(')')?;
    let name = stat.get(open + 1..close)?;
    let fields: Vec<&str> = stat.get(close + 1..)?.split_whitespace().collect();
    // Fields 14 (utime) and 15 (stime) of proc(5); field 3 is the first after the name.
    let user: u64 = fields.get(11)?.parse().ok()?;
    let system: u64 = fields.get(12)?.parse().ok()?;
    Some((name, user + system))
}

/// One of the accounts that play every table's human seats.
#[derive(Debug, Clone)]
struct Account {
    username: String,
    token: String,
}

/// Sends `request` and reads its JSON answer; anything but a 2xx JSON answer is a
/// [`Failure`] of `request_name`.
async fn send(request: RequestBuilder, request_name: &'static str) -> Result<Value, Failure> {
    let response = request
        .send()
        .await
        .map_err(|e| Failure::transport(request_name, &e))?;
    let status = response.status();
    let failure = |code: &str| Failure {
        request: request_name,
        status: Some(status.as_u16()),
        code: code.to_owned(),
    };
    let body = response
        .bytes()
        .await
        .map_err(|_| failure("body_not_read"))?;
    if status.is_success() {
        serde_json::from_slice(&body).map_err(|_| failure("not_json"))
    } else {
        let problem: Value = serde_json::from_slice(&body).unwrap_or_default();
        Err(failure(
            problem["code"].as_str().unwrap_or("no_problem_code"),
        ))
    }
}

/// Registers and logs in `count` accounts under names no earlier run has used, so
/// that runs against a long-lived server do not collide.
async fn open_accounts(
    client: &Client,
    target: &str,
    count: usize,
) -> Result<Vec<Account>, LoadError> {
    let run_tag = random_hex(4);
    let mut accounts = Vec::with_capacity(count);
    for number in 0..count {
        let username = format!("load-{run_tag}-{number}");
        let credentials =
            json!({"username": username, "password": format!("load-password-{}", random_hex(8))});
        let setup_error = |failure: Failure| {
            LoadError::Setup(format!("account {username} on {target}: {failure}"))
        };
        send(
            client
                .post(format!("{target}/v1/accounts"))
                .json(&credentials),
            "register",
        )
        .await
        .map_err(setup_error)?;
        let session = send(
            client
                .post(format!("{target}/v1/sessions"))
                .json(&credentials),
            "log in",
        )
        .await
        .map_err(setup_error)?;
        let token = session["token"]
            .as_str()
            .ok_or_else(|| LoadError::Setup(format!("the session of {username} has no token")))?
            .to_owned();
        accounts.push(Account { username, token });
    }
    Ok(accounts)
}

/// A table in play and who sits where.
#[derive(Debug)]
struct Seating {
    id: i64,
    /// For each seat, the index of the account that plays it; `None` for a bot.
    players: Vec<Option<usize>>,
    /// The latest view of one of the humans, while it is known to be current: the
    /// last answer's. Bots only move inside our requests, so nothing changes it.
    view: Option<Value>,
    failures_in_a_row: u32,
    /// The version up to which the spectator has read the events.
    read_upto: u64,
    /// The spectator's live stream of this table, ended with it.
    follower: Option<Follower>,
}

/// A spectator's stream-reading task, stopped when the table is left.
#[derive(Debug)]
struct Follower(tokio::task::JoinHandle<()>);

impl Drop for Follower {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// Reads a table's live stream (NDJSON) as it comes, counting its messages.
async fn follow_stream(client: Client, url: String, token: String, counters: Arc<Counters>) {
    let Ok(mut response) = client
        .get(url)
        .bearer_auth(token)
        .header("Accept", "application/x-ndjson")
        .send()
        .await
    else {
        counters.errors.fetch_add(1, Ordering::Relaxed);
        return;
    };
    if !response.status().is_success() {
        counters.errors.fetch_add(1, Ordering::Relaxed);
        return;
    }
    while let Ok(Some(chunk)) = response.chunk().await {
        let lines = chunk.iter().filter(|&&byte| byte == b'\n').count();
        counters
            .stream_messages
            .fetch_add(lines as u64, Ordering::Relaxed);
    }
}

/// Creates a table as the first account, seats every account, starts it.
async fn open_table(
    client: &Client,
    target: &str,
    accounts: &[Account],
    body: &Value,
) -> Result<Seating, Failure> {
    let creator = accounts
        .first()
        .ok_or_else(|| Failure::client_side("create", "no_account"))?;
    let created = send(
        client
            .post(format!("{target}/v1/tables"))
            .bearer_auth(&creator.token)
            .json(body),
        "create",
    )
    .await?;
    let id = created["id"]
        .as_i64()
        .ok_or_else(|| Failure::client_side("create", "answer_without_id"))?;
    for account in accounts {
        send(
            client
                .post(format!("{target}/v1/tables/{id}/join"))
                .bearer_auth(&account.token),
            "join",
        )
        .await?;
    }
    let mut started = send(
        client
            .post(format!("{target}/v1/tables/{id}/start"))
            .bearer_auth(&creator.token),
        "start",
    )
    .await?;
    let view = started.get_mut("view").map(Value::take).unwrap_or_default();
    let players: Vec<Option<usize>> = view["table"]["seats"]
        .as_array()
        .map(|seats| {
            seats
                .iter()
                .map(|seat| {
                    let username = seat["username"].as_str()?;
                    accounts.iter().position(|a| a.username == username)
                })
                .collect()
        })
        .unwrap_or_default();
    if players.iter().flatten().count() != accounts.len() {
        return Err(Failure::client_side("start", "seats_without_our_players"));
    }
    Ok(Seating {
        id,
        players,
        view: Some(view),
        failures_in_a_row: 0,
        read_upto: 0,
        follower: None,
    })
}

/// Live totals of all tables, for the progress lines.
#[derive(Debug, Default)]
struct Counters {
    actions: AtomicU64,
    errors: AtomicU64,
    stream_messages: AtomicU64,
}

/// One table task's measurements, merged at the end so that the tasks share no lock.
#[derive(Debug, Default)]
struct TableStats {
    actions: u64,
    events: u64,
    views: u64,
    event_reads: u64,
    games_finished: u64,
    tables_opened: u64,
    latencies: Vec<Duration>,
    errors: BTreeMap<Failure, u64>,
}

impl TableStats {
    fn merge(&mut self, other: TableStats) {
        self.actions += other.actions;
        self.events += other.events;
        self.views += other.views;
        self.event_reads += other.event_reads;
        self.games_finished += other.games_finished;
        self.tables_opened += other.tables_opened;
        self.latencies.extend(other.latencies);
        for (failure, count) in other.errors {
            *self.errors.entry(failure).or_insert(0) += count;
        }
    }
}

/// A seed that differs from run to run; the clock will do when the OS has no
/// random numbers, since the jitter only needs to spread the tables.
fn random_seed() -> u64 {
    getrandom::u64().unwrap_or_else(|_| {
        SystemTime::now()
            .duration_since(SystemTime::UNIX_EPOCH)
            .map_or(0, |since| since.as_nanos() as u64)
    })
}

/// SplitMix64: plenty for spreading pauses, and no dependency for it.
#[derive(Debug)]
struct Jitter(u64);

impl Jitter {
    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `[0, 1)`.
    fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// Plays one table after another on one server until the deadline.
#[derive(Debug)]
struct TableDriver {
    client: Client,
    target: String,
    accounts: Arc<[Account]>,
    body: Value,
    think: Duration,
    eager_call: bool,
    /// With readers: the table's spectator, and a client without a request timeout
    /// for its stream.
    spectator: Option<(Account, Client)>,
    deadline: Instant,
    jitter: Jitter,
    counters: Arc<Counters>,
    stats: TableStats,
}

impl TableDriver {
    async fn drive(mut self, first: Seating) -> TableStats {
        // The tables start out of step: each waits up to one think time first.
        let offset = self.think.mul_f64(self.jitter.unit());
        self.pause(offset).await;
        let mut table = Some(self.followed(first));
        while Instant::now() < self.deadline {
            let seating = match table.take() {
                Some(seating) => seating,
                None => {
                    match open_table(&self.client, &self.target, &self.accounts, &self.body).await {
                        Ok(seating) => {
                            self.stats.tables_opened += 1;
                            self.followed(seating)
                        }
                        Err(failure) => {
                            self.count_failure(failure);
                            self.pause(PAUSE_AFTER_FAILURE).await;
                            continue;
                        }
                    }
                }
            };
            table = self.step(seating).await;
        }
        self.stats
    }

    /// `seating` with its spectator's stream open, when there are spectators.
    fn followed(&self, mut seating: Seating) -> Seating {
        if let Some((spectator, client)) = &self.spectator {
            seating.follower = Some(Follower(tokio::spawn(follow_stream(
                client.clone(),
                format!("{}/v1/tables/{}/stream", self.target, seating.id),
                spectator.token.clone(),
                Arc::clone(&self.counters),
            ))));
        }
        seating
    }

    /// The spectator reads what the last move appended, up to `version`.
    async fn read_events(&mut self, seating: &mut Seating, version: u64) {
        let Some((spectator, _)) = &self.spectator else {
            return;
        };
        let request = self
            .client
            .get(format!(
                "{}/v1/tables/{}/events?after={}",
                self.target, seating.id, seating.read_upto
            ))
            .bearer_auth(&spectator.token);
        match send(request, "events").await {
            Ok(_) => {
                self.stats.event_reads += 1;
                seating.read_upto = version;
            }
            Err(failure) => self.count_failure(failure),
        }
    }

    /// Makes the next move at `seating`. Returns the table to go on with, or `None`
    /// when a new one is needed (the game is over, or this one keeps failing).
    async fn step(&mut self, mut seating: Seating) -> Option<Seating> {
        let view = match seating.view.take() {
            Some(view) => view,
            None => {
                // Any seated human's view says whose turn it is.
                let viewer = seating.players.iter().flatten().next().copied()?;
                match self.fetch_view(seating.id, viewer).await {
                    Ok(view) => view,
                    Err(failure) => return self.failed(seating, failure).await,
                }
            }
        };
        if view["table"]["status"] == "finished" {
            self.stats.games_finished += 1;
            return None;
        }
        let Some(mover_seat) = view["table"]["to_act"].as_u64() else {
            let failure = Failure::client_side("choose", "nobody_to_act");
            return self.failed(seating, failure).await;
        };
        let Some(mover) = seating.players.get(mover_seat as usize).copied().flatten() else {
            let failure = Failure::client_side("choose", "a_bot_to_act");
            return self.failed(seating, failure).await;
        };
        let view = if view["seat"].as_u64() == Some(mover_seat) {
            view
        } else {
            match self.fetch_view(seating.id, mover).await {
                Ok(view) => view,
                Err(failure) => return self.failed(seating, failure).await,
            }
        };
        let think = self.think.mul_f64(0.5 + self.jitter.unit());
        self.pause(think).await;
        if Instant::now() >= self.deadline {
            return Some(seating);
        }
        let eager = self.eager_call && view["legal"]["call"].as_bool() == Some(true);
        let Some(action) = (if eager {
            Some(json!({"type": "call"}))
        } else {
            choose(&view)
        }) else {
            // Looking again would give the same view: only a new table helps.
            self.count_failure(Failure::client_side("choose", "no_legal_move"));
            return None;
        };

        let request = self
            .client
            .post(format!("{}/v1/tables/{}/actions", self.target, seating.id))
            .bearer_auth(&self.accounts[mover].token)
            .json(&action);
        let sent = Instant::now();
        let result = send(request, "action").await;
        let took = sent.elapsed();
        match result {
            Ok(mut answer) => {
                self.stats.latencies.push(took);
                self.stats.actions += 1;
                self.stats.events += answer["appended"].as_u64().unwrap_or(0);
                self.counters.actions.fetch_add(1, Ordering::Relaxed);
                seating.view = answer.get_mut("view").map(Value::take);
                seating.failures_in_a_row = 0;
                if let Some(version) = answer["version"].as_u64() {
                    self.read_events(&mut seating, version).await;
                }
                Some(seating)
            }
            Err(failure) => {
                if failure.status.is_some() {
                    self.stats.latencies.push(took);
                }
                self.failed(seating, failure).await
            }
        }
    }

    async fn fetch_view(&mut self, table: i64, account: usize) -> Result<Value, Failure> {
        let request = self
            .client
            .get(format!("{}/v1/tables/{table}/view", self.target))
            .bearer_auth(&self.accounts[account].token);
        let view = send(request, "view").await?;
        self.stats.views += 1;
        Ok(view)
    }

    /// Counts `failure`, forgets the view (it may be stale) and pauses; gives the
    /// table up after too many failures in a row.
    async fn failed(&mut self, mut seating: Seating, failure: Failure) -> Option<Seating> {
        self.count_failure(failure);
        seating.view = None;
        seating.failures_in_a_row += 1;
        self.pause(PAUSE_AFTER_FAILURE).await;
        (seating.failures_in_a_row < FAILURES_BEFORE_NEW_TABLE).then_some(seating)
    }

    fn count_failure(&mut self, failure: Failure) {
        *self.stats.errors.entry(failure).or_insert(0) += 1;
        self.counters.errors.fetch_add(1, Ordering::Relaxed);
    }

    /// Sleeps `duration`, but never past the end of the run.
    async fn pause(&self, duration: Duration) {
        if duration.is_zero() {
            return;
        }
        let until = (Instant::now() + duration).min(self.deadline);
        tokio::time::sleep_until(until.into()).await;
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::{CpuSample, Jitter, Latencies, LoadConfig, ticks_of};

    #[test]
    fn percentiles_are_nearest_ranks() {
        let durations: Vec<Duration> = (1..=100).rev().map(Duration::from_millis).collect();
        let latencies = Latencies::of(durations);
        assert_eq!(latencies.samples, 100);
        assert_eq!(latencies.p50, Duration::from_millis(50));
        assert_eq!(latencies.p90, Duration::from_millis(90));
        assert_eq!(latencies.p99, Duration::from_millis(99));
        assert_eq!(latencies.max, Duration::from_millis(100));
        assert_eq!(Latencies::of(Vec::new()), Latencies::default());
        let one = Latencies::of(vec![Duration::from_millis(7)]);
        assert_eq!(one.p50, Duration::from_millis(7));
        assert_eq!(one.p99, Duration::from_millis(7));
    }

    #[test]
    fn proc_stat_lines_give_names_and_ticks() {
        let line = "4242 (actix-server wo) S 1 2 3 4 5 6 7 8 9 10 130 20 0 0 20 0 1 0";
        assert_eq!(ticks_of(line), Some(("actix-server wo", 150)));
        assert_eq!(ticks_of("garbage"), None);
        if let Some(sample) = CpuSample::now() {
            assert!(sample.cores >= 1 && sample.machine_busy <= sample.machine_total);
        }
    }

    #[test]
    fn jitter_stays_in_the_unit_interval() {
        let mut jitter = Jitter(42);
        for _ in 0..10_000 {
            let unit = jitter.unit();
            assert!((0.0..1.0).contains(&unit), "{unit}");
        }
    }

    #[test]
    fn configurations_the_server_would_refuse_are_refused_first() {
        let good = LoadConfig::new(vec!["http://127.0.0.1:1".into()]);
        assert!(good.check().is_ok());
        let body = good.table_body();
        assert_eq!(body["seats"], 4);
        assert_eq!(body["bots"][0]["seat"], 1);
        assert_eq!(body["bots"][2]["seat"], 3);

        let mut too_many = good.clone();
        too_many.bots_per_table = 8;
        assert!(too_many.check().is_err());
        let mut no_human = good.clone();
        no_human.humans_per_table = 0;
        assert!(no_human.check().is_err());
        let mut unknown = good.clone();
        unknown.preset = "poker".into();
        assert!(unknown.check().is_err());
        let mut nowhere = good;
        nowhere.targets.clear();
        assert!(nowhere.check().is_err());
    }
}
