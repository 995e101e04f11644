//! Every throw a hand can make. A set is listed once in hand order and a run once,
//! ascending; any order of a set and the reverse of a run are legal too.

use super::{Combination, RunShape, classify};
use crate::cards::{Card, Cards};
use crate::rules::{AceRule, Rules};

/// Orders `cards` (any order) into an ascending run if they can form one, placing jokers in
/// the gaps and any spare jokers above the top card (below the bottom when the top is full).
pub fn arrange_run(cards: &[Card], rules: &Rules) -> Option<Cards> {
    if cards.len() < 3 {
        return None;
    }
    let jokers = cards.iter().filter(|c| c.is_joker()).count();
    if jokers > 0 && !rules.jokers_wild_in_runs() {
        return None;
    }
    let suit = cards.iter().find(|c| !c.is_joker())?.suit_index();
    let ace_values: &[u8] = match rules.ace {
        AceRule::Low => &[1],
        AceRule::LowOrHigh => &[1, 14],
    };
    for &ace in ace_values {
        let mut present = [false; 15];
        for c in cards.iter().filter(|c| !c.is_joker()) {
            let value = if c.rank() == 1 { ace } else { c.rank() } as usize;
            if c.suit_index() != suit || present[value] {
                return None;
            }
            present[value] = true;
        }
        let low = present.iter().position(|&p| p)? as u8;
        let high = present.iter().rposition(|&p| p)? as u8;
        let span = (high - low + 1) as usize;
        let naturals = cards.len() - jokers;
        if span - naturals > jokers {
            continue;
        }
        let spare = jokers - (span - naturals);
        let ceiling = if ace == 14 || rules.ace == AceRule::LowOrHigh && low >= 2 {
            14
        } else {
            13
        };
        let above = spare.min((ceiling - high) as usize);
        let below = spare - above;
        if below > (low - 1) as usize {
            continue;
        }
        let mut run = Cards::new();
        let mut by_value = [None; 15];
        for &c in cards.iter().filter(|c| !c.is_joker()) {
            by_value[if c.rank() == 1 { ace } else { c.rank() } as usize] = Some(c);
        }
        for _ in 0..below {
            run.try_push(crate::cards::JOKER).ok()?;
        }
        for value in low..=high {
            run.try_push(by_value[value as usize].unwrap_or(crate::cards::JOKER))
                .ok()?;
        }
        for _ in 0..above {
            run.try_push(crate::cards::JOKER).ok()?;
        }
        if RunShape::of(run.as_slice(), rules.ace).is_some() {
            return Some(run);
        }
    }
    None
}

/// Calls `found` with every distinct combination `hand` can throw (canonical order).
///
/// Every non-empty subset of the hand is considered in increasing bit-mask order. Bit
/// masks of the cards sharing a rank or a suit skip, without building them, the subsets
/// that cannot be a combination: cards whose naturals share neither one rank (a set) nor
/// one suit (a run). The others are classified exactly as before.
pub fn for_each_throw(hand: &Cards, rules: &Rules, mut found: impl FnMut(&Cards)) {
    let cards = hand.as_slice();
    let n = cards.len();
    let mut jokers = 0u32;
    let mut same_rank = [0u32; crate::cards::MAX_CARDS];
    let mut same_suit = [0u32; crate::cards::MAX_CARDS];
    // With two decks a hand may hold the same card twice: `later_copy[i]` marks the later
    // copies of card `i`, and a subset that takes a later copy without the earlier one is
    // skipped, so each throw is listed once.
    let mut later_copy = [0u32; crate::cards::MAX_CARDS];
    let mut has_copies = 0u32;
    for (i, a) in cards.iter().enumerate() {
        if a.is_joker() {
            jokers |= 1 << i;
        }
        for (j, b) in cards.iter().enumerate() {
            if a.rank() == b.rank() {
                same_rank[i] |= 1 << j;
            }
            if a.suit_index() == b.suit_index() {
                same_suit[i] |= 1 << j;
            }
            if j > i && a == b {
                later_copy[i] |= 1 << j;
                has_copies |= 1 << i;
            }
        }
    }
    let subset_of = |mask: u32| -> Cards {
        let mut picked = [Card::default(); crate::cards::MAX_CARDS];
        let mut len = 0;
        let mut rest = mask;
        while rest != 0 {
            picked[len] = cards[rest.trailing_zeros() as usize];
            len += 1;
            rest &= rest - 1;
        }
        Cards::from_slice(&picked[..len]).unwrap_or_default()
    };
    for mask in 1u32..(1 << n) {
        if has_copies != 0 {
            let mut left_out = !mask & has_copies;
            let mut skip = false;
            while left_out != 0 {
                let i = left_out.trailing_zeros() as usize;
                left_out &= left_out - 1;
                if later_copy[i] & mask != 0 {
                    skip = true;
                    break;
                }
            }
            if skip {
                continue;
            }
        }
        if mask & (mask - 1) == 0 {
            // One card is always a throw (`classify` calls it a single).
            found(&subset_of(mask));
            continue;
        }
        let naturals = mask & !jokers;
        let first = naturals.trailing_zeros() as usize;
        // Only naturals of one rank (or none at all) can be a single card or a set.
        let one_rank = naturals == 0 || naturals & !same_rank[first] == 0;
        if !one_rank {
            // Not a set: a run at best, which needs 3+ cards whose naturals share a suit.
            if mask.count_ones() >= 3
                && naturals & !same_suit[first] == 0
                && let Some(run) = arrange_run(subset_of(mask).as_slice(), rules)
            {
                found(&run);
            }
            continue;
        }
        let subset = subset_of(mask);
        match classify(subset.as_slice(), rules) {
            Ok(Combination::Single | Combination::Set) => found(&subset),
            _ if subset.len() >= 3 => {
                if let Some(run) = arrange_run(subset.as_slice(), rules) {
                    found(&run);
                }
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::cards;
    use crate::rules::Preset;

    fn throws(hand: &str, preset: Preset) -> Vec<String> {
        let mut all = Vec::new();
        for_each_throw(&cards(hand), &preset.rules(), |t| all.push(t.to_string()));
        all.sort();
        all
    }

    #[test]
    fn lists_singles_sets_and_runs() {
        let all = throws("5S 5H 6S 7S KD", Preset::Israeli);
        for expected in ["5S", "5H", "6S", "7S", "KD", "5S 5H", "5S 6S 7S"] {
            assert!(
                all.contains(&expected.to_string()),
                "{expected} missing from {all:?}"
            );
        }
        assert_eq!(all.len(), 7, "{all:?}");
    }

    #[test]
    fn places_jokers_in_gaps_and_above_the_top() {
        assert_eq!(
            arrange_run(cards("7D JK 4D 5D").as_slice(), &Preset::Israeli.rules()),
            Some(cards("4D 5D JK 7D"))
        );
        assert_eq!(
            arrange_run(cards("QD JK KD").as_slice(), &Preset::Israeli.rules()),
            Some(cards("JK QD KD"))
        );
        assert_eq!(
            arrange_run(cards("QD JK KD").as_slice(), &Preset::Belgian.rules()),
            None
        );
        assert_eq!(
            arrange_run(cards("QD AD KD").as_slice(), &Preset::Belgian.rules()),
            Some(cards("QD KD AD"))
        );
    }

    #[test]
    fn duplicate_cards_give_one_throw() {
        let all = throws("5S 5S", Preset::Belgian);
        assert_eq!(all, vec!["5S".to_string(), "5S 5S".to_string()]);
    }
}
