//! A tournament's game table against its tournament: the game's last action records
//! its result in the tournament in the same transaction, so a finished game that is
//! still the tournament table's game in force must find its result there. When it
//! does not, the result event was deleted (`missing_result`), which neither stream's
//! chain nor rules can tell. The tournament's own verification checks the same link
//! from its end ([`crate::audit::tournament_links`]).

use yaniv_domain::table::Table;

use crate::app_state::AppState;
use crate::error::ApiError;
use yaniv_verify::report::{CheckReport, VerifyFailure};

fn agreeing() -> CheckReport {
    CheckReport {
        ok: true,
        first_failure: None,
    }
}

/// Checks table `id` (folded: `table`, `None` when it does not fold), whose last
/// stored event is `version`, against the tournament that opened it, if any.
pub async fn check(
    state: &AppState,
    id: i64,
    table: Option<&Table>,
    version: u64,
) -> Result<CheckReport, ApiError> {
    let Some(table) = table else {
        return Ok(agreeing());
    };
    let Some(link) = table.created.tournament else {
        return Ok(agreeing());
    };
    if !table.game.is_finished() {
        return Ok(agreeing());
    }
    let tournament = match state.tournaments.load_fresh(link.tournament_id, None).await {
        Ok(tournament) => tournament,
        // Its own verification says why it does not read.
        Err(ApiError::StreamCorrupt { .. } | ApiError::Unexpected { .. }) => return Ok(agreeing()),
        Err(err) => return Err(err),
    };
    let stream = crate::tables::stream_id(id);
    let waiting = tournament
        .as_ref()
        .and_then(|t| t.state().table(link.table))
        .is_some_and(|t| t.game.as_deref() == Some(stream.as_str()) && t.result.is_none());
    if !waiting {
        return Ok(agreeing());
    }
    Ok(CheckReport {
        ok: false,
        first_failure: Some(VerifyFailure {
            version,
            code: "missing_result".to_owned(),
            reason: format!(
                "the game is over and is still the game of {} in tournament {}, which has \
                 no result for it: the result event was deleted",
                link.table, link.tournament_id
            ),
        }),
    })
}
