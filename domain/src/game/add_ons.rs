//! The add-ons a seat may lay now, enumerated without allocating: what
//! `legal_actions` lists and what the bots choose from (`bots::BotView` hands it to
//! them).

use crate::cards::{Card, Cards};
use crate::combos::{Combination, add_on_fits, classify, multiple_fits};
use crate::rules::{BonusRule, Rules};

use super::event::Seat;
use super::state::Game;

impl Game {
    /// Whether `seat` may add on at all now, cards aside: it plays in a round in
    /// progress, the window after a throw is open, the throw is not its own, and the
    /// rules allow an add-on.
    fn add_on_window(&self, seat: Seat) -> Option<&Rules> {
        let rules = self.rules().filter(|r| r.add_ons.any())?;
        let playing = self.round_in_progress()
            && !self.is_finished()
            && (seat as usize) < self.players().len()
            && !self.is_eliminated(seat);
        let open = playing
            && self.window_open()
            && self.top_thrower() != Some(seat)
            && self.decide_add_on_possible(seat);
        open.then_some(rules)
    }

    /// Every add-on this seat may lay now, each once, in the order `legal_actions` lists
    /// them.
    ///
    /// [`add_on_fits`] decides every candidate; only subsets it must refuse are skipped
    /// without asking: it accepts a set (or a single card) only completed to exactly four,
    /// so only subsets of that size, of cards of the set's rank or jokers; a run only
    /// extended by cards of its suit or jokers; and under Mathematician one card on a
    /// single card. Those single cards come first, then subsets in increasing mask order.
    pub fn for_each_add_on(&self, seat: Seat, mut found: impl FnMut(&Cards)) {
        let Some(rules) = self.add_on_window(seat) else {
            return;
        };
        // Lists found so far, for the rare duplicate (two decks, or a list that fits
        // two piles under Osmosis): at most a handful.
        let mut seen = Seen::default();
        for pile in self.lay_piles() {
            self.for_each_add_on_to(seat, pile.top, rules, &mut seen, &mut found);
        }
    }

    /// [`Game::for_each_add_on`] on one pile's top throw `top`.
    fn for_each_add_on_to(
        &self,
        seat: Seat,
        top: Cards,
        rules: &Rules,
        seen: &mut Seen,
        found: &mut impl FnMut(&Cards),
    ) {
        // A single card on top takes an add-on only under `to_single_cards` or
        // Mathematician (`classify` calls any one card a single): the commonest window.
        if top.len() == 1
            && !rules.add_ons.to_single_cards
            && !rules.has_bonus(BonusRule::Mathematician)
        {
            return;
        }
        let Some(hand) = self.hand(seat).as_cards() else {
            self.for_each_add_on_from_large_hand(seat, top, rules, seen, found);
            return;
        };
        let cards = hand.as_slice();
        if top.len() == 1 && rules.has_bonus(BonusRule::Mathematician) {
            // Mathematician: first the single cards whose value is a multiple of the one
            // discarded (a card once, two decks aside); the sets below take three or more.
            for (i, &card) in cards.iter().enumerate() {
                let single = Cards::from_iter([card]);
                if !cards[..i].contains(&card)
                    && multiple_fits(&top, card, rules)
                    && seen.first_time(single)
                {
                    found(&single);
                }
            }
        }
        let natural = top.iter().find(|c| !c.is_joker());
        let all = (1u32 << cards.len()) - 1;
        let mask_of = |keep: &dyn Fn(Card) -> bool| -> u32 {
            cards
                .iter()
                .enumerate()
                .filter(|(_, c)| c.is_joker() || keep(**c))
                .fold(0, |m, (i, _)| m | 1 << i)
        };
        let (relevant, size) = match classify(top.as_slice(), rules) {
            Ok(Combination::Single) if !rules.add_ons.to_single_cards => return,
            Ok(Combination::Set) if !rules.add_ons.to_sets => return,
            Ok(Combination::Single | Combination::Set) => {
                let Some(size) = 4usize.checked_sub(top.len()).filter(|&k| k > 0) else {
                    return;
                };
                let relevant = match natural {
                    Some(n) => mask_of(&|c| c.rank() == n.rank()),
                    None => all,
                };
                (relevant, Some(size as u32))
            }
            Ok(Combination::Run(_)) if rules.add_ons.to_runs => {
                let relevant = match natural {
                    Some(n) => mask_of(&|c| c.suit_index() == n.suit_index()),
                    None => all,
                };
                (relevant, None)
            }
            _ => return,
        };
        if size.is_some_and(|k| relevant.count_ones() < k) {
            return;
        }
        let mut sub = relevant & relevant.wrapping_neg();
        while sub != 0 {
            if size.is_none_or(|k| sub.count_ones() == k) {
                let subset = hand.subset(sub);
                if add_on_fits(&top, subset.as_slice(), rules) && seen.first_time(subset) {
                    found(&subset);
                }
            }
            // Next submask of `relevant` in increasing order.
            sub = (sub | !relevant).wrapping_add(1) & relevant;
        }
    }
}

impl Game {
    /// [`Game::for_each_add_on_to`] for a hand larger than a [`Cards`] list (grown by
    /// forced draws), without visiting its 2^n subsets: a set is completed from the
    /// cards of its rank and the jokers (twelve at most), in hand order as for a smaller
    /// hand; a run is extended card by card past its top, each step the next natural of
    /// its suit or a joker, and listed in the order it is laid.
    fn for_each_add_on_from_large_hand(
        &self,
        seat: Seat,
        top: Cards,
        rules: &Rules,
        seen: &mut Seen,
        found: &mut impl FnMut(&Cards),
    ) {
        let hand = self.hand(seat);
        let cards = hand.as_slice();
        if top.len() == 1 && rules.has_bonus(BonusRule::Mathematician) {
            for (i, &card) in cards.iter().enumerate() {
                let single = Cards::from_iter([card]);
                if !cards[..i].contains(&card)
                    && multiple_fits(&top, card, rules)
                    && seen.first_time(single)
                {
                    found(&single);
                }
            }
        }
        let natural = top.iter().find(|c| !c.is_joker());
        match classify(top.as_slice(), rules) {
            Ok(Combination::Single) if !rules.add_ons.to_single_cards => {}
            Ok(Combination::Set) if !rules.add_ons.to_sets => {}
            Ok(Combination::Single | Combination::Set) => {
                let Some(size) = 4usize.checked_sub(top.len()).filter(|&k| k > 0) else {
                    return;
                };
                // A set's rank with the jokers: at most 8 + 4 positions, so 2^12 masks.
                let relevant: Vec<usize> = (0..cards.len())
                    .filter(|&i| {
                        let c = cards[i];
                        c.is_joker() || natural.is_none_or(|n| c.rank() == n.rank())
                    })
                    .take(u32::BITS as usize - 1)
                    .collect();
                for sub in 1u32..1 << relevant.len() {
                    if sub.count_ones() as usize != size {
                        continue;
                    }
                    let subset: Cards = relevant
                        .iter()
                        .enumerate()
                        .filter(|&(bit, _)| sub & 1 << bit != 0)
                        .map(|(_, &i)| cards[i])
                        .collect();
                    if add_on_fits(&top, subset.as_slice(), rules) && seen.first_time(subset) {
                        found(&subset);
                    }
                }
            }
            Ok(Combination::Run(_)) if rules.add_ons.to_runs => {
                let suit = natural.map(|n| n.suit_index());
                let mut naturals: Vec<Card> = cards
                    .iter()
                    .copied()
                    .filter(|c| !c.is_joker() && suit.is_none_or(|s| c.suit_index() == s))
                    .collect();
                naturals.sort_unstable();
                naturals.dedup();
                let jokers = cards.iter().filter(|c| c.is_joker()).count();
                let mut laid = Cards::new();
                extend_run(&top, &naturals, jokers, &mut laid, rules, &mut |added| {
                    if add_on_fits(&top, added.as_slice(), rules) && seen.first_time(*added) {
                        found(added);
                    }
                });
            }
            _ => {}
        }
    }
}

/// Every extension of the run `top` by `laid` and then one more card (a natural of
/// `naturals` not laid yet, or one of `jokers` left) that still reads as a run.
fn extend_run(
    top: &Cards,
    naturals: &[Card],
    jokers: usize,
    laid: &mut Cards,
    rules: &Rules,
    found: &mut impl FnMut(&Cards),
) {
    let jokers_laid = laid.iter().filter(|c| c.is_joker()).count();
    let so_far = *laid;
    let candidates = naturals
        .iter()
        .copied()
        .filter(|&c| !so_far.contains(c))
        .chain((jokers_laid < jokers).then_some(crate::cards::JOKER));
    for card in candidates {
        let mut run = *top;
        if run.try_extend(laid.as_slice()).is_err() || run.try_push(card).is_err() {
            continue;
        }
        if !matches!(classify(run.as_slice(), rules), Ok(Combination::Run(_))) {
            continue;
        }
        let before = *laid;
        if laid.try_push(card).is_ok() {
            found(laid);
            extend_run(top, naturals, jokers, laid, rules, found);
        }
        *laid = before;
    }
}

/// The add-ons listed so far. Empty until one is found: most windows find none, and
/// every seat opens one after every throw, so the empty list must cost nothing.
#[derive(Default)]
struct Seen {
    listed: Vec<Cards>,
}

impl Seen {
    /// Records `cards`; whether they were new.
    fn first_time(&mut self, cards: Cards) -> bool {
        if self.listed.contains(&cards) {
            return false;
        }
        self.listed.push(cards);
        true
    }
}
