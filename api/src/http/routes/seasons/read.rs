//! The season's reads: the season with its standings, the standings alone (JSON or
//! CSV) and its events. The standings are computed from the members as they stand now
//! (`crate::seasons::standings`), so no answer is tagged with a version: a member that
//! finishes changes them without a season event.

use actix_web::{HttpRequest, HttpResponse, web};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use yaniv_domain::season::Event;

use crate::app_state::AppState;
use crate::error::{ApiError, Problem};
use crate::http::auth::MaybeAuthenticated;
use crate::http::routes::csv::{self, Csv};
use crate::http::routes::paging::EventsQuery;
use crate::seasons::standings::{self, SeasonMember, SeasonStandings, SeasonStandingsEntry};
use crate::seasons::{decode, stream_id};

/// A season, its members and its standings.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct SeasonView {
    pub id: i64,
    pub name: String,
    /// Points of places 1, 2, 3, ...; a place beyond earns 0.
    pub points: Vec<u32>,
    /// How many results count; `null`: all.
    pub best: Option<u32>,
    /// Who created it.
    pub organizer: Option<i64>,
    /// The season stream's version.
    pub version: u64,
    /// In the order they were added.
    pub tournaments: Vec<SeasonMember>,
    pub standings: Vec<SeasonStandingsEntry>,
}

/// The standings alone, and what they were computed from.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct SeasonStandingsResponse {
    pub id: i64,
    pub points: Vec<u32>,
    pub best: Option<u32>,
    /// The members that have finished, whose rankings the standings add up.
    pub counted_tournaments: Vec<i64>,
    pub standings: Vec<SeasonStandingsEntry>,
}

/// The season `id` and its standings now.
pub async fn load(
    state: &AppState,
    id: i64,
) -> Result<
    (
        std::sync::Arc<yaniv_domain::season::Season>,
        SeasonStandings,
    ),
    ApiError,
> {
    let season = state.seasons.read(id).await?;
    let standings = standings::of(&state.tournaments, id, &season).await?;
    Ok((season, standings))
}

/// The problems of a season read.
const NOT_FOUND: &str = "No such season (`not_found`)";

/// A season: its scale, count, members and standings. Public.
#[utoipa::path(
    get,
    path = "/v1/seasons/{id}",
    tag = "seasons",
    security((), ("bearer" = [])),
    params(("id" = i64, Path, description = "Season id")),
    responses(
        (status = 200, description = "The season", body = SeasonView),
        (status = 404, description = NOT_FOUND, body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn show(
    state: web::Data<AppState>,
    _auth: MaybeAuthenticated,
    path: web::Path<i64>,
) -> Result<HttpResponse, ApiError> {
    let id = path.into_inner();
    let (season, standings) = load(&state, id).await?;
    let named = standings.named(&state.db).await?;
    let scoring = season.scoring();
    Ok(HttpResponse::Ok().json(SeasonView {
        id,
        name: season.name().to_owned(),
        points: scoring.points.clone(),
        best: scoring.best,
        organizer: season.organizer(),
        version: yaniv_domain::aggregate::Aggregate::version(&*season),
        tournaments: standings.members,
        standings: named,
    }))
}

#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct StandingsQuery {
    /// `csv` or `json` (default: JSON, or CSV when `Accept` names `text/csv`).
    pub format: Option<String>,
}

/// The season's standings. Public. With `?format=csv` or `Accept: text/csv`, CSV: a
/// row per player, and for every counted tournament its place, points and whether the
/// result counts.
#[utoipa::path(
    get,
    path = "/v1/seasons/{id}/standings",
    tag = "seasons",
    security((), ("bearer" = [])),
    params(("id" = i64, Path, description = "Season id"), StandingsQuery),
    responses(
        (status = 200, description = "The standings", content(
            (SeasonStandingsResponse = "application/json"),
            (String = "text/csv"),
        )),
        (status = 404, description = NOT_FOUND, body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`format` is neither `csv` nor `json` (`validation_failed`)",
         body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn standings(
    state: web::Data<AppState>,
    _auth: MaybeAuthenticated,
    req: HttpRequest,
    path: web::Path<i64>,
    query: web::Query<StandingsQuery>,
) -> Result<HttpResponse, ApiError> {
    let id = path.into_inner();
    let as_csv = csv::wanted(&req, query.format.as_deref())?;
    let (season, standings) = load(&state, id).await?;
    let named = standings.named(&state.db).await?;
    let counted = standings.basis.tournaments.clone();
    if as_csv {
        return Ok(as_csv_document(&counted, &named).respond(&format!("season-{id}-standings.csv")));
    }
    let scoring = season.scoring();
    Ok(HttpResponse::Ok().json(SeasonStandingsResponse {
        id,
        points: scoring.points.clone(),
        best: scoring.best,
        counted_tournaments: counted,
        standings: named,
    }))
}

fn as_csv_document(tournaments: &[i64], rows: &[SeasonStandingsEntry]) -> Csv {
    let mut header = vec![
        "place".to_owned(),
        "player".to_owned(),
        "username".to_owned(),
        "total".to_owned(),
    ];
    for t in tournaments {
        header.extend([
            format!("t{t}_place"),
            format!("t{t}_points"),
            format!("t{t}_counted"),
        ]);
    }
    let header: Vec<&str> = header.iter().map(String::as_str).collect();
    let mut csv = Csv::with_header(&header);
    for row in rows {
        let mut fields = vec![
            row.place.to_string(),
            row.player.to_string(),
            row.username.clone().unwrap_or_default(),
            row.total.to_string(),
        ];
        for t in tournaments {
            match row.results.iter().find(|r| r.tournament == *t) {
                Some(r) => fields.extend([
                    r.place.to_string(),
                    r.points.to_string(),
                    if r.counted { "yes" } else { "no" }.to_owned(),
                ]),
                None => fields.extend([String::new(), String::new(), String::new()]),
            }
        }
        csv.row(fields.iter().map(String::as_str));
    }
    csv
}

/// One event of a season's stream.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct SeasonEvent {
    pub version: u64,
    /// `season_created.v1`, `season_tournament_added.v1`, ...
    #[serde(rename = "type")]
    pub event_type: String,
    pub payload: Event,
}

/// A page of a season's events.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct SeasonEventsPage {
    pub version: u64,
    pub events: Vec<SeasonEvent>,
    /// Pass as `after` for the next page.
    pub next_after: u64,
    pub has_more: bool,
}

/// The season's events after version `after`, as stored: who changed the scale or the
/// members, and when. Public.
#[utoipa::path(
    get,
    path = "/v1/seasons/{id}/events",
    tag = "seasons",
    security((), ("bearer" = [])),
    params(("id" = i64, Path, description = "Season id"), EventsQuery),
    responses(
        (status = 200, description = "A page of events", body = SeasonEventsPage),
        (status = 404, description = NOT_FOUND, body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`after` or `limit` out of range (`validation_failed`)",
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
    let page = state.seasons.read_page(id, after, limit).await?;
    let version = state.store.stream_version(&stream_id(id)).await?;
    if version == 0 {
        return Err(crate::seasons::repo::not_found(id));
    }
    state.seasons.check_page(id, after, &page)?;
    let events = page
        .iter()
        .map(|e| {
            let version = u64::try_from(e.version).unwrap_or(0);
            let payload = decode(&e.event_type, &e.payload)
                .map_err(|err| state.seasons.undecodable(id, version, err))?;
            Ok(SeasonEvent {
                version,
                event_type: e.event_type.clone(),
                payload,
            })
        })
        .collect::<Result<Vec<_>, ApiError>>()?;
    let next_after = events.last().map_or(after.min(version), |e| e.version);
    Ok(HttpResponse::Ok().json(SeasonEventsPage {
        version,
        has_more: next_after < version,
        next_after,
        events,
    }))
}
