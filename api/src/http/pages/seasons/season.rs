//! `GET /seasons/{id}`: a season's name and scale ("1st 25, 2nd 18, ..."), how many
//! results count, its tournaments (each with its phase and whether it counts yet),
//! and its standings: place, player, total and a column per finished tournament. A
//! result outside a player's best N is shown in parentheses and said to be "not
//! counted" for screen readers, so the difference is never colour alone. An unknown
//! season is a 404 page.
//!
//! Everything shown comes from `read::load` and `SeasonStandings::named`, the API's
//! own reads: the page only lays the figures out.

use std::collections::HashMap;

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use maud::{Markup, html};
use yaniv_domain::season::{Scoring, SeasonResult};

use super::ordinal;
use crate::app_state::AppState;
use crate::error::ApiError;
use crate::http::pages::lang::Lang;
use crate::http::pages::layout::{self, Page};
use crate::http::pages::ratings::player_link;
use crate::http::pages::text;
use crate::http::routes::seasons::read::load;
use crate::seasons::standings::{SeasonMember, SeasonStandingsEntry};

pub async fn season(
    state: web::Data<AppState>,
    req: HttpRequest,
    path: web::Path<i64>,
) -> HttpResponse {
    let lang = Lang::of(&req);
    let id = path.into_inner();
    let read = async {
        let (season, standings) = load(&state, id).await?;
        let named = standings.named(&state.db).await?;
        Ok::<_, ApiError>((season, standings, named))
    };
    let (season, standings, named) = match read.await {
        Ok(read) => read,
        Err(ApiError::NotFound(_)) => {
            return layout::error(
                &req,
                lang,
                StatusCode::NOT_FOUND,
                text::NO_SUCH_SEASON.get(lang),
            );
        }
        Err(err) => {
            tracing::warn!(error = %err, season = id, "a season's page could not read it");
            return layout::error(
                &req,
                lang,
                StatusCode::SERVICE_UNAVAILABLE,
                text::UNAVAILABLE.get(lang),
            );
        }
    };
    let counted = &standings.basis.tournaments;
    let body = html! {
        h1 { (season.name()) }
        p.no-print { a href="/seasons" { (text::SEASONS.get(lang)) } }
        (scale(season.scoring(), lang))
        (members(&standings.members, lang))
        (table(&named, counted, &standings.members, lang))
        @if !named.is_empty() {
            p.no-print {
                a href={ "/v1/seasons/" (id) "/standings?format=csv" } download { (text::DOWNLOAD_CSV.get(lang)) }
            }
        }
        p.no-print { a href={ "/v1/seasons/" (id) } { (text::SEASON_JSON.get(lang)) } }
    };
    layout::respond(
        &req,
        StatusCode::OK,
        Page {
            lang,
            title: format!("{} · {}", season.name(), text::SEASON.get(lang)),
            body,
            body_class: None,
        },
    )
}

/// "1st 25, 2nd 18, ...; any place further down: 0", and how many results count (the
/// desk's season page shows it too).
pub fn scale(scoring: &Scoring, lang: Lang) -> Markup {
    let places: Vec<String> = scoring
        .points
        .iter()
        .enumerate()
        .map(|(k, points)| format!("{} {points}", ordinal(k + 1, lang)))
        .collect();
    let counts = match scoring.best {
        None => text::EVERY_RESULT_COUNTS.get(lang).to_owned(),
        Some(1) => text::BEST_RESULT_COUNTS.get(lang).to_owned(),
        Some(best) => text::BEST_RESULTS_COUNT
            .get(lang)
            .replace("{best}", &best.to_string()),
    };
    html! {
        dl.facts.scale {
            dt { (text::POINTS_BY_PLACE.get(lang)) }
            // The separator is the text's own: French puts a space before a semicolon.
            dd { (places.join(", ")) (text::BEYOND_SCALE.get(lang)) }
            dt { (text::WHAT_COUNTS.get(lang)) }
            dd { (counts) }
        }
    }
}

/// The season's tournaments in the order they were added.
fn members(members: &[SeasonMember], lang: Lang) -> Markup {
    html! {
        h2 #season-tournaments { (text::TOURNAMENTS.get(lang)) }
        @if members.is_empty() {
            p.note { (text::NO_SEASON_TOURNAMENTS.get(lang)) }
        } @else {
            div.scroll {
                table.grid.members aria-labelledby="season-tournaments" {
                    thead {
                        tr {
                            th scope="col" { (text::TOURNAMENT.get(lang)) }
                            th scope="col" { (text::PHASE.get(lang)) }
                            th scope="col" { (text::COUNTS.get(lang)) }
                        }
                    }
                    tbody {
                        @for m in members {
                            tr data-tournament=(m.tournament) {
                                th scope="row" { a href={ "/t/" (m.tournament) } { (m.name) } }
                                td { (text::phase(&m.phase).get(lang)) }
                                td {
                                    @if m.counts { (text::COUNTS_NOW.get(lang)) }
                                    @else { (text::COUNTS_ONCE_FINISHED.get(lang)) }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}

/// The standings: a column per finished tournament, in the season's order.
fn table(
    rows: &[SeasonStandingsEntry],
    counted: &[i64],
    members: &[SeasonMember],
    lang: Lang,
) -> Markup {
    let names: HashMap<i64, &str> = members
        .iter()
        .map(|m| (m.tournament, m.name.as_str()))
        .collect();
    html! {
        h2 #season-standings { (text::STANDINGS.get(lang)) }
        @if rows.is_empty() {
            p.note { (text::NO_SEASON_STANDINGS.get(lang)) }
        } @else {
            p.note #season-hint { (text::SEASON_TABLE_HINT.get(lang)) }
            // Wider than a phone with many tournaments: the reader scrolls it, so it can
            // take the keyboard's focus.
            div.scroll tabindex="0" role="region" aria-labelledby="season-standings" {
                table.grid.season-standings aria-describedby="season-hint" {
                    caption.vh { (text::STANDINGS.get(lang)) }
                    thead {
                        tr {
                            th.num scope="col" { (text::PLACE.get(lang)) }
                            th scope="col" { (text::PLAYER.get(lang)) }
                            th.num scope="col" { (text::TOTAL.get(lang)) }
                            @for t in counted {
                                th.num scope="col" data-tournament=(t) {
                                    (names.get(t).copied().unwrap_or_default())
                                }
                            }
                        }
                    }
                    tbody {
                        @for row in rows {
                            tr data-player=(row.player) {
                                td.num { (row.place) }
                                th scope="row" { (player_link(row.username.as_deref(), row.player)) }
                                td.num.total { (row.total) }
                                @for t in counted {
                                    (result(row.results.iter().find(|r| r.tournament == *t), lang))
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}

/// One result's cell: its points, in parentheses and named "not counted" when it is
/// outside the player's best N; a dash, named "no result", when the player has none
/// there (not ranked: disqualified, or never entered).
fn result(found: Option<&SeasonResult>, lang: Lang) -> Markup {
    html! {
        @match found {
            Some(r) if r.counted => td.num data-counted="true" { (r.points) },
            Some(r) => td.num.uncounted data-counted="false" {
                "(" (r.points) ")" span.vh { " " (text::NOT_COUNTED.get(lang)) }
            },
            None => td.num.none data-counted="none" {
                span aria-hidden="true" { "–" } span.vh { (text::NO_RESULT.get(lang)) }
            },
        }
    }
}
