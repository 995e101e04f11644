//! How long a large game record takes to replay, in process and over HTTP.
//!
//! ```text
//! DATABASE_URL=... cargo run --release -p yaniv-e2e-tests --example replay_bench [BYTES [OUT.json]]
//! ```
//!
//! Plays a long game of random bots (8 players), exports it as a `yaniv-record/1`
//! record of at most BYTES (default 1 MiB, the default `YANIV_MAX_RECORD_BYTES`),
//! optionally writes it to OUT.json (for `yaniv replay OUT.json`), then times
//! `replay_json` five times in process, then five `POST /v1/records/replay` and five
//! `POST /v1/records/steps` (with the size of its answer) against a server started on
//! a fresh database (with `YANIV_MAX_RECORD_BYTES` set to fit).
//! The figures decided that replays run on the blocking pool (see
//! `api/src/http/routes/records/mod.rs`).

use std::time::{Duration, Instant};

use yaniv_e2e_tests::records::bot_game_record;
use yaniv_e2e_tests::spawn_app_with;

#[tokio::main]
async fn main() {
    let mut args = std::env::args().skip(1);
    let max_bytes: usize = args
        .next()
        .and_then(|s| s.parse().ok())
        .unwrap_or(yaniv_api::config::DEFAULT_MAX_RECORD_BYTES);
    let out = args.next();

    // Rounds grow with the elimination limit: ~75 rounds per MiB at 8 players.
    let limit = u32::try_from(max_bytes / 700).unwrap_or(u32::MAX).max(200);
    let started = Instant::now();
    let record = bot_game_record(max_bytes, limit, 7);
    let body = serde_json::to_vec(&record).expect("record JSON");
    let actions: usize = record.rounds.iter().map(|r| r.actions.len()).sum();
    println!(
        "record: {} bytes, {} rounds, {actions} actions, {} players (made in {:.1?})",
        body.len(),
        record.rounds.len(),
        record.players.len(),
        started.elapsed()
    );
    if let Some(path) = out {
        std::fs::write(&path, &body).expect("write the record");
        println!("written to {path}");
    }

    let mut in_process = Vec::new();
    for _ in 0..5 {
        let started = Instant::now();
        yaniv_domain::record::replay_json(&body).expect("the record replays");
        in_process.push(started.elapsed());
    }
    report("replay_json in process", &in_process);

    let app = spawn_app_with(
        |s| s.max_record_bytes = s.max_record_bytes.max(body.len()),
        Vec::new(),
    )
    .await;
    for endpoint in ["/v1/records/replay", "/v1/records/steps"] {
        let mut over_http = Vec::new();
        let mut answer_bytes = 0;
        for _ in 0..5 {
            let started = Instant::now();
            let response = app
                .client
                .post(app.url(endpoint))
                .header("content-type", "application/json")
                .body(body.clone())
                .send()
                .await
                .expect("POST");
            assert_eq!(response.status(), 200, "{:?}", response.text().await);
            answer_bytes = response.bytes().await.expect("the answer").len();
            over_http.push(started.elapsed());
        }
        report(&format!("POST {endpoint}"), &over_http);
        println!("  answer: {answer_bytes} bytes");
    }
}

fn report(what: &str, times: &[Duration]) {
    let mut sorted = times.to_vec();
    sorted.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    println!(
        "{what}: min {:.1} ms, median {:.1} ms, max {:.1} ms ({} runs)",
        ms(sorted[0]),
        ms(sorted[sorted.len() / 2]),
        ms(sorted[sorted.len() - 1]),
        sorted.len()
    );
}
