//! A large tournament through HTTP, against a real PostgreSQL.
//!
//! ```text
//! DATABASE_URL=... cargo run --release -p yaniv-e2e-tests --example tournament_bench [PLAYERS]
//! ```
//!
//! Starts the server in-process on a fresh database with PLAYERS (default 1000) player
//! accounts (inserted with SQL: hashing that many passwords would measure argon2, not
//! tournaments). The organizer then registers and checks in every player, one command
//! per request, and times:
//!
//! - the registrations and check-ins (commands/s; each request locks the tournament,
//!   folds its stream from the cached prefix, decides, appends and commits);
//! - drawing round 1 with every table online (one request: the random seating, plus a
//!   game table created, seated and dealt per drawn table, in one transaction);
//! - entering every table's result (`record_result`, one request per table);
//! - drawing round 2 with every table on paper (the Swiss seating over the standings);
//! - reading the standings;
//! - then rounds 2 and 3 entered on paper, the top four drawn to a final, the cup
//!   finished, and its archive read: once (built and stored), then by eight readers at
//!   once (served from storage), with the process's resident memory before and its
//!   peak during each (server and client share the process; the readers keep only
//!   each chunk's length).

use std::time::Instant;

use futures_util::future::join_all;

use serde_json::{Value, json};
use yaniv_e2e_tests::spawn_app;
use yaniv_e2e_tests::tables::Api;
use yaniv_e2e_tests::tournaments::tables_of;

fn per_second(n: usize, seconds: f64) -> f64 {
    n as f64 / seconds.max(1e-9)
}

/// Sends `command` for every player in `players`, one request each; the seconds taken.
async fn per_player(api: &Api, id: i64, token: &str, players: &[i64], command: &str) -> f64 {
    let timed = Instant::now();
    for player in players {
        api.accepted(id, token, &json!({"command": command, "player": player}))
            .await;
    }
    timed.elapsed().as_secs_f64()
}

#[tokio::main]
async fn main() {
    let players: usize = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(1000);
    let app = spawn_app().await;
    let api = app.api();
    let org = app.new_organizer("bench_org").await;
    let ids: Vec<i64> = sqlx::query_scalar(
        "INSERT INTO accounts (username, password_hash) \
         SELECT 'bench' || g, 'not-a-hash' FROM generate_series(1, $1::int) AS g RETURNING id",
    )
    .bind(i32::try_from(players).expect("players fit in i32"))
    .fetch_all(&app.db)
    .await
    .expect("insert accounts");

    let created = api
        .create_tournament(
            &org.token,
            &json!({"name": "Bench open", "rules": {"preset": "belgian"}, "capacity": players,
                    "config": {"qualification_rounds": 3, "knockout_cut": {"top": 4}}}),
        )
        .await;
    let id = created["id"].as_i64().expect("id");
    api.accepted(id, &org.token, &json!({"command": "open_registration"}))
        .await;

    let register = per_player(&api, id, &org.token, &ids, "register").await;
    api.accepted(id, &org.token, &json!({"command": "close_registration"}))
        .await;
    let check_in = per_player(&api, id, &org.token, &ids, "check_in").await;
    api.accepted(id, &org.token, &json!({"command": "start_qualification"}))
        .await;

    let timed = Instant::now();
    let drawn = api.draw(id, &org.token, &json!({})).await;
    let draw_online = timed.elapsed().as_secs_f64();
    let online = drawn["online_tables"].as_array().map_or(0, Vec::len);

    // Results: each table's seats finish in their seat order, 10 points apart. The
    // online games are voided first (the bench does not play them).
    let stages = api.tournament_read(id, "/stages", &org.token).await;
    let tables = tables_of(&stages, 1, 1);
    let timed = Instant::now();
    for (table, seated) in &tables {
        api.accepted(
            id,
            &org.token,
            &json!({"command": "void_game", "table": table, "reason": "bench: not played"}),
        )
        .await;
        let standings: Vec<Value> = seated
            .iter()
            .enumerate()
            .map(|(i, p)| json!({"player": p, "total": 10 * i, "place": i + 1}))
            .collect();
        api.accepted(
            id,
            &org.token,
            &json!({"command": "record_result", "table": table,
                    "input": {"source": "game", "standings": standings},
                    "reason": "bench: the game was not played"}),
        )
        .await;
    }
    let results = timed.elapsed().as_secs_f64();

    let all_paper: Vec<u32> = (1..=tables.len() as u32).collect();
    let timed = Instant::now();
    api.draw(id, &org.token, &json!({"paper_tables": all_paper}))
        .await;
    let draw_swiss = timed.elapsed().as_secs_f64();

    let timed = Instant::now();
    let standings = api.tournament_read(id, "/standings", &org.token).await;
    let read_standings = timed.elapsed().as_secs_f64();
    let rows = standings["standings"].as_array().map_or(0, Vec::len);
    let version = api.tournament_read(id, "", &org.token).await["version"].clone();

    println!(
        "players {players}, tables {}, stream version {version}",
        tables.len()
    );
    println!(
        "register        {:>8.0} commands/s ({players} in {register:.2} s)",
        per_second(players, register)
    );
    println!(
        "check in        {:>8.0} commands/s ({players} in {check_in:.2} s)",
        per_second(players, check_in)
    );
    println!(
        "draw round 1    {:>8.1} ms (random seating, {online} online tables created and dealt)",
        draw_online * 1000.0
    );
    println!(
        "void + result   {:>8.0} commands/s ({} commands in {results:.2} s)",
        per_second(2 * tables.len(), results),
        2 * tables.len()
    );
    println!(
        "draw round 2    {:>8.1} ms (Swiss seating, all tables on paper)",
        draw_swiss * 1000.0
    );
    println!(
        "read standings  {:>8.1} ms ({rows} rows)",
        read_standings * 1000.0
    );

    // To the finish: rounds 2 and 3 on paper, the top four to a final on paper.
    for round in 2..=3 {
        let stages = api.tournament_read(id, "/stages", &org.token).await;
        for (table, seated) in tables_of(&stages, 1, round) {
            api.record_order(id, &org.token, &table, &seated).await;
        }
        if round == 2 {
            api.draw(id, &org.token, &json!({"paper_tables": all_paper}))
                .await;
        }
    }
    api.finish_with_a_paper_final(id, &org.token).await;

    let url = api.url(&format!("/v1/tournaments/{id}/archive"));
    let read_archive = || {
        let url = url.clone();
        async move {
            let mut response = reqwest::get(&url).await.expect("GET the archive");
            assert!(response.status().is_success(), "{}", response.status());
            let mut bytes = 0;
            while let Some(chunk) = response.chunk().await.expect("the archive's bytes") {
                bytes += chunk.len();
            }
            bytes
        }
    };
    let resident_before = memory("VmRSS");
    reset_peak();
    let timed = Instant::now();
    let bytes = read_archive().await;
    let first = timed.elapsed().as_secs_f64();
    let peak_first = memory("VmHWM");
    let resident_between = memory("VmRSS");
    reset_peak();
    let timed = Instant::now();
    let readers = join_all((0..8).map(|_| read_archive())).await;
    let eight = timed.elapsed().as_secs_f64();
    let peak_eight = memory("VmHWM");
    assert!(
        readers.iter().all(|&b| b == bytes),
        "every reader got the whole archive"
    );
    println!(
        "archive         {:>8.1} MB, first read {first:.2} s (built and stored): RSS {} MB before, \
         peak {} MB",
        bytes as f64 / 1e6,
        resident_before / 1024,
        peak_first / 1024
    );
    println!(
        "archive x 8     {:>8.2} s for eight readers at once (from storage): RSS {} MB before, \
         peak {} MB",
        eight,
        resident_between / 1024,
        peak_eight / 1024
    );
}

/// A figure of this process from `/proc/self/status`, in kB (0 where there is none).
fn memory(field: &str) -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|status| {
            status
                .lines()
                .find(|l| l.starts_with(field))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|n| n.parse().ok())
        })
        .unwrap_or(0)
}

/// Starts the peak resident memory (`VmHWM`) again from the current one.
fn reset_peak() {
    let _ = std::fs::write("/proc/self/clear_refs", "5");
}
