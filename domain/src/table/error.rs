//! Why a table refuses a command: its own setup rules (seats, who may start), or the
//! game's rules ([`GameError`]) once it plays.

use crate::aggregate::{Refusal, RefusalKind};
use crate::game::{GameError, Seat};

/// A field of a table's setup and what is wrong with it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SetupProblem {
    /// As the request names it: `preset`, `seats`, `overrides.<name>`, `bots[1].seat`.
    pub field: String,
    pub message: String,
}

impl SetupProblem {
    pub fn new(field: impl Into<String>, message: impl Into<String>) -> Self {
        Self {
            field: field.into(),
            message: message.into(),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TableError {
    /// The setup of a new table is wrong, field by field (every problem at once).
    #[error("the table cannot be set up: {}", .0.iter().map(|p| format!("{}: {}", p.field, p.message)).collect::<Vec<_>>().join("; "))]
    BadSetup(Vec<SetupProblem>),
    #[error("the table exists already")]
    AlreadyCreated,
    #[error("only the table's creator or an organizer may start it")]
    MayNotStart,
    /// A rated casual table feeds the list official tournaments are seeded from, so
    /// only an official may open one (`docs/ratings.md` section 4).
    #[error("only an organizer may create a rated table")]
    MayNotRate,
    /// `rated` asked for on a tournament's table: its tournament's config decides.
    #[error(
        "a tournament's table is rated by its tournament (its config's `rated`), not by a table option"
    )]
    RatedByTournament,
    #[error("you have no seat at this table")]
    NotSeated,
    #[error("the table has started: {0}")]
    Started(&'static str),
    #[error("the table has not started")]
    NotStarted,
    #[error("you already sit at seat {0}")]
    AlreadySeated(Seat),
    #[error("seat {0} is taken")]
    SeatTaken(Seat),
    #[error("every seat is taken")]
    Full,
    #[error("must be a seat from 0 to {}", .seats.saturating_sub(1))]
    NoSuchSeat { seats: usize },
    #[error("{free} seat(s) are still free")]
    SeatsNotFilled { free: usize },
    #[error("nothing is due: no clock runs out at this table now")]
    NothingDue,
    #[error("not yet due: {remaining_ms} ms remain")]
    NotYetDue { remaining_ms: u64 },
    #[error(
        "the out-of-turn window is held open for seat(s) {waiting:?}: the next move waits for it"
    )]
    WindowOpen { waiting: Vec<Seat> },
    #[error("the out-of-turn window on this throw has closed")]
    WindowClosed,
    #[error("you passed in this window")]
    AlreadyPassed,
    #[error("no out-of-turn window waits for you")]
    NothingToPass,
    #[error("your seat is not marked absent")]
    NotAbsent,
    #[error(
        "no deal waits for your contribution (the table has no player entropy, or you sent it)"
    )]
    NothingToContribute,
    /// The rules of the game refuse the move.
    #[error(transparent)]
    Game(#[from] GameError),
    /// The server's own part failed (no randomness, a deal the rules refused): a bug
    /// or a broken machine, never the sender's fault.
    #[error("the table's own moves failed: {0}")]
    Internal(String),
}

impl Refusal for TableError {
    fn code(&self) -> &'static str {
        match self {
            Self::BadSetup(_) | Self::NoSuchSeat { .. } => "validation_failed",
            Self::AlreadyCreated => "already_created",
            Self::MayNotStart | Self::MayNotRate => "forbidden",
            Self::RatedByTournament => "rated_by_tournament",
            Self::NotSeated => "not_seated",
            Self::Started(_) => "table_started",
            Self::NotStarted => "table_not_started",
            Self::AlreadySeated(_) => "already_seated",
            Self::SeatTaken(_) => "seat_taken",
            Self::Full => "table_full",
            Self::SeatsNotFilled { .. } => "seats_not_filled",
            Self::NothingDue => "nothing_due",
            Self::NotYetDue { .. } => "not_yet_due",
            Self::WindowOpen { .. } => "window_open",
            Self::WindowClosed => "window_closed",
            Self::AlreadyPassed => "already_passed",
            Self::NothingToPass => "nothing_to_pass",
            Self::NotAbsent => "not_absent",
            Self::NothingToContribute => "nothing_to_contribute",
            Self::Game(error) => error.code(),
            Self::Internal(_) => "internal_error",
        }
    }

    fn kind(&self) -> RefusalKind {
        match self {
            Self::MayNotStart | Self::MayNotRate | Self::NotSeated => RefusalKind::Forbidden,
            Self::BadSetup(_) | Self::NoSuchSeat { .. } | Self::RatedByTournament => {
                RefusalKind::Invalid
            }
            Self::AlreadyCreated
            | Self::Started(_)
            | Self::NotStarted
            | Self::AlreadySeated(_)
            | Self::SeatTaken(_)
            | Self::Full
            | Self::SeatsNotFilled { .. }
            | Self::NothingDue
            | Self::NotYetDue { .. }
            | Self::WindowOpen { .. }
            | Self::WindowClosed
            | Self::AlreadyPassed
            | Self::NothingToPass
            | Self::NotAbsent
            | Self::NothingToContribute => RefusalKind::NotNow,
            Self::Game(error) => error.kind(),
            Self::Internal(_) => RefusalKind::Internal,
        }
    }

    fn field(&self) -> Option<String> {
        match self {
            Self::NoSuchSeat { .. } => Some("seat".into()),
            _ => None,
        }
    }

    /// What a command on a table may answer. `rated_by_tournament` is not here: only
    /// opening a tournament's table meets it, and the server lists it with that
    /// route's refusals.
    fn catalogue() -> &'static [(&'static str, RefusalKind)] {
        use RefusalKind::{Forbidden, Invalid, NotNow};
        &[
            ("forbidden", Forbidden),
            ("not_seated", Forbidden),
            ("validation_failed", Invalid),
            ("already_created", NotNow),
            ("table_started", NotNow),
            ("table_not_started", NotNow),
            ("already_seated", NotNow),
            ("seat_taken", NotNow),
            ("table_full", NotNow),
            ("seats_not_filled", NotNow),
            ("nothing_due", NotNow),
            ("not_yet_due", NotNow),
            ("window_open", NotNow),
            ("window_closed", NotNow),
            ("already_passed", NotNow),
            ("nothing_to_pass", NotNow),
            ("not_absent", NotNow),
            ("nothing_to_contribute", NotNow),
        ]
    }
}

impl Refusal for GameError {
    fn code(&self) -> &'static str {
        GameError::code(self)
    }

    fn kind(&self) -> RefusalKind {
        match self {
            GameError::NotYourTurn { .. } | GameError::WrongPhase(_) | GameError::GameOver => {
                RefusalKind::NotNow
            }
            _ => RefusalKind::Invalid,
        }
    }

    fn catalogue() -> &'static [(&'static str, RefusalKind)] {
        use RefusalKind::{Invalid, NotNow};
        // What a seated player's action can meet; the setup and replay codes
        // (`bad_rules`, `bad_deal`, `event_mismatch`, ...) never answer a live action.
        &[
            ("not_your_turn", NotNow),
            ("wrong_phase", NotNow),
            ("game_over", NotNow),
            ("illegal_throw", Invalid),
            ("card_not_in_hand", Invalid),
            ("illegal_draw", Invalid),
            ("card_not_available", Invalid),
            ("call_not_allowed", Invalid),
            ("slap_not_allowed", Invalid),
            ("add_on_not_allowed", Invalid),
            ("declaration_not_allowed", Invalid),
            ("queen_swap_not_allowed", Invalid),
            ("waterfall_not_allowed", Invalid),
            ("pile_kill_not_allowed", Invalid),
            ("player_eliminated", Invalid),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::GameError;

    #[test]
    fn every_code_is_catalogued_with_its_kind() {
        let samples = [
            TableError::BadSetup(vec![SetupProblem::new("seats", "must be 2 to 8")]),
            TableError::AlreadyCreated,
            TableError::MayNotStart,
            TableError::MayNotRate,
            TableError::NotSeated,
            TableError::Started("x"),
            TableError::NotStarted,
            TableError::AlreadySeated(1),
            TableError::SeatTaken(1),
            TableError::Full,
            TableError::NoSuchSeat { seats: 3 },
            TableError::SeatsNotFilled { free: 1 },
            TableError::NothingDue,
            TableError::NotYetDue { remaining_ms: 5 },
            TableError::WindowOpen { waiting: vec![2] },
            TableError::WindowClosed,
            TableError::AlreadyPassed,
            TableError::NothingToPass,
            TableError::NotAbsent,
            TableError::NothingToContribute,
            TableError::Game(GameError::GameOver),
            TableError::Game(GameError::NotYourTurn { expected: 1 }),
            TableError::Game(GameError::SlapNotAllowed("x")),
            TableError::Game(GameError::PileKillNotAllowed("x".into())),
        ];
        let catalogue: Vec<_> = TableError::catalogue()
            .iter()
            .chain(GameError::catalogue())
            .collect();
        for error in samples {
            assert!(
                catalogue.contains(&&(error.code(), error.kind())),
                "{error:?} is not catalogued as ({}, {:?})",
                error.code(),
                error.kind()
            );
        }
        assert_eq!(
            TableError::Internal("x".into()).kind(),
            RefusalKind::Internal
        );
        // Only a tournament's online start can meet it (the server lists it with the
        // tournament's refusals), never a command on a table.
        let rated = TableError::RatedByTournament;
        assert_eq!(
            (rated.code(), rated.kind()),
            ("rated_by_tournament", RefusalKind::Invalid)
        );
        assert!(!catalogue.iter().any(|(code, _)| *code == rated.code()));
        assert_eq!(
            TableError::NoSuchSeat { seats: 3 }.to_string(),
            "must be a seat from 0 to 2"
        );
    }
}
