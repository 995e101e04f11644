//! The shapes of what one seat may see ([`SeatView`]) and may do ([`LegalActions`]).
//! How a game fills them in is `view.rs`; bots build the same shapes through
//! `bots::BotView`.

use serde::Serialize;

use crate::cards::{Card, Cards, Hand};
use crate::shuffle::Commitment;

use super::event::Seat;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum RoundStage {
    /// Waiting for a round to be dealt.
    BetweenRounds,
    Playing,
    /// After a Belgian call: the others' last turns.
    LastTurns,
    /// Belgian declarations.
    GoingAlong,
    /// Onderkluft decisions.
    Kluft,
    /// Waterfall: a straight going round the table, each player keeping one card.
    Waterfall,
    Finished,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SeatView {
    pub seat: Seat,
    pub round: u32,
    pub stage: RoundStage,
    /// Who must act now (throw or call, or declare).
    pub to_act: Option<Seat>,
    /// Southern Hemisphere: a nine reversed the direction of play for this round, so
    /// turns pass to the previous seat.
    pub reversed: bool,
    /// Piñata: a card lies aside, face down, for the next player to throw a three.
    pub pinata_aside: bool,
    pub caller: Option<Seat>,
    pub hand: Hand,
    pub hand_total: u32,
    pub hand_sizes: Vec<u8>,
    /// The latest throw, on top of its pile.
    pub top_throw: Cards,
    pub top_thrower: Option<Seat>,
    /// The cards of the latest throw that may be drawn from it.
    pub takeable: Cards,
    /// The discard piles, smallest size first: the one pile of classic rules, or one per
    /// throw size under Cell Division; empty between rounds.
    pub piles: Vec<PileView>,
    pub stock_size: usize,
    pub totals: Vec<u32>,
    pub eliminated: Vec<bool>,
    pub commitment: Option<Commitment>,
    pub legal: LegalActions,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct LegalActions {
    pub call: bool,
    /// A call now would be above the threshold, which these rules accept with a
    /// penalty (Belgian: 32 plus the left neighbour's hand; pagat: the hand plus a
    /// fixed number): legal, but rarely what a player wants.
    pub call_penalised: bool,
    /// Every combination the hand can throw now (a set in any order and a run in either
    /// direction are legal too; these are listed once).
    pub throws: Vec<Cards>,
    pub draw_from_stock: bool,
    /// The discard cards a turn may draw whatever it throws. Under Cell Division
    /// (without Osmosis) that depends on the throw's size: see `discard_draws`.
    pub draw_from_discard: Cards,
    /// Cell Division: per throw size among `throws`, the discard cards a throw of that
    /// many cards may draw; empty under rules with one pile.
    pub discard_draws: Vec<SizeDraws>,
    pub slap: Option<Card>,
    pub add_ons: Vec<Cards>,
    pub go_along: bool,
    pub onderkluft: bool,
    /// Crazy queens: the seats a throw with a queen may target (and give a card of the
    /// hand left after the throw), or the slap-down of `slap` when that queen swaps (a
    /// game whose slap-downs play); empty when the rules or the turn have no swap.
    pub queen_targets: Vec<Seat>,
    /// Waterfall: the straights this seat may pass to its left now, at the beginning of
    /// its turn.
    pub waterfalls: Vec<Cards>,
    /// Waterfall: the cards passed to this seat, of which it keeps one now.
    pub waterfall_pick: Cards,
    /// Fifths Disease: the sizes of the piles this seat may kill now with the five of
    /// diamonds, before its turn.
    pub kill_piles: Vec<u8>,
}

/// One discard pile as everyone sees it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PileView {
    /// How many cards the throws laid on it have (1: the original pile).
    pub size: u8,
    /// Its top throw, bottom first (Fifths Disease: the five of diamonds that killed it).
    pub top: Cards,
    /// The cards of `top` a turn may draw from it.
    pub takeable: Cards,
    /// How many cards lie below the top throw.
    pub below: usize,
    /// Fifths Disease: killed for the rest of the round.
    pub dead: bool,
}

/// Cell Division: what a throw of `size` cards may draw from the piles.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SizeDraws {
    pub size: u8,
    pub cards: Cards,
}

impl LegalActions {
    /// The discard cards a turn throwing `throw` may draw: `draw_from_discard`, or
    /// under Cell Division those listed for the throw's size.
    pub fn draws_for(&self, throw: &Cards) -> Cards {
        if self.discard_draws.is_empty() {
            return self.draw_from_discard;
        }
        self.discard_draws
            .iter()
            .find(|d| d.size as usize == throw.len())
            .map_or_else(Cards::new, |d| d.cards)
    }
}
