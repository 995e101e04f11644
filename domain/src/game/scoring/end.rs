//! Eliminations, the end of the game, and standings.

use crate::rules::{GameEnd, Rules};

use super::super::event::{MAX_PLAYERS, Seat, Standing};

#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Settled {
    pub eliminated: Vec<Seat>,
    pub finished: bool,
}

pub(super) fn settle(rules: &Rules, players: &[Seat], totals: &[u32; MAX_PLAYERS]) -> Settled {
    let over = |limit: u32, at_limit: bool, seat: Seat| {
        let total = totals[seat as usize];
        total > limit || at_limit && total == limit
    };
    match rules.game_end {
        GameEnd::Elimination { limit, at_limit } => {
            let mut eliminated: Vec<Seat> = players
                .iter()
                .copied()
                .filter(|&s| over(limit, at_limit, s))
                .collect();
            if eliminated.len() == players.len() {
                // RULES.md interpretation 7: "When every remaining player would be
                // eliminated in the same round, the lowest total wins; players tied for
                // lowest play another round."
                let lowest = players
                    .iter()
                    .map(|&s| totals[s as usize])
                    .min()
                    .unwrap_or(0);
                eliminated.retain(|&s| totals[s as usize] != lowest);
            }
            let finished = players.len() - eliminated.len() <= 1;
            Settled {
                eliminated,
                finished,
            }
        }
        GameEnd::LowestWins { limit, at_limit } => Settled {
            eliminated: Vec::new(),
            // Belgian: "Zodra een van de spelers meer dan 150 punten heeft, eindigt het spel,
            // en wint de speler met de minste punten."
            finished: players.iter().any(|&s| over(limit, at_limit, s)),
        },
    }
}

/// Standings, best first. Players still in the game rank above eliminated ones, later
/// eliminations above earlier ones, then lower totals first; equal keys share a place
/// (RULES.md interpretation 10).
pub fn standings(rules: &Rules, totals: &[u32], eliminated_in: &[Option<u32>]) -> Vec<Standing> {
    let key = |seat: usize| -> (u8, u32, u32) {
        match (rules.game_end, eliminated_in.get(seat).copied().flatten()) {
            (GameEnd::Elimination { .. }, Some(round)) => (1, u32::MAX - round, totals[seat]),
            _ => (0, 0, totals[seat]),
        }
    };
    let mut seats: Vec<usize> = (0..totals.len()).collect();
    seats.sort_by_key(|&s| (key(s), s));
    seats
        .iter()
        .map(|&s| Standing {
            seat: s as Seat,
            total: totals[s],
            place: 1 + seats.iter().filter(|&&o| key(o) < key(s)).count() as u8,
        })
        .collect()
}
