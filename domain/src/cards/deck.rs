//! The unshuffled deck and card multisets.
//!
//! Canonical order of one deck, which the portable shuffle permutes: clubs A..K, diamonds
//! A..K, hearts A..K, spades A..K, then the deck's jokers. With two decks the second deck
//! follows the first in the same order. See `docs/shuffle.md` for how a seed turns this
//! order into a deal.

use super::{Card, JOKER, Suit};

/// How many of each card a game is played with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Deck {
    pub decks: u8,
    pub jokers_per_deck: u8,
}

impl Deck {
    pub fn size(self) -> usize {
        self.decks as usize * (52 + self.jokers_per_deck as usize)
    }

    /// The cards in canonical order.
    pub fn cards(self) -> Vec<Card> {
        let mut all = Vec::with_capacity(self.size());
        for _ in 0..self.decks {
            for suit in Suit::ALL {
                all.extend((1..=13).map(|rank| Card::new(rank, suit)));
            }
            all.extend(std::iter::repeat_n(JOKER, self.jokers_per_deck as usize));
        }
        all
    }

    pub fn counts(self) -> CardCounts {
        let mut counts = CardCounts::default();
        for c in self.cards() {
            counts.add(c);
        }
        counts
    }
}

/// A multiset of cards: how many copies of each card.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CardCounts([u8; Card::INDEX_LIMIT]);

impl Default for CardCounts {
    fn default() -> Self {
        CardCounts([0; Card::INDEX_LIMIT])
    }
}

impl CardCounts {
    pub fn add(&mut self, card: Card) {
        self.0[card.index()] += 1;
    }

    /// Takes one copy away; `false` (and no change) when there is none.
    pub fn take(&mut self, card: Card) -> bool {
        let slot = &mut self.0[card.index()];
        if *slot == 0 {
            return false;
        }
        *slot -= 1;
        true
    }

    pub fn count(&self, card: Card) -> u8 {
        self.0[card.index()]
    }

    pub fn total(&self) -> usize {
        self.0.iter().map(|&n| n as usize).sum()
    }

    /// Every card with its multiplicity, in canonical card order.
    pub fn iter(&self) -> impl Iterator<Item = (Card, u8)> + '_ {
        self.0
            .iter()
            .enumerate()
            .filter(|(_, n)| **n > 0)
            .map(|(i, &n)| (Card::from_index(i), n))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn deck(decks: u8, jokers_per_deck: u8) -> Deck {
        Deck {
            decks,
            jokers_per_deck,
        }
    }

    #[test]
    fn a_single_deck_with_jokers_has_54_cards() {
        // RULES.md common ground / pagat: "A 54 card deck is used - the standard
        // international deck with two jokers."
        let deck = deck(1, 2);
        assert_eq!(deck.size(), 54);
        assert_eq!(deck.cards().len(), 54);
        assert_eq!(deck.counts().count(JOKER), 2);
    }

    #[test]
    fn two_decks_hold_every_card_twice() {
        // Belgian rules: "Bij 5-8 spelers worden er 2 kaartspellen gebruikt (108 kaarten totaal)."
        let deck = deck(2, 2);
        assert_eq!(deck.cards().len(), 108);
        let counts = deck.counts();
        assert!(counts.iter().all(|(_, n)| n == 2 || n == 4));
        assert_eq!(counts.count(JOKER), 4);
    }

    #[test]
    fn nepali_deck_has_no_jokers() {
        // pagat: "In Nepal, the game is often played with a 52-card pack without Jokers."
        let deck = deck(1, 0);
        assert_eq!(deck.cards().len(), 52);
        assert_eq!(deck.counts().count(JOKER), 0);
    }
}
