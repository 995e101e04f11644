//! Verifying a tournament's stored stream (`POST /v1/tournaments/{id}/verify`): reads
//! what the checks need from the database (the stored events, the listing row, the
//! games its results name, the checkpoints) and runs them
//! ([`yaniv_verify::tournament`], where each check is described).

use yaniv_domain::tournament::audit::OnlineGameResult;
use yaniv_verify::listing;
use yaniv_verify::report::{VerifyFailure, failure};
use yaniv_verify::row::last_version;
pub use yaniv_verify::tournament::{
    Decoded, GamesReport, LinkedGame, TournamentVerification, Witnesses, check_game, decode_all,
    fold, linked_table,
};

use super::tournament_links::load_linked;
use crate::app_state::AppState;
use crate::checkpoints;
use crate::error::ApiError;
use crate::store::RecordedEvent;

/// Every stored event of tournament `id`, in order.
pub async fn read_all(state: &AppState, id: i64) -> Result<Vec<RecordedEvent>, ApiError> {
    state.tournaments.read_all(id).await
}

/// Every stored event of tournament `id` and their decoding (404 for no such
/// tournament): what a verification or an archive starts from.
pub async fn read_decoded(
    state: &AppState,
    id: i64,
) -> Result<(Vec<RecordedEvent>, Decoded), ApiError> {
    let stored = read_all(state, id).await?;
    if stored.is_empty() {
        return Err(crate::tournaments::repo::not_found(id));
    }
    let decoded = decode_all(
        stored
            .iter()
            .map(|e| (e.event_type.as_str(), e.payload.as_str())),
    );
    Ok((stored, decoded))
}

/// The game table's own verification (its hash chain, its game replayed through the
/// rules, its listing row and checkpoints, as `POST /v1/tables/{id}/verify` does): a result is only as good as the
/// stored game behind it.
async fn check_game_stream(
    state: &AppState,
    version: u64,
    claimed: &OnlineGameResult,
    table: i64,
) -> Result<Option<VerifyFailure>, ApiError> {
    let events = state.tables.read_all(table).await?;
    // Quoted to whoever verifies the tournament: sealed like the table's own answer.
    let verdict = crate::audit::table::run(state, table, &events)
        .await?
        .sealed(crate::visibility::sealed_from_stored(&events), &events);
    Ok(verdict.first_failure.map(|inner| {
        failure(
            version,
            "game_stream_invalid",
            format!(
                "{}: {} fails its own verification at its version {}: {} ({})",
                claimed.table, claimed.game, inner.version, inner.code, inner.reason
            ),
        )
    }))
}

/// Checks every result that names one of this server's online games: the game
/// confirms the result, and its stored history verifies.
pub async fn check_games(
    state: &AppState,
    tournament_id: i64,
    online: &[(u64, OnlineGameResult)],
) -> Result<GamesReport, ApiError> {
    let mut checked = 0;
    for (version, claimed) in online {
        let Some(id) = linked_table(&claimed.game) else {
            continue;
        };
        checked += 1;
        let game = load_linked(state, id).await?;
        let found = check_game(tournament_id, *version, claimed, &game);
        let failure = match (found, &game) {
            (None, _) => check_game_stream(state, *version, claimed, id).await?,
            // Why the game cannot be read is what its own verification names.
            (Some(unreadable), LinkedGame::Unreadable) => {
                check_game_stream(state, *version, claimed, id)
                    .await?
                    .or(Some(unreadable))
            }
            (Some(failure), _) => Some(failure),
        };
        if let Some(failure) = failure {
            return Ok(GamesReport {
                ok: false,
                first_failure: Some(failure),
                checked,
            });
        }
    }
    Ok(GamesReport {
        ok: true,
        first_failure: None,
        checked,
    })
}

/// The listing row, links and checkpoints of tournament `id`, whose stored events
/// are `stored` (decoded: `decoded`).
pub async fn witnesses(
    state: &AppState,
    id: i64,
    stored: &[RecordedEvent],
    decoded: &Decoded,
) -> Result<Witnesses, ApiError> {
    let stream = crate::tournaments::stream_id(id);
    let row = crate::tournaments::listing::row(state.store.pool(), id).await?;
    let folded = match state.tournaments.load_fresh(id, None).await {
        Ok(tournament) => tournament.map(|t| crate::tournaments::repo::phase(&t)),
        // The domain check says why the stream does not fold.
        Err(ApiError::StreamCorrupt { .. } | ApiError::Unexpected { .. }) => None,
        Err(err) => return Err(err),
    };
    let listing = listing::check(row.as_ref(), last_version(stored), folded.as_deref());
    let links = super::tournament_links::check(
        state,
        id,
        &decoded.events,
        &fold(&decoded.events),
        last_version(stored),
    )
    .await?;
    let covered = checkpoints::covering(state.store.pool(), &stream).await?;
    let roots = super::checkpoint_roots::check(state, &stream, stored, &covered).await?;
    Ok(Witnesses {
        listing,
        links,
        checkpoints: super::checkpoint_roots::with_roots(
            yaniv_verify::checkpoint::check_stream(&covered, stored),
            roots,
        ),
    })
}
