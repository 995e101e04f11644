//! [`AppState`]: what every handler shares. Nothing web-specific lives below it: the
//! repositories take the store and their cache, so the server's layers stay
//! `routes` → (`tables`, `tournaments`) → `streams` → `store`.

use std::sync::Arc;
use std::time::Duration;

use sqlx::PgPool;

use crate::auth::password::PasswordService;
use crate::auth::throttle::registrations::{RegistrationLimit, RegistrationRate};
use crate::auth::throttle::{Limits, LoginThrottle};
use crate::config::{DEFAULT_HTTP_MAX_CONNECTIONS, StreamLimits};
use crate::live::Hub;
use crate::live::gate::StreamGate;
use crate::live::heads::HeadNotifier;
use crate::replayer::RecordReplayer;
use crate::replica::LagTolerant;
use crate::seasons::repo::{self as season_repo, Seasons};
use crate::shutdown::Drain;
use crate::store::EventStore;
use crate::tables::{self, TableHooks, Tables};
use crate::tournaments::game_end::OnlineResults;
use crate::tournaments::repo::{self as tournament_repo, Tournaments};

/// Shared by every worker and handler (as `web::Data<AppState>`).
#[derive(Debug)]
pub struct AppState {
    /// Accounts, sessions, readiness.
    pub db: PgPool,
    /// The event store (on the same pool).
    pub store: EventStore,
    /// The public reads that tolerate lag: a replica when one is configured and within
    /// its bound, else the primary (`crate::replica`). Nothing a command reads.
    pub lag_tolerant: LagTolerant,
    /// argon2 behind a semaphore.
    pub passwords: PasswordService,
    /// Wrong passwords and set-up codes per client of an account and per address
    /// (see `auth::throttle`).
    pub login_throttle: LoginThrottle,
    /// Accounts created per address (`POST /v1/accounts`).
    pub registrations: RegistrationRate,
    /// Live streams open at once, per token, per address, anonymous and in all.
    pub streams: Arc<StreamGate>,
    /// Whether the server is stopping, and its open connections (see `shutdown`).
    pub drain: Arc<Drain>,
    /// Turns to build a tournament archive (`audit::archive_store::turn`): one at a time.
    pub archive_builds: Arc<tokio::sync::Semaphore>,
    /// The turn and the least gap to take a checkpoint for an archive
    /// (`audit::archive_cut`).
    pub archive_checkpoints: Arc<crate::checkpoints::CheckpointGap>,
    /// Lifetime of new bearer tokens.
    pub token_ttl: Duration,
    /// Game-record replays (`POST /v1/records/replay`): body limit and concurrency.
    pub records: RecordReplayer,
    /// Game tables: the store and the per-process fold cache (never the truth).
    pub tables: Tables,
    /// Tournaments, likewise; shared with the tables' hook that records the results
    /// of tournament games.
    pub tournaments: Arc<Tournaments>,
    /// Seasons: series of tournaments (`crate::seasons`).
    pub seasons: Seasons,
    /// The rating list across tournaments, folded from their events when they move.
    pub ratings: crate::ratings::Ratings,
    /// Who follows which stream live, woken by the database's notifications.
    pub live: Arc<Hub>,
    /// The heads this process's writers committed, waiting to be announced to every
    /// process (`live::heads`).
    pub heads: Arc<HeadNotifier>,
    /// Sessions this instance has checked, kept while notifications are heard.
    pub sessions: Arc<crate::auth::session_cache::SessionCache>,
    /// How often a quiet live stream sends a heartbeat.
    pub stream_heartbeat: Duration,
    /// Requests by route, for `/metrics`.
    pub http_metrics: crate::metrics::HttpMetrics,
    /// The server's own work, for `/metrics`.
    pub counters: crate::metrics::Counters,
    /// Who may read `/metrics`.
    pub metrics: MetricsAccess,
}

/// Who may read `/metrics`: the figures say how busy the server is, which tables
/// exist and how the database fares, so they are not for anyone on the network.
#[derive(Debug, Clone, Default)]
pub enum MetricsAccess {
    /// Anyone who reaches the server: it listens on loopback only, or was told to.
    #[default]
    Open,
    /// A scraper that sends this bearer token.
    Token(secrecy::SecretString),
    /// Nobody: the server listens beyond loopback and no token was set.
    Closed,
}

impl MetricsAccess {
    /// The access for a server bound to `ip`, with the scraper's `token` if one is set
    /// and `open` when an operator chose to leave the figures open without one.
    pub fn of(token: Option<secrecy::SecretString>, open: bool, ip: std::net::IpAddr) -> Self {
        match token {
            Some(token) => Self::Token(token),
            None if open || ip.to_canonical().is_loopback() => Self::Open,
            None => Self::Closed,
        }
    }
}

impl AppState {
    /// The state of a server on `pool`, with its repositories wired together.
    pub fn new(
        pool: PgPool,
        passwords: PasswordService,
        token_ttl: Duration,
        records: RecordReplayer,
        write_deadline: Duration,
    ) -> Self {
        let heads = Arc::new(HeadNotifier::new());
        let store = EventStore::new(pool.clone())
            .with_write_deadline(write_deadline)
            .with_head_notifier(Arc::clone(&heads));
        let tournaments = Arc::new(Tournaments::new(
            store.clone(),
            tournament_repo::CACHE_CAPACITY,
            tournament_repo::CACHE_BYTES,
            (),
        ));
        let results = OnlineResults {
            tournaments: Arc::clone(&tournaments),
        };
        let tables = Tables::new(
            store.clone(),
            tables::CACHE_CAPACITY,
            tables::CACHE_BYTES,
            TableHooks {
                game_ended: Some(Arc::new(results)),
            },
        );
        let seasons = Seasons::new(
            store.clone(),
            season_repo::CACHE_CAPACITY,
            season_repo::CACHE_BYTES,
            (),
        );
        Self {
            lag_tolerant: LagTolerant::new(pool.clone(), None),
            db: pool,
            store,
            passwords,
            login_throttle: LoginThrottle::new(Limits::default()),
            registrations: RegistrationRate::new(
                RegistrationLimit::default(),
                Limits::default().capacity,
            ),
            archive_builds: Arc::new(tokio::sync::Semaphore::new(1)),
            archive_checkpoints: Arc::new(crate::checkpoints::CheckpointGap::new(
                crate::config::DEFAULT_ARCHIVE_CHECKPOINT_GAP,
            )),
            drain: Arc::default(),
            streams: Arc::new(StreamGate::new(
                StreamLimits::default(),
                DEFAULT_HTTP_MAX_CONNECTIONS,
            )),
            token_ttl,
            records,
            tables,
            tournaments,
            seasons,
            ratings: crate::ratings::Ratings::new(),
            live: Arc::new(Hub::new()),
            heads,
            sessions: Arc::new(crate::auth::session_cache::SessionCache::new()),
            stream_heartbeat: crate::config::DEFAULT_STREAM_HEARTBEAT,
            http_metrics: crate::metrics::HttpMetrics::new(),
            counters: crate::metrics::Counters::default(),
            metrics: MetricsAccess::Open,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::MetricsAccess;
    use std::net::IpAddr;

    #[test]
    fn metrics_are_open_on_loopback_and_closed_beyond_it_without_a_token() {
        let ip = |s: &str| s.parse::<IpAddr>().unwrap();
        let of = |open, at| MetricsAccess::of(None, open, ip(at));
        assert!(matches!(of(false, "127.0.0.1"), MetricsAccess::Open));
        assert!(matches!(of(false, "::1"), MetricsAccess::Open));
        assert!(matches!(of(false, "::ffff:127.0.0.1"), MetricsAccess::Open));
        assert!(matches!(of(false, "0.0.0.0"), MetricsAccess::Closed));
        assert!(matches!(of(false, "192.168.1.5"), MetricsAccess::Closed));
        assert!(matches!(of(true, "0.0.0.0"), MetricsAccess::Open));
        let token = Some(secrecy::SecretString::from("scrape-token-0123456789"));
        assert!(matches!(
            MetricsAccess::of(token, false, ip("0.0.0.0")),
            MetricsAccess::Token(_)
        ));
    }
}
