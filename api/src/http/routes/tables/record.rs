//! `GET /v1/tables/{id}/record`: the game record of a table's finished rounds.
//!
//! Any account may read it (it holds finished rounds only). The finished game of a
//! tournament's table is public, as the tournament is: anyone may fetch its record
//! without a token, to replay or publish it.

use actix_web::{HttpResponse, web};
use yaniv_domain::record;

use super::{load_public, with_etag};
use crate::app_state::AppState;
use crate::error::{ApiError, Problem, Reason};
use crate::http::auth::MaybeAuthenticated;

/// The game as a portable record (`yaniv-record/1`, see `docs/record-format.md`):
/// rules, players, and every finished round with its deal, its shuffle commitment and
/// seed, and every action with the version of the event it came from (`event_version`,
/// what `GET /v1/tables/{id}/audit?as_of=` takes). The round in play is left out, so its seed is never shown
/// before it is over; the record replays (`POST /v1/records/replay`) to the table's
/// totals after its last finished round.
#[utoipa::path(
    get,
    path = "/v1/tables/{id}/record",
    tag = "tables",
    security(("bearer" = []), ()),
    params(("id" = i64, Path, description = "Table id")),
    responses(
        (status = 200, description = "The record of the finished rounds", body = crate::http::routes::records::GameRecord),
        (status = 401, description = "Missing token (needed unless the table's game is a \
                                      finished tournament game: `unauthenticated`), or an unknown or expired one \
                                      (`invalid_token`)",
         body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such table (`not_found`)",
         body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "No round is finished yet (`no_finished_round`)",
         body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn record(
    state: web::Data<AppState>,
    auth: MaybeAuthenticated,
    path: web::Path<i64>,
) -> Result<HttpResponse, ApiError> {
    let loaded = load_public(&state, path.into_inner()).await;
    // Without a token, anything but a public record is the same 401, so that nobody
    // learns which tables exist by asking without one.
    if auth.0.is_none() {
        let public = loaded
            .as_ref()
            .is_ok_and(|t| t.created.tournament.is_some() && t.game.is_finished());
        if !public {
            return Err(ApiError::MissingToken);
        }
    }
    let table = &loaded?;
    let no_round = || ApiError::Refused {
        reason: Reason::NotNow,
        code: "no_finished_round",
        title: "Refused by the table",
        detail: "no round of this table is finished yet".into(),
    };
    if !table.started {
        return Err(no_round());
    }
    let mut exported = record::export_with_versions(&table.game_events, &table.game_versions)
        .map_err(|e| ApiError::unexpected("exporting a table's record", e))?;
    yaniv_domain::table::entropy::attach_entropy(&mut exported, &table.entropy_events);
    if exported.rounds.is_empty() {
        return Err(no_round());
    }
    Ok(with_etag(HttpResponse::Ok().json(exported), table.version))
}
