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
pub use resolution::RoundEnding;

use crate::cards::Hand;

use crate::rules::Rules;

use super::event::{Bonus, Event, GameFinished, MAX_PLAYERS, Outcome, Reduction, RoundEnded, Seat};
use super::state::Game;

impl RoundEnding {
    /// The player the round is counted from: "counting clockwise starting to the left of
    /// the caller".
    pub fn reference(self) -> Seat {
        match self {
            RoundEnding::Immediate { caller }
            | RoundEnding::FalseCall { caller }
            | RoundEnding::GoAlong { caller, .. }
            | RoundEnding::Kluft { caller, .. } => caller,
            RoundEnding::EmptyHand { seat } => seat,
        }
    }

    pub fn caller(self) -> Option<Seat> {
        match self {
            RoundEnding::EmptyHand { .. } => None,
            other => Some(other.reference()),
        }
    }
}

/// What the rules decide at the end of a round from the hand totals alone.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RoundScore {
    pub outcome: Outcome,
    /// See `RoundEnded::winner`.
    pub winner: Seat,
    /// Added by the round, before reductions (per seat; 0 for seats not in `order`).
    pub points: [u32; MAX_PLAYERS],
    /// Every seat's total after the round.
    pub totals: [u32; MAX_PLAYERS],
    pub reductions: Vec<Reduction>,
    pub bonuses: Vec<Bonus>,
    pub eliminated: Vec<Seat>,
    pub finished: bool,
}

/// Scores a round: points by the way it ended, new totals, reductions, the call bonus,
/// eliminations and the end of the game. `hand_totals` per seat; `order`: the players of
/// the round from the reference's left round to the reference (see
/// [`RoundEnding::reference`]); `successful_calls`: each seat's successful calls so far.
/// The engine scores its own rounds with this, and paper tables (a referee's sheet of hand
/// totals) use it too, so both follow one implementation of the rules.
///
/// The ending must be one these rules can produce: an `Immediate` ending only under the
/// immediate call resolution (the engine and paper tables check this before calling);
/// anything else is a programming error and panics.
pub fn score_round(
    rules: &Rules,
    ending: RoundEnding,
    hand_totals: &[u32; MAX_PLAYERS],
    order: &[Seat],
    totals_before: &[u32; MAX_PLAYERS],
    successful_calls: &[u16; MAX_PLAYERS],
) -> RoundScore {
    let resolved = resolution::resolve(rules, ending, hand_totals, order);
    let mut totals = *totals_before;
    for &seat in order {
        totals[seat as usize] += resolved.points[seat as usize];
    }
    let reductions = totals::reduce(rules, order, &resolved.points, &mut totals);
    let bonuses = totals::call_bonus(
        rules,
        ending.caller(),
        resolved.outcome,
        order.len(),
        successful_calls,
        &mut totals,
    );
    let settled = end::settle(rules, order, &totals);
    RoundScore {
        outcome: resolved.outcome,
        winner: resolved.winner,
        points: resolved.points,
        totals,
        reductions,
        bonuses,
        eliminated: settled.eliminated,
        finished: settled.finished,
    }
}

impl Game {
    /// The `RoundEnded` event (and `GameFinished` when the game is over) for `ending`.
    pub(crate) fn round_end_events(&self, ending: RoundEnding) -> Vec<Event> {
        let Some(rules) = self.rules.as_deref() else {
            return Vec::new();
        };
        let n = self.seat_count();
        let reference = ending.reference();
        // Everyone in the round, from the reference's left round to the reference.
        let order = self.active_from(self.next_active(reference));
        let mut hand_totals = [0u32; MAX_PLAYERS];
        let caller = ending.caller();
        for &seat in &order {
            let caught = caller.is_some_and(|c| c != seat);
            let called = caller == Some(seat);
            hand_totals[seat as usize] =
                rules.shown_hand_total(self.round.hands[seat as usize].as_slice(), caught, called);
        }
        let score = score_round(
            rules,
            ending,
            &hand_totals,
            &order,
            &self.totals,
            &self.successful_calls,
        );
        let mut eliminated_in = self.eliminated_in;
        for &seat in &score.eliminated {
            eliminated_in[seat as usize] = Some(self.round.number);
        }
        let (next_dealer, next_starter) = if score.finished {
            (None, None)
        } else {
            let survivors: Vec<Seat> = order
                .iter()
                .copied()
                .filter(|s| eliminated_in[*s as usize].is_none())
                .collect();
            let (dealer, starter) = starter::next_round(
                rules,
                self.round
                    .dealer
                    .unwrap_or_else(|| self.previous_active(self.round.starter)),
                score.winner,
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
            outcome: score.outcome,
            caller: ending.caller(),
            winner: Some(score.winner),
            hands: (0..n)
                .map(|s| in_round(s).then(|| self.round.hands[s].clone()))
                .collect::<Vec<Option<Hand>>>(),
            hand_totals: (0..n)
                .map(|s| in_round(s).then_some(hand_totals[s]))
                .collect(),
            points: (0..n)
                .map(|s| in_round(s).then_some(score.points[s]))
                .collect(),
            totals: score.totals[..n].to_vec(),
            reductions: score.reductions,
            bonuses: score.bonuses,
            eliminated: score.eliminated,
            next_dealer,
            next_starter,
        })];
        if score.finished {
            events.push(Event::GameFinished(GameFinished {
                standings: standings(rules, &score.totals[..n], &eliminated_in[..n]),
            }));
        }
        events
    }
}
