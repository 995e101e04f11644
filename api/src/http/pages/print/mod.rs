//! The printables of a tournament, `/t/{id}/print/...`: pages made for A4 paper in black
//! and white (`assets/pages.css`, `@media print`), read like the other tournament pages.
//!
//! - `sheets.rs`: a score sheet per table of a round that is played on paper;
//! - `cards.rs`: a card per table of a round, to put on the table;
//! - `standings.rs`: the standings, with their version and when they were printed;
//! - `reminders.rs`: the rules a score sheet reminds the players of.
//!
//! `?stage=&round=` picks the round (`sheets`, `cards`); without them, the round being
//! played. A round that is not a number is a 422 page, one that does not exist a 404.

pub mod cards;
pub mod reminders;
pub mod sheets;
pub mod standings;

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse};
use maud::{Markup, html};
use serde::Deserialize;
use yaniv_domain::tournament::{Round, StageKind};

use super::lang::{Lang, Text};
use super::layout::{self, Page};
use super::text;
use super::tournament::{self, Failure, Loaded};
use crate::app_state::AppState;

/// `?stage=&round=`, as text: a value that is not a number is the page's to refuse (an
/// extractor would answer with a bare 400). Other parameters (`lang`) are the frame's.
#[derive(Debug, Default, Deserialize)]
pub struct RoundQuery {
    pub stage: Option<String>,
    pub round: Option<String>,
}

/// Why a printable has nothing to print.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Problem {
    Tournament(Failure),
    /// `stage` or `round` is not a whole number from 1.
    BadQuery,
    NoSuchRound,
}

impl From<Failure> for Problem {
    fn from(failure: Failure) -> Problem {
        Problem::Tournament(failure)
    }
}

/// A printable of tournament `id`: what `build` makes of it in the caller's language,
/// or the error page that says why there is none.
pub async fn printable(
    state: &AppState,
    req: &HttpRequest,
    id: i64,
    build: impl AsyncFnOnce(Loaded, Lang) -> Result<Page, Problem>,
) -> HttpResponse {
    tournament::page_answered_by(state, req, id, build, respond).await
}

/// The printable, or the error page that says why there is none.
pub fn respond(req: &HttpRequest, lang: Lang, page: Result<Page, Problem>) -> HttpResponse {
    match page {
        Ok(page) => layout::respond(req, StatusCode::OK, page),
        Err(Problem::Tournament(failure)) => tournament::respond(req, lang, Err(failure)),
        Err(Problem::BadQuery) => layout::error(
            req,
            lang,
            StatusCode::UNPROCESSABLE_ENTITY,
            text::BAD_ROUND_QUERY.get(lang),
        ),
        Err(Problem::NoSuchRound) => layout::error(
            req,
            lang,
            StatusCode::NOT_FOUND,
            text::NO_SUCH_ROUND.get(lang),
        ),
    }
}

/// A stage or round number of the query: absent when empty, refused unless from 1.
fn number(value: Option<&str>) -> Result<Option<u32>, Problem> {
    match value.map(str::trim).filter(|v| !v.is_empty()) {
        None => Ok(None),
        Some(v) => match v.parse::<u32>() {
            Ok(n) if n >= 1 => Ok(Some(n)),
            _ => Err(Problem::BadQuery),
        },
    }
}

/// The round `query` names: a stage without a round is its latest round, a round without
/// a stage is in the current stage, neither is the round being played. `Ok(None)`: no
/// round has been drawn yet (and none was asked for).
pub fn chosen_round<'t>(
    t: &'t Loaded,
    query: &RoundQuery,
) -> Result<Option<(u32, StageKind, &'t Round)>, Problem> {
    let stage = number(query.stage.as_deref())?;
    let round = number(query.round.as_deref())?;
    let state = t.tournament.state();
    let Some(stage) = (match stage {
        Some(n) => Some(state.stage(n).ok_or(Problem::NoSuchRound)?),
        None => state.current_stage(),
    }) else {
        return if round.is_some() {
            Err(Problem::NoSuchRound)
        } else {
            Ok(None)
        };
    };
    let found = match round {
        Some(n) => Some(
            stage
                .rounds
                .get(n as usize - 1)
                .ok_or(Problem::NoSuchRound)?,
        ),
        None => stage.rounds.last(),
    };
    Ok(found.map(|r| (stage.number, stage.kind, r)))
}

/// `template` in `lang` with `{a}` and `{b}` replaced (numbers from the rules).
pub fn fill(template: Text, lang: Lang, a: impl ToString, b: impl ToString) -> String {
    template
        .get(lang)
        .replace("{a}", &a.to_string())
        .replace("{b}", &b.to_string())
}

/// A printable's page: `body_class` `printable`, so the print styles apply, and a line
/// for the screen only that says how to print it, with the way back.
pub fn page(t: &Loaded, lang: Lang, title: Text, content: Markup) -> Page {
    let body = html! {
        div.no-print.print-intro {
            p {
                a href={ "/t/" (t.id) "/seating" } { (t.view.name) }
                " · " (text::PRINT_HINT.get(lang))
            }
        }
        (content)
    };
    Page {
        lang,
        title: format!("{} · {}", title.get(lang), t.view.name),
        body,
        body_class: Some("printable"),
    }
}

/// The links to the printables of a round, for the tournament pages.
pub fn links(id: i64, lang: Lang) -> Markup {
    html! {
        p.no-print.print-links {
            (text::PRINT.get(lang)) ": "
            a href={ "/t/" (id) "/print/sheets" } { (text::SCORE_SHEETS.get(lang)) }
            " · "
            a href={ "/t/" (id) "/print/cards" } { (text::TABLE_CARDS.get(lang)) }
            " · "
            a href={ "/t/" (id) "/print/standings" } { (text::STANDINGS.get(lang)) }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn query_numbers_are_whole_numbers_from_one() {
        assert_eq!(number(None), Ok(None));
        assert_eq!(number(Some("")), Ok(None));
        assert_eq!(number(Some(" 2 ")), Ok(Some(2)));
        assert_eq!(number(Some("0")), Err(Problem::BadQuery));
        assert_eq!(number(Some("-1")), Err(Problem::BadQuery));
        assert_eq!(number(Some("two")), Err(Problem::BadQuery));
        assert_eq!(number(Some("99999999999")), Err(Problem::BadQuery));
    }

    #[test]
    fn fill_puts_the_numbers_in_either_language() {
        assert_eq!(
            fill(text::REDUCTION_EXACT, Lang::En, 100, 50),
            "A total of exactly 100 drops to 50."
        );
        assert_eq!(
            fill(text::REDUCTION_EXACT, Lang::Nl, 150, 100),
            "Een totaal van precies 150 zakt naar 100."
        );
    }
}
