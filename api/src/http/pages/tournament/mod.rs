//! The public pages of a tournament, `/t/{id}/...`: no login, as the tournament's
//! REST reads. Each page reads the tournament as `GET /v1/tournaments/{id}` does (the
//! repository and its fold cache), names players as the API's reads do, and marks its
//! live part with the tournament's stream and version (`assets/live.js`).
//!
//! - overview (here), `seating.rs`, `standings.rs`, `stages.rs`, `ranking.rs`;
//! - `projector.rs`: the seating and the standings in large type, for a wall screen.

pub mod projector;
pub mod ranking;
pub mod seating;
pub mod stages;
pub mod standings;

use std::collections::BTreeMap;
use std::sync::Arc;

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use maud::{Markup, html};
use yaniv_domain::tournament::{Phase, Round, StageKind, Tournament, TournamentView};

use super::lang::{Lang, Text};
use super::layout::{self, Page};
use super::text;
use crate::app_state::AppState;
use crate::error::ApiError;

/// A tournament as its pages read it.
#[derive(Debug)]
pub struct Loaded {
    pub id: i64,
    pub tournament: Arc<Tournament>,
    pub view: TournamentView,
}

/// Seconds left on the round clock that ends at `ends_at` (0 once it has run out),
/// by the server's clock, which set it; `None` when no clock runs.
pub fn clock_left(ends_at: Option<i64>) -> Option<i64> {
    let now = time::OffsetDateTime::now_utc().unix_timestamp();
    ends_at.map(|end| (end - now).max(0))
}

/// Why a page has nothing to show.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Failure {
    NoTournament,
    /// A stage, round or table the tournament does not have.
    NoTable,
    /// The database could not answer (logged where it happened).
    Unavailable,
}

impl Failure {
    fn of(err: &ApiError) -> Failure {
        match err {
            ApiError::NotFound(_) => Failure::NoTournament,
            other => {
                tracing::warn!(error = %other, "a tournament page could not read what it shows");
                Failure::Unavailable
            }
        }
    }
}

/// The page, or the error page that says why there is none.
pub fn respond(req: &HttpRequest, lang: Lang, page: Result<Page, Failure>) -> HttpResponse {
    match page {
        Ok(page) => layout::respond(req, StatusCode::OK, page),
        Err(Failure::NoTournament) => layout::error(
            req,
            lang,
            StatusCode::NOT_FOUND,
            text::NO_SUCH_TOURNAMENT.get(lang),
        ),
        Err(Failure::NoTable) => layout::error(
            req,
            lang,
            StatusCode::NOT_FOUND,
            text::NO_SUCH_TABLE.get(lang),
        ),
        Err(Failure::Unavailable) => layout::error(
            req,
            lang,
            StatusCode::SERVICE_UNAVAILABLE,
            text::UNAVAILABLE.get(lang),
        ),
    }
}

/// Tournament `id` now.
pub async fn load(state: &AppState, id: i64) -> Result<Loaded, Failure> {
    let tournament = state
        .tournaments
        .read(id)
        .await
        .map_err(|e| Failure::of(&e))?;
    let view = tournament.view().ok_or(Failure::NoTournament)?;
    Ok(Loaded {
        id,
        tournament,
        view,
    })
}

/// A tournament's page for `req`: the caller's language, tournament `id` as it is now,
/// and what `build` makes of them; a missing tournament or an unreachable database
/// answered as a page too.
pub async fn tournament_page(
    state: &AppState,
    req: &HttpRequest,
    id: i64,
    build: impl AsyncFnOnce(Loaded, Lang) -> Result<Page, Failure>,
) -> HttpResponse {
    page_answered_by(state, req, id, build, respond).await
}

/// [`tournament_page`] for pages with errors of their own, which `answer` turns into
/// the response.
pub async fn page_answered_by<E: From<Failure>>(
    state: &AppState,
    req: &HttpRequest,
    id: i64,
    build: impl AsyncFnOnce(Loaded, Lang) -> Result<Page, E>,
    answer: impl FnOnce(&HttpRequest, Lang, Result<Page, E>) -> HttpResponse,
) -> HttpResponse {
    let lang = Lang::of(req);
    let page = match load(state, id).await {
        Ok(loaded) => build(loaded, lang).await,
        Err(failure) => Err(E::from(failure)),
    };
    answer(req, lang, page)
}

/// A read's error as a [`Failure`].
pub fn or_failure<T>(result: Result<T, ApiError>) -> Result<T, Failure> {
    result.map_err(|e| Failure::of(&e))
}

/// The tabs of a tournament's pages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tab {
    Overview,
    Seating,
    Standings,
    Stages,
    Ranking,
    Projector,
}

impl Tab {
    const ALL: [Tab; 6] = [
        Tab::Overview,
        Tab::Seating,
        Tab::Standings,
        Tab::Stages,
        Tab::Ranking,
        Tab::Projector,
    ];

    fn path(self) -> &'static str {
        match self {
            Tab::Overview => "",
            Tab::Seating => "/seating",
            Tab::Standings => "/standings",
            Tab::Stages => "/stages",
            Tab::Ranking => "/ranking",
            Tab::Projector => "/projector",
        }
    }

    fn name(self) -> Text {
        match self {
            Tab::Overview => text::OVERVIEW,
            Tab::Seating => text::SEATING,
            Tab::Standings => text::STANDINGS,
            Tab::Stages => text::STAGES,
            Tab::Ranking => text::RANKING,
            Tab::Projector => text::PROJECTOR,
        }
    }
}

/// A tournament's page: its name, the tabs, and `live` (the part that follows the
/// stream).
pub fn page(t: &Loaded, lang: Lang, tab: Tab, live: Markup) -> Page {
    page_with(t, lang, tab, html! {}, live)
}

/// [`page`] with `controls` (a search form) between the tabs and the live part, so
/// that a refresh never takes the focus from them.
pub fn page_with(t: &Loaded, lang: Lang, tab: Tab, controls: Markup, live: Markup) -> Page {
    let body = html! {
        h1 { (t.view.name) }
        nav.tabs aria-label=(text::TOURNAMENTS.get(lang)) {
            ul {
                @for other in Tab::ALL {
                    li {
                        a href={ "/t/" (t.id) (other.path()) }
                            aria-current=[(other == tab).then_some("page")] {
                            (other.name().get(lang))
                        }
                    }
                }
            }
        }
        (controls)
        (live_region(t, live))
        p.note.no-print { (text::LIVE.get(lang)) }
    };
    Page {
        lang,
        title: format!("{} · {}", tab.name().get(lang), t.view.name),
        body,
        body_class: None,
    }
}

/// The part of a page that `live.js` refreshes when the tournament changes.
pub fn live_region(t: &Loaded, content: Markup) -> Markup {
    html! {
        div data-live={ "/v1/tournaments/" (t.id) "/stream" }
            data-version=(t.tournament.version()) {
            (content)
        }
    }
}

/// The name of `player` (its id when the account is gone).
pub fn name_of(names: &BTreeMap<i64, Option<String>>, player: i64) -> String {
    names
        .get(&player)
        .cloned()
        .flatten()
        .unwrap_or_else(|| format!("#{player}"))
}

/// `GET /t/{id}`: the tournament at a glance.
pub async fn overview(
    state: web::Data<AppState>,
    req: HttpRequest,
    path: web::Path<i64>,
) -> HttpResponse {
    tournament_page(&state, &req, path.into_inner(), async |t, lang| {
        let organizer = t.view.organizer;
        let names = or_failure(
            crate::tournaments::named::usernames_of(&state.db, [organizer].into_iter()).await,
        )?;
        let v = &t.view;
        let stage = v.current_stage.map(|s| {
            let kind = match t.tournament.state().stage(s).map(|st| st.kind) {
                Some(yaniv_domain::tournament::StageKind::Knockout) => text::KNOCKOUT,
                _ => text::QUALIFICATION,
            };
            format!("{} {s} ({})", text::STAGE.get(lang), kind.get(lang))
        });
        let live = html! {
            dl.facts {
                dt { (text::PHASE.get(lang)) }
                dd { (text::phase(&phase_name(v.phase)).get(lang)) }
                dt { (text::RULES.get(lang)) }
                dd { (text::preset(&v.rules.preset).get(lang)) }
                dt { (text::REGISTERED.get(lang)) }
                dd { (v.registered) " / " (v.capacity) }
                dt { (text::ORGANIZER.get(lang)) }
                dd { (name_of(&names, organizer)) }
                @if let Some(stage) = stage {
                    dt { (text::STAGE.get(lang)) }
                    dd { (stage) }
                }
            }
        };
        Ok::<_, Failure>(page(&t, lang, Tab::Overview, live))
    })
    .await
}

/// The API's name of a phase (as the tournament's JSON spells it).
pub fn phase_name(phase: Phase) -> String {
    serde_json::to_value(phase)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_default()
}

/// "Qualification · Round 2", "Knockout · Round 1" or "Final table".
pub fn round_title(kind: StageKind, round: &Round, lang: Lang) -> String {
    if round.draw.final_table {
        return text::FINAL_TABLE.get(lang).to_owned();
    }
    let kind = match kind {
        StageKind::Qualification => text::QUALIFICATION,
        StageKind::Knockout => text::KNOCKOUT,
    };
    format!(
        "{} · {} {}",
        kind.get(lang),
        text::ROUND.get(lang),
        round.draw.round
    )
}
