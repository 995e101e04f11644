//! The season pages (`docs/seasons.md`): the list, `/seasons`, and a season with its
//! standings, `/seasons/{id}`. They read what `GET /v1/seasons` and
//! `GET /v1/seasons/{id}` read (`crate::http::routes::seasons`), and the standings
//! through the same `crate::seasons::standings`, so the page and the API never
//! disagree on a figure.
//!
//! - `list.rs`: the seasons, newest first, a page at a time;
//! - `season.rs`: one season: its scale, its tournaments and its standings.

pub mod list;
pub mod season;

use super::lang::Lang;

/// A place as an ordinal in `lang`: `1st`, `2nd`, `11th` in English, `1e` in Dutch,
/// `1er` and `2e` in French. Written here rather than as a text because the English
/// suffix depends on the number.
pub fn ordinal(place: usize, lang: Lang) -> String {
    match lang {
        Lang::En => {
            let suffix = match (place % 10, place % 100) {
                (_, 11..=13) => "th",
                (1, _) => "st",
                (2, _) => "nd",
                (3, _) => "rd",
                _ => "th",
            };
            format!("{place}{suffix}")
        }
        Lang::Nl => format!("{place}e"),
        Lang::Fr if place == 1 => "1er".to_owned(),
        Lang::Fr => format!("{place}e"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ordinals_follow_each_languages_rule() {
        let en: Vec<String> = [1, 2, 3, 4, 11, 12, 13, 21, 22, 101, 111]
            .into_iter()
            .map(|p| ordinal(p, Lang::En))
            .collect();
        assert_eq!(
            en,
            [
                "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "101st",
                "111th"
            ]
        );
        assert_eq!(ordinal(1, Lang::Nl), "1e");
        assert_eq!(ordinal(1, Lang::Fr), "1er");
        assert_eq!(ordinal(2, Lang::Fr), "2e");
    }
}
