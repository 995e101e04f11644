//! Append throughput of the event store against a real PostgreSQL.
//!
//! ```text
//! DATABASE_URL=... cargo run -p yaniv-e2e-tests --example append_bench [SECONDS]
//! ```
//!
//! Makes a fresh database, then for each (writers, events per append) pair runs
//! that many concurrent writers, each appending to its own stream (so there are no
//! conflicts: this measures the store, not contention) for SECONDS (default 3),
//! and prints appends/s, events/s and latency percentiles. Every append is its
//! own transaction and commit, so the figures follow the server's WAL flush:
//! compare a cluster with `fsync = off` (deploy/pg-local.sh) to a durable one.

use std::time::{Duration, Instant};

use serde_json::json;
use yaniv_api::store::{EventMetadata, EventStore, NewEvent};
use yaniv_e2e_tests::TestDatabase;

#[tokio::main]
async fn main() {
    let seconds: u64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(3);
    let database = TestDatabase::create().await;
    let pool = sqlx::postgres::PgPoolOptions::new()
        .max_connections(32)
        .connect(&database.url)
        .await
        .expect("connect");
    yaniv_api::startup::MIGRATOR
        .run(&pool)
        .await
        .expect("migrate");
    let store = EventStore::new(pool.clone());

    println!("writers  events/append  appends/s  events/s  p50 ms  p99 ms");
    for (writers, batch) in [(1, 1), (1, 10), (4, 1), (16, 1), (16, 10)] {
        let deadline = Instant::now() + Duration::from_secs(seconds);
        let tasks: Vec<_> = (0..writers)
            .map(|w| {
                let store = store.clone();
                tokio::spawn(async move {
                    let stream = format!("bench-{writers}-{batch}-{w}");
                    let events: Vec<NewEvent> = (0..batch)
                        .map(|i| {
                            NewEvent::from_json(
                                "CardsPlayed",
                                &json!({"player": w, "cards": ["7H", "7S"], "i": i}),
                            )
                        })
                        .collect();
                    let meta = EventMetadata::new(format!("account:{w}"));
                    let mut version = 0u64;
                    let mut latencies = Vec::new();
                    while Instant::now() < deadline {
                        let started = Instant::now();
                        let outcome = store
                            .append(&stream, version, &events, &meta)
                            .await
                            .expect("append");
                        latencies.push(started.elapsed());
                        version = outcome.last_version;
                    }
                    latencies
                })
            })
            .collect();
        let mut latencies = Vec::new();
        for task in tasks {
            latencies.extend(task.await.expect("writer"));
        }
        latencies.sort_unstable();
        let appends = latencies.len() as f64 / seconds as f64;
        let pct = |p: f64| {
            let i = ((latencies.len() as f64 * p) as usize).min(latencies.len() - 1);
            latencies[i].as_secs_f64() * 1000.0
        };
        println!(
            "{writers:>7}  {batch:>13}  {appends:>9.0}  {:>8.0}  {:>6.2}  {:>6.2}",
            appends * batch as f64,
            pct(0.50),
            pct(0.99)
        );
    }
    pool.close().await;
}
