//! Where a game table is played in its tournament, for the heading of its page: the
//! tournament, the stage, the round and the table number as the seating shows them.

use crate::app_state::AppState;
use crate::http::pages::lang::Lang;
use crate::http::pages::tournament::{load, round_title};
use crate::tables::{listing, stream_id};

/// A tournament table, named as its tournament's pages name it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Placed {
    pub tournament: i64,
    pub name: String,
    /// "Qualification · Round 2" (or "Final table"), in the page's language.
    pub round: String,
    /// The table's number in its round, from 1.
    pub table: usize,
}

/// Where game table `id` is played, when a tournament's draw created it. A table
/// outside tournaments, or a tournament that cannot be read now, has no place: the
/// page then names the table by its id alone.
pub async fn place_of(state: &AppState, id: i64, lang: Lang) -> Option<Placed> {
    let tournament = match listing::tournament_of(&state.db, id).await {
        Ok(found) => found?,
        Err(error) => {
            tracing::warn!(%error, table = id, "the play page could not find the table's tournament");
            return None;
        }
    };
    let loaded = load(state, tournament).await.ok()?;
    let game = stream_id(id);
    loaded
        .tournament
        .state()
        .stages
        .iter()
        .flat_map(|stage| stage.rounds.iter().map(move |round| (stage.kind, round)))
        .find_map(|(stage, round)| {
            let table = round
                .tables
                .iter()
                .position(|t| t.game.as_deref() == Some(game.as_str()))?;
            Some(Placed {
                tournament,
                name: loaded.view.name.clone(),
                round: round_title(stage, round, lang),
                table: table + 1,
            })
        })
}
