//! The per-process cache of folded tables ([`crate::fold_cache`]), which also keeps
//! the bots' memory of the round between requests (a heuristic: a bot rebuilt from
//! scratch plays as legally).

use super::autoplay::Bots;
use super::state::TableState;
use crate::fold_cache::{FoldCache, Versioned};

/// Tables kept; when full, an arbitrary entry makes room. A long finished game is
/// a few thousand events (~0.2 MB folded), so the cache stays under ~50 MB.
pub const DEFAULT_CAPACITY: usize = 256;

/// A folded table with its bots.
#[derive(Debug, Clone)]
pub struct Loaded {
    pub state: TableState,
    pub bots: Bots,
}

/// Folded tables with their bots (see [`crate::fold_cache`]).
pub type TableCache = FoldCache<Loaded>;

impl Versioned for Loaded {
    fn version(&self) -> u64 {
        self.state.version
    }
}
