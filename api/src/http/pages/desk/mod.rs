//! The organizer's desk, `/desk/...`: the pages officials run a tournament from.
//!
//! The pages are rendered on the server from public reads (the players, the stages),
//! like the public pages. Every change goes through the public REST API from the
//! browser (`assets/desk.js`): the page logs in with `POST /v1/sessions`, keeps the
//! token for the browser tab, and sends each command with it; the tournament's stream
//! then brings the page up to date. So the desk proves the API is enough to run a
//! championship, and the server's rules decide every command exactly as for any other
//! client.
//!
//! - `login.rs`: `/desk/login`, and for players `/desk/signup` and `/desk/setup`;
//! - `accounts.rs`: `/desk/accounts`, the admin's page for accounts and roles;
//! - `seasons.rs`: `/desk/seasons` and `/desk/seasons/{id}`, a new season and a
//!   season's tournaments;
//! - here: `/desk`, the tournaments to run;
//! - `tournament.rs`: `/desk/t/{id}`, registration, check-in at the door, draws,
//!   stages, the tables of the round;
//! - `paper.rs`: `/desk/t/{id}/tables/{stage}/{round}/{table}`, a paper table's score
//!   sheet, checked by the rules line by line;
//! - `screen.rs`: the controls of the projector's round clock and announcement, on the
//!   tournament's desk page;
//! - `totals.rs`: a paper table's final totals only, on its sheet page, where allowed;
//! - `replay.rs`: `/desk/tables/{id}?as_of=N`, the referee's replay viewer of an
//!   online table, at any version.

pub mod accounts;
pub mod login;
pub mod paper;
pub mod replay;
pub mod screen;
pub mod seasons;
pub mod totals;
pub mod tournament;

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use maud::{Markup, html};
use yaniv_domain::rules::Preset;

use super::lang::{Lang, json_by_key};
use super::layout::{self, Page};
use super::text;
use crate::app_state::AppState;
use crate::tournaments::listing;

/// The desk's frame: who is logged in (filled in by the script), a place for the
/// answers of the API, and a notice for browsers without the script.
pub fn frame(lang: Lang, body: Markup) -> Markup {
    html! {
        div.desk-bar {
            span data-desk-user { }
            " "
            button type="button" data-desk-logout hidden { (text::LOG_OUT.get(lang)) }
        }
        noscript { p.note { (text::NEEDS_SCRIPT.get(lang)) } }
        div data-desk-status role="status" aria-live="polite"
            data-logged-in=(text::LOGGED_IN_AS.get(lang))
            data-done=(text::DONE_OK.get(lang))
            data-no-account=(text::NO_ACCOUNT_NAMED.get(lang))
            data-refusals=(json_by_key(text::REFUSALS, lang)) { }
        (body)
        script src="/assets/desk.js" defer { }
    }
}

/// A new tournament from a preset (`POST /v1/tournaments`, by the script): its name,
/// rules, capacity and the main format parameters; the others take their defaults.
fn create_form(lang: Lang) -> Markup {
    html! {
        section aria-labelledby="new-tournament" {
        h2 #new-tournament { (text::NEW_TOURNAMENT.get(lang)) }
        form.stack data-desk-create {
            div {
                label for="t-name" { (text::TOURNAMENT_NAME.get(lang)) }
                input #t-name name="name" type="text" required maxlength="100";
            }
            div {
                label for="t-preset" { (text::PRESET.get(lang)) }
                select #t-preset name="preset" {
                    @for preset in Preset::ALL {
                        // The preset's own game end, which a shorter limit overrides.
                        @let end = serde_json::to_string(&preset.rules().game_end).unwrap_or_default();
                        option value=(preset.name()) data-game-end=(end) { (text::preset(preset.name()).get(lang)) }
                    }
                }
            }
            div {
                label for="t-limit" { (text::GAME_ENDS_AT.get(lang)) }
                input #t-limit name="limit" type="number" min="1" max="10000" aria-describedby="t-limit-hint";
                br;
                small #t-limit-hint { (text::GAME_ENDS_AT_HINT.get(lang)) }
            }
            div {
                label for="t-capacity" { (text::CAPACITY.get(lang)) }
                input #t-capacity name="capacity" type="number" min="2" max="100000" value="32" required;
            }
            div {
                label for="t-rounds" { (text::QUALIFICATION_ROUNDS.get(lang)) }
                input #t-rounds name="rounds" type="number" min="1" max="50" value="3" required;
            }
            div {
                label for="t-min" { (text::TABLE_MIN.get(lang)) }
                input #t-min name="table_min" type="number" min="2" max="8" value="4" required;
            }
            div {
                label for="t-max" { (text::TABLE_MAX.get(lang)) }
                input #t-max name="table_max" type="number" min="2" max="8" value="6" required;
            }
            div {
                label.check {
                    input #t-rounds-required name="rounds_required" type="checkbox";
                    " " (text::ROUNDS_REQUIRED.get(lang))
                }
            }
            div {
                label.check {
                    input #t-seeded name="seeded" type="checkbox";
                    " " (text::SEEDED_BY_RATING_OPTION.get(lang))
                }
            }
            div {
                label.check {
                    input #t-friendly name="friendly" type="checkbox";
                    " " (text::FRIENDLY_OPTION.get(lang))
                }
            }
            button type="submit" { (text::CREATE.get(lang)) }
        }
        }
    }
}

/// `GET /desk`: the tournaments, newest first, each linking to its desk page.
pub async fn home(state: web::Data<AppState>, req: HttpRequest) -> HttpResponse {
    let lang = Lang::of(&req);
    let rows = match listing::list(&state.db, None, None, 100).await {
        Ok(rows) => rows,
        Err(err) => {
            tracing::warn!(error = %err, "the desk could not list the tournaments");
            return layout::error(
                &req,
                lang,
                StatusCode::SERVICE_UNAVAILABLE,
                text::UNAVAILABLE.get(lang),
            );
        }
    };
    let body = frame(
        lang,
        html! {
            h1 { (text::DESK.get(lang)) }
            p { (text::DESK_INTRO.get(lang)) }
            ul.plain {
                li { a href="/replay" { (text::RECORD_VIEWER.get(lang)) } }
                li { a href="/desk/accounts" { (text::ACCOUNTS.get(lang)) } }
                li { a href="/desk/seasons" { (text::SEASONS.get(lang)) } }
            }
            (create_form(lang))
            h2 { (text::TOURNAMENTS.get(lang)) }
            @if rows.is_empty() { p.note { (text::NO_TOURNAMENTS.get(lang)) } }
            ul {
                @for row in &rows {
                    li {
                        a href={ "/desk/t/" (row.id) } { (row.name) }
                        " " span.tag { (text::phase(&row.phase).get(lang)) }
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
            title: text::DESK.get(lang).to_owned(),
            body,
            body_class: Some("desk"),
        },
    )
}
