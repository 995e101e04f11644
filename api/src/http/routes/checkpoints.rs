//! `GET /v1/checkpoints/latest`: the latest checkpoint of every stream head.

use actix_web::http::header;
use actix_web::{HttpResponse, web};
use serde::Serialize;
use time::OffsetDateTime;
use utoipa::ToSchema;

use crate::app_state::AppState;
use crate::auth::role::Role;
use crate::checkpoints;
use crate::error::{ApiError, Problem};
use crate::http::auth::Authenticated;
use crate::visibility::sealed_tables;

/// A checkpoint as the API gives it: every head, with the hash of those in a round
/// still in play left out.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct CheckpointAnswer {
    pub id: i64,
    #[serde(with = "time::serde::rfc3339")]
    #[schema(value_type = String, format = DateTime)]
    pub created_at: OffsetDateTime,
    /// `yaniv/checkpoint/v1`: how `root` is computed from the heads.
    #[schema(example = "yaniv/checkpoint/v1")]
    pub format: String,
    /// Hex Merkle root over every head: the value to publish.
    pub root: String,
    /// Every stream, sorted by the bytes of its id.
    pub heads: Vec<HeadAnswer>,
    /// How many heads lie in a round still in play, their hash left out.
    pub sealed: u64,
}

/// One stream's head in a checkpoint.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct HeadAnswer {
    #[schema(example = "table-12")]
    pub stream_id: String,
    /// The stream's version: its number of events.
    #[schema(example = 87)]
    pub version: u64,
    /// Hex SHA-256 of the stream's event at that version; `null` while that version
    /// lies in a round still in play (a hash over its hidden cards, beside the one
    /// before it, would let cards be tried against it). Fetch the checkpoint again, or
    /// take it from `yaniv-server checkpoint` or an archive, once the round is over.
    pub head_hash: Option<String>,
}

/// The latest checkpoint: every stream's version and head hash, and the Merkle root
/// over them (`docs/checkpoints.md` says how to recompute it). Auditors compare the
/// root with the one published when the checkpoint was written. Admins only; and even
/// to them, the head of a table whose round is still in play comes without its hash,
/// like every other read of a live round's secrets.
#[utoipa::path(
    get,
    path = "/v1/checkpoints/latest",
    operation_id = "latest_checkpoint",
    tag = "audit",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The latest checkpoint", body = CheckpointAnswer),
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
    let pool = state.store.pool();
    let checkpoint = checkpoints::latest(pool)
        .await?
        .ok_or_else(|| ApiError::NotFound("no checkpoint was written yet".into()))?;
    let sealed = sealed_tables(pool).await?;
    let heads: Vec<HeadAnswer> = checkpoint
        .heads
        .iter()
        .map(|head| {
            let in_play = sealed
                .get(&head.stream_id)
                .is_some_and(|from| head.version >= *from);
            HeadAnswer {
                stream_id: head.stream_id.clone(),
                version: head.version,
                head_hash: (!in_play).then(|| hex::encode(head.head_hash)),
            }
        })
        .collect();
    let answer = CheckpointAnswer {
        id: checkpoint.id,
        created_at: checkpoint.created_at,
        format: checkpoint.format,
        root: hex::encode(checkpoint.root),
        sealed: heads.iter().filter(|h| h.head_hash.is_none()).count() as u64,
        heads,
    };
    Ok(HttpResponse::Ok()
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .json(answer))
}
