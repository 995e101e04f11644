//! The end of a round: hands shown, points by the rules, totals, reductions, eliminations,
//! the end of the game and who starts next. Decided once, written into `RoundEnded`.
//!
//! - `resolution.rs`: points of the round for each way a round ends.
//! - `totals.rs`: score reductions and the successful-call bonus.
//! - `end.rs`: eliminations, the end of the game and standings.
//! - `starter.rs`: the next dealer and starter.

mod end;
mod resolution;
mod starter;
mod totals;

pub use end::standings;

use crate::cards::Cards;

use super::event::{Event, GameFinished, MAX_PLAYERS, RoundEnded, Seat};
use super::state::Game;

/// How the round ends, with what decides its scores.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Ending {
    /// A call within the threshold, shown at once.
    Immediate { caller: Seat },
    /// A call above the threshold where the rules allow one.
    FalseCall { caller: Seat },
    /// Belgian going-along: `going` is a seat bitmask.
    GoAlong { caller: Seat, going: u8 },
    /// Kluft: `challengers` (Onderkluft) is a seat bitmask.
    Kluft { caller: Seat, challengers: u8 },
    EmptyHand { seat: Seat },
}

impl Ending {
    /// The player the round is counted from: "counting clockwise starting to the left of
    /// the caller".
    fn reference(self) -> Seat {
        match self {
            Ending::Immediate { caller }
            | Ending::FalseCall { caller }
            | Ending::GoAlong { caller, .. }
            | Ending::Kluft { caller, .. } => caller,
            Ending::EmptyHand { seat } => seat,
        }
    }

    fn caller(self) -> Option<Seat> {
        match self {
            Ending::EmptyHand { .. } => None,
            other => Some(other.reference()),
        }
    }
}

impl Game {
    /// The `RoundEnded` event (and `GameFinished` when the game is over) for `ending`.
    pub(crate) fn round_end_events(&self, ending: Ending) -> Vec<Event> {
        let Some(rules) = self.rules.as_deref() else {
            return Vec::new();
        };
        let n = self.seat_count();
        let reference = ending.reference();
        // Everyone in the round, from the reference's left round to the reference.
        let order = self.active_from(self.next_active(reference));
        let mut hand_totals = [0u32; MAX_PLAYERS];
        for &seat in &order {
            hand_totals[seat as usize] = rules.hand_total(self.round.hands[seat as usize].as_slice());
        }
        let resolved = resolution::resolve(rules, ending, &hand_totals, &order);

        let mut totals = self.totals;
        for &seat in &order {
            totals[seat as usize] += resolved.points[seat as usize];
        }
        let reductions = totals::reduce(rules, &order, &resolved.points, &mut totals);
        let bonuses = totals::call_bonus(rules, ending.caller(), resolved.outcome, order.len(), &self.successful_calls, &mut totals);
        let settled = end::settle(rules, &order, &totals);

        let mut eliminated_in = self.eliminated_in;
        for &seat in &settled.eliminated {
            eliminated_in[seat as usize] = Some(self.round.number);
        }
        let (next_dealer, next_starter) = if settled.finished {
            (None, None)
        } else {
            let survivors: Vec<Seat> = order.iter().copied().filter(|s| eliminated_in[*s as usize].is_none()).collect();
            let (dealer, starter) = starter::next_round(
                rules,
                self.round.dealer.unwrap_or_else(|| self.previous_active(self.round.starter)),
                resolved.winner,
                &order,
                &survivors,
                &hand_totals,
                n,
            );
            (dealer, Some(starter))
        };
        let in_round = |seat: usize| order.contains(&(seat as Seat));
        let mut events = vec![Event::RoundEnded(RoundEnded {
            round: self.round.number,
            outcome: resolved.outcome,
            caller: ending.caller(),
            winner: Some(resolved.winner),
            hands: (0..n).map(|s| in_round(s).then_some(self.round.hands[s])).collect::<Vec<Option<Cards>>>(),
            hand_totals: (0..n).map(|s| in_round(s).then_some(hand_totals[s])).collect(),
            points: (0..n).map(|s| in_round(s).then_some(resolved.points[s])).collect(),
            totals: totals[..n].to_vec(),
            reductions,
            bonuses,
            eliminated: settled.eliminated,
            next_dealer,
            next_starter,
        })];
        if settled.finished {
            events.push(Event::GameFinished(GameFinished {
                standings: standings(rules, &totals[..n], &eliminated_in[..n]),
            }));
        }
        events
    }
}
