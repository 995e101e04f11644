//! Reads that may go to a streaming replica (`YANIV_DATABASE_REPLICA_URL`), and how far
//! behind it is (`docs/operations.md`, "Reads from a replica").
//!
//! Only the routes that call [`LagTolerant::read`] or [`Replica::connection`] read the
//! replica: the public listings and pages that tolerate a few seconds of lag, and the
//! body of a finished tournament's kept archive (checked by its SHA-256, not by time).
//! Everything a command depends on keeps reading the primary through the store and
//! `AppState::db`; no other module names this one (a test in `tests/tests/` keeps
//! that so).
//!
//! The lag is measured, not assumed:
//!
//! - a background task ([`probe`]) samples the primary's write-ahead-log position every
//!   [`PROBE_INTERVAL`] into [`PrimaryPositions`], and asks the replica where its replay
//!   stands, for `/metrics` and `/readyz`;
//! - each read checks, on the very connection it will read from, that the server is a
//!   standby and where it has replayed to, then turns that position into a lag with the
//!   samples. Behind a balancer that spreads connections over several standbys, each
//!   read is judged by the standby it got.
//!
//! A replica over the bound, behind every sample kept, not a standby, or unreachable
//! sends the read to the primary; it never turns into an error.

pub mod positions;
pub mod probe;

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use sqlx::pool::PoolConnection;
use sqlx::{PgConnection, PgPool, Postgres};

pub use positions::{Lsn, PrimaryPositions};

/// How often the primary's position is sampled and the replica probed: the lag a read
/// is told is at most this much above the real one.
pub const PROBE_INTERVAL: Duration = Duration::from_millis(500);

/// Samples kept: over four minutes of a primary that writes all the time (a primary
/// standing still takes one sample however long it stands).
pub const SAMPLES_KEPT: usize = 512;

/// Who answered a lag-tolerant read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Served {
    Primary,
    /// A replica that was at most `lag` behind the primary when the read began.
    Replica {
        lag: Duration,
    },
}

/// What the probe last saw of the replica.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Standing {
    /// Not probed yet.
    Unknown,
    /// A standby that was `lag` behind (`None`: behind every sample kept).
    Standby { lag: Option<Duration> },
    /// It answers but is not in recovery: a primary, whose history may not be ours.
    NotAStandby,
    /// It did not answer.
    Unreachable,
}

/// A connection to the replica, checked: a standby `lag` behind the primary.
#[derive(Debug)]
pub struct Checked {
    pub connection: PoolConnection<Postgres>,
    pub lag: Duration,
}

/// The replica's pool, the bound, and what is known of its lag.
#[derive(Debug)]
pub struct Replica {
    pool: PgPool,
    max_lag: Duration,
    positions: Mutex<PrimaryPositions>,
    standing: Mutex<(Standing, Instant)>,
    served_by_replica: AtomicU64,
    served_by_primary: AtomicU64,
}

impl Replica {
    /// A replica reached through `pool` (opened lazily: a replica down at start does
    /// not keep the server from starting).
    pub fn new(pool: PgPool, max_lag: Duration) -> Self {
        Self {
            pool,
            max_lag,
            positions: Mutex::new(PrimaryPositions::new(SAMPLES_KEPT)),
            standing: Mutex::new((Standing::Unknown, Instant::now())),
            served_by_replica: AtomicU64::new(0),
            served_by_primary: AtomicU64::new(0),
        }
    }

    /// The pool on the replica.
    pub fn pool(&self) -> &PgPool {
        &self.pool
    }

    /// The most a lag-tolerant read accepts.
    pub fn max_lag(&self) -> Duration {
        self.max_lag
    }

    /// The primary's log stood at `lsn` at `at`.
    pub fn record_primary(&self, at: Instant, lsn: Lsn) {
        self.positions
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .record(at, lsn);
    }

    /// How far behind the primary a standby that replayed up to `replayed` is now.
    pub fn lag_of(&self, replayed: Lsn) -> Option<Duration> {
        let since = self
            .positions
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .caught_up_to(replayed)?;
        Some(since.elapsed())
    }

    /// What the probe (or a failed read) last saw, and when.
    pub fn standing(&self) -> (Standing, Instant) {
        *self.standing.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn set_standing(&self, standing: Standing) {
        *self.standing.lock().unwrap_or_else(PoisonError::into_inner) = (standing, Instant::now());
    }

    /// A connection to the replica, checked on itself: a standby whose lag is known.
    /// `None` (and the read goes to the primary) when the last probe found the replica
    /// unreachable or not a standby, or this check fails.
    pub async fn connection(&self) -> Option<Checked> {
        if matches!(
            self.standing().0,
            Standing::Unreachable | Standing::NotAStandby
        ) {
            return None;
        }
        let mut connection = match self.pool.acquire().await {
            Ok(connection) => connection,
            Err(error) => {
                tracing::debug!(%error, "replica: no connection; reading the primary");
                self.set_standing(Standing::Unreachable);
                return None;
            }
        };
        match replayed(&mut connection).await {
            Ok(Some(lsn)) => Some(Checked {
                lag: self.lag_of(lsn)?,
                connection,
            }),
            Ok(None) => {
                self.set_standing(Standing::NotAStandby);
                None
            }
            Err(error) => {
                tracing::debug!(%error, "replica: its position unread; reading the primary");
                self.set_standing(Standing::Unreachable);
                None
            }
        }
    }

    /// Counts a lag-tolerant read by who served it.
    pub fn count(&self, served: Served) {
        let counter = match served {
            Served::Primary => &self.served_by_primary,
            Served::Replica { .. } => &self.served_by_replica,
        };
        counter.fetch_add(1, Ordering::Relaxed);
    }

    /// Lag-tolerant reads so far: `(by the replica, by the primary)`.
    pub fn reads(&self) -> (u64, u64) {
        (
            self.served_by_replica.load(Ordering::Relaxed),
            self.served_by_primary.load(Ordering::Relaxed),
        )
    }
}

/// Where the standby on `connection` has replayed to; `None` when it is not in
/// recovery (a primary).
async fn replayed(connection: &mut PgConnection) -> Result<Option<Lsn>, sqlx::Error> {
    let (in_recovery, lsn): (bool, Option<i64>) = sqlx::query_as(
        "SELECT pg_is_in_recovery(), (pg_last_wal_replay_lsn() - '0/0'::pg_lsn)::bigint",
    )
    .fetch_one(connection)
    .await?;
    Ok(lsn.filter(|_| in_recovery))
}

/// The primary's log position now (what a replica must have replayed to hold every
/// commit acknowledged so far).
pub async fn primary_position(primary: &PgPool) -> Result<Lsn, sqlx::Error> {
    sqlx::query_scalar("SELECT (pg_current_wal_lsn() - '0/0'::pg_lsn)::bigint")
        .fetch_one(primary)
        .await
}

/// The reads that tolerate lag: to the replica when one is configured and within the
/// bound, else to the primary.
#[derive(Debug, Clone)]
pub struct LagTolerant {
    primary: PgPool,
    replica: Option<Arc<Replica>>,
}

impl LagTolerant {
    pub fn new(primary: PgPool, replica: Option<Arc<Replica>>) -> Self {
        Self { primary, replica }
    }

    /// The replica, when one is configured.
    pub fn replica(&self) -> Option<&Arc<Replica>> {
        self.replica.as_ref()
    }

    /// Runs `query` on a replica connection within the bound, or on the primary: on the
    /// primary too when the replica's answer is an error (a conflict with its replay, a
    /// connection lost), so that a replica never fails a read the primary can answer.
    pub async fn read<T, E>(
        &self,
        query: impl AsyncFn(&mut PgConnection) -> Result<T, E>,
    ) -> Result<(T, Served), E>
    where
        E: From<sqlx::Error> + std::fmt::Display,
    {
        if let Some(replica) = &self.replica {
            if let Some(mut checked) = replica.connection().await
                && checked.lag <= replica.max_lag()
            {
                match query(&mut checked.connection).await {
                    Ok(value) => {
                        let served = Served::Replica { lag: checked.lag };
                        replica.count(served);
                        return Ok((value, served));
                    }
                    Err(error) => {
                        tracing::debug!(%error, "replica: the read failed; reading the primary");
                    }
                }
            }
            replica.count(Served::Primary);
        }
        let mut connection = self.primary.acquire().await?;
        let value = query(&mut connection).await?;
        Ok((value, Served::Primary))
    }
}
