//! Requests by route: how many, with which status, and how long they took until the
//! answer's head was ready (a live stream's body is not timed).

use std::collections::{BTreeMap, HashMap};
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use super::text::{Family, labels};

/// Upper bounds of the latency histogram's buckets, in seconds.
pub const BUCKETS: [f64; 12] = [
    0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0,
];

/// What one route has answered.
#[derive(Debug, Default, Clone)]
struct RouteFigures {
    by_status: BTreeMap<u16, u64>,
    /// Per bucket of [`BUCKETS`], the requests at or below it (not cumulated).
    buckets: [u64; BUCKETS.len()],
    count: u64,
    sum_seconds: f64,
}

/// Requests by (method, route pattern).
#[derive(Debug, Default)]
pub struct HttpMetrics {
    routes: Mutex<HashMap<(String, String), RouteFigures>>,
}

impl HttpMetrics {
    pub fn new() -> Self {
        Self::default()
    }

    /// Counts one answered request. `route` is the matched pattern
    /// (`/v1/tables/{id}/actions`), so the label set stays small.
    pub fn observe(&self, method: &str, route: &str, status: u16, elapsed: Duration) {
        let seconds = elapsed.as_secs_f64();
        let mut routes = self.routes.lock().unwrap_or_else(PoisonError::into_inner);
        let figures = routes
            .entry((method.to_owned(), route.to_owned()))
            .or_default();
        *figures.by_status.entry(status).or_default() += 1;
        if let Some(bucket) = BUCKETS.iter().position(|&bound| seconds <= bound) {
            figures.buckets[bucket] += 1;
        }
        figures.count += 1;
        figures.sum_seconds += seconds;
    }

    /// The request families, in the text format.
    pub fn render(&self, out: &mut String) {
        let routes = self
            .routes
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone();
        let mut sorted: Vec<_> = routes.into_iter().collect();
        sorted.sort_by(|a, b| a.0.cmp(&b.0));

        let mut requests = Family::counter(
            "yaniv_http_requests_total",
            "HTTP requests answered, by method, route and status.",
        );
        for ((method, route), figures) in &sorted {
            for (status, count) in &figures.by_status {
                let status = status.to_string();
                requests.sample(
                    "",
                    &labels(&[("method", method), ("route", route), ("status", &status)]),
                    *count as f64,
                );
            }
        }
        requests.write(out);

        let mut latency = Family::histogram(
            "yaniv_http_request_duration_seconds",
            "Time until the answer's head was ready, by method and route.",
        );
        for ((method, route), figures) in &sorted {
            let mut cumulated = 0;
            for (bound, count) in BUCKETS.iter().zip(figures.buckets) {
                cumulated += count;
                let le = bound.to_string();
                latency.sample(
                    "_bucket",
                    &labels(&[("method", method), ("route", route), ("le", &le)]),
                    cumulated as f64,
                );
            }
            let route_labels = labels(&[("method", method), ("route", route)]);
            latency.sample(
                "_bucket",
                &labels(&[("method", method), ("route", route), ("le", "+Inf")]),
                figures.count as f64,
            );
            latency.sample("_sum", &route_labels, figures.sum_seconds);
            latency.sample("_count", &route_labels, figures.count as f64);
        }
        latency.write(out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_are_counted_by_status_and_timed_in_cumulative_buckets() {
        let metrics = HttpMetrics::new();
        let route = "/v1/tables/{id}/actions";
        metrics.observe("POST", route, 200, Duration::from_micros(800));
        metrics.observe("POST", route, 200, Duration::from_millis(30));
        metrics.observe("POST", route, 409, Duration::from_secs(9));
        let mut out = String::new();
        metrics.render(&mut out);
        assert!(out.contains(
            r#"yaniv_http_requests_total{method="POST",route="/v1/tables/{id}/actions",status="200"} 2"#
        ), "{out}");
        assert!(out.contains(r#"status="409"} 1"#), "{out}");
        // 0.8 ms is in every bucket; 30 ms from 0.05 s on; 9 s only in +Inf.
        assert!(out.contains(r#"le="0.001"} 1"#), "{out}");
        assert!(out.contains(r#"le="0.05"} 2"#), "{out}");
        assert!(out.contains(r#"le="5"} 2"#), "{out}");
        assert!(out.contains(r#"le="+Inf"} 3"#), "{out}");
        assert!(out.contains("yaniv_http_request_duration_seconds_count{method=\"POST\",route=\"/v1/tables/{id}/actions\"} 3"), "{out}");
    }
}
