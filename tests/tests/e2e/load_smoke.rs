//! The load tool (`yaniv_e2e_tests::load`, run by `examples/load.rs`) plays tables
//! against the real server without a single failed request. Speed is measured by
//! the tool's runs in BENCHMARKS.md, never asserted here.

use std::time::Duration;

use yaniv_e2e_tests::load::{self, LoadConfig};
use yaniv_e2e_tests::spawn_app;

#[tokio::test]
async fn a_short_load_run_plays_every_table_without_errors() {
    let app = spawn_app().await;
    let config = LoadConfig {
        tables: 3,
        humans_per_table: 1,
        bots_per_table: 2,
        think_ms: 0,
        duration: Duration::from_secs(2),
        progress_every: Duration::from_secs(1),
        ..LoadConfig::new(vec![app.address.clone()])
    };
    let mut progress_lines = 0;
    let report = load::run(&config, |_| progress_lines += 1)
        .await
        .expect("the load run sets up and finishes");
    eprintln!("{report}");

    assert!(report.actions > 0, "{report}");
    assert!(
        report.events >= report.actions,
        "every accepted action appends at least its own event: {report}"
    );
    assert_eq!(report.error_count(), 0, "{report}");
    let latency = report.latency;
    assert_eq!(latency.samples as u64, report.actions, "{report}");
    assert!(
        latency.p50 <= latency.p90 && latency.p90 <= latency.p99 && latency.p99 <= latency.max,
        "{latency:?}"
    );
    assert!(progress_lines >= 1, "progress is reported during the run");
}

/// With `readers`, a spectator per table follows the table's stream and reads the
/// events of every move, as the memory runs of BENCHMARKS.md do; none of it fails.
#[tokio::test]
async fn spectators_read_every_move_and_follow_every_table() {
    let app = spawn_app().await;
    let config = LoadConfig {
        tables: 2,
        humans_per_table: 1,
        bots_per_table: 1,
        readers: true,
        duration: Duration::from_secs(2),
        progress_every: Duration::from_secs(1),
        ..LoadConfig::new(vec![app.address.clone()])
    };
    let report = load::run(&config, |_| {})
        .await
        .expect("the load run sets up and finishes");
    eprintln!("{report}");
    assert!(report.actions > 0, "{report}");
    assert_eq!(report.error_count(), 0, "{report}");
    assert_eq!(
        report.event_reads, report.actions,
        "one read of the new events per move: {report}"
    );
    assert!(
        report.stream_messages >= report.actions,
        "each move reached the spectator's stream: {report}"
    );
}
