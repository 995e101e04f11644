//! From bytes to a [`GameRecord`], with the position of the first malformed part: the
//! document is read as JSON first, then its parts are checked one by one (format, rules,
//! each round, each action) so that an error names the round and action it is in.

use serde::Deserialize;
use serde_json::Value;

use crate::rules::RuleSpec;

use super::error::RecordError;
use super::format::{
    ActionRecord, GameRecord, RECORD_FORMAT, RECORD_FORMAT_SLAPS_PLAY, RECORD_FORMAT_UNCAPPED,
    RoundRecord,
};

/// Largest record accepted: far above any real game, small enough to hold in memory.
pub const MAX_RECORD_BYTES: usize = 16 * 1024 * 1024;

/// Parses a `yaniv-record/1` document. Cards are not checked here (see `replay`).
pub fn parse_record(bytes: &[u8]) -> Result<GameRecord, RecordError> {
    if bytes.len() > MAX_RECORD_BYTES {
        return Err(RecordError::bad_record(
            None,
            None,
            format!(
                "the record is larger than {} MiB",
                MAX_RECORD_BYTES / (1024 * 1024)
            ),
        ));
    }
    // Straight into the types first: this also catches a player named twice in one
    // object, which a `Value` would silently collapse.
    let direct = serde_json::from_slice::<GameRecord>(bytes);
    let error = match direct {
        Ok(record) => {
            check_record_format(&record)?;
            return Ok(record);
        }
        Err(e) => e,
    };
    let value: Value = serde_json::from_slice(bytes).map_err(|e| {
        RecordError::bad_record(
            None,
            None,
            format!("the record is not a JSON document: {e}"),
        )
    })?;
    locate(&value)?;
    Err(RecordError::bad_record(
        None,
        None,
        format!("malformed record: {error}"),
    ))
}

/// The first malformed part of a record, by position.
fn locate(value: &Value) -> Result<(), RecordError> {
    let Value::Object(fields) = value else {
        return Err(RecordError::bad_record(
            None,
            None,
            "a game record is a JSON object",
        ));
    };
    check_format(fields.get("format"))?;
    if let Some(rules) = fields.get("rules") {
        RuleSpec::deserialize(rules).map_err(|e| {
            RecordError::new(
                None,
                None,
                "bad_rules",
                format!("\"rules\" must be {{\"preset\", \"overrides\"}}: {e}"),
            )
        })?;
    }
    if let Some(Value::Array(rounds)) = fields.get("rounds") {
        for (r, round) in rounds.iter().enumerate() {
            if let Some(Value::Array(actions)) = round.get("actions") {
                for (a, action) in actions.iter().enumerate() {
                    ActionRecord::deserialize(action).map_err(|e| {
                        RecordError::bad_record(Some(r), Some(a), format!("malformed action: {e}"))
                    })?;
                }
            }
            RoundRecord::deserialize(round).map_err(|e| {
                RecordError::bad_record(Some(r), None, format!("malformed round: {e}"))
            })?;
        }
    }
    GameRecord::deserialize(value)
        .map(drop)
        .map_err(|e| RecordError::bad_record(None, None, format!("malformed record: {e}")))
}

fn check_format(format: Option<&Value>) -> Result<(), RecordError> {
    match format {
        Some(Value::String(f))
            if [
                RECORD_FORMAT,
                RECORD_FORMAT_SLAPS_PLAY,
                RECORD_FORMAT_UNCAPPED,
            ]
            .contains(&f.as_str()) =>
        {
            Ok(())
        }
        Some(Value::String(f)) => {
            let shown: String = f.chars().take(40).collect();
            Err(RecordError::bad_record(
                None,
                None,
                format!(
                    "unsupported format {shown:?}: this program reads \"{RECORD_FORMAT}\", \
                     \"{RECORD_FORMAT_SLAPS_PLAY}\" and \"{RECORD_FORMAT_UNCAPPED}\""
                ),
            ))
        }
        Some(_) => Err(RecordError::bad_record(
            None,
            None,
            format!("\"format\" must be the string \"{RECORD_FORMAT}\""),
        )),
        None => Err(RecordError::bad_record(
            None,
            None,
            format!("missing \"format\": \"{RECORD_FORMAT}\""),
        )),
    }
}

/// Checks the `format` field of a record built in code.
pub(super) fn check_record_format(record: &GameRecord) -> Result<(), RecordError> {
    check_format(Some(&Value::String(record.format.clone())))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(text: &str) -> RecordError {
        parse_record(text.as_bytes()).expect_err("malformed")
    }

    #[test]
    fn malformed_parts_are_located() {
        let e = err("{");
        assert_eq!((e.code, e.round, e.action), ("bad_record", None, None));
        let e = err(r#"{"format": "yaniv-record/4"}"#);
        assert!(e.message.contains("unsupported format"), "{e}");
        let e = err(
            r#"{"format": "yaniv-record/1", "rules": {"preset": "israeli", "overide": {}}, "players": [], "rounds": []}"#,
        );
        assert_eq!(e.code, "bad_rules");
        let text = r#"{"format": "yaniv-record/1", "rules": {"preset": "israeli"}, "players": ["a", "b"],
            "rounds": [{"starter": "a", "hands": {}, "up_card": "AS", "actions": [{"player": "a", "call": "yaniv"}, {"player": "b"}]}]}"#;
        let e = err(text);
        assert_eq!(
            (e.code, e.round, e.action),
            ("bad_record", Some(0), Some(1))
        );
        let text = r#"{"format": "yaniv-record/1", "rules": {"preset": "israeli"}, "players": ["a", "b"],
            "rounds": [{"starter": "a", "hands": {"a": [], "a": []}, "up_card": "AS", "actions": []}]}"#;
        let e = err(text);
        assert_eq!((e.code, e.round, e.action), ("bad_record", None, None));
        assert!(
            e.message.contains("player \"a\" appears twice at line 2"),
            "{e}"
        );
        let e =
            err(r#"{"format": "yaniv-record/1", "rules": {"preset": "israeli"}, "rounds": []}"#);
        assert!(e.message.contains("players"), "{e}");
    }

    #[test]
    fn oversized_input_is_refused_before_parsing() {
        let big = vec![b' '; MAX_RECORD_BYTES + 1];
        assert!(
            err(std::str::from_utf8(&big).unwrap_or_default())
                .message
                .contains("larger than 16 MiB")
        );
    }
}
