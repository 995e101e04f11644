//! The discard piles of a round. Classic rules keep one pile, which the card turned up
//! at the deal starts. The House Rules' Cell Division keeps one per throw size: "When
//! more than one card (set of two, straights, etc.) is first played, a new discard pile
//! is created for that specific amount of cards." Osmosis opens them all to draws and
//! to the cards laid on a throw; Fifths Disease kills one with the five of diamonds.
//!
//! Where a card is drawn from and where cards are laid is never stored in an event: it
//! follows from the state before the event (`pile_choice.rs`).

use crate::cards::{Card, Cards};
use crate::rules::{BonusRule, Rules};

/// One discard pile: the throw on its top and the cards below it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Pile {
    /// How many cards the throws laid on it have: 1 for the original pile (and the only
    /// one of rules without Cell Division, where every throw goes on it).
    pub size: u8,
    /// The throw on top (bottom first), with its slap-downs and add-ons.
    pub top: Cards,
    /// The cards under the top throw, in no particular order.
    pub below: Vec<Card>,
    /// Fifths Disease: a five of diamonds killed it for the rest of the round.
    pub dead: bool,
}

impl Pile {
    fn cards(&self) -> impl Iterator<Item = Card> + '_ {
        self.below.iter().copied().chain(self.top.iter())
    }
}

/// The piles of a round, by size, and which of them holds the latest throw.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Piles {
    piles: Vec<Pile>,
    /// The size of the pile the latest throw (or the up card) lies on.
    latest: u8,
}

impl Piles {
    /// The piles of a round just dealt: the up card alone on the original pile. The
    /// original pile keeps its memory from the round before, which a fresh pile per
    /// round would grow again card by card.
    pub fn deal(&mut self, up_card: Card) {
        let mut below = self
            .piles
            .first_mut()
            .map(|p| std::mem::take(&mut p.below))
            .unwrap_or_default();
        below.clear();
        self.piles.clear();
        self.piles.push(Pile {
            size: 1,
            top: Cards::from_iter([up_card]),
            below,
            dead: false,
        });
        self.latest = 1;
    }

    pub fn get(&self, size: u8) -> Option<&Pile> {
        self.piles.iter().find(|p| p.size == size)
    }

    fn get_mut(&mut self, size: u8) -> Option<&mut Pile> {
        self.piles.iter_mut().find(|p| p.size == size)
    }

    /// Every pile, smallest size first.
    pub fn iter(&self) -> impl Iterator<Item = &Pile> + '_ {
        self.piles.iter()
    }

    /// The piles still in play (not killed), smallest size first.
    pub fn live(&self) -> impl Iterator<Item = &Pile> + '_ {
        self.piles.iter().filter(|p| !p.dead)
    }

    /// The size of the pile holding the latest throw.
    pub fn latest_size(&self) -> u8 {
        self.latest
    }

    /// The latest throw: the top of its pile (empty before a deal; the five of
    /// diamonds once Fifths Disease killed that pile).
    pub fn latest_top(&self) -> Cards {
        self.get(self.latest).map(|p| p.top).unwrap_or_default()
    }

    /// Whether the pile of the latest throw is dead.
    pub fn latest_dead(&self) -> bool {
        self.get(self.latest).is_some_and(|p| p.dead)
    }

    /// `thrown` goes on the pile of `size`, created the first time; the throw it covers
    /// goes below.
    pub fn lay_throw(&mut self, size: u8, thrown: Cards) {
        match self.get_mut(size) {
            Some(pile) => {
                let covered = std::mem::replace(&mut pile.top, thrown);
                pile.below.extend_from_slice(covered.as_slice());
            }
            None => {
                let at = self.piles.partition_point(|p| p.size < size);
                self.piles.insert(
                    at,
                    Pile {
                        size,
                        top: thrown,
                        below: Vec::new(),
                        dead: false,
                    },
                );
            }
        }
        self.latest = size;
    }

    /// Takes `card` off the top throw of the pile of `size`. With `keep_order` the
    /// cards after it close the gap, so a run keeps reading as a run (Osmosis lets the
    /// next player draw from or add to it); games created before that let the last card
    /// take its place ([`GameCreated::pile_tops_keep_order`](super::event::GameCreated)).
    pub fn take(&mut self, size: u8, card: Card, keep_order: bool) {
        if let Some(pile) = self.get_mut(size) {
            if keep_order {
                pile.top.remove_in_order(card);
            } else {
                pile.top.remove(card);
            }
        }
    }

    /// Lays `cards` on the top throw of the pile of `size` (a slap-down or an add-on).
    pub fn lay_on(&mut self, size: u8, cards: &[Card]) {
        if let Some(pile) = self.get_mut(size) {
            let _ = pile.top.try_extend(cards);
        }
    }

    /// Fifths Disease: `five` lies on the pile of `size`, which is dead from now on; its
    /// top throw goes under the five.
    pub fn kill(&mut self, size: u8, five: Card) {
        if let Some(pile) = self.get_mut(size) {
            let covered = std::mem::replace(&mut pile.top, Cards::from_iter([five]));
            pile.below.extend(covered.iter());
            pile.dead = true;
        }
    }

    /// How many cards lie below the top throws of the live piles: what a reshuffle
    /// turns into stock.
    pub fn below_count(&self) -> usize {
        self.live().map(|p| p.below.len()).sum()
    }

    /// [`Piles::below_count`] once a throw lands on the pile of `size`, after the turn
    /// drew a card off the top throw of the pile of `drawn_from`: the top throw it covers
    /// goes below. What `decide` needs to know of the fold, without folding.
    pub fn below_count_after_throw(&self, size: u8, drawn_from: Option<u8>) -> usize {
        let covered = self.get(size).filter(|p| !p.dead).map_or(0, |p| {
            p.top
                .len()
                .saturating_sub(usize::from(drawn_from == Some(size)))
        });
        self.below_count() + covered
    }

    /// Puts every card below the live piles' top throws into `cards` (emptied first),
    /// for a reshuffle, the smallest pile's first. `cards` is the stock just drawn out:
    /// with one pile the two swap buffers, so neither is built again card by card.
    pub fn take_below_into(&mut self, cards: &mut Vec<Card>) {
        cards.clear();
        if let [pile] = self.piles.as_mut_slice() {
            if !pile.dead {
                std::mem::swap(cards, &mut pile.below);
            }
            return;
        }
        for pile in self.piles.iter_mut().filter(|p| !p.dead) {
            cards.append(&mut pile.below);
        }
    }

    /// Every card on every pile, for conservation checks.
    pub fn cards(&self) -> impl Iterator<Item = Card> + '_ {
        self.piles.iter().flat_map(Pile::cards)
    }
}

/// How cards are laid on a throw already made.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Laying {
    /// The thrower's card just drawn.
    Slap,
    /// Another player's cards.
    AddOn,
}

impl Rules {
    /// Whether the round keeps a pile per throw size (Cell Division, and Osmosis, which
    /// needs it).
    pub fn several_piles(&self) -> bool {
        self.has_bonus(BonusRule::CellDivision)
    }

    /// The size of the pile a throw of `thrown` cards goes on.
    pub fn pile_for(&self, thrown: usize) -> u8 {
        if self.several_piles() {
            thrown.min(u8::MAX as usize) as u8
        } else {
            1
        }
    }
}
