//! `GET /v1/ratings` (JSON or CSV) and `GET /v1/ratings.csv`: every rated player, best
//! first, as they stood at the end of a period.

use actix_web::{HttpRequest, HttpResponse, web};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::app_state::AppState;
use crate::error::{ApiError, Problem};
use crate::http::auth::MaybeAuthenticated;
use crate::http::routes::csv::{self, Csv};
use crate::ratings::ListRow;
use crate::ratings::named::{RatingEntry, entries, list_of};
use crate::ratings::period::{Period, page_of};

/// The filters both forms share.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct RatingsCsvQuery {
    /// Only players who played a rated game at or after this time (RFC 3339).
    #[param(format = DateTime)]
    pub from: Option<String>,
    /// The list as it stood just before this time (RFC 3339): games from then on are
    /// left out. Absent: now.
    #[param(format = DateTime)]
    pub to: Option<String>,
    /// Only players with at least this many rated games (before `to`).
    pub min_games: Option<u32>,
}

#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct RatingsQuery {
    /// Only players who played a rated game at or after this time (RFC 3339).
    #[param(format = DateTime)]
    pub from: Option<String>,
    /// The list as it stood just before this time (RFC 3339): games from then on are
    /// left out. Absent: now.
    #[param(format = DateTime)]
    pub to: Option<String>,
    /// Only players with at least this many rated games (before `to`).
    pub min_games: Option<u32>,
    /// Rows to skip: the previous page's `next_offset` (0 by default).
    pub offset: Option<u32>,
    /// 1 to 500 (default 50).
    #[param(minimum = 1, maximum = 500)]
    pub limit: Option<u32>,
    /// `json` (the default). `csv` (or `Accept: text/csv`) answers the document of
    /// `GET /v1/ratings.csv`, the whole list, which is the operation to use for it.
    pub format: Option<String>,
}

/// A page of the list.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct RatingList {
    pub ratings: Vec<RatingEntry>,
    /// Players in the whole list (every page).
    pub total: u32,
    /// Pass as `offset` for the next page; `null` on the last page.
    pub next_offset: Option<u32>,
    /// Rated games folded into the list (before `to`).
    pub games: u32,
}

const COLUMNS: [&str; 8] = [
    "rank",
    "player",
    "username",
    "rating",
    "mu",
    "sigma",
    "games",
    "last_played",
];

/// The rating list, best first, a page at a time, as JSON; the whole of it as CSV:
/// `GET /v1/ratings.csv`.
#[utoipa::path(
    get,
    path = "/v1/ratings",
    tag = "ratings",
    security((), ("bearer" = [])),
    params(RatingsQuery),
    responses(
        (status = 200, description = "A page of the rating list", body = RatingList),
        (status = 401, description = "A token was sent but is unknown, expired or revoked (`invalid_token`)",
         body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "A filter is malformed or out of range (`validation_failed`, naming it)",
         body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn list(
    state: web::Data<AppState>,
    _auth: MaybeAuthenticated,
    req: HttpRequest,
    query: web::Query<RatingsQuery>,
) -> Result<HttpResponse, ApiError> {
    let as_csv = csv::wanted(&req, query.format.as_deref())?;
    let filters = RatingsCsvQuery {
        from: query.from.clone(),
        to: query.to.clone(),
        min_games: query.min_games,
    };
    if as_csv {
        return csv_answer(&state, &filters).await;
    }
    let (rows, games) = filtered(&state, &filters).await?;
    let (shown, next_offset) = page_of(rows.len(), query.offset, query.limit)?;
    let total = u32::try_from(rows.len()).unwrap_or(u32::MAX);
    let first = u32::try_from(shown.start).unwrap_or(u32::MAX);
    let ratings = entries(&state.db, &rows[shown], first).await?;
    Ok(HttpResponse::Ok().json(RatingList {
        ratings,
        total,
        next_offset,
        games,
    }))
}

/// The whole rating list as CSV for a spreadsheet: a row per player, best first; the
/// figures at full precision (the shortest decimal that reads back as the same
/// binary64 number).
#[utoipa::path(
    get,
    path = "/v1/ratings.csv",
    tag = "ratings",
    security((), ("bearer" = [])),
    params(RatingsCsvQuery),
    responses(
        (status = 200, description = "The rating list, RFC 4180 CSV with a header row",
         body = String, content_type = "text/csv"),
        (status = 401, description = "A token was sent but is unknown, expired or revoked (`invalid_token`)",
         body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "A filter is malformed or out of range (`validation_failed`, naming it)",
         body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn list_csv(
    state: web::Data<AppState>,
    _auth: MaybeAuthenticated,
    query: web::Query<RatingsCsvQuery>,
) -> Result<HttpResponse, ApiError> {
    csv_answer(&state, &query).await
}

async fn csv_answer(state: &AppState, filters: &RatingsCsvQuery) -> Result<HttpResponse, ApiError> {
    let (rows, _) = filtered(state, filters).await?;
    let entries = entries(&state.db, &rows, 0).await?;
    let mut csv = Csv::with_header(&COLUMNS);
    for e in &entries {
        let last_played = e
            .last_played
            .format(&time::format_description::well_known::Rfc3339)
            .unwrap_or_default();
        let fields = [
            e.rank.to_string(),
            e.player.to_string(),
            e.username.clone().unwrap_or_default(),
            e.rating.to_string(),
            e.mu.to_string(),
            e.sigma.to_string(),
            e.games.to_string(),
            last_played,
        ];
        csv.row(fields.iter().map(String::as_str));
    }
    Ok(csv.respond("ratings.csv"))
}

/// The list's rows under `filters`, and the rated games before `to`.
async fn filtered(
    state: &AppState,
    filters: &RatingsCsvQuery,
) -> Result<(Vec<ListRow>, u32), ApiError> {
    let period = Period::parse(
        filters.from.as_deref(),
        filters.to.as_deref(),
        filters.min_games,
    )?;
    list_of(&state.ratings, &state.db, &period).await
}
