//! What one seat may see: its own hand, the others' hand sizes, the throw on top of the
//! pile and which of its cards may be drawn, the stock size, totals, whose turn it is, and
//! which actions are legal for this seat now. Nothing else: no other hand, no stock card,
//! no seed before the round is over.

use crate::cards::{Card, Cards};
use crate::combos::{for_each_throw, takeable};
use crate::rules::{CallResolution, OverThresholdCall};

use super::event::Seat;
use super::piles::Laying;
use super::seat_view::{LegalActions, PileView, RoundStage, SeatView, SizeDraws};
use super::state::{Game, Stage};

impl Game {
    /// The view of `seat`; `None` for a seat that does not exist.
    pub fn view(&self, seat: Seat) -> Option<SeatView> {
        let rules = self.rules.as_deref()?;
        if seat as usize >= self.seat_count() {
            return None;
        }
        let round = &self.round;
        let stage = self.round_stage();
        let hand = self.hand(seat);
        let n = self.seat_count();
        Some(SeatView {
            seat,
            round: round.number,
            stage,
            to_act: self.to_act(),
            reversed: round.reversed,
            pinata_aside: round.pinata.is_some(),
            caller: self.closed_caller_public(),
            hand: hand.clone(),
            hand_total: rules.hand_total(hand.as_slice()),
            hand_sizes: round.hands[..n].iter().map(|h| h.len() as u8).collect(),
            top_throw: self.top_throw(),
            top_thrower: round.top_thrower,
            takeable: self.latest_takeable(),
            piles: self.pile_views(),
            stock_size: round.stock.len(),
            totals: self.totals().to_vec(),
            eliminated: (0..n as Seat).map(|s| !self.is_active(s)).collect(),
            commitment: round.commitment,
            legal: self.legal_actions(seat),
        })
    }

    /// The stage of the round, as every seat sees it ([`SeatView::stage`]).
    pub fn round_stage(&self) -> RoundStage {
        if self.finished.is_some() {
            RoundStage::Finished
        } else if !self.round.in_progress {
            RoundStage::BetweenRounds
        } else {
            match self.round.stage {
                Stage::Playing => RoundStage::Playing,
                Stage::LastTurns { .. } => RoundStage::LastTurns,
                Stage::GoingAlong { .. } => RoundStage::GoingAlong,
                Stage::Kluft { .. } => RoundStage::Kluft,
                Stage::Waterfall { .. } => RoundStage::Waterfall,
            }
        }
    }

    /// Who threw the top throw ([`SeatView::top_thrower`]); `None` for the card turned up
    /// at the deal.
    pub fn top_thrower(&self) -> Option<Seat> {
        self.round.top_thrower
    }

    /// The card the last thrower drew, while they may still slap it down (that seat's
    /// information only).
    pub(crate) fn slap_card(&self) -> Option<Card> {
        self.round.slap_card
    }

    /// The caller whose hand is closed while the others finish the round
    /// ([`SeatView::caller`]).
    pub(crate) fn closed_caller_public(&self) -> Option<Seat> {
        match self.round.stage {
            _ if !self.round.in_progress => None,
            Stage::Playing | Stage::Waterfall { .. } => None,
            Stage::LastTurns { caller, .. }
            | Stage::GoingAlong { caller, .. }
            | Stage::Kluft { caller, .. } => Some(caller),
        }
    }

    /// The actions `seat` may take now. Every listed action is accepted by `decide`.
    pub fn legal_actions(&self, seat: Seat) -> LegalActions {
        let mut legal = LegalActions::default();
        let Some(rules) = self.rules.as_deref() else {
            return legal;
        };
        if !self.round.in_progress || self.finished.is_some() || !self.is_active(seat) {
            return legal;
        }
        let round = &self.round;
        let hand = &round.hands[seat as usize];
        let my_turn = round.turn == seat;
        match round.stage {
            Stage::Playing | Stage::LastTurns { .. } if my_turn => {
                if !hand.is_empty() {
                    self.for_each_playable_throw(seat, |t| legal.throws.push(*t));
                    legal.draw_from_stock = !round.stock.is_empty();
                    legal.draw_from_discard = self.draws_whatever_the_throw();
                    legal.discard_draws = self.draws_by_size(&legal.throws);
                    if rules.has_bonus(crate::rules::BonusRule::CrazyQueens) {
                        legal.queen_targets = self.queen_targets(seat).collect();
                    }
                }
                self.for_each_waterfall(seat, |w| legal.waterfalls.push(*w));
                legal.kill_piles = self.killable_piles(seat).collect();
                if round.stage == Stage::Playing {
                    let calls = rules.call_resolution_kind();
                    legal.call = self.call_allowed(seat, calls);
                    legal.call_penalised = legal.call && !self.call_within_threshold(seat);
                }
            }
            Stage::GoingAlong { next, .. } => legal.go_along = next == seat,
            Stage::Kluft { next, .. } => legal.onderkluft = next == seat,
            Stage::Waterfall { next, left, .. } if next == seat => legal.waterfall_pick = left,
            _ => {}
        }
        if self.window_open() {
            if round.top_thrower == Some(seat) {
                legal.slap = round.slap_card.filter(|&c| {
                    rules.slap_down != crate::rules::SlapDown::Off
                        && self.lay_target(&[c], Laying::Slap).is_some()
                });
                // A slapped queen swaps as a thrown one does, where slap-downs play.
                if legal.slap.is_some_and(|c| self.slap_swaps_queens(c)) {
                    legal.queen_targets = self.queen_targets(seat).collect();
                }
            } else {
                // Only the subsets that can fit are tried: every subset of a hand of 16
                // would be 65,535, and hands grow past that under Sevens (the property
                // tests keep the all-subsets reference).
                self.for_each_add_on(seat, |a| legal.add_ons.push(*a));
            }
        }
        legal
    }

    /// The piles as everyone sees them ([`SeatView::piles`]).
    pub fn pile_views(&self) -> Vec<PileView> {
        let Some(rules) = self.rules.as_deref().filter(|_| self.round.in_progress) else {
            return Vec::new();
        };
        self.round
            .piles
            .iter()
            .map(|p| PileView {
                size: p.size,
                top: p.top,
                takeable: if p.dead {
                    Cards::new()
                } else {
                    takeable(&p.top, rules)
                },
                below: p.below.len(),
                dead: p.dead,
            })
            .collect()
    }

    /// Every throw `seat` may make now, as [`for_each_throw`] lists them, less those
    /// whose pile is dead or that would leave nothing to draw.
    pub(crate) fn for_each_playable_throw(&self, seat: Seat, mut found: impl FnMut(&Cards)) {
        let Some(rules) = self.rules.as_deref() else {
            return;
        };
        let hand = self.hand(seat);
        if !rules.several_piles() {
            // One pile, whose top always holds a card to draw: every throw is playable.
            for_each_throw(hand.as_slice(), rules, found);
            return;
        }
        let mut playable = [None::<bool>; crate::cards::MAX_CARDS + 1];
        for_each_throw(hand.as_slice(), rules, |t| {
            let size = t.len().min(crate::cards::MAX_CARDS);
            if *playable[size].get_or_insert_with(|| self.throw_size_playable(size)) {
                found(t);
            }
        });
    }

    /// [`LegalActions::draw_from_discard`]: under Cell Division without Osmosis, none.
    pub(crate) fn draws_whatever_the_throw(&self) -> Cards {
        let several_own = self
            .rules
            .as_deref()
            .is_some_and(|r| r.several_piles() && !r.has_bonus(crate::rules::BonusRule::Osmosis));
        if several_own {
            Cards::new()
        } else {
            self.discard_draws(1)
        }
    }

    /// [`LegalActions::discard_draws`]: per size among `throws`, in increasing size.
    pub(crate) fn draws_by_size(&self, throws: &[Cards]) -> Vec<SizeDraws> {
        if !self.rules.as_deref().is_some_and(|r| r.several_piles()) {
            return Vec::new();
        }
        let mut sizes: Vec<usize> = throws.iter().map(Cards::len).collect();
        sizes.sort_unstable();
        sizes.dedup();
        sizes
            .into_iter()
            .map(|size| SizeDraws {
                size: size as u8,
                cards: self.discard_draws(size),
            })
            .collect()
    }

    /// The seat may add on at all now (whose turn it is, closed caller), cards aside.
    pub(crate) fn decide_add_on_possible(&self, seat: Seat) -> bool {
        let Some(rules) = self.rules.as_deref() else {
            return false;
        };
        let caller_closed = matches!(
            self.round.stage,
            Stage::LastTurns { caller, .. } | Stage::GoingAlong { caller, .. } | Stage::Kluft { caller, .. } if caller == seat
        );
        let own_turn = seat == self.round.turn
            && matches!(self.round.stage, Stage::Playing | Stage::LastTurns { .. });
        !caller_closed && (!own_turn || rules.add_ons.in_own_turn)
    }
}

impl crate::rules::Rules {
    /// The word a call uses under these rules.
    pub fn call_resolution_kind(&self) -> super::CallKind {
        match self.call_resolution {
            CallResolution::Kluft { .. } => super::CallKind::Kluft,
            _ => super::CallKind::Yaniv,
        }
    }

    /// Whether a call above the threshold is accepted (with its penalty).
    pub fn allows_call_over_threshold(&self) -> bool {
        self.over_threshold_call != OverThresholdCall::Refused
    }
}
