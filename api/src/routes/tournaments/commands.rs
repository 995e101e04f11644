//! `POST /v1/tournaments/{id}/commands`: any tournament command.
//!
//! The body is the domain's command JSON, tagged by `command` (`open_registration`,
//! `register`, `check_in`, `start_qualification`, `draw_round`, `record_result`,
//! `advance_stage`, `finish`, ...; see `docs/tournaments.md`). The caller acts as
//! `Actor::Account(<their id>)`: the domain decides whether that account may send
//! the command in this tournament (organizer, referee, the player themselves).

use actix_web::http::StatusCode;
use actix_web::{HttpResponse, web};
use serde::Serialize;
use serde_json::Value;
use sqlx::PgConnection;
use utoipa::ToSchema;
use yaniv_domain::tournament::{Command, Event, Tournament, TournamentView};

use super::TournamentEvent;
use crate::app_state::AppState;
use crate::auth::accounts::Account;
use crate::auth::{Role, accounts};
use crate::error::{ApiError, from_serde_json};
use crate::routes::command::CommandRequest;
use crate::routes::problems::TournamentCommandProblems;
use crate::tournaments::repo::{self, TournamentWrite};
use crate::tournaments::verify::linked_table;
use crate::tournaments::{self, refusal, seeds};

/// What a command did.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct CommandResponse {
    pub id: i64,
    /// The stream's version after the command.
    pub version: u64,
    /// The events it appended, in order.
    pub events: Vec<TournamentEvent>,
    /// The tournament after them.
    pub tournament: TournamentView,
}

/// Sends a command to a tournament; the domain decides it on the freshly folded
/// tournament and the events it produces are appended.
#[utoipa::path(
    post,
    path = "/v1/tournaments/{id}/commands",
    tag = "tournaments",
    security(("bearer" = [])),
    request_body(
        content = Command,
        description = "A tournament command: `command` names it, the other fields are its own",
        example = json!({"command": "register", "player": 12}),
    ),
    params(
        ("id" = i64, Path, description = "Tournament id"),
        ("Idempotency-Key" = Option<String>, Header, description = "Retry safely: the same key gets the same answer"),
        ("If-Match" = Option<String>, Header, description = "Only if the tournament is still at this version (its `ETag`)"),
    ),
    responses(
        (status = 200, description = "Accepted: the events appended and the tournament after them",
         body = CommandResponse),
        TournamentCommandProblems,
    )
)]
pub async fn command(
    state: web::Data<AppState>,
    request: CommandRequest,
    path: web::Path<i64>,
    body: web::Json<Value>,
) -> Result<HttpResponse, ApiError> {
    let id = path.into_inner();
    let command: Command = serde_json::from_value(body.clone()).map_err(|e| from_serde_json(&e))?;
    let write = CommandWrite {
        id,
        account: request.account().clone(),
        command,
    };
    state
        .tournaments
        .mutate(id, request.mutation(&*body), write)
        .await
}

/// A domain command sent over HTTP, decided as the calling account.
#[derive(Debug)]
struct CommandWrite {
    id: i64,
    account: Account,
    command: Command,
}

impl TournamentWrite for CommandWrite {
    async fn decide(
        &mut self,
        conn: &mut PgConnection,
        tournament: &Tournament,
    ) -> Result<Vec<Event>, ApiError> {
        self.refuse_servers_own(conn, tournament).await?;
        // The clock is read once the tournament's lock is held: a registration window
        // is judged at the moment of the decision.
        let ctx = tournaments::context(&self.account, repo::now());
        let events = tournament
            .decide(&ctx, &self.command)
            .map_err(|e| refusal(&e))?;
        // Only once the caller may send the command: before, any account could learn
        // from the answer whether an id exists and holds the referee role.
        check_accounts(conn, &self.command).await?;
        Ok(events)
    }

    fn answer(&self, id: i64, tournament: &Tournament, events: &[Event]) -> Value {
        // A command is decided on a created tournament (the domain refuses any other),
        // so its view exists; `null` would only mark a broken stream.
        let Some(view) = tournament.view() else {
            return Value::Null;
        };
        let response = CommandResponse {
            id,
            version: tournament.version(),
            events: TournamentEvent::appended(tournament, events),
            tournament: view,
        };
        serde_json::to_value(response).unwrap_or_default()
    }
}

impl CommandWrite {
    /// What only the server does: choosing draw seeds (a seed chosen by a client would
    /// let whoever chose it pick the seating) and opening online games.
    ///
    /// One exception keeps old tournaments drawable: a commitment published before the
    /// server held the seeds is drawn from by whoever made it, with `draw_round` and the
    /// seed it commits to (the domain checks the seed against it).
    async fn refuse_servers_own(
        &self,
        conn: &mut PgConnection,
        tournament: &Tournament,
    ) -> Result<(), ApiError> {
        let refused = |code, detail: &str| ApiError::Refused {
            status: StatusCode::UNPROCESSABLE_ENTITY,
            code,
            title: "Refused by the tournament",
            detail: detail.to_owned(),
        };
        match &self.command {
            Command::CommitDrawSeed { .. } => Err(refused(
                "draws_by_server",
                "the server chooses and commits every draw seed: draw with \
                 POST /v1/tournaments/{id}/draws",
            )),
            Command::DrawRound { .. } | Command::RedrawRound { .. } => {
                let pending = tournament.state().pending_commitment;
                let held = match &pending {
                    Some(commitment) => seeds::held(conn, self.id, commitment).await?,
                    None => true,
                };
                if held {
                    Err(refused(
                        "draws_by_server",
                        "the server holds the seed of the next draw: draw with \
                         POST /v1/tournaments/{id}/draws",
                    ))
                } else {
                    Ok(())
                }
            }
            Command::StartTableGame {
                game: Some(game), ..
            } if linked_table(game).is_some() => Err(refused(
                "online_games_by_server",
                "this server's game tables are opened by a draw or by \
                 POST /v1/tournaments/{id}/tables/{stage}/{round}/{table}/online",
            )),
            _ => Ok(()),
        }
    }
}

/// The accounts a command brings into the tournament must exist, and a referee must
/// hold the referee role: the domain knows account ids only. Checked after the domain
/// has decided that the caller may send the command.
async fn check_accounts(conn: &mut PgConnection, command: &Command) -> Result<(), ApiError> {
    let (account, field, needs_referee) = match command {
        Command::Register { player } | Command::EnterLate { player } => (*player, "player", false),
        Command::AddReferee { referee } => (*referee, "referee", true),
        _ => return Ok(()),
    };
    let found = accounts::by_id(&mut *conn, account)
        .await
        .map_err(|e| ApiError::unexpected("reading an account", e))?;
    let refused = |code, detail: String| ApiError::Refused {
        status: StatusCode::UNPROCESSABLE_ENTITY,
        code,
        title: "Refused by the tournament",
        detail: format!("{field}: {detail}"),
    };
    match found {
        None => Err(refused(
            "unknown_account",
            format!("no account with id {account}"),
        )),
        Some(a) if needs_referee && !a.has_role(Role::Referee) => Err(refused(
            "not_a_referee",
            format!("account {account} does not have the referee role"),
        )),
        Some(_) => Ok(()),
    }
}
