//! The reference game client, `/play/...`: a page a player plays a game on, through the
//! public REST API only, as a third-party or mobile client would. It shows that the API
//! is enough to play.
//!
//! - `/play`: a new table (`POST /v1/tables`, then `join`): for one player it is
//!   started at once against the bots; for more it waits for them. The tables waiting
//!   for players are listed from `GET /v1/tables?status=open`, each with a Join button.
//! - `/play/tables/{id}`: before the start, the seats and the Join, Leave and Start
//!   buttons the API allows this account (Start is the creator's or an organizer's:
//!   `GET /v1/accounts/me` says who is asking). Then the game. `assets/play.js` reads
//!   the player's view (`GET /v1/tables/{id}/view`) and follows the table's stream
//!   (`GET /v1/tables/{id}/stream`, read with the bearer token, which `EventSource`
//!   cannot send), so others' joins and the start show without a reload; the hand is
//!   drawn as cards to click, the throws the rules allow are marked, the out-of-turn
//!   moves the view lists (slap-down, add-ons, pass, return) are buttons, a penalised
//!   call is asked first, and each move is `POST /v1/tables/{id}/actions` with a
//!   fresh `Idempotency-Key`.
//!
//! - `/play` also lists "my tables" (`GET /v1/tables?player=...`, tournament tables
//!   included), each a link to its page.
//! - A tournament table's page names its tournament, stage, round and table number
//!   (`place.rs`), and links back to the tournament and to "my tables" once the game
//!   is over; after each round it shows how the round ended (`GET
//!   /v1/tables/{id}/rounds`).
//!
//! The pages render only the frame, the labels (in the page's language) and where a
//! table is played; everything about the play comes from the API, in the browser. The
//! log-in is the desk's (`desk::frame`, `assets/desk.js`): any account may play.

pub mod place;

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use maud::html;
use yaniv_domain::rules::PRESET_NAMES;

use self::place::place_of;
use crate::app_state::AppState;

use super::desk::frame;
use super::lang::{Lang, json_by_key};
use super::layout::{self, Page};
use super::text;

/// `GET /play`: a new table (against bots, or for other players to join), and the
/// tables that wait for players, listed by `assets/play.js` from `GET /v1/tables`.
pub async fn home(req: HttpRequest) -> HttpResponse {
    let lang = Lang::of(&req);
    let body = frame(
        lang,
        html! {
            h1 { (text::PLAY.get(lang)) }
            p { (text::PLAY_INTRO.get(lang)) }
            section aria-labelledby="mine-title" data-play-mine {
                h2 #mine-title { (text::MY_TABLES.get(lang)) }
                ul.plain.open-tables data-play-mine-list { }
                p data-play-mine-none hidden { (text::NO_MY_TABLES.get(lang)) }
                template data-play-mine-labels
                    data-table=(text::TABLE.get(lang))
                    data-open=(text::TABLE_OPEN.get(lang))
                    data-playing=(text::PLAYING.get(lang))
                    data-go=(text::GO_TO_TABLE.get(lang)) { }
            }
            h2 { (text::NEW_TABLE.get(lang)) }
            form.stack data-play-create {
                div {
                    label for="preset" { (text::PRESET.get(lang)) }
                    select #preset name="preset" {
                        @for preset in PRESET_NAMES { option value=(preset) { (text::preset(preset).get(lang)) } }
                    }
                }
                div {
                    label for="humans" { (text::HUMANS.get(lang)) }
                    input #humans name="humans" type="number" min="1" max="8" value="1" required;
                }
                div {
                    label for="bots" { (text::BOTS.get(lang)) }
                    input #bots name="bots" type="number" min="0" max="7" value="2" required;
                }
                button type="submit" { (text::NEW_TABLE.get(lang)) }
            }
            section aria-labelledby="open-title" data-play-open {
                h2 #open-title { (text::OPEN_TABLES.get(lang)) }
                ul.plain.open-tables data-play-open-list { }
                p data-play-open-none hidden { (text::NO_OPEN_TABLES.get(lang)) }
                div.buttons {
                    button type="button" data-play-open-refresh { (text::REFRESH.get(lang)) }
                }
                template data-play-labels
                    data-table=(text::TABLE.get(lang))
                    data-by=(text::BY.get(lang))
                    data-seats-taken=(text::SEATS_TAKEN.get(lang))
                    data-join=(text::JOIN.get(lang))
                    data-open=(text::OPEN.get(lang))
                    data-presets=(preset_names(lang)) { }
            }
            script src="/assets/play.js" defer { }
        },
    );
    layout::respond(
        &req,
        StatusCode::OK,
        Page {
            lang,
            title: text::PLAY.get(lang).to_owned(),
            body,
            body_class: Some("play"),
        },
    )
}

/// Each preset's name in `lang`, as JSON by API name, for the list the script draws.
fn preset_names(lang: Lang) -> String {
    json_by_key(PRESET_NAMES.iter().map(|p| (*p, text::preset(p))), lang)
}

/// Each kind of bot, in words, as JSON for the page's script.
fn bot_kinds(lang: Lang) -> String {
    let kinds = yaniv_domain::bots::BotKind::ALL.iter().map(|k| k.name());
    json_by_key(kinds.map(|k| (k, text::bot_kind(k))), lang)
}

/// `GET /play/tables/{id}`: the game at table `id`.
pub async fn table(
    state: web::Data<AppState>,
    req: HttpRequest,
    path: web::Path<i64>,
) -> HttpResponse {
    let lang = Lang::of(&req);
    let id = path.into_inner();
    let place = place_of(&state, id, lang).await;
    let title = match &place {
        Some(p) => format!("{} {} · {}", text::TABLE.get(lang), p.table, p.round),
        None => format!("{} #{id}", text::TABLE.get(lang)),
    };
    let body = frame(
        lang,
        html! {
            @if let Some(p) = &place {
                p.context {
                    a href={ "/t/" (p.tournament) "/seating" } { (p.name) }
                    " · " (p.round)
                }
                h1 { (text::TABLE.get(lang)) " " (p.table) }
            } @else {
                h1 { (text::TABLE.get(lang)) " #" (id) }
            }
            div data-play-table=(id) {
                p data-play-status role="status" aria-live="polite" { }
                ul.plain data-play-seats { }
                div.buttons data-play-lobby hidden { }
                section aria-labelledby="pile-title" {
                    h2 #pile-title { (text::TOP_OF_PILE.get(lang)) }
                    div data-play-pile { }
                }
                section aria-labelledby="hand-title" {
                    h2 #hand-title { (text::YOUR_HAND.get(lang)) }
                    div.hand data-play-hand { }
                }
                div.buttons data-play-actions { }
                section aria-labelledby="last-round-title" data-play-last-round hidden {
                    h2 #last-round-title { (text::LAST_ROUND.get(lang)) }
                    p data-play-last-outcome { }
                    ul.plain data-play-last-hands { }
                }
                nav.buttons data-play-after hidden aria-label=(text::GAME_OVER.get(lang)) {
                    @if let Some(p) = &place {
                        a href={ "/t/" (p.tournament) "/standings" } { (text::BACK_TO_TOURNAMENT.get(lang)) }
                    }
                    a href="/play" { (text::BACK_TO_MY_TABLES.get(lang)) }
                }
                template data-play-labels
                    data-bot-name=(text::BOT_NAME.get(lang))
                    data-bot-kinds=(bot_kinds(lang))
                    data-card-names=(text::CARD_NAMES.get(lang))
                    data-throw-stock=(text::THROW_DRAW_STOCK.get(lang))
                    data-throw-take=(text::THROW_TAKE.get(lang))
                    data-call=(text::CALL_YANIV.get(lang))
                    data-go-along=(text::GO_ALONG_BUTTON.get(lang))
                    data-stay-out=(text::STAY_OUT.get(lang))
                    data-challenge=(text::CHALLENGE.get(lang))
                    data-no-challenge=(text::NO_CHALLENGE.get(lang))
                    data-your-turn=(text::YOUR_TURN.get(lang))
                    data-waiting=(text::WAITING_FOR.get(lang))
                    data-over=(text::GAME_OVER.get(lang))
                    data-round=(text::ROUND_WORD.get(lang))
                    data-cards=(text::CARDS.get(lang))
                    data-score=(text::SCORE.get(lang))
                    data-free-seat=(text::FREE_SEAT.get(lang))
                    data-you=(text::YOU.get(lang))
                    data-join=(text::JOIN.get(lang))
                    data-leave=(text::LEAVE.get(lang))
                    data-start=(text::START_GAME.get(lang))
                    data-waiting-players=(text::WAITING_PLAYERS.get(lang))
                    data-ready=(text::READY_TO_START.get(lang))
                    data-creator-starts=(text::CREATOR_STARTS.get(lang))
                    data-slap=(text::SLAP_DOWN.get(lang))
                    data-add-on=(text::ADD_ON.get(lang))
                    data-pass=(text::PASS.get(lang))
                    data-come-back=(text::COME_BACK.get(lang))
                    data-contribute=(text::CONTRIBUTE.get(lang))
                    data-contribute-note=(text::CONTRIBUTE_NOTE.get(lang))
                    data-reversed=(text::REVERSED.get(lang))
                    data-pinata-aside=(text::PINATA_ASIDE.get(lang))
                    data-queen-give=(text::QUEEN_GIVE.get(lang))
                    data-queen-to=(text::QUEEN_TO.get(lang))
                    data-queen-note=(text::QUEEN_NOTE.get(lang))
                    data-waterfall-pass=(text::WATERFALL_PASS.get(lang))
                    data-waterfall-keep=(text::WATERFALL_KEEP.get(lang))
                    data-pile-of=(text::PILE_OF.get(lang))
                    data-pile-singles=(text::PILE_SINGLES.get(lang))
                    data-pile-dead=(text::PILE_DEAD.get(lang))
                    data-kill-pile=(text::KILL_PILE.get(lang))
                    data-waterfall-going=(text::WATERFALL_GOING.get(lang))
                    data-waterfall-your-pick=(text::WATERFALL_YOUR_PICK.get(lang))
                    data-absent=(text::ABSENT_NOTE.get(lang))
                    data-call-penalised=(text::CALL_PENALISED.get(lang))
                    data-outcomes=(text::OUTCOMES.get(lang))
                    data-last-round=(text::LAST_ROUND.get(lang))
                    data-hand-shown=(text::HAND_SHOWN.get(lang))
                    data-points=(text::POINTS_ADDED.get(lang))
                    data-total=(text::TOTAL_AFTER.get(lang))
                    data-out=(text::OUT_OF_GAME.get(lang)) { }
            }
            script src="/assets/cards.js" defer { }
            script src="/assets/play.js" defer { }
        },
    );
    layout::respond(
        &req,
        StatusCode::OK,
        Page {
            lang,
            title: format!("{} · {title}", text::PLAY.get(lang)),
            body,
            body_class: Some("play"),
        },
    )
}
