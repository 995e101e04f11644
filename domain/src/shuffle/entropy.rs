//! Mixing a deal seed from the server's committed seed and the players'
//! contributions, for tables with player entropy (the procedure is described in
//! `crate::table::entropy`), and drawing the round-1 starter from it.

use sha2::{Digest, Sha256};

use super::{Contribution, Seed, ShuffleStream};

/// Name and version of the mixing procedure ([`mix`], [`first_starter`]), recorded in
/// every `deal_seed_committed.v1`. A different procedure gets a new name.
pub const ENTROPY_PROCEDURE: &str = "yaniv-player-entropy/1";

/// The stream id of the shuffle keystream that draws the round-1 starter; deals use
/// stream 0 and reshuffles 1, 2, ..., which never come near it.
pub const STARTER_STREAM: u32 = u32::MAX;

/// The deal seed of a round: SHA-256 over the procedure's name, a zero byte, the
/// server's 32-byte seed, then for every seat in seat order its 32-byte contribution
/// (32 zero bytes for a seat that sent none: a bot, a seat out of the game, a default).
pub fn mix(server_seed: &Seed, contributions: &[Option<Contribution>]) -> Seed {
    let mut hash = Sha256::new();
    hash.update(ENTROPY_PROCEDURE.as_bytes());
    hash.update([0u8]);
    hash.update(server_seed.0);
    for contribution in contributions {
        hash.update(contribution.map_or([0u8; 32], |c| c.0));
    }
    Seed(hash.finalize().into())
}

/// The starter of round 1 at a table with player entropy (a seat, numbered from 0):
/// uniform among `seats`, from the first words of the keystream [`STARTER_STREAM`] of
/// the mixed seed.
pub fn first_starter(deal_seed: &Seed, seats: usize) -> u8 {
    let seats = u32::try_from(seats).unwrap_or(1).max(1);
    let drawn = ShuffleStream::new(deal_seed, STARTER_STREAM).below(seats);
    u8::try_from(drawn).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn value(byte: u8) -> Option<Contribution> {
        Some(Contribution([byte; 32]))
    }

    #[test]
    fn every_party_changes_the_deal_seed() {
        let server = Seed([1; 32]);
        let base = mix(&server, &[value(2), None, value(3)]);
        assert_ne!(base, mix(&Seed([9; 32]), &[value(2), None, value(3)]));
        assert_ne!(base, mix(&server, &[value(4), None, value(3)]));
        assert_ne!(base, mix(&server, &[value(2), None, value(4)]));
        // The order of the seats is part of it.
        assert_ne!(base, mix(&server, &[value(3), None, value(2)]));
        assert_eq!(base, mix(&server, &[value(2), None, value(3)]));
    }

    #[test]
    fn the_mix_is_pinned() {
        // The vector docs/verification.md states; the reference verifier checks it too.
        let deal = mix(&Seed([0x11; 32]), &[Some(Contribution([0x22; 32])), None]);
        let mut input = b"yaniv-player-entropy/1\0".to_vec();
        input.extend([0x11; 32]);
        input.extend([0x22; 32]);
        input.extend([0; 32]);
        assert_eq!(deal.0, <[u8; 32]>::from(Sha256::digest(&input)));
        assert_eq!(
            deal.to_hex(),
            "199661b002661b5be7427700e29aa3062826c9af704cb9611685d921b813985e",
        );
        assert_eq!(first_starter(&deal, 4), 1);
    }

    #[test]
    fn the_first_starter_is_uniform_enough() {
        let mut counts = [0u32; 4];
        for i in 0..4000u32 {
            let mut bytes = [0u8; 32];
            bytes[..4].copy_from_slice(&i.to_le_bytes());
            counts[usize::from(first_starter(&Seed(bytes), 4))] += 1;
        }
        assert!(
            counts.iter().all(|&n| (900..1100).contains(&n)),
            "{counts:?}"
        );
    }
}
