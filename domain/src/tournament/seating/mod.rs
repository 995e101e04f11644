//! Seating: who sits at which table, and in which seat. Pure functions over dense player
//! indices (a player's index is their registration order, from 0), so the algorithms run
//! without hashing account ids and 10,000 players seat in milliseconds
//! (`BENCHMARKS.md`, section `tournament`).
//!
//! - `balance.rs`: how many tables, of which sizes.
//! - `played_with.rs`: how often two players have met.
//! - `swiss.rs`: qualification rounds after the first.
//! - `knockout.rs`: snake seeding and byes.
//! - `order.rs`: the random parts, from the round's seed.
//!
//! # Algorithm `tournament-draw/1`
//!
//! [`DRAW_ALGORITHM`] names the exact procedure below; it is recorded in every
//! `round_drawn.v1` event so that anyone can re-derive a draw from the revealed seed and
//! the events before it. A change to any step gets a new name.
//!
//! 1. **Grouping** (which players share a table):
//!    - first qualification round: the players in registration order, shuffled with
//!      stream 0 of the seed, cut into tables of the sizes of `balance.rs` in order
//!      (larger tables first); in a tournament seeded by rating, [`seeded_draw`] over
//!      the recorded rating order instead (no randomness), which the draw also lists
//!      as its `seeds`;
//!    - later qualification rounds: [`swiss::swiss_tables`] over the standings before the
//!      round (deterministic: no randomness);
//!    - knockout stages: [`knockout::snake`] over the seeded entrants; a stage with at most
//!      `final_table_max` entrants is one final table of all of them.
//! 2. **Seat order** at each table (the direction of play, which the game's starter and
//!    tie rules follow): table `k` (from 1) lists its players in registration order and
//!    shuffles them with stream `k` of the seed.

pub mod balance;
pub mod knockout;
pub mod order;
pub mod played_with;
pub mod swiss;

use crate::shuffle::Seed;

pub use balance::{NoSplit, balanced_sizes, table_sizes};
pub use knockout::{Bracket, snake};
pub use played_with::PlayedWith;
pub use swiss::swiss_tables;

/// Name and version of the draw procedure of the module docs.
pub const DRAW_ALGORITHM: &str = "tournament-draw/1";

/// A draw by player index: the tables in order (each in seat order) and the players who go
/// through without playing.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Seating {
    pub tables: Vec<Vec<u32>>,
    pub byes: Vec<u32>,
}

fn seat_all(mut tables: Vec<Vec<u32>>, seed: &Seed) -> Vec<Vec<u32>> {
    for (k, table) in tables.iter_mut().enumerate() {
        order::seat_order(table, seed, k as u32 + 1);
    }
    tables
}

/// The random draw of the first qualification round: `players` (any order) at tables of
/// `sizes`.
pub fn random_draw(players: &[u32], sizes: &[usize], seed: &Seed) -> Seating {
    let mut shuffled = players.to_vec();
    shuffled.sort_unstable();
    order::shuffle(&mut shuffled, seed, order::GROUPING_STREAM);
    let mut rest = shuffled.as_slice();
    let mut tables = Vec::with_capacity(sizes.len());
    for &size in sizes {
        let (table, tail) = rest.split_at(size.min(rest.len()));
        tables.push(table.to_vec());
        rest = tail;
    }
    Seating {
        tables: seat_all(tables, seed),
        byes: Vec::new(),
    }
}

/// Round 1 of a tournament seeded by rating: `seeded` (best first) dealt to the tables
/// of `sizes` in snake order (tables 1, 2, ..., t, then t, ..., 1, and again), a full
/// table passed over, so that each table gets one player of every row of `t`
/// consecutive seeds and the strongest do not meet at once.
pub fn seeded_draw(seeded: &[u32], sizes: &[usize], seed: &Seed) -> Seating {
    let mut tables: Vec<Vec<u32>> = sizes.iter().map(|&s| Vec::with_capacity(s)).collect();
    let count = sizes.len();
    let mut rest = seeded.iter().copied();
    let mut forward = true;
    'rows: loop {
        let mut placed = false;
        for j in 0..count {
            let k = if forward { j } else { count - 1 - j };
            if tables[k].len() >= sizes[k] {
                continue;
            }
            let Some(player) = rest.next() else {
                break 'rows;
            };
            tables[k].push(player);
            placed = true;
        }
        if !placed {
            break;
        }
        forward = !forward;
    }
    Seating {
        tables: seat_all(tables, seed),
        byes: Vec::new(),
    }
}

/// A Swiss round: `ranked` (best first) at tables of `sizes`, avoiding the meetings in
/// `met`.
pub fn swiss_draw(ranked: &[u32], sizes: &[usize], met: &PlayedWith, seed: &Seed) -> Seating {
    Seating {
        tables: seat_all(swiss_tables(ranked, sizes, met), seed),
        byes: Vec::new(),
    }
}

/// A knockout stage: `seeded` (best seed first) at tables of `table_size` with byes, or one
/// final table when there are at most `final_table_max`.
pub fn knockout_draw(
    seeded: &[u32],
    table_size: usize,
    final_table_max: usize,
    seed: &Seed,
) -> Seating {
    if seeded.len() <= final_table_max {
        return Seating {
            tables: seat_all(vec![seeded.to_vec()], seed),
            byes: Vec::new(),
        };
    }
    let bracket = snake(seeded.len(), table_size);
    let tables = bracket
        .tables
        .iter()
        .map(|t| t.iter().map(|&s| seeded[s]).collect())
        .collect();
    Seating {
        tables: seat_all(tables, seed),
        byes: seeded[..bracket.byes].to_vec(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_draw_depends_on_the_seed_only() {
        let players: Vec<u32> = (0..23).collect();
        let sizes = balanced_sizes(23, 4, 6).expect("a split");
        let a = random_draw(&players, &sizes, &Seed([7; 32]));
        let mut reversed = players.clone();
        reversed.reverse();
        assert_eq!(random_draw(&reversed, &sizes, &Seed([7; 32])), a);
        assert_ne!(random_draw(&players, &sizes, &Seed([8; 32])), a);
        assert_eq!(
            a.tables.iter().map(Vec::len).collect::<Vec<_>>(),
            vec![6, 6, 6, 5]
        );
        let mut all: Vec<u32> = a.tables.concat();
        all.sort_unstable();
        assert_eq!(all, players);
    }

    #[test]
    fn a_seeded_first_round_snakes_the_seeds_over_the_tables() {
        // 14 players at tables of 5, 5 and 4: rows 1-3, 4-6 (reversed), 7-9, 10-12
        // (reversed), then 13 and 14 where there is room.
        let seeded: Vec<u32> = (0..14).collect();
        let s = seeded_draw(&seeded, &[5, 5, 4], &Seed([3; 32]));
        let mut tables = s.tables.clone();
        for t in &mut tables {
            t.sort_unstable();
        }
        assert_eq!(
            tables,
            vec![
                vec![0, 5, 6, 11, 12],
                vec![1, 4, 7, 10, 13],
                vec![2, 3, 8, 9]
            ]
        );
        // The seed orders the seats at each table, nothing else.
        let other = seeded_draw(&seeded, &[5, 5, 4], &Seed([4; 32]));
        for (a, b) in s.tables.iter().zip(&other.tables) {
            let (mut a, mut b) = (a.clone(), b.clone());
            a.sort_unstable();
            b.sort_unstable();
            assert_eq!(a, b);
        }
    }

    #[test]
    fn a_small_knockout_is_the_final_table() {
        let seeded: Vec<u32> = (0..6).collect();
        let s = knockout_draw(&seeded, 6, 8, &Seed([1; 32]));
        assert_eq!(s.tables.len(), 1);
        assert!(s.byes.is_empty());
        let s = knockout_draw(&(0..26).collect::<Vec<u32>>(), 6, 8, &Seed([1; 32]));
        assert_eq!(s.byes, vec![0, 1]);
        assert_eq!(s.tables.len(), 4);
    }
}
