//! #30: bounded under abuse. Guessing a player's password slows the guesser down and
//! never locks the player out; a script cannot create accounts by the hundred; a
//! thousand anonymous live streams cannot take the connections health checks and
//! log-ins need.

use std::net::IpAddr;
use std::time::{Duration, Instant};

use futures_util::future::join_all;
use reqwest::StatusCode;
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use yaniv_e2e_tests::{TestApp, expect_problem, retry_after, spawn_app_with};

/// Loopback addresses other than 127.0.0.1 reach the same server from another
/// client address (Linux routes all of 127.0.0.0/8 to loopback).
const HOME: [u8; 4] = [127, 0, 0, 1];
const AWAY: [u8; 4] = [127, 0, 0, 2];

fn client_from(address: [u8; 4]) -> reqwest::Client {
    reqwest::Client::builder()
        .local_address(IpAddr::from(address))
        .timeout(Duration::from_secs(30))
        .build()
        .expect("a client")
}

async fn log_in(app: &TestApp, from: [u8; 4], body: &Value) -> reqwest::Response {
    client_from(from)
        .post(app.url("/v1/sessions"))
        .json(body)
        .send()
        .await
        .expect("POST /v1/sessions")
}

fn credentials(username: &str, password: &str) -> Value {
    json!({"username": username, "password": password})
}

fn with_device(username: &str, password: &str, device: &str) -> Value {
    json!({"username": username, "password": password, "device_token": device})
}

async fn device_of(response: reqwest::Response) -> String {
    assert_eq!(response.status(), StatusCode::CREATED);
    let session: Value = response.json().await.expect("a session");
    session["device_token"]
        .as_str()
        .expect("a device token")
        .to_owned()
}

/// Wrong passwords from `from` on `username` until the server makes that client wait.
async fn guess_until_refused(app: &TestApp, from: [u8; 4], username: &str) -> usize {
    for guess in 1..=50 {
        let response = log_in(app, from, &credentials(username, &format!("guess-{guess}"))).await;
        match response.status() {
            StatusCode::UNAUTHORIZED => continue,
            StatusCode::TOO_MANY_REQUESTS => {
                assert!(response.headers().contains_key("retry-after"));
                return guess;
            }
            other => panic!("a guess answered {other}"),
        }
    }
    panic!("50 wrong passwords in a row were all checked")
}

#[tokio::test]
async fn a_victim_logs_in_while_a_guesser_keeps_failing_on_their_name() {
    // Waits long enough that none runs out while the test goes on.
    let app = spawn_app_with(
        |settings| {
            settings.login_limits.per_client.first_wait = Duration::from_secs(30);
            settings.login_limits.per_address.first_wait = Duration::from_secs(30);
        },
        Vec::new(),
    )
    .await;
    app.new_player("ann").await;
    app.new_player("bob").await;
    // Ann and Bob logged in from their phones at the venue once: each phone keeps
    // the device token its log-in gave it.
    let ann_phone =
        device_of(log_in(&app, HOME, &credentials("ann", "password-of-ann")).await).await;
    let bob_phone =
        device_of(log_in(&app, HOME, &credentials("bob", "password-of-bob")).await).await;

    // From elsewhere, a guesser tries Ann's password until the server makes it wait;
    // it keeps trying.
    let refused_at = guess_until_refused(&app, AWAY, "ann").await;
    assert_eq!(
        refused_at, 7,
        "five wrong passwords are free; the sixth is checked and makes the client wait"
    );
    let again = log_in(&app, AWAY, &credentials("ann", "password-of-ann")).await;
    expect_problem(again, StatusCode::TOO_MANY_REQUESTS, "too_many_attempts").await;
    // Ann, at the venue, is not held up, with her phone or without it.
    assert_eq!(
        log_in(&app, HOME, &credentials("ann", "password-of-ann"))
            .await
            .status(),
        StatusCode::CREATED
    );

    // Now the guesser sits on the venue's network: it fails on Ann's name and sprays
    // other names from the venue's one address until that address must wait.
    guess_until_refused(&app, HOME, "ann").await;
    let mut sprayed = 0;
    loop {
        sprayed += 1;
        assert!(sprayed <= 60, "the address's budget never ran out");
        let response = log_in(&app, HOME, &credentials(&format!("name{sprayed}"), "guess")).await;
        if response.status() == StatusCode::TOO_MANY_REQUESTS {
            let wait = retry_after(&response);
            assert!(wait <= 61, "an address waits a minute at most: {wait}");
            assert!(sprayed > 20, "the address had its budget: {sprayed}");
            break;
        }
        assert_eq!(response.status(), StatusCode::UNAUTHORIZED);
    }
    // Ann's phone is judged by its own failures: none. Bob's phone likewise.
    let ann = log_in(
        &app,
        HOME,
        &with_device("ann", "password-of-ann", &ann_phone),
    )
    .await;
    assert_eq!(device_of(ann).await, ann_phone, "the phone keeps its token");
    let bob = log_in(
        &app,
        HOME,
        &with_device("bob", "password-of-bob", &bob_phone),
    )
    .await;
    assert_eq!(bob.status(), StatusCode::CREATED);
    // A device token is only Ann's phone for Ann: on Bob's name it is nobody's.
    let borrowed = log_in(
        &app,
        HOME,
        &with_device("bob", "password-of-bob", &ann_phone),
    )
    .await;
    expect_problem(borrowed, StatusCode::TOO_MANY_REQUESTS, "too_many_attempts").await;
    // The guesser itself stays slowed down, on Ann's name and on any other.
    let guesser = log_in(&app, HOME, &credentials("ann", "password-of-ann")).await;
    expect_problem(guesser, StatusCode::TOO_MANY_REQUESTS, "too_many_attempts").await;
}

#[tokio::test]
async fn one_address_creates_accounts_at_a_bounded_pace() {
    let app = spawn_app_with(
        |settings| {
            settings.registration_limit = yaniv_api::config::RegistrationLimit {
                burst: 3,
                refill_every: Duration::from_secs(60),
            }
        },
        Vec::new(),
    )
    .await;
    let register = |from: [u8; 4], name: &str| {
        let body = json!({"username": name, "password": format!("password-of-{name}")});
        let url = app.url("/v1/accounts");
        async move {
            client_from(from)
                .post(url)
                .json(&body)
                .send()
                .await
                .expect("POST /v1/accounts")
        }
    };
    for name in ["walk_in_1", "walk_in_2", "walk_in_3"] {
        assert_eq!(register(HOME, name).await.status(), StatusCode::CREATED);
    }
    let fourth = register(HOME, "walk_in_4").await;
    let wait = retry_after(&fourth);
    assert!((50..=61).contains(&wait), "{wait}");
    expect_problem(
        fourth,
        StatusCode::TOO_MANY_REQUESTS,
        "too_many_registrations",
    )
    .await;
    assert_eq!(
        register(AWAY, "walk_in_4").await.status(),
        StatusCode::CREATED,
        "another address has its own pace"
    );
}

/// Opens an anonymous live stream of tournament `id` over its own connection and
/// reads the answer's status; the connection stays open (with the stream) while the
/// returned socket lives. The test holds every socket until all thousand are answered,
/// as a rude client would: a refused one must be closed by the server.
async fn anonymous_stream(port: u16, id: i64) -> (u16, TcpStream) {
    let mut socket = TcpStream::connect(("127.0.0.1", port))
        .await
        .expect("connect");
    let request = format!(
        "GET /v1/tournaments/{id}/stream HTTP/1.1\r\nHost: 127.0.0.1\r\n\
         Accept: text/event-stream\r\n\r\n"
    );
    socket.write_all(request.as_bytes()).await.expect("send");
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n") {
        let read = tokio::time::timeout(Duration::from_secs(60), socket.read(&mut byte))
            .await
            .expect("an answer within a minute")
            .expect("read");
        assert_eq!(read, 1, "the connection closed before its status line");
        head.push(byte[0]);
    }
    let line = String::from_utf8_lossy(&head);
    let status = line
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("a status line: {line}"));
    (status, socket)
}

/// A thousand anonymous streams from one address, against a server with the default
/// stream caps, then against one whose only cap is the reserve of connections: the
/// streams beyond the caps are refused at once, and health checks and log-ins are
/// answered within a second all along.
#[tokio::test]
async fn a_thousand_anonymous_streams_leave_room_for_health_checks_and_log_ins() {
    for raised in [false, true] {
        let app = spawn_app_with(
            |settings| {
                settings.http_max_connections = 400;
                if raised {
                    settings.stream_limits.per_address = 100_000;
                    settings.stream_limits.anonymous = 100_000;
                }
            },
            Vec::new(),
        )
        .await;
        let org = app.new_organizer("org").await;
        let created = app
            .api()
            .create_tournament(
                &org.token,
                &json!({"name": "Open cup", "rules": {"preset": "israeli"}, "capacity": 4}),
            )
            .await;
        let id = created["id"].as_i64().expect("an id");
        let port: u16 = app
            .address
            .rsplit(':')
            .next()
            .and_then(|p| p.parse().ok())
            .expect("a port");

        // The refused streams are answered and closed; the open ones stay open.
        let mut open = Vec::new();
        let mut refused = 0;
        for wave in join_all((0..1000).map(|_| anonymous_stream(port, id))).await {
            match wave {
                (200, socket) => open.push(socket),
                (429, _) => refused += 1,
                (other, _) => panic!("a stream answered {other}"),
            }
        }
        let cap = if raised { 400 - 40 } else { 200 };
        assert_eq!(open.len(), cap, "raised caps: {raised}");
        assert_eq!(refused, 1000 - cap);

        let started = Instant::now();
        let health = client_from(HOME)
            .get(app.url("/healthz"))
            .timeout(Duration::from_secs(1))
            .send()
            .await
            .expect("/healthz answers within a second");
        assert_eq!(health.status(), StatusCode::OK);
        let login = client_from(HOME)
            .post(app.url("/v1/sessions"))
            .json(&credentials("org", "password-of-org"))
            .timeout(Duration::from_secs(1))
            .send()
            .await
            .expect("a log-in answers within a second");
        assert_eq!(login.status(), StatusCode::CREATED);
        eprintln!(
            "raised caps {raised}: {} open, {refused} refused; health and log-in in {:?}",
            open.len(),
            started.elapsed()
        );
        let metrics = app.get("/metrics", None).await.text().await.expect("text");
        let refused_line = if raised {
            "yaniv_streams_refused_total{cap=\"total\"}"
        } else {
            "yaniv_streams_refused_total{cap=\"address\"}"
        };
        assert!(
            metrics
                .lines()
                .any(|l| l.starts_with(refused_line) && l.ends_with(&format!(" {}", 1000 - cap))),
            "{metrics}"
        );
    }
}
