//! Operations: graceful shutdown on SIGTERM, and `/readyz` following the database.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use actix_web::{HttpResponse, web};
use reqwest::StatusCode;
use serde_json::{Value, json};
use sqlx::{Connection, Executor, PgConnection};
use tokio::sync::Notify;
use yaniv_api::startup::{self, Application};
use yaniv_e2e_tests::{
    TestDatabase, database_url, expect_database_unavailable, expect_problem, random_hex, spawn_app,
    test_settings,
};

/// Signalled when the slow handler has started.
static SLOW_STARTED: Notify = Notify::const_new();

/// `GET /test/slow`: answers after a second.
fn slow_route(cfg: &mut web::ServiceConfig) {
    cfg.route(
        "/test/slow",
        web::get().to(|| async {
            SLOW_STARTED.notify_one();
            tokio::time::sleep(Duration::from_secs(1)).await;
            HttpResponse::Ok().body("finished")
        }),
    );
}

/// SIGTERM while a request is in flight: the server stops accepting connections,
/// finishes the request, then stops. This is `main`'s path (`shutdown_signal`, then
/// `stop(true)`) with a real signal sent to this test process.
#[cfg(unix)]
#[tokio::test]
async fn sigterm_lets_the_request_in_flight_finish() {
    if std::env::var_os("TEST_LOG").is_some() {
        yaniv_api::telemetry::init_subscriber(yaniv_api::telemetry::LogFormat::Text);
    }
    let database = TestDatabase::create().await;
    let settings = test_settings(database.url.clone(), "unused-admin-password");
    let mut route_list = yaniv_api::startup::all_routes();
    route_list.push(slow_route);
    let app = Application::build_with_routes(settings, route_list)
        .await
        .expect("the server starts");
    let base = format!("http://127.0.0.1:{}", app.port());
    let stop = app.graceful_stop();
    let server = tokio::spawn(app.run_until_stopped());

    // From here on SIGTERM cannot kill the test process, even if the server's own
    // listener below were not registered yet: this one is.
    let mut guard = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
        .expect("a SIGTERM listener");
    let shutdown = tokio::spawn(async move {
        startup::shutdown_signal().await;
        stop.stop().await;
    });

    let client = reqwest::Client::new();
    let in_flight = tokio::spawn({
        let client = client.clone();
        let url = format!("{base}/test/slow");
        async move { client.get(url).send().await }
    });
    tokio::time::timeout(Duration::from_secs(10), SLOW_STARTED.notified())
        .await
        .expect("the slow request reached its handler");

    let status = std::process::Command::new("kill")
        .args(["-TERM", &std::process::id().to_string()])
        .status()
        .expect("run kill");
    assert!(status.success());
    guard.recv().await;

    let response = tokio::time::timeout(Duration::from_secs(10), in_flight)
        .await
        .expect("the request in flight finishes")
        .unwrap()
        .unwrap_or_else(|e| panic!("the request in flight failed: {e:?}"));
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(response.text().await.unwrap(), "finished");
    // The client's idle keep-alive connection would hold the shutdown up until the
    // keep-alive timeout (5 s): close it.
    drop(client);

    expect_clean_stop(shutdown, server, Duration::from_secs(10)).await;
    // Stopped: no new connection is accepted.
    let fresh = reqwest::Client::new();
    assert!(fresh.get(format!("{base}/healthz")).send().await.is_err());
}

/// The graceful stop's task ends within `limit`, and then the server's, cleanly.
async fn expect_clean_stop(
    stop: tokio::task::JoinHandle<()>,
    server: tokio::task::JoinHandle<std::io::Result<()>>,
    limit: Duration,
) {
    tokio::time::timeout(limit, stop)
        .await
        .expect("the stop completes")
        .expect("the stop's task");
    tokio::time::timeout(limit, server)
        .await
        .expect("the server stops")
        .expect("the server's task")
        .expect("the server stops cleanly");
}

/// What one load client saw: answers, and anything that was not one.
#[derive(Debug, Default)]
struct Seen {
    answered: usize,
    answered_while_stopping: usize,
    /// Requests that got neither an answer nor a refused connection, and answers
    /// other than a success.
    failures: Vec<String>,
    refused_at_connect: bool,
}

/// One client of the load: creates tables and reads their events, alternately, on its
/// own keep-alive connections, until the server refuses its connection.
async fn load_client(base: String, token: String, stopping: Arc<AtomicBool>) -> Seen {
    let client = reqwest::Client::builder()
        .connect_timeout(Duration::from_secs(10))
        // Below the server's keep-alive, so that no request goes out on a connection
        // the server is closing as idle (a race of HTTP/1.1 itself, not of the stop).
        .pool_idle_timeout(Duration::from_secs(3))
        .build()
        .expect("HTTP client");
    let mut seen = Seen::default();
    let mut table: Option<i64> = None;
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    while std::time::Instant::now() < deadline {
        let request = match table {
            Some(id) => client.get(format!("{base}/v1/tables/{id}/events")),
            None => client
                .post(format!("{base}/v1/tables"))
                .json(&json!({"preset": "israeli", "seats": 2})),
        };
        let was_stopping = stopping.load(Ordering::SeqCst);
        match request.bearer_auth(&token).send().await {
            Ok(response) => {
                let status = response.status();
                match response.bytes().await {
                    Ok(body) if status.is_success() => {
                        seen.answered += 1;
                        if was_stopping {
                            seen.answered_while_stopping += 1;
                        }
                        table = match table {
                            Some(_) => None,
                            None => serde_json::from_slice::<Value>(&body)
                                .ok()
                                .and_then(|created| created["id"].as_i64()),
                        };
                    }
                    Ok(body) => seen
                        .failures
                        .push(format!("{status}: {}", String::from_utf8_lossy(&body))),
                    Err(err) => seen.failures.push(format!("body cut off: {err:?}")),
                }
            }
            Err(err) if err.is_connect() => {
                if !stopping.load(Ordering::SeqCst) {
                    seen.failures
                        .push(format!("refused before the stop: {err:?}"));
                }
                seen.refused_at_connect = true;
                return seen;
            }
            Err(err) => seen.failures.push(format!("no answer: {err:?}")),
        }
    }
    seen.failures.push("the server never refused".into());
    seen
}

/// A stop under load: 24 clients create tables and read them through two workers.
/// Every request the server accepted is answered (no reset, no 503 from a worker's
/// runtime going away), `/readyz` turns `shutting_down` as the drain begins, and a client that
/// comes after the door closed is refused when it connects, as a balancer expects.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stop_under_load_answers_every_request_it_accepted() {
    let database = TestDatabase::create().await;
    let admin_password = random_hex(12);
    let mut settings = test_settings(database.url.clone(), &admin_password);
    // Two workers, so that a pooled connection opened on one worker's runtime serves
    // the other: the stop must not end one runtime while the other still needs it.
    settings.http_workers = Some(2);
    // Half a second of draining, as a balancer's health check would need: new
    // connections are still served then, with `Connection: close`.
    settings.shutdown_delay = Duration::from_millis(500);
    let app = Application::build(settings)
        .await
        .expect("the server starts");
    let base = format!("http://127.0.0.1:{}", app.port());
    let stop = app.graceful_stop();
    let server = tokio::spawn(app.run_until_stopped());

    let client = reqwest::Client::new();
    let account = json!({"username": "steady", "password": "password-of-steady"});
    let created = client
        .post(format!("{base}/v1/accounts"))
        .json(&account)
        .send()
        .await
        .unwrap();
    assert_eq!(created.status(), StatusCode::CREATED);
    let session: Value = client
        .post(format!("{base}/v1/sessions"))
        .json(&account)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let token = session["token"].as_str().expect("a token").to_owned();

    let stopping = Arc::new(AtomicBool::new(false));
    let clients: Vec<_> = (0..24)
        .map(|_| {
            tokio::spawn(load_client(
                base.clone(),
                token.clone(),
                Arc::clone(&stopping),
            ))
        })
        .collect();
    // Load on both workers for a while: each has opened pooled connections.
    tokio::time::sleep(Duration::from_millis(1500)).await;

    stopping.store(true, Ordering::SeqCst);
    let stopped = tokio::spawn(async move { stop.stop().await });
    // The stop runs on another task: the first /readyz may come before it has begun
    // draining, so ask again (well within the half second of draining) until it says so.
    let mut ready = client.get(format!("{base}/readyz")).send().await.unwrap();
    for _ in 0..20 {
        if ready.status() == StatusCode::SERVICE_UNAVAILABLE {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
        ready = client.get(format!("{base}/readyz")).send().await.unwrap();
    }
    expect_problem(ready, StatusCode::SERVICE_UNAVAILABLE, "shutting_down").await;
    drop(client);

    let mut answered = 0;
    let mut answered_while_stopping = 0;
    let mut failures = Vec::new();
    for client in clients {
        let seen = tokio::time::timeout(Duration::from_secs(90), client)
            .await
            .expect("every client ends")
            .unwrap();
        answered += seen.answered;
        answered_while_stopping += seen.answered_while_stopping;
        assert!(seen.refused_at_connect || !seen.failures.is_empty());
        failures.extend(seen.failures);
    }
    assert!(
        failures.is_empty(),
        "{} of {} requests went wrong: {failures:#?}",
        failures.len(),
        answered + failures.len()
    );
    assert!(answered > 100, "the load ran ({answered} answers)");
    assert!(
        answered_while_stopping > 0,
        "requests sent while draining were served"
    );
    expect_clean_stop(stopped, server, Duration::from_secs(60)).await;
}

/// `/readyz` answers 503 `database_unavailable` while the database refuses connections,
/// `/healthz` stays 200, and readiness comes back with the database.
#[tokio::test]
async fn readyz_follows_the_database() {
    let app = spawn_app().await;
    assert_eq!(app.get("/readyz", None).await.status(), StatusCode::OK);

    let name = &app.database.name;
    let mut admin = PgConnection::connect(&database_url()).await.unwrap();
    admin
        .execute(sqlx::AssertSqlSafe(format!(
            r#"ALTER DATABASE "{name}" ALLOW_CONNECTIONS false"#
        )))
        .await
        .unwrap();
    admin
        .execute(sqlx::AssertSqlSafe(format!(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity \
             WHERE datname = '{name}' AND pid <> pg_backend_pid()"
        )))
        .await
        .unwrap();

    let response = app.get("/readyz", None).await;
    expect_database_unavailable(response).await;
    assert_eq!(app.get("/healthz", None).await.status(), StatusCode::OK);

    admin
        .execute(sqlx::AssertSqlSafe(format!(
            r#"ALTER DATABASE "{name}" ALLOW_CONNECTIONS true"#
        )))
        .await
        .unwrap();
    let mut status = StatusCode::SERVICE_UNAVAILABLE;
    for _ in 0..50 {
        status = app.get("/readyz", None).await.status();
        if status == StatusCode::OK {
            break;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    assert_eq!(
        status,
        StatusCode::OK,
        "ready again once the database is back"
    );
}
