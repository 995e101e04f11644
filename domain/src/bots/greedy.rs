//! [`GreedyBot`]: keeps its hand total low. Its only memory is the current round (calls
//! declined, own turns played); its only random choices are the loop breaker below, from a
//! seeded generator, so a seed fixes its play. The heuristics, with the parameters of
//! [`GreedyParams`]:
//!
//! - **Calling.** It calls when the rules accept the call, its total is within the
//!   threshold (never a penalised call above it; without a threshold, at most
//!   `call_without_threshold`, 5), and either its total is at most `call_always_at_most`
//!   (3) or every other hand still in the round holds at least `min_other_hand_len` (3)
//!   cards (few cards in a hand are likely few points). After declining `patience` (2) such
//!   calls in a round it calls at the next chance anyway: otherwise greedy bots all holding one or two
//!   low cards would wait for each other forever. A hand with nothing left to throw calls.
//! - **Throw and draw.** Every pair of a legal throw and a draw is scored by the hand it
//!   leaves: its total, minus `structure_weight` (0.75) times what its best set or run would shed
//!   next turn beyond its highest single card (so a pair or a run kept in hand counts for
//!   the extra points it will shed). A stock card is unknown and counts as the mean card
//!   value of the deck; a discard card counts as itself, so a low card (<= 3 against a mean
//!   near 6) or one that completes a set or a run is drawn from the discard. The lowest
//!   score wins; ties throw more points. In the last turns after a Belgian call there is
//!   no next throw, and the structure weight is 0: only the total counts.
//! - **Loop breaker.** Greedy bots can lock a round: each holds low cards it never throws
//!   plus one high card it swaps every turn, and the stock holds only high cards, so nobody
//!   ever gets within the threshold. After `stuck_after_turns` (40) of its own turns in one
//!   round the bot always draws from the stock, and in one turn out of three throws a
//!   uniformly random legal throw, which sooner or later releases low cards.
//! - **Out of turn.** It always slaps down, and always lays the add-on worth the most points
//!   (both lower its hand), except an add-on in its own turn that would forfeit a call it
//!   is about to make.
//! - **Going along (Belgian).** Going along scores 0 when its hand is at or below the
//!   caller's and 32 otherwise; staying out scores its hand. A caller holds at most the
//!   threshold and usually close to it, so it goes along only with a total of at most
//!   `go_along_at_most` (default 1), where a loss is unlikely.
//! - **Onderkluft.** It challenges with a total of at most `onderkluft_at_most` (default 3):
//!   a win scores 0 instead of its hand and a loss adds 15.

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use crate::cards::{Card, Cards, Hand, Suit};
use crate::combos::for_each_throw;
use crate::game::{Command, DrawChoice, RoundStage};
use crate::rules::{CardValues, Rules};

use super::{Bot, BotView, Declaration, distinct};

/// The knobs of [`GreedyBot`]'s heuristics (see the module docs). The defaults were picked
/// by play: at four-player tables of two bots against two (2,000 games per preset), calling
/// at once at 3 or less and a structure weight of 0.75 won 54-61% of the games against 2
/// and 0.5 in every preset; going along or challenging at up to 0, 1, 2 or 3 points made
/// no measurable difference (3,000 games), at up to 5 it lost (39% and 37%).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GreedyParams {
    /// Highest total it calls with when the rules set no threshold.
    pub call_without_threshold: u32,
    /// Calls at once at or below this total, whatever the others hold.
    pub call_always_at_most: u32,
    /// Otherwise calls only while every other hand in the round has this many cards.
    pub min_other_hand_len: usize,
    /// Weight of the extra points a kept set or run will shed (0: only the total counts).
    pub structure_weight: f32,
    /// Goes along (Belgian) at or below this total.
    pub go_along_at_most: u32,
    /// Challenges a Kluft call at or below this total.
    pub onderkluft_at_most: u32,
    /// Calls it may decline in one round before it calls anyway.
    pub patience: u32,
    /// Own turns in one round after which the loop breaker starts.
    pub stuck_after_turns: u32,
}

impl Default for GreedyParams {
    fn default() -> Self {
        GreedyParams {
            call_without_threshold: 5,
            call_always_at_most: 3,
            min_other_hand_len: 3,
            structure_weight: 0.75,
            go_along_at_most: 1,
            onderkluft_at_most: 3,
            patience: 2,
            stuck_after_turns: 40,
        }
    }
}

#[derive(Debug, Clone)]
pub struct GreedyBot {
    pub params: GreedyParams,
    rng: SmallRng,
    /// The mean card value of the last deck seen: card values and jokers per deck.
    mean_cache: Option<(CardValues, u8, f32)>,
    /// (round number, calls declined in it, own turns in it).
    round: (u32, u32, u32),
}

impl Default for GreedyBot {
    fn default() -> Self {
        GreedyBot::new(GreedyParams::default(), 0)
    }
}

impl GreedyBot {
    /// A greedy bot; `seed` feeds its loop breaker.
    pub fn new(params: GreedyParams, seed: u64) -> GreedyBot {
        GreedyBot {
            params,
            rng: SmallRng::seed_from_u64(seed),
            mean_cache: None,
            round: (0, 0, 0),
        }
    }

    /// Whether to call now, the call being legal; counts a declined chance.
    fn decide_to_call(&mut self, view: &BotView<'_>, rules: &Rules) -> bool {
        if self.wants_to_call(view, rules) {
            return true;
        }
        if !self.within_limit(view, rules) {
            return false;
        }
        self.round_memory(view).1 += 1;
        self.round.1 > self.params.patience
    }

    /// What it remembers of the round in play, reset when a new round starts.
    fn round_memory(&mut self, view: &BotView<'_>) -> &mut (u32, u32, u32) {
        let round = view.round_number();
        if self.round.0 != round {
            self.round = (round, 0, 0);
        }
        &mut self.round
    }

    /// Whether its total allows a call it would make (never above the threshold).
    fn within_limit(&self, view: &BotView<'_>, rules: &Rules) -> bool {
        let limit = rules
            .call_threshold
            .map_or(self.params.call_without_threshold, u32::from);
        view.hand_total() <= limit
    }

    /// Whether to call now by the hands alone, the call being legal.
    fn wants_to_call(&self, view: &BotView<'_>, rules: &Rules) -> bool {
        if view.hand().is_empty() {
            return true;
        }
        if !self.within_limit(view, rules) {
            return false;
        }
        view.hand_total() <= self.params.call_always_at_most
            || (0..view.seat_count() as u8)
                .filter(|&s| s != view.seat() && view.is_active(s))
                .all(|s| view.hand_len(s) >= self.params.min_other_hand_len)
    }

    /// The mean value of a card of the deck: what an unseen stock card is worth.
    fn stock_mean(&mut self, rules: &Rules) -> f32 {
        let key = (rules.card_values, rules.jokers_per_deck);
        if let Some((values, jokers, mean)) = self.mean_cache
            && (values, jokers) == key
        {
            return mean;
        }
        let mut sum = 0u32;
        for suit in Suit::ALL {
            for rank in 1..=13 {
                sum += rules.value(Card::new(rank, suit));
            }
        }
        sum += u32::from(rules.jokers_per_deck) * rules.value(crate::cards::JOKER);
        let mean = sum as f32 / (52 + u32::from(rules.jokers_per_deck)) as f32;
        self.mean_cache = Some((key.0, key.1, mean));
        mean
    }
}

/// A hand's score: its total minus `weight` times what its best set or run would shed
/// beyond its highest single card.
fn score(hand: &Hand, rules: &Rules, weight: f32) -> f32 {
    let total = rules.hand_total(hand.as_slice()) as f32;
    if weight == 0.0 || hand.len() < 2 {
        return total;
    }
    let mut best = 0;
    let mut single = 0;
    for_each_throw(hand.as_slice(), rules, |t| {
        let points = rules.hand_total(t.as_slice());
        best = best.max(points);
        if t.len() == 1 {
            single = single.max(points);
        }
    });
    total - weight * (best - single) as f32
}

impl Bot for GreedyBot {
    fn act(&mut self, view: &BotView<'_>) -> Option<Command> {
        let seat = view.seat();
        if let Some(declaration) = view.owed_declaration() {
            let at_most = match declaration {
                Declaration::GoAlong => self.params.go_along_at_most,
                Declaration::Onderkluft => self.params.onderkluft_at_most,
            };
            return Some(declaration.command(seat, view.hand_total() <= at_most));
        }
        if let Some(card) = view.lowest_of_offer() {
            return Some(Command::WaterfallPick { seat, card });
        }
        if !view.is_my_turn() {
            return None;
        }
        let rules = view.rules()?;
        let can_call = view.can_call();
        let call = Command::Call {
            seat,
            call: view.call_kind(),
        };
        if can_call && self.decide_to_call(view, rules) {
            return Some(call);
        }
        // Waterfall: passing a straight sheds all of it but one card; the one worth most
        // goes.
        let mut waterfall: Option<(u32, Cards)> = None;
        view.for_each_waterfall(|cards| {
            let points = rules.hand_total(cards.as_slice());
            if waterfall.is_none_or(|(best, _)| points > best) {
                waterfall = Some((points, *cards));
            }
        });
        if let Some((_, cards)) = waterfall {
            return Some(Command::Waterfall { seat, cards });
        }
        // Fifths Disease: the five of diamonds goes for free on the largest pile of a
        // size this hand cannot throw now.
        let mut sizes = 0u32;
        view.for_each_throw(|t| sizes |= 1 << t.len().min(31));
        if let Some(size) = view
            .killable_piles()
            .filter(|&s| sizes & 1 << s.min(31) == 0)
            .last()
        {
            return Some(Command::KillPile { seat, size });
        }
        let weight = if view.stage() == RoundStage::LastTurns {
            0.0
        } else {
            self.params.structure_weight
        };
        let mean = self.stock_mean(rules);
        let hand = view.hand();
        let stock = view.can_draw_from_stock();
        let turns = {
            let memory = self.round_memory(view);
            memory.2 += 1;
            memory.2
        };
        let stuck = turns > self.params.stuck_after_turns;
        if stuck && self.rng.random_range(0..3) == 0 {
            let mut seen = 0u32;
            let mut pick = None;
            view.for_each_throw(|t| {
                seen += 1;
                if self.rng.random_range(0..seen) == 0 {
                    pick = Some(*t);
                }
            });
            let draw = |throw: &Cards| match view.discard_draws_for(throw).first() {
                _ if stock => Some(DrawChoice::Stock),
                Some(card) => Some(DrawChoice::Discard(card)),
                None => None,
            };
            if let Some((throw, draw)) = pick.and_then(|t| Some((t, draw(&t)?))) {
                let queen = view.default_queen_swap(&throw);
                return Some(Command::play_with_queen(seat, throw, draw, queen));
            }
        }
        // The discard draws by throw size (they differ only under Cell Division).
        let mut draws_by_size = [None::<Cards>; crate::cards::MAX_CARDS + 1];
        let mut discard_for = |throw: &Cards| -> Cards {
            if stuck && stock {
                return Cards::new();
            }
            let size = throw.len().min(crate::cards::MAX_CARDS);
            *draws_by_size[size].get_or_insert_with(|| distinct(view.discard_draws_for(throw)))
        };
        // (score, points thrown, throw, draw): lowest score, then most points thrown.
        let mut best: Option<(f32, u32, Cards, DrawChoice)> = None;
        let mut consider = |candidate: (f32, u32, Cards, DrawChoice)| {
            let better = match &best {
                None => true,
                Some((s, p, _, _)) => candidate.0 < *s || candidate.0 == *s && candidate.1 > *p,
            };
            if better {
                best = Some(candidate);
            }
        };
        view.for_each_throw(|throw| {
            let mut rest = hand.clone();
            if rest.remove_all(throw.as_slice()).is_err() {
                return;
            }
            let thrown = rules.hand_total(throw.as_slice());
            if stock {
                consider((
                    score(&rest, rules, weight) + mean,
                    thrown,
                    *throw,
                    DrawChoice::Stock,
                ));
            }
            for card in discard_for(throw).iter() {
                let mut after = rest.clone();
                after.push(card);
                consider((
                    score(&after, rules, weight),
                    thrown,
                    *throw,
                    DrawChoice::Discard(card),
                ));
            }
        });
        match best {
            Some((_, _, throw, draw)) => {
                let queen = view.default_queen_swap(&throw);
                Some(Command::play_with_queen(seat, throw, draw, queen))
            }
            None => can_call.then_some(call),
        }
    }

    fn out_of_turn(&mut self, view: &BotView<'_>) -> Option<Command> {
        let seat = view.seat();
        if let Some(card) = view.slap() {
            let queen = view.default_slap_queen_swap(card);
            return Some(Command::slap_with_queen(seat, card, queen));
        }
        let rules = view.rules()?;
        let mut best: Option<(u32, Cards)> = None;
        view.for_each_add_on(|cards| {
            let points = rules.hand_total(cards.as_slice());
            let better = match &best {
                None => true,
                Some((p, c)) => points > *p || points == *p && cards.len() > c.len(),
            };
            if better {
                best = Some((points, *cards));
            }
        });
        let (_, cards) = best?;
        let forfeits_call = view.is_my_turn()
            && !rules.add_ons.call_after_own_add_on
            && view.can_call()
            && self.wants_to_call(view, rules);
        (!forfeits_call).then_some(Command::AddOn { seat, cards })
    }
}
