//! Pages for people, in the same binary as the API: server-rendered HTML (maud,
//! checked at compile time), a style sheet and one small script for live updates.
//!
//! Every page reads through the same code as the REST API it mirrors (the tournament
//! from the repository and its fold cache, the standings with their names, the
//! listing), and a page that changes something will do it through the public API: the
//! pages show that the API is enough. Pages work without the script; with it, the
//! live parts follow the tournament's stream.
//!
//! - `lang.rs`, `text.rs`: English and Dutch, and every text in both.
//! - `layout.rs`: the frame of a page and its answer headers.
//! - `assets.rs` (`assets/`): the style sheet and the script.
//! - `landing.rs`: `/`.
//! - `tournament/`: the public pages of a tournament, `/t/{id}/...`.
//! - `ratings/`: the rating list, `/ratings`, and a player's profile,
//!   `/players/{username}`.
//! - `seasons/`: the seasons, `/seasons`, and a season's standings, `/seasons/{id}`.
//! - `format.rs`: how times, figures and link values are written.
//! - `play/`: the reference game client, `/play/...`, playing through the REST API
//!   from the browser.
//! - `desk/`: the organizer's desk, `/desk/...`, whose changes go through the REST API
//!   from the browser.
//! - `print/`: a tournament's printables (score sheets, table cards, standings), for A4.
//! - `qr.rs`: QR codes for printed cards and slips, `/qr.svg`.
//! - `record.rs`: `/replay`, a game record stepped through; `viewer.rs`: the replay
//!   viewer's body, shared with the desk's viewer of a stored table.
//!
//! `docs/pages.md` lists the pages.

pub mod assets;
pub mod desk;
pub mod format;
pub mod landing;
pub mod lang;
pub mod layout;
pub mod play;
pub mod print;
pub mod qr;
pub mod ratings;
pub mod record;
pub mod seasons;
pub mod text;
pub mod tournament;
pub mod viewer;

use actix_web::web;

/// Registers every page. Pages are not part of the OpenAPI document: they are HTML for
/// people, not an interface for programs.
pub fn configure(cfg: &mut web::ServiceConfig) {
    assets::configure(cfg);
    cfg.route("/", web::get().to(landing::landing))
        .route("/desk", web::get().to(desk::home))
        .route("/desk/login", web::get().to(desk::login::login))
        .route("/desk/login", web::post().to(desk::login::login))
        .route("/desk/signup", web::get().to(desk::login::signup))
        .route("/desk/setup", web::get().to(desk::login::setup))
        .route("/desk/accounts", web::get().to(desk::accounts::accounts))
        .route("/desk/seasons", web::get().to(desk::seasons::seasons))
        .route("/desk/seasons/{id}", web::get().to(desk::seasons::season))
        .route("/desk/t/{id}", web::get().to(desk::tournament::desk))
        .route(
            "/desk/t/{id}/tables/{stage}/{round}/{table}",
            web::get().to(desk::paper::sheet),
        )
        .route("/qr.svg", web::get().to(qr::image))
        .route("/play", web::get().to(play::home))
        .route("/play/tables/{id}", web::get().to(play::table))
        .route("/desk/tables/{id}", web::get().to(desk::replay::replay))
        .route("/replay", web::get().to(record::record))
        .route("/ratings", web::get().to(ratings::list::ratings))
        .route(
            "/players/{username}",
            web::get().to(ratings::profile::profile),
        )
        .route("/seasons", web::get().to(seasons::list::seasons))
        .route("/seasons/{id}", web::get().to(seasons::season::season))
        .route("/t/{id}", web::get().to(tournament::overview))
        .route(
            "/t/{id}/seating",
            web::get().to(tournament::seating::seating),
        )
        .route(
            "/t/{id}/standings",
            web::get().to(tournament::standings::standings),
        )
        .route("/t/{id}/stages", web::get().to(tournament::stages::stages))
        .route(
            "/t/{id}/ranking",
            web::get().to(tournament::ranking::ranking),
        )
        .route(
            "/t/{id}/projector",
            web::get().to(tournament::projector::projector),
        )
        .route("/t/{id}/print/sheets", web::get().to(print::sheets::sheets))
        .route("/t/{id}/print/cards", web::get().to(print::cards::cards))
        .route(
            "/t/{id}/print/standings",
            web::get().to(print::standings::standings),
        );
}
