//! Operations: graceful shutdown on SIGTERM, and `/readyz` following the database.

use std::time::Duration;

use actix_web::{HttpResponse, web};
use reqwest::StatusCode;
use sqlx::{Connection, Executor, PgConnection};
use tokio::sync::Notify;
use yaniv_api::startup::{self, Application};
use yaniv_e2e_tests::{
    TestDatabase, database_url, expect_database_unavailable, spawn_app, test_settings,
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
    let handle = app.handle();
    let server = tokio::spawn(app.run_until_stopped());

    // From here on SIGTERM cannot kill the test process, even if the server's own
    // listener below were not registered yet: this one is.
    let mut guard = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
        .expect("a SIGTERM listener");
    let shutdown = tokio::spawn(async move {
        startup::shutdown_signal().await;
        handle.stop(true).await;
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

    tokio::time::timeout(Duration::from_secs(10), shutdown)
        .await
        .expect("the shutdown completes")
        .unwrap();
    tokio::time::timeout(Duration::from_secs(10), server)
        .await
        .expect("the server stops")
        .unwrap()
        .expect("the server stops cleanly");
    // Stopped: no new connection is accepted.
    let fresh = reqwest::Client::new();
    assert!(fresh.get(format!("{base}/healthz")).send().await.is_err());
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
