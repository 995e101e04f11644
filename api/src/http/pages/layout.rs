//! The frame of every page: the document head, the site's header with the language
//! switch, the main landmark, and the answer's headers (content type, language,
//! policy). A page only writes what goes inside `<main>`.

use actix_web::cookie::{Cookie, SameSite};
use actix_web::http::StatusCode;
use actix_web::http::header::{self, HeaderValue};
use actix_web::{HttpRequest, HttpResponse};
use maud::{DOCTYPE, Markup, html};

use super::lang::{COOKIE, Lang};
use super::text;

/// Scripts, styles and the streams from this server only; nothing framed, no inline
/// script or style (the pages have none).
const POLICY: &str = "default-src 'none'; script-src 'self'; style-src 'self'; \
                      img-src 'self' data:; connect-src 'self'; form-action 'self'; \
                      base-uri 'none'; frame-ancestors 'none'";

/// What a page puts in the frame.
#[derive(Debug)]
pub struct Page {
    pub lang: Lang,
    pub title: String,
    pub body: Markup,
    /// A class on `<body>` (`projector` for wall screens).
    pub body_class: Option<&'static str>,
}

/// The page's link to itself in `lang`: the same path and query, `lang` replaced.
fn switch_link(req: &HttpRequest, lang: Lang) -> String {
    let query: Vec<&str> = req
        .query_string()
        .split('&')
        .filter(|p| !p.is_empty() && !p.starts_with("lang="))
        .collect();
    let mut link = format!("{}?", req.path());
    for part in query {
        link.push_str(part);
        link.push('&');
    }
    link.push_str("lang=");
    link.push_str(lang.code());
    link
}

fn document(req: &HttpRequest, page: &Page) -> Markup {
    let lang = page.lang;
    html! {
        (DOCTYPE)
        html lang=(lang.code()) {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                title { (page.title) " · " (text::SITE.get(lang)) }
                link rel="icon" href="/assets/icon.svg" type="image/svg+xml";
                link rel="stylesheet" href="/assets/pages.css";
                script src="/assets/live.js" defer {}
            }
            body class=[page.body_class] {
                a.skip href="#main" { (text::SKIP.get(lang)) }
                header.site {
                    a.brand href={ "/?lang=" (lang.code()) } { (text::SITE.get(lang)) }
                    nav aria-label=(text::LANGUAGE.get(lang)) .langs {
                        ul {
                            @for other in Lang::ALL {
                                li {
                                    a href=(switch_link(req, other)) hreflang=(other.code())
                                        lang=(other.code())
                                        aria-current=[(other == lang).then_some("true")] {
                                        (other.name())
                                    }
                                }
                            }
                        }
                    }
                }
                main #main {
                    (page.body)
                }
                footer.site {
                    a href="/docs/" { (text::API_DOCS.get(lang)) }
                }
            }
        }
    }
}

/// The page as an answer with `status`: HTML in its language, with the pages' policy,
/// and the language cookie when the switch was used.
pub fn respond(req: &HttpRequest, status: StatusCode, page: Page) -> HttpResponse {
    let mut response = HttpResponse::build(status);
    response
        .content_type("text/html; charset=utf-8")
        .insert_header((header::CONTENT_LANGUAGE, page.lang.code()))
        .insert_header((header::CONTENT_SECURITY_POLICY, POLICY))
        // The page follows the language: a cache must not give one to another.
        .insert_header((header::VARY, "Accept-Language, Cookie"))
        .insert_header((header::CACHE_CONTROL, "no-cache"));
    if Lang::asked(req) == Some(page.lang) {
        let cookie = Cookie::build(COOKIE, page.lang.code())
            .path("/")
            .same_site(SameSite::Lax)
            .max_age(actix_web::cookie::time::Duration::days(365))
            .finish();
        response.cookie(cookie);
    }
    let mut response = response.body(document(req, &page).into_string());
    if status.is_client_error() || status.is_server_error() {
        // The problem-document fallback leaves pages' own error pages alone.
        response
            .headers_mut()
            .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    }
    response
}

/// A page that says why there is nothing to show.
pub fn error(req: &HttpRequest, lang: Lang, status: StatusCode, message: &str) -> HttpResponse {
    let title = if status == StatusCode::NOT_FOUND {
        text::NOT_FOUND.get(lang).to_owned()
    } else {
        status.canonical_reason().unwrap_or("Error").to_owned()
    };
    let body = html! {
        h1 { (title) }
        p { (message) }
        p { a href={ "/?lang=" (lang.code()) } { (text::HOME.get(lang)) } }
    };
    respond(
        req,
        status,
        Page {
            lang,
            title,
            body,
            body_class: None,
        },
    )
}
