//! `GET /v1/tournaments/{id}/results`: every table's result in force, one line per
//! player (no-shows included), with usernames and points as decimals; as JSON or CSV,
//! for the whole tournament or one round.

use actix_web::{HttpRequest, HttpResponse, web};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use yaniv_domain::tournament::{ResultLine, RoundRef};

use super::read::{ReadProblems, load_as_of};
use super::with_etag;
use crate::app_state::AppState;
use crate::auth::accounts::usernames;
use crate::error::ApiError;
use crate::http::auth::MaybeAuthenticated;
use crate::http::routes::csv::{self, Csv};

#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct ResultsQuery {
    /// Fold only the first `as_of` events: the results as they stood at that version.
    #[param(minimum = 1)]
    pub as_of: Option<u64>,
    /// With `round`: only that round of that stage.
    #[param(minimum = 1)]
    pub stage: Option<u32>,
    #[param(minimum = 1)]
    pub round: Option<u32>,
    /// `json` (the default). `csv` (or `Accept: text/csv`) still answers the document of
    /// `GET /v1/tournaments/{id}/results.csv`, which is the operation to use for it.
    pub format: Option<String>,
}

/// The query of `results.csv`: the JSON's, without a format.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct ResultsCsvQuery {
    /// Fold only the first `as_of` events: the results as they stood at that version.
    #[param(minimum = 1)]
    pub as_of: Option<u64>,
    /// With `round`: only that round of that stage.
    #[param(minimum = 1)]
    pub stage: Option<u32>,
    #[param(minimum = 1)]
    pub round: Option<u32>,
}

/// One player's line at one table, named.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ResultEntry {
    #[serde(flatten)]
    pub line: ResultLine,
    /// The account's username (`null` if the account is gone).
    pub username: Option<String>,
    /// `table_points` in points, to hundredths, for display (`null` for a no-show).
    #[schema(example = "66.67")]
    pub table_points_decimal: Option<String>,
    /// `score_difference` in points, to hundredths (`null` for a no-show).
    #[schema(example = "-12.25")]
    pub score_difference_decimal: Option<String>,
}

/// The results.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ResultsResponse {
    pub id: i64,
    /// The version read.
    pub version: u64,
    /// In draw order (stage, round, table), then seat order.
    pub results: Vec<ResultEntry>,
}

const COLUMNS: [&str; 14] = [
    "stage",
    "round",
    "table",
    "seat",
    "player",
    "username",
    "absent",
    "place",
    "total",
    "table_points",
    "score_difference",
    "table_points_840ths",
    "score_difference_840ths",
    "version",
];

/// The results in force, a line per player per table (no-shows marked `absent`), as
/// JSON; `stage` and `round` together keep one round. The same as CSV:
/// `GET /v1/tournaments/{id}/results.csv`.
#[utoipa::path(
    get,
    path = "/v1/tournaments/{id}/results",
    tag = "tournaments",
    security((), ("bearer" = [])),
    params(("id" = i64, Path, description = "Tournament id"), ResultsQuery),
    responses(
        (status = 200, description = "The results", body = ResultsResponse),
        ReadProblems,
    )
)]
pub async fn results(
    state: web::Data<AppState>,
    _auth: MaybeAuthenticated,
    req: HttpRequest,
    path: web::Path<i64>,
    query: web::Query<ResultsQuery>,
) -> Result<HttpResponse, ApiError> {
    let as_csv = csv::wanted(&req, query.format.as_deref())?;
    let query = ResultsCsvQuery {
        as_of: query.as_of,
        stage: query.stage,
        round: query.round,
    };
    answer(&state, path.into_inner(), &query, as_csv).await
}

/// The results in force as CSV for a spreadsheet: a row per player per table.
#[utoipa::path(
    get,
    path = "/v1/tournaments/{id}/results.csv",
    tag = "tournaments",
    security((), ("bearer" = [])),
    params(("id" = i64, Path, description = "Tournament id"), ResultsCsvQuery),
    responses(
        (status = 200, description = "The results, RFC 4180 CSV with a header row",
         body = String, content_type = "text/csv"),
        ReadProblems,
    )
)]
pub async fn results_csv(
    state: web::Data<AppState>,
    _auth: MaybeAuthenticated,
    path: web::Path<i64>,
    query: web::Query<ResultsCsvQuery>,
) -> Result<HttpResponse, ApiError> {
    answer(&state, path.into_inner(), &query, true).await
}

async fn answer(
    state: &AppState,
    id: i64,
    query: &ResultsCsvQuery,
    as_csv: bool,
) -> Result<HttpResponse, ApiError> {
    let round = match (query.stage, query.round) {
        (None, None) => None,
        (Some(stage), Some(round)) if stage > 0 && round > 0 => Some(RoundRef { stage, round }),
        _ => {
            return Err(ApiError::invalid_field(
                "round",
                "give both stage and round (each from 1), or neither",
            ));
        }
    };
    let tournament = load_as_of(state, id, query.as_of).await?;
    let version = tournament.version();
    let lines = tournament.state().result_lines(round);
    let ids: Vec<i64> = lines.iter().map(|l| l.player).collect();
    let mut conn = state.db.acquire().await?;
    let names = usernames(&mut conn, &ids).await?;
    let entries: Vec<ResultEntry> = lines
        .into_iter()
        .zip(names)
        .map(|(line, username)| ResultEntry {
            table_points_decimal: line.table_points.map(|p| p.to_string()),
            score_difference_decimal: line.score_difference.map(|d| d.to_string()),
            username,
            line,
        })
        .collect();
    let response = if as_csv {
        let name = match round {
            Some(r) => format!(
                "tournament-{id}-results-s{}r{}-v{version}.csv",
                r.stage, r.round
            ),
            None => format!("tournament-{id}-results-v{version}.csv"),
        };
        as_csv_document(&entries, version).respond(&name)
    } else {
        HttpResponse::Ok().json(ResultsResponse {
            id,
            version,
            results: entries,
        })
    };
    Ok(with_etag(response, version))
}

fn as_csv_document(entries: &[ResultEntry], version: u64) -> Csv {
    let mut csv = Csv::with_header(&COLUMNS);
    let text = |v: Option<String>| v.unwrap_or_default();
    for entry in entries {
        let l = &entry.line;
        let fields = [
            l.table.stage.to_string(),
            l.table.round.to_string(),
            l.table.table.to_string(),
            l.seat.to_string(),
            l.player.to_string(),
            entry.username.clone().unwrap_or_default(),
            l.absent.to_string(),
            text(l.place.map(|p| p.to_string())),
            text(l.total.map(|t| t.to_string())),
            text(entry.table_points_decimal.clone()),
            text(entry.score_difference_decimal.clone()),
            text(l.table_points.map(|p| p.0.to_string())),
            text(l.score_difference.map(|d| d.0.to_string())),
            version.to_string(),
        ];
        csv.row(fields.iter().map(String::as_str));
    }
    csv
}
