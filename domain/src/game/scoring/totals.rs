//! Score reductions on exact totals and the successful-call bonus.

use crate::rules::{Reductions, Rules};

use super::super::event::{Bonus, MAX_PLAYERS, Outcome, Reduction, Seat};

/// Applies the reductions to the new totals of the players who scored this round.
///
/// RULES.md interpretation 6: "A reduction applies once per round to the new total (200 ->
/// 100 is not then reduced again to 50)." A player who scored nothing did not reach their
/// total this round, so a total left at 50 by an earlier reduction is not reduced again (a
/// project decision: the sources speak of "hitting" or "coming to" a total).
pub(super) fn reduce(
    rules: &Rules,
    order: &[Seat],
    points: &[u32; MAX_PLAYERS],
    totals: &mut [u32; MAX_PLAYERS],
) -> Vec<Reduction> {
    let mut reductions = Vec::new();
    for &seat in order {
        let total = &mut totals[seat as usize];
        if points[seat as usize] == 0 {
            continue;
        }
        let reduced = match &rules.reductions {
            Reductions::None => None,
            Reductions::Exact(table) => table
                .iter()
                .find(|[from, _]| from == total)
                .map(|[_, to]| *to),
            Reductions::MultiplesOf { step, minus } => {
                (*total > 0 && total.is_multiple_of(*step)).then(|| *total - minus)
            }
        };
        if let Some(to) = reduced {
            reductions.push(Reduction {
                seat,
                from: *total,
                to,
            });
            *total = to;
        }
    }
    reductions
}

/// pagat variation: "if you manage to 'Go down' successfully ... three times during a game
/// (not necessarily in a row), 20 points are deducted from your total score. This rule is
/// suspended when only two players remain". Applied at every third success, after
/// reductions, never below zero; successes while two remain do not count.
pub(super) fn call_bonus(
    rules: &Rules,
    caller: Option<Seat>,
    outcome: Outcome,
    players_in_round: usize,
    successes: &[u16; MAX_PLAYERS],
    totals: &mut [u32; MAX_PLAYERS],
) -> Vec<Bonus> {
    let (Some(bonus), Some(caller)) = (rules.successful_call_bonus, caller) else {
        return Vec::new();
    };
    if !matches!(outcome, Outcome::Yaniv | Outcome::Kluft) || players_in_round <= 2 {
        return Vec::new();
    }
    let count = successes[caller as usize] as u32 + 1;
    if !count.is_multiple_of(bonus.calls as u32) {
        return Vec::new();
    }
    let total = &mut totals[caller as usize];
    let minus = bonus.minus.min(*total);
    *total -= minus;
    vec![Bonus {
        seat: caller,
        minus,
    }]
}
