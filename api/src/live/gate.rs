//! [`StreamGate`]: how many live streams may be open at once, per bearer token, per
//! client address, without a token, and all together.
//!
//! A stream holds a connection for as long as its reader stays, so without caps a
//! single client could take every connection the server accepts
//! (`YANIV_HTTP_MAX_CONNECTIONS`) and leave none for health checks or log-ins. All
//! streams together stop short of that number by a reserve (a tenth of it, at least
//! 10), which is what keeps `/healthz`, `/readyz` and `POST /v1/sessions` answering.
//! A stream beyond a cap is answered 429 `too_many_streams` with `Retry-After`,
//! before it opens. The [`StreamPass`] a stream holds gives its place back when the
//! stream ends.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use crate::error::ApiError;

/// Which cap refused a stream (the label of `yaniv_streams_refused_total`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cap {
    Token,
    Address,
    Anonymous,
    Total,
}

impl Cap {
    pub const ALL: [Cap; 4] = [Cap::Token, Cap::Address, Cap::Anonymous, Cap::Total];

    pub fn label(self) -> &'static str {
        match self {
            Cap::Token => "token",
            Cap::Address => "address",
            Cap::Anonymous => "anonymous",
            Cap::Total => "total",
        }
    }

    /// Seconds to suggest before trying again: a reader's own streams free up when
    /// it closes one; the shared caps when anyone does.
    fn retry_after_secs(self) -> u32 {
        match self {
            Cap::Token | Cap::Address => 5,
            Cap::Anonymous | Cap::Total => 10,
        }
    }
}

/// Caps on the live streams open at once. Besides these, all streams together leave
/// a reserve of connections ([`reserved_connections`]) to everything else.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StreamLimits {
    pub per_token: usize,
    pub per_address: usize,
    pub anonymous: usize,
}

impl Default for StreamLimits {
    fn default() -> Self {
        Self {
            per_token: 10,
            per_address: 200,
            anonymous: 500,
        }
    }
}

#[derive(Debug, Default)]
struct Open {
    total: usize,
    anonymous: usize,
    per_token: HashMap<[u8; 32], usize>,
    per_address: HashMap<IpAddr, usize>,
}

#[derive(Debug)]
pub struct StreamGate {
    limits: StreamLimits,
    total: usize,
    open: Mutex<Open>,
    refused: [AtomicU64; 4],
}

/// The reserve of connections streams leave to everything else.
pub fn reserved_connections(max_connections: usize) -> usize {
    (max_connections / 10).max(10)
}

impl StreamGate {
    /// The gate of a server that accepts `max_connections` at once.
    pub fn new(limits: StreamLimits, max_connections: usize) -> Self {
        Self {
            limits,
            total: max_connections
                .saturating_sub(reserved_connections(max_connections))
                .max(1),
            open: Mutex::default(),
            refused: Default::default(),
        }
    }

    /// A place for one more stream of `token` (its hash; `None`: anonymous) from
    /// `address`, or 429 `too_many_streams` naming the cap it would pass.
    pub fn enter(
        self: &Arc<Self>,
        token: Option<[u8; 32]>,
        address: Option<IpAddr>,
    ) -> Result<StreamPass, ApiError> {
        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        let full = if open.total >= self.total {
            Some(Cap::Total)
        } else if token.is_none() && open.anonymous >= self.limits.anonymous {
            Some(Cap::Anonymous)
        } else if token
            .is_some_and(|t| open.per_token.get(&t).copied().unwrap_or(0) >= self.limits.per_token)
        {
            Some(Cap::Token)
        } else if address.is_some_and(|a| {
            open.per_address.get(&a).copied().unwrap_or(0) >= self.limits.per_address
        }) {
            Some(Cap::Address)
        } else {
            None
        };
        if let Some(cap) = full {
            drop(open);
            self.refused[cap as usize].fetch_add(1, Ordering::Relaxed);
            return Err(self.refusal(cap));
        }
        open.total += 1;
        match token {
            Some(t) => *open.per_token.entry(t).or_default() += 1,
            None => open.anonymous += 1,
        }
        if let Some(a) = address {
            *open.per_address.entry(a).or_default() += 1;
        }
        Ok(StreamPass {
            gate: Arc::clone(self),
            token,
            address,
        })
    }

    fn refusal(&self, cap: Cap) -> ApiError {
        let detail = match cap {
            Cap::Token => format!(
                "this token already holds {} live streams: close one first",
                self.limits.per_token
            ),
            Cap::Address => format!(
                "this address already holds {} live streams: close one first",
                self.limits.per_address
            ),
            Cap::Anonymous => format!(
                "{} live streams without a token are open, the most this server allows: \
                 log in, or try again later",
                self.limits.anonymous
            ),
            Cap::Total => {
                "this server holds as many live streams as it can: try again later".to_owned()
            }
        };
        ApiError::RateLimited {
            code: "too_many_streams",
            title: "Too many live streams",
            detail,
            retry_after_secs: cap.retry_after_secs(),
        }
    }

    /// Streams open now: (all, without a token).
    pub fn open(&self) -> (usize, usize) {
        let open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        (open.total, open.anonymous)
    }

    /// Streams refused so far by `cap`.
    pub fn refused(&self, cap: Cap) -> u64 {
        self.refused[cap as usize].load(Ordering::Relaxed)
    }

    /// The most streams open at once, all together.
    pub fn capacity(&self) -> usize {
        self.total
    }
}

/// One open stream's place; given back when dropped (the stream ended).
#[derive(Debug)]
pub struct StreamPass {
    gate: Arc<StreamGate>,
    token: Option<[u8; 32]>,
    address: Option<IpAddr>,
}

impl Drop for StreamPass {
    fn drop(&mut self) {
        let mut open = self.gate.open.lock().unwrap_or_else(|e| e.into_inner());
        open.total = open.total.saturating_sub(1);
        let release = |count: &mut usize| {
            *count = count.saturating_sub(1);
            *count == 0
        };
        match self.token {
            Some(t) => {
                if open.per_token.get_mut(&t).is_some_and(release) {
                    open.per_token.remove(&t);
                }
            }
            None => open.anonymous = open.anonymous.saturating_sub(1),
        }
        if let Some(a) = self.address
            && open.per_address.get_mut(&a).is_some_and(release)
        {
            open.per_address.remove(&a);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gate(per_token: usize, per_address: usize, anonymous: usize, max: usize) -> Arc<StreamGate> {
        Arc::new(StreamGate::new(
            StreamLimits {
                per_token,
                per_address,
                anonymous,
            },
            max,
        ))
    }

    fn code_of(refused: Result<StreamPass, ApiError>) -> String {
        match refused {
            Err(ApiError::RateLimited { detail, .. }) => detail,
            other => panic!("not refused: {other:?}"),
        }
    }

    const HOME: Option<IpAddr> = Some(IpAddr::V4(std::net::Ipv4Addr::new(10, 0, 0, 1)));
    const AWAY: Option<IpAddr> = Some(IpAddr::V4(std::net::Ipv4Addr::new(10, 0, 0, 2)));

    #[test]
    fn each_cap_refuses_the_stream_beyond_it_and_a_closed_one_frees_its_place() {
        let g = gate(2, 3, 1, 100);
        let a = g.enter(Some([1; 32]), HOME).unwrap();
        let _b = g.enter(Some([1; 32]), AWAY).unwrap();
        assert!(code_of(g.enter(Some([1; 32]), AWAY)).contains("token"));
        let _c = g.enter(Some([2; 32]), HOME).unwrap();
        let _d = g.enter(None, HOME).unwrap();
        assert!(code_of(g.enter(Some([3; 32]), HOME)).contains("address"));
        assert!(code_of(g.enter(None, AWAY)).contains("without a token"));
        drop(a);
        assert!(
            g.enter(Some([1; 32]), HOME).is_ok(),
            "its place is free again"
        );
        assert_eq!(g.refused(Cap::Token), 1);
        assert_eq!(g.refused(Cap::Address), 1);
        assert_eq!(g.refused(Cap::Anonymous), 1);
    }

    #[test]
    fn all_streams_together_leave_a_reserve_of_connections() {
        let g = gate(1000, 1000, 1000, 50);
        assert_eq!(g.capacity(), 40);
        let passes: Vec<_> = (0..40).map(|_| g.enter(None, HOME).unwrap()).collect();
        assert!(code_of(g.enter(Some([9; 32]), AWAY)).contains("as many live streams"));
        assert_eq!(g.open(), (40, 40));
        drop(passes);
        assert_eq!(g.open(), (0, 0));
        assert!(g.open.lock().unwrap().per_address.is_empty());
    }
}
