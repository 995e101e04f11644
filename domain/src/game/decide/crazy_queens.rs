//! Crazy queens, a House Rules bonus rule: "When a queen is played, all other players
//! put their cards face down on the table without re-shuffling. The player who played
//! the queen then picks a target player and passes that player a card of their choice
//! from his or her hand and blindly picks one of the cards out from their hand. Everyone
//! may then pick up their hands and the player begins their normal turn."
//!
//! Our readings (docs/rules.md): a turn's throw holding a natural queen swaps once,
//! however many queens it holds, between the throw and the draw: the thrower names the
//! target (another player in the round, not a caller whose hand is closed) and a card
//! left in their hand after the throw; the blind pick is from the target's hand as it
//! was laid face down, before the gift arrives. The face-down order is the target's
//! cards sorted, then shuffled from the round's committed seed with a stream of their
//! own (`QUEEN_STREAM + n` for the round's n-th swap); the pick is its first card, so
//! neither player can steer it. A round dealt on paper names the card taken instead.
//! With no card left after the throw, or nobody to target, the queen swaps nothing.

use crate::cards::{Card, Cards};
use crate::rules::BonusRule;
use crate::shuffle::{ShuffleStream, shuffle_in_place};

use super::super::command::QueenSwap;
use super::super::error::GameError;
use super::super::event::{Event, QueenSwapped, Seat};
use super::super::state::Game;

/// The shuffle stream ids of Crazy queens' blind picks start above this one (deals use
/// 0, stock reshuffles 1, 2, ..., re-deals `REDEAL_STREAM + n`, the player-entropy
/// starter `u32::MAX`).
pub const QUEEN_STREAM: u32 = 0x4000_0000;

fn refuse<T>(why: impl Into<String>) -> Result<T, GameError> {
    Err(GameError::QueenSwapNotAllowed(why.into()))
}

impl Game {
    /// Whether `throw` makes its thrower swap under Crazy queens (in these rules).
    pub fn throw_swaps_queens(&self, throw: &Cards) -> bool {
        self.rules
            .as_deref()
            .is_some_and(|r| r.has_bonus(BonusRule::CrazyQueens))
            && throw.iter().any(|c| !c.is_joker() && c.rank() == 12)
    }

    /// Whether slapping `card` down makes its player swap under Crazy queens: in a
    /// game whose slap-downs play, as a throw of that card would.
    pub fn slap_swaps_queens(&self, card: Card) -> bool {
        self.slap_downs_play && self.throw_swaps_queens(&std::iter::once(card).collect())
    }

    /// The seats `seat` may target with a queen: every other seat in the round but a
    /// caller whose hand is closed, in seating order from `seat`'s left.
    pub fn queen_targets(&self, seat: Seat) -> impl Iterator<Item = Seat> + '_ {
        let n = self.seat_count() as Seat;
        let closed = self.closed_caller();
        (1..n)
            .map(move |i| (seat + i) % n)
            .filter(move |&s| self.is_active(s) && Some(s) != closed)
            .filter(move |&s| !self.round.hands[s as usize].is_empty())
    }

    /// Appends the swap `seat`'s `throw` makes, right after the turn's events
    /// `events[turn..]` (its draw and the reshuffle that may follow). `swap` is the
    /// thrower's choice; `named` the card taken as a paper record gives it (required
    /// for a round dealt on paper, checked against the seed otherwise).
    pub(super) fn push_queen_swap(
        &self,
        seat: Seat,
        throw: &Cards,
        swap: Option<QueenSwap>,
        named: Option<Card>,
        events: &mut Vec<Event>,
        turn: usize,
    ) -> Result<Option<Game>, GameError> {
        let mut left = self.round.hands[seat as usize].clone();
        let _ = left.remove_all(throw.as_slice());
        let applies = self.throw_swaps_queens(throw);
        let possible = applies && !left.is_empty() && self.queen_targets(seat).next().is_some();
        let swap = match (swap, possible) {
            (Some(swap), true) => swap,
            (None, true) => {
                return refuse(
                    "a throw with a queen under crazy_queens names whom to pass a card and \
                     which card (\"queen\": {\"target\": seat, \"give\": card})",
                );
            }
            (None, false) if named.is_none() => return Ok(None),
            (_, false) => {
                return refuse(if !applies {
                    "this throw swaps nothing: it needs a queen under crazy_queens"
                } else if left.is_empty() {
                    "this throw leaves no card to give: the queen swaps nothing"
                } else {
                    "nobody can be targeted: the queen swaps nothing"
                });
            }
        };
        if !self.queen_targets(seat).any(|s| s == swap.target) {
            return refuse(if swap.target == seat {
                "the target is another player".to_owned()
            } else {
                format!(
                    "seat {} cannot be targeted: it is not a player in the round with an open hand",
                    swap.target
                )
            });
        }
        if !left.contains(swap.give) {
            return refuse(format!(
                "{} is not a card you hold after the throw, so you cannot give it",
                swap.give
            ));
        }
        let mut after = self.folded_with(&events[turn..]);
        let number = after.round.queen_swaps + 1;
        let face_down = &after.round.hands[swap.target as usize];
        let taken = match after.round.seed {
            Some(seed) => {
                let mut order: Vec<Card> = face_down.iter().collect();
                order.sort_unstable();
                shuffle_in_place(
                    &mut order,
                    &mut ShuffleStream::new(&seed, QUEEN_STREAM + number),
                );
                let picked = order[0];
                if named.is_some_and(|card| card != picked) {
                    return refuse(
                        "the card named as taken is not the blind pick the round's seed gives",
                    );
                }
                picked
            }
            None => match named {
                Some(card) if face_down.contains(card) => card,
                Some(card) => {
                    return refuse(format!(
                        "{card} is not in seat {}'s hand to be taken",
                        swap.target
                    ));
                }
                None => {
                    return refuse(
                        "the round was dealt on paper: the record names the card the blind \
                         pick took (\"queen\": {\"take\": card})",
                    );
                }
            },
        };
        let event = Event::QueenSwapped(QueenSwapped {
            seat,
            target: swap.target,
            swap: number,
            given: swap.give,
            taken,
        });
        after.apply(&event);
        events.push(event);
        Ok(Some(after))
    }
}
