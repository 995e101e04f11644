//! Why a command was refused. Every variant has a stable machine code (records, the API's
//! problem documents) and a message a referee understands. No message reveals a card the
//! player could not see: errors name only the acting player's own cards or public ones.

use crate::cards::Card;
use crate::combos::ThrowError;
use crate::rules::RulesError;

use super::event::Seat;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    #[error("bad rules: {0}")]
    BadRules(#[from] RulesError),
    #[error("bad players: {0}")]
    BadPlayers(String),
    #[error("the game was already created")]
    AlreadyCreated,
    #[error("the game has not been created yet")]
    NotCreated,
    #[error("the game is over")]
    GameOver,
    #[error("no player sits at seat {0}")]
    NoSuchSeat(Seat),
    #[error("seat {0} is out of the game")]
    SeatEliminated(Seat),
    #[error("bad deal: {0}")]
    BadDeal(String),
    #[error("not allowed now: {0}")]
    WrongPhase(&'static str),
    #[error("not your turn: it is seat {expected}'s turn")]
    NotYourTurn { expected: Seat },
    #[error("{card} is not in your hand")]
    CardNotInHand { card: Card },
    #[error("illegal throw: {0}")]
    IllegalThrow(ThrowError),
    #[error(
        "illegal throw: the pile of {size}-card throws is dead (Fifths Disease): nothing more \
         is played on it this round"
    )]
    PileDead { size: u8 },
    #[error("illegal draw: {card} {reason}")]
    IllegalDraw { card: Card, reason: &'static str },
    #[error("{0}")]
    CardNotAvailable(String),
    #[error("call not allowed: {0}")]
    CallNotAllowed(String),
    #[error("slap-down not allowed: {0}")]
    SlapNotAllowed(&'static str),
    #[error("add-on not allowed: {0}")]
    AddOnNotAllowed(&'static str),
    #[error("declaration not allowed: {0}")]
    DeclarationNotAllowed(&'static str),
    #[error("queen swap not allowed: {0}")]
    QueenSwapNotAllowed(String),
    #[error("waterfall not allowed: {0}")]
    WaterfallNotAllowed(String),
    #[error("pile kill not allowed: {0}")]
    PileKillNotAllowed(String),
    #[error("stored event does not match what the rules decide: {0}")]
    EventMismatch(String),
}

impl GameError {
    /// Stable machine-readable code.
    pub fn code(&self) -> &'static str {
        match self {
            GameError::BadRules(_) => "bad_rules",
            GameError::BadPlayers(_) => "bad_players",
            GameError::AlreadyCreated => "already_created",
            GameError::NotCreated => "not_created",
            GameError::GameOver => "game_over",
            GameError::NoSuchSeat(_) => "unknown_player",
            GameError::SeatEliminated(_) => "player_eliminated",
            GameError::BadDeal(_) => "bad_deal",
            GameError::WrongPhase(_) => "wrong_phase",
            GameError::NotYourTurn { .. } => "not_your_turn",
            GameError::CardNotInHand { .. } => "card_not_in_hand",
            GameError::IllegalThrow(_) => "illegal_throw",
            GameError::PileDead { .. } => "illegal_throw",
            GameError::IllegalDraw { .. } => "illegal_draw",
            GameError::CardNotAvailable(_) => "card_not_available",
            GameError::CallNotAllowed(_) => "call_not_allowed",
            GameError::SlapNotAllowed(_) => "slap_not_allowed",
            GameError::AddOnNotAllowed(_) => "add_on_not_allowed",
            GameError::DeclarationNotAllowed(_) => "declaration_not_allowed",
            GameError::QueenSwapNotAllowed(_) => "queen_swap_not_allowed",
            GameError::WaterfallNotAllowed(_) => "waterfall_not_allowed",
            GameError::PileKillNotAllowed(_) => "pile_kill_not_allowed",
            GameError::EventMismatch(_) => "event_mismatch",
        }
    }
}
