//! The server's draw seeds (TOURNAMENT.md "Fairness and audit": every random choice
//! comes from a seed committed before use and revealed after).
//!
//! The server, not the organizer, chooses every draw's seed, and publishes its SHA-256
//! (`draw_seed_committed.v1`) before anything that could steer it exists:
//!
//! - round 1's seed when the tournament is created, before anyone registers;
//! - each later draw's seed in the same append as the draw before it, before that
//!   round has any result (after a final table drawn on paper too: it may be redrawn
//!   until it begins).
//!
//! Until its draw reveals it, a seed exists only in `tournament_draw_seeds` (migration
//! `0005`), written in the transaction of its commitment; the domain refuses a draw
//! whose seed does not hash to the published commitment, so the seed cannot be
//! swapped afterwards. [`commit_if_due`] is called after every change to a tournament;
//! [`reveal`] fetches the seed the next draw must use.

use sqlx::PgConnection;
use yaniv_domain::shuffle::{Commitment, Seed};
use yaniv_domain::tournament::{Command, Context, Event, Tournament};

use super::refusal;
use crate::error::ApiError;
use crate::tables::os_random::fresh_seed;

/// Whether `tournament` needs the commitment of its next draw's seed: it exists, is not
/// over, has none pending, and can still draw: its final table is not drawn, or is drawn
/// but not begun (so it can be redrawn, which needs a committed seed too).
pub fn commitment_due(tournament: &Tournament) -> bool {
    let s = tournament.state();
    s.info.is_some()
        && s.finished.is_none()
        && s.pending_commitment.is_none()
        && s.final_round().is_none_or(|round| !round.has_started())
}

/// When [`commitment_due`], generates a secret seed, stores it for tournament `id`, and
/// returns the server's commitment event for it (to append after the events already
/// decided, which `tournament` includes).
pub async fn commit_if_due(
    conn: &mut PgConnection,
    id: i64,
    tournament: &Tournament,
    now: i64,
) -> Result<Option<Event>, ApiError> {
    if !commitment_due(tournament) {
        return Ok(None);
    }
    let seed = fresh_seed()?;
    let commitment = seed.commitment();
    let mut events = tournament
        .decide(
            &Context::server(now),
            &Command::CommitDrawSeed { commitment },
        )
        .map_err(|e| refusal(&e))?;
    sqlx::query(
        "INSERT INTO tournament_draw_seeds (tournament_id, commitment, seed) VALUES ($1, $2, $3)",
    )
    .bind(id)
    .bind(&commitment.0[..])
    .bind(&seed.0[..])
    .execute(&mut *conn)
    .await?;
    Ok(events.pop())
}

/// The secret seed behind `commitment` for tournament `id`, marked revealed (the caller
/// is about to publish it in a draw, in the same transaction).
pub async fn reveal(
    conn: &mut PgConnection,
    id: i64,
    commitment: &Commitment,
) -> Result<Option<Seed>, ApiError> {
    let row: Option<Vec<u8>> = sqlx::query_scalar(
        "UPDATE tournament_draw_seeds SET revealed_at = coalesce(revealed_at, now()) \
         WHERE tournament_id = $1 AND commitment = $2 RETURNING seed",
    )
    .bind(id)
    .bind(&commitment.0[..])
    .fetch_optional(&mut *conn)
    .await?;
    Ok(row.and_then(|bytes| <[u8; 32]>::try_from(bytes.as_slice()).ok().map(Seed)))
}

/// Whether the server holds the seed behind `commitment` for tournament `id` (it does
/// for every commitment it made).
pub async fn held(
    conn: &mut PgConnection,
    id: i64,
    commitment: &Commitment,
) -> Result<bool, ApiError> {
    let found: Option<i32> = sqlx::query_scalar(
        "SELECT 1 FROM tournament_draw_seeds WHERE tournament_id = $1 AND commitment = $2",
    )
    .bind(id)
    .bind(&commitment.0[..])
    .fetch_optional(&mut *conn)
    .await?;
    Ok(found.is_some())
}
