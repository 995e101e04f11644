//! `GET /seasons?before=`: the seasons, newest first, twenty to a page (the API's
//! listing, `crate::http::routes::seasons::create::page`), each with how many
//! tournaments it holds and the day (UTC) it was created.

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use maud::html;
use serde::Deserialize;

use crate::app_state::AppState;
use crate::error::ApiError;
use crate::http::pages::format::day_utc;
use crate::http::pages::lang::Lang;
use crate::http::pages::layout::{self, Page};
use crate::http::pages::text;
use crate::http::routes::seasons::create::{SeasonListEntry, page};

/// Seasons to a page: the API's default page size.
const PAGE: u32 = 20;

/// `?before=` as typed: a value that is not an id is the page's to refuse (an
/// extractor would answer with a bare 400). Other parameters (`lang`) are the frame's.
#[derive(Debug, Default, Deserialize)]
pub struct SeasonsQuery {
    pub before: Option<String>,
}

/// A season of the list with its number of tournaments.
struct Listed {
    entry: SeasonListEntry,
    tournaments: usize,
}

pub async fn seasons(
    state: web::Data<AppState>,
    req: HttpRequest,
    query: web::Query<SeasonsQuery>,
) -> HttpResponse {
    let lang = Lang::of(&req);
    let before = match query
        .before
        .as_deref()
        .map(str::trim)
        .filter(|b| !b.is_empty())
    {
        None => None,
        Some(typed) => match typed.parse::<i64>() {
            Ok(id) => Some(id),
            Err(_) => {
                return layout::error(
                    &req,
                    lang,
                    StatusCode::UNPROCESSABLE_ENTITY,
                    text::BAD_LIST_PAGE.get(lang),
                );
            }
        },
    };
    let (listed, next_before) = match read(&state, before).await {
        Ok(read) => read,
        Err(err) => {
            tracing::warn!(error = %err, "the season list page could not read the seasons");
            return layout::error(
                &req,
                lang,
                StatusCode::SERVICE_UNAVAILABLE,
                text::UNAVAILABLE.get(lang),
            );
        }
    };
    let body = html! {
        h1 { (text::SEASONS.get(lang)) }
        p { (text::SEASONS_INTRO.get(lang)) }
        @if listed.is_empty() {
            p.note { (text::NO_SEASONS.get(lang)) }
        } @else {
            div.scroll tabindex="0" role="region" aria-label=(text::SEASONS.get(lang)) {
                table.grid.seasons {
                    caption.vh { (text::SEASONS.get(lang)) }
                    thead {
                        tr {
                            th scope="col" { (text::SEASON.get(lang)) }
                            th.num scope="col" { (text::TOURNAMENTS.get(lang)) }
                            th scope="col" { (text::CREATED_AT.get(lang)) }
                        }
                    }
                    tbody {
                        @for s in &listed {
                            tr {
                                th scope="row" { a href={ "/seasons/" (s.entry.id) } { (s.entry.name) } }
                                td.num { (s.tournaments) }
                                td.when { (day_utc(s.entry.created_at)) }
                            }
                        }
                    }
                }
            }
        }
        @if before.is_some() || next_before.is_some() {
            nav.pager.no-print aria-label=(text::LIST_PAGES.get(lang)) {
                @if before.is_some() {
                    a rel="prev" href="/seasons" { "← " (text::NEWEST_SEASONS.get(lang)) }
                }
                @if let Some(next) = next_before {
                    a rel="next" href={ "/seasons?before=" (next) } { (text::OLDER_SEASONS.get(lang)) " →" }
                }
            }
        }
    };
    layout::respond(
        &req,
        StatusCode::OK,
        Page {
            lang,
            title: text::SEASONS.get(lang).to_owned(),
            body,
            body_class: None,
        },
    )
}

/// A page of seasons with an id below `before`, each with its members counted from
/// its stream (cached folds: a season is a few events).
async fn read(
    state: &AppState,
    before: Option<i64>,
) -> Result<(Vec<Listed>, Option<i64>), ApiError> {
    let list = page(&state.db, before, PAGE).await?;
    let mut listed = Vec::with_capacity(list.seasons.len());
    for entry in list.seasons {
        let tournaments = state.seasons.read(entry.id).await?.members().len();
        listed.push(Listed { entry, tournaments });
    }
    Ok((listed, list.next_before))
}
