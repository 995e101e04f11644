//! `GET /t/{id}/standings`: the qualification standings with every tie-break column,
//! named and in points, as `GET /v1/tournaments/{id}/standings` gives them.

use actix_web::{HttpRequest, HttpResponse, web};
use maud::{Markup, html};

use super::{Tab, or_failure, page, tournament_page};
use crate::app_state::AppState;
use crate::http::pages::lang::Lang;
use crate::http::pages::ratings::player_link;
use crate::http::pages::text;
use crate::tournaments::named::{StandingsEntry, standings_of};

/// The standings as a table (`rows` best first); the first `limit` rows only when
/// given.
pub fn table(rows: &[StandingsEntry], lang: Lang, limit: Option<usize>) -> Markup {
    html! {
        // Wider than a phone: the reader scrolls it, so it can take the keyboard's focus.
        div.scroll tabindex="0" role="region" aria-label=(text::STANDINGS.get(lang)) {
            table.grid {
                caption.vh { (text::STANDINGS.get(lang)) }
                thead {
                    tr {
                        th.num scope="col" { (text::PLACE.get(lang)) }
                        th scope="col" { (text::PLAYER.get(lang)) }
                        th.num scope="col" { (text::TABLE_POINTS.get(lang)) }
                        th.num scope="col" { (text::WINS.get(lang)) }
                        th.num scope="col" { (text::SCORE_DIFFERENCE.get(lang)) }
                        th.num scope="col" { (text::GAMES.get(lang)) }
                        th.num scope="col" { (text::ABSENCES.get(lang)) }
                        th.num.registration scope="col" { (text::REGISTRATION_ORDER.get(lang)) }
                    }
                }
                tbody {
                    @for entry in rows.iter().take(limit.unwrap_or(usize::MAX)) {
                        @let stats = &entry.row.stats;
                        tr {
                            td.num { (entry.row.place) }
                            th scope="row" {
                                (player_link(entry.username.as_deref(), stats.player))
                                @if entry.row.withdrawn {
                                    " " span.tag { (text::WITHDRAWN.get(lang)) }
                                }
                            }
                            td.num { (entry.table_points_decimal) }
                            td.num { (stats.wins) }
                            td.num { (entry.score_difference_decimal) }
                            td.num { (stats.games) }
                            td.num { (stats.absences) }
                            td.num.registration { (stats.registration) }
                        }
                    }
                }
            }
        }
    }
}

pub async fn standings(
    state: web::Data<AppState>,
    req: HttpRequest,
    path: web::Path<i64>,
) -> HttpResponse {
    tournament_page(&state, &req, path.into_inner(), async |t, lang| {
        let rows = or_failure(standings_of(&state.db, &t.tournament).await)?;
        let live = if rows.is_empty() {
            html! { p { (text::NO_STANDINGS.get(lang)) } }
        } else {
            html! {
                (table(&rows, lang, None))
                p.note { (text::SCORE_DIFFERENCE_HELP.get(lang)) }
                p.no-print {
                    a href={ "/v1/tournaments/" (t.id) "/standings.csv" } download {
                        (text::DOWNLOAD_CSV.get(lang))
                    }
                    " · "
                    a href={ "/t/" (t.id) "/print/standings" } { (text::PRINT_STANDINGS.get(lang)) }
                }
            }
        };
        Ok::<_, super::Failure>(page(&t, lang, Tab::Standings, live))
    })
    .await
}
