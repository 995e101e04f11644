//! Text people read as written: names and reasons that show exactly what they say.
//!
//! A name that holds an invisible or direction-changing character can display as
//! another name (a bidirectional override turns `cup-1` into what looks like `1-puc`),
//! hide part of itself (zero-width and tag characters), or pile marks over its
//! neighbours until they cannot be read. Such text is refused wherever people type a
//! name or a reason the server shows to others.

use unicode_properties::{GeneralCategoryGroup, UnicodeGeneralCategory};

/// Most combining marks allowed on one character: enough for any script's accents,
/// too few to smear a name over the lines around it.
pub const MAX_MARKS_IN_A_ROW: usize = 3;

/// Whether `c` changes how text around it displays without showing itself: direction
/// marks, embeddings, overrides and isolates; zero-width characters and joiners;
/// invisible operators and deprecated format characters; the byte-order mark; the line
/// and paragraph separators; tag characters.
pub fn is_invisible_or_directional(c: char) -> bool {
    matches!(c,
        '\u{00AD}'                    // soft hyphen
        | '\u{061C}'                  // Arabic letter mark
        | '\u{115F}' | '\u{1160}'     // Hangul fillers
        | '\u{180E}'                  // Mongolian vowel separator
        | '\u{200B}'..='\u{200F}'     // zero-width space, non-joiner, joiner, LRM, RLM
        | '\u{2028}' | '\u{2029}'     // line and paragraph separators
        | '\u{202A}'..='\u{202E}'     // embeddings and overrides
        | '\u{2060}'..='\u{2064}'     // word joiner, invisible operators
        | '\u{2066}'..='\u{2069}'     // isolates
        | '\u{206A}'..='\u{206F}'     // deprecated format characters
        | '\u{3164}' | '\u{FFA0}'     // Hangul fillers
        | '\u{FEFF}'                  // byte-order mark, zero-width no-break space
        | '\u{E0000}'..='\u{E007F}'   // tag characters
    )
}

/// Whether `text` stacks more than [`MAX_MARKS_IN_A_ROW`] combining marks in a row.
pub fn has_a_pile_of_marks(text: &str) -> bool {
    let mut run = 0;
    for c in text.chars() {
        if c.general_category_group() == GeneralCategoryGroup::Mark {
            run += 1;
            if run > MAX_MARKS_IN_A_ROW {
                return true;
            }
        } else {
            run = 0;
        }
    }
    false
}

/// Whether `text` shows as written: no control character (but those `allowed`, such as
/// a reason's line breaks), nothing invisible or direction-changing, no pile of marks.
pub fn shows_as_written(text: &str, allowed: &[char]) -> bool {
    !text
        .chars()
        .any(|c| (c.is_control() && !allowed.contains(&c)) || is_invisible_or_directional(c))
        && !has_a_pile_of_marks(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue #27: "names refuse invisible and direction characters beyond U+202E
    /// (U+200E/U+200F/U+061C, zero-width characters, U+2028/U+2029, tag characters,
    /// long runs of combining marks)".
    #[test]
    fn invisible_direction_and_piled_up_characters_do_not_show_as_written() {
        for hidden in [
            "\u{200E}",
            "\u{200F}",
            "\u{061C}",
            "\u{200B}",
            "\u{200D}",
            "\u{2028}",
            "\u{2029}",
            "\u{202E}",
            "\u{2067}",
            "\u{FEFF}",
            "\u{E0041}",
            "\u{2063}",
        ] {
            let name = format!("Cup{hidden}2026");
            assert!(!shows_as_written(&name, &[]), "{hidden:?}");
        }
        assert!(!shows_as_written("Cup\u{7}", &[]));
        assert!(!shows_as_written("Z\u{301}\u{302}\u{303}\u{304}algo", &[]));
    }

    #[test]
    fn the_worlds_names_still_show() {
        for name in [
            "Coupe de Liège",
            "Ŝeĥ́",      // a letter with two marks
            "Kiểm tra", // Vietnamese stacks two
            "Турнир",
            "كأس يانيف",
            "ヤニブ杯",
            "नमस्ते",
        ] {
            assert!(shows_as_written(name, &[]), "{name}");
        }
        assert!(shows_as_written(
            "line one\nline two\tand a tab",
            &['\n', '\t']
        ));
        assert!(!shows_as_written("line one\nline two", &[]));
    }
}
