//! Commands: what a player, a referee's record or the server asks of a game. A command is
//! untrusted until [`Game::decide`](super::Game::decide) turns it into events.

use crate::cards::{Card, Cards, Hand};
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
        redealt: Vec<Hand>,
        /// Crazy queens: the thrower's choice when the throw holds a queen: whom to
        /// pass a card and which card. Required then (when the thrower has a card
        /// left to give and someone to give it to), refused otherwise.
        queen: Option<QueenSwap>,
        /// Crazy queens: the card the blind pick took, for a round dealt on paper;
        /// `None` otherwise, like `forced` (a shuffled round's seed decides it).
        queen_taken: Option<Card>,
    },
    Call {
        seat: Seat,
        call: CallKind,
    },
    /// The thrower lays the card just drawn on their throw: "This play is called a
    /// slap-down", so in a game whose slap-downs play
    /// ([`GameCreated::slap_downs_play`](super::event::GameCreated)) the card sets off
    /// the bonus rules as a thrown one does, and the fields below are as in `Play`.
    Slap {
        seat: Seat,
        card: Card,
        forced: Vec<Card>,
        pinata: Option<Card>,
        redealt: Vec<Hand>,
        queen: Option<QueenSwap>,
        queen_taken: Option<Card>,
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
    /// Waterfall: at the beginning of their turn, `seat` passes a straight of as many
    /// cards as there are players to the player on their left.
    Waterfall {
        seat: Seat,
        cards: Cards,
    },
    /// Waterfall: `seat` keeps `card` of the straight passed to them and passes the rest
    /// on to their left.
    WaterfallPick {
        seat: Seat,
        card: Card,
    },
    /// Fifths Disease: before their turn, `seat` lays the five of diamonds on the pile
    /// of `size`-card throws (Cell Division), killing it for the rest of the round.
    KillPile {
        seat: Seat,
        size: u8,
    },
}

impl Command {
    /// A turn that names nothing for the bonus rules: every live turn, and every turn of
    /// a shuffled round, whose stock decides what they take.
    pub fn play(seat: Seat, throw: Cards, draw: DrawChoice) -> Command {
        Command::play_with_queen(seat, throw, draw, None)
    }

    /// A turn whose throw may hold a queen under Crazy queens: [`Command::play`] with
    /// the thrower's choice of `queen`.
    pub fn play_with_queen(
        seat: Seat,
        throw: Cards,
        draw: DrawChoice,
        queen: Option<QueenSwap>,
    ) -> Command {
        Command::Play {
            seat,
            throw,
            draw,
            forced: Vec::new(),
            pinata: None,
            redealt: Vec::new(),
            queen,
            queen_taken: None,
        }
    }
}

impl Command {
    /// A slap-down that names nothing for the bonus rules (live play, or a shuffled
    /// round, whose stock decides what they take).
    pub fn slap(seat: Seat, card: Card) -> Command {
        Command::slap_with_queen(seat, card, None)
    }

    /// A slap-down of a queen under Crazy queens: [`Command::slap`] with the slapper's
    /// choice of `queen`.
    pub fn slap_with_queen(seat: Seat, card: Card, queen: Option<QueenSwap>) -> Command {
        Command::Slap {
            seat,
            card,
            forced: Vec::new(),
            pinata: None,
            redealt: Vec::new(),
            queen,
            queen_taken: None,
        }
    }
}

/// Crazy queens: "The player who played the queen then picks a target player and
/// passes that player a card of their choice from his or her hand".
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct QueenSwap {
    /// The other player who receives `give` and whose hand the blind pick is from.
    pub target: Seat,
    /// A card of the thrower's hand after the throw (not the card the turn draws).
    pub give: Card,
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
