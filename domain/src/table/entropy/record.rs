//! A table's player entropy in its game record: for each seeded round, the procedure,
//! the commitment, the server's seed and every seat's contribution, so that a replay
//! of the record checks the deal seed was mixed as the procedure says.

use crate::record::{EntropyRecord, GameRecord, PlayerMap};

use super::event::EntropyEvent;

/// Adds to each seeded round of `record` how its seed was made, from a table's
/// player-entropy events (`table.entropy_events`); rounds are numbered from 1 in order.
pub fn attach_entropy(record: &mut GameRecord, events: &[EntropyEvent]) {
    for (number, round) in (1u32..).zip(record.rounds.iter_mut()) {
        let Some(shuffle) = round.shuffle.as_mut() else {
            continue;
        };
        let committed = events.iter().find_map(|e| match e {
            EntropyEvent::SeedCommitted(c) if c.round == number => Some(c),
            _ => None,
        });
        let Some(committed) = committed else {
            continue;
        };
        let contributions = events
            .iter()
            .filter_map(|e| match e {
                EntropyEvent::Contributed(c) if c.round == number => Some(c),
                _ => None,
            })
            .map(|c| {
                let name = record.players.get(usize::from(c.seat)).cloned();
                (name.unwrap_or_default(), c.value.map(|v| v.to_hex()))
            });
        let mut contributions: Vec<(String, Option<String>)> = contributions.collect();
        contributions.sort_by_key(|(name, _)| record.players.iter().position(|p| p == name));
        shuffle.entropy = Some(EntropyRecord {
            procedure: committed.procedure.clone(),
            commitment: committed.commitment.to_hex(),
            seed: committed.seed.to_hex(),
            contributions: PlayerMap(contributions),
        });
    }
}
