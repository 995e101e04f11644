//! The server's own moves at a table, after every accepted command: deal each round
//! from a fresh secret seed (the round-1 starter drawn uniformly from the seats, later
//! starters following from the rules; at a table with player entropy, once the seats
//! have contributed to the seed, see [`super::entropy`]), and play the bot seats
//! through the shared [`turn_loop`], until a human seat must act or the game is over. Everything is
//! returned with the command that caused it, to be appended together.
//!
//! Bounds: at most [`MAX_SERVER_COMMANDS`] commands per decision. A whole game between
//! four greedy bots is about 900 events, so the bound is only reached by a runaway;
//! then the loop stops ([`AutoplayStall::Bounded`]), the table waits, and the next
//! accepted command continues. A bot whose command the rules refuse (a bug) stalls the
//! loop the same way rather than failing the human's command.
//!
//! Absent seats ([`super::clock`]) are played here too, by the stand-in
//! ([`StandIn`]), each move after a `turn_timed_out.v1` of its own.
//!
//! The out-of-turn window: the bots are offered it at once. Without a clock, a human's
//! slap-down or add-on is accepted as long as the window is open when it arrives (it
//! closes with the next throw, which a bot makes without waiting). With a clock that
//! holds windows, the loop stops while the window is held, and the bots' next throw
//! waits for it like everyone's.

use crate::bots::turn_loop::{self, LoopError, SeatPlayer, TurnLoop};
use crate::bots::{AnyBot, StandIn};
use crate::game::{Command, DealSource, Game, GameError, Seat};

use super::clock::{ClockEvent, ClockState, TurnTimedOut};
use super::command::TableServices;
use super::entropy::{EntropyState, prepare_deal};
use super::error::TableError;
use super::event::StreamEvent;
use super::state::{AutoplayStall, Bots};

/// Most commands (deals and bot actions) the server makes for one decision.
pub const MAX_SERVER_COMMANDS: usize = 20_000;

/// Why the table's driver stopped.
enum DriverError {
    /// The server's own part failed: no randomness, a deal the rules refused.
    Internal(String),
    /// A bot's command was refused by the rules.
    BotRefused {
        seat: Seat,
        error: GameError,
    },
    Bounded,
}

struct TableDriver<'a, 's> {
    bots: &'a mut Bots,
    clock: &'a mut ClockState,
    entropy: &'a mut EntropyState,
    /// Plays the absent seats.
    stand_in: AnyBot,
    services: &'a mut TableServices<'s>,
    out: &'a mut Vec<StreamEvent>,
    commands: usize,
}

impl TableDriver<'_, '_> {
    fn is_bot(&self, seat: Seat) -> bool {
        self.bots.get(seat as usize).is_some_and(Option::is_some)
    }

    /// Folds `event` into the clock and player entropy and hands it out.
    fn record(&mut self, event: StreamEvent, game: &Game) -> Result<(), DriverError> {
        self.clock.observe(&event, game);
        // The deal was prepared from this state (`prepare_deal`); one that does not
        // hold is a bug, and is never written.
        self.entropy.observe(&event).map_err(|e| {
            DriverError::Internal(format!("the server's deal breaks player entropy: {e}"))
        })?;
        self.out.push(event);
        Ok(())
    }
}

impl TurnLoop for TableDriver<'_, '_> {
    type Bot = AnyBot;
    type Error = DriverError;

    fn player(&mut self, seat: Seat) -> SeatPlayer<'_, AnyBot> {
        if self.is_bot(seat) {
            match self.bots.get_mut(seat as usize).and_then(Option::as_mut) {
                Some(bot) => SeatPlayer::Bot(bot),
                None => SeatPlayer::Human,
            }
        } else if self.clock.is_absent(seat) {
            SeatPlayer::Bot(&mut self.stand_in)
        } else {
            SeatPlayer::Human
        }
    }

    fn window_held(&self) -> bool {
        self.clock.window_held()
    }

    fn window_closed(&self) -> bool {
        self.clock.window_closed()
    }

    fn deal(&mut self, game: &Game) -> Result<Option<Command>, DriverError> {
        if self.entropy.enabled() {
            return prepare_deal(self.entropy, self.clock, game, self.services, self.out)
                .map_err(DriverError::Internal);
        }
        let starter = if game.round_number() == 0 {
            let seats = u32::try_from(game.players().len()).unwrap_or(1);
            let drawn = self.services.below(seats).map_err(DriverError::Internal)?;
            Some(Seat::try_from(drawn).unwrap_or(0))
        } else {
            None
        };
        let seed = self.services.seed().map_err(DriverError::Internal)?;
        Ok(Some(Command::Deal {
            starter,
            source: DealSource::Seeded(seed),
        }))
    }

    fn execute(&mut self, game: &mut Game, command: &Command) -> Result<(), DriverError> {
        if self.commands >= MAX_SERVER_COMMANDS {
            return Err(DriverError::Bounded);
        }
        self.commands += 1;
        let seat = seat_of(command);
        let dealing = matches!(command, Command::Deal { .. });
        match game.decide(command) {
            Ok(events) => {
                if !dealing && !self.is_bot(seat) && self.clock.is_absent(seat) {
                    let timed_out = StreamEvent::Clock(ClockEvent::TurnTimedOut(TurnTimedOut {
                        seat,
                        waited_ms: 0,
                        absent: true,
                    }));
                    self.record(timed_out, game)?;
                }
                // One by one, exactly as a stored stream is folded.
                for event in events {
                    game.apply(&event);
                    self.record(StreamEvent::Game(event), game)?;
                }
                Ok(())
            }
            Err(error) => match command {
                Command::Deal { .. } => Err(DriverError::Internal(format!(
                    "the deal was refused: {error}"
                ))),
                _ => Err(DriverError::BotRefused {
                    seat: seat_of(command),
                    error,
                }),
            },
        }
    }
}

fn seat_of(command: &Command) -> Seat {
    match *command {
        Command::Play { seat, .. }
        | Command::Call { seat, .. }
        | Command::Slap { seat, .. }
        | Command::AddOn { seat, .. }
        | Command::GoAlong { seat, .. }
        | Command::Onderkluft { seat, .. }
        | Command::Waterfall { seat, .. }
        | Command::WaterfallPick { seat, .. }
        | Command::KillPile { seat, .. } => seat,
        Command::Create { .. } | Command::Deal { .. } => 0,
    }
}

/// Makes the bots of `kinds` when they are missing (a table folded anew), seeded from
/// the injected randomness.
pub(super) fn ensure_bots(
    bots: &mut Bots,
    kinds: &[Option<super::event::BotKindName>],
    services: &mut TableServices<'_>,
) -> Result<(), TableError> {
    if bots.len() == kinds.len() {
        return Ok(());
    }
    bots.clear();
    for kind in kinds {
        let bot = match kind {
            Some(kind) => Some(
                kind.domain()
                    .make(services.next_u64().map_err(TableError::Internal)?),
            ),
            None => None,
        };
        bots.push(bot);
    }
    Ok(())
}

/// Plays the server's part from the state of `game` (see the module docs), folding
/// every event into `game` and pushing it to `out`. `Ok(Some(stall))` when the loop
/// stopped early but the table is sound.
pub(super) fn advance(
    game: &mut Game,
    bots: &mut Bots,
    clock: &mut ClockState,
    entropy: &mut EntropyState,
    services: &mut TableServices<'_>,
    out: &mut Vec<StreamEvent>,
) -> Result<Option<AutoplayStall>, TableError> {
    let mut driver = TableDriver {
        bots,
        clock,
        entropy,
        stand_in: AnyBot::StandIn(StandIn),
        services,
        out,
        commands: 0,
    };
    match turn_loop::run(game, &mut driver) {
        Ok(_) => Ok(None),
        Err(LoopError::Driver(DriverError::Internal(why))) => Err(TableError::Internal(why)),
        Err(LoopError::Driver(DriverError::Bounded)) => Ok(Some(AutoplayStall::Bounded)),
        Err(LoopError::Driver(DriverError::BotRefused { seat, error })) => {
            Ok(Some(AutoplayStall::BotFailed {
                seat,
                why: error.to_string(),
            }))
        }
        Err(LoopError::NoAction { seat }) => Ok(Some(AutoplayStall::BotFailed {
            seat,
            why: "it had to act but chose nothing".into(),
        })),
        Err(LoopError::NobodyToAct) => Ok(Some(AutoplayStall::NobodyToAct)),
    }
}
