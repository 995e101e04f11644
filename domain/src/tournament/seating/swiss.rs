//! Swiss seating for qualification rounds after the first: players with similar
//! standings at the same table, repeat opponents avoided as far as possible.
//!
//! # Algorithm
//!
//! Input: the players in standings order (best first), the table sizes
//! (`balance.rs`), and the played-with matrix of every earlier round.
//!
//! 1. **Greedy, top down.** Tables are filled one after the other. A table opens with the
//!    best player not yet seated. Each further seat goes to the first player down the
//!    standings who has met nobody at the table yet, looking at most `FAR * size` places
//!    down; if there is none, to the player with the fewest meetings with the table among
//!    the next `NEAR * size` (the higher ranked on equal counts). Standings stay close
//!    because the search starts at the top of who is left.
//! 2. **Local improvement (pairwise swaps).** The greedy can corner the last tables with
//!    players who all met. For each player sitting with someone they met, every exchange
//!    with a player of another table is scored by how many repeat meetings it removes
//!    (only the two moved players' meetings change). The best strictly improving exchange
//!    is made, the nearest tables first and, among equal gains, the two players closest
//!    in the standings. Tables `1` away are searched first; when a whole pass finds no
//!    improving exchange the search widens (x4) until it covers every table. Every
//!    exchange lowers the total of repeat meetings, so this ends.
//! 3. **Backtracking repair.** Exchanges of two players can get stuck where only a
//!    rotation of several would help. For each table that still seats players who met,
//!    the table and its nearest neighbours (`REGION` tables, so players only move between
//!    tables of neighbouring standings) are re-seated by a depth-first search: their
//!    players in standings order, each tried at the region's tables in order, branches cut
//!    as soon as they reach the repeats of the best seating found. The search is exact
//!    within its region (small fields are one region, and the tests compare with an
//!    exhaustive search) and bounded by a node budget per region.
//!
//! Work budgets bound the pathological cases; a repeat that no move within them can
//! remove stays.
//!
//! The result is deterministic: no randomness is used here (seat order at each table is
//! drawn afterwards, `order.rs`).

use std::collections::VecDeque;

use super::played_with::PlayedWith;

/// The fallback window, in table sizes: among these, the fewest meetings.
const NEAR: usize = 2;
/// How far down the greedy looks for someone who has met nobody at the table.
const FAR: usize = 8;
/// Candidate exchanges evaluated by the improvement at most.
const SWAP_BUDGET: u64 = 2_000_000;
/// Tables re-seated together by the repair.
const REGION: usize = 3;
/// Search nodes per repaired region, and in all.
const REGION_NODES: u64 = 20_000;
const REPAIR_NODES: u64 = 5_000_000;

/// Seats `ranked` (player indices, best first) at tables of `sizes` (their sum is the
/// number of players). Returns the tables in order, each listing its players in the order
/// they were chosen.
pub fn swiss_tables(ranked: &[u32], sizes: &[usize], met: &PlayedWith) -> Vec<Vec<u32>> {
    debug_assert_eq!(sizes.iter().sum::<usize>(), ranked.len());
    let mut pool: VecDeque<u32> = ranked.iter().copied().collect();
    let mut tables = Vec::with_capacity(sizes.len());
    for &size in sizes {
        let mut table = Vec::with_capacity(size);
        table.extend(pool.pop_front());
        while table.len() < size {
            let at = pick(&pool, &table, met, size);
            match pool.remove(at) {
                Some(p) => table.push(p),
                None => break,
            }
        }
        tables.push(table);
    }
    let mut rank = vec![0u32; ranked.iter().map(|&p| p as usize + 1).max().unwrap_or(0)];
    for (position, &p) in ranked.iter().enumerate() {
        rank[p as usize] = position as u32;
    }
    improve(&mut tables, met, &rank, SWAP_BUDGET);
    repair(&mut tables, met, &rank, REPAIR_NODES);
    tables
}

/// The position in `pool` of the next player for `table` (step 1).
fn pick(pool: &VecDeque<u32>, table: &[u32], met: &PlayedWith, size: usize) -> usize {
    let near = (NEAR * size).min(pool.len());
    let far = (FAR * size).min(pool.len());
    let mut best = (u32::MAX, 0);
    for (i, &p) in pool.iter().take(far).enumerate() {
        let meetings = met.with_table(p, table, None);
        if meetings == 0 {
            return i;
        }
        if i < near && meetings < best.0 {
            best = (meetings, i);
        }
    }
    best.1
}

/// Step 2. `rank[p]` is player `p`'s position in the standings.
fn improve(tables: &mut [Vec<u32>], met: &PlayedWith, rank: &[u32], mut budget: u64) {
    let count = tables.len();
    let mut cost: Vec<u32> = tables.iter().map(|t| met.table_cost(t)).collect();
    let mut reach = 1usize;
    while cost.iter().any(|&c| c > 0) && budget > 0 {
        let mut improved = false;
        for a in 0..count {
            let mut i = 0;
            while cost[a] > 0 && i < tables[a].len() && budget > 0 {
                if let Some((b, j)) = best_exchange(tables, met, rank, (a, i), reach, &mut budget) {
                    let (p, q) = (tables[a][i], tables[b][j]);
                    tables[a][i] = q;
                    tables[b][j] = p;
                    cost[a] = met.table_cost(&tables[a]);
                    cost[b] = met.table_cost(&tables[b]);
                    improved = true;
                }
                i += 1;
            }
        }
        if !improved {
            if reach >= count {
                return;
            }
            reach = (reach * 4).min(count);
        }
    }
}

/// The best exchange for the player at `(a, i)` with a player of a table at most `reach`
/// away, if one lowers the repeat meetings.
fn best_exchange(
    tables: &[Vec<u32>],
    met: &PlayedWith,
    rank: &[u32],
    (a, i): (usize, usize),
    reach: usize,
    budget: &mut u64,
) -> Option<(usize, usize)> {
    let p = tables[a][i];
    let p_here = met.with_table(p, &tables[a], Some(i));
    if p_here == 0 {
        return None;
    }
    let rank_of = |x: u32| rank.get(x as usize).copied().unwrap_or(0);
    let mut best: Option<(i64, u32, usize, usize)> = None;
    for d in 1..=reach {
        let sides = [a.checked_sub(d), Some(a + d).filter(|&b| b < tables.len())];
        for b in sides.into_iter().flatten() {
            for (j, &q) in tables[b].iter().enumerate() {
                *budget = budget.saturating_sub(1);
                let before = p_here + met.with_table(q, &tables[b], Some(j));
                let after =
                    met.with_table(q, &tables[a], Some(i)) + met.with_table(p, &tables[b], Some(j));
                let gain = after as i64 - before as i64;
                if gain < 0 {
                    let distance = rank_of(p).abs_diff(rank_of(q));
                    if best.is_none_or(|(g, dist, ..)| (gain, distance) < (g, dist)) {
                        best = Some((gain, distance, b, j));
                    }
                }
            }
        }
        if best.is_some() || *budget == 0 {
            break;
        }
    }
    best.map(|(_, _, b, j)| (b, j))
}

/// Step 3: re-seats each table that still has repeats together with its neighbours.
fn repair(tables: &mut [Vec<u32>], met: &PlayedWith, rank: &[u32], mut budget: u64) {
    let count = tables.len();
    for a in 0..count {
        if budget == 0 {
            return;
        }
        if met.table_cost(&tables[a]) == 0 {
            continue;
        }
        // `a` and its nearest neighbours, within bounds.
        let first = a
            .saturating_sub(REGION / 2)
            .min(count.saturating_sub(REGION));
        let region: Vec<usize> = (first..(first + REGION).min(count)).collect();
        let current: u32 = region.iter().map(|&k| met.table_cost(&tables[k])).sum();
        let mut players: Vec<u32> = region
            .iter()
            .flat_map(|&k| tables[k].iter().copied())
            .collect();
        players.sort_by_key(|&p| rank.get(p as usize).copied().unwrap_or(0));
        let sizes: Vec<usize> = region.iter().map(|&k| tables[k].len()).collect();
        let mut search = Search {
            met,
            players: &players,
            sizes: &sizes,
            seats: vec![Vec::new(); sizes.len()],
            best: current,
            found: None,
            nodes: REGION_NODES.min(budget),
        };
        search.go(0, 0);
        budget = budget.saturating_sub(REGION_NODES.min(budget) - search.nodes);
        if let Some(found) = search.found {
            for (&k, seated) in region.iter().zip(found) {
                tables[k] = seated;
            }
        }
    }
}

/// The depth-first search of the repair.
struct Search<'a> {
    met: &'a PlayedWith,
    players: &'a [u32],
    sizes: &'a [usize],
    seats: Vec<Vec<u32>>,
    /// Repeats of the best seating so far (the current one to begin with).
    best: u32,
    found: Option<Vec<Vec<u32>>>,
    nodes: u64,
}

impl Search<'_> {
    fn go(&mut self, i: usize, cost: u32) {
        if cost >= self.best || self.nodes == 0 {
            return;
        }
        self.nodes -= 1;
        let Some(&p) = self.players.get(i) else {
            self.best = cost;
            self.found = Some(self.seats.clone());
            return;
        };
        let mut empty_sizes_tried: Vec<usize> = Vec::new();
        for k in 0..self.seats.len() {
            if self.seats[k].len() == self.sizes[k] {
                continue;
            }
            if self.seats[k].is_empty() {
                // Empty tables of one size are interchangeable: try the first only.
                if empty_sizes_tried.contains(&self.sizes[k]) {
                    continue;
                }
                empty_sizes_tried.push(self.sizes[k]);
            }
            let added = self.met.with_table(p, &self.seats[k], None);
            self.seats[k].push(p);
            self.go(i + 1, cost + added);
            self.seats[k].pop();
            if self.best == 0 {
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::seating::balance::balanced_sizes;

    fn repeats(tables: &[Vec<u32>], met: &PlayedWith) -> u32 {
        tables.iter().map(|t| met.table_cost(t)).sum()
    }

    #[test]
    fn without_history_tables_follow_the_standings() {
        let ranked: Vec<u32> = (0..12).collect();
        let met = PlayedWith::new(12);
        let tables = swiss_tables(&ranked, &[6, 6], &met);
        assert_eq!(
            tables,
            vec![vec![0, 1, 2, 3, 4, 5], vec![6, 7, 8, 9, 10, 11]]
        );
    }

    #[test]
    fn players_who_met_are_split_up() {
        // Round 1 seated 0-5 and 6-11; the standings now alternate the two tables.
        let mut met = PlayedWith::new(12);
        met.add_table(&[0, 2, 4, 6, 8, 10]);
        met.add_table(&[1, 3, 5, 7, 9, 11]);
        let ranked: Vec<u32> = (0..12).collect();
        let sizes = balanced_sizes(12, 4, 6).expect("a split");
        let tables = swiss_tables(&ranked, &sizes, &met);
        // 12 players from two tables of 6 at two tables of 6: each new table takes 3 and 3,
        // so 2 * (3 + 3) = 12 repeats is the least possible.
        assert_eq!(repeats(&tables, &met), 12);
    }
}
