//! `GET /v1/tournaments/{id}/archive`: the tournament and its games in one file.

use actix_web::http::header::{self, ContentDisposition, DispositionParam, DispositionType};
use actix_web::{HttpResponse, web};

use crate::app_state::AppState;
use yaniv_domain::tournament::Phase;
use yaniv_verify::archive::Archive;

use crate::audit::tournament;
use crate::audit::{archive, archive_store};
use crate::error::{ApiError, Problem, Reason};
use crate::http::auth::MaybeAuthenticated;
use crate::http::push::body::ChannelBody;
use crate::http::replica_lag;
use crate::replica::Served;
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
///
/// A finished tournament's archive is built once and kept; later reads get the kept
/// copy (its `exported_at` is when it was built), with its SHA-256 as `ETag`
/// (`If-None-Match` answers 304). It is built again only when something it holds
/// changed (a game table moved, a new checkpoint). Every archive carries a checkpoint
/// that records each of its streams at the head it holds, taken for it when no
/// checkpoint did (at most one per `YANIV_ARCHIVE_CHECKPOINT_GAP_SECS` for all readers;
/// the others wait for it), so that a stream later cut short is caught offline.
/// Archives are built one at a time; a request that waits 30 s for its turn or for its
/// checkpoint is answered `503 server_busy`. With a replica configured, a kept copy is
/// sent from the replica once it holds that very copy (checked by its SHA-256), and the
/// answer then carries `Replica-Lag-Ms`; the bytes are the same either way.
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
         sent (`unauthenticated`), or an unknown or expired token (`invalid_token`)",
         body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "The tournament is not finished and the caller is \
         neither one of its officials holding its role nor an admin (`forbidden`)",
         body = Problem, content_type = "application/problem+json"),
        (status = 304, description = "Finished, and the `ETag` sent in `If-None-Match` is the \
         kept copy's"),
        (status = 404, description = "No such tournament (`not_found`)",
         body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "Archives are being built and this one waited too \
         long for its turn or for its checkpoint (`server_busy`)",
         body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn archive(
    state: web::Data<AppState>,
    auth: MaybeAuthenticated,
    path: web::Path<i64>,
) -> Result<HttpResponse, ApiError> {
    let id = path.into_inner();
    // The cached fold says whether it is finished: a kept archive is then sent without
    // reading the tournament's events at all.
    let current = super::load(&state, id).await?;
    if current.state().phase() == Phase::Finished {
        return kept(&state, id, current.version()).await;
    }
    let (stored, decoded) = tournament::read_decoded(&state, id).await?;
    let folded = tournament::fold(&decoded.events);
    if folded.finished.is_some() {
        // It finished since the cached fold was read.
        return kept(&state, id, decoded.events.len() as u64).await;
    }
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
    // Still moving: cut at a checkpoint of this moment, then written for this request
    // as the client reads it, one stream at a time, one build at a time.
    let cut = archive::cut(&state, id, stored, &decoded).await?;
    let turn = archive_store::turn(&state.archive_builds).await?;
    let (mut sender, receiver) = tokio::sync::mpsc::channel(2);
    actix_web::rt::spawn(async move {
        let _turn = turn;
        if let Err(err) = archive::write(&state, id, &cut, &mut sender).await {
            // The answer has begun: the client sees it cut short.
            tracing::warn!(tournament = id, error = %err, "writing an archive failed");
        }
    });
    Ok(attachment(id)
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .content_type("application/json")
        .streaming(ChannelBody(receiver)))
}

/// The kept archive of finished tournament `id` (at `version`), built and kept first if
/// there is none for what it holds now, sent in slices from the database.
async fn kept(state: &AppState, id: i64, version: u64) -> Result<HttpResponse, ApiError> {
    let pool = state.store.pool();
    let stamp = archive_store::stamp(pool, id, version).await?;
    let kept = match archive_store::find(pool, id, &stamp).await? {
        Some(kept) => kept,
        None => {
            let (stored, decoded) = tournament::read_decoded(state, id).await?;
            let cut = archive::cut(state, id, stored, &decoded).await?;
            // Kept under the checkpoint it carries, which may be newer than the stamp's.
            let stamp = stamp.cut_at(cut.checkpoint_id());
            let _turn = archive_store::turn(&state.archive_builds).await?;
            // Another request may have built it while this one waited for its turn.
            match archive_store::find(pool, id, &stamp).await? {
                Some(kept) => kept,
                None => {
                    let body = archive::build(state, id, &cut).await?;
                    let kept = archive_store::save(pool, id, &stamp, &body).await?;
                    tracing::info!(tournament = id, bytes = kept.bytes, "archive stored");
                    kept
                }
            }
        }
    };
    let length = u64::try_from(kept.bytes).unwrap_or(0);
    let (first, served) = first_slice_from_replica(state, id, &kept).await;
    let sources = archive_store::SliceSources {
        primary: pool.clone(),
        replica: match served {
            Served::Replica { .. } => state.lag_tolerant.replica().map(|r| r.pool().clone()),
            Served::Primary => None,
        },
    };
    let mut response = attachment(id);
    replica_lag::mark(&mut response, served);
    Ok(response
        .insert_header((header::ETAG, kept.etag()))
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        .content_type("application/json")
        .no_chunking(length)
        .streaming(ChannelBody(archive_store::slices(sources, id, kept, first))))
}

/// The first slice of the kept copy `kept`, from the replica when one is configured and
/// holds that very copy (asked for by its SHA-256: no bound on its lag is needed, a
/// replica that is behind simply lacks it). `None` and the primary otherwise.
async fn first_slice_from_replica(
    state: &AppState,
    id: i64,
    kept: &archive_store::Stored,
) -> (Option<Vec<u8>>, Served) {
    let Some(replica) = state.lag_tolerant.replica() else {
        return (None, Served::Primary);
    };
    let mut found = (None, Served::Primary);
    if let Some(mut checked) = replica.connection().await {
        match archive_store::slice(&mut *checked.connection, id, 1, kept).await {
            Ok(Some(slice)) => found = (Some(slice), Served::Replica { lag: checked.lag }),
            Ok(None) => tracing::debug!(
                tournament = id,
                "replica: the kept archive not replayed yet"
            ),
            Err(error) => {
                tracing::debug!(tournament = id, %error, "replica: the kept archive unread")
            }
        }
    }
    replica.count(found.1);
    found
}

/// A 200 that a browser saves as the archive's file.
fn attachment(id: i64) -> actix_web::HttpResponseBuilder {
    let mut response = HttpResponse::Ok();
    response.insert_header(ContentDisposition {
        disposition: DispositionType::Attachment,
        parameters: vec![DispositionParam::Filename(format!(
            "tournament-{id}.yaniv-archive.json"
        ))],
    });
    response
}
