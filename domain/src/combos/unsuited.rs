//! Unsuited straights, for the Waterfall bonus rule: natural cards of consecutive ranks,
//! whatever their suits, aces placed as the rules place them in runs.

use crate::cards::{Card, Cards};
use crate::rules::AceRule;

/// Where an ace may stand in a straight: 1 (low) and, where aces are high, 14.
fn ace_values(ace: AceRule) -> &'static [u8] {
    match ace {
        AceRule::Low => &[1],
        AceRule::LowOrHigh => &[1, 14],
    }
}

/// The value of `card` when an ace counts `ace_value`.
fn value(card: Card, ace_value: u8) -> u8 {
    if card.rank() == 1 {
        ace_value
    } else {
        card.rank()
    }
}

/// Whether `cards` are an unsuited straight: natural cards whose ranks follow one
/// another with none repeated, in any order.
pub fn is_unsuited_straight(cards: &[Card], ace: AceRule) -> bool {
    if cards.is_empty() || cards.iter().any(|c| c.is_joker()) {
        return false;
    }
    ace_values(ace).iter().any(|&ace_value| {
        let mut seen = 0u32;
        let (mut low, mut high) = (u8::MAX, 0);
        for &card in cards {
            let v = value(card, ace_value);
            if seen & 1 << v != 0 {
                return false;
            }
            seen |= 1 << v;
            low = low.min(v);
            high = high.max(v);
        }
        usize::from(high - low) + 1 == cards.len()
    })
}

/// Calls `found` with every unsuited straight of exactly `len` cards in `hand`, lowest
/// first; each set of cards once (a card held twice, with two decks, is taken once).
pub fn for_each_unsuited_straight(
    hand: &[Card],
    len: usize,
    ace: AceRule,
    mut found: impl FnMut(&Cards),
) {
    if len == 0 {
        return;
    }
    let mut by_value: [Cards; 15] = [Cards::new(); 15];
    for &ace_value in ace_values(ace) {
        for &card in hand.iter().filter(|c| !c.is_joker()) {
            let slot = &mut by_value[value(card, ace_value) as usize];
            if !slot.contains(card) {
                let _ = slot.try_push(card);
            }
        }
    }
    // Values run 1 (ace low) to 14 (ace high): the last window ends at 14.
    for start in 1..=15usize.saturating_sub(len) {
        let window = &by_value[start..start + len];
        if window.iter().any(|cards| cards.is_empty()) {
            continue;
        }
        // Every choice of one card per value, like an odometer.
        let mut pick = [0usize; 15];
        loop {
            let mut straight = Cards::new();
            for (cards, &i) in window.iter().zip(&pick) {
                let _ = straight.try_push(cards.as_slice()[i]);
            }
            found(&straight);
            let mut digit = 0;
            loop {
                if digit == len {
                    break;
                }
                pick[digit] += 1;
                if pick[digit] < window[digit].len() {
                    break;
                }
                pick[digit] = 0;
                digit += 1;
            }
            if digit == len {
                break;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::{card, cards};

    fn all(hand: &str, len: usize, ace: AceRule) -> Vec<String> {
        let mut out = Vec::new();
        for_each_unsuited_straight(cards(hand).as_slice(), len, ace, |s| {
            out.push(
                s.iter()
                    .map(|c| c.to_string())
                    .collect::<Vec<_>>()
                    .join(" "),
            );
        });
        out
    }

    #[test]
    fn suits_do_not_matter_and_jokers_do_not_stand_in() {
        assert!(is_unsuited_straight(
            &[card("4C"), card("6H"), card("5D")],
            AceRule::Low
        ));
        assert!(!is_unsuited_straight(
            &[card("4C"), card("JK"), card("6D")],
            AceRule::Low
        ));
        assert!(!is_unsuited_straight(
            &[card("4C"), card("4H"), card("5D")],
            AceRule::Low
        ));
        assert!(!is_unsuited_straight(
            &[card("QC"), card("KH"), card("AD")],
            AceRule::Low
        ));
        assert!(is_unsuited_straight(
            &[card("QC"), card("KH"), card("AD")],
            AceRule::LowOrHigh
        ));
    }

    #[test]
    fn every_straight_of_the_length_is_listed_once() {
        assert_eq!(
            all("4C 5H 4D 6S 9C", 3, AceRule::Low),
            ["4C 5H 6S", "4D 5H 6S"]
        );
        assert_eq!(
            all("4C 5H 6S 7D", 3, AceRule::Low),
            ["4C 5H 6S", "5H 6S 7D"]
        );
        assert!(all("4C 5H 7S", 3, AceRule::Low).is_empty());
        assert_eq!(
            all("QC KH AD 2S", 3, AceRule::LowOrHigh),
            ["QC KH AD"],
            "an ace high where the rules let it be"
        );
        assert!(all("QC KH AD 2S", 3, AceRule::Low).is_empty());
        // Everything the enumeration lists is a straight.
        let mut count = 0;
        for_each_unsuited_straight(
            cards("AC 2D 3H 4S 5C 6D 7H 8S 9C 10D JH QS KC").as_slice(),
            8,
            AceRule::LowOrHigh,
            |s| {
                count += 1;
                assert!(is_unsuited_straight(s.as_slice(), AceRule::LowOrHigh));
            },
        );
        assert_eq!(count, 7, "A-8 up to 7-A");
    }
}
