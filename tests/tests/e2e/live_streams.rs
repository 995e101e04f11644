//! Live streams (issue #10): a table pushed to its players over Server-Sent Events or
//! NDJSON, from any of several server instances on one database, resumed without a
//! gap or a duplicate.

use std::time::Duration;

use reqwest::StatusCode;
use serde_json::{Value, json};
use yaniv_e2e_tests::tables::{Api, Player, check_events_hide, check_view_hides, choose};
use yaniv_e2e_tests::{TestApp, spawn_app, spawn_app_with};

/// One message of a stream.
#[derive(Debug, Clone, PartialEq)]
struct Message {
    kind: String,
    id: Option<u64>,
    data: Value,
}

/// An open stream, read message by message.
struct Subscriber {
    response: reqwest::Response,
    pending: String,
    ndjson: bool,
}

impl Subscriber {
    /// Table `table`'s stream as `token`'s holder, with `headers`.
    async fn open(api: &Api, table: i64, token: &str, headers: &[(&str, &str)]) -> Self {
        let mut request = api
            .client
            .get(api.url(&format!("/v1/tables/{table}/stream")))
            .bearer_auth(token);
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        Self::request(request).await
    }

    /// The stream `request` opens, which must answer 200.
    async fn request(request: reqwest::RequestBuilder) -> Self {
        let response = request.send().await.expect("GET stream");
        assert_eq!(response.status(), StatusCode::OK);
        let content_type = response
            .headers()
            .get("content-type")
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_owned();
        Self {
            response,
            pending: String::new(),
            ndjson: content_type.starts_with("application/x-ndjson"),
        }
    }

    /// The next message (heartbeats included, as kind `heartbeat`), or `None` after
    /// `wait` without one.
    async fn next(&mut self, wait: Duration) -> Option<Message> {
        loop {
            if let Some(message) = self.take() {
                return Some(message);
            }
            let chunk = tokio::time::timeout(wait, self.response.chunk())
                .await
                .ok()?
                .expect("read the stream")?;
            self.pending
                .push_str(std::str::from_utf8(&chunk).expect("UTF-8"));
        }
    }

    fn take(&mut self) -> Option<Message> {
        let separator = if self.ndjson { "\n" } else { "\n\n" };
        let end = self.pending.find(separator)?;
        let raw: String = self.pending.drain(..end + separator.len()).collect();
        let raw = raw.trim_end_matches('\n');
        if self.ndjson {
            if raw.is_empty() {
                return Some(heartbeat());
            }
            let line: Value = serde_json::from_str(raw).expect("an NDJSON line");
            return Some(Message {
                kind: line["kind"].as_str().expect("kind").to_owned(),
                id: line["id"].as_u64(),
                data: line["data"].clone(),
            });
        }
        let mut message = Message {
            kind: "message".into(),
            id: None,
            data: Value::Null,
        };
        for line in raw.lines() {
            if line.starts_with(':') {
                return Some(heartbeat());
            }
            if let Some(id) = line.strip_prefix("id: ") {
                message.id = Some(id.parse().expect("a numeric id"));
            } else if let Some(kind) = line.strip_prefix("event: ") {
                message.kind = kind.to_owned();
            } else if let Some(data) = line.strip_prefix("data: ") {
                message.data = serde_json::from_str(data).expect("JSON data");
            }
        }
        Some(message)
    }

    /// Events (heartbeats and views skipped) until version `until` is received.
    async fn events_until(&mut self, until: u64) -> Vec<Message> {
        let mut events = Vec::new();
        while events.last().and_then(|e: &Message| e.id) < Some(until) {
            let message = self
                .next(Duration::from_secs(10))
                .await
                .unwrap_or_else(|| panic!("no event up to {until}; got {events:?}"));
            if message.kind == "event" {
                events.push(message);
            }
        }
        events
    }
}

fn heartbeat() -> Message {
    Message {
        kind: "heartbeat".into(),
        id: None,
        data: Value::Null,
    }
}

/// Two players, a started table; the id.
async fn started_table(app: &TestApp) -> (i64, Player, Player) {
    let api = app.api();
    let players = [app.new_player("ann").await, app.new_player("bob").await];
    let id = api
        .started_table(&json!({"preset": "israeli", "seats": 2}), &players)
        .await;
    let [ann, bob] = players;
    (id, ann, bob)
}

/// Plays `moves` moves (or to the end of the game) through `api`; the version after.
async fn play(api: &Api, table: i64, players: &[&Player], moves: usize) -> u64 {
    for _ in 0..moves {
        let mut moved = false;
        for player in players {
            let view = api.view(table, &player.token).await;
            if let Some(action) = choose(&view) {
                let response = api.act(table, &player.token, &action, None).await;
                assert_eq!(response.status(), StatusCode::OK, "{action}");
                moved = true;
                break;
            }
        }
        if !moved {
            break;
        }
    }
    api.summary(table, &players[0].token).await["version"]
        .as_u64()
        .expect("version")
}

/// What `/events` gives `player` after `after`, as (version, type, payload).
async fn events_of(api: &Api, table: i64, player: &Player, after: u64) -> Vec<(u64, Value, Value)> {
    api.events(table, &player.token, after)
        .await
        .into_iter()
        .map(|e| {
            (
                e["version"].as_u64().expect("version"),
                e["type"].clone(),
                e["payload"].clone(),
            )
        })
        .collect()
}

/// Whether `pushed` is `now` with some of its values still hidden (`null`): an event
/// pushed while its round ran hides what `/events` shows once the round is over (the
/// deal's seed, another seat's stock draw); it never shows more, nor anything else.
fn as_revealed_then(pushed: &Value, now: &Value) -> bool {
    match (pushed, now) {
        (Value::Null, _) => true,
        (Value::Object(p), Value::Object(n)) => {
            p.len() == n.len()
                && p.iter()
                    .all(|(k, v)| n.get(k).is_some_and(|w| as_revealed_then(v, w)))
        }
        (Value::Array(p), Value::Array(n)) => {
            p.len() == n.len() && p.iter().zip(n).all(|(v, w)| as_revealed_then(v, w))
        }
        _ => pushed == now,
    }
}

/// The pushed events are `/events` as the caller saw it then: same versions and types,
/// payloads equal up to what a round's end has revealed since.
fn assert_pushed_as_read(pushed: &[Message], read: &[(u64, Value, Value)]) {
    let pushed = as_rows(pushed);
    assert_eq!(pushed.len(), read.len(), "one message per event");
    for ((version, kind, payload), (read_version, read_kind, read_payload)) in
        pushed.iter().zip(read)
    {
        assert_eq!((version, kind), (read_version, read_kind));
        assert!(
            as_revealed_then(payload, read_payload),
            "v{version}: pushed {payload} but /events gives {read_payload}"
        );
    }
}

fn as_rows(events: &[Message]) -> Vec<(u64, Value, Value)> {
    events
        .iter()
        .map(|m| {
            (
                m.id.expect("an event has an id"),
                m.data["type"].clone(),
                m.data["payload"].clone(),
            )
        })
        .collect()
}

/// Subscribers on three instances hear every event of a table driven through one of
/// them, in order, once each, redacted for their seat exactly as `/events`; one that
/// drops its connection resumes on another instance with `Last-Event-ID`.
#[tokio::test]
async fn every_instance_pushes_every_event_once_and_resumes_elsewhere() {
    let app = spawn_app().await;
    let driver = app.api();
    let (b, c) = (app.spawn_instance().await, app.spawn_instance().await);
    let (table, ann, bob) = started_table(&app).await;
    let start = driver.summary(table, &ann.token).await["version"]
        .as_u64()
        .expect("version");

    let mut ann_on_b = Subscriber::open(&b, table, &ann.token, &[("Last-Event-ID", "0")]).await;
    let mut bob_on_c = Subscriber::open(&c, table, &bob.token, &[]).await;
    // A fresh stream without a resume point starts with the view, not the history.
    let first = bob_on_c
        .next(Duration::from_secs(10))
        .await
        .expect("a view");
    assert_eq!(first.kind, "view");
    assert_eq!(first.data["table"]["version"], start, "{}", first.data);

    let middle = play(&driver, table, &[&ann, &bob], 6).await;
    let heard_by_bob = bob_on_c.events_until(middle).await;
    assert_pushed_as_read(&heard_by_bob, &events_of(&driver, table, &bob, start).await);
    // Bob's connection drops; he resumes on instance B from what he had.
    drop(bob_on_c);
    let end = play(&driver, table, &[&ann, &bob], 10).await;
    let resume = middle.to_string();
    let mut bob_on_b =
        Subscriber::open(&b, table, &bob.token, &[("Last-Event-ID", resume.as_str())]).await;
    let resumed = bob_on_b.events_until(end).await;
    assert_pushed_as_read(&resumed, &events_of(&driver, table, &bob, middle).await);

    let heard_by_ann = ann_on_b.events_until(end).await;
    let versions: Vec<u64> = heard_by_ann.iter().filter_map(|m| m.id).collect();
    assert_eq!(
        versions,
        (1..=end).collect::<Vec<_>>(),
        "in order, no gap, no duplicate"
    );
    assert_pushed_as_read(&heard_by_ann, &events_of(&driver, table, &ann, 0).await);
    // After the last event comes the fresh view, as /view gives it.
    let view = loop {
        let message = ann_on_b
            .next(Duration::from_secs(10))
            .await
            .expect("a view");
        if message.kind == "view" && message.data["table"]["version"] == end {
            break message.data;
        }
    };
    assert_eq!(view, driver.view(table, &ann.token).await);
}

/// NDJSON on request, and a heartbeat when nothing happens.
#[tokio::test]
async fn ndjson_on_request_and_heartbeats_when_quiet() {
    let app = spawn_app_with(|s| s.stream_heartbeat = Duration::from_secs(1), vec![]).await;
    let api = app.api();
    let (table, ann, bob) = started_table(&app).await;
    let mut stream = Subscriber::open(
        &api,
        table,
        &ann.token,
        &[("Accept", "application/x-ndjson"), ("Last-Event-ID", "0")],
    )
    .await;
    assert!(stream.ndjson);
    let start = api.summary(table, &ann.token).await["version"]
        .as_u64()
        .expect("version");
    let history = stream.events_until(start).await;
    assert_pushed_as_read(&history, &events_of(&api, table, &ann, 0).await);
    let mut heard_heartbeat = false;
    while let Some(message) = stream.next(Duration::from_secs(5)).await {
        if message.kind == "heartbeat" {
            heard_heartbeat = true;
            break;
        }
    }
    assert!(heard_heartbeat, "a quiet stream sends heartbeats");
    let after = play(&api, table, &[&ann, &bob], 1).await;
    assert_eq!(
        stream.events_until(after).await.last().and_then(|m| m.id),
        Some(after)
    );
}

/// A stream is refused like any read: no table, no token.
#[tokio::test]
async fn streams_refuse_what_reads_refuse() {
    let app = spawn_app().await;
    let (_, token) = app.player("ann").await;
    let missing = app
        .client
        .get(app.url("/v1/tables/999/stream"))
        .bearer_auth(&token)
        .send()
        .await
        .expect("GET");
    assert_eq!(missing.status(), StatusCode::NOT_FOUND);
    let anonymous = app
        .client
        .get(app.url("/v1/tables/1/stream"))
        .send()
        .await
        .expect("GET");
    assert_eq!(anonymous.status(), StatusCode::UNAUTHORIZED);
}

/// Hidden information over the streams: after every move, what each seat and a
/// spectator has been pushed shows nothing of the round in play that it may not see
/// (another seat's stock draw, the round's seed), compared with what a referee reads
/// at that moment; and each pushed view hides what `/view` hides.
#[tokio::test]
async fn streams_hide_from_every_seat_what_events_hide() {
    let app = spawn_app().await;
    let api = app.api();
    let humans = [
        app.new_player("ann").await,
        app.new_player("bob").await,
        app.new_player("cyd").await,
    ];
    let spectator = app.new_player("sam").await;
    let referee = app.new_referee("rita").await;
    let table = api
        .started_table(&json!({"preset": "israeli", "seats": 3}), &humans)
        .await;
    let watchers: Vec<&Player> = humans.iter().chain([&spectator]).collect();
    let mut streams = Vec::new();
    for watcher in &watchers {
        streams
            .push(Subscriber::open(&api, table, &watcher.token, &[("Last-Event-ID", "0")]).await);
    }
    let mut pushed: Vec<Vec<Value>> = vec![Vec::new(); watchers.len()];
    let players: Vec<&Player> = humans.iter().collect();
    for _ in 0..15 {
        let version = play(&api, table, &players, 1).await;
        let staff_events = api.events(table, &referee.token, 0).await;
        let staff_view = api.view(table, &referee.token).await;
        for ((watcher, stream), seen) in watchers.iter().zip(&mut streams).zip(&mut pushed) {
            let seat = api.view(table, &watcher.token).await["seat"].as_u64();
            seen.extend(
                stream
                    .events_until(version)
                    .await
                    .into_iter()
                    .map(|m| m.data),
            );
            check_events_hide(seen, &staff_events, seat);
            let view = loop {
                let message = stream.next(Duration::from_secs(10)).await.expect("a view");
                if message.kind == "view" && message.data["table"]["version"] == version {
                    break message.data;
                }
            };
            check_view_hides(&view, &staff_view);
        }
    }
}

/// A tournament's stream is public: anyone follows its events (as `/events` gives
/// them), its summary after each change and, once the qualification has started, its
/// standings.
#[tokio::test]
async fn a_tournament_is_pushed_to_anyone() {
    let app = spawn_app().await;
    let api = app.api();
    let org = app.new_organizer("olga").await;
    let mut players = Vec::new();
    for name in ["pia", "pete", "paula", "pam"] {
        players.push(app.new_player(name).await);
    }
    let id = api
        .started_tournament(
            &org,
            &players,
            &json!({"name": "Live cup", "rules": {"preset": "israeli"}, "capacity": 4}),
        )
        .await;
    // Anyone, without a token, from the first event; then a draw made while following.
    let mut stream = Subscriber::request(
        app.client
            .get(app.url(&format!("/v1/tournaments/{id}/stream")))
            .header("Last-Event-ID", "0"),
    )
    .await;
    let drawn = api.draw(id, &org.token, &json!({})).await;
    let version = drawn["version"].as_u64().expect("version");

    let pushed = stream.events_until(version).await;
    let read: Vec<Value> = api
        .tournament_read(id, "/events?limit=1000", &org.token)
        .await["events"]
        .as_array()
        .expect("events")
        .clone();
    let pushed: Vec<Value> = pushed.into_iter().map(|m| m.data).collect();
    assert_eq!(pushed, read, "every event, in order, as /events gives it");
    let (mut summary, mut standings) = (None, None);
    while summary.is_none() || standings.is_none() {
        let message = stream.next(Duration::from_secs(10)).await.expect("more");
        match message.kind.as_str() {
            "tournament" if message.data["version"] == version => summary = Some(message.data),
            "standings" if message.data["version"] == version => standings = Some(message.data),
            _ => {}
        }
    }
    assert_eq!(
        summary.expect("summary"),
        api.tournament_read(id, "", &org.token).await
    );
    assert_eq!(
        standings.expect("standings"),
        api.tournament_read(id, "/standings", &org.token).await
    );
}

/// A stopping server ends its open streams at once, so that a graceful stop does not
/// wait out its timeout (30 s) on connections that never finish; clients then resume
/// elsewhere with `Last-Event-ID`.
#[tokio::test]
async fn a_stopping_server_ends_its_streams_at_once() {
    let app = spawn_app().await;
    let (table, ann, _) = started_table(&app).await;
    let settings = yaniv_e2e_tests::test_settings(app.database.url.clone(), &app.admin_password);
    let second = yaniv_api::startup::Application::build(settings)
        .await
        .expect("a second server");
    let api = Api {
        address: format!("http://127.0.0.1:{}", second.port()),
        client: app.client.clone(),
    };
    let stop = second.graceful_stop();
    let running = tokio::spawn(second.run_until_stopped());
    let mut stream = Subscriber::open(&api, table, &ann.token, &[]).await;
    assert_eq!(
        stream
            .next(Duration::from_secs(10))
            .await
            .expect("a view")
            .kind,
        "view"
    );

    let stopping = std::time::Instant::now();
    stop.stop().await;
    tokio::time::timeout(Duration::from_secs(10), running)
        .await
        .expect("the server stopped without waiting for the stream")
        .expect("the server task")
        .expect("a clean stop");
    assert!(stopping.elapsed() < Duration::from_secs(10));
    assert!(
        stream.next(Duration::from_secs(5)).await.is_none(),
        "the stream ended"
    );
}

/// `/v1/accounts/me/stream` pushes the caller's tables whenever the list changes: a
/// seat taken, the start, a move that makes it the caller's turn.
#[tokio::test]
async fn an_account_hears_its_tables_and_its_turns() {
    let app = spawn_app().await;
    let api = app.api();
    let (ann, bob) = (app.new_player("ann").await, app.new_player("bob").await);
    let mut stream = Subscriber::request(
        app.client
            .get(app.url("/v1/accounts/me/stream"))
            .bearer_auth(&bob.token),
    )
    .await;
    async fn tables(stream: &mut Subscriber) -> Value {
        loop {
            let message = stream.next(Duration::from_secs(10)).await.expect("tables");
            if message.kind == "tables" {
                return message.data;
            }
        }
    }
    assert_eq!(tables(&mut stream).await, json!([]), "no table yet");

    let created = api
        .create_table(&ann.token, &json!({"preset": "israeli", "seats": 2}))
        .await;
    let table = created["id"].as_i64().expect("id");
    api.join(table, &ann.token).await;
    api.join(table, &bob.token).await;
    let seated = tables(&mut stream).await;
    assert_eq!(seated[0]["table"], table, "{seated}");
    assert_eq!(seated[0]["status"], "open");
    api.start(table, &ann.token).await;
    // Until a move: whoever must act, the list says so, and after each move again.
    let mut playing = tables(&mut stream).await;
    for _ in 0..4 {
        let summary = api.summary(table, &bob.token).await;
        assert_eq!(playing[0]["status"], "playing", "{playing}");
        assert_eq!(playing[0]["waiting_on"], summary["to_act"], "{playing}");
        assert_eq!(
            playing[0]["your_turn"],
            summary["to_act"] == playing[0]["seat"],
            "{playing}"
        );
        play(&api, table, &[&ann, &bob], 1).await;
        playing = tables(&mut stream).await;
    }
}

/// How many connections of this test's database are listening for pushes.
async fn listeners(app: &TestApp) -> i64 {
    sqlx::query_scalar(
        "SELECT count(*) FROM pg_stat_activity \
         WHERE datname = current_database() AND query ILIKE 'LISTEN %'",
    )
    .fetch_one(&app.db)
    .await
    .expect("count the listeners")
}

/// A failover cuts every connection to the old primary, the one each instance listens
/// on included, and the new primary knows nothing of the old one's `LISTEN`. The
/// listener connects again by itself, and a stream opened before the cut hears every
/// event appended after it, in order, once each.
#[tokio::test]
async fn a_listener_cut_by_the_database_listens_again_and_its_streams_go_on() {
    let app = spawn_app().await;
    let driver = app.api();
    let other = app.spawn_instance().await;
    let (table, ann, bob) = started_table(&app).await;
    let start = driver.summary(table, &ann.token).await["version"]
        .as_u64()
        .expect("version");
    let resume = start.to_string();
    let mut ann_on_other = Subscriber::open(
        &other,
        table,
        &ann.token,
        &[("Last-Event-ID", resume.as_str())],
    )
    .await;
    let deadline = tokio::time::Instant::now() + Duration::from_secs(15);
    while listeners(&app).await < 2 {
        assert!(
            tokio::time::Instant::now() < deadline,
            "both instances listen"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }

    let cut: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM (SELECT pg_terminate_backend(pid) FROM pg_stat_activity \
         WHERE datname = current_database() AND pid <> pg_backend_pid() \
         AND query ILIKE 'LISTEN %') AS cut",
    )
    .fetch_one(&app.db)
    .await
    .expect("cut the listeners");
    assert_eq!(cut, 2, "each instance's listening connection was cut");
    // Each listener waits a second, then connects and listens again.
    let deadline = tokio::time::Instant::now() + Duration::from_secs(15);
    while listeners(&app).await < 2 {
        assert!(
            tokio::time::Instant::now() < deadline,
            "the listeners are back within 15 s"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }

    let end = play(&driver, table, &[&ann, &bob], 6).await;
    assert!(end > start, "the moves after the cut appended events");
    let heard = ann_on_other.events_until(end).await;
    let versions: Vec<u64> = heard.iter().filter_map(|m| m.id).collect();
    assert_eq!(
        versions,
        (start + 1..=end).collect::<Vec<_>>(),
        "in order, no gap, no duplicate"
    );
    assert_pushed_as_read(&heard, &events_of(&driver, table, &ann, start).await);
}
