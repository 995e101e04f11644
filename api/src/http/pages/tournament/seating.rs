//! `GET /t/{id}/seating?q=NAME`: the tables of the round being played (the latest
//! drawn), players in seat order, and "find my table": the tables where a player's
//! name contains `q` (any case), marked. The search is a plain form, so it works
//! without the script.

use actix_web::{HttpRequest, HttpResponse, web};
use maud::{Markup, html};
use serde::Deserialize;
use yaniv_domain::tournament::{Round, StageKind, Table};

use super::{Loaded, Tab, name_of, or_failure, page_with, tournament_page};
use crate::app_state::AppState;
use crate::http::pages::lang::Lang;
use crate::http::pages::text;
use crate::tables::table_id_of;
use crate::tournaments::named::usernames_of;

/// `?q=`: (part of) a player's name. Other parameters (`lang`) are the frame's.
#[derive(Debug, Deserialize)]
pub struct SeatingQuery {
    pub q: Option<String>,
}

/// The round being played: the latest drawn round of the current stage.
pub fn current_round(t: &Loaded) -> Option<(StageKind, &Round)> {
    let stage = t.tournament.state().current_stage()?;
    Some((stage.kind, stage.rounds.last()?))
}

/// Where the table stands: not started, playing, or its result in with who won.
pub fn status(
    table: &Table,
    names: &std::collections::BTreeMap<i64, Option<String>>,
    lang: Lang,
) -> Markup {
    if let Some(result) = &table.result {
        let winners: Vec<String> = result
            .iter()
            .filter(|r| r.place == 1)
            .map(|r| name_of(names, r.player))
            .collect();
        return html! {
            (text::DONE.get(lang))
            @if !winners.is_empty() {
                " · " (text::WON_BY.get(lang)) " " strong { (winners.join(", ")) }
            }
        };
    }
    html! {
        @if table.started { (text::PLAYING.get(lang)) } @else { (text::WAITING.get(lang)) }
    }
}

/// The round's tables as cards; `found` marks the players whose name matches.
pub fn tables(
    round: &Round,
    names: &std::collections::BTreeMap<i64, Option<String>>,
    lang: Lang,
    found: &dyn Fn(&str) -> bool,
    only_found: bool,
) -> Markup {
    html! {
        div.tables {
            @for (k, table) in round.tables.iter().enumerate() {
                @let matched = table.players.iter().any(|p| found(&name_of(names, *p)));
                @if !only_found || matched {
                    section.table-card.found[matched && only_found]
                        aria-labelledby={ "table-" (k + 1) } {
                        h3 #{ "table-" (k + 1) } {
                            (text::TABLE.get(lang)) " " (k + 1)
                            " "
                            span.tag {
                                @if table.game.is_some() { (text::ONLINE.get(lang)) }
                                @else { (text::PAPER.get(lang)) }
                            }
                        }
                        ol {
                            @for player in &table.players {
                                @let name = name_of(names, *player);
                                li {
                                    @if found(&name) { mark { (name) } } @else { (name) }
                                    @if table.absent.contains(player) {
                                        " " span.absent { "(" (text::ABSENT.get(lang)) ")" }
                                    }
                                }
                            }
                        }
                        p.status { (status(table, names, lang)) }
                        @if let Some(game) = table.game.as_deref().and_then(table_id_of) {
                            p {
                                a.button data-play-link href={ "/play/tables/" (game) } {
                                    @if table.result.is_some() { (text::PLAY_OR_WATCH.get(lang)) }
                                    @else { (text::PLAY_AT_TABLE.get(lang)) }
                                    span.vh { " (" (text::TABLE.get(lang)) " " (k + 1) ")" }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}

pub async fn seating(
    state: web::Data<AppState>,
    req: HttpRequest,
    path: web::Path<i64>,
    query: web::Query<SeatingQuery>,
) -> HttpResponse {
    tournament_page(&state, &req, path.into_inner(), async |t, lang| {
        let wanted = query
            .q
            .as_deref()
            .map(str::trim)
            .filter(|q| !q.is_empty())
            .map(str::to_lowercase);
        let round = current_round(&t);
        let players = round.iter().flat_map(|(_, r)| {
            r.tables
                .iter()
                .flat_map(|table| table.players.iter().copied())
        });
        let names = or_failure(usernames_of(&state.db, players).await)?;
        let found = |name: &str| {
            wanted
                .as_deref()
                .is_some_and(|q| name.to_lowercase().contains(q))
        };
        let live = match round {
            None => html! { p { (text::NO_ROUND_YET.get(lang)) } },
            Some((kind, round)) => {
                let any = round
                    .tables
                    .iter()
                    .flat_map(|table| &table.players)
                    .any(|p| found(&name_of(&names, *p)));
                html! {
                    h2 {
                        @if round.draw.final_table { (text::FINAL_TABLE.get(lang)) }
                        @else {
                            @match kind {
                                StageKind::Qualification => (text::QUALIFICATION.get(lang)),
                                StageKind::Knockout => (text::KNOCKOUT.get(lang)),
                            }
                            " · " (text::ROUND.get(lang)) " " (round.draw.round)
                        }
                    }
                    @if wanted.is_some() && !any {
                        p role="status" { (text::NOBODY_FOUND.get(lang)) }
                    }
                    (tables(round, &names, lang, &found, wanted.is_some() && any))
                }
            }
        };
        let search = html! {
            form.find method="get" action={ "/t/" (t.id) "/seating" } role="search" {
                div {
                    label for="q" { (text::YOUR_NAME.get(lang)) }
                    br;
                    input #q type="search" name="q" autocomplete="off"
                        value=[query.q.as_deref()];
                }
                button type="submit" { (text::FIND_TABLE.get(lang)) }
                @if wanted.is_some() {
                    a href={ "/t/" (t.id) "/seating" } { (text::SHOW_ALL.get(lang)) }
                }
            }
            (crate::http::pages::print::links(t.id, lang))
        };
        Ok::<_, super::Failure>(page_with(&t, lang, Tab::Seating, search, live))
    })
    .await
}
