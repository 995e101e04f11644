//! The clock's events in a table's stream, between the game's. Like every stored
//! payload they serialize byte for byte as they always have: a change is a new `.v2`.
//!
//! | type | when | payload |
//! | --- | --- | --- |
//! | `turn_timed_out.v1` | a seat's clock ran out, or the seat is absent | seat, how long the table waited, whether the seat was absent already |
//! | `window_passed.v1` | a player passes in the out-of-turn window | seat |
//! | `window_closed.v1` | the window's time ran out, or every seat that may lay a card passed | why, how long it was open |
//! | `seat_returned.v1` | an absent player is back | seat |
//!
//! A `turn_timed_out.v1` is always followed by the game events of the stand-in's move
//! ([`crate::bots::StandIn`]), which a replay derives again.

use serde::{Deserialize, Serialize};

use crate::game::Seat;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(tag = "type")]
pub enum ClockEvent {
    #[serde(rename = "turn_timed_out.v1")]
    TurnTimedOut(TurnTimedOut),
    #[serde(rename = "window_passed.v1")]
    WindowPassed(WindowPassed),
    #[serde(rename = "window_closed.v1")]
    WindowClosed(WindowClosed),
    #[serde(rename = "seat_returned.v1")]
    SeatReturned(SeatReturned),
}

impl ClockEvent {
    /// Every type name, as stored in the `event_type` column.
    pub const TYPES: [&'static str; 4] = [
        "turn_timed_out.v1",
        "window_passed.v1",
        "window_closed.v1",
        "seat_returned.v1",
    ];

    pub fn type_name(&self) -> &'static str {
        match self {
            Self::TurnTimedOut(_) => Self::TYPES[0],
            Self::WindowPassed(_) => Self::TYPES[1],
            Self::WindowClosed(_) => Self::TYPES[2],
            Self::SeatReturned(_) => Self::TYPES[3],
        }
    }
}

/// The server moves for `seat`: its time ran out, or it is absent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct TurnTimedOut {
    pub seat: Seat,
    /// How long the table had waited on the seat, in milliseconds, by the server's
    /// clock (0 for an absent seat, which is played at once).
    pub waited_ms: u64,
    /// The seat was marked absent before this move.
    pub absent: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct WindowPassed {
    pub seat: Seat,
}

/// Why an out-of-turn window closed before the next throw.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum WindowCloseReason {
    /// Its configured time ran out.
    Elapsed,
    /// Every seat that could lay a card passed.
    AllPassed,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct WindowClosed {
    pub reason: WindowCloseReason,
    /// How long the window was open, in milliseconds, by the server's clock (0 when
    /// the last pass closed it).
    pub waited_ms: u64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct SeatReturned {
    pub seat: Seat,
}
