//! The `yaniv-record/1` and `yaniv-record/2` document as serde types. The contract is closed: every object
//! rejects fields it does not define. Cards stay strings here; the import parses them
//! itself so that a bad card is reported with its exact round and action.

use serde::{Deserialize, Serialize};

use crate::game::CallKind;
use crate::rules::RuleSpec;

use super::player_map::PlayerMap;

/// The `format` of a game record in which a slapped card sets off nothing: every game
/// whose rules have no slap-down or no bonus rule a played card sets off, and every
/// game created before slap-downs played.
pub const RECORD_FORMAT: &str = "yaniv-record/1";

/// The `format` of a game record whose slap-downs play ("This play is called a
/// slap-down"): a slapped card sets off the bonus rules as a thrown one does, and a
/// `"slap"` may carry what they moved, as a turn does. A reader of it reads
/// `yaniv-record/1` too.
pub const RECORD_FORMAT_SLAPS_PLAY: &str = "yaniv-record/2";

/// The `format` of a game record created under the readings of 2026-12: a hand holds
/// any number of cards (Sevens: "a card is drawn for each seven played"), and a card
/// drawn off a pile's top throw leaves the rest in order (Osmosis). Written only where
/// one of them can matter; slap-downs play as in `yaniv-record/2`. A reader of it reads
/// the two earlier versions too, which keep the 16-card hand and the old pile order.
pub const RECORD_FORMAT_UNCAPPED: &str = "yaniv-record/3";

/// A whole game record.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "openapi", schema(example = super::examples::example_record))]
pub struct GameRecord {
    /// `yaniv-record/1`, `yaniv-record/2` for a game whose slap-downs play, or
    /// `yaniv-record/3` for one whose hands have no cap or whose pile tops keep order.
    #[cfg_attr(feature = "openapi", schema(example = "yaniv-record/1"))]
    pub format: String,
    pub rules: RuleSpec,
    /// Seating order, in the direction of play.
    pub players: Vec<String>,
    /// Totals before the first round, one per player; absent means all zero.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(schema_with = initial_totals_schema))]
    pub initial_totals: Option<PlayerMap<u32>>,
    pub rounds: Vec<RoundRecord>,
}

/// `initial_totals` as read: per player a `u32` (the whole range, not the `int32` its
/// format name would suggest); absent or `null` for all zero.
#[cfg(feature = "openapi")]
fn initial_totals_schema() -> utoipa::openapi::schema::Object {
    use utoipa::openapi::schema::{AdditionalProperties, ObjectBuilder, SchemaFormat, Type};
    use utoipa::openapi::{KnownFormat, schema::SchemaType};
    let total = ObjectBuilder::new()
        .schema_type(Type::Integer)
        .format(Some(SchemaFormat::KnownFormat(KnownFormat::Int64)))
        .minimum(Some(0))
        .maximum(Some(u32::MAX));
    ObjectBuilder::new()
        .schema_type(SchemaType::from_iter([Type::Object, Type::Null]))
        .additional_properties(Some(AdditionalProperties::RefOr(
            utoipa::openapi::RefOr::T(total.build().into()),
        )))
        .description(Some(
            "Totals before the first round, one per player; absent means all zero.",
        ))
        .build()
}

/// One round: the deal and every action, in the order they happened.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct RoundRecord {
    /// Required in the first round; later it is derived by the rules, and a given one
    /// must equal the derived one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub starter: Option<String>,
    /// Each player still in the game, with the cards dealt to them.
    #[cfg_attr(feature = "openapi", schema(value_type = std::collections::BTreeMap<String, Vec<crate::cards::Card>>))]
    pub hands: PlayerMap<Vec<String>>,
    #[cfg_attr(feature = "openapi", schema(value_type = crate::cards::Card))]
    pub up_card: String,
    /// Present when the server dealt the round from a committed seed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shuffle: Option<ShuffleRecord>,
    pub actions: Vec<ActionRecord>,
}

/// The commitment published before the deal and the seed revealed after the round, both
/// as 64 hexadecimal characters.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct ShuffleRecord {
    #[cfg_attr(feature = "openapi", schema(value_type = crate::shuffle::Commitment))]
    pub commitment: String,
    #[cfg_attr(feature = "openapi", schema(value_type = crate::shuffle::Seed))]
    pub seed: String,
    /// At a table with player entropy: how `seed` was made. Absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub entropy: Option<EntropyRecord>,
}

/// The making of a round's seed at a table with player entropy
/// (`yaniv-player-entropy/1`): the server's seed and its commitment, published before
/// the contributions, and each contributor's 32 bytes. The round's `seed` is their mix.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct EntropyRecord {
    /// `yaniv-player-entropy/1`.
    pub procedure: String,
    /// SHA-256 of the server's seed.
    #[cfg_attr(feature = "openapi", schema(value_type = crate::shuffle::Commitment))]
    pub commitment: String,
    /// The server's seed.
    #[cfg_attr(feature = "openapi", schema(value_type = crate::shuffle::Seed))]
    pub seed: String,
    /// Per player who contributed, in seat order: their 32 bytes as 64 hex digits, or
    /// `null` for the default (zeros). Bots and players out of the game send none.
    #[cfg_attr(
        feature = "openapi",
        schema(value_type = std::collections::BTreeMap<String, Option<String>>)
    )]
    pub contributions: PlayerMap<Option<String>>,
}

/// One action of one player. In JSON: `{"player": P}` plus exactly one of
/// `throw` (with `draw`), `slap`, `add`, `call`, `go_along`, `onderkluft`,
/// `waterfall`, `waterfall_pick`, and
/// optionally `event_version`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "RawAction", into = "RawAction")]
pub struct ActionRecord {
    pub player: String,
    pub act: Act,
    /// The version, in the server's table stream, of the event this action was
    /// exported from (what `GET /v1/tables/{id}/audit?as_of=` takes). Written by the
    /// server's export only; optional on import, where it is carried but not checked
    /// (a record typed in from paper has no stream to point into).
    pub event_version: Option<u64>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Act {
    /// A turn: the cards thrown, bottom first, then the card drawn, and what the bonus
    /// rules moved with it.
    Play {
        throw: Vec<String>,
        draw: DrawRecord,
        bonus: TurnBonus,
    },
    /// The thrower lays the card just drawn onto their own throw (`"slap": [C]`), and
    /// (`yaniv-record/2`) what the bonus rules moved with it, as with a turn.
    Slap {
        card: String,
        bonus: TurnBonus,
    },
    /// Another player lays cards onto the top throw (`"add": [..]`).
    Add(Vec<String>),
    Call(CallKind),
    GoAlong(bool),
    Onderkluft(bool),
    /// Waterfall: at the beginning of a turn, the straight passed to the left
    /// (`"waterfall": [..]`).
    Waterfall(Vec<String>),
    /// Waterfall: the card a player keeps of those passed to them
    /// (`"waterfall_pick": C`).
    WaterfallPick(String),
    /// Fifths Disease: before a turn, the size of the pile the five of diamonds kills
    /// (`"kill_pile": N`).
    KillPile(u8),
}

/// What the bonus rules moved in a turn or a slap-down, written beside it (each omitted
/// when none).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TurnBonus {
    /// Sevens: the cards the other players were forced to draw, in the order they drew
    /// them (`"forced"`).
    pub forced: Vec<String>,
    /// Piñata: the card the throw's three set aside (`"pinata"`).
    pub pinata: Option<String>,
    /// Double-edged sword: the hands its black eight dealt again (`"redealt"`).
    pub redealt: Option<PlayerMap<Vec<String>>>,
    /// Crazy queens: the thrower's swap (`"queen"`).
    pub queen: Option<QueenRecord>,
}

/// Crazy queens: `{"target": P, "give": C, "take": C}`, the player the thrower chose,
/// the card passed to them and the card the blind pick took from them. `take` may be
/// left out where the round's seed decides it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct QueenRecord {
    pub target: String,
    pub give: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub take: Option<String>,
}

/// `{"stock": C}` or `{"discard": C}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum DrawRecord {
    /// The card drawn from the stock.
    #[cfg_attr(feature = "openapi", schema(value_type = crate::cards::Card))]
    Stock(String),
    /// A card of the previous throw.
    #[cfg_attr(feature = "openapi", schema(value_type = crate::cards::Card))]
    Discard(String),
}

/// The JSON shape of an action, before checking that it holds exactly one kind.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawAction {
    player: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    throw: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    draw: Option<DrawRecord>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    forced: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pinata: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    redealt: Option<PlayerMap<Vec<String>>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    queen: Option<QueenRecord>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    slap: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    add: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    call: Option<CallKind>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    go_along: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    onderkluft: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    waterfall: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    waterfall_pick: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    kill_pile: Option<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    event_version: Option<u64>,
}

const ONE_KIND: &str = "an action has a \"player\" and exactly one of \"throw\" (with \"draw\"), \"slap\", \"add\", \"call\", \"go_along\", \"onderkluft\", \"waterfall\", \"waterfall_pick\", \"kill_pile\"";

impl TryFrom<RawAction> for ActionRecord {
    type Error = String;

    fn try_from(raw: RawAction) -> Result<Self, Self::Error> {
        let RawAction {
            player,
            throw,
            draw,
            forced,
            pinata,
            redealt,
            queen,
            slap,
            add,
            call,
            go_along,
            onderkluft,
            waterfall,
            waterfall_pick,
            kill_pile,
            event_version,
        } = raw;
        let bonus = TurnBonus {
            forced: forced.unwrap_or_default(),
            pinata,
            redealt,
            queen,
        };
        if bonus != TurnBonus::default() && throw.is_none() && slap.is_none() {
            return Err(
                "\"forced\", \"pinata\", \"redealt\" and \"queen\" name what the bonus \
                 rules moved with a throw or a slap-down: they come with a \"throw\" or a \
                 \"slap\""
                    .into(),
            );
        }
        let kinds = [
            throw.is_some() || draw.is_some(),
            slap.is_some(),
            add.is_some(),
            call.is_some(),
            go_along.is_some(),
            onderkluft.is_some(),
            waterfall.is_some(),
            waterfall_pick.is_some(),
            kill_pile.is_some(),
        ];
        if kinds.iter().filter(|&&k| k).count() != 1 {
            return Err(ONE_KIND.to_owned());
        }
        if event_version == Some(0) {
            return Err("\"event_version\" is a stream version: 1 or more".into());
        }
        let act = match (throw, draw, slap, add, call, go_along, onderkluft) {
            (Some(throw), Some(draw), ..) => Act::Play { throw, draw, bonus },
            (Some(_), None, ..) => {
                return Err(
                    "a throw is followed by a \"draw\": {\"stock\": C} or {\"discard\": C}".into(),
                );
            }
            (None, Some(_), ..) => {
                return Err("a \"draw\" comes with the \"throw\" before it".into());
            }
            (_, _, Some(slap), ..) => match <[String; 1]>::try_from(slap) {
                Ok([card]) => Act::Slap { card, bonus },
                Err(_) => return Err("a slap-down lays exactly one card: \"slap\": [C]".into()),
            },
            (_, _, _, Some(add), ..) => Act::Add(add),
            (_, _, _, _, Some(call), ..) => Act::Call(call),
            (_, _, _, _, _, Some(going), _) => Act::GoAlong(going),
            (_, _, _, _, _, _, Some(challenge)) => Act::Onderkluft(challenge),
            _ => match (waterfall, waterfall_pick, kill_pile) {
                (Some(cards), None, None) => Act::Waterfall(cards),
                (None, Some(card), None) => Act::WaterfallPick(card),
                (None, None, Some(size)) => Act::KillPile(size),
                _ => return Err(ONE_KIND.to_owned()),
            },
        };
        Ok(ActionRecord {
            player,
            act,
            event_version,
        })
    }
}

impl From<ActionRecord> for RawAction {
    fn from(action: ActionRecord) -> Self {
        let mut raw = RawAction {
            player: action.player,
            event_version: action.event_version,
            ..RawAction::default()
        };
        match action.act {
            Act::Play { throw, draw, bonus } => {
                raw.throw = Some(throw);
                raw.draw = Some(draw);
                raw.forced = (!bonus.forced.is_empty()).then_some(bonus.forced);
                raw.pinata = bonus.pinata;
                raw.redealt = bonus.redealt;
                raw.queen = bonus.queen;
            }
            Act::Slap { card, bonus } => {
                raw.slap = Some(vec![card]);
                raw.forced = (!bonus.forced.is_empty()).then_some(bonus.forced);
                raw.pinata = bonus.pinata;
                raw.redealt = bonus.redealt;
                raw.queen = bonus.queen;
            }
            Act::Add(cards) => raw.add = Some(cards),
            Act::Call(call) => raw.call = Some(call),
            Act::GoAlong(going) => raw.go_along = Some(going),
            Act::Onderkluft(challenge) => raw.onderkluft = Some(challenge),
            Act::Waterfall(cards) => raw.waterfall = Some(cards),
            Act::WaterfallPick(card) => raw.waterfall_pick = Some(card),
            Act::KillPile(size) => raw.kill_pile = Some(size),
        }
        raw
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn action(value: serde_json::Value) -> Result<ActionRecord, String> {
        serde_json::from_value(value).map_err(|e| e.to_string())
    }

    #[test]
    fn every_kind_of_action_round_trips() {
        for value in [
            json!({"player": "ann", "throw": ["AS", "2S", "3S"], "draw": {"discard": "7H"}}),
            json!({"player": "bob", "throw": ["QC"], "draw": {"stock": "QS"}}),
            json!({"player": "bob", "throw": ["7C", "7D"], "draw": {"stock": "QS"}, "forced": ["2H", "KD"]}),
            json!({"player": "bob", "throw": ["3C"], "draw": {"stock": "QS"}, "pinata": "5H"}),
            json!({"player": "bob", "throw": ["8S"], "draw": {"stock": "QS"}, "redealt": {"ann": ["2H"], "bob": ["QS"]}}),
            json!({"player": "bob", "throw": ["QC"], "draw": {"stock": "2S"}, "queen": {"target": "ann", "give": "9H", "take": "KD"}}),
            json!({"player": "bob", "throw": ["QC"], "draw": {"stock": "2S"}, "queen": {"target": "ann", "give": "9H"}}),
            json!({"player": "bob", "slap": ["QS"]}),
            json!({"player": "bob", "slap": ["7S"], "forced": ["2H"]}),
            json!({"player": "bob", "slap": ["QS"], "queen": {"target": "ann", "give": "9H", "take": "KD"}}),
            json!({"player": "cid", "add": ["QH", "QD"]}),
            json!({"player": "cid", "call": "yaniv"}),
            json!({"player": "cid", "call": "kluft"}),
            json!({"player": "ann", "go_along": false}),
            json!({"player": "ann", "onderkluft": true}),
            json!({"player": "ann", "waterfall": ["4C", "5H", "6S"]}),
            json!({"player": "bob", "waterfall_pick": "5H"}),
            json!({"player": "bob", "kill_pile": 2}),
            json!({"player": "ann", "throw": ["9C"], "draw": {"stock": "2D"}, "event_version": 57}),
            json!({"player": "bob", "call": "yaniv", "event_version": 58}),
        ] {
            let parsed = action(value.clone()).expect("valid action");
            assert_eq!(serde_json::to_value(&parsed).ok(), Some(value));
        }
    }

    #[test]
    fn an_action_is_exactly_one_kind() {
        assert!(action(json!({"player": "ann"})).is_err());
        assert!(action(json!({"player": "ann", "call": "yaniv", "go_along": true})).is_err());
        assert!(
            action(json!({"player": "ann", "throw": ["AS"]})).is_err_and(|e| e.contains("draw"))
        );
        assert!(
            action(json!({"player": "ann", "slap": ["AS", "AD"]}))
                .is_err_and(|e| e.contains("exactly one card"))
        );
        assert!(action(json!({"player": "ann", "call": "jhyap"})).is_err());
        assert!(
            action(json!({"player": "ann", "call": "yaniv", "forced": ["2H"]}))
                .is_err_and(|e| e.contains("come with a \"throw\" or a \"slap\""))
        );
        assert!(action(json!({"player": "ann", "call": "yaniv", "note": "x"})).is_err());
        assert!(action(json!({"player": "ann", "event_version": 3})).is_err());
        assert!(action(json!({"player": "ann", "call": "yaniv", "event_version": -1})).is_err());
        assert!(
            action(json!({"player": "ann", "call": "yaniv", "event_version": 0}))
                .is_err_and(|e| e.contains("1 or more"))
        );
        assert!(
            action(
                json!({"player": "ann", "throw": ["AS"], "draw": {"stock": "2S", "discard": "3S"}})
            )
            .is_err()
        );
    }
}
