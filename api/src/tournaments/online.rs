//! Online games of a tournament's drawn tables: `start_online` creates a table's
//! game, seated in the drawn order with the players still in, started and dealt, and
//! folds its `table_game_started.v1` into the tournament (a draw does it for every
//! table not played on paper, a no-show for the players who came); [`StartOnline`] is
//! an official's start of one table's game (after a void, or for a table first meant
//! for paper).

use serde_json::Value;
use sqlx::PgConnection;
use yaniv_domain::table::{AccountRef, SeatedTable, TournamentLink};
use yaniv_domain::tournament::{Command, Context, Event, TableRef, Tournament};

use super::answers::OnlineTableBody;
use super::refusal;
use crate::auth::accounts::{Account, usernames};
use crate::error::{ApiError, Reason};
use crate::store::EventMetadata;
use crate::store::idempotency::AnswerKind;
use crate::streams::{Write, json_answer};
use crate::tables::tournament_game::create_started;
use crate::tables::{Tables, stream_id as table_stream};

/// A drawn table and the online game table playing it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OnlineTable {
    pub table: TableRef,
    /// Its id under `/v1/tables/{id}`.
    pub game_table: i64,
}

impl From<OnlineTable> for OnlineTableBody {
    fn from(online: OnlineTable) -> Self {
        Self {
            table: online.table,
            game_table: online.game_table,
            version: None,
        }
    }
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
            now: super::repo::now(),
        }
    }

    pub(super) fn ctx(&self) -> Context {
        super::context(self.account, self.now)
    }
}

/// An official starts an online game for one drawn table.
#[derive(Debug)]
pub struct StartOnline<'a> {
    pub id: i64,
    pub writer: Writer<'a>,
    pub table: TableRef,
    /// The table option `rated` as asked: refused by the table (its tournament's
    /// config rates it), but passed on so that the refusal is the domain's.
    pub rated: bool,
    started: Option<OnlineTable>,
}

impl<'a> StartOnline<'a> {
    pub fn new(id: i64, writer: Writer<'a>, table: TableRef) -> Self {
        StartOnline {
            id,
            writer,
            table,
            rated: false,
            started: None,
        }
    }
}

impl StartOnline<'_> {
    /// The online table the last decision opened.
    pub fn started(&self) -> Option<OnlineTable> {
        self.started
    }
}

impl Write<Tournament> for StartOnline<'_> {
    async fn execute(
        &mut self,
        conn: &mut PgConnection,
        _id: i64,
        tournament: &mut Tournament,
    ) -> Result<Vec<Event>, ApiError> {
        self.started = None;
        let (game_table, events) = start_online(
            conn,
            self.id,
            tournament,
            self.table,
            self.writer,
            self.rated,
        )
        .await?;
        self.started = Some(OnlineTable {
            table: self.table,
            game_table,
        });
        Ok(events)
    }

    fn answer(
        &self,
        _id: i64,
        tournament: &Tournament,
        _events: &[Event],
        _before: u64,
    ) -> Result<Value, ApiError> {
        let started = self
            .started
            .ok_or_else(|| ApiError::unexpected("starting a table", "no table started"))?;
        json_answer(&OnlineTableBody {
            version: Some(tournament.version()),
            ..started.into()
        })
    }

    fn answer_kind(&self) -> AnswerKind {
        AnswerKind::Created
    }
}

/// Creates the online game of table `at` of tournament `id` and starts it in
/// `tournament`: returns the game table's id and the `table_game_started.v1` event,
/// already folded in. The domain
/// decides first whether the writer may start it; players who withdrew or were
/// disqualified since the draw, and no-shows, are not seated.
pub(super) async fn start_online(
    conn: &mut PgConnection,
    id: i64,
    tournament: &mut Tournament,
    at: TableRef,
    writer: Writer<'_>,
    rated: bool,
) -> Result<(i64, Vec<Event>), ApiError> {
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
            reason: Reason::NotNow,
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
        rated,
    };
    let game_table =
        create_started(writer.tables, conn, seated, writer.account, writer.metadata).await?;
    let start = Command::StartTableGame {
        table: at,
        game: Some(table_stream(game_table)),
    };
    let events = tournament.execute(&ctx, &start).map_err(|e| refusal(&e))?;
    Ok((game_table, events))
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
