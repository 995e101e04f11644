//! Helpers of the end-to-end tests (`tests/tests/e2e/`).
//!
//! [`spawn_app`] starts the real server in-process on a free port, against a fresh
//! PostgreSQL database made for that test alone (`test_<random>`, created from
//! `DATABASE_URL`, migrated by the server at start, dropped when the [`TestApp`]
//! goes away unless `KEEP_TEST_DATABASES=1`). Tests therefore run in parallel and
//! never see each other's data.
//!
//! `DATABASE_URL` must name a PostgreSQL role allowed to create databases; the
//! tests fail (never pass silently) when it is unset. `./deploy/test.sh` provides
//! one. `TEST_LOG=1` shows the server's logs.

pub mod browser;
pub mod championship;
pub mod cli;
pub mod clients;
pub mod desk;
pub mod failover;
pub mod load;
pub mod pg_proxy;
pub mod records;
pub mod standby;
pub mod tables;
pub mod tamper;
pub mod test_routes;
pub mod tournaments;

use std::sync::Once;
use std::time::Duration;

use reqwest::{Response, StatusCode};
use secrecy::SecretString;
use serde::Serialize;
use serde_json::{Value, json};
use sqlx::{Connection, Executor, PgConnection, PgPool};
use yaniv_api::config::{BootstrapAdmin, Settings};
use yaniv_api::error::Problem;
use yaniv_api::http::routes::RouteConfigurator;
use yaniv_api::startup::Application;
use yaniv_api::store::EventStore;

/// Username of the admin every test app is bootstrapped with.
pub const ADMIN_USERNAME: &str = "root-admin";

/// A running server on its own database.
#[derive(Debug)]
pub struct TestApp {
    /// `http://127.0.0.1:<port>`.
    pub address: String,
    pub port: u16,
    pub client: reqwest::Client,
    /// Pool on the test database, as the `DATABASE_URL` role (superuser when the
    /// database comes from `deploy/pg-local.sh`).
    pub db: PgPool,
    /// The event store on that database.
    pub store: EventStore,
    /// Password of [`ADMIN_USERNAME`].
    pub admin_password: String,
    /// Declared last: dropped (the database with it) after the pool.
    pub database: TestDatabase,
}

/// A database made for one test (or one benchmark run), dropped with this value
/// unless `KEEP_TEST_DATABASES` is set.
#[derive(Debug)]
pub struct TestDatabase {
    pub name: String,
    /// URL of the new database.
    pub url: String,
    maintenance_url: String,
}

impl TestDatabase {
    /// Creates `test_<random>` through `DATABASE_URL`.
    pub async fn create() -> Self {
        Self::create_on(database_url()).await
    }

    /// Creates `test_<random>` through `maintenance_url` (a server of the test's own).
    pub async fn create_on(maintenance_url: String) -> Self {
        let name = format!("test_{}", random_hex(8));
        let mut conn = PgConnection::connect(&maintenance_url)
            .await
            .unwrap_or_else(|e| panic!("cannot connect to DATABASE_URL: {e}"));
        conn.execute(sqlx::AssertSqlSafe(format!(r#"CREATE DATABASE "{name}""#)))
            .await
            .expect("CREATE DATABASE (the DATABASE_URL role needs CREATEDB)");
        conn.close().await.ok();
        Self {
            url: with_database(&maintenance_url, &name),
            name,
            maintenance_url,
        }
    }
}

/// `DATABASE_URL`, or a failure that says how to run the tests.
pub fn database_url() -> String {
    match std::env::var("DATABASE_URL") {
        Ok(url) if !url.trim().is_empty() => url,
        _ => panic!(
            "DATABASE_URL is not set. The end-to-end tests need PostgreSQL: run them with \
             ./deploy/test.sh (it starts a local cluster and sets DATABASE_URL), or export \
             DATABASE_URL=postgres://USER@HOST:PORT/DB for a role that may create databases."
        ),
    }
}

/// `url` with its database name replaced by `db_name`.
pub fn with_database(url: &str, db_name: &str) -> String {
    let (base, query) = match url.split_once('?') {
        Some((base, query)) => (base, Some(query)),
        None => (url, None),
    };
    let authority_start = base.find("://").map_or(0, |i| i + 3);
    let base = match base[authority_start..].find('/') {
        Some(slash) => &base[..authority_start + slash],
        None => base,
    };
    match query {
        Some(query) => format!("{base}/{db_name}?{query}"),
        None => format!("{base}/{db_name}"),
    }
}

/// `url` with its `host:port` replaced by `address` (user, database and parameters
/// kept): the same database reached another way, e.g. through a [`pg_proxy::PgProxy`].
pub fn with_address(url: &str, address: std::net::SocketAddr) -> String {
    let authority_start = url.find("://").map_or(0, |i| i + 3);
    let rest = &url[authority_start..];
    let authority_end = rest.find(['/', '?']).unwrap_or(rest.len());
    let userinfo = rest[..authority_end]
        .rfind('@')
        .map_or("", |at| &rest[..=at]);
    format!(
        "{}{userinfo}{address}{}",
        &url[..authority_start],
        &rest[authority_end..]
    )
}

/// The `host:port` of `DATABASE_URL`, resolved (TCP only).
pub async fn database_address() -> std::net::SocketAddr {
    use sqlx::postgres::PgConnectOptions;
    let options: PgConnectOptions = database_url().parse().expect("DATABASE_URL parses");
    let host = options.get_host().to_owned();
    assert!(
        !host.starts_with('/'),
        "this test needs DATABASE_URL over TCP, not the unix socket {host}"
    );
    tokio::net::lookup_host((host.as_str(), options.get_port()))
        .await
        .expect("resolve the database host")
        .next()
        .expect("an address for the database host")
}

/// `bytes` random bytes as hex.
pub fn random_hex(bytes: usize) -> String {
    let mut buf = vec![0u8; bytes];
    getrandom::fill(&mut buf).expect("OS random generator");
    hex::encode(buf)
}

fn init_test_logs() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        if std::env::var_os("TEST_LOG").is_some() {
            yaniv_api::telemetry::init_subscriber(yaniv_api::telemetry::LogFormat::Text);
        }
    });
}

/// Settings of a test server on `database_url`.
pub fn test_settings(database_url: String, admin_password: &str) -> Settings {
    Settings {
        database_url: SecretString::from(database_url),
        bind_address: "127.0.0.1:0".into(),
        replica_url: None,
        replica_max_lag: yaniv_api::config::DEFAULT_REPLICA_MAX_LAG,
        db_pool_size: 5,
        db_statement_timeout: yaniv_api::config::DEFAULT_DB_STATEMENT_TIMEOUT,
        migrations: yaniv_api::config::Migrations::Apply,
        db_transaction_timeout: yaniv_api::config::DEFAULT_DB_TRANSACTION_TIMEOUT,
        idempotency_retention: yaniv_api::config::DEFAULT_IDEMPOTENCY_RETENTION,
        prune_interval: yaniv_api::config::DEFAULT_PRUNE_INTERVAL,
        token_ttl: Duration::from_secs(3600),
        max_body_bytes: yaniv_api::config::DEFAULT_MAX_BODY_BYTES,
        max_record_bytes: yaniv_api::config::DEFAULT_MAX_RECORD_BYTES,
        replay_concurrency: 2,
        argon2_concurrency: 2,
        argon2_max_wait: Duration::from_secs(30),
        http_workers: Some(1),
        http_max_connections: yaniv_api::config::DEFAULT_HTTP_MAX_CONNECTIONS,
        http_body_timeout: yaniv_api::config::DEFAULT_HTTP_BODY_TIMEOUT,
        cors_origins: yaniv_api::config::CorsOrigins::Any,
        // The tests write their checkpoints when they need one.
        checkpoint_interval: None,
        // A test that fetches an archive again after its streams moved need not wait
        // the production gap; the test of the bound sets its own.
        archive_checkpoint_gap: Duration::from_millis(200),
        stream_heartbeat: yaniv_api::config::DEFAULT_STREAM_HEARTBEAT,
        shutdown_delay: Duration::ZERO,
        // Fast, so that a test's clock fires soon after its deadline.
        clock_tick: Some(Duration::from_millis(50)),
        metrics_token: None,
        metrics_open: false,
        login_limits: yaniv_api::config::LoginLimits::default(),
        // The tests create their accounts from one address, far faster than a venue.
        registration_limit: yaniv_api::config::RegistrationLimit {
            burst: 1_000_000,
            refill_every: Duration::from_secs(1),
        },
        stream_limits: yaniv_api::config::StreamLimits::default(),
        bootstrap_admin: Some(BootstrapAdmin {
            username: ADMIN_USERNAME.into(),
            password: SecretString::from(admin_password.to_owned()),
        }),
    }
}

/// The API with its usual routes.
pub async fn spawn_app() -> TestApp {
    spawn_app_with(|_| {}, Vec::new()).await
}

/// The API with `customize`d settings and `extra_routes` next to the usual ones.
pub async fn spawn_app_with(
    customize: impl FnOnce(&mut Settings),
    extra_routes: Vec<RouteConfigurator>,
) -> TestApp {
    spawn_app_on(TestDatabase::create().await, customize, extra_routes).await
}

/// [`spawn_app_with`] on `database`, made by the caller.
pub async fn spawn_app_on(
    database: TestDatabase,
    customize: impl FnOnce(&mut Settings),
    extra_routes: Vec<RouteConfigurator>,
) -> TestApp {
    init_test_logs();
    let db_url = database.url.clone();

    let admin_password = random_hex(12);
    let mut settings = test_settings(db_url.clone(), &admin_password);
    customize(&mut settings);
    let mut route_list = yaniv_api::startup::all_routes();
    route_list.extend(extra_routes);
    let app = Application::build_with_routes(settings, route_list)
        .await
        .expect("the server failed to start");
    let port = app.port();
    tokio::spawn(app.run_until_stopped());

    let db = PgPool::connect(&db_url)
        .await
        .expect("connect to the test database");
    TestApp {
        address: format!("http://127.0.0.1:{port}"),
        port,
        client: reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            // Shorter than the server's keep-alive (actix closes an idle connection
            // after 5 s): a test that pauses (a CLI run, a clock) must not send its
            // next request on a connection the server is closing.
            .pool_idle_timeout(std::time::Duration::from_secs(3))
            .build()
            .expect("HTTP client"),
        store: EventStore::new(db.clone()),
        db,
        admin_password,
        database,
    }
}

impl Drop for TestDatabase {
    fn drop(&mut self) {
        if std::env::var_os("KEEP_TEST_DATABASES").is_some() {
            eprintln!("kept test database {}", self.name);
            return;
        }
        // Drop is synchronous: use a small runtime on another thread.
        let url = self.maintenance_url.clone();
        let name = self.name.clone();
        let dropped = std::thread::spawn(move || {
            let rt = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .ok()?;
            rt.block_on(async move {
                let mut conn = PgConnection::connect(&url).await.ok()?;
                conn.execute(sqlx::AssertSqlSafe(format!(
                    r#"DROP DATABASE IF EXISTS "{name}" WITH (FORCE)"#
                )))
                .await
                .ok()?;
                conn.close().await.ok()
            })
        })
        .join();
        if !matches!(dropped, Ok(Some(()))) {
            eprintln!("could not drop test database {}", self.name);
        }
    }
}

/// A problem document checked for its media type, status and code.
pub async fn expect_problem(response: Response, status: StatusCode, code: &str) -> Problem {
    assert_eq!(response.status(), status, "unexpected status");
    let content_type = response
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_owned();
    assert!(
        content_type.starts_with("application/problem+json"),
        "content type {content_type:?}"
    );
    let problem: Problem = response.json().await.expect("a problem document");
    assert_eq!(problem.code, code, "{problem:?}");
    assert_eq!(problem.status, status.as_u16());
    assert_eq!(problem.problem_type, format!("urn:yaniv:problem:{code}"));
    assert!(!problem.title.is_empty() && !problem.detail.is_empty());
    problem
}

/// The seconds an answer's `Retry-After` asks to wait.
pub fn retry_after(response: &Response) -> u64 {
    response.headers()["retry-after"]
        .to_str()
        .expect("Retry-After")
        .parse()
        .expect("seconds")
}

/// The 503 of a database that cannot serve now, with its `Retry-After`.
pub async fn expect_database_unavailable(response: Response) -> Problem {
    assert!(
        response.headers().contains_key("retry-after"),
        "a 503 says when to come back"
    );
    expect_problem(
        response,
        StatusCode::SERVICE_UNAVAILABLE,
        "database_unavailable",
    )
    .await
}

impl TestApp {
    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.address)
    }

    pub async fn get(&self, path: &str, token: Option<&str>) -> Response {
        let mut request = self.client.get(self.url(path));
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        request.send().await.expect("GET failed")
    }

    pub async fn post_json<B: Serialize + ?Sized>(
        &self,
        path: &str,
        body: &B,
        token: Option<&str>,
    ) -> Response {
        let mut request = self.client.post(self.url(path)).json(body);
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        request.send().await.expect("POST failed")
    }

    pub async fn register(&self, username: &str, password: &str) -> Response {
        self.post_json(
            "/v1/accounts",
            &json!({"username": username, "password": password}),
            None,
        )
        .await
    }

    pub async fn login(&self, username: &str, password: &str) -> Response {
        self.post_json(
            "/v1/sessions",
            &json!({"username": username, "password": password}),
            None,
        )
        .await
    }

    /// Registers `username` (password `password-of-<username>`) and logs in:
    /// `(account id, token)`.
    pub async fn player(&self, username: &str) -> (i64, String) {
        let password = format!("password-of-{username}");
        let response = self.register(username, &password).await;
        assert_eq!(
            response.status(),
            StatusCode::CREATED,
            "register {username}"
        );
        self.token_for(username, &password).await
    }

    /// Logs the bootstrap admin in: `(account id, token)`.
    pub async fn admin(&self) -> (i64, String) {
        self.token_for(ADMIN_USERNAME, &self.admin_password.clone())
            .await
    }

    async fn token_for(&self, username: &str, password: &str) -> (i64, String) {
        let response = self.login(username, password).await;
        assert_eq!(response.status(), StatusCode::CREATED, "log in {username}");
        let body: Value = response.json().await.expect("session JSON");
        (
            body["account"]["id"].as_i64().expect("account id"),
            body["token"].as_str().expect("token").to_owned(),
        )
    }
}

/// Polls all futures together on the current task (`join_all` without the
/// `futures` crate): concurrent requests from one test.
pub async fn join_all<F: std::future::Future>(futures: impl Iterator<Item = F>) -> Vec<F::Output> {
    let mut pinned: Vec<_> = futures.map(Box::pin).collect();
    let mut outputs: Vec<Option<F::Output>> = pinned.iter().map(|_| None).collect();
    std::future::poll_fn(|cx| {
        let mut pending = false;
        for (future, output) in pinned.iter_mut().zip(outputs.iter_mut()) {
            if output.is_none() {
                match future.as_mut().poll(cx) {
                    std::task::Poll::Ready(value) => *output = Some(value),
                    std::task::Poll::Pending => pending = true,
                }
            }
        }
        if pending {
            std::task::Poll::Pending
        } else {
            std::task::Poll::Ready(())
        }
    })
    .await;
    outputs
        .into_iter()
        .map(|o| o.expect("polled to completion"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::{with_address, with_database};

    #[test]
    fn addresses_are_replaced_in_urls() {
        let proxy: std::net::SocketAddr = "127.0.0.1:7000".parse().unwrap();
        assert_eq!(
            with_address("postgres://u:p@h:5432/db?sslmode=disable", proxy),
            "postgres://u:p@127.0.0.1:7000/db?sslmode=disable"
        );
        assert_eq!(
            with_address("postgres://h/db", proxy),
            "postgres://127.0.0.1:7000/db"
        );
    }

    #[test]
    fn database_names_are_replaced_in_urls() {
        assert_eq!(
            with_database("postgres://u@h:5432/postgres", "t"),
            "postgres://u@h:5432/t"
        );
        assert_eq!(
            with_database("postgres://u@h:5432", "t"),
            "postgres://u@h:5432/t"
        );
        assert_eq!(
            with_database("postgres://u:p@h/db?sslmode=disable", "t"),
            "postgres://u:p@h/t?sslmode=disable"
        );
        assert_eq!(
            with_database("postgres:///db?host=/run/pg", "t"),
            "postgres:///t?host=/run/pg"
        );
    }
}
