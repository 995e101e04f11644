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

use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse, web};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::app_state::AppState;
use crate::auth::accounts::validate_username;
use crate::error::{ApiError, FieldError, Reason, from_serde_json};
use crate::http::routes::command::CommandRequest;
use crate::http::routes::csv;
use crate::http::routes::problems::TournamentCommandProblems;
use crate::tournaments::door_list::RegistrationsWrite;
pub use crate::tournaments::door_list::{
    ListedPlayer, RegistrationOutcome, RegistrationRow, RegistrationsResponse,
};

/// Most rows a list may have.
pub const MAX_ROWS: usize = 1000;

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
                reason: Reason::UnsupportedForm,
                code: "unsupported_media_type",
                title: "Unsupported media type",
                detail: "send the list as text/csv or application/json".into(),
            });
        }
    };
    let mutation = request.mutation(&list);
    let write = RegistrationsWrite::new(id, request.account().clone(), list);
    let mut response: HttpResponse = state.tournaments.mutate(id, mutation, write).await?.into();
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
