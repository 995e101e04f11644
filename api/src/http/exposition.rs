//! The exposition of `GET /metrics`: every figure of this instance in the Prometheus
//! text format, read where it lives when the endpoint is scraped (see
//! [`crate::metrics`]).

use std::sync::atomic::Ordering;

use crate::app_state::AppState;
use crate::live::gate::Cap;
use crate::metrics::text::{Family, labels};
use crate::replica::{Replica, Standing};
use crate::streams::{Repository, StreamKind};

/// The whole exposition of `state`.
pub fn render(state: &AppState) -> String {
    let mut out = String::new();
    state.http_metrics.render(&mut out);
    repositories(state, &mut out);

    let pool = &state.db;
    let idle = pool.num_idle() as f64;
    let mut connections = Family::gauge(
        "yaniv_db_pool_connections",
        "Connections of the database pool, by state.",
    );
    connections.sample("", &labels(&[("state", "idle")]), idle);
    connections.sample(
        "",
        &labels(&[("state", "in_use")]),
        f64::from(pool.size()) - idle,
    );
    connections.write(&mut out);
    Family::gauge(
        "yaniv_db_pool_max_connections",
        "Most connections the pool opens.",
    )
    .value(f64::from(pool.options().get_max_connections()))
    .write(&mut out);

    Family::gauge(
        "yaniv_live_subscribers",
        "Open live streams (/stream) on this instance.",
    )
    .value(state.live.subscribers() as f64)
    .write(&mut out);
    let (streams, anonymous) = state.streams.open();
    let mut open = Family::gauge(
        "yaniv_streams_open",
        "Live streams open now under the stream caps, by kind of reader.",
    );
    open.sample(
        "",
        &labels(&[("reader", "token")]),
        (streams - anonymous) as f64,
    );
    open.sample("", &labels(&[("reader", "anonymous")]), anonymous as f64);
    open.write(&mut out);
    Family::gauge(
        "yaniv_streams_capacity",
        "Most live streams open at once, all together (the connections less a reserve).",
    )
    .value(state.streams.capacity() as f64)
    .write(&mut out);
    let mut refused = Family::counter(
        "yaniv_streams_refused_total",
        "Live streams refused with 429 too_many_streams, by the cap they would have passed.",
    );
    for cap in Cap::ALL {
        refused.sample(
            "",
            &labels(&[("cap", cap.label())]),
            state.streams.refused(cap) as f64,
        );
    }
    refused.write(&mut out);
    Family::counter(
        "yaniv_live_heads_announced_total",
        "Stream heads this instance announced after their commit (live::heads).",
    )
    .value(state.heads.announced() as f64)
    .write(&mut out);
    Family::counter(
        "yaniv_live_head_statements_total",
        "Statements that carried those announcements, several heads each when busy.",
    )
    .value(state.heads.statements() as f64)
    .write(&mut out);
    Family::counter(
        "yaniv_clock_timeouts_total",
        "Timeouts this instance's clock task appended.",
    )
    .value(state.counters.timeouts_appended.load(Ordering::Relaxed) as f64)
    .write(&mut out);
    if let Some(replica) = state.lag_tolerant.replica() {
        replica_figures(replica, &mut out);
    }
    if let Some(bytes) = resident_bytes() {
        Family::gauge(
            "process_resident_memory_bytes",
            "Resident memory of the server process.",
        )
        .value(bytes as f64)
        .write(&mut out);
    }
    out
}

/// The replica's standing as the probe last saw it, and who served the reads that
/// tolerate lag (only with `YANIV_DATABASE_REPLICA_URL` set).
fn replica_figures(replica: &Replica, out: &mut String) {
    let (standing, _) = replica.standing();
    let (up, lag) = match standing {
        Standing::Standby { lag } => (1.0, lag),
        Standing::Unknown | Standing::NotAStandby | Standing::Unreachable => (0.0, None),
    };
    Family::gauge(
        "yaniv_replica_up",
        "1 while the replica answers as a standby, else 0 (its reads go to the primary).",
    )
    .value(up)
    .write(out);
    // Left out while unknown: down, or behind every position sampled.
    if let Some(lag) = lag {
        Family::gauge(
            "yaniv_replica_lag_seconds",
            "How far the replica's replay was behind the primary at the last probe.",
        )
        .value(lag.as_secs_f64())
        .write(out);
    }
    Family::gauge(
        "yaniv_replica_max_lag_seconds",
        "The most a lag-tolerant read accepts (YANIV_REPLICA_MAX_LAG_MS).",
    )
    .value(replica.max_lag().as_secs_f64())
    .write(out);
    let (by_replica, by_primary) = replica.reads();
    let mut reads = Family::counter(
        "yaniv_replica_reads_total",
        "Reads that tolerate lag, by the database that served them.",
    );
    reads.sample("", &labels(&[("served_by", "replica")]), by_replica as f64);
    reads.sample("", &labels(&[("served_by", "primary")]), by_primary as f64);
    reads.write(out);
}

/// The tables' and tournaments' repositories, side by side in each family.
fn repositories(state: &AppState, out: &mut String) {
    let mut appended = Family::counter(
        "yaniv_events_appended_total",
        "Events appended through this instance, by kind of stream.",
    );
    let mut conflicts = Family::counter(
        "yaniv_append_conflicts_total",
        "Appends that lost the race for a stream's next version, by kind of stream.",
    );
    let mut one_statement = Family::counter(
        "yaniv_one_statement_writes_total",
        "Commands stored in one statement from the cached fold, by kind of stream.",
    );
    let mut handed_back = Family::counter(
        "yaniv_one_statement_handed_back_total",
        "Commands tried in one statement that the usual transaction then took over \
         (a lost race, a moved head, a known idempotency key), by kind of stream.",
    );
    let mut hits = Family::counter(
        "yaniv_fold_cache_hits_total",
        "Reads that found a fold in the cache, by kind of stream.",
    );
    let mut misses = Family::counter(
        "yaniv_fold_cache_misses_total",
        "Reads that folded the stream from the database, by kind of stream.",
    );
    let mut entries = Family::gauge(
        "yaniv_fold_cache_entries",
        "Folds in the cache, by kind of stream.",
    );
    let mut bytes = Family::gauge(
        "yaniv_fold_cache_bytes",
        "Bytes the cached folds hold (an estimate from their lengths), by kind of stream.",
    );
    let mut add = |kind: &str, stats: RepositoryFigures| {
        let kind = labels(&[("stream", kind)]);
        appended.sample("", &kind, stats.appended as f64);
        conflicts.sample("", &kind, stats.conflicts as f64);
        one_statement.sample("", &kind, stats.one_statement as f64);
        handed_back.sample("", &kind, stats.handed_back as f64);
        hits.sample("", &kind, stats.hits as f64);
        misses.sample("", &kind, stats.misses as f64);
        entries.sample("", &kind, stats.entries as f64);
        bytes.sample("", &kind, stats.bytes as f64);
    };
    add("table", figures(&state.tables));
    add("tournament", figures(&state.tournaments));
    for family in [
        appended,
        conflicts,
        one_statement,
        handed_back,
        hits,
        misses,
        entries,
        bytes,
    ] {
        family.write(out);
    }
}

struct RepositoryFigures {
    appended: u64,
    conflicts: u64,
    one_statement: u64,
    handed_back: u64,
    hits: u64,
    misses: u64,
    entries: usize,
    bytes: usize,
}

fn figures<A: StreamKind>(repository: &Repository<A>) -> RepositoryFigures {
    let cache = repository.cache();
    RepositoryFigures {
        appended: repository.appended_events(),
        conflicts: repository.conflicts(),
        one_statement: repository.one_statement_writes(),
        handed_back: repository.handed_back_writes(),
        hits: cache.hits(),
        misses: cache.misses(),
        entries: cache.len(),
        bytes: cache.bytes(),
    }
}

/// `VmRSS` of `/proc/self/status`, where there is one.
fn resident_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let kib: u64 = status
        .lines()
        .find_map(|line| line.strip_prefix("VmRSS:"))?
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()?;
    Some(kib * 1024)
}
