//! `POST /v1/tournaments/{id}/draws` and
//! `POST /v1/tournaments/{id}/tables/{stage}/{round}/{table}/online`: drawing rounds
//! from the server's committed seeds and playing drawn tables online (the logic is
//! `crate::tournaments::play`).

use actix_web::{HttpRequest, HttpResponse, web};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use yaniv_domain::tournament::{RoundRef, TableRef, TournamentView};

use super::{TournamentEvent, mutation};
use crate::auth::Authenticated;
use crate::error::{ApiError, Problem, from_serde_json};
use crate::idempotency::{IdempotencyKeyHeader, request_fingerprint};
use crate::request_id::RequestId;
use crate::startup::AppState;
use crate::stream_command::if_match;
use crate::tournaments::play::{Draw, DrawRequest, StartOnline, Writer};
use crate::tournaments::repo;

/// What to draw. An empty body (or `{}`) draws the next round with every table online.
#[derive(Debug, Clone, Default, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"paper_tables": [3]}))]
pub struct DrawBody {
    /// Tables of the drawn round (numbered from 1) that are played on paper: no online
    /// game is created for them; a referee enters their results.
    #[serde(default)]
    pub paper_tables: Vec<u32>,
    /// Draw this round again (the latest round, before any of its tables started)
    /// instead of drawing the next one.
    #[serde(default)]
    pub redraw: Option<RedrawBody>,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RedrawBody {
    pub stage: u32,
    pub round: u32,
    /// Why (kept in the event).
    #[schema(min_length = 1, max_length = 1000)]
    pub reason: String,
}

/// What a draw did.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct DrawResponse {
    pub id: i64,
    /// The stream's version after the draw.
    pub version: u64,
    /// The events appended: the draw, one `table_game_started.v1` per online table,
    /// and the server's commitment to the next draw's seed.
    pub events: Vec<TournamentEvent>,
    /// The tournament after them.
    pub tournament: TournamentView,
    /// The online game tables created, one per drawn table not played on paper.
    pub online_tables: Vec<OnlineTableBody>,
}

/// A drawn table and the game table that plays it online.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct OnlineTableBody {
    pub table: TableRef,
    /// Its id under `/v1/tables/{id}`.
    pub game_table: i64,
    /// The stream's version after it started (only in the answer of
    /// `.../online`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<u64>,
}

fn parse_draw(body: &[u8]) -> Result<DrawBody, ApiError> {
    if body.iter().all(u8::is_ascii_whitespace) {
        return Ok(DrawBody::default());
    }
    serde_json::from_slice(body).map_err(|e| from_serde_json(&e))
}

impl DrawBody {
    fn request(self) -> DrawRequest {
        DrawRequest {
            paper_tables: self.paper_tables,
            redraw: self.redraw.map(|r| {
                (
                    RoundRef {
                        stage: r.stage,
                        round: r.round,
                    },
                    r.reason,
                )
            }),
        }
    }
}

/// Draws the next round of the current stage (or redraws the latest) from the seed the
/// server committed to beforehand, creates and deals an online game table for every
/// drawn table not played on paper, and commits the seed of the draw after it.
#[utoipa::path(
    post,
    path = "/v1/tournaments/{id}/draws",
    tag = "tournaments",
    security(("bearer" = [])),
    request_body(content = Option<DrawBody>, description = "Optional; `{}` or no body draws the next round, every table online"),
    params(
        ("id" = i64, Path, description = "Tournament id"),
        ("Idempotency-Key" = Option<String>, Header, description = "Retry safely: the same key gets the same answer"),
        ("If-Match" = Option<String>, Header, description = "Only if the tournament is still at this version (its `ETag`)"),
    ),
    responses(
        (status = 200, description = "Drawn: the draw event reveals its seed; the online tables are dealt",
         body = DrawResponse),
        (status = 401, description = "Missing, unknown or expired token",
         body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Only the tournament's organizer draws (`forbidden`)",
         body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such tournament (`not_found`)",
         body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "Not now: `wrong_phase`, `round_incomplete`, `stage_rounds_drawn`, \
         `final_reached`, `open_dispute`, `no_table_split`, `round_started`, `not_latest_round`, \
         `seed_not_held`, `not_enough_players`, `finished`, `version_conflict`",
         body = Problem, content_type = "application/problem+json"),
        (status = 412, description = "`If-Match` named another version (`precondition_failed`)",
         body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "A malformed body (`validation_failed`, e.g. a paper table the \
         round does not have), `bad_reason`, `no_such_round`",
         body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn draw(
    state: web::Data<AppState>,
    auth: Authenticated,
    request_id: RequestId,
    key: IdempotencyKeyHeader,
    req: HttpRequest,
    path: web::Path<i64>,
    body: web::Bytes,
) -> Result<HttpResponse, ApiError> {
    let id = path.into_inner();
    let body = parse_draw(&body)?;
    let fingerprint = request_fingerprint(&req, &body);
    let request = body.request();
    let mut mutation = mutation(&auth, &request_id, key.0, fingerprint);
    mutation.if_match = if_match(&req)?;
    let metadata = mutation.metadata();
    let writer = Writer::new(&state, &auth.account, &metadata);
    repo::mutate(&state, id, mutation, Draw::new(id, writer, request)).await
}

/// Starts an online game for a drawn table that has none running and no result (after
/// `void_game`, or for a table first meant for paper): a new game table, seated in the
/// drawn order with the players still in the tournament, started and dealt.
#[utoipa::path(
    post,
    path = "/v1/tournaments/{id}/tables/{stage}/{round}/{table}/online",
    tag = "tournaments",
    security(("bearer" = [])),
    params(
        ("id" = i64, Path, description = "Tournament id"),
        ("stage" = u32, Path, description = "Stage number, from 1"),
        ("round" = u32, Path, description = "Round number within the stage, from 1"),
        ("table" = u32, Path, description = "Table number within the round, from 1"),
        ("Idempotency-Key" = Option<String>, Header, description = "Retry safely: the same key gets the same answer"),
    ),
    responses(
        (status = 201, description = "The game table is dealt", body = OnlineTableBody),
        (status = 401, description = "Missing, unknown or expired token",
         body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Only the tournament's officials (`forbidden`)",
         body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such tournament (`not_found`)",
         body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "`table_already_started` (a game runs or a result is in), \
         `not_enough_players`, `finished`, `version_conflict`",
         body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`no_such_table`",
         body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn start_online(
    state: web::Data<AppState>,
    auth: Authenticated,
    request_id: RequestId,
    key: IdempotencyKeyHeader,
    req: HttpRequest,
    path: web::Path<(i64, u32, u32, u32)>,
) -> Result<HttpResponse, ApiError> {
    let (id, stage, round, table) = path.into_inner();
    let fingerprint = request_fingerprint(&req, &());
    let mutation = mutation(&auth, &request_id, key.0, fingerprint);
    let metadata = mutation.metadata();
    let writer = Writer::new(&state, &auth.account, &metadata);
    let at = TableRef {
        stage,
        round,
        table,
    };
    repo::mutate(&state, id, mutation, StartOnline::new(id, writer, at)).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_empty_body_draws_the_next_round_all_online() {
        for body in ["", "  \n", "{}"] {
            let request = parse_draw(body.as_bytes()).unwrap().request();
            assert!(request.paper_tables.is_empty() && request.redraw.is_none());
        }
    }

    #[test]
    fn paper_tables_and_redraws_are_read_and_unknown_fields_refused() {
        let body =
            br#"{"paper_tables": [2, 3], "redraw": {"stage": 1, "round": 2, "reason": "late"}}"#;
        let request = parse_draw(body).unwrap().request();
        assert_eq!(request.paper_tables, [2, 3]);
        assert_eq!(
            request.redraw,
            Some((RoundRef { stage: 1, round: 2 }, "late".to_owned()))
        );
        assert!(matches!(
            parse_draw(br#"{"seed": "00"}"#),
            Err(ApiError::Validation(_))
        ));
        assert!(parse_draw(b"{").is_err());
    }
}
