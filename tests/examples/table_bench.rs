//! Actions per second through HTTP on one game table, against a real PostgreSQL.
//!
//! ```text
//! DATABASE_URL=... cargo run --release -p yaniv-e2e-tests --example table_bench [SECONDS]
//! ```
//!
//! Starts the server in-process on a fresh database, then for SECONDS (default 5)
//! plays games one after the other, one request at a time:
//!
//! - `human+bot`: one human against a greedy bot; every answer carries the human's
//!   next view (the bot has moved already), so the loop is one POST per action.
//! - `two humans`: two humans; each action is a GET of the mover's view and a POST.
//!
//! It prints actions/s, events/s and the POST latency percentiles. Each POST folds
//! the table (cached prefix + new events), decides, appends and commits.

use std::time::{Duration, Instant};

use reqwest::StatusCode;
use serde_json::{Value, json};
use yaniv_e2e_tests::spawn_app;
use yaniv_e2e_tests::tables::{Api, Player, choose};

fn percentile(sorted: &[Duration], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i].as_secs_f64() * 1000.0
}

async fn new_table(api: &Api, body: &Value, humans: &[Player]) -> (i64, Value) {
    let created = api.create_table(&humans[0].token, body).await;
    let id = created["id"].as_i64().expect("id");
    for p in humans {
        api.join(id, &p.token).await;
    }
    let started = api.start(id, &humans[0].token).await;
    (id, started)
}

#[tokio::main]
async fn main() {
    let seconds: u64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(5);
    let app = spawn_app().await;
    let api = app.api();
    let ann = app.new_player("ann").await;
    let bob = app.new_player("bob").await;

    println!("mode          games  actions  actions/s  events/s  p50 ms  p99 ms");
    for mode in ["human+bot", "two humans"] {
        let deadline = Instant::now() + Duration::from_secs(seconds);
        let started_at = Instant::now();
        let (mut actions, mut events, mut games) = (0u64, 0u64, 0u64);
        let mut latencies = Vec::new();
        while Instant::now() < deadline {
            games += 1;
            let (id, mut answer, humans) = if mode == "human+bot" {
                let body = json!({"preset": "israeli", "seats": 2, "bots": [{"seat": 1, "kind": "greedy"}]});
                let humans = vec![ann.clone()];
                let (id, started) = new_table(&api, &body, &humans).await;
                (id, started, humans)
            } else {
                let body = json!({"preset": "israeli", "seats": 2});
                let humans = vec![ann.clone(), bob.clone()];
                let (id, started) = new_table(&api, &body, &humans).await;
                (id, started, humans)
            };
            while Instant::now() < deadline {
                let view = &answer["view"];
                if view["table"]["status"] == "finished" {
                    break;
                }
                let (player, view) = if mode == "human+bot" {
                    (&humans[0], view.clone())
                } else {
                    let seat = view["table"]["to_act"].as_u64().expect("to act") as usize;
                    (&humans[seat], api.view(id, &humans[seat].token).await)
                };
                let action = choose(&view).expect("a legal action");
                let before = answer["version"].as_u64().unwrap_or(0);
                let t = Instant::now();
                let response = api.act(id, &player.token, &action, None).await;
                latencies.push(t.elapsed());
                answer = Api::json_ok(response, StatusCode::OK, "act").await;
                actions += 1;
                events += answer["version"]
                    .as_u64()
                    .unwrap_or(0)
                    .saturating_sub(before);
            }
        }
        let elapsed = started_at.elapsed().as_secs_f64();
        latencies.sort_unstable();
        println!(
            "{mode:<12} {games:>6} {actions:>8} {:>10.0} {:>9.0} {:>7.2} {:>7.2}",
            actions as f64 / elapsed,
            events as f64 / elapsed,
            percentile(&latencies, 0.5),
            percentile(&latencies, 0.99),
        );
    }
}
