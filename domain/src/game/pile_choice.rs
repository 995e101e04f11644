//! Which pile a draw comes from and which pile cards are laid on: never stored in an
//! event, it follows from the state before the event, by [`Game::discard_source`] and
//! [`Game::lay_target`], which `decide` and the fold both call.

use crate::cards::{Card, Cards};
use crate::combos::{add_on_fits, joker_swap_allowed, slap_fits, takeable};
use crate::rules::{BonusRule, Rules};

use super::piles::{Laying, Pile};
use super::state::Game;

impl Game {
    /// The piles a turn that throws `thrown` cards may draw from, smallest first: the
    /// only pile of classic rules; under Cell Division the previous throw of the same
    /// size ("She can then draw a 6 from that pile", figure 7d); under Osmosis every
    /// live pile ("any player can draw from ... any pile").
    pub(crate) fn draw_piles(&self, thrown: usize) -> impl Iterator<Item = &Pile> {
        let rules = self.rules.as_deref();
        let several = rules.is_some_and(Rules::several_piles);
        let osmosis = rules.is_some_and(|r| r.has_bonus(BonusRule::Osmosis));
        let size = rules.map_or(1, |r| r.pile_for(thrown));
        self.round
            .piles
            .live()
            .filter(move |p| !several || osmosis || p.size == size)
    }

    /// The pile a turn throwing `throw` draws `card` from: the first of
    /// [`Game::draw_piles`] whose top throw offers it (a joker by the joker swap
    /// included). `None` when none does.
    pub(crate) fn discard_source(&self, card: Card, throw: &Cards) -> Option<u8> {
        let rules = self.rules.as_deref()?;
        let offers = |p: &Pile| {
            takeable(&p.top, rules).contains(card)
                || card.is_joker()
                    && p.top.contains(card)
                    && joker_swap_allowed(&p.top, throw.as_slice(), rules)
        };
        if !rules.several_piles() {
            // One pile, asked directly: every turn that draws from the discard asks.
            return self
                .round
                .piles
                .live()
                .next()
                .filter(|p| offers(p))
                .map(|p| p.size);
        }
        self.draw_piles(throw.len())
            .find(|p| offers(p))
            .map(|p| p.size)
    }

    /// The cards of the latest throw that may be drawn from it (none from a dead pile,
    /// or between rounds).
    pub fn latest_takeable(&self) -> Cards {
        match self.rules.as_deref() {
            Some(rules) if self.round.in_progress && !self.round.piles.latest_dead() => {
                takeable(&self.round.piles.latest_top(), rules)
            }
            _ => Cards::new(),
        }
    }

    /// The cards a turn throwing `thrown` cards may draw from the piles, each once
    /// (the joker swap aside, which depends on the throw itself).
    pub(crate) fn discard_draws(&self, thrown: usize) -> Cards {
        let mut draws = Cards::new();
        let Some(rules) = self.rules.as_deref() else {
            return draws;
        };
        if !rules.several_piles() {
            // The one pile every turn draws from, asked directly, as this runs every turn;
            // its offer has a card twice only with two decks.
            return self
                .round
                .piles
                .live()
                .next()
                .map(|pile| each_once(takeable(&pile.top, rules)))
                .unwrap_or_default();
        }
        for pile in self.draw_piles(thrown) {
            for card in takeable(&pile.top, rules).iter() {
                if !draws.contains(card) {
                    let _ = draws.try_push(card);
                }
            }
        }
        draws
    }

    /// The piles cards may be laid on now, in the order [`Game::lay_target`] tries them:
    /// the latest throw's, then (Osmosis: "any player can ... add-on, and slap-down on
    /// any pile") the other live piles, smallest first.
    pub(crate) fn lay_piles(&self) -> impl Iterator<Item = &Pile> {
        let piles = &self.round.piles;
        let latest = piles.latest_size();
        let osmosis = self
            .rules
            .as_deref()
            .is_some_and(|r| r.has_bonus(BonusRule::Osmosis));
        piles
            .get(latest)
            .filter(|p| !p.dead)
            .into_iter()
            .chain(piles.live().filter(move |p| osmosis && p.size != latest))
    }

    /// Where the fold takes a drawn card from and lays laid cards: only Osmosis leaves
    /// a choice, which [`Game::discard_source`] and [`Game::lay_target`] make; the
    /// other rules have one pile to draw from (`pile_for` the throw) and lay on (the
    /// latest), which the fold, trusting its events, takes without checking them.
    pub(crate) fn osmosis(&self) -> bool {
        self.rules
            .as_deref()
            .is_some_and(|r| r.has_bonus(BonusRule::Osmosis))
    }

    /// The pile `cards` are laid on, as a slap-down or an add-on: the first of
    /// [`Game::lay_piles`] whose top throw they fit. `None` when none does.
    pub(crate) fn lay_target(&self, cards: &[Card], laying: Laying) -> Option<u8> {
        let rules = self.rules.as_deref()?;
        self.lay_piles()
            .find(|p| match (laying, cards) {
                (Laying::Slap, [card]) => slap_fits(&p.top, *card, rules),
                (Laying::Slap, _) => false,
                (Laying::AddOn, _) => add_on_fits(&p.top, cards, rules),
            })
            .map(|p| p.size)
    }

    /// Whether a throw of `thrown` cards may be made now: its pile is not dead (Fifths
    /// Disease: "players can no longer play on it") and the turn has a card to draw.
    pub(crate) fn throw_size_playable(&self, thrown: usize) -> bool {
        let Some(rules) = self.rules.as_deref() else {
            return false;
        };
        let dead = self
            .round
            .piles
            .get(rules.pile_for(thrown))
            .is_some_and(|p| p.dead);
        !dead && (!self.round.stock.is_empty() || !self.discard_draws(thrown).is_empty())
    }
}

/// `cards` with each card once, in the order of their first copies. A list with no
/// copy (every list of one deck) is answered as it is, without being rebuilt.
pub(crate) fn each_once(cards: Cards) -> Cards {
    let slice = cards.as_slice();
    if (1..slice.len()).all(|i| !slice[..i].contains(&slice[i])) {
        return cards;
    }
    let mut once = Cards::new();
    for card in cards.iter() {
        if !once.contains(card) {
            let _ = once.try_push(card);
        }
    }
    once
}
