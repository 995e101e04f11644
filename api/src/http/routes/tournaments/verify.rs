//! `POST /v1/tournaments/{id}/verify`: check a tournament's stored history.

use actix_web::{HttpResponse, web};

use crate::app_state::AppState;
use crate::audit::tournament::{self, TournamentVerification};
use crate::error::{ApiError, Problem, Reason};
use crate::http::auth::Authenticated;
use crate::tournaments::stream_id;
use crate::visibility::officiates_or_operates;

/// Verifies a tournament's stream as stored: recomputes its hash chain from the
/// stored bytes; re-derives every draw from its revealed seed, every result from its
/// input and the final ranking from the results (each on the state before the
/// event); and checks each result taken from an online game of this server
/// (`"game": "table-<id>"`) against that game's final standings; compares the stream
/// with its listing row (`truncated_stream`) and with every checkpoint of its head
/// (`truncated_since_checkpoint`, `rewritten_since_checkpoint`); and checks that no
/// online game in force is over without its result (`missing_result`). `first_failure`
/// names the first event that does not check out and which check says so. The
/// answer is 200 whatever the verdict; `ok` says it.
#[utoipa::path(
    post,
    path = "/v1/tournaments/{id}/verify",
    operation_id = "verify_tournament",
    tag = "audit",
    security(("bearer" = [])),
    params(("id" = i64, Path, description = "Tournament id")),
    responses(
        (status = 200, description = "The verdict", body = TournamentVerification),
        (status = 403, description = "Neither an official of this tournament holding its \
         role nor an admin (`forbidden`)",
         body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such tournament (`not_found`)",
         body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn verify(
    state: web::Data<AppState>,
    auth: Authenticated,
    path: web::Path<i64>,
) -> Result<HttpResponse, ApiError> {
    let id = path.into_inner();
    let (stored, decoded) = tournament::read_decoded(&state, id).await?;
    // Who officiates is read from the stream as it is, unchecked: whatever a forger
    // wrote there, a verification only reads.
    if !officiates_or_operates(&tournament::fold(&decoded.events), &auth.account) {
        return Err(ApiError::Refused {
            reason: Reason::Forbidden,
            code: "forbidden",
            title: "Forbidden",
            detail: "only the tournament's organizer and referees (while they hold the \
                     organizer or referee role) and admins may verify a tournament"
                .into(),
        });
    }
    let chain = state.store.verify_stream(&stream_id(id)).await?;
    let domain = yaniv_verify::tournament::audit(id, &decoded);
    let games = tournament::check_games(&state, id, &domain.online).await?;
    let witnesses = tournament::witnesses(&state, id, &stored, &decoded).await?;
    let verdict: TournamentVerification =
        yaniv_verify::tournament::combine(stored.len() as u64, &chain, domain, games, witnesses);
    if verdict.ok {
        tracing::info!(
            tournament = id,
            events = verdict.version,
            games = verdict.games.checked,
            "tournament verified"
        );
    } else {
        tracing::warn!(tournament = id, failure = ?verdict.first_failure, "tournament verification failed");
    }
    Ok(HttpResponse::Ok().json(verdict))
}
