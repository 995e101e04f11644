//! Consistency checks on a rule configuration. A configuration that passes can always be
//! dealt and played to the end without the engine getting stuck.

use super::{CallResolution, DeckCount, GameEnd, Reductions, Rules, RulesError, SlapDown};
use crate::cards::MAX_CARDS;

/// Most cards dealt to one player. A dealt hand fits an inline [`Cards`] list (a record's
/// explicit deal is one); forced draws, the piñata and a waterfall may grow it past that,
/// which [`Hand`](crate::cards::Hand) holds.
///
/// [`Cards`]: crate::cards::Cards
pub const MAX_HAND_SIZE: u8 = 10;
const _: () = assert!(MAX_HAND_SIZE as usize <= MAX_CARDS);

fn inconsistent(name: &'static str, message: impl Into<String>) -> RulesError {
    RulesError::Inconsistent {
        name,
        message: message.into(),
    }
}

impl Rules {
    /// Whether a hand can become empty in a round: only cards laid without a draw after
    /// them (a slap-down, an add-on) can take a hand's last card. A turn draws after its
    /// throw, a Crazy queen takes a card for the one it gives, a waterfall's starter
    /// keeps its last card, a re-deal gives every hand at least one card, and the five
    /// of diamonds is never a player's last card.
    pub fn a_hand_can_be_emptied(&self) -> bool {
        self.slap_down != SlapDown::Off || self.add_ons.any()
    }

    pub fn validate(&self) -> Result<(), RulesError> {
        if self.min_players < 2 || self.min_players > self.max_players {
            return Err(inconsistent(
                "min_players",
                "must be at least 2 and at most max_players",
            ));
        }
        if self.max_players > 8 {
            return Err(inconsistent(
                "max_players",
                "at most 8 players sit at a table",
            ));
        }
        if let DeckCount::TwoFromPlayers(from) = self.decks
            && !(2..=8).contains(&from)
        {
            return Err(inconsistent(
                "decks",
                "two_from_players must be between 2 and 8",
            ));
        }
        if self.jokers_per_deck > 2 {
            return Err(inconsistent(
                "jokers_per_deck",
                "a deck has at most 2 jokers",
            ));
        }
        if self.hand_size == 0 || self.hand_size > MAX_HAND_SIZE {
            return Err(inconsistent(
                "hand_size",
                format!("must be between 1 and {MAX_HAND_SIZE}"),
            ));
        }
        for players in self.min_players..=self.max_players {
            let needed = players as usize * self.hand_size as usize + 1;
            let deck = self.deck(players as usize).size();
            if needed >= deck {
                return Err(inconsistent(
                    "hand_size",
                    format!(
                        "{players} players x {} cards and the up card need more than the {deck} cards of the deck",
                        self.hand_size
                    ),
                ));
            }
        }
        if let Some(threshold) = self.call_threshold
            && threshold > 1000
        {
            return Err(inconsistent("call_threshold", "must be at most 1000"));
        }
        if matches!(self.call_resolution, CallResolution::GoAlong { .. })
            && !self.round_ends_on_empty_hand
            && self.a_hand_can_be_emptied()
        {
            // During the last turns after a call nobody may call, so a player whose hand
            // is empty would have no legal action left.
            return Err(inconsistent(
                "round_ends_on_empty_hand",
                "the go_along resolution needs round_ends_on_empty_hand when a slap-down or \
                 an add-on can empty a hand",
            ));
        }
        match &self.reductions {
            Reductions::None => {}
            Reductions::Exact(table) => {
                if table.iter().any(|[from, to]| to >= from) {
                    return Err(inconsistent(
                        "reductions",
                        "each exact reduction must lower the total",
                    ));
                }
            }
            Reductions::MultiplesOf { step, minus } => {
                if *step == 0 || *minus == 0 || minus > step {
                    return Err(inconsistent("reductions", "need 0 < minus <= step"));
                }
            }
        }
        let (GameEnd::Elimination { limit, .. } | GameEnd::LowestWins { limit, .. }) =
            self.game_end;
        if limit == 0 {
            return Err(inconsistent("game_end", "the limit must be positive"));
        }
        if let Some(bonus) = self.successful_call_bonus
            && bonus.calls == 0
        {
            return Err(inconsistent(
                "successful_call_bonus",
                "calls must be at least 1",
            ));
        }
        super::bonus::check(self)?;
        Ok(())
    }
}
