//! Tournaments in the one stream repository ([`crate::streams`]): what the server adds
//! to the rules engine's tournament aggregate, and the tournament-shaped doors into the
//! repository that the routes use.
//!
//! - [`StreamKind`] for `Tournament`: every writer first takes the tournament's row
//!   lock (`lock`), so writers queue instead of losing version races (several tables of
//!   a round often end within milliseconds); after each write the server commits the
//!   next draw seed when one is due (`seeds.rs`, as `server_events`); the `tournaments`
//!   row (name, phase, version) is the projection. The fold is taken out of the cache
//!   by writers, not copied: a 10,000-player tournament costs more to copy than the
//!   rest of a command.
//! - [`create`]: a new tournament, decided by the rules engine like any command.

use sqlx::PgConnection;
use yaniv_domain::aggregate::Aggregate;
use yaniv_domain::tournament::{Command, Event, Tournament};

use super::answers::TournamentSummary;
use super::seeds;
use crate::error::ApiError;
use crate::streams::fold_cache::Versioned;
pub use crate::streams::{MAX_RETRIES, Mutation};
use crate::streams::{Repository, StreamKind, Written, json_answer};

/// Tournaments kept folded per process (a 10,000-player tournament is ~30,000 events,
/// a few MB folded).
pub const CACHE_CAPACITY: usize = 64;

/// Most bytes the cached tournaments hold together ([`Versioned::approx_bytes`]).
pub const CACHE_BYTES: usize = 128 * 1024 * 1024;

/// About what one event adds to a folded tournament (players, tables, results and
/// their indexes), measured from the 10,000-player fold.
const BYTES_PER_EVENT: usize = 128;

/// The tournaments' repository.
pub type Tournaments = Repository<Tournament>;

/// 404 for tournament `id`.
pub fn not_found(id: i64) -> ApiError {
    Tournaments::not_found(id)
}

impl Versioned for Tournament {
    fn version(&self) -> u64 {
        Tournament::version(self)
    }

    fn approx_bytes(&self) -> usize {
        std::mem::size_of::<Tournament>()
            + usize::try_from(Tournament::version(self)).unwrap_or(usize::MAX / BYTES_PER_EVENT)
                * BYTES_PER_EVENT
    }
}

/// The phase of `tournament` as stored in the projection.
pub fn phase(tournament: &Tournament) -> String {
    tournament
        .view()
        .and_then(|v| serde_json::to_value(v.phase).ok())
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_else(|| "setup".to_owned())
}

impl StreamKind for Tournament {
    type Extension = ();
    const NAME: &'static str = "tournament";
    const TAKE_ON_WRITE: bool = true;

    async fn lock(conn: &mut PgConnection, id: i64) -> Result<bool, ApiError> {
        let row: Option<i64> =
            sqlx::query_scalar("SELECT version FROM tournaments WHERE id = $1 FOR UPDATE")
                .bind(id)
                .fetch_optional(conn)
                .await?;
        Ok(row.is_some())
    }

    async fn server_events(
        conn: &mut PgConnection,
        id: i64,
        tournament: &mut Tournament,
    ) -> Result<Vec<Event>, ApiError> {
        let commitment = seeds::commit_if_due(conn, id, tournament, now()).await?;
        if let Some(event) = &commitment {
            tournament.apply(event);
        }
        Ok(commitment.into_iter().collect())
    }

    async fn insert(
        conn: &mut PgConnection,
        created_by: i64,
        tournament: &Tournament,
    ) -> Result<i64, ApiError> {
        let name = tournament.view().map(|v| v.name).unwrap_or_default();
        let id = sqlx::query_scalar(
            "INSERT INTO tournaments (created_by, name, phase, version) \
             VALUES ($1, $2, $3, $4) RETURNING id",
        )
        .bind(created_by)
        .bind(&name)
        .bind(phase(tournament))
        .bind(i64::try_from(tournament.version()).unwrap_or(i64::MAX))
        .fetch_one(conn)
        .await?;
        Ok(id)
    }

    async fn project(
        conn: &mut PgConnection,
        id: i64,
        tournament: &Tournament,
    ) -> Result<(), ApiError> {
        sqlx::query(
            "UPDATE tournaments SET phase = $2, version = $3, updated_at = now() \
             WHERE id = $1 AND version < $3",
        )
        .bind(id)
        .bind(phase(tournament))
        .bind(i64::try_from(tournament.version()).unwrap_or(i64::MAX))
        .execute(conn)
        .await?;
        Ok(())
    }
}

/// Creates a tournament by `command`, decided as `account` on an empty tournament,
/// answered with its summary.
pub async fn create(
    tournaments: &Tournaments,
    mutation: Mutation<'_>,
    command: &Command,
) -> Result<Written, ApiError> {
    let mut ctx = super::context(mutation.account, now());
    let create = || Tournament::create(0, command, &mut ctx).map_err(|e| super::refusal(&e));
    let answer = |id, tournament: &Tournament| json_answer(&TournamentSummary::of(id, tournament)?);
    tournaments.create(mutation, create, answer).await
}

/// Tournament `id` folded from its first `n` events only, from the database alone.
pub async fn load_upto(
    tournaments: &Tournaments,
    id: i64,
    n: u64,
) -> Result<Option<Tournament>, ApiError> {
    tournaments.load_fresh(id, Some(n)).await
}

/// Tournament `id` after its first `as_of` events, read from the database; as it is
/// now (through the cache) without `as_of`. An `as_of` beyond the stream is a 422
/// naming the field.
pub async fn load_as_of(
    tournaments: &Tournaments,
    id: i64,
    as_of: Option<u64>,
) -> Result<std::sync::Arc<Tournament>, ApiError> {
    let Some(as_of) = as_of else {
        return tournaments.read(id).await;
    };
    let head = tournaments
        .store()
        .stream_version(&super::stream_id(id))
        .await?;
    if head == 0 {
        return Err(not_found(id));
    }
    if as_of == 0 || as_of > head {
        return Err(ApiError::invalid_field(
            "as_of",
            format!("must be 1 to {head} (the tournament's version)"),
        ));
    }
    load_upto(tournaments, id, as_of)
        .await?
        .map(std::sync::Arc::new)
        .ok_or_else(|| not_found(id))
}

/// The server's clock: seconds since the Unix epoch.
pub fn now() -> i64 {
    time::OffsetDateTime::now_utc().unix_timestamp()
}
