//! `GET /v1/ratings/tables`: the stored rows the rating list reads of rated casual
//! tables, for anyone who recomputes the list (`tools/reference-verifier/ratings.py
//! --tables`). The tournaments' part of the input is their archives.

use actix_web::{HttpResponse, web};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::app_state::AppState;
use crate::error::{ApiError, Problem};
use crate::http::auth::MaybeAuthenticated;
use crate::ratings::source::{self, TableRow};

/// The format of [`RatedTables`].
pub const FORMAT: &str = "yaniv-rated-tables/1";

/// Every finished rated casual table's `table_created.v1`, `seat_taken.v1`,
/// `seat_left.v1` and `game_finished.v1` rows, in stream and version order.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct RatedTables {
    #[schema(example = "yaniv-rated-tables/1")]
    pub format: String,
    pub rows: Vec<TableRow>,
}

/// The rating inputs of the rated casual tables whose game has finished: who sat
/// where, how the game ended and when (`docs/ratings.md` section 7). Public like the
/// list they feed: a rated table's result is on the list for everyone to see.
#[utoipa::path(
    get,
    path = "/v1/ratings/tables",
    tag = "ratings",
    security((), ("bearer" = [])),
    responses(
        (status = 200, description = "The rated tables' rows", body = RatedTables),
        (status = 401, description = "A token was sent but is unknown, expired or revoked (`invalid_token`)",
         body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn tables(
    state: web::Data<AppState>,
    _auth: MaybeAuthenticated,
) -> Result<HttpResponse, ApiError> {
    let rows = source::table_rows(&state.db).await?;
    Ok(HttpResponse::Ok().json(RatedTables {
        format: FORMAT.to_owned(),
        rows,
    }))
}
