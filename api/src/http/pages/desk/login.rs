//! The account pages, each a form the script sends to the REST API, then a log-in
//! (`POST /v1/sessions`) whose token is kept for this browser tab only
//! (`sessionStorage`), then on to `next`: a page of this server, which the server
//! checks here and writes into the form ([`page_of_this_server`]); anything else is
//! dropped for the desk's home (the log-in) or the player's tables (the other two).
//!
//! - `GET /desk/login?next=PATH`: log in.
//! - `GET /desk/signup?next=PATH`: a walk-in creates their own account
//!   (`POST /v1/accounts`, with the API's password rules).
//! - `GET /desk/setup?username=&code=&next=PATH`: a player the organizer registered
//!   from a list chooses a password with the one-time code they were given
//!   (`POST /v1/accounts/setup`); the link on their slip fills in the name and code.

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use maud::html;
use serde::Deserialize;

use super::frame;
use crate::http::pages::format::query_value;
use crate::http::pages::lang::{Lang, Text};
use crate::http::pages::layout::{self, Page};
use crate::http::pages::text;

/// Where to go after logging in, as the query asks, and what the set-up page fills in.
#[derive(Debug, Default, Deserialize)]
struct AccountQuery {
    next: Option<String>,
    username: Option<String>,
    code: Option<String>,
}

/// The three forms.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Form {
    LogIn,
    SignUp,
    SetUp,
}

impl Form {
    fn kind(self) -> &'static str {
        match self {
            Form::LogIn => "login",
            Form::SignUp => "signup",
            Form::SetUp => "setup",
        }
    }

    fn title(self) -> Text {
        match self {
            Form::LogIn => text::LOG_IN,
            Form::SignUp => text::SIGN_UP,
            Form::SetUp => text::SET_UP,
        }
    }
}

/// The pages one may be sent to after logging in: the patterns of this server's pages
/// (never the API, the assets, or the log-in form itself).
fn is_a_page(pattern: &str) -> bool {
    pattern == "/"
        || ["/desk", "/play", "/replay", "/t/"]
            .iter()
            .any(|root| pattern.starts_with(root))
            && !["/desk/login", "/desk/signup", "/desk/setup"]
                .iter()
                .any(|form| pattern.starts_with(form))
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
    account_page(&req, Form::LogIn)
}

pub async fn signup(req: HttpRequest) -> HttpResponse {
    account_page(&req, Form::SignUp)
}

pub async fn setup(req: HttpRequest) -> HttpResponse {
    account_page(&req, Form::SetUp)
}

fn account_page(req: &HttpRequest, form: Form) -> HttpResponse {
    let lang = Lang::of(req);
    let query = web::Query::<AccountQuery>::from_query(req.query_string())
        .map(web::Query::into_inner)
        .unwrap_or_default();
    let fallback = if form == Form::LogIn {
        "/desk"
    } else {
        "/play"
    };
    let next = query
        .next
        .as_deref()
        .and_then(|next| page_of_this_server(req, next))
        .unwrap_or_else(|| fallback.to_owned());
    let onward = |path: &str| format!("{path}?next={}", query_value(&next));
    let new_password = form != Form::LogIn;
    let body = frame(
        lang,
        html! {
            h1 { (form.title().get(lang)) }
            @match form {
                Form::SignUp => p { (text::SIGN_UP_HELP.get(lang)) },
                Form::SetUp => p { (text::SET_UP_HELP.get(lang)) },
                Form::LogIn => {},
            }
            form.stack data-desk-login data-account=(form.kind()) data-next=(next)
                data-mismatch=(text::PASSWORDS_DIFFER.get(lang))
                method="post" action="/desk/login" {
                div {
                    label for="username" { (text::USERNAME.get(lang)) }
                    input #username name="username" type="text" autocomplete="username" required
                        value=[query.username.as_deref().filter(|_| form == Form::SetUp)];
                }
                @if form == Form::SetUp {
                    div {
                        label for="code" { (text::SETUP_CODE.get(lang)) }
                        input #code name="code" type="text" autocomplete="one-time-code" required
                            value=[query.code.as_deref()];
                    }
                }
                div {
                    label for="password" { (text::PASSWORD.get(lang)) }
                    @if new_password {
                        input #password name="password" type="password" autocomplete="new-password"
                            minlength="8" maxlength="128" required aria-describedby="password-help";
                        small #password-help { (text::PASSWORD_HELP.get(lang)) }
                    } @else {
                        input #password name="password" type="password" autocomplete="current-password" required;
                    }
                }
                @if new_password {
                    div {
                        label for="confirm" { (text::CONFIRM_PASSWORD.get(lang)) }
                        input #confirm name="confirm" type="password" autocomplete="new-password"
                            minlength="8" maxlength="128" required;
                    }
                }
                button type="submit" { (form.title().get(lang)) }
            }
            ul.plain {
                @if form != Form::LogIn {
                    li { a href=(onward("/desk/login")) { (text::HAVE_ACCOUNT.get(lang)) } }
                }
                @if form != Form::SignUp {
                    li { a href=(onward("/desk/signup")) { (text::NO_ACCOUNT_YET.get(lang)) } }
                }
                @if form != Form::SetUp {
                    li { a href=(onward("/desk/setup")) { (text::HAVE_CODE.get(lang)) } }
                }
            }
        },
    );
    layout::respond(
        req,
        StatusCode::OK,
        Page {
            lang,
            title: form.title().get(lang).to_owned(),
            body,
            body_class: Some("desk"),
        },
    )
}
