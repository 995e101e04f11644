//! `GET /v1/tournaments/{id}/standings`: the qualification standings, as JSON or as
//! CSV, each row with the player's username and the points as decimals beside the
//! exact 840ths.

use actix_web::{HttpRequest, HttpResponse, web};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use super::read::{AsOfQuery, ReadProblems, load_as_of};
use super::with_etag;
use crate::app_state::AppState;
use crate::error::ApiError;
use crate::http::auth::MaybeAuthenticated;
use crate::http::routes::csv::{self, Csv};
pub use crate::tournaments::named::StandingsEntry;
use crate::tournaments::named::standings_of;

#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct StandingsQuery {
    /// Fold only the first `as_of` events (1 to the tournament's version; all by
    /// default): the standings as they were at that version.
    #[param(minimum = 1)]
    pub as_of: Option<u64>,
    /// `json` (the default). `csv` (or `Accept: text/csv`) still answers the document of
    /// `GET /v1/tournaments/{id}/standings.csv`, which is the operation to use for it.
    pub format: Option<String>,
}

/// The qualification standings.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct StandingsResponse {
    pub id: i64,
    /// The version read: the tournament's version, or `as_of` when given.
    pub version: u64,
    /// Best first; complete ties share a place.
    pub standings: Vec<StandingsEntry>,
}

/// The columns of the CSV, in order.
const COLUMNS: [&str; 12] = [
    "place",
    "player",
    "username",
    "games",
    "absences",
    "wins",
    "table_points",
    "score_difference",
    "table_points_840ths",
    "score_difference_840ths",
    "registration",
    "withdrawn",
];

/// The qualification standings now, computed from the results in force, as JSON. The
/// same as CSV: `GET /v1/tournaments/{id}/standings.csv`.
#[utoipa::path(
    get,
    path = "/v1/tournaments/{id}/standings",
    tag = "tournaments",
    security((), ("bearer" = [])),
    params(("id" = i64, Path, description = "Tournament id"), StandingsQuery),
    responses(
        (status = 200, description = "The standings", body = StandingsResponse),
        ReadProblems,
    )
)]
pub async fn standings(
    state: web::Data<AppState>,
    _auth: MaybeAuthenticated,
    req: HttpRequest,
    path: web::Path<i64>,
    query: web::Query<StandingsQuery>,
) -> Result<HttpResponse, ApiError> {
    let as_csv = csv::wanted(&req, query.format.as_deref())?;
    answer(&state, path.into_inner(), query.as_of, as_csv).await
}

/// The qualification standings as CSV for a spreadsheet: one row per player, the
/// columns of the JSON, points as decimals and in 840ths.
#[utoipa::path(
    get,
    path = "/v1/tournaments/{id}/standings.csv",
    tag = "tournaments",
    security((), ("bearer" = [])),
    params(("id" = i64, Path, description = "Tournament id"), AsOfQuery),
    responses(
        (status = 200, description = "The standings, RFC 4180 CSV with a header row",
         body = String, content_type = "text/csv"),
        ReadProblems,
    )
)]
pub async fn standings_csv(
    state: web::Data<AppState>,
    _auth: MaybeAuthenticated,
    path: web::Path<i64>,
    query: web::Query<AsOfQuery>,
) -> Result<HttpResponse, ApiError> {
    answer(&state, path.into_inner(), query.as_of, true).await
}

async fn answer(
    state: &AppState,
    id: i64,
    as_of: Option<u64>,
    as_csv: bool,
) -> Result<HttpResponse, ApiError> {
    let tournament = load_as_of(state, id, as_of).await?;
    let version = tournament.version();
    let entries = standings_of(&state.db, &tournament).await?;
    let response = if as_csv {
        as_csv_document(&entries).respond(&format!("tournament-{id}-standings-v{version}.csv"))
    } else {
        HttpResponse::Ok().json(StandingsResponse {
            id,
            version,
            standings: entries,
        })
    };
    Ok(with_etag(response, version))
}

fn as_csv_document(entries: &[StandingsEntry]) -> Csv {
    let mut csv = Csv::with_header(&COLUMNS);
    for entry in entries {
        let stats = &entry.row.stats;
        let fields = [
            entry.row.place.to_string(),
            stats.player.to_string(),
            entry.username.clone().unwrap_or_default(),
            stats.games.to_string(),
            stats.absences.to_string(),
            stats.wins.to_string(),
            entry.table_points_decimal.clone(),
            entry.score_difference_decimal.clone(),
            stats.table_points.0.to_string(),
            stats.score_difference.0.to_string(),
            stats.registration.to_string(),
            entry.row.withdrawn.to_string(),
        ];
        csv.row(fields.iter().map(String::as_str));
    }
    csv
}
