//! A season's standings as the API, the pages and a final's seeding read them: the
//! season folded, each member read through the tournaments' repository (their folds
//! are cached), and the domain's `yaniv-season/1` over the finished ones.

use std::sync::Arc;

use serde::Serialize;
use sqlx::PgPool;
use utoipa::ToSchema;
use yaniv_domain::season::{FinishedMember, Season, SeasonResult, StandingsRow, standings};
use yaniv_domain::tournament::{AccountId, SeasonBasis, Tournament};

use crate::auth::accounts::usernames;
use crate::error::ApiError;
use crate::tournaments::repo::{Tournaments, phase};

/// A member tournament as the season shows it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct SeasonMember {
    pub tournament: i64,
    pub name: String,
    /// The tournament's phase (`setup` ... `finished`).
    pub phase: String,
    /// Whether its ranking counts yet: only a finished tournament's does.
    pub counts: bool,
}

/// A line of the standings, with the player's username.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct SeasonStandingsEntry {
    /// From 1, shared by players equal on total and countback.
    pub place: u32,
    pub player: AccountId,
    pub username: Option<String>,
    pub total: u64,
    /// One per finished member the player is ranked in, in the season's order.
    pub results: Vec<SeasonResult>,
}

/// The season's members and standings at one moment.
#[derive(Debug, Clone)]
pub struct SeasonStandings {
    pub members: Vec<SeasonMember>,
    pub rows: Vec<StandingsRow>,
    /// What a final seeded now would record.
    pub basis: SeasonBasis,
}

impl SeasonStandings {
    /// The players best first: the order a final takes.
    pub fn best_first(&self) -> Vec<AccountId> {
        self.rows.iter().map(|r| r.player).collect()
    }

    /// The rows with their usernames.
    pub async fn named(&self, db: &PgPool) -> Result<Vec<SeasonStandingsEntry>, ApiError> {
        let ids: Vec<i64> = self.rows.iter().map(|r| r.player).collect();
        let mut conn = db.acquire().await?;
        let names = usernames(&mut conn, &ids).await?;
        Ok(self
            .rows
            .iter()
            .zip(names)
            .map(|(row, username)| SeasonStandingsEntry {
                place: row.place,
                player: row.player,
                username,
                total: row.total,
                results: row.results.clone(),
            })
            .collect())
    }
}

/// The standings of season `id` as its members stand now.
pub async fn of(
    tournaments: &Tournaments,
    id: i64,
    season: &Season,
) -> Result<SeasonStandings, ApiError> {
    let mut read: Vec<(i64, Arc<Tournament>)> = Vec::with_capacity(season.members().len());
    for &member in season.members() {
        read.push((member, tournaments.read(member).await?));
    }
    let mut members = Vec::with_capacity(read.len());
    let mut finished = Vec::new();
    for (member, tournament) in &read {
        let state = tournament.state();
        members.push(SeasonMember {
            tournament: *member,
            name: tournament.view().map(|v| v.name).unwrap_or_default(),
            phase: phase(tournament),
            counts: state.finished.is_some(),
        });
        if let Some(done) = &state.finished {
            finished.push(FinishedMember {
                tournament: *member,
                ranking: &done.ranking,
            });
        }
    }
    let scoring = season.scoring();
    let rows = standings(scoring, &finished);
    let basis = SeasonBasis {
        season: id,
        points: scoring.points.clone(),
        best: scoring.best,
        tournaments: finished.iter().map(|m| m.tournament).collect(),
    };
    Ok(SeasonStandings {
        members,
        rows,
        basis,
    })
}
