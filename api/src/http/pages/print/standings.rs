//! `GET /t/{id}/print/standings`: the qualification standings on paper, the same table
//! as the standings page, with the version of the tournament they come from and the
//! time they were printed, so that a sheet on the wall says how old it is.

use actix_web::{HttpRequest, HttpResponse, web};
use maud::html;
use time::OffsetDateTime;

use super::{Problem, page, printable};
use crate::app_state::AppState;
use crate::http::pages::format::minute_utc;
use crate::http::pages::text;
use crate::http::pages::tournament::{or_failure, standings::table};
use crate::tournaments::named::standings_of;

pub async fn standings(
    state: web::Data<AppState>,
    req: HttpRequest,
    path: web::Path<i64>,
) -> HttpResponse {
    printable(&state, &req, path.into_inner(), async |t, lang| {
        let rows = or_failure(standings_of(&state.db, &t.tournament).await)?;
        let content = html! {
            section.print-standings aria-labelledby="print-standings" {
                p.sheet-event { (t.view.name) }
                h1 #print-standings { (text::STANDINGS.get(lang)) }
                p.stamp {
                    (text::VERSION.get(lang)) " " (t.tournament.version())
                    " · " (text::PRINTED_AT.get(lang)) " " (minute_utc(OffsetDateTime::now_utc()))
                }
                @if rows.is_empty() { p { (text::NO_STANDINGS.get(lang)) } }
                @else { (table(&rows, lang, None)) }
            }
        };
        Ok::<_, Problem>(page(&t, lang, text::PRINT_STANDINGS, content))
    })
    .await
}
