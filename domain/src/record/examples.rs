//! The examples of the record endpoints' OpenAPI document: a record and what it
//! replays to (a test checks that the one gives the other).

use serde_json::{Value, json};

/// The request example of `POST /v1/records/replay`: the Belgian round of RECORD.md,
/// made concrete (`domain/tests/fixtures/records/belgian_meegaan.json`).
pub fn example_record() -> Value {
    json!({
        "format": "yaniv-record/1",
        "rules": { "preset": "belgian", "overrides": { "call_threshold": 7 } },
        "players": ["ann", "bob", "cid"],
        "initial_totals": { "ann": 0, "bob": 0, "cid": 0 },
        "rounds": [{
            "starter": "ann",
            "hands": {
                "ann": ["AS", "2S", "3S", "9D", "KH"],
                "bob": ["QC", "8D", "AD", "JK", "3D"],
                "cid": ["QH", "QD", "AH", "2D", "3C"]
            },
            "up_card": "7H",
            "actions": [
                { "player": "ann", "throw": ["AS", "2S", "3S"], "draw": { "discard": "7H" } },
                { "player": "bob", "throw": ["QC"], "draw": { "stock": "QS" } },
                { "player": "bob", "slap": ["QS"] },
                { "player": "cid", "add": ["QH", "QD"] },
                { "player": "cid", "call": "yaniv" },
                { "player": "ann", "throw": ["9D"], "draw": { "stock": "4C" } },
                { "player": "bob", "throw": ["8D"], "draw": { "stock": "2H" } },
                { "player": "ann", "go_along": false },
                { "player": "bob", "go_along": true }
            ]
        }]
    })
}

/// What [`example_record`] replays to.
pub fn example_result() -> Value {
    json!({
        "format": "yaniv-result/1",
        "rounds": [{
            "hand_totals": { "ann": 21, "bob": 6, "cid": 6 },
            "caller": "cid",
            "outcome": "assaf",
            "winner": "bob",
            "points": { "ann": 21, "bob": 0, "cid": 32 },
            "totals": { "ann": 21, "bob": 0, "cid": 32 },
            "reductions": [],
            "eliminated": []
        }],
        "finished": false,
        "next_starter": "bob",
        "standings": [
            { "player": "bob", "total": 0, "place": 1 },
            { "player": "ann", "total": 21, "place": 2 },
            { "player": "cid", "total": 32, "place": 3 }
        ]
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_example_replays_to_the_documented_result() {
        let bytes = serde_json::to_vec(&example_record()).unwrap();
        let outcome = crate::record::replay_json(&bytes).expect("the example replays");
        assert_eq!(
            serde_json::to_value(&outcome.result).unwrap(),
            example_result()
        );
    }
}
