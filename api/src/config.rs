//! Configuration, read once at start from environment variables.
//!
//! | variable | default | meaning |
//! | --- | --- | --- |
//! | `DATABASE_URL` | (required) | PostgreSQL URL; may hold a password, so it is kept as a secret |
//! | `BIND_ADDRESS` | `127.0.0.1:8080` | address the HTTP server listens on (`:0` picks a free port) |
//! | `RUST_LOG` | `info,sqlx=warn` | log filter (read by [`crate::telemetry`]) |
//! | `LOG_FORMAT` | `text` | `json` for one JSON object per log line |
//! | `YANIV_DATABASE_REPLICA_URL` | unset | PostgreSQL URL of a streaming replica (a standby, or a balancer port in front of standbys); public reads that tolerate lag go there (`docs/operations.md`, "Reads from a replica"); kept as a secret |
//! | `YANIV_REPLICA_MAX_LAG_MS` | `5000` | most a replica may be behind the primary for a lag-tolerant read to go to it; beyond, or unreachable, the read goes to the primary |
//! | `YANIV_DB_POOL_SIZE` | `10` | maximum number of database connections (2 or more) |
//! | `YANIV_DB_STATEMENT_TIMEOUT_MS` | `10000` | longest a statement (and an idle transaction) may run before PostgreSQL cancels it; the request then answers 503 |
//! | `YANIV_MIGRATIONS` | `apply` | `apply` the pending migrations at start, or only `check` that none is pending (for a role that may not change the schema) |
//! | `YANIV_DB_TRANSACTION_TIMEOUT_MS` | `20000` | longest a write transaction may take from its first statement to its commit, timed by the server (a dead network, which no statement timeout reaches); the request then answers 503 |
//! | `YANIV_IDEMPOTENCY_RETENTION_HOURS` | `168` | how long an answer stays replayable under its `Idempotency-Key` before it is pruned |
//! | `YANIV_PRUNE_INTERVAL_SECS` | `3600` | how often expired sessions and idempotency records older than their retention are deleted |
//! | `YANIV_TOKEN_TTL_SECS` | `86400` | lifetime of a bearer token issued at log in |
//! | `YANIV_MAX_BODY_BYTES` | `262144` | largest accepted request body (256 KiB); larger is 413 |
//! | `YANIV_MAX_RECORD_BYTES` | `1048576` | largest game record `POST /v1/records/replay` and `/steps` accept (1 MiB, at most 16 MiB); larger is 413 |
//! | `YANIV_REPLAY_CONCURRENCY` | number of CPUs | game-record replays (and step-by-step replays) computed at once (the others wait, then 503) |
//! | `YANIV_ARGON2_CONCURRENCY` | number of CPUs | password hashes computed at once |
//! | `YANIV_ARGON2_MAX_WAIT_MS` | `1000` | how long a request waits for a hashing slot before 503 |
//! | `YANIV_HTTP_WORKERS` | number of CPUs | actix-web worker threads |
//! | `YANIV_HTTP_MAX_CONNECTIONS` | `1000` | open client connections the server accepts at once, all workers together; more wait in the kernel's backlog |
//! | `YANIV_HTTP_BODY_TIMEOUT_MS` | `15000` | longest a client may take to send a request body once its head arrived; then 408 and the connection closes |
//! | `YANIV_CORS_ORIGINS` | `*` | origins whose browser pages may call the API: `*` (any, without cookies), a comma-separated list of origins, or `none` |
//! | `YANIV_CHECKPOINT_INTERVAL_SECS` | `3600` | how often a checkpoint of every stream head is written (when a stream moved); `0` turns the task off |
//! | `YANIV_ARCHIVE_CHECKPOINT_GAP_SECS` | `10` | least time between two checkpoints an archive fetch takes for itself (when its streams moved since the latest one); fetches in between wait for the next one (`docs/checkpoints.md`) |
//! | `YANIV_STREAM_HEARTBEAT_SECS` | `15` | how often a quiet live stream (`/stream`) sends a heartbeat |
//! | `YANIV_METRICS_TOKEN` | unset | when set (16+ characters), `GET /metrics` answers only requests with `Authorization: Bearer <token>`; unset, `/metrics` is open on a loopback bind and closed on any other |
//! | `YANIV_METRICS_OPEN` | `false` | `true`: `/metrics` stays open without a token on a bind other than loopback (a scraper on a private network) |
//! | `YANIV_CLOCK_TICK_MS` | `250` | how often this instance looks for tables whose clock ran out; `0`: it fires no timeouts (others on the database do) |
//! | `YANIV_REGISTRATION_BURST` | `30` | accounts one client address may create in a burst (`POST /v1/accounts`); then 429 `too_many_registrations` |
//! | `YANIV_REGISTRATION_REFILL_SECS` | `20` | after the burst, one more account per address each time this passes |
//! | `YANIV_STREAMS_PER_TOKEN` | `10` | live streams (`/stream`) one bearer token may hold open at once; more is 429 `too_many_streams` |
//! | `YANIV_STREAMS_PER_ADDRESS` | `200` | live streams one client address may hold open at once, with or without a token |
//! | `YANIV_ANONYMOUS_STREAMS` | `500` | live streams without a token open at once, all addresses together |
//! | `YANIV_BOOTSTRAP_ADMIN` | (unset) | username of the first admin, created at start if missing |
//! | `YANIV_BOOTSTRAP_ADMIN_PASSWORD` | (unset) | its password; required when the username is set |
//!
//! [`Settings::from_lookup`] takes the variable lookup as a function so that parsing
//! is unit-tested without touching the process environment.

use std::time::Duration;

use secrecy::SecretString;

pub use crate::auth::throttle::Limits as LoginLimits;
pub use crate::auth::throttle::registrations::RegistrationLimit;
pub use crate::live::gate::StreamLimits;

/// Everything the server needs to start. Fields are public so that tests build a
/// `Settings` directly (a fresh database, port 0) instead of going through the
/// environment.
#[derive(Debug, Clone)]
pub struct Settings {
    /// PostgreSQL connection URL. Secret: it may embed a password.
    pub database_url: SecretString,
    /// `host:port` to bind; port 0 lets the OS choose (tests).
    pub bind_address: String,
    /// A streaming replica for the reads that tolerate lag; `None`: every read goes to
    /// the primary. Secret, as `database_url`.
    pub replica_url: Option<SecretString>,
    /// How far behind the primary the replica may be for such a read to go to it.
    pub replica_max_lag: Duration,
    /// Upper bound on pooled database connections (the replica's pool has as many).
    pub db_pool_size: u32,
    /// Longest a statement, or a transaction left idle, may take (a frozen database
    /// otherwise holds every request that has a connection).
    pub db_statement_timeout: Duration,
    /// Whether the server applies pending migrations at start or only checks.
    pub migrations: Migrations,
    /// Longest a write transaction may take from begin to commit, as the server
    /// times it: covers a dead network, which PostgreSQL's own timeouts cannot reach.
    pub db_transaction_timeout: Duration,
    /// How long an idempotent answer stays replayable.
    pub idempotency_retention: Duration,
    /// How often old sessions and idempotency records are pruned.
    pub prune_interval: Duration,
    /// How long a bearer token stays valid after log in.
    pub token_ttl: Duration,
    /// Largest request body accepted, in bytes.
    pub max_body_bytes: usize,
    /// Largest game record accepted by `POST /v1/records/replay`, in bytes.
    pub max_record_bytes: usize,
    /// Number of game-record replays allowed at once (each takes a core while it runs).
    pub replay_concurrency: usize,
    /// Number of argon2 computations allowed at once (each takes ~19 MiB and a core).
    pub argon2_concurrency: usize,
    /// How long a request may wait for an argon2 slot before it is refused with 503.
    pub argon2_max_wait: Duration,
    /// actix-web worker threads; `None` keeps actix's default (one per CPU).
    pub http_workers: Option<usize>,
    /// Client connections open at once, all workers together.
    pub http_max_connections: usize,
    /// Longest a request body may take to arrive.
    pub http_body_timeout: Duration,
    /// Origins allowed to call the API from a browser page.
    pub cors_origins: CorsOrigins,
    /// How often the background task writes a checkpoint of every stream head;
    /// `None` runs no task (checkpoints then come from `yaniv-server checkpoint`).
    pub checkpoint_interval: Option<Duration>,
    /// Least time between two checkpoints taken for archive fetches.
    pub archive_checkpoint_gap: Duration,
    /// How often a quiet live stream sends a heartbeat.
    pub stream_heartbeat: Duration,
    /// How long a stopping server keeps serving new connections after `/readyz` turns
    /// 503, so that a balancer takes it out before it closes its door.
    pub shutdown_delay: Duration,
    /// How often this instance fires the timeouts that are due; `None`: never.
    pub clock_tick: Option<Duration>,
    /// What a scraper of `/metrics` must send; `None`: see [`Settings::metrics_open`].
    pub metrics_token: Option<SecretString>,
    /// Without a token, `/metrics` stays open on a bind other than loopback.
    pub metrics_open: bool,
    /// How long wrong passwords and set-up codes make their client wait (not read
    /// from the environment: the defaults are documented in docs/operations.md).
    pub login_limits: LoginLimits,
    /// How fast one address may create accounts.
    pub registration_limit: RegistrationLimit,
    /// How many live streams a token, an address and anonymous readers may hold open.
    pub stream_limits: StreamLimits,
    /// First admin account, created at start when it does not exist yet.
    pub bootstrap_admin: Option<BootstrapAdmin>,
}

/// What the server does with the schema's migrations when it starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Migrations {
    /// Applies the pending ones (the role needs to create tables).
    Apply,
    /// Refuses to start while one is pending; `yaniv-server migrate`, run by the
    /// schema's owner, applies them. The server's own role then needs no DDL right.
    Check,
}

/// Which web origins may call the API from a browser (CORS).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CorsOrigins {
    /// Any origin, without credentials: the API authenticates with bearer tokens, not
    /// cookies, so a page elsewhere gets nothing a plain HTTP client could not.
    Any,
    /// Only these origins (`scheme://host[:port]`).
    List(Vec<String>),
    /// No cross-origin calls: browsers keep pages on other origins out.
    None,
}

impl CorsOrigins {
    fn parse(raw: &str) -> Result<Self, ConfigError> {
        let raw = raw.trim();
        match raw {
            "*" => return Ok(Self::Any),
            "none" => return Ok(Self::None),
            _ => {}
        }
        let origins: Vec<String> = raw
            .split(',')
            .map(str::trim)
            .filter(|o| !o.is_empty())
            .map(str::to_owned)
            .collect();
        for origin in &origins {
            let well_formed = (origin.starts_with("http://") || origin.starts_with("https://"))
                && !origin.ends_with('/')
                && !origin.contains(char::is_whitespace);
            if !well_formed {
                return Err(ConfigError::new(
                    "YANIV_CORS_ORIGINS",
                    format!(
                        "`{origin}` is not an origin like https://club.example (no path, no trailing slash)"
                    ),
                ));
            }
        }
        Ok(Self::List(origins))
    }
}

/// Credentials of the first admin, from `YANIV_BOOTSTRAP_ADMIN` and
/// `YANIV_BOOTSTRAP_ADMIN_PASSWORD`.
#[derive(Debug, Clone)]
pub struct BootstrapAdmin {
    pub username: String,
    pub password: SecretString,
}

/// A variable that is present but unusable, or a required one that is missing.
#[derive(Debug, thiserror::Error)]
#[error("configuration error in {variable}: {message}")]
pub struct ConfigError {
    pub variable: &'static str,
    pub message: String,
}

impl ConfigError {
    fn new(variable: &'static str, message: impl Into<String>) -> Self {
        Self {
            variable,
            message: message.into(),
        }
    }
}

pub const DEFAULT_BIND_ADDRESS: &str = "127.0.0.1:8080";
pub const DEFAULT_DB_POOL_SIZE: u32 = 10;
/// Default of `YANIV_REPLICA_MAX_LAG_MS`: far above what a healthy standby lags (a few
/// milliseconds on a local network), so that a busy moment does not flip reads back to
/// the primary, and short enough that a listing read from the replica is never older
/// than a reader reloading the page would notice (see docs/operations.md).
pub const DEFAULT_REPLICA_MAX_LAG: Duration = Duration::from_secs(5);
pub const DEFAULT_DB_STATEMENT_TIMEOUT: Duration = Duration::from_secs(10);
pub const DEFAULT_DB_TRANSACTION_TIMEOUT: Duration = Duration::from_secs(20);
pub const DEFAULT_IDEMPOTENCY_RETENTION: Duration = Duration::from_secs(7 * 24 * 60 * 60);
pub const DEFAULT_PRUNE_INTERVAL: Duration = Duration::from_secs(60 * 60);
pub const DEFAULT_HTTP_MAX_CONNECTIONS: usize = 1000;
pub const DEFAULT_HTTP_BODY_TIMEOUT: Duration = Duration::from_secs(15);
pub const DEFAULT_STREAM_HEARTBEAT: Duration = Duration::from_secs(15);
/// Default of `YANIV_CLOCK_TICK_MS`.
pub const DEFAULT_CLOCK_TICK: Duration = Duration::from_millis(250);
pub const DEFAULT_TOKEN_TTL: Duration = Duration::from_secs(24 * 60 * 60);
pub const DEFAULT_MAX_BODY_BYTES: usize = 256 * 1024;
pub const DEFAULT_MAX_RECORD_BYTES: usize = 1024 * 1024;
pub const DEFAULT_ARGON2_MAX_WAIT: Duration = Duration::from_millis(1000);
pub const DEFAULT_CHECKPOINT_INTERVAL: Duration = Duration::from_secs(60 * 60);
/// Default of `YANIV_ARCHIVE_CHECKPOINT_GAP_SECS`.
pub const DEFAULT_ARCHIVE_CHECKPOINT_GAP: Duration = Duration::from_secs(10);

impl Settings {
    /// Reads the settings from the process environment.
    pub fn from_env() -> Result<Self, ConfigError> {
        Self::from_lookup(|name| std::env::var(name).ok())
    }

    /// Reads the settings through `lookup` (a variable name to its value).
    pub fn from_lookup(lookup: impl Fn(&str) -> Option<String>) -> Result<Self, ConfigError> {
        // An empty variable counts as unset, as shells make that easy to produce.
        let get = |name: &str| lookup(name).filter(|v| !v.trim().is_empty());

        let database_url = get("DATABASE_URL").ok_or_else(|| {
            ConfigError::new(
                "DATABASE_URL",
                "is not set (e.g. postgres://user@127.0.0.1:5432/yaniv)",
            )
        })?;
        let bootstrap_admin = match (
            get("YANIV_BOOTSTRAP_ADMIN"),
            lookup("YANIV_BOOTSTRAP_ADMIN_PASSWORD"),
        ) {
            (None, _) => None,
            (Some(_), None) => {
                return Err(ConfigError::new(
                    "YANIV_BOOTSTRAP_ADMIN_PASSWORD",
                    "must be set when YANIV_BOOTSTRAP_ADMIN is set",
                ));
            }
            (Some(username), Some(password)) => Some(BootstrapAdmin {
                username: username.trim().to_owned(),
                password: SecretString::from(password),
            }),
        };

        Ok(Self {
            database_url: SecretString::from(database_url),
            bind_address: get("BIND_ADDRESS").unwrap_or_else(|| DEFAULT_BIND_ADDRESS.to_owned()),
            replica_url: get("YANIV_DATABASE_REPLICA_URL").map(SecretString::from),
            replica_max_lag: parse(&get, "YANIV_REPLICA_MAX_LAG_MS", 100..=3_600_000)?
                .map_or(DEFAULT_REPLICA_MAX_LAG, Duration::from_millis),
            // At least 2: reporting a lost append race reads on a second connection.
            db_pool_size: parse(&get, "YANIV_DB_POOL_SIZE", 2..=1000)?
                .unwrap_or(DEFAULT_DB_POOL_SIZE),
            db_statement_timeout: parse(&get, "YANIV_DB_STATEMENT_TIMEOUT_MS", 100..=600_000)?
                .map_or(DEFAULT_DB_STATEMENT_TIMEOUT, Duration::from_millis),
            migrations: match get("YANIV_MIGRATIONS").as_deref().map(str::trim) {
                None | Some("apply") => Migrations::Apply,
                Some("check") => Migrations::Check,
                Some(other) => {
                    return Err(ConfigError::new(
                        "YANIV_MIGRATIONS",
                        format!("`{other}` is neither `apply` nor `check`"),
                    ));
                }
            },
            db_transaction_timeout: parse(&get, "YANIV_DB_TRANSACTION_TIMEOUT_MS", 100..=600_000)?
                .map_or(DEFAULT_DB_TRANSACTION_TIMEOUT, Duration::from_millis),
            idempotency_retention: parse(&get, "YANIV_IDEMPOTENCY_RETENTION_HOURS", 1..=24 * 366)?
                .map_or(DEFAULT_IDEMPOTENCY_RETENTION, |h| {
                    Duration::from_secs(h * 60 * 60)
                }),
            prune_interval: parse(&get, "YANIV_PRUNE_INTERVAL_SECS", 1..=7 * 24 * 60 * 60)?
                .map_or(DEFAULT_PRUNE_INTERVAL, Duration::from_secs),
            token_ttl: parse(&get, "YANIV_TOKEN_TTL_SECS", 1..=366 * 24 * 60 * 60)?
                .map_or(DEFAULT_TOKEN_TTL, Duration::from_secs),
            max_body_bytes: parse(&get, "YANIV_MAX_BODY_BYTES", 1024..=64 * 1024 * 1024)?
                .unwrap_or(DEFAULT_MAX_BODY_BYTES),
            // The rules engine refuses records above its own limit (16 MiB).
            max_record_bytes: parse(
                &get,
                "YANIV_MAX_RECORD_BYTES",
                1024..=yaniv_domain::record::MAX_RECORD_BYTES,
            )?
            .unwrap_or(DEFAULT_MAX_RECORD_BYTES),
            replay_concurrency: parse(&get, "YANIV_REPLAY_CONCURRENCY", 1..=256)?
                .unwrap_or_else(available_cpus),
            argon2_concurrency: parse(&get, "YANIV_ARGON2_CONCURRENCY", 1..=256)?
                .unwrap_or_else(available_cpus),
            argon2_max_wait: parse(&get, "YANIV_ARGON2_MAX_WAIT_MS", 0..=60_000)?
                .map_or(DEFAULT_ARGON2_MAX_WAIT, Duration::from_millis),
            http_workers: parse(&get, "YANIV_HTTP_WORKERS", 1..=1024)?,
            http_max_connections: parse(&get, "YANIV_HTTP_MAX_CONNECTIONS", 1..=1_000_000)?
                .unwrap_or(DEFAULT_HTTP_MAX_CONNECTIONS),
            http_body_timeout: parse(&get, "YANIV_HTTP_BODY_TIMEOUT_MS", 100..=600_000)?
                .map_or(DEFAULT_HTTP_BODY_TIMEOUT, Duration::from_millis),
            cors_origins: match get("YANIV_CORS_ORIGINS") {
                Some(raw) => CorsOrigins::parse(&raw)?,
                None => CorsOrigins::Any,
            },
            checkpoint_interval: match parse(
                &get,
                "YANIV_CHECKPOINT_INTERVAL_SECS",
                0..=7 * 86_400,
            )? {
                None => Some(DEFAULT_CHECKPOINT_INTERVAL),
                Some(0) => None,
                Some(secs) => Some(Duration::from_secs(secs)),
            },
            archive_checkpoint_gap: parse(&get, "YANIV_ARCHIVE_CHECKPOINT_GAP_SECS", 0..=600)?
                .map_or(DEFAULT_ARCHIVE_CHECKPOINT_GAP, Duration::from_secs),
            stream_heartbeat: parse(&get, "YANIV_STREAM_HEARTBEAT_SECS", 1..=300)?
                .map_or(DEFAULT_STREAM_HEARTBEAT, Duration::from_secs),
            metrics_token: match get("YANIV_METRICS_TOKEN") {
                Some(token) if token.chars().count() < 16 => {
                    return Err(ConfigError::new(
                        "YANIV_METRICS_TOKEN",
                        "must be at least 16 characters",
                    ));
                }
                token => token.map(SecretString::from),
            },
            metrics_open: match get("YANIV_METRICS_OPEN").as_deref() {
                None | Some("false") => false,
                Some("true") => true,
                Some(_) => {
                    return Err(ConfigError::new(
                        "YANIV_METRICS_OPEN",
                        "must be true or false",
                    ));
                }
            },
            shutdown_delay: parse(&get, "YANIV_SHUTDOWN_DELAY_MS", 0..=120_000)?
                .map_or(Duration::ZERO, Duration::from_millis),
            clock_tick: match parse(&get, "YANIV_CLOCK_TICK_MS", 0..=60_000)? {
                None => Some(DEFAULT_CLOCK_TICK),
                Some(0) => None,
                Some(ms) => Some(Duration::from_millis(ms)),
            },
            login_limits: LoginLimits::default(),
            registration_limit: {
                let default = RegistrationLimit::default();
                RegistrationLimit {
                    burst: parse(&get, "YANIV_REGISTRATION_BURST", 1..=1_000_000)?
                        .unwrap_or(default.burst),
                    refill_every: parse(&get, "YANIV_REGISTRATION_REFILL_SECS", 1..=86_400)?
                        .map_or(default.refill_every, Duration::from_secs),
                }
            },
            stream_limits: {
                let default = StreamLimits::default();
                StreamLimits {
                    per_token: parse(&get, "YANIV_STREAMS_PER_TOKEN", 1..=100_000)?
                        .unwrap_or(default.per_token),
                    per_address: parse(&get, "YANIV_STREAMS_PER_ADDRESS", 1..=1_000_000)?
                        .unwrap_or(default.per_address),
                    anonymous: parse(&get, "YANIV_ANONYMOUS_STREAMS", 0..=1_000_000)?
                        .unwrap_or(default.anonymous),
                }
            },
            bootstrap_admin,
        })
    }
}

/// Parses an optional numeric variable and checks it lies in `range`.
fn parse<T>(
    get: &impl Fn(&str) -> Option<String>,
    name: &'static str,
    range: std::ops::RangeInclusive<T>,
) -> Result<Option<T>, ConfigError>
where
    T: std::str::FromStr + PartialOrd + std::fmt::Display,
{
    let Some(raw) = get(name) else {
        return Ok(None);
    };
    let value: T = raw.trim().parse().map_err(|_| {
        ConfigError::new(name, format!("`{raw}` is not a non-negative whole number"))
    })?;
    if !range.contains(&value) {
        return Err(ConfigError::new(
            name,
            format!("{value} is outside {}..={}", range.start(), range.end()),
        ));
    }
    Ok(Some(value))
}

/// Number of CPUs the process may use (1 when it cannot be told).
pub fn available_cpus() -> usize {
    std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
}

#[cfg(test)]
mod tests {
    use super::*;
    use secrecy::ExposeSecret;
    use std::collections::HashMap;

    fn settings(vars: &[(&str, &str)]) -> Result<Settings, ConfigError> {
        let map: HashMap<String, String> = vars
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect();
        Settings::from_lookup(|k| map.get(k).cloned())
    }

    #[test]
    fn defaults_apply_when_only_the_database_is_given() {
        let s = settings(&[("DATABASE_URL", "postgres://u:pw@h/db")]).unwrap();
        assert_eq!(s.bind_address, "127.0.0.1:8080");
        assert_eq!(s.max_body_bytes, 256 * 1024);
        assert_eq!(s.max_record_bytes, 1024 * 1024);
        assert!(s.replay_concurrency >= 1);
        assert_eq!(s.token_ttl, Duration::from_secs(86_400));
        assert_eq!(s.db_pool_size, 10);
        assert!(s.argon2_concurrency >= 1);
        assert!(s.bootstrap_admin.is_none());
        assert_eq!(s.database_url.expose_secret(), "postgres://u:pw@h/db");
        assert_eq!(s.checkpoint_interval, Some(DEFAULT_CHECKPOINT_INTERVAL));
        assert_eq!(s.archive_checkpoint_gap, DEFAULT_ARCHIVE_CHECKPOINT_GAP);
        assert_eq!(s.registration_limit, RegistrationLimit::default());
        assert_eq!(s.stream_limits, StreamLimits::default());
    }

    #[test]
    fn the_abuse_limits_are_read_and_checked() {
        let s = settings(&[
            ("DATABASE_URL", "x"),
            ("YANIV_REGISTRATION_BURST", "5"),
            ("YANIV_REGISTRATION_REFILL_SECS", "60"),
            ("YANIV_STREAMS_PER_TOKEN", "3"),
            ("YANIV_STREAMS_PER_ADDRESS", "40"),
            ("YANIV_ANONYMOUS_STREAMS", "0"),
        ])
        .unwrap();
        assert_eq!(
            s.registration_limit,
            RegistrationLimit {
                burst: 5,
                refill_every: Duration::from_secs(60)
            }
        );
        assert_eq!(
            s.stream_limits,
            StreamLimits {
                per_token: 3,
                per_address: 40,
                anonymous: 0
            }
        );
        let refused = settings(&[("DATABASE_URL", "x"), ("YANIV_STREAMS_PER_TOKEN", "0")]);
        assert_eq!(refused.unwrap_err().variable, "YANIV_STREAMS_PER_TOKEN");
    }

    #[test]
    fn the_archive_checkpoint_gap_is_read_in_seconds_and_bounded() {
        let set = settings(&[
            ("DATABASE_URL", "x"),
            ("YANIV_ARCHIVE_CHECKPOINT_GAP_SECS", "30"),
        ]);
        assert_eq!(set.unwrap().archive_checkpoint_gap, Duration::from_secs(30));
        let refused = settings(&[
            ("DATABASE_URL", "x"),
            ("YANIV_ARCHIVE_CHECKPOINT_GAP_SECS", "601"),
        ]);
        assert_eq!(
            refused.unwrap_err().variable,
            "YANIV_ARCHIVE_CHECKPOINT_GAP_SECS"
        );
    }

    #[test]
    fn a_zero_checkpoint_interval_turns_the_task_off() {
        let off = settings(&[
            ("DATABASE_URL", "x"),
            ("YANIV_CHECKPOINT_INTERVAL_SECS", "0"),
        ]);
        assert_eq!(off.unwrap().checkpoint_interval, None);
        let often = settings(&[
            ("DATABASE_URL", "x"),
            ("YANIV_CHECKPOINT_INTERVAL_SECS", "60"),
        ]);
        assert_eq!(
            often.unwrap().checkpoint_interval,
            Some(Duration::from_secs(60))
        );
    }

    #[test]
    fn missing_database_url_is_an_error() {
        let err = settings(&[]).unwrap_err();
        assert_eq!(err.variable, "DATABASE_URL");
    }

    #[test]
    fn numbers_are_parsed_and_range_checked() {
        let s = settings(&[
            ("DATABASE_URL", "postgres://h/db"),
            ("YANIV_MAX_BODY_BYTES", "4096"),
            ("YANIV_TOKEN_TTL_SECS", "60"),
            ("YANIV_ARGON2_CONCURRENCY", "3"),
        ])
        .unwrap();
        assert_eq!(s.max_body_bytes, 4096);
        assert_eq!(s.token_ttl, Duration::from_secs(60));
        assert_eq!(s.argon2_concurrency, 3);

        let err = settings(&[("DATABASE_URL", "x"), ("YANIV_DB_POOL_SIZE", "0")]).unwrap_err();
        assert_eq!(err.variable, "YANIV_DB_POOL_SIZE");
        let err = settings(&[("DATABASE_URL", "x"), ("YANIV_TOKEN_TTL_SECS", "-5")]).unwrap_err();
        assert_eq!(err.variable, "YANIV_TOKEN_TTL_SECS");
    }

    #[test]
    fn record_limits_are_parsed_and_bounded_by_the_engine() {
        let s = settings(&[
            ("DATABASE_URL", "x"),
            ("YANIV_MAX_RECORD_BYTES", "2097152"),
            ("YANIV_REPLAY_CONCURRENCY", "3"),
        ])
        .unwrap();
        assert_eq!(s.max_record_bytes, 2 * 1024 * 1024);
        assert_eq!(s.replay_concurrency, 3);
        let too_big = (yaniv_domain::record::MAX_RECORD_BYTES + 1).to_string();
        let err =
            settings(&[("DATABASE_URL", "x"), ("YANIV_MAX_RECORD_BYTES", &too_big)]).unwrap_err();
        assert_eq!(err.variable, "YANIV_MAX_RECORD_BYTES");
        let err =
            settings(&[("DATABASE_URL", "x"), ("YANIV_REPLAY_CONCURRENCY", "0")]).unwrap_err();
        assert_eq!(err.variable, "YANIV_REPLAY_CONCURRENCY");
    }

    /// The table at the top of this file lists every variable; the README and
    /// `docs/operations.md` must list them too.
    #[test]
    fn every_variable_is_documented() {
        let names: Vec<&str> = include_str!("config.rs")
            .lines()
            .filter_map(|line| line.strip_prefix("//! | `")?.split('`').next())
            .collect();
        assert!(names.len() >= 14, "{names:?}");
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        for doc in ["README.md", "docs/operations.md"] {
            let text = std::fs::read_to_string(root.join(doc)).unwrap();
            for name in &names {
                assert!(
                    text.contains(&format!("| `{name}` |")),
                    "{doc} lacks {name}"
                );
            }
        }
    }

    #[test]
    fn cors_origins_are_any_a_list_or_none() {
        let origins = |raw: &str| settings(&[("DATABASE_URL", "x"), ("YANIV_CORS_ORIGINS", raw)]);
        assert_eq!(
            settings(&[("DATABASE_URL", "x")]).unwrap().cors_origins,
            CorsOrigins::Any
        );
        assert_eq!(origins("none").unwrap().cors_origins, CorsOrigins::None);
        assert_eq!(
            origins(" https://club.example, http://localhost:3000 ")
                .unwrap()
                .cors_origins,
            CorsOrigins::List(vec![
                "https://club.example".into(),
                "http://localhost:3000".into()
            ])
        );
        for bad in ["club.example", "https://club.example/", "https://a b"] {
            let err = origins(bad).unwrap_err();
            assert_eq!(err.variable, "YANIV_CORS_ORIGINS", "{bad}");
        }
    }

    #[test]
    fn the_replica_is_optional_and_its_lag_bound_is_read_in_milliseconds() {
        let s = settings(&[("DATABASE_URL", "x")]).unwrap();
        assert!(s.replica_url.is_none());
        assert_eq!(s.replica_max_lag, DEFAULT_REPLICA_MAX_LAG);
        let s = settings(&[
            ("DATABASE_URL", "x"),
            (
                "YANIV_DATABASE_REPLICA_URL",
                "postgres://u:s3cret@standby/db",
            ),
            ("YANIV_REPLICA_MAX_LAG_MS", "1500"),
        ])
        .unwrap();
        assert_eq!(
            s.replica_url
                .as_ref()
                .map(|url| url.expose_secret().to_owned()),
            Some("postgres://u:s3cret@standby/db".to_owned())
        );
        assert_eq!(s.replica_max_lag, Duration::from_millis(1500));
        assert!(!format!("{s:?}").contains("s3cret"));
        for bad in ["0", "99", "soon"] {
            let err =
                settings(&[("DATABASE_URL", "x"), ("YANIV_REPLICA_MAX_LAG_MS", bad)]).unwrap_err();
            assert_eq!(err.variable, "YANIV_REPLICA_MAX_LAG_MS", "{bad}");
        }
    }

    #[test]
    fn bootstrap_admin_needs_a_password() {
        let err =
            settings(&[("DATABASE_URL", "x"), ("YANIV_BOOTSTRAP_ADMIN", "root")]).unwrap_err();
        assert_eq!(err.variable, "YANIV_BOOTSTRAP_ADMIN_PASSWORD");

        let s = settings(&[
            ("DATABASE_URL", "x"),
            ("YANIV_BOOTSTRAP_ADMIN", "root"),
            ("YANIV_BOOTSTRAP_ADMIN_PASSWORD", "correct horse"),
        ])
        .unwrap();
        let admin = s.bootstrap_admin.unwrap();
        assert_eq!(admin.username, "root");
        assert_eq!(admin.password.expose_secret(), "correct horse");
    }

    #[test]
    fn secrets_never_show_in_debug_output() {
        let s = settings(&[
            ("DATABASE_URL", "postgres://u:hunter2@h/db"),
            ("YANIV_BOOTSTRAP_ADMIN", "root"),
            ("YANIV_BOOTSTRAP_ADMIN_PASSWORD", "sw0rdfish"),
        ])
        .unwrap();
        let debug = format!("{s:?}");
        assert!(!debug.contains("hunter2"), "{debug}");
        assert!(!debug.contains("sw0rdfish"), "{debug}");
    }
}
