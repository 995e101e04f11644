//! Every `code` a problem document of this server can carry, in one list: the OpenAPI
//! document's `ProblemCode` enum is made from it, and a debug build refuses to answer
//! with a code it does not hold, so the document cannot fall behind the server.
//!
//! The rules engine's refusals come from its own catalogues (`Refusal::catalogue`,
//! `GameError::CODES`, `RECORD_CODES`); the HTTP layer's own codes are listed here.

use std::collections::BTreeSet;
use std::sync::OnceLock;

use yaniv_domain::aggregate::{Refusal, RefusalKind};
use yaniv_domain::game::GameError;
use yaniv_domain::record::RECORD_CODES;
use yaniv_domain::season::SeasonError;
use yaniv_domain::table::TableError;
use yaniv_domain::tournament::TournamentError;

/// Refusals the server adds to the tournament's own, where a command touches what only
/// the server does (seeds, online games) or what only it knows (accounts).
pub const SERVER_TOURNAMENT_REFUSALS: [(&str, RefusalKind); 11] = [
    ("seeding_by_server", RefusalKind::Invalid),
    ("unknown_season", RefusalKind::Invalid),
    ("final_in_its_season", RefusalKind::NotNow),
    ("draws_by_server", RefusalKind::Invalid),
    ("online_games_by_server", RefusalKind::Invalid),
    ("unknown_account", RefusalKind::Invalid),
    ("not_a_referee", RefusalKind::Invalid),
    ("seed_not_held", RefusalKind::NotNow),
    ("no_commitment", RefusalKind::NotNow),
    ("not_enough_players", RefusalKind::NotNow),
    // The table option `rated` asked for at an online start (the table's refusal,
    // `TableError::RatedByTournament`): the tournament's config rates its games.
    ("rated_by_tournament", RefusalKind::Invalid),
];

/// Refusals the server adds to the season's own: what only it can see of the
/// tournaments a command names.
pub const SERVER_SEASON_REFUSALS: [(&str, RefusalKind); 2] = [
    ("unknown_tournament", RefusalKind::Invalid),
    ("final_in_its_season", RefusalKind::NotNow),
];

/// The codes of the HTTP layer: those of `ApiError`, of the bare statuses actix answers
/// before a handler runs (`Problem::for_status`), and the refusals handlers raise
/// themselves. A test reads the sources for codes missing here.
pub const HTTP_CODES: [&str; 37] = [
    // The request could not be read.
    "bad_request",
    "malformed_json",
    "invalid_path",
    "invalid_query",
    "validation_failed",
    "payload_too_large",
    "body_timeout",
    "unsupported_media_type",
    "not_acceptable",
    "method_not_allowed",
    "request_timeout",
    "length_required",
    "uri_too_long",
    "headers_too_large",
    // Who is asking.
    "unauthenticated",
    "invalid_token",
    "invalid_credentials",
    "forbidden",
    "invalid_setup_code",
    "account_active",
    "username_taken",
    "metrics_closed",
    // What was asked.
    "not_found",
    "no_finished_round",
    "version_conflict",
    "precondition_failed",
    "idempotency_in_progress",
    "idempotency_key_reused",
    // How much and how fast.
    "too_many_attempts",
    "too_many_registrations",
    "too_many_streams",
    "server_busy",
    // The server's side.
    "shutting_down",
    "service_unavailable",
    "database_unavailable",
    "stream_corrupt",
    "internal_error",
];

/// Every code, sorted.
pub fn all() -> &'static BTreeSet<&'static str> {
    static ALL: OnceLock<BTreeSet<&'static str>> = OnceLock::new();
    ALL.get_or_init(|| {
        let refusals = TableError::catalogue()
            .iter()
            .chain(GameError::catalogue())
            .chain(TournamentError::catalogue())
            .chain(&SERVER_TOURNAMENT_REFUSALS)
            .chain(SeasonError::catalogue())
            .chain(&SERVER_SEASON_REFUSALS)
            .map(|(code, _)| *code);
        HTTP_CODES
            .into_iter()
            .chain(refusals)
            .chain(GameError::CODES)
            .chain(RECORD_CODES)
            .collect()
    })
}

/// Whether `code` is one the document lists.
pub fn is_documented(code: &str) -> bool {
    all().contains(code)
}

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};

    use super::*;

    fn sources(dir: &Path, found: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                sources(&path, found);
            } else if path.extension().is_some_and(|e| e == "rs") {
                found.push(path);
            }
        }
    }

    /// A snake_case word: the form of every code.
    fn code_like(text: &str) -> bool {
        !text.is_empty()
            && text.starts_with(|c: char| c.is_ascii_lowercase())
            && text.chars().all(|c| c.is_ascii_lowercase() || c == '_')
    }

    /// The string literals of `source` that follow `marker` (spaces and line breaks
    /// between them allowed), outside its test module.
    fn literals_after<'a>(source: &'a str, marker: &str) -> Vec<&'a str> {
        let code = source.split("#[cfg(test)]").next().unwrap_or_default();
        code.match_indices(marker)
            .filter_map(|(at, _)| {
                let rest = code[at + marker.len()..].trim_start();
                let rest = rest.strip_prefix('"')?;
                let end = rest.find('"')?;
                // An owned string is a field of some report (a verification's failure
                // code), never a problem's: those are `&'static str`.
                (!rest[end + 1..].starts_with(".to_owned()")).then_some(&rest[..end])
            })
            .filter(|literal| code_like(literal))
            .collect()
    }

    /// Every code the sources give a problem is listed: those of `ApiError::code` and
    /// `Problem::for_status` (any snake_case literal of `error.rs` that is a code), and
    /// wherever a handler writes `code: "..."` or a `refused("...", ...)`.
    #[test]
    fn every_code_in_the_sources_is_listed() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut files = Vec::new();
        sources(&root, &mut files);
        let mut missing = BTreeSet::new();
        let mut seen = 0;
        for file in &files {
            let source = std::fs::read_to_string(file).unwrap();
            let mut found = literals_after(&source, "code: ");
            found.extend(literals_after(&source, "refused("));
            if file.ends_with("error.rs") && file.parent() == Some(root.as_path()) {
                found.extend(literals_after(&source, "=> "));
                found.extend(literals_after(&source, "=> ("));
            }
            seen += found.len();
            missing.extend(
                found
                    .into_iter()
                    .filter(|code| !is_documented(code))
                    .map(str::to_owned),
            );
        }
        assert!(seen > 40, "only {seen} codes found in the sources");
        assert!(
            missing.is_empty(),
            "codes missing from HTTP_CODES: {missing:?}"
        );
    }

    #[test]
    fn the_list_holds_the_engines_refusals() {
        for code in [
            "not_your_turn",
            "pile_kill_not_allowed",
            "table_full",
            "bad_shuffle",
            "rated_by_tournament",
        ] {
            assert!(is_documented(code), "{code}");
        }
        assert!(!is_documented("no_such_code"));
    }
}
