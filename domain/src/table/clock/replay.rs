//! Checking a stored stream's timeouts: every `turn_timed_out.v1` must be followed by
//! the stand-in's move, derived again from the game as it stood.

use crate::bots::{Bot, BotView, StandIn};
use crate::game::{Command, Draw, DrawChoice, Event as GameEvent, Game, Seat};

/// A timeout in a stream: the seat, and the index among the game's events of the move
/// that follows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TimedOutMove {
    pub seat: Seat,
    pub game_index: usize,
}

/// The first of `timeouts` (in stream order) whose following game event is not what
/// the stand-in plays there, as its index in `timeouts`. `game_events` must replay
/// (see [`Game::replay_checked`]).
pub fn first_wrong_stand_in(game_events: &[GameEvent], timeouts: &[TimedOutMove]) -> Option<usize> {
    let mut game = Game::new();
    let mut folded = 0;
    for (i, timeout) in timeouts.iter().enumerate() {
        let Some(stored) = game_events.get(timeout.game_index) else {
            return Some(i);
        };
        for event in game_events
            .get(folded..timeout.game_index)
            .unwrap_or_default()
        {
            game.apply(event);
        }
        folded = folded.max(timeout.game_index);
        let derived = StandIn.act(&BotView::new(&game, timeout.seat));
        let following = game_events
            .get(timeout.game_index + 1..)
            .unwrap_or_default();
        if !matches(derived, stored, following) {
            return Some(i);
        }
    }
    None
}

/// Whether `stored` (and, for a turn, the swap among the events `following` it that it
/// caused) is the stand-in's `derived` move.
fn matches(derived: Option<Command>, stored: &GameEvent, following: &[GameEvent]) -> bool {
    match (derived, stored) {
        (
            Some(Command::Play {
                seat,
                throw,
                draw,
                queen,
                ..
            }),
            GameEvent::TurnPlayed(played),
        ) => {
            // Crazy queens: the swap comes right after the turn (and the reshuffle its
            // draw may cause).
            let swapped = following
                .iter()
                .take_while(|e| {
                    matches!(
                        e,
                        GameEvent::StockReshuffled(_) | GameEvent::QueenSwapped(_)
                    )
                })
                .find_map(|e| match e {
                    GameEvent::QueenSwapped(s) => Some((s.target, s.given)),
                    _ => None,
                });
            seat == played.seat
                && swapped == queen.map(|q| (q.target, q.give))
                && throw == played.thrown
                && match (draw, played.draw) {
                    (DrawChoice::Stock, Draw::Stock(_)) => true,
                    (DrawChoice::Discard(card), Draw::Discard(stored)) => card == stored,
                    _ => false,
                }
        }
        (Some(Command::WaterfallPick { seat, card }), GameEvent::WaterfallPicked(picked)) => {
            seat == picked.seat && card == picked.card
        }
        (Some(Command::Call { seat, call }), GameEvent::Called(called)) => {
            seat == called.seat && call == called.call
        }
        (Some(Command::GoAlong { seat, going }), GameEvent::WentAlong(w)) => {
            seat == w.seat && going == w.going
        }
        (Some(Command::Onderkluft { seat, challenge }), GameEvent::OnderkluftDeclared(o)) => {
            seat == o.seat && challenge == o.challenged
        }
        _ => false,
    }
}
