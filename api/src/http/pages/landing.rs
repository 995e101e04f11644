//! `/`: what this server is, and its tournaments, newest first (from the replica when
//! one is within its bound: a tournament may show a few seconds late).

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use maud::html;

use super::lang::Lang;
use super::layout::{self, Page};
use super::text;
use crate::app_state::AppState;
use crate::http::replica_lag;
use crate::tournaments::listing;

/// How many tournaments the landing page lists.
const SHOWN: u32 = 50;

pub async fn landing(state: web::Data<AppState>, req: HttpRequest) -> HttpResponse {
    let lang = Lang::of(&req);
    let listed = state
        .lag_tolerant
        .read(async |db| listing::list(db, None, None, SHOWN).await)
        .await;
    let (rows, served) = match listed {
        Ok(listed) => listed,
        Err(err) => {
            tracing::warn!(error = %err, "the landing page could not list the tournaments");
            return layout::error(
                &req,
                lang,
                StatusCode::SERVICE_UNAVAILABLE,
                text::UNAVAILABLE.get(lang),
            );
        }
    };
    let body = html! {
        h1 { (text::SITE.get(lang)) }
        p { (text::LANDING_INTRO.get(lang)) }
        ul {
            li { a href={ "/desk?lang=" (lang.code()) } { (text::DESK.get(lang)) } }
            li { a href={ "/play?lang=" (lang.code()) } { (text::PLAY.get(lang)) } }
            li { a href={ "/replay?lang=" (lang.code()) } { (text::RECORD_VIEWER.get(lang)) } }
            li { a href={ "/ratings?lang=" (lang.code()) } { (text::RATING_LIST.get(lang)) } }
            li { a href={ "/seasons?lang=" (lang.code()) } { (text::SEASONS.get(lang)) } }
        }
        h2 { (text::TOURNAMENTS.get(lang)) }
        @if rows.is_empty() {
            p.note { (text::NO_TOURNAMENTS.get(lang)) }
        } @else {
            ul {
                @for row in &rows {
                    li {
                        a href={ "/t/" (row.id) } { (row.name) }
                        " "
                        span.tag { (text::phase(&row.phase).get(lang)) }
                    }
                }
            }
        }
    };
    let mut response = layout::respond(
        &req,
        StatusCode::OK,
        Page {
            lang,
            title: text::HOME.get(lang).to_owned(),
            body,
            body_class: None,
        },
    );
    replica_lag::mark_built(&mut response, served);
    response
}
