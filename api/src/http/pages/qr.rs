//! QR codes, drawn as SVG on the server, so a printed page needs no script: on a table
//! card (the way to the table's online game, or to the seating) and on a player's
//! slip (the link that sets their password), through `GET /qr.svg?text=`.

use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse, web};
use maud::{Markup, PreEscaped, html};
use qrcode::QrCode;
use qrcode::render::svg;
use serde::Deserialize;

/// The longest text drawn: a link of this server with a name and a code fits many
/// times over, and nobody makes the server draw a book.
pub const MAX_TEXT: usize = 512;

/// `text` as an SVG QR code (no XML declaration, to sit inside a page); `None` when it
/// is too long to draw.
pub fn svg(text: &str) -> Option<String> {
    if text.len() > MAX_TEXT {
        return None;
    }
    let code = QrCode::new(text.as_bytes()).ok()?;
    let drawn = code
        .render::<svg::Color<'_>>()
        .min_dimensions(160, 160)
        .quiet_zone(true)
        .build();
    Some(match drawn.find("<svg") {
        Some(start) => drawn[start..].to_owned(),
        None => drawn,
    })
}

/// `text`'s QR code inside a page, described for screen readers by `label`.
pub fn inline(text: &str, label: &str) -> Markup {
    match svg(text) {
        Some(drawn) => html! {
            div.qr role="img" aria-label=(label) { (PreEscaped(drawn)) }
        },
        None => html! {},
    }
}

/// `?text=`: what the code says.
#[derive(Debug, Deserialize)]
pub struct QrQuery {
    pub text: String,
}

/// `GET /qr.svg?text=`: the code as an image, for what a script builds (the slips).
pub async fn image(_req: HttpRequest, query: web::Query<QrQuery>) -> HttpResponse {
    match svg(&query.text) {
        Some(drawn) => HttpResponse::Ok()
            .insert_header((header::CONTENT_TYPE, "image/svg+xml"))
            .insert_header((header::CACHE_CONTROL, "public, max-age=86400"))
            .body(drawn),
        None => HttpResponse::UriTooLong().finish(),
    }
}

/// The address of this server as the browser reached it, for a link that leaves the
/// page (printed on paper, or read by a phone's camera).
pub fn origin(req: &HttpRequest) -> String {
    let info = req.connection_info();
    format!("{}://{}", info.scheme(), info.host())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_link_is_drawn_and_a_book_is_not() {
        let drawn = svg("http://127.0.0.1:8080/desk/setup?username=ann&code=K7QM-3XWP-9ZTR")
            .expect("a link");
        assert!(drawn.starts_with("<svg"), "{}", &drawn[..40]);
        assert!(drawn.contains("<path") || drawn.contains("<rect"));
        assert_eq!(svg(&"x".repeat(MAX_TEXT + 1)), None);
    }
}
