//! Verifying a table's stream as stored (`POST /v1/tables/{id}/verify`): reads what the
//! checks need from the database (the stored events, the listing row, the linked
//! tournament, the checkpoints) and runs them ([`yaniv_verify::table`], where each
//! check is described).

use yaniv_verify::listing;
use yaniv_verify::row::last_version;
use yaniv_verify::table::{Verification, Witnesses, combine, replay, vouched_through};

use crate::app_state::AppState;
use crate::checkpoints;
use crate::error::ApiError;
use crate::store::RecordedEvent;

/// Verifies table `id`'s stored `events` (all of them, in order): chain, replay,
/// listing row and checkpoints.
pub async fn run(
    state: &AppState,
    id: i64,
    events: &[RecordedEvent],
) -> Result<Verification, ApiError> {
    let stream = crate::tables::stream_id(id);
    let chain = state.store.verify_stream(&stream).await?;
    let replayed = replay(id, events, vouched_through(&chain));
    let row = crate::tables::listing::row(state.store.pool(), id).await?;
    let table = match state.tables.load_fresh(id, None).await {
        Ok(table) => table,
        // The replay says why the stream does not fold.
        Err(ApiError::StreamCorrupt { .. } | ApiError::Unexpected { .. }) => None,
        Err(err) => return Err(err),
    };
    let folded = table.as_ref().map(|t| t.status().as_str().to_owned());
    let listing = listing::check(row.as_ref(), last_version(events), folded.as_deref());
    let links = super::table_links::check(state, id, table.as_ref(), last_version(events)).await?;
    let covered = checkpoints::covering(state.store.pool(), &stream).await?;
    let roots = super::checkpoint_roots::check(state, &stream, events, &covered).await?;
    let checkpoints = super::checkpoint_roots::with_roots(
        yaniv_verify::checkpoint::check_stream(&covered, events),
        roots,
    );
    Ok(combine(
        events.len() as u64,
        &chain,
        replayed,
        Witnesses {
            listing,
            links,
            checkpoints,
        },
    ))
}
