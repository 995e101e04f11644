//! Runs: consecutive cards of one suit, thrown ascending or descending.
//!
//! RULES.md interpretation 1: "A joker inside a run stands for the card it replaces; at an
//! end it stands for the card that continues the run in the order thrown." A run is read as
//! a start value and a step of +1 or -1, so every position, joker or not, has a value.
//! Aces are 1, or 14 where the rules let them be high; one run never uses both, so K-A-2
//! is never a run.

use crate::cards::{Card, Suit};
use crate::rules::AceRule;

/// How a run reads: card `i` (in the order thrown) has value `start + step * i`, where
/// values run 1 (ace low) to 13 (king), or 2 to 14 (ace high).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RunShape {
    pub start: u8,
    pub step: i8,
    pub len: u8,
}

impl RunShape {
    /// Reads `cards` (at least 3, at least one natural) as a run, or `None`. When a single
    /// natural card leaves the direction open, ascending is preferred.
    pub fn of(cards: &[Card], ace: AceRule) -> Option<RunShape> {
        if cards.len() < 3 {
            return None;
        }
        let mut naturals = cards.iter().enumerate().filter(|(_, c)| !c.is_joker());
        let (first_at, first) = naturals.next()?;
        if naturals
            .clone()
            .any(|(_, c)| c.suit_index() != first.suit_index())
        {
            return None;
        }
        let second = naturals.next();
        let ace_values: &[u8] = match ace {
            AceRule::Low => &[1],
            AceRule::LowOrHigh => &[1, 14],
        };
        for &ace_value in ace_values {
            let value = |c: Card| if c.rank() == 1 { ace_value } else { c.rank() };
            let steps: &[i8] = match second {
                Some((at, c)) => {
                    let rise = value(*c) as i32 - value(*first) as i32;
                    let span = (at - first_at) as i32;
                    match rise {
                        r if r == span => &[1],
                        r if r == -span => &[-1],
                        _ => continue,
                    }
                }
                None => &[1, -1],
            };
            for &step in steps {
                let start = value(*first) as i32 - step as i32 * first_at as i32;
                let end = start + step as i32 * (cards.len() as i32 - 1);
                let (low, high) = (start.min(end), start.max(end));
                let in_range = if ace_value == 14 {
                    low >= 2 && high <= 14
                } else {
                    low >= 1 && high <= 13 || ace == AceRule::LowOrHigh && low >= 2 && high <= 14
                };
                let fits = in_range
                    && cards.iter().enumerate().all(|(i, &c)| {
                        c.is_joker() || value(c) as i32 == start + step as i32 * i as i32
                    });
                if fits {
                    return Some(RunShape {
                        start: start as u8,
                        step,
                        len: cards.len() as u8,
                    });
                }
            }
        }
        None
    }

    /// The value at position `i` of the run.
    pub fn value_at(self, i: usize) -> u8 {
        (self.start as i32 + self.step as i32 * i as i32) as u8
    }

    /// The card a joker at position `i` stands for, given the run's suit.
    pub fn card_at(self, i: usize, suit: Suit) -> Card {
        let value = self.value_at(i);
        Card::new(if value == 14 { 1 } else { value }, suit)
    }
}

/// The suit of a run: that of its natural cards.
pub fn run_suit(cards: &[Card]) -> Option<Suit> {
    cards.iter().find_map(|c| c.suit())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::{card, cards};

    #[test]
    fn a_joker_inside_a_run_stands_for_the_card_it_replaces() {
        // RULES.md interpretation 1; pagat's example 4-5-Joker-7.
        let run = cards("4D 5D JK 7D");
        let shape = RunShape::of(run.as_slice(), AceRule::Low).expect("a run");
        assert_eq!(shape.card_at(2, Suit::Diamonds), card("6D"));
    }

    #[test]
    fn a_joker_at_an_end_continues_the_run_in_the_order_thrown() {
        // RULES.md interpretation 1: "at an end it stands for the card that continues the run
        // in the order thrown". Joker-8-9 (pagat) has the joker as the 7.
        let shape = RunShape::of(cards("JK 8C 9C").as_slice(), AceRule::Low).expect("a run");
        assert_eq!(shape.card_at(0, Suit::Clubs), card("7C"));
        let shape = RunShape::of(cards("9C 8C JK").as_slice(), AceRule::Low).expect("a run");
        assert_eq!(shape.card_at(2, Suit::Clubs), card("7C"));
        let shape = RunShape::of(cards("8C 9C JK").as_slice(), AceRule::Low).expect("a run");
        assert_eq!(shape.card_at(2, Suit::Clubs), card("10C"));
    }

    #[test]
    fn one_natural_card_reads_ascending_when_it_can() {
        let shape = RunShape::of(cards("5H JK JK").as_slice(), AceRule::Low).expect("a run");
        assert_eq!((shape.start, shape.step), (5, 1));
        let shape = RunShape::of(cards("QH JK JK").as_slice(), AceRule::Low).expect("a run");
        assert_eq!((shape.start, shape.step), (12, -1));
    }

    #[test]
    fn jokers_may_stand_for_a_high_ace_only_where_aces_are_high() {
        assert!(RunShape::of(cards("QH KH JK").as_slice(), AceRule::Low).is_none());
        let shape = RunShape::of(cards("QH KH JK").as_slice(), AceRule::LowOrHigh).expect("Q-K-A");
        assert_eq!(shape.card_at(2, Suit::Hearts), card("AH"));
    }

    #[test]
    fn a_run_never_wraps_around_the_ace() {
        assert!(RunShape::of(cards("KH AH 2H").as_slice(), AceRule::LowOrHigh).is_none());
        assert!(RunShape::of(cards("KH JK 2H").as_slice(), AceRule::LowOrHigh).is_none());
    }
}
