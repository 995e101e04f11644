//! `GET /desk/login?next=PATH`: the officials' log-in form. The script sends it to
//! `POST /v1/sessions` and keeps the token for this browser tab only
//! (`sessionStorage`), then goes on to `next`: a page of this server, which the server
//! checks here and writes into the form ([`page_of_this_server`]); anything else is
//! dropped for the desk's home.

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use maud::html;
use serde::Deserialize;

use super::frame;
use crate::http::pages::lang::Lang;
use crate::http::pages::layout::{self, Page};
use crate::http::pages::text;

/// Where to go after logging in, as the query asks.
#[derive(Debug, Deserialize)]
struct NextQuery {
    next: Option<String>,
}

/// The pages one may be sent to after logging in: the patterns of this server's pages
/// (never the API, the assets, or the log-in form itself).
fn is_a_page(pattern: &str) -> bool {
    pattern == "/"
        || ["/desk", "/play", "/replay", "/t/"]
            .iter()
            .any(|root| pattern.starts_with(root))
            && !pattern.starts_with("/desk/login")
}

/// `next` when it is the path (and query) of a page this server routes: printable
/// ASCII only (no control character, space or backslash, which browsers drop or read
/// as `/`), one leading `/`, no fragment, no escape and no dot segment in the path.
/// Anything else is `None`.
pub fn page_of_this_server(req: &HttpRequest, next: &str) -> Option<String> {
    let printable = next
        .bytes()
        .all(|b| b.is_ascii_graphic() && b != b'\\' && b != b'#');
    if !printable || !next.starts_with('/') || next.starts_with("//") {
        return None;
    }
    let path = next.split('?').next().unwrap_or_default();
    // No page's path needs an escape, and a browser reads `%2e%2e` as `..`.
    let dot_segment = path
        .split('/')
        .any(|segment| segment == "." || segment == "..");
    if path.contains('%') || dot_segment {
        return None;
    }
    let pattern = req.resource_map().match_pattern(path)?;
    is_a_page(&pattern).then(|| next.to_owned())
}

pub async fn login(req: HttpRequest) -> HttpResponse {
    let lang = Lang::of(&req);
    let next = web::Query::<NextQuery>::from_query(req.query_string())
        .ok()
        .and_then(|q| q.into_inner().next)
        .and_then(|next| page_of_this_server(&req, &next))
        .unwrap_or_else(|| "/desk".to_owned());
    let body = frame(
        lang,
        html! {
            h1 { (text::LOG_IN.get(lang)) }
            form.stack data-desk-login data-next=(next) method="post" action="/desk/login" {
                div {
                    label for="username" { (text::USERNAME.get(lang)) }
                    input #username name="username" type="text" autocomplete="username" required;
                }
                div {
                    label for="password" { (text::PASSWORD.get(lang)) }
                    input #password name="password" type="password" autocomplete="current-password" required;
                }
                button type="submit" { (text::LOG_IN.get(lang)) }
            }
        },
    );
    layout::respond(
        &req,
        StatusCode::OK,
        Page {
            lang,
            title: text::LOG_IN.get(lang).to_owned(),
            body,
            body_class: Some("desk"),
        },
    )
}
