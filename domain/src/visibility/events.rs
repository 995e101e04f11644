//! A table's events as one relation may see them: what `/events` pages through and the
//! pushed streams send.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::game::{Event as GameEvent, visible_events as visible_game_events};
use crate::table::Table;
use crate::table::entropy::EntropyEvent;

use super::Relation;

/// The type of an event of a table's stream: one of the types of the events a table
/// stream holds (the table's, the game's, the clock's and the player entropy's).
#[cfg(feature = "openapi")]
fn event_type_schema() -> utoipa::openapi::schema::Object {
    use utoipa::openapi::schema::{ObjectBuilder, Type};
    let types = crate::table::TableEvent::TYPES
        .into_iter()
        .chain(crate::game::Event::TYPES)
        .chain(crate::table::clock::ClockEvent::TYPES)
        .chain(crate::table::entropy::EntropyEvent::TYPES);
    ObjectBuilder::new()
        .schema_type(Type::String)
        .description(Some(
            "The event's type, `<name>.v<version>`: it says which schema of `TableStreamEvent` \
             `payload` follows",
        ))
        .enum_values(Some(types))
        .examples(["turn_played.v1"])
        .build()
}

/// One event of a table's stream as the caller may see it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct VisibleEvent {
    /// Its version in the table's stream.
    pub version: u64,
    /// `table_created.v1`, `seat_taken.v1`, ..., `round_dealt.v1`, `turn_played.v1`, ...
    #[serde(rename = "type")]
    #[cfg_attr(feature = "openapi", schema(schema_with = event_type_schema))]
    pub event_type: String,
    /// The event's JSON, with what the caller may not see yet replaced by `null`: until
    /// a round is over, its deal's `seed` and the server's seed committed to for it
    /// (everyone sees the `commitment`), a card set aside face down, and the cards of
    /// the hands the caller may not see (another player's stock draw reads
    /// `"draw": {"stock": null}`).
    #[cfg_attr(feature = "openapi", schema(value_type = crate::table::StreamEvent))]
    pub payload: Value,
}

/// Up to `limit` events of `table` after version `after`, as `relation` may see them
/// now, in version order, and the version of the last one (`after`, capped at the
/// table's version, when there is none).
pub fn visible_events(
    table: &Table,
    relation: Relation,
    after: u64,
    limit: usize,
) -> (Vec<VisibleEvent>, u64) {
    let viewer = relation.viewer();
    let mut page: Vec<VisibleEvent> = Vec::new();
    let mut push = |version: u64, event_type: &str, payload: Value| {
        page.push(VisibleEvent {
            version,
            event_type: event_type.to_owned(),
            payload,
        });
    };
    // The table's own events and the clock's are public.
    for (version, event) in (1u64..)
        .zip(&table.table_events)
        .skip_while(|(v, _)| *v <= after)
    {
        push(version, event.type_name(), json(event));
    }
    let first = table.game_index_after(after);
    if first < table.game_events.len() {
        // What a game event hides depends on whether its round has ended, which a later
        // event says: redact from the deal of the first round asked for to the end.
        let from = table.game_events[..=first]
            .iter()
            .rposition(|e| matches!(e, GameEvent::RoundDealt(_)))
            .unwrap_or(0);
        let visible = visible_game_events(&table.game_events[from..], viewer);
        for ((event, payload), version) in table.game_events[from..]
            .iter()
            .zip(visible)
            .zip(&table.game_versions[from..])
            .skip(first - from)
            .take(limit)
        {
            push(*version, event.type_name(), payload);
        }
    }
    let first_clock = table.clock_index_after(after);
    for (event, version) in table.clock_events[first_clock..]
        .iter()
        .zip(&table.clock_versions[first_clock..])
        .take(limit)
    {
        push(*version, event.type_name(), json(event));
    }
    // Contributions are public; the server's seed is its round's secret, for everyone.
    let first_entropy = table.entropy_index_after(after);
    for (event, version) in table.entropy_events[first_entropy..]
        .iter()
        .zip(&table.entropy_versions[first_entropy..])
        .take(limit)
    {
        let mut payload = json(event);
        if let EntropyEvent::SeedCommitted(committed) = event
            && !table.entropy.seed_revealed(committed.round)
            && let Some(seed) = payload.get_mut("seed")
        {
            *seed = Value::Null;
        }
        push(*version, event.type_name(), payload);
    }
    page.sort_by_key(|e| e.version);
    page.truncate(limit);
    let next_after = page.last().map_or(after.min(table.version), |e| e.version);
    (page, next_after)
}

fn json<T: Serialize>(event: &T) -> Value {
    serde_json::to_value(event).unwrap_or(Value::Null)
}
