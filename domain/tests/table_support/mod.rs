//! Helpers of the table tests (`table_aggregate`, `table_clock`): fixed randomness,
//! actors, executing a command, creating a table, and folding a stream back.
//!
//! Every test binary includes this module but uses only part of it.
#![allow(dead_code)]

use yaniv_domain::aggregate::Aggregate;
use yaniv_domain::rules::RuleSpec;
use yaniv_domain::sim::SplitMix64;
use yaniv_domain::table::{
    Actor, NewTable, Randomness, StreamEvent, Table, TableCommand, TableError, TableServices,
};

/// The id every test table gets.
pub const TABLE_ID: i64 = 7;

/// Randomness from a seeded generator: the same seed gives the same deals and bots.
pub struct Fixed(pub SplitMix64);

impl Randomness for Fixed {
    fn fill(&mut self, bytes: &mut [u8]) -> Result<(), String> {
        for chunk in bytes.chunks_mut(8) {
            let word = self.0.next_u64().to_le_bytes();
            chunk.copy_from_slice(&word[..chunk.len()]);
        }
        Ok(())
    }
}

pub fn actor(account_id: i64) -> Actor {
    Actor {
        account_id,
        username: format!("user{account_id}"),
        organizer: false,
    }
}

pub fn spec(preset: &str) -> RuleSpec {
    RuleSpec {
        preset: preset.into(),
        overrides: Default::default(),
    }
}

/// Executes `command` as `who` with randomness from `seed`.
pub fn when(
    table: &mut Table,
    who: &Actor,
    seed: u64,
    command: TableCommand,
) -> Result<Vec<StreamEvent>, TableError> {
    let mut random = Fixed(SplitMix64::new(seed));
    let mut services = TableServices {
        actor: who,
        random: &mut random,
    };
    table.execute(&command, &mut services)
}

/// Creates table [`TABLE_ID`] as account 1, with randomness from `seed`.
pub fn create(new: NewTable, seed: u64) -> Result<(Table, Vec<StreamEvent>), TableError> {
    let mut random = Fixed(SplitMix64::new(seed));
    let creator = actor(1);
    let mut services = TableServices {
        actor: &creator,
        random: &mut random,
    };
    Table::create(TABLE_ID, &TableCommand::Create(new), &mut services)
}

pub fn types(events: &[StreamEvent]) -> Vec<&'static str> {
    events.iter().map(StreamEvent::type_name).collect()
}

/// Folds `events` from scratch: what a server reading the stream gets.
pub fn refold(events: &[StreamEvent]) -> Table {
    let mut events = events.iter().cloned();
    let mut table =
        Table::from_first(TABLE_ID, events.next().expect("a first event")).expect("folds");
    for event in events {
        table.apply(event).expect("folds");
    }
    table
}
