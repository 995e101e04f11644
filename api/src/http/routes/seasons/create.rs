//! `POST /v1/seasons` and `GET /v1/seasons`.

use actix_web::{HttpResponse, web};
use serde::{Deserialize, Serialize};
use time::OffsetDateTime;
use utoipa::{IntoParams, ToSchema};
use yaniv_domain::season::Command;

use crate::app_state::AppState;
use crate::auth::Role;
use crate::error::{ApiError, Problem};
use crate::http::auth::MaybeAuthenticated;
use crate::http::routes::command::CommandRequest;
use crate::seasons::repo::{self, SeasonWritten};

/// A new season: its name, the points of places 1, 2, 3, ... and how many results count.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"name": "Club series 2027", "points": [25, 18, 15, 12, 10, 8, 6, 4, 2, 1], "best": 3}))]
pub struct CreateSeasonRequest {
    /// 1 to 100 characters (surrounding spaces are trimmed).
    #[schema(min_length = 1, max_length = 100)]
    pub name: String,
    /// 1 to 64 places, 0 to 1,000,000 points each, never rising.
    #[schema(min_items = 1, max_items = 64)]
    pub points: Vec<u32>,
    /// 1 to 100; absent: every result counts.
    #[serde(default)]
    #[schema(minimum = 1, maximum = 100)]
    pub best: Option<u32>,
}

/// Creates a season with the caller as its organizer.
#[utoipa::path(
    post,
    path = "/v1/seasons",
    tag = "seasons",
    security(("bearer" = [])),
    request_body = CreateSeasonRequest,
    params(("Idempotency-Key" = Option<String>, Header, description = "Retry safely: the same key gets the same answer")),
    responses(
        (status = 201, description = "Season created", body = SeasonWritten),
        (status = 403, description = "The account is neither organizer nor admin (`forbidden`)",
         body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "Malformed field (`validation_failed`, naming `name`, \
         `points` or `best`)", body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn create(
    state: web::Data<AppState>,
    request: CommandRequest,
    body: web::Json<CreateSeasonRequest>,
) -> Result<HttpResponse, ApiError> {
    request.auth.require(Role::Organizer)?;
    let command = Command::Create {
        name: body.name.clone(),
        points: body.points.clone(),
        best: body.best,
    };
    let written = repo::create(&state.seasons, request.mutation(&*body), &command).await?;
    tracing::info!(account_id = request.account().id, "season created");
    Ok(written.into())
}

#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct SeasonListQuery {
    /// Only seasons with an id below this one: the previous page's `next_before`.
    pub before: Option<i64>,
    /// 1 to 100 (default 20).
    #[param(minimum = 1, maximum = 100)]
    pub limit: Option<u32>,
}

/// One season of the listing.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema, sqlx::FromRow)]
pub struct SeasonListEntry {
    pub id: i64,
    pub name: String,
    /// The season stream's version when listed.
    pub version: i64,
    pub created_by: i64,
    #[serde(with = "time::serde::rfc3339")]
    #[schema(value_type = String, format = DateTime)]
    pub created_at: OffsetDateTime,
}

/// A page of seasons.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct SeasonList {
    pub seasons: Vec<SeasonListEntry>,
    /// Pass as `before` for the next page; `null` on the last page.
    pub next_before: Option<i64>,
}

/// Up to `limit` seasons, newest first, with an id below `before`.
pub async fn page(
    db: &sqlx::PgPool,
    before: Option<i64>,
    limit: u32,
) -> Result<SeasonList, ApiError> {
    let seasons: Vec<SeasonListEntry> = sqlx::query_as(
        "SELECT id, name, version, created_by, created_at FROM seasons \
         WHERE ($1::bigint IS NULL OR id < $1) ORDER BY id DESC LIMIT $2",
    )
    .bind(before)
    .bind(i64::from(limit))
    .fetch_all(db)
    .await?;
    let next_before = (seasons.len() == limit as usize)
        .then(|| seasons.last().map(|s| s.id))
        .flatten();
    Ok(SeasonList {
        seasons,
        next_before,
    })
}

/// Lists seasons, newest first. Public.
#[utoipa::path(
    get,
    path = "/v1/seasons",
    tag = "seasons",
    security((), ("bearer" = [])),
    params(SeasonListQuery),
    responses(
        (status = 200, description = "A page of seasons", body = SeasonList),
        (status = 422, description = "`limit` out of range (`validation_failed`)",
         body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn list(
    state: web::Data<AppState>,
    _auth: MaybeAuthenticated,
    query: web::Query<SeasonListQuery>,
) -> Result<HttpResponse, ApiError> {
    let limit = query.limit.unwrap_or(20);
    if !(1..=100).contains(&limit) {
        return Err(ApiError::invalid_field("limit", "must be 1 to 100"));
    }
    Ok(HttpResponse::Ok().json(page(&state.db, query.before, limit).await?))
}
