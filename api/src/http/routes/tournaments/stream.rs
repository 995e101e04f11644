//! `GET /v1/tournaments/{id}/stream`: the tournament pushed as it moves. Public, like
//! every tournament read: nothing in a tournament's stream is secret.

use actix_web::{HttpRequest, HttpResponse, web};

use super::standings::StandingsResponse;
use super::{TournamentEvent, TournamentSummary, load};
use crate::app_state::AppState;
use crate::error::{ApiError, Problem};
use crate::http::auth::MaybeAuthenticated;
use crate::http::push::follow::{self, Outbox, Source, Stop};
use crate::http::push::{
    self,
    body::{Format, resume_point},
};
use crate::http::routes::tables::stream::StreamQuery;
use crate::tournaments::named::standings_of;
use crate::tournaments::stream_id;

/// The tournament, pushed: Server-Sent Events (or NDJSON with `Accept:
/// application/x-ndjson`). Messages: `event` (id = stream version; data as one item
/// of `/events`), then after each change `tournament` (as `GET /v1/tournaments/{id}`:
/// phase, registrations, stages) and, once the qualification has started,
/// `standings` (as `/standings`); a heartbeat when quiet. Resume with
/// `Last-Event-ID` or `?after=`.
#[utoipa::path(
    get,
    path = "/v1/tournaments/{id}/stream",
    tag = "tournaments",
    security((), ("bearer" = [])),
    params(
        ("id" = i64, Path, description = "Tournament id"),
        ("Last-Event-ID" = Option<u64>, Header, description = "Resume after this version"),
        StreamQuery,
    ),
    responses(
        (status = 200, description = "The live stream", content(
            (String = "text/event-stream"),
            (String = "application/x-ndjson"),
        )),
        (status = 404, description = "No such tournament (`not_found`)",
         body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "Too many live streams for this token, this address, \
         without a token or on this server (`too_many_streams`); `Retry-After` says when to \
         try again",
         body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn stream(
    state: web::Data<AppState>,
    auth: MaybeAuthenticated,
    req: HttpRequest,
    path: web::Path<i64>,
    query: web::Query<StreamQuery>,
) -> Result<HttpResponse, ApiError> {
    let id = path.into_inner();
    load(&state, id).await?;
    let pass = push::admit(&state, auth.0.as_ref(), &req)?;
    let after = resume_point(&req, query.after);
    Ok(follow::open(
        state,
        stream_id(id),
        Format::negotiate(&req),
        after,
        TournamentSource { id },
        pass,
    ))
}

struct TournamentSource {
    id: i64,
}

impl Source for TournamentSource {
    async fn catch_up(
        &mut self,
        state: &AppState,
        sent: Option<u64>,
        head: u64,
        out: &Outbox,
    ) -> Result<u64, Stop> {
        let tournament = state.tournaments.read_at_least(self.id, head).await?;
        let version = tournament.version();
        let done = match sent {
            Some(sent) if sent >= version => return Ok(sent),
            Some(sent) => sent,
            None => version,
        };
        let skip = usize::try_from(done).unwrap_or(usize::MAX);
        for (version, event) in (done + 1..).zip(tournament.events().iter().skip(skip)) {
            let item = TournamentEvent {
                version,
                event_type: event.type_name().to_owned(),
                payload: event.clone(),
            };
            out.send("event", Some(version), &item).await?;
        }
        out.send(
            "tournament",
            None,
            &TournamentSummary::of(self.id, &tournament)?,
        )
        .await?;
        if !tournament.state().stages.is_empty() {
            let standings = StandingsResponse {
                id: self.id,
                version,
                standings: standings_of(&state.db, &tournament).await?,
            };
            out.send("standings", None, &standings).await?;
        }
        Ok(version)
    }
}
