//! Where a table's secrets still in play begin.

use crate::table::Table;

/// Where the secrets of a round begin: its server seed committed for the deal (player
/// entropy) or, without one, the deal itself.
pub const SECRETS_BEGIN: [&str; 2] = ["deal_seed_committed.v1", "round_dealt.v1"];
/// Where they end.
pub const SECRETS_END: &str = "round_ended.v1";

/// The version of the first event of `table` that holds a secret of a round not yet
/// over: the server's committed seed for the next deal (player entropy) or the deal of
/// the round in play; `None` when no round is in play or being prepared. Everything
/// from there on may be shown only event by event, redacted; never as stored bytes or
/// under a hash.
pub fn sealed_from(table: &Table) -> Option<u64> {
    let mut events: Vec<(u64, &str)> = table
        .game_versions
        .iter()
        .copied()
        .zip(table.game_events.iter().map(|e| e.type_name()))
        .chain(
            table
                .entropy_versions
                .iter()
                .copied()
                .zip(table.entropy_events.iter().map(|e| e.type_name())),
        )
        .collect();
    events.sort_unstable_by_key(|(version, _)| *version);
    sealed_from_types(events)
}

/// [`sealed_from`] for a stream read as stored: its events' versions and type names, in
/// version order (the type alone says where a round's secrets begin and end).
pub fn sealed_from_types<'a>(events: impl IntoIterator<Item = (u64, &'a str)>) -> Option<u64> {
    let mut sealed = None;
    for (version, event_type) in events {
        if event_type == SECRETS_END {
            sealed = None;
        } else if SECRETS_BEGIN.contains(&event_type) {
            sealed.get_or_insert(version);
        }
    }
    sealed
}
