//! `POST /v1/tournaments/{id}/draws` and
//! `POST /v1/tournaments/{id}/tables/{stage}/{round}/{table}/online`: drawing rounds
//! from the server's committed seeds and playing drawn tables online (the writes are
//! `crate::tournaments::draw` and `crate::tournaments::online`).

use actix_web::{HttpResponse, web};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use yaniv_domain::tournament::{RoundRef, TableRef};

use crate::app_state::AppState;
use crate::error::{ApiError, from_serde_json};
use crate::http::routes::command::CommandRequest;
use crate::http::routes::problems::TournamentCommandProblems;
use crate::tournaments::answers::{DrawResponse, OnlineTableBody};
use crate::tournaments::draw::{Draw, DrawRequest};
use crate::tournaments::online::{StartOnline, Writer};

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
    request_body(content = DrawBody, description = "What to draw; `{}` (or no body at all) draws the next round, every table online"),
    params(
        ("id" = i64, Path, description = "Tournament id"),
        ("Idempotency-Key" = Option<String>, Header, description = "Retry safely: the same key gets the same answer"),
        ("If-Match" = Option<String>, Header, description = "Only if the tournament is still at this version (its `ETag`)"),
    ),
    responses(
        (status = 200, description = "Drawn: the draw event reveals its seed; the online tables are dealt",
         body = DrawResponse),
        TournamentCommandProblems,
    )
)]
pub async fn draw(
    state: web::Data<AppState>,
    request: CommandRequest,
    path: web::Path<i64>,
    body: web::Bytes,
) -> Result<HttpResponse, ApiError> {
    let id = path.into_inner();
    let body = parse_draw(&body)?;
    let mutation = request.mutation(&body);
    let metadata = mutation.metadata();
    let writer = Writer::new(&state.tables, request.account(), &metadata);
    let draw = Draw::new(id, writer, body.request());
    Ok(state.tournaments.mutate(id, mutation, draw).await?.into())
}

/// Options of a drawn table's online game. An empty body (or `{}`) asks for none.
#[derive(Debug, Clone, Default, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({}))]
pub struct StartOnlineBody {
    /// Refused when `true` (`422 rated_by_tournament`): a tournament's games are rated
    /// by its config's `rated`, never table by table. Accepted so that whoever tries
    /// learns why, instead of the game silently counting (or not).
    #[serde(default)]
    pub rated: bool,
}

fn parse_start_online(body: &[u8]) -> Result<StartOnlineBody, ApiError> {
    if body.iter().all(u8::is_ascii_whitespace) {
        return Ok(StartOnlineBody::default());
    }
    serde_json::from_slice(body).map_err(|e| from_serde_json(&e))
}

/// Starts an online game for a drawn table that has none running and no result (after
/// `void_game`, or for a table first meant for paper): a new game table, seated in the
/// drawn order with the players still in the tournament, started and dealt.
#[utoipa::path(
    post,
    path = "/v1/tournaments/{id}/tables/{stage}/{round}/{table}/online",
    tag = "tournaments",
    security(("bearer" = [])),
    request_body(content = StartOnlineBody, description = "Optional; `{}` (or no body at all) starts the game"),
    params(
        ("id" = i64, Path, description = "Tournament id"),
        ("stage" = u32, Path, description = "Stage number, from 1"),
        ("round" = u32, Path, description = "Round number within the stage, from 1"),
        ("table" = u32, Path, description = "Table number within the round, from 1"),
        ("Idempotency-Key" = Option<String>, Header, description = "Retry safely: the same key gets the same answer"),
    ),
    responses(
        (status = 201, description = "The game table is dealt", body = OnlineTableBody),
        TournamentCommandProblems,
    )
)]
pub async fn start_online(
    state: web::Data<AppState>,
    request: CommandRequest,
    path: web::Path<(i64, u32, u32, u32)>,
    body: web::Bytes,
) -> Result<HttpResponse, ApiError> {
    let (id, stage, round, table) = path.into_inner();
    let body = parse_start_online(&body)?;
    // The body of every start that is not refused is empty: keyed as before the body
    // existed, so a retry across an upgrade gets its answer.
    let mutation = request.mutation(&());
    let metadata = mutation.metadata();
    let writer = Writer::new(&state.tables, request.account(), &metadata);
    let at = TableRef {
        stage,
        round,
        table,
    };
    let mut start = StartOnline::new(id, writer, at);
    start.rated = body.rated;
    Ok(state.tournaments.mutate(id, mutation, start).await?.into())
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
