//! Building and running the server: database pool, migrations, the first admin,
//! the actix-web app (middleware, extractor configuration, routes, docs).
//!
//! [`Application::build`] binds the listener itself, so `BIND_ADDRESS=...:0` (the
//! tests) gets a free port, read back with [`Application::port`].

use std::net::TcpListener;
use std::sync::Arc;
use std::time::Duration;

use actix_web::dev::{Server, ServerHandle};
use actix_web::middleware::{ErrorHandlers, from_fn};
use actix_web::{App, HttpResponse, HttpServer, web};
use secrecy::ExposeSecret;
use sqlx::PgPool;
use sqlx::postgres::{PgConnectOptions, PgPoolOptions};
use utoipa_swagger_ui::SwaggerUi;

pub use crate::app_state::AppState;
use crate::app_state::MetricsAccess;
use crate::auth::accounts::{self, BootstrapError, BootstrapOutcome};
use crate::auth::password::PasswordService;
use crate::auth::throttle::LoginThrottle;
use crate::auth::throttle::registrations::RegistrationRate;
use crate::background::pruning;
use crate::config::{Migrations, Settings};
use crate::error;
use crate::http::routes::{self, RouteConfigurator};
use crate::http::{body_timeout, cors, openapi, request_id, response_headers};
use crate::live::gate::StreamGate;
use crate::live::heads::HeadNotifier;
use crate::live::{self, Hub};
use crate::replayer::RecordReplayer;
use crate::replica::{LagTolerant, Replica};
use crate::shutdown::{self, Drain, GracefulStop};

/// Migrations embedded at build time from `migrations/` at the workspace root.
pub static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("../migrations");

/// How long a graceful shutdown waits for in-flight requests.
const SHUTDOWN_TIMEOUT_SECS: u64 = 30;

#[derive(Debug, thiserror::Error)]
pub enum StartupError {
    #[error("DATABASE_URL is not a valid PostgreSQL URL")]
    DatabaseUrl(#[source] sqlx::Error),
    #[error("YANIV_DATABASE_REPLICA_URL is not a valid PostgreSQL URL")]
    ReplicaUrl(#[source] sqlx::Error),
    #[error("could not connect to the database")]
    Connect(#[source] sqlx::Error),
    #[error("could not apply the database migrations")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    #[error(
        "the database lacks migrations {missing:?}: run `yaniv-server migrate` as the schema's \
         owner (YANIV_MIGRATIONS=check)"
    )]
    MigrationsPending { missing: Vec<i64> },
    #[error("could not read the applied migrations")]
    ReadMigrations(#[source] sqlx::Error),
    #[error("could not create the bootstrap admin (YANIV_BOOTSTRAP_ADMIN)")]
    Bootstrap(#[from] BootstrapError),
    #[error("could not listen on {address}")]
    Bind {
        address: String,
        #[source]
        source: std::io::Error,
    },
}

/// Every route the server serves: the API and the pages.
pub fn all_routes() -> Vec<RouteConfigurator> {
    vec![routes::configure, crate::http::pages::configure]
}

/// A built server, bound but not yet running.
pub struct Application {
    port: u16,
    server: Server,
    pool: PgPool,
    /// Tasks that run beside the server (pruning, checkpoints, clocks, the live
    /// listener); they stop with it.
    background: Vec<tokio::task::JoinHandle<()>>,
    live: Arc<Hub>,
    heads: Arc<HeadNotifier>,
    drain: Arc<Drain>,
    shutdown_delay: Duration,
}

impl std::fmt::Debug for Application {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Application")
            .field("port", &self.port)
            .finish_non_exhaustive()
    }
}

impl Application {
    /// Connects, migrates, creates the bootstrap admin, binds: the whole API.
    pub async fn build(settings: Settings) -> Result<Self, StartupError> {
        Self::build_with_routes(settings, all_routes()).await
    }

    /// Like [`Application::build`] with a chosen list of route configurators.
    pub async fn build_with_routes(
        settings: Settings,
        routes: Vec<RouteConfigurator>,
    ) -> Result<Self, StartupError> {
        let pool = connect(&settings).await?;
        match settings.migrations {
            Migrations::Apply => MIGRATOR.run(&pool).await?,
            Migrations::Check => check_migrations(&pool).await?,
        }
        let passwords = PasswordService::new(settings.argon2_concurrency, settings.argon2_max_wait);
        if let Some(admin) = &settings.bootstrap_admin {
            let outcome =
                accounts::ensure_admin(&pool, &passwords, &admin.username, &admin.password, true)
                    .await?;
            let (account, what) = match outcome {
                BootstrapOutcome::Created(a) => (a, "bootstrap admin created"),
                BootstrapOutcome::AlreadyAdmin(a) => (a, "bootstrap admin exists"),
            };
            tracing::info!(account_id = account.id, username = %account.username, "{what}");
        }

        let listener =
            TcpListener::bind(&settings.bind_address).map_err(|source| StartupError::Bind {
                address: settings.bind_address.clone(),
                source,
            })?;
        let local = listener.local_addr().map_err(|source| StartupError::Bind {
            address: settings.bind_address.clone(),
            source,
        })?;
        let mut app_state = AppState::new(
            pool.clone(),
            passwords,
            settings.token_ttl,
            RecordReplayer::new(settings.max_record_bytes, settings.replay_concurrency),
            settings.db_transaction_timeout,
        );
        app_state.stream_heartbeat = settings.stream_heartbeat;
        let replica = replica(&settings)?;
        app_state.lag_tolerant = LagTolerant::new(pool.clone(), replica.clone());
        app_state.archive_checkpoints = Arc::new(crate::checkpoints::CheckpointGap::new(
            settings.archive_checkpoint_gap,
        ));
        app_state.login_throttle = LoginThrottle::new(settings.login_limits);
        app_state.registrations =
            RegistrationRate::new(settings.registration_limit, settings.login_limits.capacity);
        app_state.streams = Arc::new(StreamGate::new(
            settings.stream_limits,
            settings.http_max_connections,
        ));
        app_state.metrics = MetricsAccess::of(
            settings.metrics_token.clone(),
            settings.metrics_open,
            local.ip(),
        );
        if matches!(app_state.metrics, MetricsAccess::Closed) {
            tracing::warn!(
                address = %local,
                "/metrics is closed: the server listens beyond loopback and \
                 YANIV_METRICS_TOKEN is not set (or set YANIV_METRICS_OPEN=true)"
            );
        }
        app_state.drain = Arc::new(Drain::new(&listener));
        let drain = Arc::clone(&app_state.drain);
        let live = Arc::clone(&app_state.live);
        let heads = Arc::clone(&app_state.heads);
        let sessions = Arc::clone(&app_state.sessions);
        let state = web::Data::new(app_state);
        let clocks = settings
            .clock_tick
            .map(|tick| crate::background::clocks::spawn(web::Data::clone(&state), tick));
        let server =
            run(listener, state, routes, &settings).map_err(|source| StartupError::Bind {
                address: settings.bind_address.clone(),
                source,
            })?;
        let mut background = vec![
            pruning::spawn(
                pool.clone(),
                settings.prune_interval,
                settings.idempotency_retention,
            ),
            // The listener holds its connection for good: a pool of its own, so that
            // requests keep every connection of theirs.
            live::spawn_listener(
                connect_sized(&settings, 1).await?,
                Arc::clone(&live),
                Arc::clone(&sessions),
            ),
            // The same for the announcements: a busy pool must not hold them back.
            live::heads::spawn(connect_sized(&settings, 1).await?, Arc::clone(&heads)),
            live::spawn_recheck(pool.clone(), Arc::clone(&live)),
        ];
        if let Some(interval) = settings.checkpoint_interval {
            background.push(crate::background::checkpoints::spawn(
                pool.clone(),
                interval,
            ));
        }
        background.extend(clocks);
        background
            .extend(replica.map(|replica| crate::replica::probe::spawn(pool.clone(), replica)));
        tracing::info!(address = %local, "listening");
        Ok(Self {
            port: local.port(),
            server,
            pool,
            background,
            live,
            heads,
            drain,
            shutdown_delay: settings.shutdown_delay,
        })
    }

    pub fn port(&self) -> u16 {
        self.port
    }

    /// Stops the server: `handle().stop(true)` lets in-flight requests finish.
    pub fn handle(&self) -> ServerHandle {
        self.server.handle()
    }

    /// What SIGTERM runs: drain, serve every accepted request, then stop (see
    /// [`shutdown`]).
    pub fn graceful_stop(&self) -> GracefulStop {
        GracefulStop {
            drain: Arc::clone(&self.drain),
            server: self.server.handle(),
            live: Arc::clone(&self.live),
            delay: self.shutdown_delay,
            timeout: Duration::from_secs(SHUTDOWN_TIMEOUT_SECS),
        }
    }

    /// What stops this instance at once, as `kill -9` stops a process: for tests of
    /// what the other instances on the database do then.
    pub fn kill_switch(&self) -> KillSwitch {
        KillSwitch {
            background: self.background.iter().map(|t| t.abort_handle()).collect(),
            server: self.server.handle(),
            live: Arc::clone(&self.live),
            heads: Arc::clone(&self.heads),
        }
    }

    /// Serves until stopped, then closes the database pool.
    pub async fn run_until_stopped(self) -> std::io::Result<()> {
        let result = self.server.await;
        // The clocks write too: stop every task before the last announcements go out.
        for task in self.background {
            task.abort();
            let _ = task.await;
        }
        // The last writes' heads, which the other instances' followers wait for.
        if let Err(err) = self.heads.flush(&self.pool).await {
            tracing::warn!(error = %err, "live streams: the last heads were not announced");
        }
        self.pool.close().await;
        result
    }
}

/// Stops an instance without grace (see [`Application::kill_switch`]).
#[derive(Debug)]
pub struct KillSwitch {
    background: Vec<tokio::task::AbortHandle>,
    server: ServerHandle,
    live: Arc<Hub>,
    heads: Arc<HeadNotifier>,
}

impl KillSwitch {
    /// The background tasks end where they are (a timeout claimed but not fired stays
    /// claimed), open connections drop, and the server stops taking requests.
    pub async fn kill(&self) {
        for task in &self.background {
            task.abort();
        }
        // Heads committed but not yet announced are lost with the process.
        self.heads.silence();
        self.live.close();
        self.server.stop(false).await;
    }
}

/// Fails unless every migration this build knows has been applied.
pub async fn check_migrations(pool: &PgPool) -> Result<(), StartupError> {
    let applied: Vec<i64> =
        sqlx::query_scalar("SELECT version FROM _sqlx_migrations WHERE success ORDER BY version")
            .fetch_all(pool)
            .await
            .map_err(StartupError::ReadMigrations)?;
    let missing: Vec<i64> = MIGRATOR
        .iter()
        .map(|migration| migration.version)
        .filter(|version| !applied.contains(version))
        .collect();
    if missing.is_empty() {
        Ok(())
    } else {
        Err(StartupError::MigrationsPending { missing })
    }
}

/// Opens the connection pool (and checks the database answers).
pub async fn connect(settings: &Settings) -> Result<PgPool, StartupError> {
    connect_sized(settings, settings.db_pool_size).await
}

/// The replica of `YANIV_DATABASE_REPLICA_URL`, if one is set. Its pool connects when
/// first used: a replica that is down when the server starts only sends its reads to
/// the primary. Its connections give up sooner than the primary's, since a read that
/// cannot have one goes to the primary instead of waiting.
fn replica(settings: &Settings) -> Result<Option<Arc<Replica>>, StartupError> {
    let Some(url) = &settings.replica_url else {
        return Ok(None);
    };
    let options = connect_options(settings, url.expose_secret())
        .map_err(StartupError::ReplicaUrl)?
        .application_name("yaniv-server-replica-reads");
    let pool = PgPoolOptions::new()
        .max_connections(settings.db_pool_size)
        .acquire_timeout(REPLICA_ACQUIRE_TIMEOUT)
        .connect_lazy_with(options);
    tracing::info!(
        max_lag_ms = settings.replica_max_lag.as_millis(),
        "public reads that tolerate lag may go to the replica"
    );
    Ok(Some(Arc::new(Replica::new(pool, settings.replica_max_lag))))
}

/// How long a read waits for a replica connection before it goes to the primary.
const REPLICA_ACQUIRE_TIMEOUT: Duration = Duration::from_secs(1);

/// A pool of at most `size` connections with the server's connection settings.
async fn connect_sized(settings: &Settings, size: u32) -> Result<PgPool, StartupError> {
    let options = connect_options(settings, settings.database_url.expose_secret())
        .map_err(StartupError::DatabaseUrl)?;
    PgPoolOptions::new()
        .max_connections(size)
        .acquire_timeout(Duration::from_secs(5))
        .connect_with(options)
        .await
        .map_err(StartupError::Connect)
}

/// The server's connection settings on `url`.
fn connect_options(settings: &Settings, url: &str) -> Result<PgConnectOptions, sqlx::Error> {
    let options: PgConnectOptions = url.parse()?;
    // A frozen database cancels the statement instead of holding the request, and the
    // request answers 503 (see `error::ApiError::from`).
    let timeout = format!("{}ms", settings.db_statement_timeout.as_millis());
    // The keepalives let PostgreSQL notice a server that vanished with a transaction
    // open (and release its locks) in about a minute instead of the kernel's two hours.
    let options = options.options([
        ("statement_timeout", timeout.as_str()),
        ("idle_in_transaction_session_timeout", timeout.as_str()),
        ("tcp_keepalives_idle", "30"),
        ("tcp_keepalives_interval", "10"),
        ("tcp_keepalives_count", "3"),
    ]);
    Ok(options)
}

fn run(
    listener: TcpListener,
    state: web::Data<AppState>,
    routes: Vec<RouteConfigurator>,
    settings: &Settings,
) -> std::io::Result<Server> {
    let spec = openapi::spec();
    let max_body = settings.max_body_bytes;
    let body_limit = settings.http_body_timeout;
    let cors_origins = settings.cors_origins.clone();
    let workers = settings
        .http_workers
        .unwrap_or_else(crate::config::available_cpus);
    // actix counts connections per worker; the setting counts them all together.
    let connections_per_worker = settings.http_max_connections.div_ceil(workers).max(1);
    let drain = Arc::clone(&state.drain);
    let counted = Arc::clone(&state.drain);
    let mut server = HttpServer::new(move || {
        let drain = Arc::clone(&drain);
        App::new()
            // The last `wrap` is the outermost: the request-id middleware sees
            // every response, the rewritten error responses included.
            .wrap(from_fn(move |req, next| {
                body_timeout::middleware(body_limit, req, next)
            }))
            .wrap(ErrorHandlers::new().default_handler(error::problem_fallback))
            .wrap(from_fn(response_headers::middleware))
            .wrap(cors::middleware(&cors_origins))
            .wrap(from_fn(crate::http::request_metrics::middleware))
            .wrap(from_fn(move |req, next| {
                shutdown::middleware(Arc::clone(&drain), req, next)
            }))
            .wrap(from_fn(request_id::middleware))
            .app_data(state.clone())
            .app_data(
                web::JsonConfig::default()
                    .limit(max_body)
                    .error_handler(error::json_error),
            )
            .app_data(web::PayloadConfig::new(max_body))
            .app_data(web::PathConfig::default().error_handler(error::path_error))
            .app_data(web::QueryConfig::default().error_handler(error::query_error))
            .configure(|cfg| {
                for configure in &routes {
                    configure(cfg);
                }
            })
            .service(SwaggerUi::new("/docs/{_:.*}").url("/openapi.json", spec.clone()))
            .route(
                "/docs",
                web::get().to(|| async {
                    HttpResponse::PermanentRedirect()
                        .insert_header(("Location", "/docs/"))
                        .finish()
                }),
            )
            .default_service(web::to(error::route_not_found))
    })
    .on_connect(move |stream, extensions| counted.on_connect(stream, extensions))
    .max_connections(connections_per_worker)
    .listen(listener)?
    // Signals are handled by the caller (see `shutdown_signal`), so that SIGINT
    // is as graceful as SIGTERM.
    .disable_signals()
    .shutdown_timeout(SHUTDOWN_TIMEOUT_SECS);
    server = server.workers(workers);
    Ok(server.run())
}

/// Resolves on SIGTERM or SIGINT (Ctrl-C).
pub async fn shutdown_signal() {
    let ctrl_c = async {
        if tokio::signal::ctrl_c().await.is_err() {
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut sigterm) => {
                sigterm.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => tracing::info!("SIGINT received: shutting down"),
        () = terminate => tracing::info!("SIGTERM received: shutting down"),
    }
}
