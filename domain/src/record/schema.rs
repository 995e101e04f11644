//! OpenAPI schemas of the record types whose JSON shape is not their Rust shape (feature
//! `openapi`): an action is `{"player": P}` plus exactly one kind (`format.rs` reads it
//! through `RawAction`), and two enums of the game engine that records name. The
//! documented example record and its result live here too, beside the types they show.

use std::borrow::Cow;

use serde_json::json;
use utoipa::openapi::schema::{
    AdditionalProperties, ArrayBuilder, ObjectBuilder, OneOfBuilder, Schema, Type,
};
use utoipa::openapi::{Ref, RefOr};
use utoipa::{PartialSchema, ToSchema};

use crate::cards::Card;

use super::format::{ActionRecord, DrawRecord};

/// The calls a record may name (`game::CallKind`).
pub const CALL_KINDS: [&str; 2] = ["yaniv", "kluft"];

fn string_enum(values: &[&str], description: &str) -> Schema {
    ObjectBuilder::new()
        .schema_type(Type::String)
        .enum_values(Some(values.iter().copied()))
        .description(Some(description))
        .into()
}

fn card_list() -> ArrayBuilder {
    ArrayBuilder::new().items(RefOr::Ref(Ref::from_schema_name(Card::name())))
}

/// One kind of action: `player`, the kind's own fields and the optional
/// `event_version`, nothing else.
fn action_kind(description: &str, fields: Vec<(&str, RefOr<Schema>)>) -> RefOr<Schema> {
    action_kind_with(description, fields, Vec::new())
}

/// [`action_kind`] with some fields that may be left out.
fn action_kind_with(
    description: &str,
    fields: Vec<(&str, RefOr<Schema>)>,
    optional: Vec<(&str, RefOr<Schema>)>,
) -> RefOr<Schema> {
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
        .property(
            "event_version",
            ObjectBuilder::new()
                .schema_type(utoipa::openapi::schema::SchemaType::from_iter([
                    Type::Integer,
                    Type::Null,
                ]))
                .minimum(Some(1))
                .description(Some(
                    "Optional (`null` as absent): the version of the event this action was exported from in the \
                     server's table stream (`GET /v1/tables/{id}/audit?as_of=`). Written by the \
                     server's export; read but not checked by a replay",
                )),
        )
        .additional_properties(Some(AdditionalProperties::<Schema>::FreeForm(false)));
    for (name, schema) in fields {
        object = object.property(name, schema).required(name);
    }
    // The reader takes `null` for any optional field as its absence.
    for (name, schema) in optional {
        let nullable = OneOfBuilder::new()
            .item(schema)
            .item(ObjectBuilder::new().schema_type(Type::Null));
        object = object.property(name, nullable);
    }
    object.into()
}

/// What the bonus rules moved with a turn's throw or (`yaniv-record/2`) a slapped card,
/// each field optional.
fn bonus_fields() -> Vec<(&'static str, RefOr<Schema>)> {
    vec![
        (
            "forced",
            card_list()
                .description(Some(
                    "Bonus rule `sevens`: the cards the throw's (or slapped card's) sevens made the other \
                 players draw from the stock, in the order drawn (each other \
                 player from the thrower's left, all of theirs before the next). \
                 Left out when there are none; `[]` reads the same",
                ))
                .examples([json!(["8C", "KD"])])
                .into(),
        ),
        (
            "pinata",
            RefOr::T(
                ObjectBuilder::new()
                    .schema_type(Type::String)
                    .description(Some(
                        "Bonus rule `pinata`: the card the throw's (or slapped) three set aside \
                     from the top of the stock (a card code)",
                    ))
                    .examples([json!("KS")])
                    .into(),
            ),
        ),
        (
            "redealt",
            RefOr::T(
                ObjectBuilder::new()
                    .schema_type(Type::Object)
                    .additional_properties(Some(AdditionalProperties::RefOr(
                        card_list().into(),
                    )))
                    .description(Some(
                        "Bonus rule `double_edged_sword`: every new hand the \
                         throw's (or slapped) black eight dealt, by player",
                    ))
                    .examples([json!({"ann": ["4C", "5C"], "bob": ["KH", "2H"]})])
                    .into(),
            ),
        ),
        (
            "queen",
            RefOr::T(
                ObjectBuilder::new()
                    .schema_type(Type::Object)
                    .property(
                        "target",
                        ObjectBuilder::new()
                            .schema_type(Type::String)
                            .description(Some("The player who received the card")),
                    )
                    .property("give", RefOr::Ref(Ref::from_schema_name(Card::name())))
                    .property(
                        "take",
                        OneOfBuilder::new()
                            .item(RefOr::Ref(Ref::from_schema_name(Card::name())))
                            .item(ObjectBuilder::new().schema_type(Type::Null)),
                    )
                    .required("target")
                    .required("give")
                    .additional_properties(Some(AdditionalProperties::FreeForm(false)))
                    .description(Some(
                        "Bonus rule `crazy_queens`: whom the throw's (or slapped) queen targeted, \
                         the card given and the card the blind pick took (`take` \
                         may be left out where the round's seed decides it)",
                    ))
                    .examples([json!({"target": "bob", "give": "9H", "take": "AC"})])
                    .into(),
            ),
        ),
    ]
}

/// The named kinds of action, as `(schema name, schema)`.
fn action_kinds() -> Vec<(&'static str, RefOr<Schema>)> {
    let boolean = || RefOr::T(ObjectBuilder::new().schema_type(Type::Boolean).into());
    vec![
        (
            "RecordTurn",
            action_kind_with(
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
                bonus_fields(),
            ),
        ),
        (
            "RecordSlap",
            action_kind_with(
                "The thrower lays the card just drawn onto their own throw (exactly one card). \
                 In `yaniv-record/2` the card is a play, and the slap carries what the bonus \
                 rules moved for it as a turn does; in `yaniv-record/1` it carries none",
                vec![(
                    "slap",
                    card_list()
                        .min_items(Some(1))
                        .max_items(Some(1))
                        .examples([json!(["QS"])])
                        .into(),
                )],
                bonus_fields(),
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
        (
            "RecordWaterfall",
            action_kind(
                "Bonus rule `waterfall`: at the beginning of their turn, the player passes a \
                 straight of one card per player (any suits) to their left",
                vec![(
                    "waterfall",
                    card_list().examples([json!(["4C", "5H", "6S"])]).into(),
                )],
            ),
        ),
        (
            "RecordWaterfallPick",
            action_kind(
                "Bonus rule `waterfall`: the card a player keeps of those passed to them (the \
                 rest go on to their left)",
                vec![(
                    "waterfall_pick",
                    RefOr::Ref(Ref::from_schema_name(Card::name())),
                )],
            ),
        ),
        (
            "RecordKillPile",
            action_kind(
                "Bonus rule `fifths_disease`: before their turn, the player lays the five of \
                 diamonds on the pile of throws of this many cards (Cell Division), killing it \
                 for the round",
                vec![(
                    "kill_pile",
                    ObjectBuilder::new()
                        .schema_type(Type::Integer)
                        .minimum(Some(2))
                        .maximum(Some(16))
                        .into(),
                )],
            ),
        ),
    ]
}

impl PartialSchema for ActionRecord {
    fn schema() -> RefOr<Schema> {
        let mut one_of = OneOfBuilder::new().description(Some(
            "One action: `player` and exactly one kind (`throw` with `draw`, `slap`, `add`, \
             `call`, `go_along`, `onderkluft`, `waterfall`, `waterfall_pick`)",
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::CallKind;

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
    }
}
