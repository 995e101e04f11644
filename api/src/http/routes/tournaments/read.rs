//! The public reads of a tournament: `GET /v1/tournaments/{id}` and its `stages`,
//! `interventions` and `events` (the `standings`, `results` and `ranking`, which also
//! answer CSV, have files of their own). Anyone may read them, without a
//! token: nothing in a tournament's stream is secret (a draw's seed is revealed in
//! its own event, see `docs/tournaments.md`). A token that is sent must be valid.
//!
//! The first four take `?as_of=N`: the tournament folded from its first `N` events,
//! read from the database (the fold cache only knows the head), so that anyone can
//! replay it to any point, such as the standings before a correction.

use actix_web::{HttpResponse, web};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

use utoipa::openapi::{RefOr, Response};
use utoipa::{IntoParams, IntoResponses, ToSchema};
use yaniv_domain::tournament::{Intervention, StageView, Tournament};

use super::{TournamentEvent, TournamentSummary, with_etag};
use crate::app_state::AppState;
use crate::error::{ApiError, Problem};
use crate::http::auth::MaybeAuthenticated;
use crate::http::routes::paging::EventsQuery;
use crate::http::routes::problems::problem_response;
pub use crate::tournaments::named::usernames_of;
use crate::tournaments::{decode, repo, stream_id};

#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct AsOfQuery {
    /// Fold only the first `as_of` events (1 to the tournament's version; all by
    /// default): the tournament as it was at that version.
    #[param(minimum = 1)]
    pub as_of: Option<u64>,
}

/// Tournament `id` after its first `as_of` events (see [`repo::load_as_of`]).
pub(crate) async fn load_as_of(
    state: &AppState,
    id: i64,
    as_of: Option<u64>,
) -> Result<std::sync::Arc<Tournament>, ApiError> {
    repo::load_as_of(&state.tournaments, id, as_of).await
}

/// The JSON `body` makes of tournament `id` (at `as_of`), tagged with its version.
pub(super) async fn read_as_of<T: Serialize>(
    state: &AppState,
    id: i64,
    as_of: Option<u64>,
    body: impl FnOnce(&Tournament) -> Result<T, ApiError>,
) -> Result<HttpResponse, ApiError> {
    let tournament = load_as_of(state, id, as_of).await?;
    Ok(with_etag(
        HttpResponse::Ok().json(body(&tournament)?),
        tournament.version(),
    ))
}

/// The problems every `as_of` read can answer.
#[derive(Debug)]
pub struct ReadProblems;

impl IntoResponses for ReadProblems {
    fn responses() -> BTreeMap<String, RefOr<Response>> {
        [
            (
                "401",
                "A token was sent but is unknown, expired or revoked (`invalid_token`)",
            ),
            ("404", "No such tournament (`not_found`)"),
            (
                "422",
                "`as_of` is 0 or beyond the tournament's version (`validation_failed`)",
            ),
        ]
        .into_iter()
        .map(|(status, description)| (status.to_owned(), RefOr::T(problem_response(description))))
        .collect()
    }
}

/// The tournament at a glance.
#[utoipa::path(
    get,
    path = "/v1/tournaments/{id}",
    tag = "tournaments",
    security((), ("bearer" = [])),
    params(("id" = i64, Path, description = "Tournament id"), AsOfQuery),
    responses(
        (status = 200, description = "The tournament", body = TournamentSummary,
         headers(("ETag" = String, description = "The tournament's version, quoted"))),
        ReadProblems,
    )
)]
pub async fn show(
    state: web::Data<AppState>,
    _auth: MaybeAuthenticated,
    path: web::Path<i64>,
    query: web::Query<AsOfQuery>,
) -> Result<HttpResponse, ApiError> {
    let id = path.into_inner();
    read_as_of(&state, id, query.as_of, |t| TournamentSummary::of(id, t)).await
}

/// The bracket.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct StagesResponse {
    pub id: i64,
    /// The version read: the tournament's version, or `as_of` when given.
    pub version: u64,
    /// Every stage begun: its kind, rounds, tables with their players in seat order and
    /// results, byes, no-shows, who goes through.
    pub stages: Vec<StageView>,
    /// The username of every account the stages name, by account id (a JSON key, so a
    /// string: `"42"`; `null` for an account that is gone).
    #[schema(value_type = BTreeMap<String, Option<String>>)]
    pub usernames: BTreeMap<i64, Option<String>>,
}

/// The stages, rounds and tables so far, with their results.
#[utoipa::path(
    get,
    path = "/v1/tournaments/{id}/stages",
    tag = "tournaments",
    security((), ("bearer" = [])),
    params(("id" = i64, Path, description = "Tournament id"), AsOfQuery),
    responses(
        (status = 200, description = "The bracket", body = StagesResponse),
        ReadProblems,
    )
)]
pub async fn stages(
    state: web::Data<AppState>,
    _auth: MaybeAuthenticated,
    path: web::Path<i64>,
    query: web::Query<AsOfQuery>,
) -> Result<HttpResponse, ApiError> {
    let id = path.into_inner();
    let tournament = load_as_of(&state, id, query.as_of).await?;
    let stages = tournament.stages();
    let named = stages.iter().flat_map(|s| {
        s.dropped.iter().chain(s.rounds.iter().flat_map(|r| {
            r.seeds
                .iter()
                .chain(&r.byes)
                .chain(r.tables.iter().flat_map(|t| &t.players))
        }))
    });
    let usernames = usernames_of(&state.db, named.copied()).await?;
    let body = StagesResponse {
        id,
        version: tournament.version(),
        stages,
        usernames,
    };
    Ok(with_etag(
        HttpResponse::Ok().json(body),
        tournament.version(),
    ))
}

/// What officials did by hand to the results.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct InterventionsResponse {
    pub id: i64,
    /// The version read.
    pub version: u64,
    /// Oldest first.
    pub interventions: Vec<Intervention>,
}

/// Every result entered, corrected or voided by a person, and every disqualification,
/// with who did it, why and at which version: the list a reviewer goes through.
/// Results that online games reported themselves are not in it; a result typed in for
/// a table that had an online game is, marked `online`.
#[utoipa::path(
    get,
    path = "/v1/tournaments/{id}/interventions",
    tag = "tournaments",
    security((), ("bearer" = [])),
    params(("id" = i64, Path, description = "Tournament id"), AsOfQuery),
    responses(
        (status = 200, description = "The interventions", body = InterventionsResponse),
        ReadProblems,
    )
)]
pub async fn interventions(
    state: web::Data<AppState>,
    _auth: MaybeAuthenticated,
    path: web::Path<i64>,
    query: web::Query<AsOfQuery>,
) -> Result<HttpResponse, ApiError> {
    let id = path.into_inner();
    read_as_of(&state, id, query.as_of, |t| {
        Ok(InterventionsResponse {
            id,
            version: t.version(),
            interventions: t.interventions(),
        })
    })
    .await
}

/// A page of a tournament's events.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct TournamentEventsPage {
    /// The tournament's version now.
    pub version: u64,
    pub events: Vec<TournamentEvent>,
    /// Pass as `after` for the next page.
    pub next_after: u64,
    /// More events follow this page.
    pub has_more: bool,
}

/// The events of a tournament after version `after`, as stored.
#[utoipa::path(
    get,
    path = "/v1/tournaments/{id}/events",
    tag = "tournaments",
    security((), ("bearer" = [])),
    params(("id" = i64, Path, description = "Tournament id"), EventsQuery),
    responses(
        (status = 200, description = "A page of events", body = TournamentEventsPage),
        (status = 404, description = "No such tournament (`not_found`)",
         body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`limit` out of range (`validation_failed`)",
         body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn events(
    state: web::Data<AppState>,
    _auth: MaybeAuthenticated,
    path: web::Path<i64>,
    query: web::Query<EventsQuery>,
) -> Result<HttpResponse, ApiError> {
    let (after, limit) = query.bounds()?;
    let id = path.into_inner();
    let page = state.tournaments.read_page(id, after, limit).await?;
    // The head is read after the page, so it is never behind the page's last event;
    // it costs one index lookup instead of folding the stream.
    let version = state.store.stream_version(&stream_id(id)).await?;
    if version == 0 {
        return Err(repo::not_found(id));
    }
    // A changed, missing or unreadable event is a broken stream: the page names it
    // (and `POST .../verify` examines it) rather than serve what was not written.
    state.tournaments.check_page(id, after, &page)?;
    let events = page
        .iter()
        .map(|e| {
            let version = u64::try_from(e.version).unwrap_or(0);
            let payload = decode(&e.event_type, &e.payload)
                .map_err(|err| state.tournaments.undecodable(id, version, err))?;
            Ok(TournamentEvent {
                version,
                event_type: e.event_type.clone(),
                payload,
            })
        })
        .collect::<Result<Vec<TournamentEvent>, ApiError>>()?;
    let next_after = events.last().map_or(after.min(version), |e| e.version);
    Ok(with_etag(
        HttpResponse::Ok().json(TournamentEventsPage {
            version,
            has_more: next_after < version,
            next_after,
            events,
        }),
        version,
    ))
}
