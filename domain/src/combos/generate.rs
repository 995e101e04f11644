//! Every throw a hand can make. A set is listed once in hand order and a run once,
//! ascending; any order of a set and the reverse of a run are legal too.

use super::{Combination, RunShape, classify};
use crate::cards::{Card, Cards, JOKER, MAX_CARDS};
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
/// A hand of up to [`MAX_CARDS`] goes through its subsets ([`for_each_throw_by_mask`]),
/// in the order the bots' choices were always drawn from; a larger one, which only
/// forced draws grow, by rank and suit ([`for_each_throw_by_structure`]), which finds
/// the same throws without visiting 2^n subsets.
#[inline]
pub fn for_each_throw(hand: &[Card], rules: &Rules, found: impl FnMut(&Cards)) {
    if hand.len() <= MAX_CARDS {
        for_each_throw_by_mask(hand, rules, found);
    } else {
        for_each_throw_by_structure(hand, rules, found);
    }
}

/// [`for_each_throw`] on a hand of at most [`MAX_CARDS`] cards (more are not looked at).
///
/// Every non-empty subset of the hand is considered in increasing bit-mask order. Bit
/// masks of the cards sharing a rank or a suit skip, without building them, the subsets
/// that cannot be a combination: cards whose naturals share neither one rank (a set) nor
/// one suit (a run). The others are classified exactly as before.
fn for_each_throw_by_mask(hand: &[Card], rules: &Rules, mut found: impl FnMut(&Cards)) {
    let cards = &hand[..hand.len().min(MAX_CARDS)];
    let n = cards.len();
    // Bit masks of the cards of each rank (0: the jokers) and of each suit index (4: the
    // jokers), built in one pass: a subset holds one rank when its naturals lie within
    // the first natural's rank mask, one suit likewise.
    let mut by_rank = [0u32; 16];
    let mut by_suit = [0u32; 5];
    let mut seen = 0u64;
    let mut held_twice = false;
    for (i, card) in cards.iter().enumerate() {
        by_rank[card.rank() as usize] |= 1 << i;
        by_suit[card.suit_index() as usize] |= 1 << i;
        let bit = 1u64 << card.index();
        held_twice |= seen & bit != 0;
        seen |= bit;
    }
    let jokers = by_rank[0];
    // With two decks a hand may hold the same card twice: `later_copy[i]` marks the later
    // copies of card `i`, and a subset that takes a later copy without the earlier one is
    // skipped, so each throw is listed once.
    let mut later_copy = [0u32; MAX_CARDS];
    let mut has_copies = 0u32;
    if held_twice {
        for (i, a) in cards.iter().enumerate() {
            for (j, b) in cards.iter().enumerate().skip(i + 1) {
                if a == b {
                    later_copy[i] |= 1 << j;
                    has_copies |= 1 << i;
                }
            }
        }
    }
    let subset_of = |mask: u32| Cards::picked(cards, mask);
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
        let one_rank = naturals == 0 || naturals & !by_rank[cards[first].rank() as usize] == 0;
        if !one_rank {
            // Not a set: a run at best, which needs 3+ cards whose naturals share a suit.
            if mask.count_ones() >= 3
                && naturals & !by_suit[cards[first].suit_index() as usize] == 0
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

/// [`for_each_throw`] by the shape of a combination rather than by subsets: every
/// choice of cards of one rank with some of the jokers (singles, sets, and the runs a
/// natural with jokers reads as where jokers are not wild in sets), then every choice of
/// two or more ranks of one suit whose gaps the jokers can fill (runs). Each candidate is
/// judged exactly as the subset enumeration judges it, and a set lists its cards in hand
/// order, the earlier copy of a card held twice first.
#[inline(never)]
fn for_each_throw_by_structure(hand: &[Card], rules: &Rules, mut found: impl FnMut(&Cards)) {
    let jokers = hand.iter().filter(|c| c.is_joker()).count().min(MAX_CARDS);
    // Per card value, where its copies sit in the hand.
    let mut copies: [Vec<usize>; Card::INDEX_LIMIT] = std::array::from_fn(|_| Vec::new());
    for (i, c) in hand.iter().enumerate() {
        if !c.is_joker() {
            copies[c.index()].push(i);
        }
    }
    let joker_at: Vec<usize> = (0..hand.len()).filter(|&i| hand[i].is_joker()).collect();
    let in_hand_order = |picked: &mut Vec<usize>| -> Cards {
        picked.sort_unstable();
        picked.iter().map(|&i| hand[i]).collect()
    };
    let mut picked = Vec::new();
    // One rank (or jokers alone): how many copies of each of its up to four cards.
    for rank in 0..=13u8 {
        let cards: Vec<usize> = if rank == 0 {
            Vec::new()
        } else {
            (0..4)
                .map(|suit| (suit << 4 | rank) as usize)
                .filter(|&v| !copies[v].is_empty())
                .collect()
        };
        let mut counts = vec![0usize; cards.len()];
        loop {
            for j in 0..=jokers {
                let naturals: usize = counts.iter().sum();
                let skip_jokers_alone = rank != 0 && naturals == 0;
                if naturals + j == 0 || skip_jokers_alone {
                    continue;
                }
                picked.clear();
                for (&v, &k) in cards.iter().zip(&counts) {
                    picked.extend_from_slice(&copies[v][..k]);
                }
                picked.extend_from_slice(&joker_at[..j]);
                let subset = in_hand_order(&mut picked);
                match super::classify(subset.as_slice(), rules) {
                    Ok(Combination::Single | Combination::Set) => found(&subset),
                    _ if subset.len() >= 3 => {
                        if let Some(run) = arrange_run(subset.as_slice(), rules) {
                            found(&run);
                        }
                    }
                    _ => {}
                }
            }
            // Next choice of counts, like an odometer.
            let mut digit = 0;
            while digit < cards.len() {
                counts[digit] += 1;
                if counts[digit] <= copies[cards[digit]].len() {
                    break;
                }
                counts[digit] = 0;
                digit += 1;
            }
            if digit == cards.len() {
                break;
            }
        }
    }
    let spare_jokers = if rules.jokers_wild_in_runs() {
        jokers
    } else {
        0
    };
    // Runs: two or more ranks of one suit (a card once: a run never holds two copies).
    for suit in 0..4u8 {
        let held: u16 = (1..=13u8)
            .filter(|&r| !copies[(suit << 4 | r) as usize].is_empty())
            .fold(0, |m, r| m | 1 << r);
        let mut ranks = held;
        while ranks != 0 {
            if ranks.count_ones() >= 2 && gaps_fillable(ranks, spare_jokers, rules.ace) {
                let naturals: Vec<Card> = (1..=13u8)
                    .filter(|&r| ranks & 1 << r != 0)
                    .map(|r| hand[copies[(suit << 4 | r) as usize][0]])
                    .collect();
                for j in 0..=spare_jokers {
                    if naturals.len() + j < 3 {
                        continue;
                    }
                    let mut cards = naturals.clone();
                    cards.extend(std::iter::repeat_n(JOKER, j));
                    if let Some(run) = arrange_run(&cards, rules) {
                        found(&run);
                    }
                }
            }
            // Next non-empty subset of `held`, downwards.
            ranks = (ranks - 1) & held;
        }
    }
}

/// Whether `jokers` can fill the gaps between the ranks set in `ranks` (bit `r` for
/// rank `r`), the ace low or, where the rules allow, high: a cheap filter before
/// [`arrange_run`] decides.
fn gaps_fillable(ranks: u16, jokers: usize, ace: AceRule) -> bool {
    let fits = |values: u16| {
        let span = 16 - values.leading_zeros() - values.trailing_zeros();
        (span - values.count_ones()) as usize <= jokers
    };
    let low = fits(ranks);
    let high =
        ace == AceRule::LowOrHigh && ranks & 1 << 1 != 0 && fits(ranks & !(1 << 1) | 1 << 14);
    low || high
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::{Hand, cards};
    use crate::rules::Preset;

    fn throws(hand: &str, preset: Preset) -> Vec<String> {
        let mut all = Vec::new();
        for_each_throw(cards(hand).as_slice(), &preset.rules(), |t| {
            all.push(t.to_string())
        });
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

    /// One of the two enumerations, to be compared.
    type Enumerator = fn(&[Card], &Rules, &mut dyn FnMut(&Cards));

    /// Every throw as a comparable key: a set's cards sorted (its order is the hand's),
    /// a run as arranged.
    fn keys(hand: &[Card], rules: &Rules, by: Enumerator) -> Vec<Cards> {
        let mut all = Vec::new();
        by(hand, rules, &mut |t: &Cards| {
            all.push(match classify(t.as_slice(), rules) {
                Ok(Combination::Single | Combination::Set) => t.sorted(),
                _ => *t,
            })
        });
        all.sort_unstable_by_key(|t| t.as_slice().to_vec());
        all
    }

    fn by_mask(hand: &[Card], rules: &Rules, found: &mut dyn FnMut(&Cards)) {
        for_each_throw_by_mask(hand, rules, found);
    }

    fn by_structure(hand: &[Card], rules: &Rules, found: &mut dyn FnMut(&Cards)) {
        for_each_throw_by_structure(hand, rules, found);
    }

    /// Two full decks with their jokers (108 cards).
    fn two_decks() -> Vec<Card> {
        let deck = crate::cards::Deck {
            decks: 2,
            jokers_per_deck: 2,
        };
        deck.cards()
    }

    #[test]
    fn structure_finds_what_the_subsets_find_on_hands_up_to_sixteen() {
        use rand::rngs::SmallRng;
        use rand::{Rng, SeedableRng};
        // Jokers in runs only, ace low (Israeli); ace low or high, jokers plain (Belgian);
        // jokers wild in sets and runs (House); jokers never wild (Kluft).
        let presets = [
            Preset::Israeli,
            Preset::Belgian,
            Preset::House,
            Preset::Kluft,
        ];
        let deck = two_decks();
        let mut rng = SmallRng::seed_from_u64(0x68_616e_6473);
        for case in 0..600 {
            let rules = presets[case % presets.len()].rules();
            let n = rng.random_range(1..=MAX_CARDS);
            // Draw from a narrow slice of the deck half the time, so that sets, runs,
            // copies and jokers all turn up.
            let pool: Vec<Card> = if case % 2 == 0 {
                deck.iter()
                    .copied()
                    .filter(|c| c.is_joker() || c.rank() <= 6)
                    .collect()
            } else {
                deck.clone()
            };
            let hand: Vec<Card> = (0..n)
                .map(|_| pool[rng.random_range(0..pool.len())])
                .collect();
            let fast = keys(&hand, &rules, by_mask);
            let structural = keys(&hand, &rules, by_structure);
            assert_eq!(
                structural,
                fast,
                "case {case}: {:?}",
                Cards::from_slice(&hand)
            );
        }
    }

    #[test]
    fn a_twenty_card_hand_lists_each_throw_once() {
        // All thirteen spades, ace low, with 7H 7D 7C 7C KH KH 9D (two decks). Singles:
        // 18 distinct cards. Runs: the 66 of three to thirteen spades. Sets: 19 of
        // sevens (7S, 7H, 7D once and 7C twice: 2*2*2*3 choices less the empty one and
        // the four singles), 3 of kings (KS KH, KH KH, KS KH KH) and 9S 9D.
        let hand: Vec<Card> = "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS 7H 7D 7C 7C KH KH 9D"
            .split(' ')
            .map(crate::cards::card)
            .collect();
        assert_eq!(hand.len(), 20);
        let rules = Preset::Israeli.rules();
        let mut all = Vec::new();
        for_each_throw(&hand, &rules, |t| all.push(*t));
        let distinct: std::collections::HashSet<Cards> = all.iter().copied().collect();
        assert_eq!(distinct.len(), all.len(), "each throw once");
        let singles = all.iter().filter(|t| t.len() == 1).count();
        let runs = all
            .iter()
            .filter(|t| matches!(classify(t.as_slice(), &rules), Ok(Combination::Run(_))))
            .count();
        let sets = all
            .iter()
            .filter(|t| matches!(classify(t.as_slice(), &rules), Ok(Combination::Set)))
            .count();
        assert_eq!((singles, runs, sets), (18, 66, 19 + 3 + 1));
    }

    #[test]
    fn thirty_and_sixty_card_hands_hold_every_throw_of_their_parts() {
        use rand::rngs::SmallRng;
        use rand::{Rng, SeedableRng};
        let deck = two_decks();
        let mut rng = SmallRng::seed_from_u64(60);
        for (case, n) in [30, 60, 30, 60].into_iter().enumerate() {
            let rules = [Preset::House, Preset::Belgian][case % 2].rules();
            let mut pool = deck.clone();
            let hand: Vec<Card> = (0..n)
                .map(|_| pool.swap_remove(rng.random_range(0..pool.len())))
                .collect();
            let started = std::time::Instant::now();
            let big = keys(&hand, &rules, by_structure);
            assert!(started.elapsed().as_secs() < 2, "no 2^{n} walk");
            assert!(big.len() > n, "{n} singles at least, and sets and runs");
            for t in &big {
                // A throw is drawn from the hand and is one combination.
                assert!(
                    Hand::from_slice(&hand).contains_all(t.as_slice()),
                    "{t} not held"
                );
                assert!(
                    classify(t.as_slice(), &rules).is_ok(),
                    "{t} is no combination"
                );
            }
            let mut distinct = big.clone();
            distinct.dedup();
            assert_eq!(distinct.len(), big.len(), "each throw once");
            // Whatever a sixteen-card part of the hand can throw, the hand can.
            for _ in 0..20 {
                let part: Vec<Card> = (0..MAX_CARDS)
                    .map(|_| hand[rng.random_range(0..n)])
                    .collect();
                let mut seen = vec![false; n];
                let part: Vec<Card> = part
                    .into_iter()
                    .filter(|&c| {
                        let free = (0..n).find(|&i| hand[i] == c && !seen[i]);
                        free.inspect(|&i| seen[i] = true).is_some()
                    })
                    .collect();
                for t in keys(&part, &rules, by_mask) {
                    assert!(
                        big.binary_search_by_key(&t.as_slice().to_vec(), |b| b.as_slice().to_vec())
                            .is_ok(),
                        "{t} of a part is missing"
                    );
                }
            }
        }
    }
}
