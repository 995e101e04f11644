//! [`RandomBot`]: a uniformly random legal action, from a seeded generator.
//!
//! - In its turn the actions are the call (when legal), a waterfall, a pile killed
//!   (Fifths Disease) and a throw (`legal_actions().throws`) with a draw (the stock, or
//!   each distinct card `legal_actions().draws_for(throw)` lists). The throw is picked
//!   by reservoir sampling over `for_each_throw`, so nothing is allocated, then its draw,
//!   each with equal probability; the call is as likely as one throw-and-draw pair.
//! - Declarations (going along, Onderkluft): yes or no with probability 1/2 each.
//! - Out of turn: passing, the slap-down (when legal) and every listed add-on, with equal
//!   probability.
//!
//! Same seed, same choices: a game between random bots is reproducible.

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use crate::cards::{Cards, Hand};
use crate::game::{Command, DrawChoice, QueenSwap};

use super::{Bot, BotView};

#[derive(Debug, Clone)]
pub struct RandomBot {
    rng: SmallRng,
}

impl RandomBot {
    pub fn new(seed: u64) -> RandomBot {
        RandomBot {
            rng: SmallRng::seed_from_u64(seed),
        }
    }

    /// Uniform in `0..n` (`n >= 1`).
    fn below(&mut self, n: u32) -> u32 {
        self.rng.random_range(0..n)
    }
}

impl Bot for RandomBot {
    fn act(&mut self, view: &BotView<'_>) -> Option<Command> {
        let seat = view.seat();
        if let Some(declaration) = view.owed_declaration() {
            return Some(declaration.command(seat, self.below(2) == 0));
        }
        let offer = view.waterfall_offer();
        if !offer.is_empty() {
            let card = offer.as_slice()[self.below(offer.len() as u32) as usize];
            return Some(Command::WaterfallPick { seat, card });
        }
        if !view.is_my_turn() {
            return None;
        }
        let mut throws = 0u32;
        let mut throw = Cards::new();
        view.for_each_throw(|t| {
            throws += 1;
            if self.below(throws) == 0 {
                throw = *t;
            }
        });
        // Each card once already (`discard_draws_for`), as the draws must be counted.
        let discard = view.discard_draws_for(&throw);
        let stock = view.can_draw_from_stock();
        let draws = discard.len() as u32 + u32::from(stock);
        let call = view.can_call();
        let actions = throws * draws + u32::from(call);
        // Without bonus rules there is no waterfall, pile to kill or queen to swap: not
        // asking keeps those rules off the commonest turns (the draws are the same).
        let bonus = view.rules().is_some_and(|r| !r.bonus_rules.is_empty());
        let mut waterfalls = 0u32;
        let mut waterfall = Cards::new();
        if bonus {
            view.for_each_waterfall(|w| {
                waterfalls += 1;
                if self.below(waterfalls) == 0 {
                    waterfall = *w;
                }
            });
        }
        // Fifths Disease: each pile it may kill is one more action.
        let kills: Vec<u8> = if bonus {
            view.killable_piles().collect()
        } else {
            Vec::new()
        };
        if !kills.is_empty() {
            let pick = self.below(actions + waterfalls + kills.len() as u32) as usize;
            if let Some(&size) = kills.get(pick) {
                return Some(Command::KillPile { seat, size });
            }
        }
        if actions + waterfalls == 0 {
            return None;
        }
        if waterfalls > 0 && self.below(actions + waterfalls) < waterfalls {
            return Some(Command::Waterfall {
                seat,
                cards: waterfall,
            });
        }
        if call && self.below(actions) == 0 {
            return Some(Command::Call {
                seat,
                call: view.call_kind(),
            });
        }
        let pick = self.below(draws);
        let draw = match (stock, pick) {
            (true, 0) => DrawChoice::Stock,
            (true, n) => DrawChoice::Discard(discard.as_slice()[n as usize - 1]),
            (false, n) => DrawChoice::Discard(discard.as_slice()[n as usize]),
        };
        let gives = if bonus {
            view.queen_gives(&throw)
        } else {
            Hand::new()
        };
        let queen = match gives.as_slice() {
            [] => None,
            cards => {
                let give = cards[self.below(cards.len() as u32) as usize];
                let targets = view.queen_targets().count() as u32;
                let target = view.queen_targets().nth(self.below(targets) as usize)?;
                Some(QueenSwap { target, give })
            }
        };
        Some(Command::play_with_queen(seat, throw, draw, queen))
    }

    fn out_of_turn(&mut self, view: &BotView<'_>) -> Option<Command> {
        let seat = view.seat();
        // Reservoir sampling over "pass", the slap-down and the add-ons.
        let mut options = 1u32;
        let mut chosen = None;
        if let Some(card) = view.slap() {
            options += 1;
            if self.below(options) == 0 {
                let queen = view.default_slap_queen_swap(card);
                chosen = Some(Command::slap_with_queen(seat, card, queen));
            }
        }
        view.for_each_add_on(|cards| {
            options += 1;
            if self.below(options) == 0 {
                chosen = Some(Command::AddOn {
                    seat,
                    cards: *cards,
                });
            }
        });
        chosen
    }
}
