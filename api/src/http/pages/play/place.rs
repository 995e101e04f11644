//! Where a game table is played in its tournament, for the heading of its page: the
//! tournament, the stage, the round and the table number as the seating shows them.

use yaniv_domain::tournament::StageKind;

use crate::app_state::AppState;
use crate::http::pages::lang::Lang;
use crate::http::pages::text;
use crate::http::pages::tournament::load;
use crate::tables::{listing, stream_id};

/// A tournament table, named as its tournament's pages name it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Placed {
    pub tournament: i64,
    pub name: String,
    pub stage: StageKind,
    pub final_table: bool,
    pub round: u32,
    /// The table's number in its round, from 1.
    pub table: usize,
}

impl Placed {
    /// "Qualification · Round 2" (or "Final table").
    pub fn round_name(&self, lang: Lang) -> String {
        if self.final_table {
            return text::FINAL_TABLE.get(lang).to_owned();
        }
        let stage = match self.stage {
            StageKind::Qualification => text::QUALIFICATION.get(lang),
            StageKind::Knockout => text::KNOCKOUT.get(lang),
        };
        format!("{stage} · {} {}", text::ROUND.get(lang), self.round)
    }
}

/// Where game table `id` is played, when a tournament's draw created it. A table
/// outside tournaments, or a tournament that cannot be read now, has no place: the
/// page then names the table by its id alone.
pub async fn place_of(state: &AppState, id: i64) -> Option<Placed> {
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
                stage,
                final_table: round.draw.final_table,
                round: round.draw.round,
                table: table + 1,
            })
        })
}
