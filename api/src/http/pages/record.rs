//! `GET /replay`: a game record (`yaniv-record/1`) pasted or opened from a file and
//! stepped through like a stored table: a referee checks a paper game typed in, or a
//! record from another server, without storing anything. The browser sends the record
//! to `POST /v1/records/steps` (public, like the replay it extends) and
//! `assets/replay.js` shows the answer in the shared viewer (`pages::viewer`); a record
//! the rules refuse is shown up to its first problem, with the problem beside it.
//!
//! The page needs no log-in: the endpoint reads and writes nothing.

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse};
use maud::html;

use super::lang::Lang;
use super::layout::{self, Page};
use super::text;
use super::viewer::viewer;

pub async fn record(req: HttpRequest) -> HttpResponse {
    let lang = Lang::of(&req);
    let title = text::RECORD_VIEWER.get(lang);
    let body = html! {
        h1 { (title) }
        p.note { (text::RECORD_VIEWER_HELP.get(lang)) }
        noscript { p.note { (text::NEEDS_SCRIPT.get(lang)) } }
        form.stack data-record-form {
            div {
                label for="record-text" { (text::RECORD_TEXT.get(lang)) }
                textarea #record-text name="record" rows="8" spellcheck="false" { }
            }
            div {
                label for="record-file" { (text::RECORD_FILE.get(lang)) }
                input #record-file name="file" type="file" accept=".json,application/json";
            }
            button type="submit" { (text::REPLAY_RECORD.get(lang)) }
        }
        div data-record-verdict role="status" aria-live="polite" { }
        div data-replay-record hidden {
            (viewer(lang, title, text::STEP.get(lang), text::GO_TO_STEP.get(lang)))
        }
        script src="/assets/cards.js" defer { }
        script src="/assets/replay.js" defer { }
    };
    layout::respond(
        &req,
        StatusCode::OK,
        Page {
            lang,
            title: title.to_owned(),
            body,
            body_class: Some("desk"),
        },
    )
}
