//! An online game table as an event stream of its own: seats are taken and left, the
//! game starts, seated players move, and the table makes its own moves (deals and bot
//! seats) in between.
//!
//! - `event.rs`: what the stream stores: the table's lifecycle events
//!   (`table_created.v1`, `seat_taken.v1`, `seat_left.v1`, `table_started.v1`), then the
//!   game's events; [`decode`] reads one back.
//! - `command.rs`: what can be asked ([`TableCommand`], a move as an [`Action`]) and what
//!   a decision needs from outside ([`TableServices`]: who asks, and [`Randomness`]).
//! - `error.rs`: [`TableError`], with stable codes.
//! - `state.rs`: the fold, [`Table`] (who sees what of it: [`crate::visibility`]).
//! - `decide.rs`: the setup rules (seats, who may start) and every command.
//! - `autoplay.rs`: the server's moves after each command: deals from fresh secret
//!   seeds, the bot seats through [`crate::bots::turn_loop`], absent seats by the
//!   stand-in.
//! - `clock/`: turn clocks, timeouts, absence and the held out-of-turn window.
//! - `entropy/`: player entropy, the deal seeds no single party chooses.
//!
//! A table is an [`Aggregate`]: a test folds events, executes a command with fixed
//! randomness and checks the events that come out (see `domain/tests/table_aggregate.rs`).

mod autoplay;
pub mod clock;
mod command;
mod decide;
mod describe;
pub mod entropy;
mod error;
mod event;
pub mod link;
mod state;

pub use autoplay::MAX_SERVER_COMMANDS;
pub use command::{Action, Actor, NewTable, Randomness, SeatedTable, TableCommand, TableServices};
pub use decide::SEATS;
pub use describe::{describe_clock_event, describe_entropy_event, describe_table_events};
pub use error::{SetupProblem, TableError};
#[cfg(test)]
pub(crate) use event::sample_created;
pub use event::{
    AccountRef, BotKindName, BotSeat, SeatLeft, SeatTaken, StreamEvent, TableCreated, TableEvent,
    TableStarted, TournamentLink, decode,
};
pub use state::{AutoplayStall, Bots, SeatHolder, Table, TableStatus};

use crate::aggregate::{Aggregate, DecodeError, FoldError, StoredEvent};

impl StoredEvent for StreamEvent {
    fn type_name(&self) -> &'static str {
        StreamEvent::type_name(self)
    }

    fn decode(event_type: &str, payload: &str) -> Result<Self, DecodeError> {
        decode(event_type, payload)
    }
}

impl Aggregate for Table {
    type Event = StreamEvent;
    type Command = TableCommand;
    type Error = TableError;
    type Services<'s> = TableServices<'s>;

    const KIND: &'static str = "table";

    fn create(
        id: i64,
        command: &TableCommand,
        services: &mut TableServices<'_>,
    ) -> Result<(Self, Vec<StreamEvent>), TableError> {
        Table::create_stream(id, command, services)
    }

    fn from_first(id: i64, event: StreamEvent) -> Result<Self, FoldError> {
        Table::fold(id, [event])?.ok_or(FoldError {
            event: "",
            reason: "a table's stream starts with table_created.v1",
        })
    }

    fn version(&self) -> u64 {
        self.version
    }

    fn apply(&mut self, event: StreamEvent) -> Result<(), FoldError> {
        Table::apply(self, event)
    }

    fn execute(
        &mut self,
        command: &TableCommand,
        services: &mut TableServices<'_>,
    ) -> Result<Vec<StreamEvent>, TableError> {
        self.decide_and_apply(command, services)
    }
}
