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
    /// Every code [`GameError::code`] can give, for the documents that list them (a
    /// record's replay can meet any of them; a live action only those of the catalogue).
    pub const CODES: [&'static str; 22] = [
        "bad_rules",
        "bad_players",
        "already_created",
        "not_created",
        "game_over",
        "unknown_player",
        "player_eliminated",
        "bad_deal",
        "wrong_phase",
        "not_your_turn",
        "card_not_in_hand",
        "illegal_throw",
        "illegal_draw",
        "card_not_available",
        "call_not_allowed",
        "slap_not_allowed",
        "add_on_not_allowed",
        "declaration_not_allowed",
        "queen_swap_not_allowed",
        "waterfall_not_allowed",
        "pile_kill_not_allowed",
        "event_mismatch",
    ];

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

#[cfg(test)]
mod tests {
    use super::*;

    /// One error of each variant. The match makes adding a variant without a sample
    /// here a compile error, so `CODES` is checked against every variant there is.
    fn one_of_each() -> Vec<GameError> {
        let card = crate::cards::card("5H");
        let all = vec![
            GameError::BadRules(RulesError::UnknownPreset { name: "x".into() }),
            GameError::BadPlayers("x".into()),
            GameError::AlreadyCreated,
            GameError::NotCreated,
            GameError::GameOver,
            GameError::NoSuchSeat(9),
            GameError::SeatEliminated(1),
            GameError::BadDeal("x".into()),
            GameError::WrongPhase("x"),
            GameError::NotYourTurn { expected: 1 },
            GameError::CardNotInHand { card },
            GameError::IllegalThrow(ThrowError::Empty),
            GameError::PileDead { size: 5 },
            GameError::IllegalDraw { card, reason: "x" },
            GameError::CardNotAvailable("x".into()),
            GameError::CallNotAllowed("x".into()),
            GameError::SlapNotAllowed("x"),
            GameError::AddOnNotAllowed("x"),
            GameError::DeclarationNotAllowed("x"),
            GameError::QueenSwapNotAllowed("x".into()),
            GameError::WaterfallNotAllowed("x".into()),
            GameError::PileKillNotAllowed("x".into()),
            GameError::EventMismatch("x".into()),
        ];
        for error in &all {
            match error {
                GameError::BadRules(_)
                | GameError::BadPlayers(_)
                | GameError::AlreadyCreated
                | GameError::NotCreated
                | GameError::GameOver
                | GameError::NoSuchSeat(_)
                | GameError::SeatEliminated(_)
                | GameError::BadDeal(_)
                | GameError::WrongPhase(_)
                | GameError::NotYourTurn { .. }
                | GameError::CardNotInHand { .. }
                | GameError::IllegalThrow(_)
                | GameError::PileDead { .. }
                | GameError::IllegalDraw { .. }
                | GameError::CardNotAvailable(_)
                | GameError::CallNotAllowed(_)
                | GameError::SlapNotAllowed(_)
                | GameError::AddOnNotAllowed(_)
                | GameError::DeclarationNotAllowed(_)
                | GameError::QueenSwapNotAllowed(_)
                | GameError::WaterfallNotAllowed(_)
                | GameError::PileKillNotAllowed(_)
                | GameError::EventMismatch(_) => {}
            }
        }
        all
    }

    #[test]
    fn codes_lists_the_code_of_every_variant_and_nothing_else() {
        let given: std::collections::BTreeSet<&str> =
            one_of_each().iter().map(GameError::code).collect();
        let listed: std::collections::BTreeSet<&str> = GameError::CODES.into_iter().collect();
        assert_eq!(given, listed);
        assert_eq!(
            listed.len(),
            GameError::CODES.len(),
            "a code is listed twice"
        );
    }
}
