//! Delivery latency of the live streams: many open subscribers, many tables in play.
//!
//! ```text
//! DATABASE_URL=... cargo run --release -p yaniv-e2e-tests --example stream_bench \
//!     [SUBSCRIBERS] [TABLES] [MOVES_PER_TABLE] [INSTANCES] [THINK_MS]
//! ```
//!
//! Defaults: 1000 subscribers, 100 tables, 20 moves per table, 1 instance, no pause
//! between moves (THINK_MS sets a pause before each move, as people take). Starts
//! INSTANCES servers in this process (their background tasks on a runtime of their own,
//! apart from the clients') on a fresh database, makes TABLES two-player
//! tables, spreads the subscribers over the tables (round robin) and over the
//! instances, while the tables are driven through the first instance. Then every
//! table plays MOVES_PER_TABLE moves, all tables at once.
//!
//! For each event a subscriber receives, the latency runs from the moment the move's
//! POST answer arrived (the commit is acknowledged) to the moment the event's message
//! arrived. A push that beats the answer counts as 0. It prints p50, p99 and max (and,
//! with several instances, p50 and p99 of each instance's subscribers), and
//! how many events each subscriber got against how many it should have got. It also
//! prints the process's resident memory before and after the subscribers connect;
//! client and servers share the process, so the difference is an upper bound per
//! subscriber.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use yaniv_api::config::{Settings, StreamLimits};
use yaniv_e2e_tests::tables::{Api, Player, choose};
use yaniv_e2e_tests::{TestApp, spawn_app_with};

/// Resident memory of this process, in KiB.
fn rss_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|status| {
            status
                .lines()
                .find_map(|line| line.strip_prefix("VmRSS:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        })
        .unwrap_or(0)
}

/// (table, version) → when the POST that committed it was answered.
type Acks = Arc<Mutex<HashMap<(i64, u64), Instant>>>;
/// Every receipt: (instance, table, version, when).
type Receipts = Arc<Mutex<Vec<(usize, i64, u64, Instant)>>>;

async fn subscribe(instance: usize, api: Api, table: i64, token: String, receipts: Receipts) {
    let response = api
        .client
        .get(api.url(&format!("/v1/tables/{table}/stream")))
        .bearer_auth(&token)
        .header("Accept", "application/x-ndjson")
        .send()
        .await
        .expect("open a stream");
    assert!(response.status().is_success(), "{}", response.status());
    let mut response = response;
    let mut pending = String::new();
    while let Ok(Some(chunk)) = response.chunk().await {
        let now = Instant::now();
        pending.push_str(&String::from_utf8_lossy(&chunk));
        while let Some(end) = pending.find('\n') {
            let line: String = pending.drain(..=end).collect();
            let Ok(message) = serde_json::from_str::<Value>(line.trim()) else {
                continue;
            };
            if message["kind"] == "event" {
                let version = message["id"].as_u64().unwrap_or(0);
                receipts
                    .lock()
                    .expect("receipts")
                    .push((instance, table, version, now));
            }
        }
    }
}

async fn drive(
    api: Api,
    table: i64,
    players: [Player; 2],
    moves: usize,
    think: Duration,
    offset: Duration,
    acks: Acks,
) {
    // Tables start out of step, as at a venue, rather than all moving at once.
    tokio::time::sleep(offset).await;
    for _ in 0..moves {
        tokio::time::sleep(think).await;
        let mut moved = false;
        for player in &players {
            let view = api.view(table, &player.token).await;
            if let Some(action) = choose(&view) {
                let response = api.act(table, &player.token, &action, None).await;
                let answered = Instant::now();
                let body: Value = response.json().await.unwrap_or(Value::Null);
                if let Some(version) = body["version"].as_u64() {
                    acks.lock()
                        .expect("acks")
                        .insert((table, version), answered);
                }
                moved = true;
                break;
            }
        }
        if !moved {
            break;
        }
    }
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let index = ((sorted.len() - 1) as f64 * p).round() as usize;
    sorted[index]
}

#[tokio::main]
async fn main() {
    let args: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let subscribers = args.first().copied().unwrap_or(1000);
    let tables = args.get(1).copied().unwrap_or(100);
    let moves = args.get(2).copied().unwrap_or(20);
    let instances = args.get(3).copied().unwrap_or(1).max(1);
    let think = Duration::from_millis(args.get(4).copied().unwrap_or(0) as u64);

    // Every subscriber comes from this one address: the per-address cap would refuse
    // most of them, so it is lifted here (the per-token cap is not: each token holds
    // at most the streams of its player's table).
    let lift_address_cap = |s: &mut Settings| {
        s.http_max_connections = 10_000;
        s.stream_limits = StreamLimits {
            per_address: 10_000,
            ..StreamLimits::default()
        };
    };
    // The servers' own tasks (each instance's listener, announcer, clocks) run on a
    // runtime of their own, as in `yaniv-server`, not queued behind the thousand
    // clients' tasks of this one.
    let (started, servers) = std::sync::mpsc::channel::<(TestApp, Vec<Api>)>();
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .expect("the servers' runtime");
        runtime.block_on(async move {
            let app: TestApp = spawn_app_with(
                |s| {
                    s.http_workers = Some(2);
                    s.db_pool_size = 20;
                    lift_address_cap(s);
                },
                vec![],
            )
            .await;
            let mut apis = vec![app.api()];
            for _ in 1..instances {
                apis.push(app.spawn_instance_with(lift_address_cap).await);
            }
            started.send((app, apis)).expect("the bench waits");
            std::future::pending::<()>().await;
        });
    });
    let (app, mut apis) = servers.recv().expect("the servers start");
    let client = reqwest::Client::builder()
        .pool_max_idle_per_host(2 * subscribers)
        .build()
        .expect("client");
    for api in &mut apis {
        api.client = client.clone();
    }
    let driver = apis[0].clone();

    eprintln!("setting up {tables} tables");
    let mut seated: Vec<(i64, [Player; 2])> = Vec::new();
    for t in 0..tables {
        let a = app.new_player(&format!("a{t:05}")).await;
        let b = app.new_player(&format!("b{t:05}")).await;
        let id = driver
            .started_table(
                &json!({"preset": "israeli", "seats": 2}),
                &[a.clone(), b.clone()],
            )
            .await;
        seated.push((id, [a, b]));
    }

    let before = rss_kib();
    eprintln!("opening {subscribers} subscribers on {instances} instance(s)");
    let receipts: Receipts = Arc::default();
    for s in 0..subscribers {
        let (table, players) = &seated[s % tables];
        let instance = s % apis.len();
        let api = apis[instance].clone();
        let token = players[s % 2].token.clone();
        tokio::spawn(subscribe(
            instance,
            api,
            *table,
            token,
            Arc::clone(&receipts),
        ));
    }
    tokio::time::sleep(Duration::from_secs(3)).await;
    let after = rss_kib();

    eprintln!("playing {moves} moves at each table");
    let acks: Acks = Arc::default();
    let started = Instant::now();
    let drivers: Vec<_> = seated
        .iter()
        .enumerate()
        .map(|(k, (id, players))| {
            tokio::spawn(drive(
                driver.clone(),
                *id,
                players.clone(),
                moves,
                think,
                think * k as u32 / tables as u32,
                Arc::clone(&acks),
            ))
        })
        .collect();
    for task in drivers {
        task.await.expect("driver");
    }
    let played = started.elapsed();
    tokio::time::sleep(Duration::from_secs(2)).await;

    let acks = acks.lock().expect("acks").clone();
    let receipts = receipts.lock().expect("receipts").clone();
    let latencies_at = |instance: Option<usize>| {
        let mut latencies: Vec<Duration> = receipts
            .iter()
            .filter(|(at, ..)| instance.is_none_or(|i| i == *at))
            .filter_map(|(_, table, version, at)| {
                let acked = acks.get(&(*table, *version))?;
                Some(at.saturating_duration_since(*acked))
            })
            .collect();
        latencies.sort_unstable();
        latencies
    };
    let latencies = latencies_at(None);
    // Each subscriber should have heard every acknowledged version of its table.
    let per_table_subscribers = |table: i64| {
        let index = seated.iter().position(|(id, _)| *id == table).unwrap_or(0);
        (0..subscribers).filter(|s| s % tables == index).count()
    };
    let expected: usize = acks
        .keys()
        .map(|(table, _)| per_table_subscribers(*table))
        .sum();
    println!(
        "subscribers {subscribers}, tables {tables}, instances {instances}, think {} ms, moves \
         acknowledged {}, in {:.1} s",
        think.as_millis(),
        acks.len(),
        played.as_secs_f64()
    );
    println!(
        "pushes of acknowledged moves received {} of {expected}",
        latencies.len()
    );
    println!(
        "commit-to-subscriber latency: p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms",
        percentile(&latencies, 0.50).as_secs_f64() * 1000.0,
        percentile(&latencies, 0.99).as_secs_f64() * 1000.0,
        latencies.last().copied().unwrap_or_default().as_secs_f64() * 1000.0
    );
    if instances > 1 {
        for instance in 0..instances {
            let latencies = latencies_at(Some(instance));
            println!(
                "  subscribers of instance {}{}: p50 {:.1} ms, p99 {:.1} ms",
                instance + 1,
                if instance == 0 { " (the writer)" } else { "" },
                percentile(&latencies, 0.50).as_secs_f64() * 1000.0,
                percentile(&latencies, 0.99).as_secs_f64() * 1000.0,
            );
        }
    }
    println!(
        "resident memory: {} MiB before the subscribers, {} MiB after: {:.1} KiB per subscriber \
         (client and servers together)",
        before / 1024,
        after / 1024,
        (after.saturating_sub(before)) as f64 / subscribers as f64
    );
}
