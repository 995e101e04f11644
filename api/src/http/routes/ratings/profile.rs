//! `GET /v1/players/{username}/rating`: one player's rating now, the rated
//! tournaments they played (with their final place), every game's rating change, and
//! their record against `?opponent=`.

use actix_web::{HttpResponse, web};
use serde::Deserialize;
use utoipa::IntoParams;

use crate::app_state::AppState;
use crate::error::{ApiError, Problem};
use crate::http::auth::MaybeAuthenticated;
use crate::ratings::profile::{self as profiles, RatingProfile};

#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct ProfileQuery {
    /// Another player's username: the games the two played at one table.
    pub opponent: Option<String>,
}

/// A player's rating, the rated tournaments they played, every game's change, and
/// (with `opponent`) their record against another player.
#[utoipa::path(
    get,
    path = "/v1/players/{username}/rating",
    tag = "ratings",
    security((), ("bearer" = [])),
    params(("username" = String, Path, description = "The player's username (any case)"), ProfileQuery),
    responses(
        (status = 200, description = "The player's rating profile", body = RatingProfile),
        (status = 401, description = "A token was sent but is unknown, expired or revoked (`invalid_token`)",
         body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No account has this username (`not_found`)",
         body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "No account has the `opponent`'s username, or it is the player's own (`validation_failed`)",
         body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn profile(
    state: web::Data<AppState>,
    _auth: MaybeAuthenticated,
    path: web::Path<String>,
    query: web::Query<ProfileQuery>,
) -> Result<HttpResponse, ApiError> {
    let name = path.into_inner();
    let (account, opponent) =
        profiles::accounts(&state.db, &name, query.opponent.as_deref()).await?;
    let snapshot = state.ratings.current(&state.db).await?;
    Ok(HttpResponse::Ok().json(profiles::of(
        &snapshot,
        account.id,
        account.username,
        opponent,
    )))
}
