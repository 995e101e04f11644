//! Stored events are kept forever: every `.v1` form in `fixtures/events.v1.jsonl` must keep
//! deserializing, and serialize back to the same JSON. A change that breaks this test
//! breaks every stored game; add a `.v2` variant and upcast instead.

use std::collections::BTreeSet;

use yaniv_domain::game::Event;

const GOLDEN: &str = include_str!("fixtures/events.v1.jsonl");

#[test]
fn every_v1_event_reads_and_writes_unchanged() {
    for (line_no, line) in GOLDEN
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
    {
        let event: Event =
            serde_json::from_str(line).unwrap_or_else(|e| panic!("line {}: {e}", line_no + 1));
        let written = serde_json::to_value(&event).expect("serialize");
        let original: serde_json::Value = serde_json::from_str(line).expect("valid JSON");
        assert_eq!(written, original, "line {} changed shape", line_no + 1);
        assert_eq!(original["type"], event.type_name());
    }
}

#[test]
fn the_golden_file_covers_every_event_type() {
    let seen: BTreeSet<String> = GOLDEN
        .lines()
        .filter_map(|l| serde_json::from_str::<Event>(l).ok())
        .map(|e| e.type_name().to_owned())
        .collect();
    for name in Event::TYPES {
        assert!(seen.contains(name), "{name} has no golden example");
    }
}

#[test]
fn unknown_fields_and_types_are_rejected_not_ignored() {
    for bad in [
        r#"{"type":"turn_played.v1","seat":0,"thrown":["AS"],"draw":{"stock":"2S"},"extra":1}"#,
        r#"{"type":"turn_played.v9","seat":0,"thrown":["AS"],"draw":{"stock":"2S"}}"#,
        r#"{"type":"turn_played.v1","seat":0,"thrown":["1S"],"draw":{"stock":"2S"}}"#,
    ] {
        assert!(serde_json::from_str::<Event>(bad).is_err(), "{bad}");
    }
}
