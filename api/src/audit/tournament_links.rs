//! A tournament's links to its online games, read from the database and checked
//! ([`yaniv_verify::tournament::links`], where the check is described).

use yaniv_domain::tournament::{Event, State};
use yaniv_verify::report::{CheckReport, report};
use yaniv_verify::tournament::links::{Opened, finding, games_in_force};
use yaniv_verify::tournament::{LinkedGame, linked_table};

use crate::app_state::AppState;
use crate::error::ApiError;

/// Checks that no online game in force of tournament `id`, whose stream ends at
/// `stream_end`, is over without its result.
pub async fn check(
    app: &AppState,
    id: i64,
    events: &[Event],
    state: &State,
    stream_end: u64,
) -> Result<CheckReport, ApiError> {
    for (version, table, game) in games_in_force(events, state) {
        let Some(table_id) = linked_table(&game) else {
            continue;
        };
        let linked = load_linked(app, table_id).await?;
        let opened = Opened { version, table };
        if let Some(failure) = finding(id, opened, stream_end, &game, &linked) {
            return Ok(report(Some(failure)));
        }
    }
    Ok(report(None))
}

/// Reads the table a result names, from the database (never the cache: a
/// verification looks at what is stored).
pub async fn load_linked(state: &AppState, id: i64) -> Result<LinkedGame, ApiError> {
    match state.tables.load_fresh(id, None).await {
        Ok(Some(table)) => Ok(LinkedGame::Found(Box::new(table))),
        Ok(None) => Ok(LinkedGame::Missing),
        // A stream that cannot be folded is a finding about that game, not a failure
        // of this request; the database being down is.
        Err(ApiError::Unexpected { .. } | ApiError::StreamCorrupt { .. }) => {
            Ok(LinkedGame::Unreadable)
        }
        Err(err) => Err(err),
    }
}
