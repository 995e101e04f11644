//! `GET /t/{id}/ranking`: the final ranking once the final table has its result
//! (marked provisional until the organizer publishes it), as
//! `GET /v1/tournaments/{id}/ranking` gives it.

use actix_web::{HttpRequest, HttpResponse, web};
use maud::html;
use yaniv_domain::tournament::Reached;

use super::{Tab, name_of, or_failure, page, tournament_page};
use crate::app_state::AppState;
use crate::http::pages::lang::{Lang, Text};
use crate::http::pages::ratings::player_link;
use crate::http::pages::text;
use crate::tournaments::named::usernames_of;

fn reached(r: Reached, lang: Lang) -> String {
    match r {
        Reached::Final { place_at_table } => format!(
            "{} · {} {place_at_table}",
            text::FINAL_TABLE.get(lang),
            text::PLACE_LOWER.get(lang)
        ),
        Reached::Knockout { stage, .. } => {
            format!(
                "{} · {} {stage}",
                text::KNOCKOUT.get(lang),
                text::STAGE.get(lang)
            )
        }
        Reached::Qualification => text::QUALIFICATION.get(lang).to_owned(),
    }
}

pub async fn ranking(
    state: web::Data<AppState>,
    req: HttpRequest,
    path: web::Path<i64>,
) -> HttpResponse {
    tournament_page(&state, &req, path.into_inner(), async |t, lang| {
    let ranking = t.tournament.ranking();
    let published = t.tournament.state().finished.is_some();
    let players = ranking.iter().flat_map(|r| {
        r.ranking
            .iter()
            .map(|p| p.player)
            .chain(r.disqualified.iter().copied())
    });
    let names = or_failure(usernames_of(&state.db, players).await)?;
    const TITLE: Text = text::RANKING;
    let live = match &ranking {
        None => html! { p { (text::NO_RANKING.get(lang)) } },
        Some(ranking) => html! {
            @if !published { p role="status" { (text::PROVISIONAL.get(lang)) } }
            div.scroll {
                table.grid {
                    caption.vh { (TITLE.get(lang)) }
                    thead {
                        tr {
                            th.num scope="col" { (text::PLACE.get(lang)) }
                            th scope="col" { (text::PLAYER.get(lang)) }
                            th scope="col" { (text::REACHED.get(lang)) }
                        }
                    }
                    tbody {
                        @for p in &ranking.ranking {
                            tr {
                                td.num { (p.place) }
                                th scope="row" {
                                    (player_link(names.get(&p.player).and_then(|n| n.as_deref()), p.player))
                                    @if p.withdrawn { " " span.tag { (text::WITHDRAWN.get(lang)) } }
                                }
                                td { (reached(p.reached, lang)) }
                            }
                        }
                    }
                }
            }
            @if !ranking.disqualified.is_empty() {
                h2 { (text::DISQUALIFIED.get(lang)) }
                ul {
                    @for player in &ranking.disqualified { li { (name_of(&names, *player)) } }
                }
            }
            p.no-print {
                a href={ "/v1/tournaments/" (t.id) "/ranking.csv" } download {
                    (text::DOWNLOAD_CSV.get(lang))
                }
            }
        },
    };
    Ok::<_, super::Failure>(page(&t, lang, Tab::Ranking, live))
    })
    .await
}
