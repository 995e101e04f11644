//! Dealing a round. From a seed: the deck in canonical order (`cards/deck.rs`) is shuffled
//! with stream 0 of the seed, then dealt from the front one card at a time to each player
//! in the direction of play starting with the round's starter, `hand_size` times around;
//! the next card is turned up, and the rest is the stock with its first card on top.

use crate::cards::{Card, CardCounts, Cards, Deck};
use crate::shuffle::{Seed, ShuffleStream, shuffle_in_place};

use super::event::{MAX_PLAYERS, Seat};

#[derive(Debug, Clone)]
pub(crate) struct Dealt {
    pub hands: [Cards; MAX_PLAYERS],
    pub up_card: Card,
    /// Top of the stock last.
    pub stock: Vec<Card>,
}

/// Deals from `seed` to the seats of `order` (starter first).
pub(crate) fn dealt_from_seed(seed: &Seed, deck: Deck, hand_size: usize, order: &[Seat]) -> Dealt {
    let mut cards = deck.cards();
    shuffle_in_place(&mut cards, &mut ShuffleStream::new(seed, 0));
    let mut hands = [Cards::new(); MAX_PLAYERS];
    let mut next = cards.iter().copied();
    for _ in 0..hand_size {
        for &seat in order {
            if let (Some(card), Some(hand)) = (next.next(), hands.get_mut(seat as usize)) {
                let _ = hand.try_push(card);
            }
        }
    }
    let up_card = next.next().unwrap_or_default();
    let mut stock: Vec<Card> = next.collect();
    stock.reverse();
    Dealt {
        hands,
        up_card,
        stock,
    }
}

/// Checks a deal entered on paper: every active seat holds exactly `hand_size` cards, seats
/// out of the game hold none, and hands plus up card come out of the deck.
pub(crate) fn check_explicit(
    deck: Deck,
    hand_size: usize,
    active: &[bool],
    hands: &[Cards],
    up_card: Card,
) -> Result<(), String> {
    if hands.len() != active.len() {
        return Err(format!(
            "expected hands for {} seats, got {}",
            active.len(),
            hands.len()
        ));
    }
    let mut rest: CardCounts = deck.counts();
    for (seat, (hand, &playing)) in hands.iter().zip(active).enumerate() {
        let expected = if playing { hand_size } else { 0 };
        if hand.len() != expected {
            return Err(format!(
                "seat {seat} must be dealt {expected} cards, got {}",
                hand.len()
            ));
        }
        for card in hand.iter() {
            if !rest.take(card) {
                return Err(format!("{card} is dealt more often than the deck holds it"));
            }
        }
    }
    if !rest.take(up_card) {
        return Err(format!("the up card {up_card} is not left in the deck"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn five_cards_each_then_the_up_card_then_the_stock() {
        // RULES.md common ground: "Each player is dealt 5 cards (one at a time); the next
        // card is turned face up to start the discard pile; the rest is the stock."
        let deck = Deck {
            decks: 1,
            jokers_per_deck: 2,
        };
        let seed = Seed([7; 32]);
        let dealt = dealt_from_seed(&seed, deck, 5, &[2, 0, 1]);
        let mut order = deck.cards();
        shuffle_in_place(&mut order, &mut ShuffleStream::new(&seed, 0));
        // One at a time: the starter (seat 2) gets cards 0, 3, 6, ...
        assert_eq!(
            dealt.hands[2].as_slice(),
            &[order[0], order[3], order[6], order[9], order[12]]
        );
        assert_eq!(
            dealt.hands[0].as_slice(),
            &[order[1], order[4], order[7], order[10], order[13]]
        );
        assert_eq!(dealt.up_card, order[15]);
        assert_eq!(dealt.stock.last(), Some(&order[16]));
        assert_eq!(dealt.stock.len(), 54 - 16);
    }

    #[test]
    fn explicit_deals_must_come_out_of_the_deck() {
        let deck = Deck {
            decks: 1,
            jokers_per_deck: 2,
        };
        let hand: Cards = crate::cards::cards("AS 2S 3S 4S 5S");
        let other: Cards = crate::cards::cards("AH 2H 3H 4H 5H");
        let up = crate::cards::card("9C");
        assert_eq!(
            check_explicit(deck, 5, &[true, true], &[hand, other], up),
            Ok(())
        );
        assert!(check_explicit(deck, 5, &[true, true], &[hand, hand], up).is_err());
        assert!(
            check_explicit(
                deck,
                5,
                &[true, true],
                &[hand, other],
                crate::cards::card("AS")
            )
            .is_err()
        );
        assert!(check_explicit(deck, 5, &[true, false], &[hand, other], up).is_err());
    }
}
