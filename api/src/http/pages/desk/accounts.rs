//! `GET /desk/accounts`: the admin's page for accounts and roles. A search by the
//! start of a name (`GET /v1/accounts?prefix=`), each account with its roles as
//! boxes to tick and a Save that replaces them (`PUT /v1/accounts/{id}/roles`, which
//! only an admin may send: anyone else is told so before trying). Which tournaments an
//! organizer or referee serves is set on each tournament's desk.

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse};
use maud::html;

use super::frame;
use crate::http::pages::lang::Lang;
use crate::http::pages::layout::{self, Page};
use crate::http::pages::text;

/// The roles an admin grants here, in the order shown.
const ROLES: [&str; 3] = ["organizer", "referee", "admin"];

pub async fn accounts(req: HttpRequest) -> HttpResponse {
    let lang = Lang::of(&req);
    let body = frame(
        lang,
        html! {
            h1 { (text::ACCOUNTS.get(lang)) }
            p { (text::ACCOUNTS_HELP.get(lang)) }
            p.note data-accounts-not-admin hidden { (text::ADMINS_ONLY.get(lang)) }
            form.find data-desk-accounts role="search" {
                div {
                    label for="account-prefix" { (text::NAME_STARTS.get(lang)) }
                    br;
                    input #account-prefix name="prefix" type="search" autocomplete="off" required;
                }
                button type="submit" { (text::FIND.get(lang)) }
            }
            div.scroll {
                table.grid data-accounts-found hidden {
                    caption.vh { (text::ACCOUNTS.get(lang)) }
                    thead {
                        tr {
                            th scope="col" { (text::USERNAME.get(lang)) }
                            @for role in ROLES { th scope="col" { (text::role(role).get(lang)) } }
                            th scope="col" { span.vh { (text::ACTIONS.get(lang)) } }
                        }
                    }
                    tbody { }
                }
            }
            template data-accounts-labels
                data-roles=(serde_json::to_string(&ROLES).unwrap_or_default())
                data-save=(text::SAVE.get(lang))
                data-none=(text::NOBODY_FOUND.get(lang)) { }
        },
    );
    layout::respond(
        &req,
        StatusCode::OK,
        Page {
            lang,
            title: text::ACCOUNTS.get(lang).to_owned(),
            body,
            body_class: Some("desk"),
        },
    )
}
