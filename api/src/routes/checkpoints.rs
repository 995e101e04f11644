//! `GET /v1/checkpoints/latest`: the latest checkpoint of every stream head.

use actix_web::http::header;
use actix_web::{HttpResponse, web};

use crate::app_state::AppState;
use crate::auth::Authenticated;
use crate::auth::role::Role;
use crate::checkpoints::{self, Checkpoint};
use crate::error::{ApiError, Problem};

/// The latest checkpoint: every stream's version and head hash, and the Merkle root
/// over them (`docs/checkpoints.md` says how to recompute it). Auditors compare the
/// root with the one published when the checkpoint was written. Admins only: the
/// head hash of a game still running covers its hidden cards, so it is not for
/// players (nor for officials, who may play in another tournament).
#[utoipa::path(
    get,
    path = "/v1/checkpoints/latest",
    operation_id = "latest_checkpoint",
    tag = "audit",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The latest checkpoint", body = Checkpoint),
        (status = 401, description = "Missing, unknown or expired token",
         body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Not an admin (`forbidden`)",
         body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No checkpoint was written yet (`not_found`)",
         body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn latest(
    state: web::Data<AppState>,
    auth: Authenticated,
) -> Result<HttpResponse, ApiError> {
    auth.require(Role::Admin)?;
    let checkpoint = checkpoints::latest(state.store.pool())
        .await?
        .ok_or_else(|| ApiError::NotFound("no checkpoint was written yet".into()))?;
    Ok(HttpResponse::Ok()
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .json(checkpoint))
}
