//! `GET /v1/tournaments/{id}/archive`: the tournament and its games in one file.

use actix_web::http::header::{self, ContentDisposition, DispositionParam, DispositionType};
use actix_web::{HttpResponse, web};

use crate::app_state::AppState;
use yaniv_verify::archive::Archive;

use crate::audit::archive;
use crate::audit::tournament;
use crate::error::{ApiError, Problem, Reason};
use crate::http::auth::MaybeAuthenticated;
use crate::visibility::officiates_or_operates;

/// The championship archive (`yaniv-archive/1`): the tournament's stream, the stream
/// of every online game it opened (voided ones too), each event with every field its
/// hash covers (the payload as the exact stored text), and the checkpoints that
/// recorded those streams, each head with its Merkle path to the checkpoint's root.
/// Paper results are events of the tournament's stream. `yaniv verify ARCHIVE`
/// checks all of it offline; `docs/verification.md` specifies how. Public once the
/// tournament is finished; before that, for its organizer and referees (while they hold
/// the organizer or referee role) and for admins. A game whose round is in play stops
/// before that round's first secret (`sealed_from`): nobody reads a live deal from it.
#[utoipa::path(
    get,
    path = "/v1/tournaments/{id}/archive",
    operation_id = "tournament_archive",
    tag = "audit",
    security((), ("bearer" = [])),
    params(("id" = i64, Path, description = "Tournament id")),
    responses(
        (status = 200, description = "The archive", body = Archive),
        (status = 401, description = "The tournament is not finished and no token was \
         sent, or an unknown or expired token",
         body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "The tournament is not finished and the caller is \
         neither one of its officials holding its role nor an admin (`forbidden`)",
         body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such tournament (`not_found`)",
         body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn archive(
    state: web::Data<AppState>,
    auth: MaybeAuthenticated,
    path: web::Path<i64>,
) -> Result<HttpResponse, ApiError> {
    let id = path.into_inner();
    let (stored, decoded) = tournament::read_decoded(&state, id).await?;
    let folded = tournament::fold(&decoded.events);
    if folded.finished.is_none() {
        let Some(caller) = auth.0 else {
            return Err(ApiError::MissingToken);
        };
        if !officiates_or_operates(&folded, &caller.account) {
            return Err(ApiError::Refused {
                reason: Reason::Forbidden,
                code: "forbidden",
                title: "Forbidden",
                detail: "until the tournament is finished, its archive is for its organizer \
                         and referees (while they hold the organizer or referee role) and \
                         admins"
                    .into(),
            });
        }
    }
    let archive = archive::build(&state, id, &stored, &decoded).await?;
    tracing::info!(
        tournament = id,
        streams = archive.streams.len(),
        checkpoints = archive.checkpoints.len(),
        "archive exported"
    );
    Ok(HttpResponse::Ok()
        .insert_header(ContentDisposition {
            disposition: DispositionType::Attachment,
            parameters: vec![DispositionParam::Filename(format!(
                "tournament-{id}.yaniv-archive.json"
            ))],
        })
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .json(archive))
}
