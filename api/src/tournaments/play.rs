//! A tournament played on the server (TOURNAMENT.md "Tables are played either way",
//! the online way):
//!
//! - [`Draw`]: the organizer's draw of the next round (or a redraw), from the seed the
//!   server committed to (`seeds.rs`); every drawn table not marked as played on paper
//!   gets an online game table at once, seated in the drawn order, started and dealt;
//!   its `table_game_started.v1` names the game (`table-<id>`).
//! - [`StartOnline`]: an official starts an online game for one drawn table (after a
//!   void, or for a table first meant for paper).
//! - [`OnlineResults`]: the tables' [`GameEndHook`]: when an online game ends, its
//!   result goes into the tournament as `result_recorded.v1` by the server, in the
//!   transaction of the game's last action, so a finished game and its recorded result
//!   cannot diverge.

use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use actix_web::http::StatusCode;
use sqlx::PgConnection;
use yaniv_domain::tournament::{
    Command, Context, Event, ResultInput, RoundRef, TableRef, Tournament,
};

use yaniv_domain::table::{AccountRef, SeatedTable, Table, TournamentLink};

use super::repo::{self, Tournaments};
use super::verify::linked_table;
use super::{refusal, seeds};
use crate::auth::accounts::Account;
use crate::error::ApiError;
use crate::store::EventMetadata;
use crate::streams::AfterCommit;
use crate::tables::tournament_game::create_started;
use crate::tables::{GameEndHook, Tables, stream_id as table_stream};

/// A drawn table and the online game table playing it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OnlineTable {
    pub table: TableRef,
    /// Its id under `/v1/tables/{id}`.
    pub game_table: i64,
}

/// What the organizer asks of a draw.
#[derive(Debug, Clone, Default)]
pub struct DrawRequest {
    /// Tables of the drawn round played on paper (no online game is created for them).
    pub paper_tables: Vec<u32>,
    /// Draw this round again instead of drawing the next one.
    pub redraw: Option<(RoundRef, String)>,
}

/// Who writes, and how their writes are stored.
#[derive(Debug, Clone, Copy)]
pub struct Writer<'a> {
    pub tables: &'a Tables,
    pub account: &'a Account,
    pub metadata: &'a EventMetadata,
    pub now: i64,
}

impl<'a> Writer<'a> {
    /// `account` writing now, with its events stored under `metadata`.
    pub fn new(tables: &'a Tables, account: &'a Account, metadata: &'a EventMetadata) -> Self {
        Writer {
            tables,
            account,
            metadata,
            now: repo::now(),
        }
    }

    fn ctx(&self) -> Context {
        super::context(self.account, self.now)
    }
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
        status: StatusCode::CONFLICT,
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
        status: StatusCode::CONFLICT,
        code: "no_commitment",
        title: "Refused by the tournament",
        detail: "no draw seed is committed: nothing is left to draw".into(),
    }
}

impl Draw<'_> {
    /// The online tables the last decision opened.
    pub fn online(&self) -> &[OnlineTable] {
        &self.online
    }

    /// Decides the draw on `tournament` (the route answers it, see
    /// `routes::tournaments::draws`).
    pub async fn decide(
        &mut self,
        conn: &mut PgConnection,
        tournament: &Tournament,
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
            .decide(&self.writer.ctx(), &command)
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
        let mut after = tournament.clone();
        for event in &events {
            after.apply(event);
        }
        for table in (1..=tables).filter(|k| !self.request.paper_tables.contains(k)) {
            let at = TableRef {
                stage,
                round,
                table,
            };
            let (game_table, started) =
                start_online(conn, self.id, &after, at, self.writer).await?;
            after.apply(&started);
            events.push(started);
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
}

/// An official starts an online game for one drawn table.
#[derive(Debug)]
pub struct StartOnline<'a> {
    pub id: i64,
    pub writer: Writer<'a>,
    pub table: TableRef,
    started: Option<OnlineTable>,
}

impl<'a> StartOnline<'a> {
    pub fn new(id: i64, writer: Writer<'a>, table: TableRef) -> Self {
        StartOnline {
            id,
            writer,
            table,
            started: None,
        }
    }
}

impl StartOnline<'_> {
    /// The online table the last decision opened.
    pub fn started(&self) -> Option<OnlineTable> {
        self.started
    }

    /// Decides the start on `tournament` (the route answers it).
    pub async fn decide(
        &mut self,
        conn: &mut PgConnection,
        tournament: &Tournament,
    ) -> Result<Vec<Event>, ApiError> {
        let (game_table, event) =
            start_online(conn, self.id, tournament, self.table, self.writer).await?;
        self.started = Some(OnlineTable {
            table: self.table,
            game_table,
        });
        Ok(vec![event])
    }
}

/// A referee's no-show decision at one drawn table, in one write: a game already
/// dealt for the table is voided, the no-show recorded, and, when the table was played
/// online, a new game dealt for the players who came.
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

    /// The online table dealt for the players who came, if any.
    pub fn started(&self) -> Option<OnlineTable> {
        self.started
    }

    /// Decides the no-show on `tournament` (the route answers it).
    pub async fn decide(
        &mut self,
        conn: &mut PgConnection,
        tournament: &Tournament,
    ) -> Result<Vec<Event>, ApiError> {
        self.started = None;
        let ctx = self.writer.ctx();
        let at = self.table;
        let table = tournament
            .state()
            .table(at)
            .ok_or_else(|| refusal(&yaniv_domain::tournament::TournamentError::NoSuchTable(at)))?;
        let online = table
            .game
            .as_deref()
            .is_some_and(|g| linked_table(g).is_some());
        let dealt = table.started && table.result.is_none();
        let mut after = tournament.clone();
        let mut events = Vec::new();
        let mut run = |after: &mut Tournament, command: Command| {
            after
                .execute(&ctx, &command)
                .map(|appended| events.extend(appended))
                .map_err(|e| refusal(&e))
        };
        if dealt {
            run(
                &mut after,
                Command::VoidGame {
                    table: at,
                    reason: self.reason.clone(),
                },
            )?;
        }
        run(
            &mut after,
            Command::RecordNoShow {
                table: at,
                player: self.player,
                reason: self.reason.clone(),
            },
        )?;
        if online {
            let (game_table, started) =
                start_online(conn, self.id, &after, at, self.writer).await?;
            after.apply(&started);
            events.push(started);
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
}

/// Creates the online game of table `at` of tournament `id` (as `tournament` is now)
/// and returns its id with the `table_game_started.v1` event to append. The domain
/// decides first whether the writer may start it; players who withdrew or were
/// disqualified since the draw, and no-shows, are not seated.
async fn start_online(
    conn: &mut PgConnection,
    id: i64,
    tournament: &Tournament,
    at: TableRef,
    writer: Writer<'_>,
) -> Result<(i64, Event), ApiError> {
    let ctx = writer.ctx();
    let allowed = Command::StartTableGame {
        table: at,
        game: None,
    };
    tournament.decide(&ctx, &allowed).map_err(|e| refusal(&e))?;
    let s = tournament.state();
    let info = s
        .info
        .as_ref()
        .ok_or_else(|| ApiError::unexpected("starting a table", "no tournament"))?;
    let seated: Vec<i64> = s
        .table(at)
        .map(|t| t.players.clone())
        .unwrap_or_default()
        .into_iter()
        .filter(|&p| s.player(p).is_some_and(|p| p.is_active()))
        .filter(|p| !s.table(at).is_some_and(|t| t.absent.contains(p)))
        .collect();
    if seated.len() < usize::from(info.effective_rules.min_players).max(2) {
        return Err(ApiError::Refused {
            status: StatusCode::CONFLICT,
            code: "not_enough_players",
            title: "Refused by the tournament",
            detail: format!("only {} player(s) of {at} are still in", seated.len()),
        });
    }
    let seated = SeatedTable {
        link: TournamentLink {
            tournament_id: id,
            table: at,
        },
        rules: info.rules.clone(),
        effective_rules: info.effective_rules.clone(),
        players: seated_accounts(conn, &seated).await?,
        clock: s.config().and_then(|config| config.clock),
        player_entropy: s.config().is_some_and(|config| config.player_entropy),
    };
    let game_table =
        create_started(writer.tables, conn, seated, writer.account, writer.metadata).await?;
    let start = Command::StartTableGame {
        table: at,
        game: Some(table_stream(game_table)),
    };
    let event = tournament
        .decide(&ctx, &start)
        .map_err(|e| refusal(&e))?
        .pop()
        .ok_or_else(|| ApiError::unexpected("starting a table", "no event decided"))?;
    Ok((game_table, event))
}

/// `accounts` with their usernames, in the same order; every account must exist.
async fn seated_accounts(
    conn: &mut PgConnection,
    accounts: &[i64],
) -> Result<Vec<AccountRef>, ApiError> {
    let names = usernames(conn, accounts).await?;
    accounts
        .iter()
        .zip(names)
        .map(|(&account_id, username)| {
            username
                .map(|username| AccountRef {
                    account_id,
                    username,
                })
                .ok_or_else(|| {
                    ApiError::unexpected("seating a tournament table", "an account is missing")
                })
        })
        .collect()
}

/// The username of each of `accounts`, in the same order, in one query: `None` for an
/// account that does not exist (any more).
pub(crate) async fn usernames(
    conn: &mut PgConnection,
    accounts: &[i64],
) -> Result<Vec<Option<String>>, ApiError> {
    let rows: Vec<(i64, String)> =
        sqlx::query_as("SELECT id, username FROM accounts WHERE id = ANY($1)")
            .bind(accounts)
            .fetch_all(&mut *conn)
            .await?;
    let names: HashMap<i64, String> = rows.into_iter().collect();
    Ok(accounts.iter().map(|id| names.get(id).cloned()).collect())
}

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
        if !<Tournament as crate::streams::StreamKind>::lock(conn, id).await? {
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
