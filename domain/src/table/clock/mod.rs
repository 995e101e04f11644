//! Clocks at a table: how long a seat may take, what the server does when the time
//! runs out, and the out-of-turn window that the next throw waits for.
//!
//! The domain never reads a clock. The server measures how long a table has waited
//! and sends [`super::TableCommand::TimeOut`] with that figure once a deadline has
//! passed; the table decides it like any other command, so a timeout sent twice, or
//! too early, or after the player moved, appends nothing.
//!
//! - `event.rs`: the clock's events in the stream ([`ClockEvent`]).
//! - `state.rs`: what the clock's events and the game's fold into: consecutive
//!   timeouts per seat (absence), the held window ([`ClockState`]), and what the table
//!   waits for now ([`Due`]).
//! - `decide.rs`: the timeout, the window's pass and close, an absent player's return,
//!   and the moves a held window refuses.
//! - `replay.rs`: checking a stored stream's timeouts against the stand-in's move.
//!
//! The stand-in's move is [`crate::bots::StandIn`].

mod decide;
mod event;
mod replay;
mod state;

pub use event::{
    ClockEvent, SeatReturned, TurnTimedOut, WindowCloseReason, WindowClosed, WindowPassed,
};
pub use replay::{TimedOutMove, first_wrong_stand_in};
pub use state::{ClockState, Due, Waiting};

use serde::{Deserialize, Serialize};

use super::error::SetupProblem;

/// A table's clock, in milliseconds. Stored in `table_created.v1`; a table without
/// one waits for its players forever, as tables always did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct Clock {
    /// Time for a turn: throw and draw, or call.
    pub turn_ms: u32,
    /// Time for a declaration after a call: going along (Belgian) or Onderkluft
    /// (Kluft).
    pub decision_ms: u32,
    /// How long the out-of-turn window stays open after each throw, under rules with
    /// slap-downs or add-ons; the next throw waits for it. 0: no held window (the next
    /// throw closes it, as the rules say).
    #[serde(default)]
    pub window_ms: u32,
    /// Timeouts in a row after which a seat is absent: it is then played at once until
    /// its player acts again.
    #[serde(default = "default_absent_after")]
    pub absent_after: u8,
}

fn default_absent_after() -> u8 {
    Clock::DEFAULT_ABSENT_AFTER
}

impl Clock {
    pub const DEFAULT_ABSENT_AFTER: u8 = 2;
    /// Shortest time for a turn or a declaration (tests run fast clocks).
    pub const MIN_TURN_MS: u32 = 100;
    /// Longest time for a turn or a declaration: a day.
    pub const MAX_TURN_MS: u32 = 86_400_000;
    /// Longest window: a minute.
    pub const MAX_WINDOW_MS: u32 = 60_000;
    /// Most timeouts in a row before a seat is absent.
    pub const MAX_ABSENT_AFTER: u8 = 20;

    /// Every problem of this clock, each named `<prefix>.<field>`.
    pub fn problems(&self, prefix: &str) -> Vec<SetupProblem> {
        let mut problems = Vec::new();
        let turns = Self::MIN_TURN_MS..=Self::MAX_TURN_MS;
        for (field, value) in [("turn_ms", self.turn_ms), ("decision_ms", self.decision_ms)] {
            if !turns.contains(&value) {
                problems.push(SetupProblem::new(
                    format!("{prefix}.{field}"),
                    format!("must be {} to {}", turns.start(), turns.end()),
                ));
            }
        }
        if self.window_ms > Self::MAX_WINDOW_MS {
            problems.push(SetupProblem::new(
                format!("{prefix}.window_ms"),
                format!("must be 0 to {}", Self::MAX_WINDOW_MS),
            ));
        }
        if !(1..=Self::MAX_ABSENT_AFTER).contains(&self.absent_after) {
            problems.push(SetupProblem::new(
                format!("{prefix}.absent_after"),
                format!("must be 1 to {}", Self::MAX_ABSENT_AFTER),
            ));
        }
        problems
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_clock_outside_its_bounds_names_every_field() {
        let clock = Clock {
            turn_ms: 99,
            decision_ms: 86_400_001,
            window_ms: 60_001,
            absent_after: 0,
        };
        let fields: Vec<_> = clock
            .problems("clock")
            .into_iter()
            .map(|p| p.field)
            .collect();
        assert_eq!(
            fields,
            [
                "clock.turn_ms",
                "clock.decision_ms",
                "clock.window_ms",
                "clock.absent_after"
            ]
        );
        let fine = Clock {
            turn_ms: 30_000,
            decision_ms: 10_000,
            window_ms: 3_000,
            absent_after: 2,
        };
        assert!(fine.problems("clock").is_empty());
    }

    #[test]
    fn window_and_absence_have_defaults() {
        let clock: Clock =
            serde_json::from_str(r#"{"turn_ms":1000,"decision_ms":500}"#).expect("a clock");
        assert_eq!(clock.window_ms, 0);
        assert_eq!(clock.absent_after, Clock::DEFAULT_ABSENT_AFTER);
        assert!(serde_json::from_str::<Clock>(r#"{"turn_ms":1,"decision_ms":1,"x":1}"#).is_err());
    }
}
