//! Which cards of the previous throw the next player may draw (RULES.md parameter "what
//! the next player may draw from the discard").

use super::run::run_suit;
use super::{Combination, classify, is_set_like};
use crate::cards::{Card, Cards};
use crate::rules::{DiscardDraw, Rules};

/// The cards of `previous` (the throw on top of the pile, bottom first, add-ons and
/// slap-downs included) that may be drawn.
pub fn takeable(previous: &Cards, rules: &Rules) -> Cards {
    let (Some(first), Some(last)) = (previous.first(), previous.last()) else {
        return Cards::new();
    };
    let ends = if previous.len() == 1 {
        Cards::from_iter([last])
    } else {
        Cards::from_iter([first, last])
    };
    match rules.discard_draw {
        DiscardDraw::TopOnly => Cards::from_iter([last]),
        DiscardDraw::Ends => ends,
        DiscardDraw::Any => *previous,
        DiscardDraw::AnyOfSetEndsOfRun if is_set_like(previous.as_slice(), rules) => *previous,
        DiscardDraw::AnyOfSetEndsOfRun => ends,
    }
}

/// Wikipedia's joker swap: a player may take a joker out of the middle of the previous run
/// when their whole throw is the one card that joker stands for.
pub fn joker_swap_allowed(previous: &Cards, thrown: &[Card], rules: &Rules) -> bool {
    let [thrown] = thrown else { return false };
    if !rules.joker_swap || thrown.is_joker() {
        return false;
    }
    let Ok(Combination::Run(shape)) = classify(previous.as_slice(), rules) else {
        return false;
    };
    let Some(suit) = run_suit(previous.as_slice()) else {
        return false;
    };
    previous
        .iter()
        .enumerate()
        .any(|(i, c)| c.is_joker() && shape.card_at(i, suit) == *thrown)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::{card, cards};
    use crate::rules::Preset;

    fn draws(previous: &str, preset: Preset) -> Cards {
        takeable(&cards(previous), &preset.rules()).sorted()
    }

    #[test]
    fn pagat_only_the_first_or_last_card_of_a_throw() {
        // pagat: "if the previous player threw the sequence 4-5-Joker-7, you could pick up
        // the 4 or the 7 but not the 5 or the Joker. If Joker-8-9 was thrown you could pick
        // up the the Joker or the 9."
        assert_eq!(
            draws("4D 5D JK 7D", Preset::Israeli),
            cards("4D 7D").sorted()
        );
        assert_eq!(draws("JK 8C 9C", Preset::Israeli), cards("JK 9C").sorted());
        // "if 8-8-8 is thrown [clubs, hearts, spades], the next player can pick up either
        // black 8 but not the heart 8."
        assert_eq!(draws("8C 8H 8S", Preset::Israeli), cards("8C 8S").sorted());
    }

    #[test]
    fn israeli_variation_any_card_of_a_set_but_ends_of_a_run() {
        // pagat: "the next player may pick up any of those cards, irrespective of the order
        // in which they are thrown ... it is still only possible to pick up the end cards of
        // a sequence."
        let mut rules = Preset::Israeli.rules();
        rules.discard_draw = DiscardDraw::AnyOfSetEndsOfRun;
        assert_eq!(
            takeable(&cards("8C 8H 8S"), &rules).sorted(),
            cards("8C 8H 8S").sorted()
        );
        assert_eq!(
            takeable(&cards("4D 5D 6D 7D"), &rules).sorted(),
            cards("4D 7D").sorted()
        );
    }

    #[test]
    fn nepali_any_card_of_the_throw() {
        // pagat: "In the Nepali game, a player may pick up any one of the cards discarded by
        // the previous player, not only the first or last card."
        assert_eq!(
            draws("4D 5D 6D 7D", Preset::Nepali),
            cards("4D 5D 6D 7D").sorted()
        );
    }

    #[test]
    fn kluft_and_belgian_only_the_top_card() {
        // pagat, Kluft: "Only the top card can be drawn from the discard pile."
        assert_eq!(draws("4D 5D 6D", Preset::Kluft), cards("6D"));
        assert_eq!(draws("6D 5D 4D", Preset::Kluft), cards("4D"));
        // Belgian: "Aflegstapel: Neem de bovenste kaart van de open stapel".
        assert_eq!(draws("9C 9H", Preset::Belgian), cards("9H"));
    }

    #[test]
    fn wikipedia_joker_swap_takes_the_joker_for_the_card_it_stands_for() {
        // Wikipedia: "if the next player has the exact card the joker stands for, the player
        // can take the joker and throw that card instead."
        let rules = Preset::Wikipedia.rules();
        let run = cards("4D 5D JK 7D");
        assert!(joker_swap_allowed(&run, &[card("6D")], &rules));
        assert!(!joker_swap_allowed(&run, &[card("6H")], &rules));
        assert!(!joker_swap_allowed(&run, &[card("6D"), card("6H")], &rules));
        assert!(!joker_swap_allowed(
            &run,
            &[card("6D")],
            &Preset::Israeli.rules()
        ));
    }
}
