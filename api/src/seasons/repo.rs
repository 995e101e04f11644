//! Seasons in the one stream repository ([`crate::streams`]): the `seasons` row is the
//! lock writers queue on and the listing's projection; [`SeasonWrite`] decides a
//! command after the checks only the server can make (the tournament added exists and
//! is not a final seeded by this very season).

use serde::Serialize;
use serde_json::Value;
use sqlx::PgConnection;
use time::OffsetDateTime;
use yaniv_domain::aggregate::Aggregate;
use yaniv_domain::season::{Command, Event, Season};
use yaniv_domain::tournament::Seeding;

use super::refusal;
use crate::auth::accounts::Account;
use crate::error::{ApiError, Reason};
use crate::streams::fold_cache::Versioned;
use crate::streams::{Mutation, Repository, StreamKind, Write, Written, json_answer};
use crate::tournaments::repo::Tournaments;

/// Seasons kept folded per process: a season is a few events.
pub const CACHE_CAPACITY: usize = 256;
pub const CACHE_BYTES: usize = 4 * 1024 * 1024;

/// The seasons' repository.
pub type Seasons = Repository<Season>;

/// 404 for season `id`.
pub fn not_found(id: i64) -> ApiError {
    Seasons::not_found(id)
}

impl Versioned for Season {
    fn version(&self) -> u64 {
        Aggregate::version(self)
    }

    fn approx_bytes(&self) -> usize {
        std::mem::size_of::<Season>()
            + self.members().len() * 8
            + self.scoring().points.len() * 4
            + self.name().len()
    }
}

fn version_of(season: &Season) -> i64 {
    i64::try_from(Aggregate::version(season)).unwrap_or(i64::MAX)
}

impl StreamKind for Season {
    type Extension = ();
    const NAME: &'static str = "season";

    async fn lock(conn: &mut PgConnection, id: i64) -> Result<bool, ApiError> {
        let row: Option<i64> =
            sqlx::query_scalar("SELECT version FROM seasons WHERE id = $1 FOR UPDATE")
                .bind(id)
                .fetch_optional(conn)
                .await?;
        Ok(row.is_some())
    }

    async fn insert(
        conn: &mut PgConnection,
        created_by: i64,
        season: &Season,
    ) -> Result<i64, ApiError> {
        let id = sqlx::query_scalar(
            "INSERT INTO seasons (created_by, name, version) VALUES ($1, $2, $3) RETURNING id",
        )
        .bind(created_by)
        .bind(season.name())
        .bind(version_of(season))
        .fetch_one(conn)
        .await?;
        Ok(id)
    }

    async fn project(conn: &mut PgConnection, id: i64, season: &Season) -> Result<(), ApiError> {
        sqlx::query(
            "UPDATE seasons SET name = $2, version = $3, updated_at = now() \
             WHERE id = $1 AND version < $3",
        )
        .bind(id)
        .bind(season.name())
        .bind(version_of(season))
        .execute(conn)
        .await?;
        Ok(())
    }
}

/// A season command's answer: the season's id and version after it, and the events.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct SeasonWritten {
    pub id: i64,
    pub version: u64,
    pub events: Vec<Event>,
}

/// Creates a season by `command`, decided as `account`.
pub async fn create(
    seasons: &Seasons,
    mutation: Mutation<'_>,
    command: &Command,
) -> Result<Written, ApiError> {
    let mut ctx = crate::tournaments::context(mutation.account, now());
    let create = || Season::create(0, command, &mut ctx).map_err(|e| refusal(&e));
    let answer = |id, season: &Season| {
        json_answer(&SeasonWritten {
            id,
            version: Aggregate::version(season),
            events: Vec::new(),
        })
    };
    seasons.create(mutation, create, answer).await
}

/// A command an account sends a season.
#[derive(Debug)]
pub struct SeasonWrite<'t> {
    pub account: Account,
    pub command: Command,
    /// To look at a tournament being added.
    pub tournaments: &'t Tournaments,
}

impl Write<Season> for SeasonWrite<'_> {
    async fn execute(
        &mut self,
        _conn: &mut PgConnection,
        id: i64,
        season: &mut Season,
    ) -> Result<Vec<Event>, ApiError> {
        let mut ctx = crate::tournaments::context(&self.account, now());
        // Whether the caller may change the season comes first: before it, any account
        // could learn from the answer whether a tournament exists.
        if !season.may_change(&ctx) {
            return Err(refusal(&yaniv_domain::season::SeasonError::Forbidden));
        }
        if let Command::AddTournament { tournament } = &self.command {
            check_member(self.tournaments, id, *tournament).await?;
        }
        season
            .execute(&self.command, &mut ctx)
            .map_err(|e| refusal(&e))
    }

    fn answer(
        &self,
        id: i64,
        season: &Season,
        events: &[Event],
        _before: u64,
    ) -> Result<Value, ApiError> {
        json_answer(&SeasonWritten {
            id,
            version: Aggregate::version(season),
            events: events.to_vec(),
        })
    }
}

/// A tournament may join season `season` if it exists and is not a final seeded by it.
async fn check_member(
    tournaments: &Tournaments,
    season: i64,
    tournament: i64,
) -> Result<(), ApiError> {
    let found = match tournaments.read(tournament).await {
        Ok(found) => found,
        Err(ApiError::NotFound(_)) => {
            return Err(ApiError::Refused {
                reason: Reason::Invalid,
                code: "unknown_tournament",
                title: "Refused by the season",
                detail: format!("tournament: no tournament with id {tournament}"),
            });
        }
        Err(other) => return Err(other),
    };
    if is_final_of(&found, season) {
        return Err(final_in_its_season(tournament, season));
    }
    Ok(())
}

/// Whether `tournament` is seeded by season `season`.
pub fn is_final_of(tournament: &yaniv_domain::tournament::Tournament, season: i64) -> bool {
    tournament
        .state()
        .config
        .as_ref()
        .is_some_and(|c| c.seeding == Seeding::Season && c.season == Some(season))
}

/// A season's final is never one of its members: its own ranking would seed it.
pub fn final_in_its_season(tournament: i64, season: i64) -> ApiError {
    ApiError::Refused {
        reason: Reason::NotNow,
        code: "final_in_its_season",
        title: "Refused by the season",
        detail: format!(
            "tournament {tournament} is seeded by season {season}, so it cannot be one of \
             that season's tournaments"
        ),
    }
}

/// The server's clock: seconds since the Unix epoch.
pub fn now() -> i64 {
    OffsetDateTime::now_utc().unix_timestamp()
}
