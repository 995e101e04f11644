//! A club's door list registered at once ([`RegistrationsWrite`]), as the
//! tournament's organizer, all or nothing in one transaction:
//!
//! - A username with no account gets one (role `player`) with a one-time set-up code,
//!   shown once in the answer. A username that has an account, in any case, names that
//!   account and gets no code: a code belongs to whoever created the account.
//! - Before the qualification each player is registered (and checked in when the row
//!   says so); once it has started, each is admitted as a late entry. A player already
//!   in is reported as such and left as they are.
//! - A bad row refuses the whole list, naming its line.
//!
//! Reading the list (CSV or JSON) is the route's, `routes/tournaments/registrations.rs`.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use sqlx::PgConnection;
use time::OffsetDateTime;
use utoipa::ToSchema;
use yaniv_domain::tournament::{
    Command, Event, Role as TournamentRole, Tournament, TournamentError,
};

use super::{refusal, repo};
use crate::auth::accounts::{self, Account};
use crate::auth::setup_code;
use crate::error::ApiError;
use crate::streams::{Write, json_answer};

/// What the list did, row by row.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct RegistrationsResponse {
    pub id: i64,
    /// The tournament's version after the list.
    pub version: u64,
    pub rows: Vec<RegistrationRow>,
}

/// What happened to one row.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum RegistrationOutcome {
    /// Registered (before the qualification).
    Registered,
    /// Admitted into the next qualification round.
    EnteredLate,
    /// Already in the tournament: left as they were.
    AlreadyRegistered,
}

/// One row of the list and what it did.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct RegistrationRow {
    /// The row's line in the CSV document (the header is line 1), or its position in
    /// a JSON list (from 1).
    pub line: usize,
    pub username: String,
    /// The account's id.
    pub account: i64,
    pub outcome: RegistrationOutcome,
    /// Whether the player is checked in after the row.
    pub checked_in: bool,
    /// The account was created by this list.
    pub account_created: bool,
    /// A one-time code with which the player chooses a password
    /// (`POST /v1/accounts/setup`), for an account this list created; shown only here.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(example = "K7QM-3XWP-9ZTR")]
    pub setup_code: Option<String>,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "time::serde::rfc3339::option"
    )]
    #[schema(value_type = Option<String>, format = DateTime)]
    pub setup_code_expires_at: Option<OffsetDateTime>,
}

/// One row as read from the document.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ListedPlayer {
    /// Its line in the CSV document (the header is line 1), or its position in a
    /// JSON list (from 1).
    pub line: usize,
    pub username: String,
    pub check_in: bool,
}

/// The list, written as the organizer.
#[derive(Debug)]
pub struct RegistrationsWrite {
    tournament: i64,
    organizer: Account,
    list: Vec<ListedPlayer>,
    done: Vec<RegistrationRow>,
}

impl RegistrationsWrite {
    /// `list` for tournament `tournament`, sent by `organizer`.
    pub fn new(tournament: i64, organizer: Account, list: Vec<ListedPlayer>) -> Self {
        Self {
            tournament,
            organizer,
            list,
            done: Vec::new(),
        }
    }

    /// The row's account: the one its name (in any case) already has, or one created
    /// now with a set-up code. An existing account never gets a code here, whoever
    /// created it: that would hand its door to whoever sends a list.
    async fn account(
        &self,
        conn: &mut PgConnection,
        row: &ListedPlayer,
    ) -> Result<RegistrationRow, ApiError> {
        if let Some(found) = accounts::listed(conn, &row.username).await? {
            return Ok(RegistrationRow {
                line: row.line,
                username: found.username,
                account: found.id,
                outcome: RegistrationOutcome::Registered,
                checked_in: false,
                account_created: false,
                setup_code: None,
                setup_code_expires_at: None,
            });
        }
        let account =
            accounts::create_pending(conn, &row.username, self.organizer.id, self.tournament)
                .await?;
        let code =
            setup_code::issue().map_err(|e| ApiError::unexpected("reading the OS RNG", e))?;
        let issue = setup_code::Issue {
            by: self.organizer.id,
            tournament: Some(self.tournament),
            reissue: false,
        };
        let expires = setup_code::store(conn, account, &code, issue).await?;
        let (setup_code, setup_code_expires_at) = (Some(code.expose().to_owned()), Some(expires));
        let created = true;
        Ok(RegistrationRow {
            line: row.line,
            username: row.username.clone(),
            account,
            outcome: RegistrationOutcome::Registered,
            checked_in: false,
            account_created: created,
            setup_code,
            setup_code_expires_at,
        })
    }
}

impl Write<Tournament> for RegistrationsWrite {
    async fn execute(
        &mut self,
        conn: &mut PgConnection,
        _id: i64,
        tournament: &mut Tournament,
    ) -> Result<Vec<Event>, ApiError> {
        self.done.clear();
        // No account is created for a list the caller may not send.
        let ctx = super::context(&self.organizer, repo::now());
        if !tournament.state().acts_as_organizer(&ctx) {
            return Err(refusal(&TournamentError::Forbidden(
                TournamentRole::Organizer,
            )));
        }
        let late = !tournament.state().stages.is_empty();
        let mut events = Vec::new();
        for row in &self.list {
            let mut done = self.account(conn, row).await?;
            let player = done.account;
            let enter = if late {
                Command::EnterLate { player }
            } else {
                Command::Register { player }
            };
            match tournament.execute(&ctx, &enter) {
                Ok(appended) => {
                    events.extend(appended);
                    if late {
                        done.outcome = RegistrationOutcome::EnteredLate;
                    }
                }
                Err(TournamentError::AlreadyRegistered(_)) => {
                    done.outcome = RegistrationOutcome::AlreadyRegistered;
                }
                Err(e) => return Err(refused_at(row, &e)),
            }
            if row.check_in && !late {
                match tournament.execute(&ctx, &Command::CheckIn { player }) {
                    Ok(appended) => events.extend(appended),
                    Err(TournamentError::AlreadyCheckedIn(_)) => {}
                    Err(e) => return Err(refused_at(row, &e)),
                }
            }
            done.checked_in = tournament
                .state()
                .player(player)
                .is_some_and(|p| p.checked_in);
            self.done.push(done);
        }
        tracing::info!(
            players = self.done.len(),
            created = self.done.iter().filter(|r| r.account_created).count(),
            "door list registered"
        );
        Ok(events)
    }

    fn answer(
        &self,
        id: i64,
        tournament: &Tournament,
        _events: &[Event],
        _before: u64,
    ) -> Result<Value, ApiError> {
        json_answer(&RegistrationsResponse {
            id,
            version: tournament.version(),
            rows: self.done.clone(),
        })
    }
}

/// A domain refusal for one row, its detail naming the row.
fn refused_at(row: &ListedPlayer, error: &TournamentError) -> ApiError {
    match refusal(error) {
        ApiError::Refused {
            reason,
            code,
            title,
            detail,
        } => ApiError::Refused {
            reason,
            code,
            title,
            detail: format!("line {} ({}): {detail}", row.line, row.username),
        },
        other => other,
    }
}
