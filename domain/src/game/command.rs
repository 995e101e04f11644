//! Commands: what a player, a referee's record or the server asks of a game. A command is
//! untrusted until [`Game::decide`](super::Game::decide) turns it into events.

use crate::cards::{Card, Cards};
use crate::rules::Rules;
use crate::shuffle::Seed;

use super::event::{CallKind, Seat};

#[derive(Debug, Clone, PartialEq)]
pub enum Command {
    /// Set the table. Only valid on an empty stream.
    Create {
        rules: Rules,
        players: Vec<String>,
        /// Totals before the first round; empty means all zero.
        initial_totals: Vec<u32>,
    },
    /// Deal the next round. `starter` is required for the first round (drawn at random by
    /// whoever deals it); later rounds derive it, and a given one must match.
    Deal {
        starter: Option<Seat>,
        source: DealSource,
    },
    Play {
        seat: Seat,
        throw: Cards,
        draw: DrawChoice,
        /// Sevens: the cards the other players are forced to draw, in the order they
        /// draw them, for a round dealt on paper (its stock has no order to take them
        /// from). Empty otherwise: a shuffled stock decides them, and a list given
        /// anyway must be those cards.
        forced: Vec<Card>,
        /// Piñata: the card a three sets aside, for a round dealt on paper (named when it
        /// is turned over); `None` otherwise, like `forced`.
        pinata: Option<Card>,
        /// Double-edged sword: the new hands (per seat, empty for seats not dealt) when a
        /// black eight re-deals a round dealt on paper; empty otherwise, like `forced`.
        redealt: Vec<Cards>,
    },
    Call {
        seat: Seat,
        call: CallKind,
    },
    Slap {
        seat: Seat,
        card: Card,
    },
    AddOn {
        seat: Seat,
        cards: Cards,
    },
    GoAlong {
        seat: Seat,
        going: bool,
    },
    Onderkluft {
        seat: Seat,
        challenge: bool,
    },
}

impl Command {
    /// A turn that names nothing for the bonus rules: every live turn, and every turn of
    /// a shuffled round, whose stock decides what they take.
    pub fn play(seat: Seat, throw: Cards, draw: DrawChoice) -> Command {
        Command::Play {
            seat,
            throw,
            draw,
            forced: Vec::new(),
            pinata: None,
            redealt: Vec::new(),
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub enum DealSource {
    /// Shuffle the deck from this seed (a fresh random one for every live round).
    Seeded(Seed),
    /// Hands and up card as played on paper; the stock is the rest of the deck.
    Explicit { hands: Vec<Cards>, up_card: Card },
}

/// Where the card of a turn comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DrawChoice {
    /// The top of the stock, unseen (live play).
    Stock,
    /// A named card from the stock (replaying a record): it must be one the stock can hold.
    StockCard(Card),
    /// A card of the previous throw.
    Discard(Card),
}
