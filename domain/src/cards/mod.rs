//! Cards and their notation (`rank + suit`, `JK` for a joker), as fixed by the game record
//! contract: ranks `A 2 … 10 J Q K`, suits `C D H S`, upper case only.
//!
//! A [`Card`] is one byte: the low nibble is the rank (1 = ace … 13 = king), the high
//! nibble the suit (0 = clubs … 3 = spades); the joker is 0. The byte doubles as an index
//! below [`Card::INDEX_LIMIT`], which keeps card multisets plain arrays. With two decks a
//! card occurs twice; copies are interchangeable, so a card carries no deck number.

mod deck;
mod hand;
mod list;
#[cfg(feature = "openapi")]
mod schema;

pub use deck::{CardCounts, Deck};
pub use hand::{Hand, MAX_HAND};
pub use list::{CardListError, Cards, MAX_CARDS};
#[cfg(feature = "openapi")]
pub use schema::CARD_PATTERN;

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A suit, in the order used to build the unshuffled deck.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Suit {
    Clubs = 0,
    Diamonds = 1,
    Hearts = 2,
    Spades = 3,
}

impl Suit {
    pub const ALL: [Suit; 4] = [Suit::Clubs, Suit::Diamonds, Suit::Hearts, Suit::Spades];

    pub fn letter(self) -> char {
        match self {
            Suit::Clubs => 'C',
            Suit::Diamonds => 'D',
            Suit::Hearts => 'H',
            Suit::Spades => 'S',
        }
    }
}

/// One playing card or a joker. Ordering is by suit then rank, jokers first; it is only a
/// canonical order for sorting, not a game order.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Card(u8);

pub const JOKER: Card = Card(0);

impl Card {
    /// Every card value is below this, so `[T; INDEX_LIMIT]` can be indexed by card.
    pub const INDEX_LIMIT: usize = 64;

    pub const fn new(rank: u8, suit: Suit) -> Card {
        debug_assert!(rank >= 1 && rank <= 13);
        Card(((suit as u8) << 4) | rank)
    }

    pub const fn is_joker(self) -> bool {
        self.0 == 0
    }

    /// 1 (ace) to 13 (king); 0 for a joker.
    pub const fn rank(self) -> u8 {
        self.0 & 0x0f
    }

    /// `None` for a joker.
    pub const fn suit(self) -> Option<Suit> {
        if self.is_joker() {
            return None;
        }
        Some(match self.0 >> 4 {
            0 => Suit::Clubs,
            1 => Suit::Diamonds,
            2 => Suit::Hearts,
            _ => Suit::Spades,
        })
    }

    /// The suit as a number 0-3, 4 for a joker: cheap comparisons in hot loops.
    pub const fn suit_index(self) -> u8 {
        if self.is_joker() { 4 } else { self.0 >> 4 }
    }

    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Inverse of [`Card::index`] for values produced by it.
    pub(crate) const fn from_index(index: usize) -> Card {
        Card(index as u8)
    }

    pub fn is_king_of_hearts(self) -> bool {
        self.rank() == 13 && self.suit() == Some(Suit::Hearts)
    }

    /// The two of spades (the House Rules' Landmine).
    pub const TWO_OF_SPADES: Card = Card::new(2, Suit::Spades);

    /// The five of diamonds (the House Rules' Fifths Disease).
    pub const FIVE_OF_DIAMONDS: Card = Card::new(5, Suit::Diamonds);

    /// The queen of diamonds (the House Rules' Spy).
    pub const QUEEN_OF_DIAMONDS: Card = Card::new(12, Suit::Diamonds);
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_joker() {
            return f.write_str("JK");
        }
        let rank = match self.rank() {
            1 => "A",
            2 => "2",
            3 => "3",
            4 => "4",
            5 => "5",
            6 => "6",
            7 => "7",
            8 => "8",
            9 => "9",
            10 => "10",
            11 => "J",
            12 => "Q",
            _ => "K",
        };
        f.write_str(rank)?;
        let suit = self.suit().map_or('?', Suit::letter);
        write!(f, "{suit}")
    }
}

impl fmt::Debug for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// The text was not a card in the record notation.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown card {text:?}: expected a rank A,2-10,J,Q,K followed by a suit C,D,H,S (e.g. 10H, AS) or JK for a joker"
)]
pub struct UnknownCard {
    pub text: String,
}

impl FromStr for Card {
    type Err = UnknownCard;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let unknown = || UnknownCard {
            text: text.chars().take(16).collect(),
        };
        if text == "JK" {
            return Ok(JOKER);
        }
        let (rank_text, suit_text) = text
            .split_at_checked(text.len().saturating_sub(1))
            .ok_or_else(unknown)?;
        let suit = match suit_text {
            "C" => Suit::Clubs,
            "D" => Suit::Diamonds,
            "H" => Suit::Hearts,
            "S" => Suit::Spades,
            _ => return Err(unknown()),
        };
        let rank = match rank_text {
            "A" => 1,
            "2" => 2,
            "3" => 3,
            "4" => 4,
            "5" => 5,
            "6" => 6,
            "7" => 7,
            "8" => 8,
            "9" => 9,
            "10" => 10,
            "J" => 11,
            "Q" => 12,
            "K" => 13,
            _ => return Err(unknown()),
        };
        Ok(Card::new(rank, suit))
    }
}

impl Serialize for Card {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Card {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// Shorthand for tests and examples: `card("10H")`. Panics on bad notation, so it is only
/// for literals written by a programmer, never for input.
#[cfg(test)]
pub(crate) fn card(text: &str) -> Card {
    text.parse().expect("test card literal")
}

/// `cards("AS 2S JK")` for tests.
#[cfg(test)]
pub(crate) fn cards(text: &str) -> Cards {
    text.split_whitespace().map(card).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_card_round_trips_through_its_notation() {
        for suit in Suit::ALL {
            for rank in 1..=13 {
                let c = Card::new(rank, suit);
                assert_eq!(c.to_string().parse::<Card>(), Ok(c));
                assert_eq!(c.rank(), rank);
                assert_eq!(c.suit(), Some(suit));
            }
        }
        assert_eq!("JK".parse::<Card>(), Ok(JOKER));
        assert!(JOKER.is_joker());
    }

    #[test]
    fn record_notation_is_upper_case_only() {
        for bad in [
            "10h", "as", "jk", "1H", "11H", "H", "", "AX", "10", "ASS", "😀",
        ] {
            assert!(bad.parse::<Card>().is_err(), "{bad} should be rejected");
        }
    }

    #[test]
    fn card_serializes_as_its_notation() {
        assert_eq!(
            serde_json::to_string(&card("QD")).ok().as_deref(),
            Some("\"QD\"")
        );
        assert_eq!(
            serde_json::from_str::<Card>("\"10C\"").ok(),
            Some(card("10C"))
        );
        assert!(serde_json::from_str::<Card>("\"ZZ\"").is_err());
    }
}
