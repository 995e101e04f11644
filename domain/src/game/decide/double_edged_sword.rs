//! Double-edged sword, a House Rules bonus rule: "When a player plays a black 8, all
//! players combine their cards together into a new deck that is then shuffled and
//! re-dealt by the player who played the 8. Deal starts with the player on his or her
//! left. Players may not all have the same number of cards when finished."
//!
//! Our readings (docs/rules.md): a natural black eight in a turn's throw re-deals, once
//! however many it holds; every hand in the round is gathered but a caller's closed
//! hand; the cards are sorted, shuffled from the round's committed seed with a stream
//! of their own (`REDEAL_STREAM + n` for the round's n-th re-deal), and dealt one at a
//! time in seating order from the thrower's left. A round dealt on paper names the new
//! hands instead.

use crate::cards::{Card, Cards, Hand};
use crate::rules::BonusRule;
use crate::shuffle::{ShuffleStream, shuffle_in_place};

use super::super::error::GameError;
use super::super::event::{Event, HandsRedealt, Seat};
use super::super::state::{Game, Stage};

/// The shuffle stream ids of re-deals start above this one (deals use 0, stock
/// reshuffles 1, 2, ..., the player-entropy starter `u32::MAX`).
pub const REDEAL_STREAM: u32 = 0x8000_0000;

impl Game {
    /// Appends the re-deal `seat`'s `throw` causes, after the turn's events
    /// `events[turn..]` (`after`: the game after them, when already folded). `named` are
    /// the new hands a record gives (per seat): required when the round was dealt on
    /// paper, checked against the shuffle otherwise.
    pub(super) fn push_redeal(
        &self,
        seat: Seat,
        throw: &Cards,
        named: &[Hand],
        events: &mut Vec<Event>,
        turn: usize,
        after: Option<Game>,
    ) -> Result<Option<Game>, GameError> {
        let black_eight = throw
            .iter()
            .any(|c| c.rank() == 8 && c.suit_index() % 3 == 0);
        let applies = self
            .rules
            .as_deref()
            .is_some_and(|r| r.has_bonus(BonusRule::DoubleEdgedSword));
        if !applies || !black_eight {
            if !named.is_empty() {
                return Err(GameError::CardNotAvailable(
                    "this throw re-deals nothing: it needs a black eight under the \
                     double_edged_sword rule"
                        .into(),
                ));
            }
            return Ok(after);
        }
        let mut after = after.unwrap_or_else(|| self.folded_with(&events[turn..]));
        let order = self.redeal_order(seat);
        let mut cards: Vec<Card> = order
            .iter()
            .flat_map(|&s| after.round.hands[s as usize].iter())
            .collect();
        cards.sort_unstable();
        let redeal = after.round.redeals + 1;
        let mut hands: Vec<Option<Hand>> = vec![None; self.seat_count()];
        for &s in &order {
            hands[s as usize] = Some(Hand::new());
        }
        match after.round.seed {
            Some(seed) => {
                shuffle_in_place(
                    &mut cards,
                    &mut ShuffleStream::new(&seed, REDEAL_STREAM + redeal),
                );
                for (i, card) in cards.iter().enumerate() {
                    if let Some(Some(hand)) = hands.get_mut(order[i % order.len()] as usize) {
                        hand.push(*card);
                    }
                }
                if !named.is_empty() && !same_hands(named, &hands) {
                    return Err(GameError::CardNotAvailable(
                        "the hands named are not the re-deal the round's seed gives".into(),
                    ));
                }
            }
            None => {
                let given = self.check_named_redeal(named, &order, &cards)?;
                hands = given;
            }
        }
        let event = Event::HandsRedealt(HandsRedealt {
            dealer: seat,
            redeal,
            hands,
        });
        after.apply(&event);
        events.push(event);
        Ok(Some(after))
    }

    /// Who is dealt in a re-deal by `seat`: every seat in the round, in seating order
    /// from `seat`'s left (`seat` last), but a caller whose hand is closed.
    fn redeal_order(&self, seat: Seat) -> Vec<Seat> {
        let closed = match self.round.stage {
            Stage::LastTurns { caller, .. } => Some(caller),
            _ => None,
        };
        let n = self.seat_count() as Seat;
        (1..=n)
            .map(|i| (seat + i) % n)
            .filter(|&s| self.is_active(s) && Some(s) != closed)
            .collect()
    }

    /// The hands a paper record names for a re-deal: exactly the gathered `cards`, each
    /// seat of `order` with as many as dealing one at a time from the first gives.
    fn check_named_redeal(
        &self,
        named: &[Hand],
        order: &[Seat],
        cards: &[Card],
    ) -> Result<Vec<Option<Hand>>, GameError> {
        let refuse = |why: String| Err(GameError::CardNotAvailable(why));
        if named.len() != self.seat_count() {
            return refuse(
                "the round was dealt on paper: the record names every new hand of the re-deal"
                    .into(),
            );
        }
        let mut hands: Vec<Option<Hand>> = vec![None; self.seat_count()];
        let mut given: Vec<Card> = Vec::new();
        for (i, &s) in order.iter().enumerate() {
            let size = cards.len() / order.len() + usize::from(i < cards.len() % order.len());
            let hand = named[s as usize].clone();
            if hand.len() != size {
                return refuse(format!(
                    "seat {s} is dealt {size} cards in the re-deal, not {}",
                    hand.len()
                ));
            }
            given.extend(hand.iter());
            hands[s as usize] = Some(hand);
        }
        if named
            .iter()
            .enumerate()
            .any(|(s, hand)| hands[s].is_none() && !hand.is_empty())
        {
            return refuse("a seat that is not dealt in the re-deal is given cards".into());
        }
        given.sort_unstable();
        if given != cards {
            return refuse("the new hands are not the cards gathered from the old ones".into());
        }
        Ok(hands)
    }
}

/// Whether per-seat hands `named` (empty where not dealt) are `hands`.
fn same_hands(named: &[Hand], hands: &[Option<Hand>]) -> bool {
    named.len() == hands.len()
        && named
            .iter()
            .zip(hands)
            .all(|(n, h)| n.as_slice() == h.as_ref().map_or(&[][..], Hand::as_slice))
}
