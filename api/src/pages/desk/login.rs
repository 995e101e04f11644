//! `GET /desk/login?next=PATH`: the officials' log-in form. The script sends it to
//! `POST /v1/sessions` and keeps the token for this browser tab only
//! (`sessionStorage`), then goes on to `next` (a desk page).

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse};
use maud::html;

use super::frame;
use crate::pages::lang::Lang;
use crate::pages::layout::{self, Page};
use crate::pages::text;

pub async fn login(req: HttpRequest) -> HttpResponse {
    let lang = Lang::of(&req);
    let body = frame(
        lang,
        html! {
            h1 { (text::LOG_IN.get(lang)) }
            form.stack data-desk-login method="post" action="/desk/login" {
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
