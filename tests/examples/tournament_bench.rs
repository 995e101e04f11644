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
//! - reading the standings.

use std::time::Instant;

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
                    "config": {"qualification_rounds": 3}}),
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
                    "input": {"source": "game", "standings": standings}}),
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
}
