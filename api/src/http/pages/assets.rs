//! The pages' style sheet and script, compiled into the binary (no files to deploy,
//! nothing fetched from elsewhere).

use actix_web::HttpResponse;
use actix_web::http::header;

const CSS: &str = include_str!("assets/pages.css");
const LIVE_JS: &str = include_str!("assets/live.js");
const DESK_JS: &str = include_str!("assets/desk.js");
const SHEET_JS: &str = include_str!("assets/sheet.js");
const REPLAY_JS: &str = include_str!("assets/replay.js");
const CARDS_JS: &str = include_str!("assets/cards.js");
const PLAY_JS: &str = include_str!("assets/play.js");
const ICON: &str = include_str!("assets/icon.svg");

fn asset(content_type: &'static str, body: &'static str) -> HttpResponse {
    HttpResponse::Ok()
        .content_type(content_type)
        // Small and changed only with the binary: an hour is a fair trade.
        .insert_header((header::CACHE_CONTROL, "public, max-age=3600"))
        .body(body)
}

pub async fn css() -> HttpResponse {
    asset("text/css; charset=utf-8", CSS)
}

pub async fn live_js() -> HttpResponse {
    asset("text/javascript; charset=utf-8", LIVE_JS)
}

pub async fn icon() -> HttpResponse {
    asset("image/svg+xml", ICON)
}

pub async fn desk_js() -> HttpResponse {
    asset("text/javascript; charset=utf-8", DESK_JS)
}

pub async fn sheet_js() -> HttpResponse {
    asset("text/javascript; charset=utf-8", SHEET_JS)
}

pub async fn replay_js() -> HttpResponse {
    asset("text/javascript; charset=utf-8", REPLAY_JS)
}

pub async fn cards_js() -> HttpResponse {
    asset("text/javascript; charset=utf-8", CARDS_JS)
}

pub async fn play_js() -> HttpResponse {
    asset("text/javascript; charset=utf-8", PLAY_JS)
}
