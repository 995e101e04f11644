//! The pages' style sheet, scripts and icon, compiled into the binary (no files to
//! deploy, nothing fetched from elsewhere), served under `/assets/`.

use actix_web::http::header;
use actix_web::{HttpResponse, web};

const SCRIPT: &str = "text/javascript; charset=utf-8";

/// Every asset: its name under `/assets/`, its media type, its content.
const ASSETS: [(&str, &str, &str); 8] = [
    (
        "pages.css",
        "text/css; charset=utf-8",
        include_str!("assets/pages.css"),
    ),
    ("icon.svg", "image/svg+xml", include_str!("assets/icon.svg")),
    ("live.js", SCRIPT, include_str!("assets/live.js")),
    ("desk.js", SCRIPT, include_str!("assets/desk.js")),
    ("sheet.js", SCRIPT, include_str!("assets/sheet.js")),
    ("cards.js", SCRIPT, include_str!("assets/cards.js")),
    ("play.js", SCRIPT, include_str!("assets/play.js")),
    ("replay.js", SCRIPT, include_str!("assets/replay.js")),
];

/// Registers `GET /assets/<name>` for every asset.
pub fn configure(cfg: &mut web::ServiceConfig) {
    for (name, content_type, body) in ASSETS {
        cfg.route(
            &format!("/assets/{name}"),
            web::get().to(move || async move { asset(content_type, body) }),
        );
    }
}

fn asset(content_type: &'static str, body: &'static str) -> HttpResponse {
    HttpResponse::Ok()
        .content_type(content_type)
        // Small and changed only with the binary: an hour is a fair trade.
        .insert_header((header::CACHE_CONTROL, "public, max-age=3600"))
        .body(body)
}
