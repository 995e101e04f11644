//! The rating list across tournaments (`docs/ratings.md`): a projection folded from the
//! tournament streams' events and the rated casual tables' seats and results, never a
//! table of its own that edits could drift from.
//!
//! - `source.rs`: the input rows, read from the event store.
//! - `snapshot.rs`: the fold (the domain's `ratings`) and the questions asked of it.
//! - `period.rs`, `named.rs`, `profile.rs`: the list's filters, the list with its
//!   usernames, and one player's profile, as the API and the pages both read them.
//!
//! [`Ratings`] keeps the latest fold in memory with the number of input rows it was
//! folded from. Every read first counts the input rows (index-only counts, migrations
//! `0022` and `0023`): a result recorded, corrected or voided in a rated tournament, or
//! a rated casual table's finished game, adds a row, so
//! a different count folds again, and the answer always reflects every result
//! committed before the read, on every instance of the server.

pub mod named;
pub mod period;
pub mod profile;
pub mod snapshot;
pub mod source;

use std::sync::{Arc, RwLock};

use sqlx::PgPool;

use crate::error::ApiError;
pub use snapshot::{ListRow, Snapshot};

/// The latest fold and the turn to fold again.
#[derive(Debug, Default)]
pub struct Ratings {
    current: RwLock<Option<Arc<Snapshot>>>,
    /// One fold at a time: requests that find the list stale wait for it and share it.
    folding: tokio::sync::Mutex<()>,
}

impl Ratings {
    pub fn new() -> Self {
        Self::default()
    }

    /// The list as the store holds it now.
    pub async fn current(&self, pool: &PgPool) -> Result<Arc<Snapshot>, ApiError> {
        let rows = source::count(pool).await?;
        if let Some(snapshot) = self.cached(rows) {
            return Ok(snapshot);
        }
        let _turn = self.folding.lock().await;
        // Someone else may have folded while this request waited.
        if let Some(snapshot) = self.cached(rows) {
            return Ok(snapshot);
        }
        let inputs = source::read(pool).await?;
        let snapshot = Arc::new(Snapshot::fold(&inputs));
        for (game, error) in &snapshot.skipped {
            tracing::warn!(
                source = ?game.source,
                %error,
                "a result in force cannot be rated"
            );
        }
        if let Ok(mut current) = self.current.write() {
            *current = Some(Arc::clone(&snapshot));
        }
        Ok(snapshot)
    }

    fn cached(&self, rows: i64) -> Option<Arc<Snapshot>> {
        let current = self.current.read().ok()?;
        current.as_ref().filter(|s| s.rows == rows).map(Arc::clone)
    }
}
