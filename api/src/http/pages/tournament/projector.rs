//! `GET /t/{id}/projector`: for a wall screen. Large type, no site header; the current
//! round's seating and the top of the standings. With the script the two alternate
//! every 15 seconds and follow the tournament live; without it both show, one under
//! the other. Above them, always shown: the desk's announcement and round clock.

use actix_web::{HttpRequest, HttpResponse, web};
use maud::html;
use yaniv_domain::tournament::{Round, StageKind};

use super::seating::{current_round, tables};
use super::{Loaded, live_region, or_failure, tournament_page};
use crate::app_state::AppState;
use crate::http::pages::lang::Lang;
use crate::http::pages::layout::Page;
use crate::http::pages::text;
use crate::tournaments::named::standings_of;
use crate::tournaments::named::usernames_of;

/// "Round 2 of 3" in a qualification (its number of rounds is set), "Knockout · Round
/// 1", or "Final table".
fn round_of(t: &Loaded, kind: StageKind, round: &Round, lang: Lang) -> String {
    match kind {
        StageKind::Qualification if !round.draw.final_table => text::ROUND_OF
            .get(lang)
            .replace("{round}", &round.draw.round.to_string())
            .replace("{of}", &t.view.config.qualification_rounds.to_string()),
        _ => super::round_title(kind, round, lang),
    }
}

/// Standings rows a wall screen shows.
const STANDINGS_SHOWN: usize = 16;

pub async fn projector(
    state: web::Data<AppState>,
    req: HttpRequest,
    path: web::Path<i64>,
) -> HttpResponse {
    tournament_page(&state, &req, path.into_inner(), async |t, lang| {
        let rows = or_failure(standings_of(&state.db, &t.tournament).await)?;
        let round = current_round(&t);
        let players = round.iter().flat_map(|(_, r)| {
            r.tables
                .iter()
                .flat_map(|table| table.players.iter().copied())
        });
        let names = or_failure(usernames_of(&state.db, players).await)?;
        let nobody = |_: &str| false;
        let left = super::clock_left(t.view.clock_ends_at);
        let live = html! {
            // The announcement and the round clock stay on screen while the rest cycles.
            @if let Some(words) = &t.view.announcement {
                p.announcement data-announcement { (words) }
            }
            @if let Some(seconds) = left {
                p.clock {
                    (text::ROUND_CLOCK.get(lang)) ": "
                    span data-clock-remaining=(seconds) data-time-up=(text::TIME_UP.get(lang)) {
                        @if seconds == 0 { (text::TIME_UP.get(lang)) }
                        @else { (format!("{}:{:02}", seconds / 60, seconds % 60)) }
                    }
                }
            }
            div data-cycle="15" {
                section data-part="seating" aria-labelledby="seating" {
                    h2 #seating { (text::SEATING.get(lang))
                        @if let Some((kind, r)) = round { " · " (round_of(&t, kind, r, lang)) }
                    }
                    @match round {
                        Some((_, r)) => (tables(r, &names, lang, &nobody, false)),
                        None => p { (text::NO_ROUND_YET.get(lang)) },
                    }
                }
                section data-part="standings" aria-labelledby="standings" {
                    h2 #standings { (text::STANDINGS.get(lang)) }
                    @if rows.is_empty() { p { (text::NO_STANDINGS.get(lang)) } }
                    @else { (super::standings::table(&rows, lang, Some(STANDINGS_SHOWN))) }
                }
            }
        };
        let body = html! {
            h1 { (t.view.name) }
            (live_region(&t, live))
        };
        Ok::<_, super::Failure>(Page {
            lang,
            title: format!("{} · {}", text::PROJECTOR.get(lang), t.view.name),
            body,
            body_class: Some("projector"),
        })
    })
    .await
}
