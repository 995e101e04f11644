//! The failover run's engine (`tests/examples/failover.rs` is its command line): game
//! tables played through a balancer while the processes behind it are killed, and the
//! checks that nothing acknowledged was lost or done twice.
//!
//! Unlike the load tool (`load.rs`), which counts throughput and gives up on errors,
//! every command here carries an `Idempotency-Key` and is sent again with the same key
//! until it gets a definite answer, as a client is told to do with a `503`
//! (docs/operations.md, "When a command answers 503"). That is what makes the counts
//! exact:
//!
//! - **acknowledged actions**: each `2xx` answer to an action names the versions it
//!   appended (`first_version..=version`). A table is played by one task, so its
//!   acknowledged ranges, in order, must tile its stream from the start's version to
//!   its head: a range that overlaps the one before is a lost acknowledgement (the
//!   versions were handed out again), versions no range covers are a command carried
//!   out twice (or an event nobody acknowledged);
//! - **readers**: beside each table a spectator follows its live stream (Server-Sent
//!   Events) through the balancer, and resumes with `Last-Event-ID` whenever the
//!   stream breaks. What it received must be exactly the events `/events` gives that
//!   spectator at the end, in order, each once;
//! - **verification**: every table is verified by the server (`POST .../verify`:
//!   hash chain and rules) as an admin;
//! - **service back**: after each kill, the time until the acknowledgement that ends
//!   the longest pause in acknowledgements within 20 s of it, and before the next
//!   kill (a killed postmaster's
//!   backends may commit for a moment; the outage comes with Patroni's failover).

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use reqwest::{Client, Method, StatusCode};
use serde_json::{Value, json};
use tokio::sync::watch;

use crate::random_hex;
use crate::tables::choose;

/// Pause between two tries of the same request.
const RETRY_PAUSE: Duration = Duration::from_millis(250);
/// One try's limit: a request held by a dead link is sent again after this.
const TRY_TIMEOUT: Duration = Duration::from_secs(15);
/// How long after the end of play a command may still be retried, and a reader may
/// still catch up, before the run says so.
const SETTLE: Duration = Duration::from_secs(60);
/// How long after a kill its outage is looked for.
const OUTAGE_WINDOW: Duration = Duration::from_secs(20);
/// Live streams per spectator account: under the per-token cap (10) of every instance.
const TABLES_PER_SPECTATOR: usize = 5;

/// What to run.
#[derive(Debug, Clone)]
pub struct FailoverConfig {
    /// The balancer's URL (`http://127.0.0.1:17450`).
    pub url: String,
    /// Tables in play at every moment.
    pub tables: usize,
    /// How long the tables play.
    pub duration: Duration,
    /// Faults, in order, spread evenly over the run.
    pub faults: Vec<Fault>,
    /// `deploy/cluster.sh`, asked for pids and to restart an API server.
    pub cluster_script: PathBuf,
    /// The admin's password (`.local/cluster/admin-password`), to verify the tables.
    pub admin_password: String,
    /// Mean pause before each move.
    pub think: Duration,
}

/// A process killed during the run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fault {
    /// `kill -9` of the current primary's postmaster; Patroni fails over.
    KillPrimary,
    /// `kill -9` of an API server (1 to 3), started again a few seconds later.
    KillApi(u8),
}

impl std::fmt::Display for Fault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::KillPrimary => write!(f, "kill -9 of the PostgreSQL primary"),
            Self::KillApi(n) => write!(f, "kill -9 of API server {n}"),
        }
    }
}

/// One fault as it went.
#[derive(Debug, Clone)]
pub struct FaultOutcome {
    pub fault: Fault,
    /// What was killed (`postgres2 pid 1234`).
    pub killed: String,
    /// Seconds into the run.
    pub at: Duration,
    /// From the kill to the acknowledgement that ended the longest pause after it.
    pub service_back: Option<Duration>,
    /// That pause: how long no action at all was acknowledged.
    pub pause: Duration,
}

/// What one table showed.
#[derive(Debug, Clone, Default)]
pub struct TableCheck {
    pub id: i64,
    pub head: u64,
    pub acknowledged: u64,
    /// Acknowledged ranges that overlap the range before: lost acknowledgements.
    pub lost: u64,
    /// Versions after the start that no acknowledged range covers.
    pub unacknowledged_versions: u64,
    /// The reader's messages that repeat or skip what `/events` gives.
    pub reader_gaps: u64,
    pub reader_duplicates: u64,
    pub reader_received: u64,
    pub reader_reconnects: u64,
    pub reader_complete: bool,
    pub verified: bool,
}

/// What the run measured.
#[derive(Debug, Clone, Default)]
pub struct FailoverReport {
    pub elapsed: Duration,
    pub actions: u64,
    /// Answers replayed from an idempotency record (`Idempotent-Replayed: true`).
    pub replayed: u64,
    /// Tries that got no definite answer and were sent again, by what they got.
    pub retries: BTreeMap<String, u64>,
    /// Refusals (a 4xx other than a retryable one): a correct run has none.
    pub refusals: BTreeMap<String, u64>,
    pub faults: Vec<FaultOutcome>,
    pub tables: Vec<TableCheck>,
}

impl FailoverReport {
    pub fn lost(&self) -> u64 {
        self.tables.iter().map(|t| t.lost).sum()
    }
    pub fn duplicated(&self) -> u64 {
        self.tables.iter().map(|t| t.unacknowledged_versions).sum()
    }
    pub fn reader_faults(&self) -> u64 {
        self.tables
            .iter()
            .map(|t| t.reader_gaps + t.reader_duplicates + u64::from(!t.reader_complete))
            .sum()
    }
    pub fn unverified(&self) -> usize {
        self.tables.iter().filter(|t| !t.verified).count()
    }
    /// Whether every check held.
    pub fn passed(&self) -> bool {
        self.lost() == 0
            && self.duplicated() == 0
            && self.reader_faults() == 0
            && self.unverified() == 0
            && self.refusals.is_empty()
            && self.faults.iter().all(|f| f.service_back.is_some())
    }
}

impl std::fmt::Display for FailoverReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let secs = self.elapsed.as_secs_f64();
        writeln!(
            f,
            "played {:.1} s: {} acknowledged actions ({:.1}/s), {} answers replayed",
            secs,
            self.actions,
            if secs > 0.0 {
                self.actions as f64 / secs
            } else {
                0.0
            },
            self.replayed
        )?;
        for fault in &self.faults {
            match fault.service_back {
                Some(back) => writeln!(
                    f,
                    "  at {:5.1} s {} ({}): longest pause {:.2} s, service back {:.2} s after the kill",
                    fault.at.as_secs_f64(),
                    fault.fault,
                    fault.killed,
                    fault.pause.as_secs_f64(),
                    back.as_secs_f64()
                )?,
                None => writeln!(
                    f,
                    "  at {:5.1} s {} ({}): service NOT back",
                    fault.at.as_secs_f64(),
                    fault.fault,
                    fault.killed
                )?,
            }
        }
        let received: u64 = self.tables.iter().map(|t| t.reader_received).sum();
        let reconnects: u64 = self.tables.iter().map(|t| t.reader_reconnects).sum();
        writeln!(
            f,
            "tables: {}; acknowledged actions lost: {}; carried out twice or unacknowledged \
             versions: {}; unverified tables: {}",
            self.tables.len(),
            self.lost(),
            self.duplicated(),
            self.unverified()
        )?;
        writeln!(
            f,
            "readers: {} events received, {} reconnections, gaps {}, duplicates {}, \
             incomplete {}",
            received,
            reconnects,
            self.tables.iter().map(|t| t.reader_gaps).sum::<u64>(),
            self.tables.iter().map(|t| t.reader_duplicates).sum::<u64>(),
            self.tables.iter().filter(|t| !t.reader_complete).count()
        )?;
        let list = |map: &BTreeMap<String, u64>| {
            map.iter()
                .map(|(what, n)| format!("{what}: {n}"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        writeln!(f, "retried tries: {}", list(&self.retries))?;
        write!(f, "refusals: {}", list(&self.refusals))?;
        for table in self.tables.iter().filter(|t| {
            t.lost + t.unacknowledged_versions + t.reader_gaps + t.reader_duplicates > 0
                || !t.verified
                || !t.reader_complete
        }) {
            write!(f, "\n  table {}: {table:?}", table.id)?;
        }
        Ok(())
    }
}

/// Shared counts of every task.
#[derive(Debug, Default)]
struct Record {
    /// (when the acknowledged try was sent, when its answer came).
    acks: Mutex<Vec<(Instant, Instant)>>,
    retries: Mutex<BTreeMap<String, u64>>,
    refusals: Mutex<BTreeMap<String, u64>>,
    replayed: std::sync::atomic::AtomicU64,
}

fn bump(map: &Mutex<BTreeMap<String, u64>>, what: String) {
    *map.lock()
        .unwrap_or_else(PoisonError::into_inner)
        .entry(what)
        .or_insert(0) += 1;
}

/// A request's definite outcome.
enum Answer {
    Ok(Value),
    Refused(StatusCode, String),
}

/// Sends one request until it gets a definite answer (a 2xx or a 4xx that is not
/// "try again"), with the same `Idempotency-Key` on every try when `key` is given.
struct Requester {
    client: Client,
    url: String,
    record: Arc<Record>,
    give_up_at: Instant,
}

impl Requester {
    async fn send(
        &self,
        method: Method,
        path: &str,
        token: Option<&str>,
        body: Option<&Value>,
        key: Option<&str>,
    ) -> Option<(Answer, Instant)> {
        loop {
            let mut request = self
                .client
                .request(method.clone(), format!("{}{path}", self.url))
                .timeout(TRY_TIMEOUT);
            if let Some(token) = token {
                request = request.bearer_auth(token);
            }
            if let Some(key) = key {
                request = request.header("Idempotency-Key", key);
            }
            if let Some(body) = body {
                request = request.json(body);
            }
            let sent = Instant::now();
            let why = match request.send().await {
                Ok(response) => {
                    let status = response.status();
                    let replayed = response.headers().contains_key("idempotent-replayed");
                    let bytes = response.bytes().await.unwrap_or_default();
                    let value: Value = serde_json::from_slice(&bytes).unwrap_or_default();
                    let code = value["code"].as_str().unwrap_or("no_code").to_owned();
                    if status.is_success() {
                        if replayed {
                            self.record
                                .replayed
                                .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        }
                        return Some((Answer::Ok(value), sent));
                    }
                    let again = status.is_server_error()
                        || status == StatusCode::TOO_MANY_REQUESTS
                        || code == "idempotency_in_progress";
                    if !again {
                        bump(&self.record.refusals, format!("{method} {status} {code}"));
                        return Some((Answer::Refused(status, code), sent));
                    }
                    format!("{status} {code}")
                }
                Err(e) if e.is_timeout() => "timeout".to_owned(),
                Err(e) if e.is_connect() => "connect".to_owned(),
                Err(_) => "transport".to_owned(),
            };
            bump(&self.record.retries, why);
            if Instant::now() >= self.give_up_at {
                return None;
            }
            tokio::time::sleep(RETRY_PAUSE).await;
        }
    }

    async fn ok(
        &self,
        method: Method,
        path: &str,
        token: Option<&str>,
        body: Option<&Value>,
        key: Option<&str>,
    ) -> Result<Value, String> {
        match self.send(method, path, token, body, key).await {
            Some((Answer::Ok(value), _)) => Ok(value),
            Some((Answer::Refused(status, code), _)) => Err(format!("{path}: {status} {code}")),
            None => Err(format!("{path}: no answer before the end")),
        }
    }
}

/// An account of the run.
#[derive(Debug, Clone)]
struct Account {
    token: String,
}

async fn open_account(requester: &Requester, role: &str) -> Result<Account, String> {
    let username = format!("fo-{role}-{}", random_hex(4));
    let password = format!("password-of-{username}");
    let body = json!({"username": username, "password": password});
    let key = random_hex(16);
    requester
        .ok(Method::POST, "/v1/accounts", None, Some(&body), Some(&key))
        .await?;
    let session = requester
        .ok(Method::POST, "/v1/sessions", None, Some(&body), None)
        .await?;
    let token = session["token"]
        .as_str()
        .ok_or("a session without a token")?
        .to_owned();
    Ok(Account { token })
}

/// One table as its driver played it.
#[derive(Debug)]
struct PlayedTable {
    id: i64,
    /// The version the start answered; play begins after it.
    start_version: u64,
    /// Acknowledged `(first_version, version)` ranges, in the order they came.
    acks: Vec<(u64, u64)>,
    reader: tokio::task::JoinHandle<ReaderLog>,
    spectator: Account,
}

#[derive(Debug, Default)]
struct ReaderLog {
    ids: Vec<u64>,
    reconnects: u64,
}

/// Follows a table's live stream until it has reached the head `done` announces,
/// resuming with `Last-Event-ID` after every break.
async fn follow(
    client: Client,
    url: String,
    token: String,
    mut done: watch::Receiver<Option<u64>>,
    give_up_at: Instant,
) -> ReaderLog {
    let mut log = ReaderLog::default();
    loop {
        let finished = |log: &ReaderLog, done: &watch::Receiver<Option<u64>>| matches!(*done.borrow(), Some(head) if log.ids.last().copied().unwrap_or(0) >= head);
        if finished(&log, &done) || Instant::now() >= give_up_at {
            return log;
        }
        let request = match log.ids.last() {
            Some(last) => client.get(&url).header("Last-Event-ID", last.to_string()),
            None => client.get(format!("{url}?after=0")),
        }
        .bearer_auth(&token);
        if let Ok(mut response) = request.send().await
            && response.status().is_success()
        {
            let mut pending = Vec::new();
            loop {
                let chunk = tokio::select! {
                    chunk = response.chunk() => chunk,
                    _ = done.changed() => {
                        if finished(&log, &done) { return log; }
                        continue;
                    }
                };
                let Ok(Some(chunk)) = chunk else { break };
                pending.extend_from_slice(&chunk);
                while let Some(end) = pending.iter().position(|&b| b == b'\n') {
                    let line: Vec<u8> = pending.drain(..=end).collect();
                    if let Some(id) = std::str::from_utf8(&line)
                        .ok()
                        .and_then(|l| l.strip_prefix("id: "))
                        .and_then(|id| id.trim().parse().ok())
                    {
                        log.ids.push(id);
                    }
                }
                if finished(&log, &done) {
                    return log;
                }
            }
        }
        log.reconnects += 1;
        tokio::time::sleep(RETRY_PAUSE).await;
    }
}

/// Plays tables, one after another, until the deadline.
struct Driver {
    requester: Arc<Requester>,
    stream_client: Client,
    player: Account,
    spectator: Account,
    think: Duration,
    deadline: Instant,
    record: Arc<Record>,
    jitter: u64,
}

impl Driver {
    fn pause_factor(&mut self) -> f64 {
        // SplitMix64, as the load tool: enough to spread the tables.
        self.jitter = self.jitter.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.jitter;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        0.5 + ((z ^ (z >> 31)) >> 11) as f64 / (1u64 << 53) as f64
    }

    async fn drive(mut self) -> Result<Vec<PlayedTable>, String> {
        let mut played = Vec::new();
        while Instant::now() < self.deadline {
            played.push(self.play_one().await?);
        }
        Ok(played)
    }

    async fn command(&self, path: &str, body: Option<&Value>) -> Result<Value, String> {
        let key = random_hex(16);
        self.requester
            .ok(
                Method::POST,
                path,
                Some(&self.player.token),
                body,
                Some(&key),
            )
            .await
    }

    async fn play_one(&mut self) -> Result<PlayedTable, String> {
        let body = json!({"preset": "israeli", "seats": 4, "bots": [
            {"seat": 1, "kind": "greedy"}, {"seat": 2, "kind": "greedy"}, {"seat": 3, "kind": "greedy"}]});
        let created = self.command("/v1/tables", Some(&body)).await?;
        let id = created["id"].as_i64().ok_or("a table without an id")?;
        self.command(&format!("/v1/tables/{id}/join"), None).await?;
        let started = self
            .command(&format!("/v1/tables/{id}/start"), None)
            .await?;
        let mut view = started["view"].clone();
        let start_version = view["table"]["version"]
            .as_u64()
            .ok_or("a start answer without a version")?;
        let (done, watching) = watch::channel(None);
        let reader = tokio::spawn(follow(
            self.stream_client.clone(),
            format!("{}/v1/tables/{id}/stream", self.requester.url),
            self.spectator.token.clone(),
            watching,
            self.deadline + SETTLE,
        ));
        let mut acks = Vec::new();
        while Instant::now() < self.deadline && view["table"]["status"] != "finished" {
            if view["seat"].as_u64() != view["table"]["to_act"].as_u64() || view["legal"].is_null()
            {
                view = self
                    .requester
                    .ok(
                        Method::GET,
                        &format!("/v1/tables/{id}/view"),
                        Some(&self.player.token),
                        None,
                        None,
                    )
                    .await?;
                if view["seat"].as_u64() != view["table"]["to_act"].as_u64() {
                    // Not our turn though bots play inside our requests: look again soon.
                    tokio::time::sleep(RETRY_PAUSE).await;
                }
                continue;
            }
            if !self.think.is_zero() {
                let pause = self.think.mul_f64(self.pause_factor());
                tokio::time::sleep(pause).await;
            }
            let Some(action) = choose(&view) else {
                return Err(format!("table {id}: no legal move in {view}"));
            };
            let key = random_hex(16);
            let path = format!("/v1/tables/{id}/actions");
            match self
                .requester
                .send(
                    Method::POST,
                    &path,
                    Some(&self.player.token),
                    Some(&action),
                    Some(&key),
                )
                .await
            {
                Some((Answer::Ok(mut answer), sent)) => {
                    let acked = Instant::now();
                    self.record
                        .acks
                        .lock()
                        .unwrap_or_else(PoisonError::into_inner)
                        .push((sent, acked));
                    let first = answer["first_version"].as_u64().unwrap_or(0);
                    let last = answer["version"].as_u64().unwrap_or(0);
                    acks.push((first, last));
                    view = answer["view"].take();
                }
                Some((Answer::Refused(..), _)) => {
                    // Counted; look again and go on.
                    view = json!({"table": {"status": "unknown"}});
                }
                None => break,
            }
        }
        let head = acks.last().map_or(start_version, |&(_, last)| last);
        done.send_replace(Some(head));
        Ok(PlayedTable {
            id,
            start_version,
            acks,
            reader,
            spectator: self.spectator.clone(),
        })
    }
}

/// Runs the faults of `config` one after another, evenly spread over the run.
async fn run_faults(config: FailoverConfig, started: Instant) -> Vec<(Fault, String, Instant)> {
    let mut done = Vec::new();
    let gap = config.duration.div_f64(config.faults.len() as f64 + 1.0);
    for (i, fault) in config.faults.iter().enumerate() {
        let at = started + gap.mul_f64(i as f64 + 1.0);
        tokio::time::sleep_until(at.into()).await;
        // The node killed last time must be back in the cluster before the next kill.
        if *fault == Fault::KillPrimary {
            wait_for_three_nodes(&config.cluster_script).await;
        }
        let pids = cluster(&config.cluster_script, &["pids"]).await;
        let target = match fault {
            Fault::KillPrimary => pids.lines().find(|l| {
                l.starts_with("postgres") && (l.ends_with(" master") || l.ends_with(" primary"))
            }),
            Fault::KillApi(n) => pids
                .lines()
                .find(|l| l.split_whitespace().next() == Some(&format!("api{n}"))),
        };
        let Some(target) = target.map(str::to_owned) else {
            eprintln!("failover: nothing to kill for {fault} in:\n{pids}");
            continue;
        };
        let pid = target.split_whitespace().nth(1).unwrap_or("0").to_owned();
        let killed_at = Instant::now();
        let status = tokio::process::Command::new("kill")
            .args(["-9", &pid])
            .status()
            .await;
        eprintln!(
            "failover: {:.1} s: {fault}: {target} ({status:?})",
            started.elapsed().as_secs_f64()
        );
        done.push((*fault, target, killed_at));
        if let Fault::KillApi(n) = fault {
            // A supervisor would start it again; the readers and clients on it moved on.
            tokio::time::sleep(Duration::from_secs(3)).await;
            cluster(&config.cluster_script, &["start-api", &n.to_string()]).await;
        }
    }
    done
}

async fn cluster(script: &PathBuf, args: &[&str]) -> String {
    match tokio::process::Command::new("bash")
        .arg(script)
        .args(args)
        .output()
        .await
    {
        Ok(out) => String::from_utf8_lossy(&out.stdout).into_owned(),
        Err(e) => {
            eprintln!("failover: {} {args:?}: {e}", script.display());
            String::new()
        }
    }
}

async fn wait_for_three_nodes(script: &PathBuf) {
    let until = Instant::now() + Duration::from_secs(60);
    while Instant::now() < until {
        let pids = cluster(script, &["pids"]).await;
        let replicas = pids
            .lines()
            .filter(|l| l.starts_with("postgres") && l.ends_with(" replica"))
            .count();
        if replicas == 2 {
            return;
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
    eprintln!("failover: the cluster did not get its third node back within 60 s");
}

/// Plays, kills, then checks every table (see the module docs).
pub async fn run(config: FailoverConfig) -> Result<FailoverReport, String> {
    let client = Client::builder()
        .pool_idle_timeout(Duration::from_secs(2))
        .build()
        .map_err(|e| e.to_string())?;
    let stream_client = Client::builder()
        .pool_idle_timeout(Duration::from_secs(2))
        .build()
        .map_err(|e| e.to_string())?;
    let record = Arc::new(Record::default());
    let setup = Requester {
        client: client.clone(),
        url: config.url.clone(),
        record: Arc::clone(&record),
        give_up_at: Instant::now() + SETTLE,
    };
    let player = open_account(&setup, "player").await?;
    let mut spectators = Vec::new();
    for _ in 0..config.tables.div_ceil(TABLES_PER_SPECTATOR) {
        spectators.push(open_account(&setup, "reader").await?);
    }
    let admin_body = json!({"username": "admin", "password": config.admin_password});
    let admin = setup
        .ok(Method::POST, "/v1/sessions", None, Some(&admin_body), None)
        .await?;
    let admin_token = admin["token"].as_str().ok_or("no admin token")?.to_owned();

    let started = Instant::now();
    let deadline = started + config.duration;
    let requester = Arc::new(Requester {
        client: client.clone(),
        url: config.url.clone(),
        record: Arc::clone(&record),
        give_up_at: deadline + SETTLE,
    });
    let drivers: Vec<_> = (0..config.tables)
        .map(|table| {
            let driver = Driver {
                requester: Arc::clone(&requester),
                stream_client: stream_client.clone(),
                player: player.clone(),
                spectator: spectators[table / TABLES_PER_SPECTATOR].clone(),
                think: config.think,
                deadline,
                record: Arc::clone(&record),
                jitter: table as u64,
            };
            tokio::spawn(driver.drive())
        })
        .collect();
    let faults = tokio::spawn(run_faults(config.clone(), started));
    let mut played = Vec::new();
    for driver in drivers {
        played.extend(driver.await.map_err(|e| e.to_string())??);
    }
    let elapsed = started.elapsed();
    let faults = faults.await.map_err(|e| e.to_string())?;

    let acks = record
        .acks
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .clone();
    // A killed postmaster's backends may still commit for a moment, and the outage
    // comes when Patroni fails over: service is back at the acknowledgement that ends
    // the longest pause in acknowledgements within OUTAGE_WINDOW of the kill.
    let mut ack_times: Vec<Instant> = acks.iter().map(|&(_, acked)| acked).collect();
    ack_times.sort_unstable();
    let next_kills: Vec<Instant> = faults.iter().skip(1).map(|&(_, _, at)| at).collect();
    let outcomes = faults
        .into_iter()
        .enumerate()
        .map(|(i, (fault, killed, at))| {
            // Up to the next kill: its outage is its own.
            let window_end = next_kills
                .get(i)
                .map_or(at + OUTAGE_WINDOW, |&next| next.min(at + OUTAGE_WINDOW));
            let before = ack_times
                .iter()
                .rev()
                .find(|&&t| t <= at)
                .copied()
                .unwrap_or(at);
            let mut previous = before;
            let mut longest = (Duration::ZERO, None);
            for &t in ack_times.iter().filter(|&&t| t > at && t <= window_end) {
                if t - previous > longest.0 {
                    longest = (t - previous, Some(t));
                }
                previous = t;
            }
            FaultOutcome {
                fault,
                killed,
                at: at - started,
                service_back: longest.1.map(|t| t - at),
                pause: longest.0,
            }
        })
        .collect();

    let checker = Requester {
        client,
        url: config.url.clone(),
        record: Arc::clone(&record),
        give_up_at: Instant::now() + SETTLE,
    };
    let mut tables = Vec::new();
    for table in played {
        tables.push(check_table(&checker, &admin_token, table).await?);
    }
    let retries = record
        .retries
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .clone();
    let refusals = record
        .refusals
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .clone();
    Ok(FailoverReport {
        elapsed,
        actions: acks.len() as u64,
        replayed: record.replayed.load(std::sync::atomic::Ordering::Relaxed),
        retries,
        refusals,
        faults: outcomes,
        tables,
    })
}

/// Tiles the acknowledged ranges over the stream, compares the reader's messages with
/// `/events`, and verifies the table.
async fn check_table(
    checker: &Requester,
    admin: &str,
    table: PlayedTable,
) -> Result<TableCheck, String> {
    let id = table.id;
    let summary = checker
        .ok(
            Method::GET,
            &format!("/v1/tables/{id}"),
            Some(admin),
            None,
            None,
        )
        .await?;
    let head = summary["version"]
        .as_u64()
        .ok_or("a summary without a version")?;
    let mut check = TableCheck {
        id,
        head,
        acknowledged: table.acks.len() as u64,
        ..TableCheck::default()
    };
    let mut covered = table.start_version;
    for &(first, last) in &table.acks {
        if first <= covered {
            check.lost += 1;
        } else {
            check.unacknowledged_versions += first - covered - 1;
        }
        covered = covered.max(last);
    }
    check.unacknowledged_versions += head.saturating_sub(covered);
    if covered > head {
        check.lost += 1;
    }

    // What the spectator may see, from the store.
    let mut expected = Vec::new();
    let mut after = 0;
    loop {
        let page = checker
            .ok(
                Method::GET,
                &format!("/v1/tables/{id}/events?after={after}"),
                Some(&table.spectator.token),
                None,
                None,
            )
            .await?;
        for event in page["events"].as_array().into_iter().flatten() {
            expected.extend(event["version"].as_u64());
        }
        match page["next_after"].as_u64() {
            Some(next) if page["has_more"] == true && next > after => after = next,
            _ => break,
        }
    }
    let log = table.reader.await.map_err(|e| e.to_string())?;
    check.reader_received = log.ids.len() as u64;
    check.reader_reconnects = log.reconnects;
    let mut previous = 0;
    let position: BTreeMap<u64, usize> =
        expected.iter().enumerate().map(|(i, &v)| (v, i)).collect();
    let mut next_expected = 0usize;
    for &id in &log.ids {
        if id <= previous {
            check.reader_duplicates += 1;
            continue;
        }
        match position.get(&id) {
            Some(&at) if at == next_expected => next_expected += 1,
            Some(&at) => {
                check.reader_gaps += (at - next_expected) as u64;
                next_expected = at + 1;
            }
            None => check.reader_gaps += 1,
        }
        previous = id;
    }
    check.reader_complete = next_expected == expected.len();

    let verdict = checker
        .ok(
            Method::POST,
            &format!("/v1/tables/{id}/verify"),
            Some(admin),
            None,
            None,
        )
        .await?;
    check.verified = verdict["ok"] == true;
    Ok(check)
}
