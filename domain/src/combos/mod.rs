//! Combinations: what may be thrown in one turn, which of its cards the next player may
//! draw, and what may be laid on it afterwards (slap-downs, add-ons).
//!
//! - `run.rs`: runs, aces low or high, jokers standing in (RULES.md interpretation 1).
//! - `draw.rs`: which cards of the previous throw may be drawn.
//! - `extend.rs`: cards laid on a throw after it was made (slap-downs and add-ons).
//! - `generate.rs`: every throw a hand can make, for legal-move lists and bots.
//! - `unsuited.rs`: straights whatever their suits, which the Waterfall bonus rule
//!   passes round the table.

mod draw;
mod extend;
mod generate;
mod run;
mod unsuited;

pub use draw::{joker_swap_allowed, takeable};
pub use extend::{add_on_fits, multiple_fits, slap_fits};
pub use generate::{arrange_run, for_each_throw};
pub use run::RunShape;
pub use unsuited::{for_each_unsuited_straight, is_unsuited_straight};

use crate::cards::Card;
use crate::rules::Rules;

/// A valid throw.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Combination {
    Single,
    /// Two or more cards of one rank (jokers standing in where they are wild in sets).
    Set,
    Run(RunShape),
}

/// Why a list of cards is not one combination.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum ThrowError {
    #[error("a throw needs at least one card")]
    Empty,
    #[error(
        "these cards are neither a set (2+ cards of one rank) nor a run (3+ consecutive cards of one suit, in order)"
    )]
    NotACombination,
    #[error("jokers are not wild in sets under these rules")]
    JokerNotWildInSets,
    #[error("jokers are not wild in runs under these rules")]
    JokerNotWildInRuns,
}

/// Classifies `cards` in the order thrown (bottom first). Cards whose naturals share one
/// rank are a set, never a run, so a throw has one reading only.
pub fn classify(cards: &[Card], rules: &Rules) -> Result<Combination, ThrowError> {
    match cards.len() {
        0 => return Err(ThrowError::Empty),
        1 => return Ok(Combination::Single),
        _ => {}
    }
    let mut naturals = cards.iter().filter(|c| !c.is_joker());
    let jokers = cards.len() - naturals.clone().count();
    let one_rank = match naturals.next() {
        // Jokers alone have equal rank: a set of jokers.
        None => return Ok(Combination::Set),
        Some(first) => naturals.all(|c| c.rank() == first.rank()),
    };
    if one_rank && (jokers == 0 || rules.jokers_wild_in_sets()) {
        return Ok(Combination::Set);
    }
    // Naturals of one rank with jokers that are not wild in sets may still be a run
    // (10-Joker-Joker reads 10-J-Q).
    let not_a_set = if one_rank {
        ThrowError::JokerNotWildInSets
    } else {
        ThrowError::NotACombination
    };
    if cards.len() < 3 {
        return Err(not_a_set);
    }
    match RunShape::of(cards, rules.ace) {
        Some(_) if jokers > 0 && !rules.jokers_wild_in_runs() => {
            Err(ThrowError::JokerNotWildInRuns)
        }
        Some(shape) => Ok(Combination::Run(shape)),
        None => Err(not_a_set),
    }
}

/// Whether `cards` are one rank (a single card, or a set).
pub fn is_set_like(cards: &[Card], rules: &Rules) -> bool {
    matches!(
        classify(cards, rules),
        Ok(Combination::Single | Combination::Set)
    )
}

#[cfg(test)]
mod tests {
    use super::ThrowError::*;
    use super::*;
    use crate::cards::cards;
    use crate::rules::Preset;

    fn kind(text: &str, preset: Preset) -> Result<Combination, ThrowError> {
        classify(cards(text).as_slice(), &preset.rules())
    }

    /// Whether `text` reads as a run under `preset`.
    fn is_run(text: &str, preset: Preset) -> bool {
        matches!(kind(text, preset), Ok(Combination::Run(_)))
    }

    #[test]
    fn any_single_card_is_a_throw() {
        // RULES.md common ground: "Combinations: one card; a set (2+ cards of the same rank);
        // a run (3+ consecutive cards of one suit)."
        assert_eq!(kind("KD", Preset::Israeli), Ok(Combination::Single));
        assert_eq!(kind("JK", Preset::Kluft), Ok(Combination::Single));
    }

    #[test]
    fn sets_are_two_or_more_cards_of_one_rank() {
        // pagat: "A set of two or more cards of the same rank (two 9s, three Kings, etc.)"
        assert_eq!(kind("9C 9H", Preset::Israeli), Ok(Combination::Set));
        assert_eq!(kind("KC KD KS", Preset::Israeli), Ok(Combination::Set));
        assert_eq!(kind("9C 8C", Preset::Israeli), Err(NotACombination));
    }

    #[test]
    fn jokers_in_sets_only_where_wild_in_sets() {
        // yaniv.co: "A joker can be used as a 'wild' card to complete a straight or set."
        assert_eq!(kind("4C 4D JK", Preset::House), Ok(Combination::Set));
        // pagat allows jokers in sequences only.
        assert_eq!(kind("4C 4D JK", Preset::Israeli), Err(JokerNotWildInSets));
    }

    #[test]
    fn runs_are_three_or_more_consecutive_cards_of_one_suit() {
        // pagat: "A sequence of three or more consecutive cards of the same suit (for example 4-5-6)."
        assert!(is_run("4S 5S 6S", Preset::Israeli));
        assert_eq!(kind("4S 5S", Preset::Israeli), Err(NotACombination));
        assert_eq!(kind("4S 5H 6S", Preset::Israeli), Err(NotACombination));
        assert_eq!(kind("4S 6S 7S", Preset::Israeli), Err(NotACombination));
    }

    #[test]
    fn runs_are_thrown_in_order_ascending_or_descending() {
        // pagat: "the cards must be thrown in sequential order - for example 2-3-4-5, not 3-5-4-2".
        // RULES.md interpretation 1: "A run may be thrown ascending or descending".
        assert!(is_run("2D 3D 4D 5D", Preset::Israeli));
        assert!(is_run("5D 4D 3D 2D", Preset::Israeli));
        assert_eq!(kind("3D 5D 4D 2D", Preset::Israeli), Err(NotACombination));
    }

    #[test]
    fn pagat_run_with_a_joker_in_the_middle() {
        // pagat: "if the previous player threw the sequence 4-5-Joker-7".
        assert!(is_run("4D 5D JK 7D", Preset::Israeli));
        // pagat: "You could throw 8-9-Joker either in that order or as Joker-8-9".
        assert!(is_run("8C 9C JK", Preset::Israeli));
        assert!(is_run("JK 8C 9C", Preset::Israeli));
    }

    #[test]
    fn one_natural_card_and_jokers_read_as_a_run_where_jokers_are_not_wild_in_sets() {
        assert!(is_run("10D JK JK", Preset::Israeli));
        assert_eq!(kind("10D JK JK", Preset::House), Ok(Combination::Set));
        assert_eq!(kind("10D 10C JK", Preset::Israeli), Err(JokerNotWildInSets));
    }

    #[test]
    fn jokers_are_never_wild_in_kluft_or_belgian_runs() {
        // pagat, Kluft: "Jokers cannot be used as a substitute card in a sequence".
        assert_eq!(kind("4D 5D JK", Preset::Kluft), Err(JokerNotWildInRuns));
        // RULES.md interpretation 2: Belgian jokers are plain 0-point cards.
        assert_eq!(kind("4D JK 6D", Preset::Belgian), Err(JokerNotWildInRuns));
    }

    #[test]
    fn aces_are_low_only_in_pagat_runs() {
        // pagat: "In sequences aces are always low: A-2-3 is a valid sequence, but Q-K-A is not."
        assert!(is_run("AH 2H 3H", Preset::Israeli));
        assert_eq!(kind("QH KH AH", Preset::Israeli), Err(NotACombination));
        // A joker after the king would have to be a high ace.
        assert_eq!(kind("QH KH JK", Preset::Israeli), Err(NotACombination));
        assert!(is_run("JK QH KH", Preset::Israeli));
    }

    #[test]
    fn aces_are_low_or_high_but_never_both_in_belgian_runs() {
        // Belgian: "Aas kan laag (A-2-3) of hoog (Q-K-A) gebruikt worden, maar niet beide
        // (K-A-2 is NIET geldig)."
        assert!(is_run("AH 2H 3H", Preset::Belgian));
        assert!(is_run("QH KH AH", Preset::Belgian));
        assert!(is_run("AH KH QH", Preset::Belgian));
        assert_eq!(kind("KH AH 2H", Preset::Belgian), Err(NotACombination));
    }
}
