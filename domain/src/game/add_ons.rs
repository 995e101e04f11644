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
        let hand = self.hand(seat);
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
