//! The problem documents a command on a stream can answer, written once: the refusal
//! codes come from the rules engine's own catalogues (`Refusal::catalogue`), so a new
//! refusal reaches the OpenAPI document without anyone listing it by hand.

use std::collections::BTreeMap;

use utoipa::IntoResponses;
use utoipa::openapi::{ContentBuilder, Ref, RefOr, Response, ResponseBuilder};
use yaniv_domain::aggregate::{Refusal, RefusalKind};
use yaniv_domain::game::GameError;
use yaniv_domain::season::SeasonError;
use yaniv_domain::table::TableError;
use yaniv_domain::tournament::TournamentError;

use crate::error::PROBLEM_JSON;
use crate::problem_codes::{SERVER_SEASON_REFUSALS, SERVER_TOURNAMENT_REFUSALS};

/// `` `a`, `b` or `c` `` for a description.
fn listed(codes: &[&str]) -> String {
    let quoted: Vec<String> = codes.iter().map(|c| format!("`{c}`")).collect();
    match quoted.split_last() {
        None => String::new(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
    }
}

/// A response carrying a problem document.
pub fn problem_response(description: &str) -> Response {
    ResponseBuilder::new()
        .description(description)
        .content(
            PROBLEM_JSON,
            ContentBuilder::new()
                .schema(Some(Ref::from_schema_name("Problem")))
                .build(),
        )
        .build()
}

/// The responses of a command on a stream of `what`, whose refusals are `catalogue`.
fn command_problems(
    what: &str,
    catalogue: impl IntoIterator<Item = (&'static str, RefusalKind)>,
) -> BTreeMap<String, RefOr<Response>> {
    let mut by_kind: BTreeMap<&'static str, Vec<&'static str>> = BTreeMap::new();
    for (code, kind) in catalogue {
        let status = match kind {
            RefusalKind::Forbidden => "403",
            RefusalKind::NotNow => "409",
            RefusalKind::Invalid => "422",
            RefusalKind::Internal => continue,
        };
        let codes = by_kind.entry(status).or_default();
        if !codes.contains(&code) {
            codes.push(code);
        }
    }
    let codes = |status: &str| by_kind.get(status).cloned().unwrap_or_default();
    let mut not_now = codes("409");
    not_now.push("version_conflict");
    let mut invalid = vec!["validation_failed"];
    invalid.extend(
        codes("422")
            .into_iter()
            .filter(|c| *c != "validation_failed"),
    );
    [
        (
            "401",
            "No token (`unauthenticated`), or an unknown, expired or revoked one \
             (`invalid_token`)"
                .to_owned(),
        ),
        (
            "403",
            format!(
                "The caller's place does not allow it: {}",
                listed(&codes("403"))
            ),
        ),
        ("404", format!("No such {what} (`not_found`)")),
        (
            "409",
            format!(
                "Not now (reload and look again): {}; `version_conflict` after losing \
                 the race to other writers 4 times",
                listed(&not_now[..not_now.len() - 1])
            ),
        ),
        (
            "412",
            "`If-Match` names another version (`precondition_failed`)".to_owned(),
        ),
        (
            "422",
            format!(
                "Wrong in itself: a malformed body (`validation_failed`, naming the \
                 field) or {}",
                listed(&invalid[1..])
            ),
        ),
    ]
    .into_iter()
    .map(|(status, description)| (status.to_owned(), RefOr::T(problem_response(&description))))
    .collect()
}

/// The problems of a command on a table: the table's refusals and the game's.
#[derive(Debug)]
pub struct TableCommandProblems;

impl IntoResponses for TableCommandProblems {
    fn responses() -> BTreeMap<String, RefOr<Response>> {
        let catalogue = TableError::catalogue()
            .iter()
            .chain(GameError::catalogue())
            .copied();
        command_problems("table", catalogue)
    }
}

/// The problems of a command on a tournament.
#[derive(Debug)]
pub struct TournamentCommandProblems;

impl IntoResponses for TournamentCommandProblems {
    fn responses() -> BTreeMap<String, RefOr<Response>> {
        let catalogue = TournamentError::catalogue()
            .iter()
            .chain(&SERVER_TOURNAMENT_REFUSALS)
            .copied();
        command_problems("tournament", catalogue)
    }
}

/// The problems of a command on a season.
#[derive(Debug)]
pub struct SeasonCommandProblems;

impl IntoResponses for SeasonCommandProblems {
    fn responses() -> BTreeMap<String, RefOr<Response>> {
        let catalogue = SeasonError::catalogue()
            .iter()
            .chain(&SERVER_SEASON_REFUSALS)
            .copied();
        command_problems("season", catalogue)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn description(responses: &BTreeMap<String, RefOr<Response>>, status: &str) -> String {
        match responses.get(status) {
            Some(RefOr::T(response)) => response.description.clone(),
            _ => panic!("no {status}"),
        }
    }

    #[test]
    fn every_catalogued_code_is_documented_under_its_status() {
        let responses = TableCommandProblems::responses();
        for (code, kind) in TableError::catalogue().iter().chain(GameError::catalogue()) {
            let status = match kind {
                RefusalKind::Forbidden => "403",
                RefusalKind::NotNow => "409",
                RefusalKind::Invalid => "422",
                RefusalKind::Internal => continue,
            };
            assert!(
                description(&responses, status).contains(&format!("`{code}`")),
                "{code} under {status}"
            );
        }
        let tournament = TournamentCommandProblems::responses();
        assert!(description(&tournament, "409").contains("`seed_not_held`"));
        assert!(description(&tournament, "422").contains("`draws_by_server`"));
        assert!(description(&tournament, "403").contains("`forbidden`"));
    }

    #[test]
    fn lists_read_as_sentences() {
        assert_eq!(listed(&["a"]), "`a`");
        assert_eq!(listed(&["a", "b", "c"]), "`a`, `b` or `c`");
    }
}
