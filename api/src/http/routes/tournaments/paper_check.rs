//! `POST /v1/tournaments/{id}/paper-check`: a referee's sheet scored by the
//! tournament's rules as far as it is written, without recording anything. What a
//! scoring app (or the desk's paper table page) shows as the sheet is filled in: each
//! round's totals, reductions and eliminations, whether the game is over, or the first
//! round the rules refuse and why. The result is recorded with `record_result`
//! (`paper_rounds`) once the game is over.

use actix_web::{HttpResponse, web};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use yaniv_domain::tournament::{PaperRound, PaperSheetCheck, check_paper_sheet};

use super::read::load_as_of;
use crate::app_state::AppState;
use crate::error::{ApiError, Problem};
use crate::http::auth::Authenticated;

/// Most rounds a sheet may have (far more than any game lasts).
const MAX_ROUNDS: usize = 500;

/// A sheet being written: the table's seats (2 to 8) and the rounds so far.
#[derive(Debug, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PaperSheet {
    #[schema(minimum = 2, maximum = 8)]
    pub seats: usize,
    #[schema(max_items = 500)]
    pub rounds: Vec<PaperRound>,
}

/// Scores a paper sheet by the tournament's rules, as far as it goes (nothing is
/// recorded).
#[utoipa::path(
    post,
    path = "/v1/tournaments/{id}/paper-check",
    tag = "tournaments",
    security(("bearer" = [])),
    params(("id" = i64, Path, description = "Tournament id")),
    request_body = PaperSheet,
    responses(
        (status = 200, description = "The sheet scored as far as the rules accept it: \
                                      `error` names the first round they refuse", body = PaperSheetCheck),
        (status = 404, description = "No such tournament (`not_found`)",
         body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "Seats outside 2 to 8, or too many rounds (`validation_failed`)",
         body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn paper_check(
    state: web::Data<AppState>,
    _auth: Authenticated,
    path: web::Path<i64>,
    body: web::Json<PaperSheet>,
) -> Result<HttpResponse, ApiError> {
    let sheet = body.into_inner();
    if sheet.rounds.len() > MAX_ROUNDS {
        return Err(ApiError::invalid_field(
            "rounds",
            format!("at most {MAX_ROUNDS} rounds"),
        ));
    }
    let tournament = load_as_of(&state, path.into_inner(), None).await?;
    let rules = tournament
        .rules()
        .ok_or_else(|| ApiError::unexpected("checking a paper sheet", "no rules"))?;
    let checked = check_paper_sheet(rules, sheet.seats, &sheet.rounds)
        .map_err(|message| ApiError::invalid_field("seats", message))?;
    Ok(HttpResponse::Ok().json(checked))
}
