//! `GET /v1/tables/{id}/view`: the table as the caller may see it.

use actix_web::{HttpResponse, web};

use super::dto::TableView;
use super::with_etag;
use crate::app_state::AppState;
use crate::error::{ApiError, Problem};
use crate::http::auth::Authenticated;
use crate::visibility::SeenTable;

/// The caller's view. A seated player gets their seat's view (the rules engine's
/// `Game::view`: their hand, the others' hand sizes, the top throw, the stock size,
/// totals, whose turn, and every action legal for them now); a referee of the table
/// (an official of its tournament who plays nowhere in it) gets every hand as well;
/// anyone else, admins included, what is face up.
#[utoipa::path(
    get,
    path = "/v1/tables/{id}/view",
    tag = "tables",
    security(("bearer" = [])),
    params(("id" = i64, Path, description = "Table id")),
    responses(
        (status = 200, description = "The table as the caller may see it", body = TableView,
         headers(("ETag" = String, description = "The table's version, quoted"))),
        (status = 404, description = "No such table (`not_found`)",
         body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn view(
    state: web::Data<AppState>,
    auth: Authenticated,
    path: web::Path<i64>,
) -> Result<HttpResponse, ApiError> {
    let seen = SeenTable::read(&state, path.into_inner(), Some(&auth.account)).await?;
    Ok(with_etag(
        HttpResponse::Ok().json(TableView::of(seen.seen())),
        seen.table().version,
    ))
}
