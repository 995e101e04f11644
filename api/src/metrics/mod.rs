//! What the server counts of its own work, for `GET /metrics` (the Prometheus text
//! format; the exposition itself is `crate::http::exposition`):
//!
//! - `http.rs`: requests by method, route and status, and their latency histogram
//!   (`crate::http::request_metrics` counts them).
//! - [`Counters`]: the server's own work outside requests (timeouts fired).
//! - `text.rs`: writing the exposition format.
//!
//! Everything else is read where it lives when the endpoint is scraped: the fold
//! caches' hits, misses and entries, the repositories' appended events and lost
//! races, the connection pool, the live streams' subscribers and the process's
//! resident memory.
//!
//! The figures are kept per server instance, in its `AppState`, not in a global
//! recorder (as the `metrics` crate's exporter keeps them): tests and benchmarks run
//! several instances in one process, and each must report its own.

pub mod http;
pub mod text;

use std::sync::atomic::AtomicU64;

pub use http::HttpMetrics;

/// Counters of the server's own work, outside requests.
#[derive(Debug, Default)]
pub struct Counters {
    /// Timeouts the clock task appended.
    pub timeouts_appended: AtomicU64,
}
