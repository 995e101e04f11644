//! A referee's no-show decision at one drawn table, in one write: a game already
//! dealt for the table is voided, the no-show recorded, and, when the table was played
//! online, a new game dealt for the players who came.

use serde_json::Value;
use sqlx::PgConnection;
use yaniv_domain::tournament::{Command, Event, TableRef, Tournament, TournamentError};
use yaniv_verify::tournament::linked_table;

use super::answers::{NoShowResponse, TournamentEvent, view};
use super::online::{OnlineTable, Writer, start_online};
use super::refusal;
use crate::error::ApiError;
use crate::streams::{Write, json_answer};

/// The decision (see the module docs).
#[derive(Debug)]
pub struct NoShow<'a> {
    pub id: i64,
    pub writer: Writer<'a>,
    pub table: TableRef,
    pub player: i64,
    pub reason: String,
    started: Option<OnlineTable>,
}

impl<'a> NoShow<'a> {
    pub fn new(id: i64, writer: Writer<'a>, table: TableRef, player: i64, reason: String) -> Self {
        NoShow {
            id,
            writer,
            table,
            player,
            reason,
            started: None,
        }
    }
}

impl Write<Tournament> for NoShow<'_> {
    async fn execute(
        &mut self,
        conn: &mut PgConnection,
        _id: i64,
        tournament: &mut Tournament,
    ) -> Result<Vec<Event>, ApiError> {
        self.started = None;
        let ctx = self.writer.ctx();
        let at = self.table;
        let table = tournament
            .state()
            .table(at)
            .ok_or_else(|| refusal(&TournamentError::NoSuchTable(at)))?;
        let online = table
            .game
            .as_deref()
            .is_some_and(|g| linked_table(g).is_some());
        let dealt = table.started && table.result.is_none();
        let mut events = Vec::new();
        let mut run = |tournament: &mut Tournament, command: Command| {
            tournament
                .execute(&ctx, &command)
                .map(|appended| events.extend(appended))
                .map_err(|e| refusal(&e))
        };
        if dealt {
            run(
                tournament,
                Command::VoidGame {
                    table: at,
                    reason: self.reason.clone(),
                },
            )?;
        }
        run(
            tournament,
            Command::RecordNoShow {
                table: at,
                player: self.player,
                reason: self.reason.clone(),
            },
        )?;
        if online {
            let (game_table, started) =
                start_online(conn, self.id, tournament, at, self.writer, false).await?;
            events.extend(started);
            self.started = Some(OnlineTable {
                table: at,
                game_table,
            });
        }
        tracing::info!(
            tournament = self.id,
            table = %at,
            player = self.player,
            voided = dealt,
            online,
            "no-show recorded"
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
        json_answer(&NoShowResponse {
            id,
            version: tournament.version(),
            events: TournamentEvent::appended(tournament, events),
            tournament: view(tournament)?,
            online_table: self.started.map(Into::into),
        })
    }
}
