//! The desk's seasons: `/desk/seasons`, a new season (name, points by place as a list
//! typed with commas, how many results count) and the seasons to run, and
//! `/desk/seasons/{id}`, a season's tournaments, each removable, and a tournament
//! added from the server's list.
//!
//! As everywhere on the desk, the page only shows: the script sends `POST /v1/seasons`
//! and `POST /v1/seasons/{id}/commands` (`add_tournament`, `remove_tournament`) with
//! the desk's token, and the server decides who may (the season's organizer, admins)
//! and what it refuses, said in the page's language.

use std::collections::HashSet;

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use maud::{Markup, html};
use serde_json::json;

use super::frame;
use crate::app_state::AppState;
use crate::error::ApiError;
use crate::http::pages::lang::{Lang, json_by_key};
use crate::http::pages::layout::{self, Page};
use crate::http::pages::seasons::season::scale;
use crate::http::pages::text;
use crate::http::routes::seasons::create::page;
use crate::http::routes::seasons::read::load;
use crate::tournaments::listing;

/// How many seasons, and tournaments to add, the desk lists: the API's largest page.
const LISTED: u32 = 100;

/// The form for a new season. Its `data-field-refusals` say in the page's language
/// which field the server refused (`validation_failed` names it).
fn create_form(lang: Lang) -> Markup {
    html! {
        section aria-labelledby="new-season" {
            h2 #new-season { (text::NEW_SEASON.get(lang)) }
            form.stack data-desk-season-create
                data-field-refusals=(json_by_key(text::SEASON_FIELD_REFUSALS, lang))
                data-not-numbers=(text::POINTS_NOT_NUMBERS.get(lang)) {
                div {
                    label for="s-name" { (text::SEASON_NAME.get(lang)) }
                    input #s-name name="name" type="text" required maxlength="100";
                }
                div {
                    label for="s-points" { (text::SEASON_POINTS.get(lang)) }
                    input #s-points name="points" type="text" required inputmode="numeric"
                        autocomplete="off" aria-describedby="s-points-hint";
                    small #s-points-hint { (text::SEASON_POINTS_HINT.get(lang)) }
                }
                div {
                    label for="s-best" { (text::SEASON_BEST.get(lang)) }
                    input #s-best name="best" type="number" min="1" max="100" step="1"
                        aria-describedby="s-best-hint";
                    small #s-best-hint { (text::SEASON_BEST_HINT.get(lang)) }
                }
                button type="submit" { (text::CREATE.get(lang)) }
            }
        }
    }
}

/// `GET /desk/seasons`: a new season, and the seasons, newest first.
pub async fn seasons(state: web::Data<AppState>, req: HttpRequest) -> HttpResponse {
    let lang = Lang::of(&req);
    let list = match page(&state.db, None, LISTED).await {
        Ok(list) => list,
        Err(err) => return unavailable(&req, lang, &err),
    };
    let body = frame(
        lang,
        html! {
            h1 { (text::SEASONS.get(lang)) }
            p { (text::DESK_SEASONS_INTRO.get(lang)) }
            p.no-print { a href="/desk" { (text::DESK.get(lang)) } }
            (create_form(lang))
            h2 #desk-seasons { (text::SEASONS.get(lang)) }
            @if list.seasons.is_empty() { p.note { (text::NO_SEASONS.get(lang)) } }
            ul aria-labelledby="desk-seasons" {
                @for s in &list.seasons {
                    li { a href={ "/desk/seasons/" (s.id) } { (s.name) } }
                }
            }
        },
    );
    layout::respond(
        &req,
        StatusCode::OK,
        Page {
            lang,
            title: format!("{} · {}", text::SEASONS.get(lang), text::DESK.get(lang)),
            body,
            body_class: Some("desk"),
        },
    )
}

/// `GET /desk/seasons/{id}`: the season's tournaments with a Remove each, and a
/// tournament to add.
pub async fn season(
    state: web::Data<AppState>,
    req: HttpRequest,
    path: web::Path<i64>,
) -> HttpResponse {
    let lang = Lang::of(&req);
    let id = path.into_inner();
    let read = async {
        let (season, standings) = load(&state, id).await?;
        let tournaments = listing::list(&state.db, None, None, LISTED).await?;
        Ok::<_, ApiError>((season, standings, tournaments))
    };
    let (season, standings, tournaments) = match read.await {
        Ok(read) => read,
        Err(ApiError::NotFound(_)) => {
            return layout::error(
                &req,
                lang,
                StatusCode::NOT_FOUND,
                text::NO_SUCH_SEASON.get(lang),
            );
        }
        Err(err) => return unavailable(&req, lang, &err),
    };
    let members: HashSet<i64> = season.members().iter().copied().collect();
    let addable: Vec<_> = tournaments
        .iter()
        .filter(|t| !members.contains(&t.id))
        .collect();
    let body = frame(
        lang,
        html! {
            h1 { (season.name()) }
            ul.plain.no-print {
                li { a href={ "/seasons/" (id) } { (text::SEASON_PUBLIC_PAGE.get(lang)) } }
                li { a href="/desk/seasons" { (text::SEASONS.get(lang)) } }
            }
            (scale(season.scoring(), lang))
            div data-desk-season=(id) {
                h2 #season-members { (text::TOURNAMENTS.get(lang)) }
                @if standings.members.is_empty() {
                    p.note { (text::NO_SEASON_TOURNAMENTS.get(lang)) }
                } @else {
                    div.scroll {
                        table.grid aria-labelledby="season-members" {
                            thead {
                                tr {
                                    th scope="col" { (text::TOURNAMENT.get(lang)) }
                                    th scope="col" { (text::PHASE.get(lang)) }
                                    th scope="col" { span.vh { (text::ACTIONS.get(lang)) } }
                                }
                            }
                            tbody {
                                @for m in &standings.members {
                                    tr data-tournament=(m.tournament) {
                                        th scope="row" { a href={ "/desk/t/" (m.tournament) } { (m.name) } }
                                        td { (text::phase(&m.phase).get(lang)) }
                                        td {
                                            button.secondary type="button"
                                                data-season-command=(json!({"command": "remove_tournament", "tournament": m.tournament}).to_string())
                                                data-confirm=(text::CONFIRM_REMOVE_FROM_SEASON.get(lang).replace("{tournament}", &m.name)) {
                                                (text::REMOVE.get(lang)) span.vh { " " (m.name) }
                                            }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
                h2 #season-add { (text::ADD_TO_SEASON.get(lang)) }
                @if addable.is_empty() {
                    p.note { (text::NOTHING_TO_ADD.get(lang)) }
                } @else {
                    form.find data-desk-season-add aria-labelledby="season-add" {
                        div {
                            label for="season-tournament" { (text::TOURNAMENT.get(lang)) }
                            br;
                            select #season-tournament name="tournament" required {
                                @for t in &addable {
                                    option value=(t.id) { (t.name) " (" (text::phase(&t.phase).get(lang)) ")" }
                                }
                            }
                        }
                        button type="submit" { (text::ADD_TO_SEASON.get(lang)) }
                    }
                }
            }
        },
    );
    layout::respond(
        &req,
        StatusCode::OK,
        Page {
            lang,
            title: format!("{} · {}", season.name(), text::DESK.get(lang)),
            body,
            body_class: Some("desk"),
        },
    )
}

fn unavailable(req: &HttpRequest, lang: Lang, err: &ApiError) -> HttpResponse {
    tracing::warn!(error = %err, "the desk's season page could not read what it shows");
    layout::error(
        req,
        lang,
        StatusCode::SERVICE_UNAVAILABLE,
        text::UNAVAILABLE.get(lang),
    )
}
