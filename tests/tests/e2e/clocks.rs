//! Turn clocks end to end: a player who stops is played by the clock until the game
//! ends, the held out-of-turn window over HTTP, and timeouts fired exactly once by
//! three instances on one database while one of them dies.

use std::time::{Duration, Instant};

use reqwest::StatusCode;
use serde_json::{Value, json};
use yaniv_api::startup::{Application, KillSwitch};
use yaniv_e2e_tests::cli::yaniv_replay;
use yaniv_e2e_tests::tables::{Api, Player, choose};
use yaniv_e2e_tests::{TestApp, spawn_app, test_settings};

/// A shorter game than the preset's: eliminated above 60 instead of 200.
fn short_game() -> Value {
    json!({"game_end": {"elimination": {"limit": 60, "at_limit": false}}})
}

/// Plays every human but `stops_after` (name, actions) with [`choose`] until the
/// table is finished; a move the clock overtook (409) is read again.
async fn play_until_finished(api: &Api, table: i64, humans: &[Player], stops: (&str, usize)) {
    let give_up = Instant::now() + Duration::from_secs(240);
    let mut acted_by_stopper = 0;
    loop {
        if api.summary(table, &humans[0].token).await["status"] == "finished" {
            return;
        }
        assert!(Instant::now() < give_up, "the game did not end");
        let mut acted = false;
        for player in humans {
            if player.name == stops.0 && acted_by_stopper >= stops.1 {
                continue;
            }
            let view = api.view(table, &player.token).await;
            let Some(action) = choose(&view) else {
                continue;
            };
            let response = api.act(table, &player.token, &action, None).await;
            match response.status() {
                StatusCode::OK => {
                    acted = true;
                    if player.name == stops.0 {
                        acted_by_stopper += 1;
                    }
                }
                // The clock moved the table first.
                StatusCode::CONFLICT => {}
                other => panic!(
                    "{action}: {other} {}",
                    response.text().await.unwrap_or_default()
                ),
            }
            break;
        }
        if !acted {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
}

/// Done when: "a 4-player table where one player stops acting after two turns is
/// finished by its clock, every automatic move is an event, and the exported record
/// replays with `yaniv replay`".
#[tokio::test]
async fn a_player_who_stops_is_played_by_the_clock_to_the_end_and_the_record_replays() {
    // Built (or found) before the game, not while the server's connections idle.
    yaniv_e2e_tests::cli::yaniv_binary();
    let app = spawn_app().await;
    let api = app.api();
    let humans = vec![
        app.new_player("ann").await,
        app.new_player("bob").await,
        app.new_player("cid").await,
        app.new_player("dan").await,
    ];
    let (_, admin) = app.admin().await;
    let body = json!({
        "preset": "israeli",
        "overrides": short_game(),
        "seats": 4,
        "clock": {"turn_ms": 1500, "decision_ms": 1500, "absent_after": 2},
    });
    let table = api.started_table(&body, &humans).await;
    let dan_seat = 3;
    play_until_finished(&api, table, &humans, ("dan", 2)).await;

    // Every automatic move: a `turn_timed_out.v1`, then the stand-in's move of that
    // seat at the next version.
    let events = api.events(table, &admin, 0).await;
    let timeouts: Vec<(usize, &Value)> = events
        .iter()
        .enumerate()
        .filter(|(_, e)| e["type"] == "turn_timed_out.v1")
        .collect();
    assert!(
        timeouts.len() > 2,
        "dan's turns were played: {}",
        timeouts.len()
    );
    for (i, timeout) in &timeouts {
        assert_eq!(timeout["payload"]["seat"], dan_seat, "{timeout}");
        let next = &events[i + 1];
        assert_eq!(
            next["version"],
            timeout["version"].as_u64().expect("version") + 1
        );
        assert_eq!(
            next["payload"]["seat"], dan_seat,
            "the stand-in's move: {next}"
        );
    }
    let waited: Vec<&Value> = timeouts
        .iter()
        .map(|(_, t)| &t["payload"])
        .filter(|p| p["absent"] == false)
        .collect();
    assert_eq!(waited.len(), 2, "two timeouts, then dan is absent");
    assert!(waited.iter().all(|p| p["waited_ms"].as_u64() >= Some(1500)));
    // The clock's own timeouts are the server's; the absent seat's moves come with
    // the move that led to them.
    let actors: Vec<String> = sqlx::query_scalar(
        "SELECT actor FROM events WHERE stream_id = $1 AND event_type = 'turn_timed_out.v1' \
           AND payload LIKE '%\"absent\":false%'",
    )
    .bind(format!("table-{table}"))
    .fetch_all(&app.db)
    .await
    .expect("actors");
    assert_eq!(actors, ["system", "system"]);

    // The exported record replays with the command-line tool, to the table's totals.
    let response = api
        .get(&format!("/v1/tables/{table}/record"), &humans[0].token)
        .await;
    let record = Api::json_ok(response, StatusCode::OK, "record").await;
    let replayed = yaniv_replay(&record);
    let stdout = String::from_utf8_lossy(&replayed.stdout);
    assert!(replayed.status.success(), "yaniv replay: {stdout}");
    let result: Value = serde_json::from_str(&stdout).expect("yaniv-result/1 JSON");
    assert_eq!(result["finished"], true, "{result}");
    let summary = api.summary(table, &humans[0].token).await;
    let last = result["rounds"]
        .as_array()
        .and_then(|r| r.last())
        .expect("rounds");
    let totals: Vec<Value> = humans
        .iter()
        .map(|p| last["totals"][&p.name].clone())
        .collect();
    assert_eq!(json!(totals), summary["totals"]);

    // And the stream verifies: hash chain, rules, and every stand-in move.
    let response = api
        .post(&format!("/v1/tables/{table}/verify"), &admin, None)
        .await;
    let verdict = Api::json_ok(response, StatusCode::OK, "verify").await;
    assert_eq!(verdict["replay"]["ok"], true, "{verdict}");
}

/// `seat`'s first listed throw, drawn from the stock.
fn first_throw(view: &Value) -> Value {
    let throw = view["legal"]["throws"][0].clone();
    assert!(throw.is_array(), "a throw is legal: {view}");
    json!({"type": "play", "throw": throw, "draw": "stock"})
}

/// The player whose turn it is, by the views.
async fn to_act<'p>(api: &Api, table: i64, humans: &'p [Player]) -> (&'p Player, Value) {
    for player in humans {
        let view = api.view(table, &player.token).await;
        if view["legal"]["throws"]
            .as_array()
            .is_some_and(|t| !t.is_empty())
        {
            return (player, view);
        }
    }
    panic!("nobody may throw");
}

/// Real out-of-turn windows: "the next player's turn waits for it ... until every seat
/// that may act has passed with an explicit `pass`", or its time runs out.
#[tokio::test]
async fn the_next_throw_waits_for_the_window_until_everyone_passes_or_it_elapses() {
    let app = spawn_app().await;
    let api = app.api();
    let humans = vec![app.new_player("ann").await, app.new_player("bob").await];
    let body = json!({
        "preset": "house",
        "seats": 2,
        "clock": {"turn_ms": 60000, "decision_ms": 60000, "window_ms": 800},
    });
    let table = api.started_table(&body, &humans).await;

    let (thrower, view) = to_act(&api, table, &humans).await;
    let response = api
        .act(table, &thrower.token, &first_throw(&view), None)
        .await;
    Api::json_ok(response, StatusCode::OK, "the first throw").await;
    let next = humans
        .iter()
        .find(|p| p.id != thrower.id)
        .expect("the other player");
    let view = api.view(table, &next.token).await;
    assert_eq!(view["clock"]["waiting_for"], "window", "{view}");
    assert_eq!(view["legal"]["throws"], json!([]), "the next throw waits");
    let waiting: Vec<u64> = view["clock"]["window_waiting"]
        .as_array()
        .expect("window_waiting")
        .iter()
        .filter_map(Value::as_u64)
        .collect();
    assert!(!waiting.is_empty());

    // Throwing now is refused, whatever the cards.
    let any_card = view["hand"][0].clone();
    let early = json!({"type": "play", "throw": [any_card], "draw": "stock"});
    let refused = api.act(table, &next.token, &early, None).await;
    let problem = Api::json_ok(refused, StatusCode::CONFLICT, "a throw into the window").await;
    assert_eq!(problem["code"], "window_open");

    // Everyone it waits for passes: it closes at once.
    for player in &humans {
        let seat_view = api.view(table, &player.token).await;
        if seat_view["legal"]["pass"] == true {
            let response = api
                .act(table, &player.token, &json!({"type": "pass"}), None)
                .await;
            Api::json_ok(response, StatusCode::OK, "pass").await;
        }
    }
    let events = api.events(table, &humans[0].token, 0).await;
    let closed = events.last().expect("events");
    assert_eq!(closed["type"], "window_closed.v1");
    assert_eq!(closed["payload"]["reason"], "all_passed");
    let view = api.view(table, &next.token).await;
    let response = api.act(table, &next.token, &first_throw(&view), None).await;
    let after = Api::json_ok(response, StatusCode::OK, "the next throw").await;
    let thrown_at = Instant::now();

    // Nobody passes now: the window closes when its time is up, not before.
    let version = after["version"].as_u64().expect("version");
    let closed = loop {
        let events = api.events(table, &humans[0].token, version).await;
        if let Some(closed) = events.iter().find(|e| e["type"] == "window_closed.v1") {
            break closed.clone();
        }
        assert!(
            thrown_at.elapsed() < Duration::from_secs(20),
            "the window never closed"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert!(thrown_at.elapsed() >= Duration::from_millis(800));
    assert_eq!(closed["payload"]["reason"], "elapsed");
    assert!(
        closed["payload"]["waited_ms"].as_u64() >= Some(800),
        "{closed}"
    );
}

/// Another server on `app`'s database, with what kills it.
async fn instance(app: &TestApp) -> (Api, KillSwitch) {
    let settings = test_settings(app.database.url.clone(), &app.admin_password);
    let server = Application::build(settings).await.expect("another server");
    let api = Api {
        address: format!("http://127.0.0.1:{}", server.port()),
        client: app.client.clone(),
    };
    let kill = server.kill_switch();
    tokio::spawn(server.run_until_stopped());
    (api, kill)
}

async fn count(app: &TestApp, sql: &str) -> i64 {
    sqlx::query_scalar(sqlx::AssertSqlSafe(sql.to_owned()))
        .fetch_one(&app.db)
        .await
        .expect("a count")
}

/// Done when: "200 tables with absent players time out exactly once each while one
/// instance is killed".
#[tokio::test]
async fn two_hundred_absent_players_time_out_once_each_while_an_instance_dies() {
    const TABLES: usize = 200;
    let app = spawn_app().await;
    let (b, kill_b) = instance(&app).await;
    let (c, _) = instance(&app).await;
    let instances = [app.api(), b, c];
    let ann = app.new_player("ann").await;
    // One absent human against a bot: its first timeout makes it absent, and the
    // rest of the game is played at once.
    let body = json!({
        "preset": "israeli",
        "overrides": short_game(),
        "seats": 2,
        "bots": [{"seat": 1, "kind": "greedy"}],
        "clock": {"turn_ms": 1500, "decision_ms": 1500, "absent_after": 1},
    });
    for batch in (0..TABLES).collect::<Vec<_>>().chunks(20) {
        yaniv_e2e_tests::join_all(batch.iter().map(|&i| {
            let api = &instances[i % instances.len()];
            let (body, token) = (&body, &ann.token);
            async move {
                let id = api.create_table(token, body).await["id"]
                    .as_i64()
                    .expect("id");
                api.join(id, token).await;
                api.start(id, token).await;
            }
        }))
        .await;
    }

    // Kill B while the timeouts are being fired.
    let give_up = Instant::now() + Duration::from_secs(120);
    while count(
        &app,
        "SELECT count(*) FROM events WHERE event_type = 'turn_timed_out.v1'",
    )
    .await
        < 20
    {
        assert!(Instant::now() < give_up, "no timeouts fired");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    kill_b.kill().await;

    // No table is left stalled.
    while count(
        &app,
        "SELECT count(*) FROM game_tables WHERE status <> 'finished'",
    )
    .await
        > 0
    {
        assert!(
            Instant::now() < give_up,
            "tables stalled after the instance died"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    // Each table timed out exactly once; every later move of its absent seat came
    // at once, marked absent.
    let per_table: Vec<i64> = sqlx::query_scalar(
        "SELECT count(*) FILTER (WHERE event_type = 'turn_timed_out.v1' \
                 AND payload LIKE '%\"absent\":false%') \
         FROM events WHERE stream_id LIKE 'table-%' \
         GROUP BY stream_id",
    )
    .fetch_all(&app.db)
    .await
    .expect("timeouts per table");
    assert_eq!(per_table.len(), TABLES);
    assert!(per_table.iter().all(|&n| n == 1), "{per_table:?}");
    // The fold agrees with the store: a few tables verify whole.
    let (_, admin) = app.admin().await;
    for table in [1, TABLES as i64 / 2, TABLES as i64] {
        let response = instances[0]
            .post(&format!("/v1/tables/{table}/verify"), &admin, None)
            .await;
        let verdict = Api::json_ok(response, StatusCode::OK, "verify").await;
        assert_eq!(verdict["replay"]["ok"], true, "{verdict}");
    }
}

/// Clocks "configured per table and per tournament (its online tables)": a drawn
/// table whose players never come is played to its end by its clock, and its result
/// counts for the tournament like any other.
#[tokio::test]
async fn a_tournament_table_nobody_plays_is_finished_by_its_clock_and_counts() {
    let app = spawn_app().await;
    let api = app.api();
    let org = app.new_organizer("olga").await;
    let mut players = Vec::new();
    for i in 1..=4 {
        players.push(app.new_player(&format!("cp{i}")).await);
    }
    let clock = json!({"turn_ms": 300, "decision_ms": 300, "window_ms": 0, "absent_after": 1});
    let body = json!({
        "name": "Clock cup",
        "rules": {"preset": "israeli", "overrides": short_game()},
        "capacity": 4,
        "config": {"qualification_rounds": 1, "table_min": 4, "table_max": 4, "clock": clock},
    });
    let id = api.started_tournament(&org, &players, &body).await;
    let drawn = api.draw(id, &org.token, &json!({})).await;
    let game = drawn["online_tables"][0]["game_table"]
        .as_i64()
        .expect("an online table");
    let view = api.view(game, &players[0].token).await;
    assert_eq!(view["clock"]["settings"], clock, "{view}");

    let give_up = Instant::now() + Duration::from_secs(60);
    while api.summary(game, &org.token).await["status"] != "finished" {
        assert!(
            Instant::now() < give_up,
            "the clock did not finish the table"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let page = api
        .tournament_read(id, "/events?limit=1000", &org.token)
        .await;
    let results = page["events"]
        .as_array()
        .expect("events")
        .iter()
        .filter(|e| e["type"] == "result_recorded.v1")
        .count();
    assert_eq!(results, 1, "the game's result is recorded");
}

/// #30: "a clock deadline survives a 3 s lock without firing early". A move whose
/// write waits 3 s for a lock on `events` commits 3 s after its transaction began; the
/// next player's 4 s turn counts from the write, so it times out no sooner than about
/// 4 s after the move was answered (not 1 s), and the time it says the table waited
/// is the time it really waited. (The mover's own 4 s run out only after the lock.)
#[tokio::test]
async fn a_deadline_counts_from_the_write_so_a_stalled_move_hands_over_a_whole_turn() {
    let app = spawn_app().await;
    let api = app.api();
    let humans = vec![app.new_player("ann").await, app.new_player("bob").await];
    let (_, admin) = app.admin().await;
    let body = json!({
        "preset": "israeli",
        "seats": 2,
        "clock": {"turn_ms": 4000, "decision_ms": 4000, "window_ms": 0},
    });
    let table = api.started_table(&body, &humans).await;
    let (mover, view) = to_act(&api, table, &humans).await;

    // Another session holds every write to `events` for 3 s.
    let mut lock = app.db.begin().await.expect("begin");
    sqlx::query("LOCK TABLE events IN EXCLUSIVE MODE")
        .execute(&mut *lock)
        .await
        .expect("lock events");
    let release = tokio::spawn(async move {
        tokio::time::sleep(Duration::from_secs(3)).await;
        lock.commit().await.expect("release the lock");
    });
    let sent = Instant::now();
    let moved = api
        .act(table, &mover.token, &first_throw(&view), None)
        .await;
    let answered = Instant::now();
    assert_eq!(moved.status(), StatusCode::OK);
    release.await.expect("the lock task");
    assert!(
        answered - sent >= Duration::from_millis(2900),
        "the move waited for the lock: {:?}",
        answered - sent
    );

    // The next player does nothing: their turn times out.
    let before = api.events(table, &admin, 0).await.len() as u64;
    let (timeout, seen) = loop {
        let events = api.events(table, &admin, before).await;
        if let Some(timeout) = events.iter().find(|e| e["type"] == "turn_timed_out.v1") {
            break (timeout.clone(), Instant::now());
        }
        assert!(
            answered.elapsed() < Duration::from_secs(15),
            "no timeout after 15 s"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    assert!(
        seen - answered >= Duration::from_millis(3800),
        "the next player had their turn's 4 s after the move was answered, not {:?}",
        seen - answered
    );
    let waited = timeout["payload"]["waited_ms"].as_u64().expect("waited_ms");
    assert!(waited >= 4000, "{timeout}");
    assert!(
        u128::from(waited) <= (seen - answered).as_millis() + 300,
        "waited_ms {waited} is the time the turn really waited, about {:?}",
        seen - answered
    );
}
