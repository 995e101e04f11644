//! A per-process cache of folded tables, keyed by table id and tagged with the
//! stream version it reflects.
//!
//! It is never the source of truth: a request takes the cached fold of a prefix of
//! the stream and reads every event after it from the database before deciding
//! anything, so a table changed by another server (or before a restart) is seen
//! exactly as if nothing were cached. What it saves is reading and folding the
//! prefix again, which grows with the game. It also keeps the bots' memory of the
//! round between requests (a heuristic: a bot rebuilt from scratch plays as legally).
//!
//! Audits and verifications never use it: they read the stream from the database.

use std::collections::HashMap;
use std::sync::Mutex;

use super::autoplay::Bots;
use super::state::TableState;

/// Tables kept; when full, an arbitrary entry makes room. A long finished game is
/// a few thousand events (~0.2 MB folded), so the cache stays under ~50 MB.
pub const DEFAULT_CAPACITY: usize = 256;

/// A folded table with its bots.
#[derive(Debug, Clone)]
pub struct Loaded {
    pub state: TableState,
    pub bots: Bots,
}

#[derive(Debug)]
pub struct TableCache {
    entries: Mutex<HashMap<i64, Loaded>>,
    capacity: usize,
}

impl Default for TableCache {
    fn default() -> Self {
        Self::new(DEFAULT_CAPACITY)
    }
}

impl TableCache {
    pub fn new(capacity: usize) -> Self {
        Self {
            entries: Mutex::new(HashMap::new()),
            capacity: capacity.max(1),
        }
    }

    /// A copy of the cached fold of table `id`, if any.
    pub fn get(&self, id: i64) -> Option<Loaded> {
        let entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        entries.get(&id).cloned()
    }

    /// Keeps `loaded` unless a fold of a later version is cached already.
    pub fn put(&self, loaded: Loaded) {
        let id = loaded.state.id;
        let mut entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        if entries
            .get(&id)
            .is_some_and(|cached| cached.state.version > loaded.state.version)
        {
            return;
        }
        if entries.len() >= self.capacity
            && !entries.contains_key(&id)
            && let Some(victim) = entries.keys().next().copied()
        {
            entries.remove(&victim);
        }
        entries.insert(id, loaded);
    }

    /// Forgets table `id` (e.g. after reading something it cannot fold).
    pub fn forget(&self, id: i64) {
        let mut entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        entries.remove(&id);
    }
}
