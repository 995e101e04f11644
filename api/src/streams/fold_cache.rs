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
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use yaniv_verify::chain::Hash;

/// A fold that knows which version of its stream it reflects.
pub trait Versioned: Clone {
    fn version(&self) -> u64;

    /// About how many bytes the fold holds, its heap included: what the cache's byte
    /// budget counts. An estimate from lengths and element sizes, not an allocator's
    /// figure.
    fn approx_bytes(&self) -> usize {
        std::mem::size_of::<Self>()
    }

    /// Whether the fold is worth keeping: `false` for one that no write will follow (a
    /// finished game), which a read folds again from the database when it needs it,
    /// rather than holding a live table's place in the budget.
    fn worth_caching(&self) -> bool {
        true
    }
}

#[derive(Debug)]
pub struct FoldCache<T> {
    entries: Mutex<Entries<T>>,
    capacity: usize,
    /// Most bytes ([`Versioned::approx_bytes`]) the cached folds may hold together.
    max_bytes: usize,
    hits: AtomicU64,
    misses: AtomicU64,
}

impl<T: Versioned> FoldCache<T> {
    /// A cache of at most `capacity` folds holding at most `max_bytes` together; when
    /// full, the least recently used folds make room. A fold larger than the whole budget is not
    /// kept.
    pub fn new(capacity: usize, max_bytes: usize) -> Self {
        Self {
            entries: Mutex::new(Entries::default()),
            capacity: capacity.max(1),
            max_bytes,
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
        self.lock().folds.len()
    }

    /// Bytes the cached folds hold, as [`Versioned::approx_bytes`] estimates them.
    pub fn bytes(&self) -> usize {
        self.lock().bytes
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Entries<T>> {
        self.entries.lock().unwrap_or_else(|e| e.into_inner())
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
        let found = self.lock().touch(id).map(|entry| Arc::clone(&entry.fold));
        self.count(found)
    }

    /// The cached fold of stream `id` and the hash of its last event, when the writer
    /// that cached it knew that hash.
    pub fn get_with_head(&self, id: i64) -> Option<(Arc<T>, Option<Hash>)> {
        let found = self
            .lock()
            .touch(id)
            .map(|entry| (Arc::clone(&entry.fold), entry.head));
        self.count(found)
    }

    /// Removes and returns the cached fold of stream `id`: for a writer that holds the
    /// stream's lock and puts its fold back after committing.
    pub fn take(&self, id: i64) -> Option<Arc<T>> {
        let found = self.lock().remove(id).map(|entry| entry.fold);
        self.count(found)
    }

    /// Keeps `fold` as stream `id`'s unless a fold of a later version is cached already.
    pub fn put(&self, id: i64, fold: T) {
        self.put_shared(id, Arc::new(fold));
    }

    /// [`FoldCache::put`] with `head`, the hash of the fold's last event as the writer
    /// that just stored it knows it: a later write can chain from it without reading
    /// the stream first.
    pub fn put_with_head(&self, id: i64, fold: T, head: Hash) {
        self.insert(id, Arc::new(fold), Some(head));
    }

    /// [`FoldCache::put`] of a fold that is shared already.
    pub fn put_shared(&self, id: i64, fold: Arc<T>) {
        self.insert(id, fold, None);
    }

    fn insert(&self, id: i64, fold: Arc<T>, head: Option<Hash>) {
        let bytes = fold.approx_bytes();
        let mut entries = self.lock();
        if entries
            .folds
            .get(&id)
            .is_some_and(|cached| cached.fold.version() > fold.version())
        {
            return;
        }
        entries.remove(id);
        if bytes > self.max_bytes || !fold.worth_caching() {
            return;
        }
        while entries.folds.len() >= self.capacity || entries.bytes + bytes > self.max_bytes {
            // A scan of at most `capacity` entries, only when the cache is full: cheap
            // next to the fold from the database that evicting a table in play costs.
            let Some(victim) = entries
                .folds
                .iter()
                .min_by_key(|(_, entry)| entry.used)
                .map(|(&id, _)| id)
            else {
                break;
            };
            entries.remove(victim);
        }
        entries.bytes += bytes;
        let used = entries.tick();
        entries.folds.insert(
            id,
            Entry {
                fold,
                bytes,
                head,
                used,
            },
        );
    }

    /// Forgets stream `id` (e.g. after reading something it cannot fold).
    pub fn forget(&self, id: i64) {
        self.lock().remove(id);
    }
}

/// A cached fold, its size as it was counted in, the hash of its last event if
/// known, and when it was last used.
struct Entry<T> {
    fold: Arc<T>,
    bytes: usize,
    head: Option<Hash>,
    /// The cache's clock at the last lookup or put: the smallest goes first.
    used: u64,
}

/// The cached folds.
struct Entries<T> {
    folds: HashMap<i64, Entry<T>>,
    bytes: usize,
    /// Counts lookups and puts: the order in which entries were last used.
    clock: u64,
}

impl<T> Default for Entries<T> {
    fn default() -> Self {
        Self {
            folds: HashMap::new(),
            bytes: 0,
            clock: 0,
        }
    }
}

impl<T> std::fmt::Debug for Entries<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Entries")
            .field("folds", &self.folds.len())
            .field("bytes", &self.bytes)
            .finish()
    }
}

impl<T> Entries<T> {
    fn tick(&mut self) -> u64 {
        self.clock += 1;
        self.clock
    }

    /// The entry of `id`, marked as used now.
    fn touch(&mut self, id: i64) -> Option<&Entry<T>> {
        let now = self.tick();
        let entry = self.folds.get_mut(&id)?;
        entry.used = now;
        Some(entry)
    }

    fn remove(&mut self, id: i64) -> Option<Entry<T>> {
        let entry = self.folds.remove(&id)?;
        self.bytes -= entry.bytes;
        Some(entry)
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
        let cache = FoldCache::new(4, usize::MAX);
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
    fn a_head_is_known_only_from_the_writer_that_cached_the_fold() {
        let cache = FoldCache::new(4, usize::MAX);
        cache.put_with_head(1, Fold(5), [5; 32]);
        assert_eq!(
            cache.get_with_head(1).map(|(_, head)| head),
            Some(Some([5; 32]))
        );
        // A reader's put of the same stream replaces the entry and knows no head: a
        // writer must not chain from a hash that belongs to another fold.
        cache.put(1, Fold(6));
        assert_eq!(cache.get_with_head(1).map(|(_, head)| head), Some(None));
        cache.put_with_head(1, Fold(4), [4; 32]);
        assert_eq!(
            cache.get_with_head(1).map(|(fold, head)| (fold.0, head)),
            Some((6, None)),
            "an earlier fold and its head never replace a later one"
        );
    }

    #[test]
    fn the_least_recently_used_fold_makes_room() {
        let cache = FoldCache::new(3, usize::MAX);
        for id in 0..3 {
            cache.put(id, Fold(1));
        }
        // 0 is in play (read again), 1 and 2 are not: 1 is the oldest.
        assert!(cache.get(0).is_some());
        cache.put(3, Fold(1));
        assert!(cache.get(1).is_none(), "the least recently used went");
        for id in [0, 2, 3] {
            assert!(cache.get(id).is_some(), "{id} stays");
        }
    }

    #[test]
    fn a_full_cache_makes_room_and_stays_within_capacity() {
        let cache = FoldCache::new(2, usize::MAX);
        for id in 0..10 {
            cache.put(id, Fold(1));
        }
        let kept = (0..10).filter(|&id| cache.get(id).is_some()).count();
        assert_eq!(kept, 2);
        assert_eq!(
            cache.get(9).as_deref(),
            Some(&Fold(1)),
            "the newest fold is kept"
        );
    }

    /// A fold whose size is its version, in kilobytes.
    #[derive(Debug, Clone, PartialEq)]
    struct Sized(u64);

    impl Versioned for Sized {
        fn version(&self) -> u64 {
            self.0
        }

        fn approx_bytes(&self) -> usize {
            self.0 as usize * 1024
        }
    }

    #[test]
    fn the_byte_budget_evicts_until_the_new_fold_fits_and_refuses_a_giant() {
        let cache = FoldCache::new(100, 10 * 1024);
        cache.put(1, Sized(4));
        cache.put(2, Sized(4));
        assert_eq!(cache.bytes(), 8 * 1024);
        cache.put(3, Sized(4));
        assert!(cache.bytes() <= 10 * 1024, "{}", cache.bytes());
        assert!(cache.get(3).is_some(), "the new fold is kept");
        assert_eq!(cache.len(), 2);
        // Replacing a fold counts its new size, not both.
        cache.put(3, Sized(5));
        assert!(cache.bytes() <= 10 * 1024);
        assert_eq!(cache.get(3).as_deref(), Some(&Sized(5)));
        // Larger than the budget: not kept, and nothing else is dropped for it.
        let before = cache.len();
        cache.put(9, Sized(11));
        assert!(cache.get(9).is_none());
        assert_eq!(cache.len(), before);
        cache.forget(3);
        assert_eq!(cache.bytes(), cache.len() * 4 * 1024);
    }

    /// A fold that says it is over: worth nothing to keep.
    #[derive(Debug, Clone, PartialEq)]
    struct Over(u64, bool);

    impl Versioned for Over {
        fn version(&self) -> u64 {
            self.0
        }

        fn worth_caching(&self) -> bool {
            !self.1
        }
    }

    #[test]
    fn a_fold_not_worth_caching_is_not_kept_and_drops_its_older_version() {
        let cache = FoldCache::new(10, 1 << 20);
        cache.put(1, Over(5, false));
        assert_eq!(cache.get(1).as_deref(), Some(&Over(5, false)));
        cache.put(1, Over(6, true));
        assert!(cache.get(1).is_none(), "the finished fold is not kept");
        assert_eq!((cache.len(), cache.bytes()), (0, 0));
    }
}
