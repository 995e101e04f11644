//! The organizer's draw of a round (or a redraw of the latest) from the seed the
//! server committed to beforehand (`seeds.rs`). Every drawn table not marked as played
//! on paper gets its online game at once (`online.rs`), in the same write.

use serde_json::Value;
use sqlx::PgConnection;
use yaniv_domain::tournament::{Command, Event, RoundRef, TableRef, Tournament};

use super::answers::{DrawResponse, TournamentEvent, view};
use super::online::{OnlineTable, Writer, start_online};
use super::{refusal, seeds};
use crate::error::{ApiError, Reason};
use crate::streams::{Write, json_answer};

/// What the organizer asks of a draw.
#[derive(Debug, Clone, Default)]
pub struct DrawRequest {
    /// Tables of the drawn round played on paper (no online game is created for them).
    pub paper_tables: Vec<u32>,
    /// Draw this round again instead of drawing the next one.
    pub redraw: Option<(RoundRef, String)>,
}

/// The organizer's draw (see the module docs).
#[derive(Debug)]
pub struct Draw<'a> {
    pub id: i64,
    pub writer: Writer<'a>,
    pub request: DrawRequest,
    online: Vec<OnlineTable>,
}

impl<'a> Draw<'a> {
    pub fn new(id: i64, writer: Writer<'a>, request: DrawRequest) -> Self {
        Draw {
            id,
            writer,
            request,
            online: Vec::new(),
        }
    }
}

/// 409 when the server does not hold the seed behind the published commitment (one
/// made before the server held the seeds): whoever made it draws with `draw_round` and
/// that seed through the commands.
fn seed_not_held() -> ApiError {
    ApiError::Refused {
        reason: Reason::NotNow,
        code: "seed_not_held",
        title: "Refused by the tournament",
        detail: "the published seed commitment was not made by this server: whoever made \
                 it draws with the `draw_round` command and the seed it commits to"
            .into(),
    }
}

/// 409 when no seed is committed for a draw: the tournament is over, or its final
/// table has begun (so nothing can be drawn or redrawn).
fn no_commitment() -> ApiError {
    ApiError::Refused {
        reason: Reason::NotNow,
        code: "no_commitment",
        title: "Refused by the tournament",
        detail: "no draw seed is committed: nothing is left to draw".into(),
    }
}

impl Write<Tournament> for Draw<'_> {
    /// Draws the round in `tournament`, then opens the online tables of the round
    /// (see the module docs).
    async fn execute(
        &mut self,
        conn: &mut PgConnection,
        _id: i64,
        tournament: &mut Tournament,
    ) -> Result<Vec<Event>, ApiError> {
        self.online.clear();
        let seed = match tournament.state().pending_commitment {
            Some(commitment) => seeds::reveal(conn, self.id, &commitment)
                .await?
                .ok_or_else(seed_not_held)?,
            // Every draw is from a seed committed before it: a draw still possible always
            // has one (`seeds::commitment_due`).
            None => return Err(no_commitment()),
        };
        let command = match &self.request.redraw {
            None => Command::DrawRound { seed },
            Some((round, reason)) => Command::RedrawRound {
                round: *round,
                seed,
                reason: reason.clone(),
            },
        };
        let mut events = tournament
            .execute(&self.writer.ctx(), &command)
            .map_err(|e| refusal(&e))?;
        let (stage, round, tables) = match events.first() {
            Some(Event::RoundDrawn(d) | Event::RoundRedrawn(d)) => {
                (d.stage, d.round, d.tables.len() as u32)
            }
            _ => return Err(ApiError::unexpected("drawing a round", "no draw decided")),
        };
        if let Some(bad) = self
            .request
            .paper_tables
            .iter()
            .find(|&&k| k == 0 || k > tables)
        {
            return Err(ApiError::invalid_field(
                "paper_tables",
                format!("the round has tables 1 to {tables}, not {bad}"),
            ));
        }
        for table in (1..=tables).filter(|k| !self.request.paper_tables.contains(k)) {
            let at = TableRef {
                stage,
                round,
                table,
            };
            let (game_table, started) =
                start_online(conn, self.id, tournament, at, self.writer, false).await?;
            events.extend(started);
            self.online.push(OnlineTable {
                table: at,
                game_table,
            });
        }
        tracing::info!(
            tournament = self.id,
            stage,
            round,
            tables,
            online = self.online.len(),
            "round drawn"
        );
        Ok(events)
    }

    fn answer(
        &self,
        id: i64,
        tournament: &Tournament,
        events: &[Event],
        _before: u64,
    ) -> Result<Value, ApiError> {
        json_answer(&DrawResponse {
            id,
            version: tournament.version(),
            events: TournamentEvent::appended(tournament, events),
            tournament: view(tournament)?,
            online_tables: self.online.iter().copied().map(Into::into).collect(),
        })
    }
}
