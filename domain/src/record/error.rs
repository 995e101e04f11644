//! Why a record was rejected ([`RecordError`], serialized as `yaniv-error/1`) and why a
//! stream of events could not be exported ([`ExportError`]).

use serde::ser::SerializeStruct;
use serde::{Serialize, Serializer};

/// The `format` of a serialized [`RecordError`].
pub const ERROR_FORMAT: &str = "yaniv-error/1";

/// The codes a record's own problems carry, besides the rule violations of
/// `GameError::CODES`.
pub const RECORD_CODES: [&str; 9] = [
    "bad_record",
    "bad_rules",
    "bad_players",
    "bad_deal",
    "bad_shuffle",
    "unknown_card",
    "unknown_player",
    "round_not_finished",
    "round_over",
];

/// The first problem of a rejected record: where it is (0-based round and action index,
/// `None` when the problem is not inside one), a stable machine code and a sentence a
/// referee understands. Players are named by name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}{code}: {message}", position(*.round, *.action))]
pub struct RecordError {
    pub round: Option<usize>,
    pub action: Option<usize>,
    /// One of the codes of `GameError::code` for rule violations, or one of the record
    /// codes (`bad_record`, `bad_rules`, `unknown_card`, `unknown_player`, `bad_shuffle`,
    /// `round_not_finished`, `round_over`, `game_over`).
    pub code: &'static str,
    pub message: String,
}

fn position(round: Option<usize>, action: Option<usize>) -> String {
    match (round, action) {
        (Some(r), Some(a)) => format!("round {r}, action {a}: "),
        (Some(r), None) => format!("round {r}: "),
        _ => String::new(),
    }
}

impl RecordError {
    pub fn new(
        round: Option<usize>,
        action: Option<usize>,
        code: &'static str,
        message: impl Into<String>,
    ) -> Self {
        RecordError {
            round,
            action,
            code,
            message: message.into(),
        }
    }

    /// A problem with the shape of the document itself.
    pub fn bad_record(
        round: Option<usize>,
        action: Option<usize>,
        message: impl Into<String>,
    ) -> Self {
        RecordError::new(round, action, "bad_record", message)
    }

    /// The `yaniv-error/1` JSON document.
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::json!({
            "format": ERROR_FORMAT,
            "round": self.round,
            "action": self.action,
            "code": self.code,
            "message": self.message,
        })
    }
}

/// The `yaniv-error/1` document as its schema describes it: what [`RecordError`]
/// serializes to (a test reads one back into this).
#[cfg(any(feature = "openapi", test))]
#[derive(Debug, Clone, PartialEq, Eq, serde::Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct RecordErrorDocument {
    /// Always `yaniv-error/1`.
    pub format: String,
    /// 0-based round of the problem; `null` when it is not inside a round.
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub round: Option<usize>,
    /// 0-based action in that round; `null` when it is not at an action.
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub action: Option<usize>,
    /// A rule violation's code (`illegal_draw`, `not_your_turn`, ...) or a record's
    /// own (`bad_record`, `unknown_card`, ...).
    pub code: String,
    /// What is wrong, for a referee; players are named by name.
    pub message: String,
}

/// Serializes as the `yaniv-error/1` document:
/// `{"format", "round", "action", "code", "message"}` (`null` round or action when the
/// problem is not inside one).
impl Serialize for RecordError {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut s = serializer.serialize_struct("RecordError", 5)?;
        s.serialize_field("format", ERROR_FORMAT)?;
        s.serialize_field("round", &self.round)?;
        s.serialize_field("action", &self.action)?;
        s.serialize_field("code", self.code)?;
        s.serialize_field("message", &self.message)?;
        s.end()
    }
}

/// A stream of events that is not a game this module can write as a record. Events
/// produced by `Game::decide` never cause one.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ExportError {
    #[error("the events do not start with game_created.v1")]
    NotCreated,
    #[error("event {index} ({event}) cannot follow the events before it")]
    UnexpectedEvent { index: usize, event: &'static str },
    #[error(
        "event {index}: round dealt with shuffle algorithm {algorithm:?}, which records cannot name"
    )]
    UnknownAlgorithm { index: usize, algorithm: String },
    #[error("{events} events but {versions} versions: each event needs its version")]
    Versions { events: usize, versions: usize },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_error_reads_back_as_its_documented_shape() {
        let error = RecordError::new(Some(1), None, "bad_record", "no players");
        let json = serde_json::to_value(&error).unwrap();
        let document: RecordErrorDocument = serde_json::from_value(json).unwrap();
        assert_eq!(document.code, "bad_record");
        assert_eq!((document.round, document.action), (Some(1), None));
        assert_eq!(document.format, ERROR_FORMAT);
    }

    #[test]
    fn serializes_as_a_yaniv_error_document() {
        let e = RecordError::new(Some(0), Some(3), "illegal_draw", "bob cannot draw 6S");
        let json = serde_json::to_value(&e).expect("serializes");
        assert_eq!(json, e.to_json());
        assert_eq!(
            json,
            serde_json::json!({"format": "yaniv-error/1", "round": 0, "action": 3, "code": "illegal_draw", "message": "bob cannot draw 6S"})
        );
        let top = RecordError::bad_record(None, None, "not JSON");
        assert_eq!(top.to_json()["round"], serde_json::Value::Null);
        assert_eq!(
            e.to_string(),
            "round 0, action 3: illegal_draw: bob cannot draw 6S"
        );
    }
}
