//! What can be asked of a table, and what a decision needs from outside its stream.

use crate::cards::{Card, Cards};
use crate::game::{CallKind, Command as GameCommand, DrawChoice, QueenSwap, Seat};
use crate::rules::{RuleSpec, Rules};
use crate::shuffle::{Contribution, Seed};

use super::clock::Clock;
use super::event::{AccountRef, BotKindName, TournamentLink};

#[derive(Debug, Clone, PartialEq)]
pub enum TableCommand {
    /// A new table: rules, seats, bot seats. Nobody sits yet but the bots.
    Create(NewTable),
    /// A tournament's table: every seat taken by the drawn players in the drawn order,
    /// started and dealt at once.
    OpenSeated(SeatedTable),
    /// Take a seat before the start: the one named, or the first free one.
    Join { seat: Option<Seat> },
    /// Give the seat back before the start.
    Leave,
    /// Begin the game once every human seat is taken (the creator or an organizer).
    Start,
    /// A seated player's move in the game.
    Act(Action),
    /// The server measured that the table has waited `waited_ms` since its last
    /// event: a timeout, if the clock's time for what it waits on has run out.
    TimeOut { waited_ms: u64 },
}

/// A new table as asked for.
#[derive(Debug, Clone, PartialEq)]
pub struct NewTable {
    pub rules: RuleSpec,
    /// 2 to 8, within what the rules seat.
    pub seats: u8,
    /// Seats played by bots, each at most once; at least one seat stays for a human.
    pub bots: Vec<(Seat, BotKindName)>,
    /// The table's clock; none waits for its players forever.
    pub clock: Option<Clock>,
    /// Deal seeds mix the server's committed seed with the players' contributions.
    pub player_entropy: bool,
    /// The finished game counts towards the rating list; only an organizer may ask.
    pub rated: bool,
}

/// A tournament's table as its draw seats it.
#[derive(Debug, Clone, PartialEq)]
pub struct SeatedTable {
    pub link: TournamentLink,
    /// The tournament's rules, as asked and as resolved when it was created.
    pub rules: RuleSpec,
    pub effective_rules: Rules,
    /// The players in seat order.
    pub players: Vec<AccountRef>,
    /// The tournament's clock for its online tables.
    pub clock: Option<Clock>,
    /// The tournament's choice of player entropy for its online tables.
    pub player_entropy: bool,
    /// Asked for by whoever opens the table; always refused
    /// ([`super::TableError::RatedByTournament`]): the tournament's config rates its
    /// games, one table cannot opt in or out of it.
    pub rated: bool,
}

/// A move of the caller's seat. The seat is not part of it: it is wherever the caller
/// sits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    /// Throw a combination, then draw: the top of the stock unseen, or a card of the
    /// previous throw; with the swap a queen makes under Crazy queens.
    Play {
        throw: Cards,
        draw: DrawChoice,
        queen: Option<QueenSwap>,
    },
    /// Call (Yaniv, or Kluft under Kluft rules); the rules' own word when `None`.
    Call(Option<CallKind>),
    /// The thrower lays the card just drawn onto their throw; with the swap a slapped
    /// queen makes under Crazy queens, in a game whose slap-downs play.
    Slap {
        card: Card,
        queen: Option<QueenSwap>,
    },
    /// Cards laid onto another player's throw, out of turn.
    AddOn(Cards),
    /// Belgian: going along with the call or not.
    GoAlong(bool),
    /// Kluft: challenging the call or not.
    Onderkluft(bool),
    /// Waterfall: at the beginning of the turn, pass this straight to the left.
    Waterfall(Cards),
    /// Waterfall: keep this card of those passed, pass the rest on.
    WaterfallPick(Card),
    /// Fifths Disease: before the turn, kill the pile of throws of this many cards.
    KillPile(u8),
    /// Nothing to lay in the held out-of-turn window.
    Pass,
    /// The player of an absent seat is back.
    Return,
    /// The seat's 32 bytes for the next deal's seed (player entropy).
    Contribute(Contribution),
}

impl Action {
    /// The game's command for `seat`; `default_call` is what the rules call. `None` for
    /// what only the table's clock knows ([`Action::Pass`], [`Action::Return`]).
    pub fn command(self, seat: Seat, default_call: CallKind) -> Option<GameCommand> {
        Some(match self {
            Self::Play { throw, draw, queen } => {
                GameCommand::play_with_queen(seat, throw, draw, queen)
            }
            Self::Call(call) => GameCommand::Call {
                seat,
                call: call.unwrap_or(default_call),
            },
            Self::Slap { card, queen } => GameCommand::slap_with_queen(seat, card, queen),
            Self::AddOn(cards) => GameCommand::AddOn { seat, cards },
            Self::GoAlong(going) => GameCommand::GoAlong { seat, going },
            Self::Onderkluft(challenge) => GameCommand::Onderkluft { seat, challenge },
            Self::Waterfall(cards) => GameCommand::Waterfall { seat, cards },
            Self::WaterfallPick(card) => GameCommand::WaterfallPick { seat, card },
            Self::KillPile(size) => GameCommand::KillPile { seat, size },
            Self::Pass | Self::Return | Self::Contribute(_) => return None,
        })
    }
}

/// Who sends a command to a table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Actor {
    pub account_id: i64,
    pub username: String,
    /// Organizers (and admins) may start any table.
    pub organizer: bool,
}

/// Where a table's randomness comes from: deal seeds, the first starter, the bots'
/// seeds. A server reads its operating system's generator; a test gives fixed bytes.
pub trait Randomness {
    /// Fills `bytes` with unpredictable bytes, or says why it cannot.
    fn fill(&mut self, bytes: &mut [u8]) -> Result<(), String>;
}

/// What a table's decision needs from outside its stream.
pub struct TableServices<'s> {
    pub actor: &'s Actor,
    pub random: &'s mut dyn Randomness,
}

impl std::fmt::Debug for TableServices<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TableServices")
            .field("actor", &self.actor)
            .finish_non_exhaustive()
    }
}

impl TableServices<'_> {
    /// A fresh 32-byte deal seed.
    pub fn seed(&mut self) -> Result<Seed, String> {
        let mut bytes = [0u8; 32];
        self.random.fill(&mut bytes)?;
        Ok(Seed(bytes))
    }

    pub fn next_u64(&mut self) -> Result<u64, String> {
        let mut bytes = [0u8; 8];
        self.random.fill(&mut bytes)?;
        Ok(u64::from_le_bytes(bytes))
    }

    /// Uniform in `0..n` (`n >= 1`), without modulo bias.
    pub fn below(&mut self, n: u32) -> Result<u32, String> {
        let n = n.max(1);
        let limit = u32::MAX - (u32::MAX % n);
        loop {
            let mut bytes = [0u8; 4];
            self.random.fill(&mut bytes)?;
            let x = u32::from_le_bytes(bytes);
            if x < limit {
                return Ok(x % n);
            }
        }
    }
}
