//! `GET /v1/tournaments`: the tournaments, newest first, one page at a time (the
//! paging of `GET /v1/tables`: `before` is the previous page's `next_before`).

use actix_web::{HttpResponse, web};
use serde::{Deserialize, Serialize};
use time::OffsetDateTime;
use utoipa::{IntoParams, ToSchema};
use yaniv_domain::tournament::Phase as TournamentPhase;

use crate::app_state::AppState;
use crate::error::{ApiError, Problem};
use crate::http::auth::MaybeAuthenticated;
use crate::http::replica_lag;
use crate::tournaments::listing;

/// Tournaments per page unless `limit` says otherwise, and the most it may say.
pub const DEFAULT_LIMIT: u32 = 20;
pub const MAX_LIMIT: u32 = 100;

/// The phases a tournament goes through, as the projection stores them (the
/// domain's `Phase`).
pub const PHASES: [&str; 6] = [
    "setup",
    "registration_open",
    "registration_closed",
    "qualification",
    "knockout",
    "finished",
];

#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct TournamentListQuery {
    /// Only tournaments in this phase: `setup`, `registration_open`,
    /// `registration_closed`, `qualification`, `knockout` or `finished`.
    #[param(value_type = Option<TournamentPhase>)]
    pub phase: Option<String>,
    /// Only tournaments with an id below this one: the `next_before` of the previous
    /// page.
    pub before: Option<i64>,
    /// 1 to 100 (default 20).
    #[param(minimum = 1, maximum = 100)]
    pub limit: Option<u32>,
}

/// Who created a tournament (its first organizer).
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct TournamentCreator {
    #[schema(example = 42)]
    pub id: i64,
    #[schema(example = "olga")]
    pub username: String,
}

/// One tournament of the listing (`GET /v1/tournaments/{id}` has the rest).
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct TournamentListEntry {
    pub id: i64,
    #[schema(example = "Belgian championship 2026")]
    pub name: String,
    /// `setup`, `registration_open`, `registration_closed`, `qualification`,
    /// `knockout` or `finished`.
    #[schema(value_type = TournamentPhase, example = "qualification")]
    pub phase: String,
    /// The stream's version when listed.
    pub version: u64,
    pub created_by: TournamentCreator,
    #[serde(with = "time::serde::rfc3339")]
    #[schema(value_type = String, format = DateTime)]
    pub created_at: OffsetDateTime,
}

/// A page of tournaments.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct TournamentList {
    pub tournaments: Vec<TournamentListEntry>,
    /// Pass as `before` for the next page; `null` on the last page.
    pub next_before: Option<i64>,
}

/// Lists tournaments, newest first. Public: no token needed (a token sent must be
/// valid). With a replica configured, the page may be read from it while it is at most
/// `YANIV_REPLICA_MAX_LAG_MS` behind the primary; the answer then says how far in
/// `Replica-Lag-Ms`.
#[utoipa::path(
    get,
    path = "/v1/tournaments",
    tag = "tournaments",
    security((), ("bearer" = [])),
    params(TournamentListQuery),
    responses(
        (status = 200, description = "A page of tournaments", body = TournamentList),
        (status = 422, description = "Unknown phase or limit out of range (`validation_failed`)",
         body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn list(
    state: web::Data<AppState>,
    _auth: MaybeAuthenticated,
    query: web::Query<TournamentListQuery>,
) -> Result<HttpResponse, ApiError> {
    let phase = match query.phase.as_deref() {
        None => None,
        Some(phase) if PHASES.contains(&phase) => Some(phase),
        Some(_) => {
            return Err(ApiError::invalid_field(
                "phase",
                format!("must be one of {}", PHASES.join(", ")),
            ));
        }
    };
    let limit = query.limit.unwrap_or(DEFAULT_LIMIT);
    if !(1..=MAX_LIMIT).contains(&limit) {
        return Err(ApiError::invalid_field("limit", "must be 1 to 100"));
    }
    let (rows, served) = state
        .lag_tolerant
        .read(async |db| listing::list(db, phase, query.before, limit).await)
        .await?;
    // A full page may be followed by more; the next request tells.
    let next_before = (rows.len() == limit as usize)
        .then(|| rows.last().map(|r| r.id))
        .flatten();
    let tournaments = rows
        .into_iter()
        .map(|row| TournamentListEntry {
            id: row.id,
            name: row.name,
            phase: row.phase,
            version: u64::try_from(row.version).unwrap_or(0),
            created_by: TournamentCreator {
                id: row.created_by,
                username: row.created_by_username,
            },
            created_at: row.created_at,
        })
        .collect();
    let mut response = HttpResponse::Ok();
    replica_lag::mark(&mut response, served);
    Ok(response.json(TournamentList {
        tournaments,
        next_before,
    }))
}

#[cfg(test)]
mod tests {
    use yaniv_domain::tournament::Phase;

    use super::*;

    /// Every phase the domain has, by the name the projection stores.
    fn stored_name(phase: Phase) -> String {
        // Exhaustive on purpose: a new phase must be added to `PHASES` too.
        match phase {
            Phase::Setup
            | Phase::RegistrationOpen
            | Phase::RegistrationClosed
            | Phase::Qualification
            | Phase::Knockout
            | Phase::Finished => serde_json::to_value(phase)
                .ok()
                .and_then(|v| v.as_str().map(str::to_owned))
                .unwrap_or_default(),
        }
    }

    #[test]
    fn the_phase_filter_knows_every_phase() {
        let names: Vec<String> = [
            Phase::Setup,
            Phase::RegistrationOpen,
            Phase::RegistrationClosed,
            Phase::Qualification,
            Phase::Knockout,
            Phase::Finished,
        ]
        .into_iter()
        .map(stored_name)
        .collect();
        assert_eq!(names, PHASES);
    }
}
