//! `Replica-Lag-Ms`: on an answer read from the replica, how far behind the primary
//! that replica was when the read began, in whole milliseconds (rounded up). An answer
//! read from the primary carries no such header (`docs/operations.md`, "Reads from a
//! replica").

use actix_web::http::header::{HeaderName, HeaderValue};
use actix_web::{HttpResponse, HttpResponseBuilder};

use crate::replica::Served;

pub const REPLICA_LAG_HEADER: HeaderName = HeaderName::from_static("replica-lag-ms");

/// Adds the header to `response` when `served` says a replica answered.
pub fn mark(response: &mut HttpResponseBuilder, served: Served) {
    if let Some(value) = value(served) {
        response.insert_header((REPLICA_LAG_HEADER, value));
    }
}

/// The same on a response already built (a page).
pub fn mark_built(response: &mut HttpResponse, served: Served) {
    if let Some(value) = value(served).and_then(|v| HeaderValue::from_str(&v).ok()) {
        response.headers_mut().insert(REPLICA_LAG_HEADER, value);
    }
}

fn value(served: Served) -> Option<String> {
    match served {
        Served::Primary => None,
        Served::Replica { lag } => {
            // Rounded up: a lag under a millisecond is not shown as none.
            let ms = lag.as_micros().div_ceil(1000);
            Some(ms.to_string())
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[test]
    fn only_a_replica_answer_says_its_lag_rounded_up_to_the_millisecond() {
        assert_eq!(value(Served::Primary), None);
        let lag = |micros| Served::Replica {
            lag: Duration::from_micros(micros),
        };
        assert_eq!(value(lag(0)).as_deref(), Some("0"));
        assert_eq!(value(lag(1)).as_deref(), Some("1"));
        assert_eq!(value(lag(1_500_000)).as_deref(), Some("1500"));
        assert_eq!(value(lag(1_500_001)).as_deref(), Some("1501"));
    }
}
