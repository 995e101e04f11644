//! `GET /desk/tables/{id}?as_of=N`: the referee's replay viewer. The page holds the
//! controls and the places for the table; `assets/replay.js` reads the table at each
//! version with the official's token (`GET /v1/tables/{id}/audit?as_of=N`, staff
//! only) and draws every hand, the stock and the round's discard pile, and asks
//! `POST /v1/tables/{id}/verify` for the verdict on the stored history. The server
//! reads nothing here: what a referee may see is the audit's to decide.

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use maud::html;

use super::frame;
use crate::pages::lang::Lang;
use crate::pages::layout::{self, Page};
use crate::pages::text;

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
            p { a href="/desk" { (text::DESK.get(lang)) } }
            p.note { (text::REPLAY_HELP.get(lang)) }
            div data-replay=(id) data-as-of=[as_of(&req)] {
                nav.replay-controls aria-label=(text::VERSION.get(lang)) {
                    button type="button" data-step="first" { (text::FIRST.get(lang)) }
                    button type="button" data-step="back" { (text::BACK_ONE.get(lang)) }
                    button type="button" data-step="forward" { (text::FORWARD_ONE.get(lang)) }
                    button type="button" data-step="last" { (text::LAST.get(lang)) }
                    form.jump data-replay-jump {
                        label for="as-of" { (text::GO_TO_VERSION.get(lang)) }
                        " "
                        input #as-of name="as_of" type="number" min="1" inputmode="numeric";
                        " "
                        button type="submit" { (text::GO.get(lang)) }
                    }
                }
                p.replay-position data-replay-position aria-live="polite" { }
                p.failure-here data-replay-failure-here hidden { (text::THIS_IS_THE_FAILURE.get(lang)) }
                div.scroll {
                    table.grid.replay-seats {
                        caption.vh { (text::REPLAY.get(lang)) " #" (id) }
                        thead {
                            tr {
                                th scope="col" { (text::SEAT.get(lang)) }
                                th scope="col" { (text::PLAYER.get(lang)) }
                                th scope="col" { (text::HAND_CARDS.get(lang)) }
                                th scope="col" { (text::HAND_TOTAL.get(lang)) }
                                th scope="col" { (text::SCORE.get(lang)) }
                            }
                        }
                        tbody data-replay-seats { }
                    }
                }
                p data-replay-stock { }
                h2 data-replay-pile-title { (text::DISCARD_PILE.get(lang)) }
                ol.pile data-replay-pile { }
                h2 { (text::VERIFY.get(lang)) }
                div.buttons {
                    button type="button" data-replay-verify { (text::VERIFY.get(lang)) }
                }
                div data-replay-verdict role="status" aria-live="polite" { }
                template data-replay-labels
                    data-version=(text::VERSION.get(lang))
                    data-of=(text::OF.get(lang))
                    data-event=(text::EVENT.get(lang))
                    data-record=(text::RECORD_ACTION.get(lang))
                    data-to-act=(text::TO_ACT.get(lang))
                    data-empty-seat=(text::EMPTY_SEAT.get(lang))
                    data-stock=(text::STOCK.get(lang))
                    data-cards=(text::CARDS.get(lang))
                    data-pile=(text::DISCARD_PILE.get(lang))
                    data-turned-up=(text::TURNED_UP.get(lang))
                    data-drew-stock=(text::DREW_STOCK.get(lang))
                    data-drew-discard=(text::DREW_DISCARD.get(lang))
                    data-taken-by=(text::TAKEN_BY.get(lang))
                    data-laid-on=(text::LAID_ON.get(lang))
                    data-reshuffled=(text::RESHUFFLED.get(lang))
                    data-not-dealt=(text::NOT_DEALT.get(lang))
                    data-verified=(text::VERIFIED.get(lang))
                    data-first-failure=(text::FIRST_FAILURE.get(lang))
                    data-go-to-failure=(text::GO_TO_FAILURE.get(lang))
                    data-card-names=(text::CARD_NAMES.get(lang)) { }
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
