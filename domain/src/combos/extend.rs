//! Cards laid on a throw after it was made: the thrower's slap-down and the other
//! players' add-ons (RULES.md parameters "slap-down" and "add-on by others, out of turn").

use super::{Combination, classify, is_set_like};
use crate::cards::{Card, Cards};
use crate::rules::{BonusRule, Rules};

/// Whether the thrower may slap `card` onto `group`: a card of the top card's rank (or one
/// the rules let stand in for it), or one that extends the run past its top card.
/// Belgian example 2: on 6♥-7♥-8♥ any 8 or the 9♥, but not the 5♥ nor another 6.
pub fn slap_fits(group: &Cards, card: Card, rules: &Rules) -> bool {
    if multiple_fits(group, card, rules) {
        return true;
    }
    let Some(top) = group.last() else {
        return false;
    };
    if card.rank() == top.rank() {
        return true;
    }
    let mut extended = *group;
    if extended.try_push(card).is_err() {
        return false;
    }
    match classify(extended.as_slice(), rules) {
        Ok(Combination::Run(_)) => true,
        // A wild joker on a set (or a natural onto a wild joker) keeps it one rank.
        Ok(Combination::Set) => is_set_like(group.as_slice(), rules),
        _ => false,
    }
}

/// Whether another player may add `cards` onto `group`: completing a set (or, where the
/// rules allow it, a single card) to exactly four of a kind, or extending a run past its
/// top card.
pub fn add_on_fits(group: &Cards, cards: &[Card], rules: &Rules) -> bool {
    if cards.is_empty() || group.is_empty() {
        return false;
    }
    if let [card] = cards
        && multiple_fits(group, *card, rules)
    {
        return true;
    }
    let mut extended = *group;
    if extended.try_extend(cards).is_err() {
        return false;
    }
    let before = classify(group.as_slice(), rules);
    let after = classify(extended.as_slice(), rules);
    match (before, after) {
        (Ok(Combination::Single), Ok(Combination::Set)) => {
            rules.add_ons.to_single_cards && extended.len() == 4
        }
        (Ok(Combination::Set), Ok(Combination::Set)) => {
            rules.add_ons.to_sets && extended.len() == 4
        }
        (Ok(Combination::Run(_)), Ok(Combination::Run(_))) => rules.add_ons.to_runs,
        _ => false,
    }
}

/// Mathematician: "Players can add-on to or slap-down on any card discarded if that
/// card's value is a multiple of the value of the card laid. For example, if a 3 is
/// discarded, another player may lay down a 6 or a 9". As the example reads (the laid
/// card's value a multiple of the discarded card's), one card on a throw of one card
/// with nothing laid on it yet. A card that counts 0 multiplies nothing.
pub fn multiple_fits(group: &Cards, card: Card, rules: &Rules) -> bool {
    if !rules.has_bonus(BonusRule::Mathematician) {
        return false;
    }
    let [discarded] = group.as_slice() else {
        return false;
    };
    let (base, laid) = (rules.value(*discarded), rules.value(card));
    base > 0 && laid > 0 && laid.is_multiple_of(base)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::{card, cards};
    use crate::rules::Preset;

    /// Whether `added` may be added on to the throw `thrown`.
    fn adds(thrown: &str, added: &str, rules: &Rules) -> bool {
        add_on_fits(&cards(thrown), cards(added).as_slice(), rules)
    }

    #[test]
    fn belgian_slap_on_a_single_card_any_card_of_its_rank() {
        // Belgian example 1: "Elke andere 6 (6♥, 6♠, 6♦, 6♣) omdat 6 de bovenste kaart is".
        let rules = Preset::Belgian.rules();
        for six in ["6H", "6S", "6D", "6C"] {
            assert!(slap_fits(&cards("6H"), card(six), &rules));
        }
        assert!(!slap_fits(&cards("6H"), card("7H"), &rules));
    }

    #[test]
    fn belgian_slap_on_a_run_extends_past_the_top_or_matches_the_top_rank() {
        // Belgian example 2: on 6♥ 7♥ 8♥ (8♥ on top) "9♥ (verlengt de straat aan het einde)"
        // and "Elke andere 8" are valid; "5♥ (kan niet omdat 6♥ niet de bovenste kaart is)"
        // and "Elke andere 6" are not.
        let rules = Preset::Belgian.rules();
        let run = cards("6H 7H 8H");
        assert!(slap_fits(&run, card("9H"), &rules));
        assert!(slap_fits(&run, card("8S"), &rules));
        assert!(slap_fits(&run, card("8C"), &rules));
        assert!(!slap_fits(&run, card("5H"), &rules));
        assert!(!slap_fits(&run, card("6S"), &rules));
    }

    #[test]
    fn belgian_add_on_completes_a_set_to_exactly_four() {
        // Belgian: "Wanneer Speler B twee andere 9's in de hand heeft, mag hij/zij deze
        // direct opleggen om het kwartet af te maken." and FAQ 5: "Mag een andere speler een
        // set van 2 kaarten verlengen met een derde? NEE."
        let rules = Preset::Belgian.rules();
        assert!(adds("9C 9H", "9D 9S", &rules));
        assert!(!adds("9C 9H", "9D", &rules));
        assert!(!adds("9C 9H 9D 9S", "9S", &rules));
    }

    #[test]
    fn belgian_add_on_to_one_thrown_card_of_a_set() {
        // Belgian: "Als een speler een of meerdere kaarten heeft opgelegd van een set" — a
        // single card can be completed to four as well.
        let rules = Preset::Belgian.rules();
        assert!(adds("9C", "9D 9S 9H", &rules));
        // yaniv.co completes only "a set of two or three cards".
        assert!(!adds("9C", "9D 9S 9H", &Preset::House.rules()));
    }

    #[test]
    fn belgian_add_on_extends_a_run_past_its_top_card() {
        // Belgian: "Wanneer Speler B de 7♣ in de hand heeft, mag hij/zij deze direct opleggen
        // om de straat af te maken. Mocht een andere speler ook de 8♣ hebben, dan mag deze
        // ook direct opleggen".
        let rules = Preset::Belgian.rules();
        assert!(adds("4C 5C 6C", "7C", &rules));
        assert!(adds("4C 5C 6C 7C", "8C", &rules));
        assert!(adds("4C 5C 6C", "7C 8C", &rules));
        // Not below the bottom card, not with a gap.
        assert!(!adds("4C 5C 6C", "3C", &rules));
        assert!(!adds("4C 5C 6C", "8C", &rules));
    }

    #[test]
    fn house_add_on_with_wild_jokers() {
        // yaniv.co: "A joker can be used as a 'wild' card to complete a straight or set."
        let rules = Preset::House.rules();
        assert!(adds("4C 4D", "4H JK", &rules));
        assert!(adds("4C 5C 6C", "JK", &rules));
        // yaniv.co: "If a player plays a set of two or three cards, and any other player has
        // the cards that would complete that set (i.e. make it a set of four cards...)".
        assert!(adds("4C 4D 4H", "4S", &rules));
    }

    #[test]
    fn no_add_ons_where_the_rules_have_none() {
        let rules = Preset::Israeli.rules();
        assert!(!adds("9C 9H", "9D 9S", &rules));
        assert!(!adds("4C 5C 6C", "7C", &rules));
    }
}
