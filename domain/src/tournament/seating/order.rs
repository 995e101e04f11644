//! The random parts of a draw, all from the round's committed seed through the portable
//! shuffle of `shuffle/` (`chacha20-fisher-yates/1`).

use crate::shuffle::{Seed, ShuffleStream, shuffle_in_place};

/// Stream 0 of the seed: the order of the random draw of the first qualification round.
pub const GROUPING_STREAM: u32 = 0;

/// `players` shuffled with stream `stream` of `seed`.
pub fn shuffle(players: &mut [u32], seed: &Seed, stream: u32) {
    shuffle_in_place(players, &mut ShuffleStream::new(seed, stream));
}

/// The seat order at table `number` (from 1): its players in canonical order (ascending
/// index, which is registration order), shuffled with stream `number` of the seed.
pub fn seat_order(table: &mut [u32], seed: &Seed, number: u32) {
    table.sort_unstable();
    shuffle(table, seed, number);
}
