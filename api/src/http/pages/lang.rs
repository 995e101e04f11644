//! The language of a page: English, Dutch or French (a Belgian championship draws
//! players who speak either of the country's two largest languages).
//!
//! Chosen, in order, by `?lang=` (the switch on every page, which also sets a cookie),
//! the `lang` cookie, and the browser's `Accept-Language` (its highest-weighted
//! language we have). English otherwise.

use actix_web::HttpRequest;
use actix_web::http::header;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lang {
    En,
    Nl,
    Fr,
}

/// A piece of text in every language of the pages.
#[derive(Debug, Clone, Copy)]
pub struct Text {
    pub en: &'static str,
    pub nl: &'static str,
    pub fr: &'static str,
}

impl Text {
    pub const fn new(en: &'static str, nl: &'static str, fr: &'static str) -> Text {
        Text { en, nl, fr }
    }

    pub fn get(self, lang: Lang) -> &'static str {
        match lang {
            Lang::En => self.en,
            Lang::Nl => self.nl,
            Lang::Fr => self.fr,
        }
    }
}

/// Texts by key in one language, as a JSON object for a page's script (`data-`
/// attributes): preset names, bot kinds, refusals by code, and the like.
pub fn json_by_key<'k>(texts: impl IntoIterator<Item = (&'k str, Text)>, lang: Lang) -> String {
    let words: serde_json::Map<String, serde_json::Value> = texts
        .into_iter()
        .map(|(key, text)| (key.to_owned(), text.get(lang).into()))
        .collect();
    serde_json::Value::Object(words).to_string()
}

/// The cookie the switch sets.
pub const COOKIE: &str = "lang";

impl Lang {
    pub const ALL: [Lang; 3] = [Lang::En, Lang::Nl, Lang::Fr];

    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Nl => "nl",
            Lang::Fr => "fr",
        }
    }

    /// The language's own name, for the switch.
    pub fn name(self) -> &'static str {
        match self {
            Lang::En => "English",
            Lang::Nl => "Nederlands",
            Lang::Fr => "Français",
        }
    }

    pub fn parse(code: &str) -> Option<Lang> {
        let primary = code.trim().split(['-', '_']).next()?.to_ascii_lowercase();
        match primary.as_str() {
            "en" => Some(Lang::En),
            "nl" => Some(Lang::Nl),
            "fr" => Some(Lang::Fr),
            _ => None,
        }
    }

    /// The language `?lang=` asks for, if it names one of ours.
    pub fn asked(req: &HttpRequest) -> Option<Lang> {
        req.query_string()
            .split('&')
            .filter_map(|pair| pair.strip_prefix("lang="))
            .find_map(Lang::parse)
    }

    /// The page's language for `req` (see the module docs).
    pub fn of(req: &HttpRequest) -> Lang {
        if let Some(lang) = Lang::asked(req) {
            return lang;
        }
        if let Some(lang) = req.cookie(COOKIE).and_then(|c| Lang::parse(c.value())) {
            return lang;
        }
        req.headers()
            .get(header::ACCEPT_LANGUAGE)
            .and_then(|v| v.to_str().ok())
            .and_then(from_accept_language)
            .unwrap_or(Lang::En)
    }
}

/// The highest-weighted language of an `Accept-Language` value that we have.
fn from_accept_language(value: &str) -> Option<Lang> {
    let mut best: Option<(f32, Lang)> = None;
    for item in value.split(',') {
        let mut parts = item.split(';');
        let Some(lang) = parts.next().and_then(Lang::parse) else {
            continue;
        };
        let weight = parts
            .find_map(|p| p.trim().strip_prefix("q="))
            .and_then(|q| q.trim().parse::<f32>().ok())
            .unwrap_or(1.0);
        if weight > 0.0 && best.is_none_or(|(w, _)| weight > w) {
            best = Some((weight, lang));
        }
    }
    best.map(|(_, lang)| lang)
}

#[cfg(test)]
mod tests {
    use actix_web::test::TestRequest;

    use super::*;

    #[test]
    fn the_switch_beats_the_cookie_which_beats_the_browser() {
        let browser_nl = TestRequest::default()
            .insert_header((header::ACCEPT_LANGUAGE, "nl-BE,nl;q=0.9,en;q=0.8"))
            .to_http_request();
        assert_eq!(Lang::of(&browser_nl), Lang::Nl);
        let cookie_en = TestRequest::default()
            .insert_header((header::ACCEPT_LANGUAGE, "nl-BE"))
            .cookie(actix_web::cookie::Cookie::new(COOKIE, "en"))
            .to_http_request();
        assert_eq!(Lang::of(&cookie_en), Lang::En);
        let switch_nl = TestRequest::with_uri("/?q=x&lang=nl")
            .cookie(actix_web::cookie::Cookie::new(COOKIE, "en"))
            .to_http_request();
        assert_eq!(Lang::of(&switch_nl), Lang::Nl);
    }

    #[test]
    fn accept_language_takes_the_best_weighted_language_we_have() {
        assert_eq!(
            from_accept_language("de-BE, nl;q=0.5, en;q=0.7"),
            Some(Lang::En)
        );
        assert_eq!(from_accept_language("fr-BE, nl;q=0.9"), Some(Lang::Fr));
        assert_eq!(from_accept_language("de, it"), None);
        assert_eq!(from_accept_language("en;q=0, nl;q=0.1"), Some(Lang::Nl));
        assert_eq!(from_accept_language("garbage;;q=x"), None);
        assert_eq!(
            Lang::of(&TestRequest::default().to_http_request()),
            Lang::En
        );
    }
}
