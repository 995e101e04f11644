//! OpenAPI schemas of the record types whose JSON shape is not their Rust shape (feature
//! `openapi`): an action is `{"player": P}` plus exactly one kind (`format.rs` reads it
//! through `RawAction`), and two enums of the game engine that records name. The
//! documented example record and its result live here too, beside the types they show.

use std::borrow::Cow;

use serde_json::{Value, json};
use utoipa::openapi::schema::{
    AdditionalProperties, ArrayBuilder, ObjectBuilder, OneOfBuilder, Schema, Type,
};
use utoipa::openapi::{Ref, RefOr};
use utoipa::{PartialSchema, ToSchema};

use crate::cards::Card;

use super::format::{ActionRecord, DrawRecord};

/// The calls a record may name (`game::CallKind`).
pub const CALL_KINDS: [&str; 2] = ["yaniv", "kluft"];

/// How a round may end (`game::Outcome`).
pub const OUTCOMES: [&str; 6] = [
    "yaniv",
    "assaf",
    "false_call",
    "empty_hand",
    "kluft",
    "onderkluft",
];

fn string_enum(values: &[&str], description: &str) -> Schema {
    ObjectBuilder::new()
        .schema_type(Type::String)
        .enum_values(Some(values.iter().copied()))
        .description(Some(description))
        .into()
}

/// `RoundResult::outcome`.
pub fn outcome_schema() -> Schema {
    string_enum(
        &OUTCOMES,
        "How the round ended: `yaniv` (the call succeeded), `assaf` (another hand was as \
         low or lower), `false_call` (called above the threshold, with the penalty), \
         `empty_hand` (Belgian), `kluft` (the Kluft caller won), `onderkluft` (a \
         challenger won)",
    )
}

fn card_list() -> ArrayBuilder {
    ArrayBuilder::new().items(RefOr::Ref(Ref::from_schema_name(Card::name())))
}

/// One kind of action: `player` and the kind's own fields, nothing else.
fn action_kind(description: &str, fields: Vec<(&str, RefOr<Schema>)>) -> RefOr<Schema> {
    let mut object = ObjectBuilder::new()
        .schema_type(Type::Object)
        .description(Some(description))
        .property(
            "player",
            ObjectBuilder::new()
                .schema_type(Type::String)
                .description(Some("A name of the record's `players`")),
        )
        .required("player")
        .additional_properties(Some(AdditionalProperties::<Schema>::FreeForm(false)));
    for (name, schema) in fields {
        object = object.property(name, schema).required(name);
    }
    object.into()
}

/// The named kinds of action, as `(schema name, schema)`.
fn action_kinds() -> Vec<(&'static str, RefOr<Schema>)> {
    let boolean = || RefOr::T(ObjectBuilder::new().schema_type(Type::Boolean).into());
    vec![
        (
            "RecordTurn",
            action_kind(
                "A turn: the cards thrown (bottom first, the last is on top), then the card drawn",
                vec![
                    (
                        "throw",
                        card_list().examples([json!(["AS", "2S", "3S"])]).into(),
                    ),
                    (
                        "draw",
                        RefOr::Ref(Ref::from_schema_name(DrawRecord::name())),
                    ),
                ],
            ),
        ),
        (
            "RecordSlap",
            action_kind(
                "The thrower lays the card just drawn onto their own throw (exactly one card)",
                vec![(
                    "slap",
                    card_list()
                        .min_items(Some(1))
                        .max_items(Some(1))
                        .examples([json!(["QS"])])
                        .into(),
                )],
            ),
        ),
        (
            "RecordAddOn",
            action_kind(
                "A player lays cards onto the throw on top of the pile",
                vec![("add", card_list().examples([json!(["QH", "QD"])]).into())],
            ),
        ),
        (
            "RecordCall",
            action_kind(
                "A call: `yaniv`, or `kluft` under the Kluft rules",
                vec![(
                    "call",
                    RefOr::T(string_enum(&CALL_KINDS, "The word the player called")),
                )],
            ),
        ),
        (
            "RecordGoAlong",
            action_kind(
                "Belgian rules: after the last turns, whether this player goes along",
                vec![("go_along", boolean())],
            ),
        ),
        (
            "RecordOnderkluft",
            action_kind(
                "Kluft rules: whether this player challenges the call",
                vec![("onderkluft", boolean())],
            ),
        ),
    ]
}

impl PartialSchema for ActionRecord {
    fn schema() -> RefOr<Schema> {
        let mut one_of = OneOfBuilder::new().description(Some(
            "One action: `player` and exactly one kind (`throw` with `draw`, `slap`, `add`, \
             `call`, `go_along`, `onderkluft`)",
        ));
        for (name, _) in action_kinds() {
            one_of = one_of.item(RefOr::Ref(Ref::from_schema_name(name)));
        }
        one_of.into()
    }
}

impl ToSchema for ActionRecord {
    fn name() -> Cow<'static, str> {
        Cow::Borrowed("ActionRecord")
    }

    fn schemas(schemas: &mut Vec<(String, RefOr<Schema>)>) {
        for (name, schema) in action_kinds() {
            schemas.push((name.to_owned(), schema));
        }
        schemas.push((DrawRecord::name().into_owned(), DrawRecord::schema()));
        schemas.push((Card::name().into_owned(), Card::schema()));
    }
}

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
    use crate::game::{CallKind, Outcome};

    /// The hand-written enums list exactly the engine's values: each one reads back, and
    /// the engine writes nothing else (the matches are exhaustive on purpose, so a new
    /// variant fails to compile here).
    #[test]
    fn the_enums_are_the_engines() {
        for name in CALL_KINDS {
            let kind: CallKind = serde_json::from_value(json!(name)).unwrap();
            match kind {
                CallKind::Yaniv | CallKind::Kluft => {}
            }
        }
        for name in OUTCOMES {
            let outcome: Outcome = serde_json::from_value(json!(name)).unwrap();
            match outcome {
                Outcome::Yaniv
                | Outcome::Assaf
                | Outcome::FalseCall
                | Outcome::EmptyHand
                | Outcome::Kluft
                | Outcome::Onderkluft => {}
            }
        }
        assert_eq!(OUTCOMES.len(), 6);
    }

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
