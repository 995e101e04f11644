//! Game records (`yaniv-record/1`, described in `docs/record-format.md`): a whole game
//! as one JSON document, replayable anywhere.
//!
//! - `format.rs`: the record's serde types; cards stay strings until the import.
//! - `player_map.rs`: JSON objects keyed by player name, in order, without duplicates.
//! - `parse.rs`: bytes to a record, locating the first malformed part.
//! - `import.rs`: [`replay`]: the record turned into commands the engine decides.
//! - `export.rs`: [`export`]: a game's events written as a record.
//! - `position.rs`: a record's (round, action) numbering mapped to the game's events.
//! - `steps.rs`: [`record_steps`]: the game after every event of a record, for a viewer.
//! - `result.rs`: the `yaniv-result/1` document, copied from the engine's events.
//! - `error.rs`: [`RecordError`] (`yaniv-error/1`) and [`ExportError`].

mod error;
#[cfg(any(feature = "openapi", test))]
mod examples;
mod export;
mod format;
mod import;
mod parse;
mod player_map;
mod position;
mod result;
#[cfg(feature = "openapi")]
mod schema;
mod steps;
mod syntax;

pub use error::{ERROR_FORMAT, ExportError, RECORD_CODES, RecordError};
#[cfg(feature = "openapi")]
pub use examples::{example_record, example_result};
pub use export::{export, export_with_versions, rule_spec};
pub use format::{
    Act, ActionRecord, DrawRecord, EntropyRecord, GameRecord, QueenRecord, RECORD_FORMAT,
    RECORD_FORMAT_SLAPS_PLAY, RECORD_FORMAT_UNCAPPED, RoundRecord, ShuffleRecord, TurnBonus,
};
pub use import::{ReplayOutcome, replay, replay_json, replay_until_problem};
pub use parse::{MAX_RECORD_BYTES, parse_record};
pub use player_map::PlayerMap;
pub use position::{PositionError, RecordPosition, action_index, last_position, positions};
pub use result::{
    BonusResult, PlacedPlayer, RESULT_FORMAT, ReductionResult, ReplayResult, RoundResult,
};
pub use steps::{RecordStep, RecordSteps, record_steps};
pub use syntax::unreadable;
