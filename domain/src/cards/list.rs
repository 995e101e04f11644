//! [`Cards`]: a short, ordered list of cards stored inline. Hands, throws and the groups on
//! top of the discard pile are all this small, and keeping them off the heap is what lets
//! the engine play millions of turns per second.

use std::fmt;

use serde::de::{self, SeqAccess, Visitor};
use serde::ser::SerializeSeq;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::Card;

/// The most cards one list holds. A throw or a pile's top throw with what was laid on it
/// never exceeds 13: a run spans at most the thirteen ranks (an ace is low or high, never
/// both), and a set at most every copy of one rank in two decks and their jokers (8 + 4 =
/// 12), since add-ons complete a set to four and never past a throw already larger.
/// Sixteen also holds every dealt hand (at most `MAX_HAND_SIZE`, 10); a hand that grows
/// past it is a [`Hand`](super::Hand).
pub const MAX_CARDS: usize = 16;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("too many cards: at most {MAX_CARDS} fit in one hand or throw")]
pub struct CardListError;

/// Equality and hashing look at the cards in order, never at the unused slots.
#[derive(Clone, Copy, Default)]
pub struct Cards {
    len: u8,
    buf: [Card; MAX_CARDS],
}

impl Cards {
    pub const fn new() -> Cards {
        Cards {
            len: 0,
            buf: [Card(0); MAX_CARDS],
        }
    }

    pub fn from_slice(cards: &[Card]) -> Result<Cards, CardListError> {
        if cards.len() > MAX_CARDS {
            return Err(CardListError);
        }
        let mut list = Cards::new();
        list.buf[..cards.len()].copy_from_slice(cards);
        list.len = cards.len() as u8;
        Ok(list)
    }

    /// The cards of `from` whose bits are set in `mask`, in `from`'s order (`from` holds
    /// at most [`MAX_CARDS`] cards, so the picked ones always fit).
    #[inline]
    pub(crate) fn picked(from: &[Card], mask: u32) -> Cards {
        debug_assert!(from.len() <= MAX_CARDS);
        let mut list = Cards::new();
        let mut rest = mask;
        let mut len = 0;
        while rest != 0 {
            list.buf[len] = from[rest.trailing_zeros() as usize];
            len += 1;
            rest &= rest - 1;
        }
        list.len = len as u8;
        list
    }

    pub fn as_slice(&self) -> &[Card] {
        &self.buf[..self.len as usize]
    }

    pub fn len(&self) -> usize {
        self.len as usize
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn try_push(&mut self, card: Card) -> Result<(), CardListError> {
        let slot = self.buf.get_mut(self.len as usize).ok_or(CardListError)?;
        *slot = card;
        self.len += 1;
        Ok(())
    }

    /// Appends `other`; fails without changing `self` when the result would not fit.
    pub fn try_extend(&mut self, other: &[Card]) -> Result<(), CardListError> {
        let start = self.len as usize;
        let end = start + other.len();
        if end > MAX_CARDS {
            return Err(CardListError);
        }
        self.buf[start..end].copy_from_slice(other);
        self.len = end as u8;
        Ok(())
    }

    pub fn first(&self) -> Option<Card> {
        self.as_slice().first().copied()
    }

    pub fn last(&self) -> Option<Card> {
        self.as_slice().last().copied()
    }

    pub fn contains(&self, card: Card) -> bool {
        self.as_slice().contains(&card)
    }

    /// Removes one copy of `card`; the order of the remaining cards may change.
    pub fn remove(&mut self, card: Card) -> bool {
        let len = self.len as usize;
        match self.buf[..len].iter().position(|&c| c == card) {
            Some(at) => {
                self.buf[at] = self.buf[len - 1];
                self.len -= 1;
                true
            }
            None => false,
        }
    }

    /// Removes the first copy of `card`, the cards after it moving up one place.
    pub fn remove_in_order(&mut self, card: Card) -> bool {
        let len = self.len as usize;
        match self.buf[..len].iter().position(|&c| c == card) {
            Some(at) => {
                self.buf.copy_within(at + 1..len, at);
                self.len -= 1;
                true
            }
            None => false,
        }
    }

    /// Removes one copy of every card of `cards` if all are present; otherwise leaves
    /// `self` untouched and returns the first missing card.
    pub fn remove_all(&mut self, cards: &[Card]) -> Result<(), Card> {
        let mut rest = *self;
        for &c in cards {
            if !rest.remove(c) {
                return Err(c);
            }
        }
        *self = rest;
        Ok(())
    }

    /// Whether `cards` is a sub-multiset of `self`.
    pub fn contains_all(&self, cards: &[Card]) -> bool {
        let mut rest = *self;
        rest.remove_all(cards).is_ok()
    }

    pub fn iter(&self) -> impl ExactSizeIterator<Item = Card> + '_ {
        self.as_slice().iter().copied()
    }

    /// The cards at the positions set in `mask` (bit `i` for the `i`-th card), in order.
    pub fn subset(&self, mask: u32) -> Cards {
        self.iter()
            .enumerate()
            .filter(|(i, _)| mask & (1 << i) != 0)
            .map(|(_, c)| c)
            .collect()
    }

    pub fn sorted(mut self) -> Cards {
        let len = self.len as usize;
        self.buf[..len].sort_unstable();
        self
    }

    pub fn reversed(mut self) -> Cards {
        let len = self.len as usize;
        self.buf[..len].reverse();
        self
    }

    pub fn clear(&mut self) {
        self.len = 0;
    }
}

impl PartialEq for Cards {
    fn eq(&self, other: &Cards) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl Eq for Cards {}

impl std::hash::Hash for Cards {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.as_slice().hash(state);
    }
}

impl fmt::Debug for Cards {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

impl fmt::Display for Cards {
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

/// Collecting more than [`MAX_CARDS`] keeps the first ones; parsing of untrusted lists goes
/// through [`Cards::from_slice`] or serde, which report the overflow instead.
impl FromIterator<Card> for Cards {
    fn from_iter<I: IntoIterator<Item = Card>>(iter: I) -> Self {
        let mut list = Cards::new();
        for c in iter.into_iter().take(MAX_CARDS) {
            let _ = list.try_push(c);
        }
        list
    }
}

impl Serialize for Cards {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut seq = serializer.serialize_seq(Some(self.len()))?;
        for c in self.iter() {
            seq.serialize_element(&c)?;
        }
        seq.end()
    }
}

impl<'de> Deserialize<'de> for Cards {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct ListVisitor;
        impl<'de> Visitor<'de> for ListVisitor {
            type Value = Cards;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                write!(f, "a list of at most {MAX_CARDS} cards")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Cards, A::Error> {
                let mut list = Cards::new();
                while let Some(c) = seq.next_element::<Card>()? {
                    list.try_push(c).map_err(de::Error::custom)?;
                }
                Ok(list)
            }
        }
        deserializer.deserialize_seq(ListVisitor)
    }
}

#[cfg(test)]
mod tests {
    use crate::cards::{card, cards};

    use super::*;

    #[test]
    fn remove_all_is_all_or_nothing() {
        let mut hand = cards("AS 2S 3S");
        assert_eq!(hand.remove_all(&[card("AS"), card("KD")]), Err(card("KD")));
        assert_eq!(hand.len(), 3);
        assert_eq!(hand.remove_all(&[card("AS"), card("3S")]), Ok(()));
        assert_eq!(hand.as_slice(), &[card("2S")]);
    }

    #[test]
    fn in_order_removal_keeps_a_run_a_run() {
        let mut run = cards("3H 4H 5H 6H");
        assert!(run.remove_in_order(card("3H")));
        assert_eq!(run, cards("4H 5H 6H"));
        let mut run = cards("3H 4H 5H 6H");
        run.remove(card("3H"));
        assert_eq!(run, cards("6H 4H 5H"));
    }

    #[test]
    fn equality_ignores_unused_slots() {
        let mut a = cards("AS 2S");
        a.remove(card("2S"));
        assert_eq!(a, cards("AS"));
    }

    #[test]
    fn duplicates_are_counted() {
        let hand = cards("5H 5H 9C");
        assert!(hand.contains_all(&[card("5H"), card("5H")]));
        assert!(!hand.contains_all(&[card("9C"), card("9C")]));
    }

    #[test]
    fn overlong_lists_are_rejected_when_parsed() {
        let json = format!("[{}]", vec!["\"AS\""; MAX_CARDS + 1].join(","));
        assert!(serde_json::from_str::<Cards>(&json).is_err());
        let json = format!("[{}]", vec!["\"AS\""; MAX_CARDS].join(","));
        assert_eq!(
            serde_json::from_str::<Cards>(&json).map(|c| c.len()).ok(),
            Some(MAX_CARDS)
        );
    }
}
