//! Online game tables on the server: how the rules engine's table aggregate
//! (`yaniv_domain::table`) is stored and served. The HTTP side is
//! [`crate::http::routes::tables`].
//!
//! # One table, one stream
//!
//! Each table is the event stream `table-<id>`: lifecycle events first
//! (`table_created.v1`, `seat_taken.v1`, `seat_left.v1`, `table_started.v1`), then the
//! game's own events. The domain decides every one of them (the routes run a
//! `TableCommand` with the caller as actor and the operating system's generator as
//! randomness, [`os_random`]); this module adds what only a server has:
//!
//! - the listing projection (`game_tables`, migration `0003`), written in the same
//!   transaction as the events ([`listing`]);
//! - [`GameEndHook`]: a game that ends at a tournament's table records its result in
//!   that tournament, in the same transaction. Tables only know the hook; tournaments
//!   install it at start-up.
//!
//! # State is folded, never stored
//!
//! Every request folds the stream through [`crate::streams::Repository`]; its cache
//! keeps the fold of a prefix (with the bots' memory, a heuristic) so a request reads
//! only the events after it. It is never the truth: a restarted server, or a second
//! one on the same database, sees the same table.
//!
//! # Who sees what
//!
//! The domain's one policy (`yaniv_domain::visibility`), applied to every read through
//! [`crate::visibility`]: a seated player sees their seat, a referee of the table
//! every hand, everyone else what is face up, and nobody a round's seed or stock until
//! the round is over. [`crate::audit::table`] checks a stream's hash chain and replays
//! its game through the rules.

pub mod listing;
pub mod os_random;
pub mod tournament_game;
pub mod write;

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use sqlx::PgConnection;
use yaniv_domain::table::Table;

use crate::auth::accounts::Account;
use crate::auth::role::Role;
use crate::error::ApiError;
use crate::store::EventMetadata;
use crate::streams::fold_cache::Versioned;
use crate::streams::{AfterCommit, ListingUpdate, Repository, StreamKind};

/// Most tables kept folded per process: enough for every table in play at a large
/// event, so the byte budget below is what bounds the cache; when either is reached the
/// least recently used fold makes room (with fewer entries than tables in play, LRU
/// would miss on every move).
pub const CACHE_CAPACITY: usize = 4096;

/// Most bytes the cached tables hold together ([`Versioned::approx_bytes`]): a
/// finished four-player game is about 0.2 MB.
pub const CACHE_BYTES: usize = 64 * 1024 * 1024;

/// The tables' repository.
pub type Tables = Repository<Table>;

/// Stream id of table `id`.
pub fn stream_id(id: i64) -> String {
    Tables::stream_id(id)
}

/// The table id in a stream id made by [`stream_id`] (a tournament names its online
/// games by their stream).
pub fn table_id_of(stream: &str) -> Option<i64> {
    stream.strip_prefix("table-")?.parse().ok()
}

/// 404 for table `id`.
pub fn not_found(id: i64) -> ApiError {
    Tables::not_found(id)
}

/// An account as a table's actor.
pub fn actor(account: &Account) -> yaniv_domain::table::Actor {
    yaniv_domain::table::Actor {
        account_id: account.id,
        username: account.username.clone(),
        organizer: account.has_role(Role::Organizer),
    }
}

/// Called in the transaction of the action that ended a table's game, for tables a
/// tournament opened (`table.created.tournament`). Returns what to do after commit.
pub trait GameEndHook: std::fmt::Debug + Send + Sync {
    fn game_ended<'a>(
        &'a self,
        conn: &'a mut PgConnection,
        table: &'a Table,
        metadata: &'a EventMetadata,
    ) -> Pin<Box<dyn Future<Output = Result<AfterCommit, ApiError>> + Send + 'a>>;
}

/// What the tables' repository needs beyond the store.
#[derive(Debug, Default)]
pub struct TableHooks {
    pub game_ended: Option<Arc<dyn GameEndHook>>,
}

impl Versioned for Table {
    fn version(&self) -> u64 {
        self.version
    }

    /// A finished game takes no more moves: its readers (a last look at the result, a
    /// record, an audit) fold it again. Kept, finished tables filled the budget under
    /// load and held ten times more memory than the live ones (BENCHMARKS.md).
    fn worth_caching(&self) -> bool {
        self.status() != yaniv_domain::table::TableStatus::Finished
    }

    /// The fold's own size and its event lists, which grow with the game; the game's
    /// state and the bots are small and fixed (a deck at most, their memory).
    fn approx_bytes(&self) -> usize {
        use std::mem::size_of;
        use yaniv_domain::game::Event as GameEvent;
        use yaniv_domain::table::TableEvent;
        use yaniv_domain::table::clock::ClockEvent;
        size_of::<Table>()
            + self.game_events.capacity() * size_of::<GameEvent>()
            + self.game_versions.capacity() * size_of::<u64>()
            + self.table_events.capacity() * size_of::<TableEvent>()
            + self.clock_events.capacity() * size_of::<ClockEvent>()
            + self.clock_versions.capacity() * size_of::<u64>()
            + self.entropy_events.capacity()
                * size_of::<yaniv_domain::table::entropy::EntropyEvent>()
            + self.entropy_versions.capacity() * size_of::<u64>()
            // The game's stock and discard (two decks at most) and the bots.
            + 2 * 108 * size_of::<yaniv_domain::cards::Card>()
            + self.seats.len() * size_of::<yaniv_domain::bots::AnyBot>()
    }
}

/// Whether the write decided on version `before` ended a tournament's game (whose
/// result the tournament then records, in the same transaction).
fn game_ends_in_tournament(table: &Table, before: u64) -> bool {
    table.created.tournament.is_some()
        && table.game.is_finished()
        && table.game_versions.last().is_some_and(|&v| v > before)
}

impl StreamKind for Table {
    type Extension = TableHooks;
    const NAME: &'static str = "table";
    // A table's commands only fold; the game-end hook, which writes the tournament's
    // result, runs in `after_append`, inside the transaction.
    const DECIDES_WITHOUT_WRITING: bool = true;

    fn assign_id(&mut self, id: i64) {
        self.id = id;
    }

    async fn insert(
        conn: &mut PgConnection,
        created_by: i64,
        table: &Table,
    ) -> Result<i64, ApiError> {
        listing::insert(conn, created_by, table).await
    }

    async fn project(conn: &mut PgConnection, id: i64, table: &Table) -> Result<(), ApiError> {
        listing::project(conn, id, table).await
    }

    fn one_statement_listing(
        hooks: &TableHooks,
        table: &Table,
        before: u64,
    ) -> Option<ListingUpdate> {
        if hooks.game_ended.is_some() && game_ends_in_tournament(table, before) {
            return None;
        }
        listing::one_statement(table)
    }

    async fn after_append(
        hooks: &TableHooks,
        conn: &mut PgConnection,
        table: &Table,
        before: u64,
        metadata: &EventMetadata,
    ) -> Result<AfterCommit, ApiError> {
        match (&hooks.game_ended, game_ends_in_tournament(table, before)) {
            (Some(hook), true) => hook.game_ended(conn, table, metadata).await,
            _ => Ok(AfterCommit::default()),
        }
    }
}
