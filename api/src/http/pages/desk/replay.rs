//! `GET /desk/tables/{id}?as_of=N`: the referee's replay viewer. The page holds the
//! controls and the places for the table; `assets/replay.js` reads the table at each
//! version with the official's token (`GET /v1/tables/{id}/audit?as_of=N`, staff
//! only) and draws every hand, the stock and the round's discard pile, and asks
//! `POST /v1/tables/{id}/verify` for the verdict on the stored history; the list of
//! events, each in words, comes from `GET /v1/tables/{id}/diff?from=1`. The server
//! reads nothing here: what a referee may see is the audit's to decide. The viewer's
//! body is shared with the record viewer (`pages::viewer`).

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use maud::html;

use super::frame;
use crate::http::pages::lang::Lang;
use crate::http::pages::layout::{self, Page};
use crate::http::pages::text;
use crate::http::pages::viewer::viewer;

/// The version asked for in the query, if it is one; anything else shows the latest
/// (a hand-typed address should not end in an error page).
fn as_of(req: &HttpRequest) -> Option<u64> {
    req.query_string()
        .split('&')
        .find_map(|pair| pair.strip_prefix("as_of="))
        .and_then(|v| v.parse().ok())
}

pub async fn replay(req: HttpRequest, path: web::Path<i64>) -> HttpResponse {
    let lang = Lang::of(&req);
    let id = path.into_inner();
    let title = format!("{} #{id}", text::REPLAY.get(lang));
    let body = frame(
        lang,
        html! {
            h1 { (title) }
            p { a href="/desk" { (text::DESK.get(lang)) } " · " a href="/replay" { (text::RECORD_VIEWER.get(lang)) } }
            p.note { (text::REPLAY_HELP.get(lang)) }
            div data-replay=(id) data-as-of=[as_of(&req)] {
                (viewer(lang, &title, text::VERSION.get(lang), text::GO_TO_VERSION.get(lang)))
                h2 { (text::VERIFY.get(lang)) }
                div.buttons {
                    button type="button" data-replay-verify { (text::VERIFY.get(lang)) }
                    button type="button" class="secondary" data-replay-download { (text::DOWNLOAD_RECORD.get(lang)) }
                }
                div data-replay-verdict role="status" aria-live="polite" { }
            }
            script src="/assets/cards.js" defer { }
            script src="/assets/replay.js" defer { }
        },
    );
    layout::respond(
        &req,
        StatusCode::OK,
        Page {
            lang,
            title,
            body,
            body_class: Some("desk"),
        },
    )
}
