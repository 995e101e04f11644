//! The tables' [`GameEndHook`] for tournaments: when an online game ends, its result
//! goes into the tournament as `result_recorded.v1` by the server, in the transaction
//! of the game's last action, so a finished game and its recorded result cannot
//! diverge.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use sqlx::PgConnection;
use yaniv_domain::table::Table;
use yaniv_domain::tournament::{Command, Context, ResultInput, Tournament};

use super::repo::{self, Tournaments};
use crate::error::ApiError;
use crate::store::EventMetadata;
use crate::streams::{AfterCommit, StreamKind};
use crate::tables::{GameEndHook, stream_id as table_stream};

/// The tables' [`GameEndHook`]: records the result of a finished online game in its
/// tournament, as the server, in the transaction of the game's last action.
///
/// A tournament that no longer wants this result (the game was voided, a referee
/// already entered a result, the tournament is over) refuses it, and one whose stream
/// cannot be read cannot take it: either is logged and the game's end stands, since
/// refusing the player's last action would block the game for ever without saving
/// anything. The referee then enters the result by hand. A database error still fails
/// the action (it is retried whole).
#[derive(Debug)]
pub struct OnlineResults {
    pub tournaments: Arc<Tournaments>,
}

impl GameEndHook for OnlineResults {
    fn game_ended<'a>(
        &'a self,
        conn: &'a mut PgConnection,
        table: &'a Table,
        metadata: &'a EventMetadata,
    ) -> Pin<Box<dyn Future<Output = Result<AfterCommit, ApiError>> + Send + 'a>> {
        Box::pin(self.record(conn, table, metadata))
    }
}

impl OnlineResults {
    async fn record(
        &self,
        conn: &mut PgConnection,
        table: &Table,
        metadata: &EventMetadata,
    ) -> Result<AfterCommit, ApiError> {
        let Some(link) = table.created.tournament else {
            return Ok(AfterCommit::default());
        };
        let id = link.tournament_id;
        let tournaments = &self.tournaments;
        if !<Tournament as StreamKind>::lock(conn, id).await? {
            tracing::warn!(
                tournament = id,
                table = table.id,
                "the linked tournament does not exist"
            );
            return Ok(AfterCommit::default());
        }
        let mut tournament = match tournaments.load_for_write(conn, id).await {
            Ok((Some(tournament), _)) => tournament,
            Ok((None, _)) => return Ok(AfterCommit::default()),
            Err(ApiError::Unexpected { context, .. }) => {
                tracing::error!(
                    tournament = id,
                    table = table.id,
                    context,
                    "the tournament cannot be read: the online game's result is not recorded"
                );
                return Ok(AfterCommit::default());
            }
            Err(err) => return Err(err),
        };
        let game = table_stream(table.id);
        let in_force = tournament
            .state()
            .table(link.table)
            .is_some_and(|t| t.started && t.game.as_deref() == Some(game.as_str()));
        let decided = if in_force {
            ResultInput::from_game(&table.game, &table.human_accounts(), Some(game)).and_then(
                |input| {
                    tournament.execute(
                        &Context::server(repo::now()),
                        &Command::RecordResult {
                            reason: None,
                            table: link.table,
                            input,
                        },
                    )
                },
            )
        } else {
            tracing::info!(tournament = id, table = table.id, at = %link.table,
                "an online game ended that is no longer the table's game: its result is not recorded");
            Ok(Vec::new())
        };
        match decided {
            Ok(events) if !events.is_empty() => {
                let server = EventMetadata {
                    actor: "system".into(),
                    request_id: metadata.request_id.clone(),
                    idempotency_key: None,
                };
                tournaments
                    .append_folded(conn, id, &tournament, &events, &server)
                    .await?;
                tracing::info!(tournament = id, table = table.id, at = %link.table, "online result recorded");
            }
            Ok(_) => {}
            Err(refused) => {
                tracing::warn!(tournament = id, table = table.id, at = %link.table,
                    code = refused.code(), error = %refused,
                    "the tournament refused an online game's result");
            }
        }
        // The fold was taken out of the cache for this write: it goes back once the
        // transaction has committed (the cache holds committed events only).
        let tournaments = Arc::clone(tournaments);
        Ok(AfterCommit::new(move || {
            tournaments.cache().put(id, tournament)
        }))
    }
}
