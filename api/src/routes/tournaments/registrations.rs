//! `POST /v1/tournaments/{id}/registrations`: a club's list registered at once, from a
//! CSV document (the organizer's door list).
//!
//! - The header row names the columns. `username` is required; `check_in` (`yes`,
//!   `no`, `true`, `false`, `1`, `0` or empty) is optional; any other column (a full
//!   name, a club) is ignored, so a spreadsheet's export can be sent as it is. The same
//!   list can be sent as JSON (`{"players": [{"username": ..., "check_in": true}]}`),
//!   for clients generated from the OpenAPI document.
//! - A username with no account gets one (role `player`), with a one-time set-up code
//!   the player uses to choose a password (`POST /v1/accounts/setup`). Codes are shown
//!   once, in this answer (never cached). A username that has an account, in any case,
//!   names that account and gets no code, even if its player has not chosen a password
//!   yet: a code belongs to whoever created the account, and only the organizer of the
//!   tournament whose list created it (or an admin) hands out a new one
//!   (`POST /v1/tournaments/{id}/players/{account}/setup-code`).
//! - Before the qualification, each player is registered (and checked in when the row
//!   says so); once it has started, each is admitted as a late entry into the next
//!   round. A player already in is reported as such and left as they are.
//! - All or nothing: the accounts, the codes and the tournament's events are written in
//!   one transaction. A bad row refuses the whole list, naming its line.

use actix_web::http::StatusCode;
use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse, web};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use sqlx::PgConnection;
use time::OffsetDateTime;
use utoipa::ToSchema;
use yaniv_domain::tournament::{
    Command, Event, Role as TournamentRole, Tournament, TournamentError,
};

use crate::app_state::AppState;
use crate::auth::accounts::{self, Account, validate_username};
use crate::auth::setup_code;
use crate::error::{ApiError, FieldError, from_serde_json};
use crate::routes::command::CommandRequest;
use crate::routes::csv;
use crate::routes::problems::TournamentCommandProblems;
use crate::tournaments::repo::{self, TournamentWrite};
use crate::tournaments::{self, refusal};

/// Most rows a list may have.
pub const MAX_ROWS: usize = 1000;

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

/// The list as JSON.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RegistrationList {
    pub players: Vec<ListedPlayerBody>,
}

/// One player of a JSON list.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ListedPlayerBody {
    #[schema(example = "alice")]
    pub username: String,
    /// Check the player in as well (before the qualification); `false` by default.
    #[serde(default)]
    pub check_in: bool,
}

/// One row as read from the document.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
struct ListedPlayer {
    line: usize,
    username: String,
    check_in: bool,
}

fn yes_or_no(value: &str) -> Option<bool> {
    match value.trim().to_ascii_lowercase().as_str() {
        "yes" | "y" | "true" | "1" | "x" => Some(true),
        "no" | "n" | "false" | "0" | "" => Some(false),
        _ => None,
    }
}

/// The rows of a door list, or every problem it has (each naming its line).
fn read_list(text: &str) -> Result<Vec<ListedPlayer>, ApiError> {
    let records = csv::read(text)
        .map_err(|e| ApiError::invalid_field(format!("line {}", e.line), e.message))?;
    let mut records = records.into_iter();
    let Some((_, header)) = records.next() else {
        return Err(ApiError::invalid_field(
            "body",
            "an empty document: the first row names the columns (`username`, and \
             optionally `check_in`)",
        ));
    };
    let column = |name: &str| {
        header
            .iter()
            .position(|h| h.trim().eq_ignore_ascii_case(name))
    };
    let Some(username_at) = column("username") else {
        return Err(ApiError::invalid_field(
            "line 1",
            "the header row has no `username` column",
        ));
    };
    let check_in_at = column("check_in");
    let entries = records.map(|(line, record)| {
        let field = |at: usize| record.get(at).map(|f| f.trim()).unwrap_or("");
        let check_in = match check_in_at.map(field).map(yes_or_no) {
            None => Ok(false),
            Some(Some(value)) => Ok(value),
            Some(None) => Err("check_in must be yes, no, true, false, 1, 0 or empty"),
        };
        (line, field(username_at).to_owned(), check_in)
    });
    checked_list(entries, |line| format!("line {line}"))
}

/// The rows of a JSON list, or every problem it has (each naming its entry).
fn json_list(body: &[u8]) -> Result<Vec<ListedPlayer>, ApiError> {
    let list: RegistrationList = serde_json::from_slice(body).map_err(|e| from_serde_json(&e))?;
    let entries = list
        .players
        .into_iter()
        .zip(1..)
        .map(|(p, position)| (position, p.username.trim().to_owned(), Ok(p.check_in)));
    checked_list(entries, |position| format!("players[{}]", position - 1))
}

/// `(line, username, check_in)` entries checked: valid names, each once, within
/// [`MAX_ROWS`]; `field` names an entry in an error.
fn checked_list(
    entries: impl Iterator<Item = (usize, String, Result<bool, &'static str>)>,
    field: impl Fn(usize) -> String,
) -> Result<Vec<ListedPlayer>, ApiError> {
    let mut errors = Vec::new();
    let mut rows: Vec<ListedPlayer> = Vec::new();
    for (line, username, check_in) in entries {
        if let Err(message) = validate_username(&username) {
            errors.push(FieldError::new(field(line), message));
            continue;
        }
        let check_in = match check_in {
            Ok(value) => value,
            Err(message) => {
                errors.push(FieldError::new(field(line), message));
                continue;
            }
        };
        if let Some(first) = rows
            .iter()
            .find(|r| r.username.eq_ignore_ascii_case(&username))
        {
            errors.push(FieldError::new(
                field(line),
                format!("{username} is already listed ({})", field(first.line)),
            ));
            continue;
        }
        rows.push(ListedPlayer {
            line,
            username,
            check_in,
        });
    }
    if rows.len() > MAX_ROWS {
        errors.push(FieldError::new(
            "body",
            format!("{} players: a list has at most {MAX_ROWS}", rows.len()),
        ));
    }
    if rows.is_empty() && errors.is_empty() {
        errors.push(FieldError::new("body", "the list names no player"));
    }
    if errors.is_empty() {
        Ok(rows)
    } else {
        Err(ApiError::Validation(errors))
    }
}

/// A domain refusal for one row, its detail naming the row.
fn refused_at(row: &ListedPlayer, error: &TournamentError) -> ApiError {
    match refusal(error) {
        ApiError::Refused {
            status,
            code,
            title,
            detail,
        } => ApiError::Refused {
            status,
            code,
            title,
            detail: format!("line {} ({}): {detail}", row.line, row.username),
        },
        other => other,
    }
}

/// The list, written as the organizer.
#[derive(Debug)]
struct RegistrationsWrite {
    tournament: i64,
    organizer: Account,
    list: Vec<ListedPlayer>,
    done: Vec<RegistrationRow>,
}

impl RegistrationsWrite {
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

impl TournamentWrite for RegistrationsWrite {
    async fn decide(
        &mut self,
        conn: &mut PgConnection,
        tournament: &Tournament,
    ) -> Result<Vec<Event>, ApiError> {
        self.done.clear();
        // No account is created for a list the caller may not send.
        let ctx = tournaments::context(&self.organizer, repo::now());
        if !tournament.state().acts_as_organizer(&ctx) {
            return Err(refusal(&TournamentError::Forbidden(
                TournamentRole::Organizer,
            )));
        }
        let late = !tournament.state().stages.is_empty();
        let mut after = tournament.clone();
        let mut events = Vec::new();
        for row in &self.list {
            let mut done = self.account(conn, row).await?;
            let player = done.account;
            let enter = if late {
                Command::EnterLate { player }
            } else {
                Command::Register { player }
            };
            match after.execute(&ctx, &enter) {
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
                match after.execute(&ctx, &Command::CheckIn { player }) {
                    Ok(appended) => events.extend(appended),
                    Err(TournamentError::AlreadyCheckedIn(_)) => {}
                    Err(e) => return Err(refused_at(row, &e)),
                }
            }
            done.checked_in = after.state().player(player).is_some_and(|p| p.checked_in);
            self.done.push(done);
        }
        tracing::info!(
            players = self.done.len(),
            created = self.done.iter().filter(|r| r.account_created).count(),
            "door list registered"
        );
        Ok(events)
    }

    fn answer(&self, id: i64, tournament: &Tournament, _events: &[Event]) -> Value {
        let response = RegistrationsResponse {
            id,
            version: tournament.version(),
            rows: self.done.clone(),
        };
        serde_json::to_value(response).unwrap_or_default()
    }
}

/// How the body says it is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ListFormat {
    Csv,
    Json,
}

/// CSV when declared so (or as plain text, or not declared at all), JSON when declared
/// so; `None` for anything else.
fn list_format(req: &HttpRequest) -> Option<ListFormat> {
    let declared = req
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok());
    let Some(declared) = declared else {
        return Some(ListFormat::Csv);
    };
    let declared = declared.trim().to_ascii_lowercase();
    if declared.starts_with("text/csv") || declared.starts_with("text/plain") {
        Some(ListFormat::Csv)
    } else if declared.starts_with("application/json") {
        Some(ListFormat::Json)
    } else {
        None
    }
}

/// Registers a door list (CSV) in one go: missing accounts are created with one-time
/// set-up codes; before the qualification each player is registered (and checked in if
/// the row says so), after its start each is admitted into the next round. Organizer
/// only; all or nothing.
#[utoipa::path(
    post,
    path = "/v1/tournaments/{id}/registrations",
    tag = "tournaments",
    security(("bearer" = [])),
    request_body(
        description = "CSV: a header row naming `username` (required) and `check_in` \
                       (optional; `yes`/`no`), other columns ignored. Or the same list as JSON.",
        content(
            (String = "text/csv", example = "username,check_in\r\nalice,yes\r\nbob,no\r\n"),
            (RegistrationList = "application/json",
             example = json!({"players": [{"username": "alice", "check_in": true}]})),
        ),
    ),
    params(
        ("id" = i64, Path, description = "Tournament id"),
        ("Idempotency-Key" = Option<String>, Header, description = "Retry safely: the same key gets the same answer"),
        ("If-Match" = Option<String>, Header, description = "Only if the tournament is still at this version (its `ETag`)"),
    ),
    responses(
        (status = 200, description = "Every row done: registered, admitted late or already in",
         body = RegistrationsResponse),
        TournamentCommandProblems,
    )
)]
pub async fn register_list(
    state: web::Data<AppState>,
    req: HttpRequest,
    request: CommandRequest,
    path: web::Path<i64>,
    body: web::Bytes,
) -> Result<HttpResponse, ApiError> {
    let id = path.into_inner();
    let list = match list_format(&req) {
        Some(ListFormat::Csv) => {
            let text = std::str::from_utf8(&body)
                .map_err(|_| ApiError::invalid_field("body", "the document is not UTF-8"))?;
            read_list(text)?
        }
        Some(ListFormat::Json) => json_list(&body)?,
        None => {
            return Err(ApiError::Refused {
                status: StatusCode::UNSUPPORTED_MEDIA_TYPE,
                code: "unsupported_media_type",
                title: "Unsupported media type",
                detail: "send the list as text/csv or application/json".into(),
            });
        }
    };
    let mutation = request.mutation(&list);
    let write = RegistrationsWrite {
        tournament: id,
        organizer: request.account().clone(),
        list,
        done: Vec::new(),
    };
    let mut response = state.tournaments.mutate(id, mutation, write).await?;
    // The answer carries set-up codes: a key to each new account.
    response.headers_mut().insert(
        header::CACHE_CONTROL,
        header::HeaderValue::from_static("no-store"),
    );
    Ok(response)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn problems(text: &str) -> Vec<(String, String)> {
        match read_list(text) {
            Err(ApiError::Validation(errors)) => {
                errors.into_iter().map(|e| (e.field, e.message)).collect()
            }
            other => panic!("expected validation errors, got {other:?}"),
        }
    }

    #[test]
    fn a_spreadsheet_export_reads_with_its_extra_columns() {
        let list = read_list(
            "Full name,Username,Check_in\r\nAnn Peeters,ann_p,yes\r\n\"Bob, Jr\",bob.j,\r\n",
        )
        .expect("valid list");
        assert_eq!(
            list,
            [
                ListedPlayer {
                    line: 2,
                    username: "ann_p".into(),
                    check_in: true
                },
                ListedPlayer {
                    line: 3,
                    username: "bob.j".into(),
                    check_in: false
                },
            ]
        );
    }

    #[test]
    fn every_bad_row_is_named_by_its_line() {
        let found = problems("username,check_in\nok_one,maybe\nx\nOK_ONE2,no\nok_one2,yes\n");
        let lines: Vec<&str> = found.iter().map(|(f, _)| f.as_str()).collect();
        assert_eq!(lines, ["line 2", "line 3", "line 5"]);
        assert!(found[2].1.contains("line 4"), "{found:?}");
        let json = json_list(br#"{"players": [{"username": "ann_p"}, {"username": "ANN_P"}]}"#);
        match json {
            Err(ApiError::Validation(errors)) => {
                assert_eq!(errors[0].field, "players[1]");
                assert!(errors[0].message.contains("players[0]"));
            }
            other => panic!("expected a validation error, got {other:?}"),
        }
        assert_eq!(problems("name\nann\n")[0].0, "line 1");
        assert_eq!(problems("")[0].0, "body");
        assert_eq!(problems("username\n\n")[0].0, "body");
    }
}
