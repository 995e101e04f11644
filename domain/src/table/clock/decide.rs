//! Deciding what the clock adds to a table: a timeout ([`super::super::TableCommand::TimeOut`]),
//! a pass in the held window, an absent player's return, and the moves a held or
//! closed window refuses.

use crate::bots::{Bot, BotView, StandIn};
use crate::cards::Cards;
use crate::game::{Command as GameCommand, LegalActions, Seat};

use super::super::command::{Action, TableServices};
use super::super::error::TableError;
use super::super::event::StreamEvent;
use super::super::state::Table;
use super::event::{
    ClockEvent, SeatReturned, TurnTimedOut, WindowCloseReason, WindowClosed, WindowPassed,
};
use super::state::Waiting;

impl Table {
    /// The server measured that the table has waited `waited_ms` in its current state:
    /// when that is past what the clock allows, the window closes, the seats that owe a
    /// contribution to the next deal get the default, or the seat waited on is played
    /// by the stand-in; then the server's moves go on as after any move.
    pub(in crate::table) fn time_out(
        &mut self,
        waited_ms: u64,
        services: &mut TableServices<'_>,
    ) -> Result<Vec<StreamEvent>, TableError> {
        let due = self.due().ok_or(TableError::NothingDue)?;
        let limit = u64::from(due.limit_ms);
        if waited_ms < limit {
            return Err(TableError::NotYetDue {
                remaining_ms: limit - waited_ms,
            });
        }
        let mut done = Vec::new();
        match due.waiting {
            Waiting::Contributions => {
                for seat in self.entropy.awaiting() {
                    self.contribute_default(seat, &mut done)?;
                }
            }
            Waiting::Window => self.observe_own(
                ClockEvent::WindowClosed(WindowClosed {
                    reason: WindowCloseReason::Elapsed,
                    waited_ms,
                }),
                &mut done,
            ),
            Waiting::Turn(seat) | Waiting::Decision(seat) => {
                let absent = self.clock.is_absent(seat);
                self.observe_own(
                    ClockEvent::TurnTimedOut(TurnTimedOut {
                        seat,
                        waited_ms,
                        absent,
                    }),
                    &mut done,
                );
                let command = StandIn
                    .act(&BotView::new(&self.game, seat))
                    .ok_or_else(|| TableError::Internal("the stand-in found no move".into()))?;
                self.execute_game(&command, &mut done).map_err(|e| {
                    TableError::Internal(format!("the rules refused the stand-in's move: {e}"))
                })?;
            }
        }
        self.play_on(done, services)
    }

    /// `seat` passes in the held window; the last pass closes it.
    pub(in crate::table) fn pass(
        &mut self,
        seat: Seat,
        services: &mut TableServices<'_>,
    ) -> Result<Vec<StreamEvent>, TableError> {
        if !self.clock.window_waiting().contains(&seat) {
            return Err(TableError::NothingToPass);
        }
        let mut done = Vec::new();
        self.observe_own(ClockEvent::WindowPassed(WindowPassed { seat }), &mut done);
        if self.clock.window_waiting().is_empty() {
            self.observe_own(
                ClockEvent::WindowClosed(WindowClosed {
                    reason: WindowCloseReason::AllPassed,
                    waited_ms: 0,
                }),
                &mut done,
            );
        }
        self.play_on(done, services)
    }

    /// The player of an absent `seat` is back: the server stops playing it.
    pub(in crate::table) fn come_back(
        &mut self,
        seat: Seat,
        services: &mut TableServices<'_>,
    ) -> Result<Vec<StreamEvent>, TableError> {
        if !self.clock.is_absent(seat) {
            return Err(TableError::NotAbsent);
        }
        let mut done = Vec::new();
        self.observe_own(ClockEvent::SeatReturned(SeatReturned { seat }), &mut done);
        self.play_on(done, services)
    }

    /// Refuses what the held or closed window does not allow `seat` now: while it is
    /// held nobody throws, calls or declares; once the table closed it, or after the
    /// seat passed, no card is laid on the throw.
    pub(in crate::table) fn check_window(
        &self,
        seat: Seat,
        action: &Action,
    ) -> Result<(), TableError> {
        match action {
            Action::Slap { .. } | Action::AddOn(_) => {
                if self.clock.window_closed() {
                    Err(TableError::WindowClosed)
                } else if self.clock.passed(seat) {
                    Err(TableError::AlreadyPassed)
                } else {
                    Ok(())
                }
            }
            Action::Play { .. }
            | Action::Call(_)
            | Action::GoAlong(_)
            | Action::Onderkluft(_)
            | Action::Waterfall(_)
            | Action::WaterfallPick(_)
            | Action::KillPile(_)
                if self.clock.window_held() =>
            {
                Err(TableError::WindowOpen {
                    waiting: self.clock.window_waiting().to_vec(),
                })
            }
            _ => Ok(()),
        }
    }

    /// What `seat` may do now: the game's legal actions, less what the held or closed
    /// window refuses ([`Table::check_window`]).
    pub fn legal_actions(&self, seat: Seat) -> LegalActions {
        let mut legal = self.game.legal_actions(seat);
        if self.clock.window_closed() || self.clock.passed(seat) {
            legal.slap = None;
            legal.add_ons.clear();
        }
        if self.clock.window_held() {
            legal.call = false;
            legal.throws.clear();
            legal.draw_from_stock = false;
            legal.draw_from_discard = Cards::new();
            legal.discard_draws.clear();
            legal.go_along = false;
            legal.onderkluft = false;
            legal.waterfalls.clear();
            legal.kill_piles.clear();
        }
        legal
    }

    /// Folds one of the clock's events this table decided into `done`.
    fn observe_own(&mut self, event: ClockEvent, done: &mut Vec<StreamEvent>) {
        let event = StreamEvent::Clock(event);
        self.clock.observe(&event, &self.game);
        done.push(event);
    }

    /// Decides `command` on the game and folds its events one by one, exactly as a
    /// stored stream is folded, into `done`.
    pub(in crate::table) fn execute_game(
        &mut self,
        command: &GameCommand,
        done: &mut Vec<StreamEvent>,
    ) -> Result<(), TableError> {
        let events = self.game.decide(command)?;
        for event in events {
            self.game.apply(&event);
            let event = StreamEvent::Game(event);
            self.clock.observe(&event, &self.game);
            // A move the rules accept can still end a round or the game, which player
            // entropy folds; an event it refuses is never written.
            self.entropy.observe(&event).map_err(|e| {
                TableError::Internal(format!("the move breaks player entropy's procedure: {e}"))
            })?;
            done.push(event);
        }
        Ok(())
    }
}
