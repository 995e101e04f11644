//! `GET /t/{id}/print/cards?stage=&round=`: a card per table of the round, to stand on
//! the table: its number large enough to find across the room, the players in seat
//! order, whether the game is played online or on paper, and a QR code that leads a
//! phone to the table's online game (or, at a paper table, to the seating). Six cards
//! to an A4 page.

use actix_web::{HttpRequest, HttpResponse, web};
use maud::html;

use super::{Problem, RoundQuery, chosen_round, page, printable};
use crate::app_state::AppState;
use crate::http::pages::tournament::round_title;
use crate::http::pages::tournament::{name_of, or_failure};
use crate::http::pages::{qr, text};
use crate::tables::table_id_of;
use crate::tournaments::named::usernames_of;

pub async fn cards(
    state: web::Data<AppState>,
    req: HttpRequest,
    path: web::Path<i64>,
    query: web::Query<RoundQuery>,
) -> HttpResponse {
    printable(&state, &req, path.into_inner(), async |t, lang| {
        let round = chosen_round(&t, &query)?;
        let players = round
            .iter()
            .flat_map(|(_, _, r)| r.tables.iter().flat_map(|table| table.players.iter().copied()));
        let names = or_failure(usernames_of(&state.db, players).await)?;
        let origin = qr::origin(&req);
        let content = match round {
            None => html! {
                h1 { (text::TABLE_CARDS.get(lang)) }
                p { (text::NO_ROUND_YET.get(lang)) }
            },
            Some((_, kind, r)) => {
                let title = round_title(kind, r, lang);
                html! {
                    h1.vh { (text::TABLE_CARDS.get(lang)) }
                    div.cards {
                        @for (k, table) in r.tables.iter().enumerate() {
                            // More than five names take two columns, so that a card
                            // of eight keeps its large type.
                            section.card.many[table.players.len() > 5]
                                aria-labelledby={ "card-" (k + 1) } {
                                p.card-event { (t.view.name) " · " (title) }
                                h2 #{ "card-" (k + 1) } {
                                    span.card-label { (text::TABLE.get(lang)) }
                                    " "
                                    span.card-number { (k + 1) }
                                }
                                ol {
                                    @for player in &table.players { li { (name_of(&names, *player)) } }
                                }
                                p.card-mode {
                                    @if table.game.is_some() { (text::ONLINE.get(lang)) }
                                    @else { (text::PAPER.get(lang)) }
                                }
                                @let target = match table.game.as_deref().and_then(table_id_of) {
                                    Some(game) => format!("{origin}/play/tables/{game}"),
                                    None => format!("{origin}/t/{}/seating", t.id),
                                };
                                (qr::inline(&target, text::QR_TABLE.get(lang)))
                            }
                        }
                    }
                }
            }
        };
        Ok::<_, Problem>(page(&t, lang, text::TABLE_CARDS, content))
    })
    .await
}
