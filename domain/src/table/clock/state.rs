//! [`ClockState`]: what a table's clock knows, folded from the stream in order with the
//! game. Only human seats have clocks: bots act at once.

use crate::game::{Event as GameEvent, Game, RoundStage, Seat};

use super::super::event::StreamEvent;
use super::Clock;
use super::event::ClockEvent;

/// What the table waits for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Waiting {
    /// The out-of-turn window after the last throw, held open for its time.
    Window,
    /// A seat's turn: throw and draw, or call.
    Turn(Seat),
    /// A seat's declaration after a call.
    Decision(Seat),
    /// The human seats' contributions to the next deal's seed (player entropy).
    Contributions,
}

impl Waiting {
    /// The seat waited on, if one is.
    pub fn seat(self) -> Option<Seat> {
        match self {
            Self::Window | Self::Contributions => None,
            Self::Turn(seat) | Self::Decision(seat) => Some(seat),
        }
    }
}

/// What the table waits for and how long it may: a timeout is due once it has waited
/// `limit_ms`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Due {
    pub waiting: Waiting,
    pub limit_ms: u32,
}

/// The window on the top throw, as the table holds it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
enum Window {
    /// Not held: the rules alone say until when cards may be laid (the next throw).
    #[default]
    Free,
    /// Held open until its time runs out or every seat in `waiting` has passed.
    Held {
        waiting: Vec<Seat>,
        passed: Vec<Seat>,
    },
    /// Closed by the table: no card is laid on this throw any more.
    Closed,
}

/// The clock's part of a table (see the module docs of `clock`).
#[derive(Debug, Clone, Default)]
pub struct ClockState {
    clock: Option<Clock>,
    /// Per seat: played by a human.
    humans: Vec<bool>,
    /// Per seat: timeouts in a row.
    timeouts: Vec<u8>,
    window: Window,
    /// The seat whose next move is the stand-in's (after its `turn_timed_out.v1`).
    stand_in_next: Option<Seat>,
}

impl ClockState {
    /// A table's clock state before its first move; `bots` are the bot seats.
    pub fn new(clock: Option<Clock>, seats: u8, bots: impl IntoIterator<Item = Seat>) -> Self {
        let mut humans = vec![true; usize::from(seats)];
        for seat in bots {
            if let Some(human) = humans.get_mut(usize::from(seat)) {
                *human = false;
            }
        }
        Self {
            clock,
            timeouts: vec![0; humans.len()],
            humans,
            window: Window::Free,
            stand_in_next: None,
        }
    }

    /// Timeouts in a row of `seat`.
    pub fn timeouts(&self, seat: Seat) -> u8 {
        self.timeouts.get(usize::from(seat)).copied().unwrap_or(0)
    }

    /// Whether `seat` is absent: the server plays it at once until its player acts.
    pub fn is_absent(&self, seat: Seat) -> bool {
        self.clock
            .is_some_and(|clock| self.timeouts(seat) >= clock.absent_after)
    }

    /// Whether the window on the top throw is held open (the next move waits).
    pub fn window_held(&self) -> bool {
        matches!(self.window, Window::Held { .. })
    }

    /// Whether the table closed the window on the top throw.
    pub fn window_closed(&self) -> bool {
        self.window == Window::Closed
    }

    /// The seats the held window still waits for (empty when none is held).
    pub fn window_waiting(&self) -> &[Seat] {
        match &self.window {
            Window::Held { waiting, .. } => waiting,
            _ => &[],
        }
    }

    /// Whether `seat` passed in the held window.
    pub fn passed(&self, seat: Seat) -> bool {
        matches!(&self.window, Window::Held { passed, .. } if passed.contains(&seat))
    }

    /// What the table waits for in `game` and for how long, if a clock runs.
    pub fn due(&self, game: &Game) -> Option<Due> {
        let clock = self.clock?;
        if !game.round_in_progress() || game.is_finished() {
            return None;
        }
        if self.window_held() {
            return Some(Due {
                waiting: Waiting::Window,
                limit_ms: clock.window_ms,
            });
        }
        let seat = game.to_act()?;
        if !self.is_human(seat) {
            return None;
        }
        Some(match game.round_stage() {
            RoundStage::GoingAlong | RoundStage::Kluft | RoundStage::Waterfall => Due {
                waiting: Waiting::Decision(seat),
                limit_ms: clock.decision_ms,
            },
            _ => Due {
                waiting: Waiting::Turn(seat),
                limit_ms: clock.turn_ms,
            },
        })
    }

    fn is_human(&self, seat: Seat) -> bool {
        self.humans.get(usize::from(seat)).copied().unwrap_or(false)
    }

    /// Folds the next event of the stream; `game` has folded it already.
    pub(crate) fn observe(&mut self, event: &StreamEvent, game: &Game) {
        if self.clock.is_none() {
            return;
        }
        match event {
            StreamEvent::Table(_) | StreamEvent::Entropy(_) => {}
            StreamEvent::Game(event) => match event {
                GameEvent::TurnPlayed(turn) => {
                    self.moved(turn.seat);
                    self.window = self.window_after_throw(game, turn.seat);
                }
                GameEvent::Called(called) => {
                    self.moved(called.seat);
                    self.window = Window::Free;
                }
                GameEvent::WentAlong(declared) => {
                    self.moved(declared.seat);
                    self.window = Window::Free;
                }
                GameEvent::OnderkluftDeclared(declared) => {
                    self.moved(declared.seat);
                    self.window = Window::Free;
                }
                // The game closes the window on the last throw; the clock keeps its own
                // state of it until the next throw.
                GameEvent::WaterfallStarted(started) => self.moved(started.seat),
                GameEvent::WaterfallPicked(picked) => self.moved(picked.seat),
                GameEvent::PileKilled(killed) => self.moved(killed.seat),
                GameEvent::SlappedDown(slap) => self.reset(slap.seat),
                GameEvent::AddedOn(added) => self.reset(added.seat),
                GameEvent::RoundDealt(_)
                | GameEvent::RoundEnded(_)
                | GameEvent::GameFinished(_) => {
                    self.window = Window::Free;
                    self.stand_in_next = None;
                }
                GameEvent::GameCreated(_)
                | GameEvent::StockReshuffled(_)
                | GameEvent::HandsShown(_)
                | GameEvent::ForcedToDraw(_)
                | GameEvent::PinataSetAside(_)
                | GameEvent::PinataTaken(_)
                | GameEvent::HandsRedealt(_)
                | GameEvent::QueenSwapped(_) => {}
            },
            StreamEvent::Clock(event) => match event {
                ClockEvent::TurnTimedOut(timed_out) => {
                    if let Some(count) = self.timeouts.get_mut(usize::from(timed_out.seat)) {
                        *count = count.saturating_add(1);
                    }
                    self.stand_in_next = Some(timed_out.seat);
                }
                ClockEvent::WindowPassed(pass) => {
                    self.reset(pass.seat);
                    if let Window::Held { waiting, passed } = &mut self.window {
                        waiting.retain(|&seat| seat != pass.seat);
                        passed.push(pass.seat);
                    }
                }
                ClockEvent::WindowClosed(_) => self.window = Window::Closed,
                ClockEvent::SeatReturned(back) => self.reset(back.seat),
            },
        }
    }

    /// A seat's move in its turn: the stand-in's after a timeout, or its player's.
    fn moved(&mut self, seat: Seat) {
        if self.stand_in_next == Some(seat) {
            self.stand_in_next = None;
        } else {
            self.reset(seat);
        }
    }

    /// The player of `seat` acted: its timeouts in a row start again from 0.
    fn reset(&mut self, seat: Seat) {
        if let Some(count) = self.timeouts.get_mut(usize::from(seat)) {
            *count = 0;
        }
    }

    /// The window after `thrower`'s throw: held for every human seat that the rules let
    /// lay a card on it, whatever the cards in their hands (so its length says nothing
    /// about them), unless the clock holds no window or nobody could lay one.
    fn window_after_throw(&self, game: &Game, thrower: Seat) -> Window {
        let (Some(clock), Some(rules)) = (self.clock, game.rules()) else {
            return Window::Free;
        };
        if clock.window_ms == 0 || !game.window_open() {
            return Window::Free;
        }
        let waiting: Vec<Seat> = (0..game.players().len())
            .filter_map(|seat| Seat::try_from(seat).ok())
            .filter(|&seat| {
                self.is_human(seat) && !self.is_absent(seat) && !game.is_eliminated(seat)
            })
            .filter(|&seat| {
                if seat == thrower {
                    game.slap_card().is_some()
                } else {
                    rules.add_ons.any() && game.decide_add_on_possible(seat)
                }
            })
            .collect();
        if waiting.is_empty() {
            Window::Free
        } else {
            Window::Held {
                waiting,
                passed: Vec::new(),
            }
        }
    }
}
