//! A per-process cache of folded streams (tables, tournaments), keyed by id and
//! tagged with the stream version each fold reflects.
//!
//! It is never the source of truth: a request takes the cached fold of a prefix of
//! the stream and reads every event after it from the database before deciding
//! anything, so a stream changed by another server (or before a restart) is seen
//! exactly as if nothing were cached. What it saves is reading and folding the
//! prefix again, which grows with the stream (a 10,000-player tournament registers
//! 10,000 players, one command each).
//!
//! Audits and verifications never use it: they read the stream from the database.
//!
//! Folds are shared ([`Arc`]): a read whose stream has not moved hands out the cached
//! fold itself, and a fold is copied only when it must change while someone else
//! still holds it. A table's fold holds its whole game, so copying it on every read
//! cost more than reading the few events after it.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::sync::atomic::{AtomicU64, Ordering};

/// A fold that knows which version of its stream it reflects.
pub trait Versioned: Clone {
    fn version(&self) -> u64;
}

#[derive(Debug)]
pub struct FoldCache<T> {
    entries: Mutex<HashMap<i64, Arc<T>>>,
    capacity: usize,
    hits: AtomicU64,
    misses: AtomicU64,
}

impl<T: Versioned> FoldCache<T> {
    /// A cache of at most `capacity` folds; when full, an arbitrary entry makes room.
    pub fn new(capacity: usize) -> Self {
        Self {
            entries: Mutex::new(HashMap::new()),
            capacity: capacity.max(1),
            hits: AtomicU64::new(0),
            misses: AtomicU64::new(0),
        }
    }

    /// Lookups ([`FoldCache::get`], [`FoldCache::take`]) that found a fold.
    pub fn hits(&self) -> u64 {
        self.hits.load(Ordering::Relaxed)
    }

    /// Lookups that found none.
    pub fn misses(&self) -> u64 {
        self.misses.load(Ordering::Relaxed)
    }

    /// Folds cached now.
    pub fn len(&self) -> usize {
        self.entries.lock().unwrap_or_else(|e| e.into_inner()).len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn count<F>(&self, found: Option<F>) -> Option<F> {
        let counter = if found.is_some() {
            &self.hits
        } else {
            &self.misses
        };
        counter.fetch_add(1, Ordering::Relaxed);
        found
    }

    /// The cached fold of stream `id`, if any.
    pub fn get(&self, id: i64) -> Option<Arc<T>> {
        let found = {
            let entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
            entries.get(&id).cloned()
        };
        self.count(found)
    }

    /// Removes and returns the cached fold of stream `id`: for a writer that holds the
    /// stream's lock and puts its fold back after committing.
    pub fn take(&self, id: i64) -> Option<Arc<T>> {
        let found = {
            let mut entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
            entries.remove(&id)
        };
        self.count(found)
    }

    /// Keeps `fold` as stream `id`'s unless a fold of a later version is cached already.
    pub fn put(&self, id: i64, fold: T) {
        self.put_shared(id, Arc::new(fold));
    }

    /// [`FoldCache::put`] of a fold that is shared already.
    pub fn put_shared(&self, id: i64, fold: Arc<T>) {
        let mut entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        if entries
            .get(&id)
            .is_some_and(|cached| cached.version() > fold.version())
        {
            return;
        }
        if entries.len() >= self.capacity
            && !entries.contains_key(&id)
            && let Some(victim) = entries.keys().next().copied()
        {
            entries.remove(&victim);
        }
        entries.insert(id, fold);
    }

    /// Forgets stream `id` (e.g. after reading something it cannot fold).
    pub fn forget(&self, id: i64) {
        let mut entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        entries.remove(&id);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, Clone, PartialEq)]
    struct Fold(u64);

    impl Versioned for Fold {
        fn version(&self) -> u64 {
            self.0
        }
    }

    #[test]
    fn a_later_fold_is_never_replaced_by_an_earlier_one() {
        let cache = FoldCache::new(4);
        cache.put(1, Fold(5));
        cache.put(1, Fold(3));
        assert_eq!(cache.get(1).as_deref(), Some(&Fold(5)));
        cache.put(1, Fold(7));
        assert_eq!(cache.get(1).as_deref(), Some(&Fold(7)));
        assert_eq!(cache.take(1).as_deref(), Some(&Fold(7)));
        assert_eq!(cache.get(1), None);
        cache.put(1, Fold(2));
        cache.forget(1);
        assert_eq!(cache.get(1), None);
    }

    #[test]
    fn a_full_cache_makes_room_and_stays_within_capacity() {
        let cache = FoldCache::new(2);
        for id in 0..10 {
            cache.put(id, Fold(1));
        }
        let kept = (0..10).filter(|&id| cache.get(id).is_some()).count();
        assert_eq!(kept, 2);
        assert_eq!(cache.get(9).as_deref(), Some(&Fold(1)), "the newest fold is kept");
    }
}
