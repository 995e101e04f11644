//! The link between the server and PostgreSQL failing (issue #9): a commit whose
//! answer is lost, a network that stops answering, TLS.

use std::time::{Duration, Instant};

use reqwest::StatusCode;
use serde_json::{Value, json};
use yaniv_e2e_tests::pg_proxy::PgProxy;
use yaniv_e2e_tests::tables::{Api, Player, choose};
use yaniv_e2e_tests::{
    TestApp, database_address, expect_database_unavailable, spawn_app_with, with_address,
};

/// A test server whose every database connection goes through `proxy`.
async fn app_behind(
    proxy: &PgProxy,
    customize: impl FnOnce(&mut yaniv_api::config::Settings),
) -> TestApp {
    let address = proxy.address;
    spawn_app_with(
        |settings| {
            let direct = secrecy::ExposeSecret::expose_secret(&settings.database_url).to_owned();
            // In clear, so that the proxy can tell a COMMIT from other traffic.
            let separator = if direct.contains('?') { '&' } else { '?' };
            settings.database_url = format!(
                "{}{separator}sslmode=disable",
                with_address(&direct, address)
            )
            .into();
            customize(settings);
        },
        vec![],
    )
    .await
}

/// A started two-player table, and the player whose turn it is with their move.
async fn table_at_a_move(app: &TestApp) -> (i64, Player, Player, Value) {
    let api = app.api();
    let players = [app.new_player("ann").await, app.new_player("bob").await];
    let id = api
        .started_table(&json!({"preset": "israeli", "seats": 2}), &players)
        .await;
    let [ann, bob] = players;
    for (mover, other) in [(ann.clone(), bob.clone()), (bob, ann)] {
        if let Some(action) = choose(&api.view(id, &mover.token).await) {
            return (id, mover, other, action);
        }
    }
    panic!("nobody has a move at a started table");
}

async fn stream_length(app: &TestApp, table: i64) -> usize {
    app.store
        .read_stream(&format!("table-{table}"), 1, 10_000)
        .await
        .expect("read the table's stream")
        .len()
}

/// #9.10: a command whose COMMIT reached the database but whose answer was lost on the
/// way back answered 503 while the move stood; a retry without the key then looked
/// like a failed move. The 503 says the outcome is unknown, and the retry with the
/// same `Idempotency-Key` answers what was carried out, without doing it twice.
#[tokio::test]
async fn a_move_whose_commit_answer_is_lost_is_settled_by_its_retry() {
    let proxy = PgProxy::start(database_address().await).await;
    let app = app_behind(&proxy, |_| {}).await;
    let api: Api = app.api();
    let (table, mover, _, action) = table_at_a_move(&app).await;
    let before = stream_length(&app, table).await;

    proxy.cut_after_next_commit();
    let lost = api.act(table, &mover.token, &action, Some("move-1")).await;
    let problem = expect_database_unavailable(lost).await;
    assert!(
        problem.detail.contains("cannot be reached"),
        "{}",
        problem.detail
    );
    assert_eq!(proxy.commits_cut(), 1, "the commit's answer was dropped");
    let committed = stream_length(&app, table).await;
    assert!(committed > before, "the database committed the move");

    let retried = api.act(table, &mover.token, &action, Some("move-1")).await;
    assert_eq!(retried.status(), StatusCode::OK);
    assert_eq!(
        retried
            .headers()
            .get("idempotent-replayed")
            .and_then(|v| v.to_str().ok()),
        Some("true"),
        "the retry replays the first answer"
    );
    let replayed: Value = retried.json().await.expect("JSON");
    assert_eq!(
        replayed["version"].as_u64(),
        Some(committed as u64),
        "{replayed}"
    );
    assert_eq!(stream_length(&app, table).await, committed, "done once");

    // Without the key the same move is a new request, refused: the move was made.
    let again = api.act(table, &mover.token, &action, None).await;
    assert_eq!(again.status(), StatusCode::CONFLICT);
}

/// #9.9 (the network side): a database that stops answering without closing the
/// connection (a lost route) held a write forever; PostgreSQL's statement timeout never
/// reaches across a dead link. The server's own write deadline answers 503, and the
/// server serves again once the link is back.
#[tokio::test]
async fn a_write_on_a_dead_link_answers_503_at_the_write_deadline() {
    let deadline = Duration::from_millis(800);
    let proxy = PgProxy::start(database_address().await).await;
    let app = app_behind(&proxy, |s| s.db_transaction_timeout = deadline).await;
    let api = app.api();
    let (table, mover, _, action) = table_at_a_move(&app).await;

    proxy.freeze_at_next_begin();
    let started = Instant::now();
    // Bounded here so that a server without a deadline fails the test, not hangs it.
    let response = tokio::time::timeout(
        Duration::from_secs(20),
        api.act(table, &mover.token, &action, Some("dead-link")),
    )
    .await
    .expect("the write answered: it did not hang on the dead link");
    let waited = started.elapsed();
    expect_database_unavailable(response).await;
    // Well under the statement timeout (10 s), the only bound there was before.
    assert!(waited < Duration::from_secs(5), "waited {waited:?}");

    proxy.freeze(false);
    let retried = api
        .act(table, &mover.token, &action, Some("dead-link"))
        .await;
    assert_eq!(
        retried.status(),
        StatusCode::OK,
        "served again once the link is back"
    );
}

/// TLS to PostgreSQL (managed databases require it): with `sslmode=require` every
/// connection of the server is encrypted; against a server without TLS the start fails
/// and says why, rather than falling back to clear text.
#[tokio::test]
async fn sslmode_require_encrypts_every_connection() {
    let maintenance = yaniv_e2e_tests::database_url();
    let mut conn = <sqlx::PgConnection as sqlx::Connection>::connect(&maintenance)
        .await
        .expect("connect");
    let ssl: String = sqlx::query_scalar("SHOW ssl")
        .fetch_one(&mut conn)
        .await
        .expect("SHOW ssl");
    let database = yaniv_e2e_tests::TestDatabase::create().await;
    let separator = if database.url.contains('?') { '&' } else { '?' };
    let url = format!("{}{separator}sslmode=require", database.url);
    let settings = yaniv_e2e_tests::test_settings(url, "a long admin password");
    let built = yaniv_api::startup::Application::build(settings).await;
    if ssl != "on" {
        let err = built.expect_err("sslmode=require against a server without TLS");
        let chain = yaniv_api::error::error_chain(&err);
        assert!(
            chain.to_lowercase().contains("tls") || chain.contains("SSL"),
            "{chain}"
        );
        return;
    }
    let app = built.expect("the server starts over TLS");
    let port = app.port();
    tokio::spawn(app.run_until_stopped());
    let health = reqwest::get(format!("http://127.0.0.1:{port}/readyz"))
        .await
        .expect("GET ready");
    assert_eq!(health.status(), StatusCode::OK);
    let links: Vec<bool> = sqlx::query_scalar(
        "SELECT s.ssl FROM pg_stat_ssl s JOIN pg_stat_activity a USING (pid) \
         WHERE a.datname = $1",
    )
    .bind(&database.name)
    .fetch_all(&mut conn)
    .await
    .expect("pg_stat_ssl");
    assert!(!links.is_empty(), "the server holds connections");
    assert!(
        links.iter().all(|&ssl| ssl),
        "every connection is encrypted: {links:?}"
    );
}
