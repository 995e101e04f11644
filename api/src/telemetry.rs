//! Structured logs through `tracing`.
//!
//! `RUST_LOG` filters (default `info,sqlx=warn`); `LOG_FORMAT=json` prints one JSON
//! object per line with the current span's fields (the request id among them),
//! anything else prints human-readable lines. Logs go to stdout.
//!
//! [`spawn_blocking_with_tracing`] is how CPU-heavy work (argon2) leaves the async
//! executor without losing the request's span.

use tokio::task::JoinHandle;
use tracing_subscriber::EnvFilter;

/// Default filter when `RUST_LOG` is unset: sqlx logs every statement at info.
pub const DEFAULT_LOG_FILTER: &str = "info,sqlx=warn";

/// Output format of the log lines.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LogFormat {
    Text,
    Json,
}

impl LogFormat {
    /// Reads `LOG_FORMAT` (`json` or anything else for text).
    pub fn from_env() -> Self {
        match std::env::var("LOG_FORMAT") {
            Ok(v) if v.trim().eq_ignore_ascii_case("json") => Self::Json,
            _ => Self::Text,
        }
    }
}

/// Installs the global subscriber. Call once, from `main`; a second call (as can
/// happen in tests) is ignored.
pub fn init_subscriber(format: LogFormat) {
    let filter =
        EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new(DEFAULT_LOG_FILTER));
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stdout)
        // Colours only for a person at a terminal, not in files or collectors.
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stdout()));
    let result = match format {
        LogFormat::Json => builder
            .json()
            .with_current_span(true)
            .with_span_list(false)
            .try_init(),
        LogFormat::Text => builder.try_init(),
    };
    // Err only means a subscriber is already installed.
    drop(result);
}

/// `tokio::task::spawn_blocking` that runs `f` inside the caller's current span, so
/// logs emitted by blocking work still carry the request id.
pub fn spawn_blocking_with_tracing<F, R>(f: F) -> JoinHandle<R>
where
    F: FnOnce() -> R + Send + 'static,
    R: Send + 'static,
{
    let span = tracing::Span::current();
    tokio::task::spawn_blocking(move || span.in_scope(f))
}
