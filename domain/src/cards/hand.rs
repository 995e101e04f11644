//! [`Hand`]: the cards a player holds, as many as the deck has. The House Rules' Sevens
//! make every other player draw "a card … for each seven played" with no limit, so a
//! hand can outgrow the inline [`Cards`] a throw fits in. Hands are copied on every
//! decision the engine weighs, so the common hand (up to [`MAX_CARDS`]) stays inline
//! and only a grown one moves to the heap.

use std::fmt;

use serde::de::{self, SeqAccess, Visitor};
use serde::ser::SerializeSeq;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::{Card, Cards, MAX_CARDS};

/// The most cards a hand holds: the whole of the largest deck (two decks of 52 and two
/// jokers each). Lists read from outside are refused beyond it.
pub const MAX_HAND: usize = 2 * (52 + 2);

/// Ordered like [`Cards`]; equality and hashing look at the cards in order only, never
/// at where they are stored.
#[derive(Clone)]
pub enum Hand {
    Inline(Cards),
    /// More than [`MAX_CARDS`] at some point of the round; it stays on the heap when it
    /// shrinks again, which only a long round of forced draws can cause. Boxed, so a
    /// hand takes 24 bytes rather than 32: every copy of the table copies eight.
    Spilled(Box<Vec<Card>>),
}

impl Default for Hand {
    fn default() -> Hand {
        Hand::Inline(Cards::new())
    }
}

impl Hand {
    pub const fn new() -> Hand {
        Hand::Inline(Cards::new())
    }

    pub fn from_slice(cards: &[Card]) -> Hand {
        match Cards::from_slice(cards) {
            Ok(inline) => Hand::Inline(inline),
            Err(_) => Hand::Spilled(Box::new(cards.to_vec())),
        }
    }

    #[inline]
    pub fn as_slice(&self) -> &[Card] {
        match self {
            Hand::Inline(cards) => cards.as_slice(),
            Hand::Spilled(cards) => cards,
        }
    }

    /// The hand as an inline list, when it fits one.
    #[inline]
    pub fn as_cards(&self) -> Option<Cards> {
        match self {
            Hand::Inline(cards) => Some(*cards),
            Hand::Spilled(cards) => Cards::from_slice(cards).ok(),
        }
    }

    #[inline]
    pub fn len(&self) -> usize {
        self.as_slice().len()
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.as_slice().is_empty()
    }

    #[inline]
    pub fn push(&mut self, card: Card) {
        match self {
            Hand::Inline(cards) => {
                if cards.try_push(card).is_err() {
                    self.extend(&[card]);
                }
            }
            Hand::Spilled(cards) => cards.push(card),
        }
    }

    pub fn extend(&mut self, more: &[Card]) {
        match self {
            Hand::Inline(cards) => {
                if cards.try_extend(more).is_err() {
                    let mut spilled = Vec::with_capacity(MAX_CARDS * 2 + more.len());
                    spilled.extend_from_slice(cards.as_slice());
                    spilled.extend_from_slice(more);
                    *self = Hand::Spilled(Box::new(spilled));
                }
            }
            Hand::Spilled(cards) => cards.extend_from_slice(more),
        }
    }

    #[inline]
    pub fn first(&self) -> Option<Card> {
        self.as_slice().first().copied()
    }

    #[inline]
    pub fn last(&self) -> Option<Card> {
        self.as_slice().last().copied()
    }

    #[inline]
    pub fn contains(&self, card: Card) -> bool {
        self.as_slice().contains(&card)
    }

    /// Removes one copy of `card`, the last card taking its place: the hand order the
    /// verification spec pins (the same as [`Cards::remove`]).
    #[inline]
    pub fn remove(&mut self, card: Card) -> bool {
        match self {
            Hand::Inline(cards) => cards.remove(card),
            Hand::Spilled(cards) => match cards.iter().position(|&c| c == card) {
                Some(at) => {
                    cards.swap_remove(at);
                    true
                }
                None => false,
            },
        }
    }

    /// Removes one copy of every card of `cards` if all are present; otherwise leaves
    /// `self` untouched and returns the first missing card.
    #[inline]
    pub fn remove_all(&mut self, cards: &[Card]) -> Result<(), Card> {
        if let Hand::Inline(inline) = self {
            return inline.remove_all(cards);
        }
        if let Some(missing) = self.first_missing(cards) {
            return Err(missing);
        }
        for &c in cards {
            self.remove(c);
        }
        Ok(())
    }

    /// Whether `cards` is a sub-multiset of the hand.
    #[inline]
    pub fn contains_all(&self, cards: &[Card]) -> bool {
        self.first_missing(cards).is_none()
    }

    /// The first card of `cards` the hand runs out of, counting copies.
    #[inline]
    pub fn first_missing(&self, cards: &[Card]) -> Option<Card> {
        if let Hand::Inline(inline) = self {
            let mut rest = *inline;
            return rest.remove_all(cards).err();
        }
        let mut held = [0u8; Card::INDEX_LIMIT];
        for c in self.iter() {
            if let Some(n) = held.get_mut(c.index()) {
                *n = n.saturating_add(1);
            }
        }
        for &c in cards {
            match held.get_mut(c.index()) {
                Some(n) if *n > 0 => *n -= 1,
                _ => return Some(c),
            }
        }
        None
    }

    #[inline]
    pub fn iter(&self) -> impl ExactSizeIterator<Item = Card> + '_ {
        self.as_slice().iter().copied()
    }

    /// The cards at the positions set in `mask` (bit `i` for the `i`-th card), in order;
    /// the first [`MAX_CARDS`] of them where more are set.
    pub fn subset(&self, mask: u128) -> Cards {
        self.iter()
            .enumerate()
            .filter(|&(i, _)| i < 128 && mask & (1 << i) != 0)
            .map(|(_, c)| c)
            .collect()
    }

    pub fn clear(&mut self) {
        *self = Hand::new();
    }

    pub fn sorted(self) -> Hand {
        match self {
            Hand::Inline(cards) => Hand::Inline(cards.sorted()),
            Hand::Spilled(mut cards) => {
                cards.sort_unstable();
                Hand::Spilled(cards)
            }
        }
    }
}

impl From<Cards> for Hand {
    fn from(cards: Cards) -> Hand {
        Hand::Inline(cards)
    }
}

impl PartialEq for Hand {
    fn eq(&self, other: &Hand) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl Eq for Hand {}

/// A hand equals the list of the same cards in the same order.
impl PartialEq<Cards> for Hand {
    fn eq(&self, other: &Cards) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl PartialEq<Hand> for Cards {
    fn eq(&self, other: &Hand) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl std::hash::Hash for Hand {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.as_slice().hash(state);
    }
}

impl fmt::Debug for Hand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

impl fmt::Display for Hand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, c) in self.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{c}")?;
        }
        Ok(())
    }
}

impl FromIterator<Card> for Hand {
    fn from_iter<I: IntoIterator<Item = Card>>(iter: I) -> Self {
        let mut hand = Hand::new();
        for c in iter {
            hand.push(c);
        }
        hand
    }
}

impl Serialize for Hand {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut seq = serializer.serialize_seq(Some(self.len()))?;
        for c in self.iter() {
            seq.serialize_element(&c)?;
        }
        seq.end()
    }
}

impl<'de> Deserialize<'de> for Hand {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct HandVisitor;
        impl<'de> Visitor<'de> for HandVisitor {
            type Value = Hand;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                write!(f, "a list of at most {MAX_HAND} cards")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Hand, A::Error> {
                let mut hand = Hand::new();
                while let Some(c) = seq.next_element::<Card>()? {
                    if hand.len() == MAX_HAND {
                        return Err(de::Error::custom(format!(
                            "too many cards: a hand holds at most {MAX_HAND}"
                        )));
                    }
                    hand.push(c);
                }
                Ok(hand)
            }
        }
        deserializer.deserialize_seq(HandVisitor)
    }
}

#[cfg(test)]
mod tests {
    use crate::cards::{card, cards};

    use super::*;

    fn big() -> Hand {
        let mut hand = Hand::from(cards("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AH 2H 3H"));
        hand.push(card("4H"));
        hand.push(card("4H"));
        hand
    }

    #[test]
    fn a_hand_is_no_larger_than_three_words() {
        assert_eq!(std::mem::size_of::<Hand>(), 24);
    }

    #[test]
    fn grows_past_the_inline_list_keeping_its_order() {
        let hand = big();
        assert!(matches!(hand, Hand::Spilled(_)));
        assert_eq!(hand.len(), MAX_CARDS + 2);
        assert_eq!(hand.as_slice()[..2], [card("AS"), card("2S")]);
        assert_eq!(hand.as_slice()[MAX_CARDS..], [card("4H"), card("4H")]);
    }

    #[test]
    fn removal_swaps_the_last_card_in_as_an_inline_list_does() {
        let mut spilled = big();
        assert!(spilled.remove(card("2S")));
        assert_eq!(spilled.as_slice()[1], card("4H"));
        let mut inline = cards("AS 2S 3S 4H");
        inline.remove(card("2S"));
        assert_eq!(inline.as_slice()[1], card("4H"));
    }

    #[test]
    fn remove_all_is_all_or_nothing_on_a_grown_hand() {
        let mut hand = big();
        let before = hand.clone();
        assert_eq!(
            hand.remove_all(&[card("4H"), card("4H"), card("4H")]),
            Err(card("4H"))
        );
        assert_eq!(hand, before);
        assert_eq!(hand.remove_all(&[card("4H"), card("AS")]), Ok(()));
        assert_eq!(hand.len(), MAX_CARDS);
        assert!(hand.contains_all(&[card("4H")]));
        assert!(!hand.contains_all(&[card("4H"), card("4H")]));
    }

    #[test]
    fn equal_whether_inline_or_spilled() {
        let mut hand = big();
        hand.remove(card("4H"));
        hand.remove(card("4H"));
        assert_eq!(
            hand,
            Hand::from(cards("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AH 2H 3H"))
        );
    }

    #[test]
    fn serde_round_trips_and_refuses_more_than_the_deck() {
        let hand = big();
        let json = serde_json::to_string(&hand).unwrap();
        assert_eq!(serde_json::from_str::<Hand>(&json).ok(), Some(hand));
        let json = format!("[{}]", vec!["\"AS\""; MAX_HAND + 1].join(","));
        assert!(serde_json::from_str::<Hand>(&json).is_err());
        let json = format!("[{}]", vec!["\"AS\""; MAX_HAND].join(","));
        assert_eq!(
            serde_json::from_str::<Hand>(&json).map(|h| h.len()).ok(),
            Some(MAX_HAND)
        );
    }

    #[test]
    fn subset_reaches_past_the_thirty_second_card() {
        let mut hand = Hand::new();
        for _ in 0..40 {
            hand.push(card("2C"));
        }
        hand.push(card("KD"));
        assert_eq!(hand.subset(1 << 40 | 1), cards("2C KD"));
    }
}
