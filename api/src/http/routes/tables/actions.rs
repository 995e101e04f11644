//! `POST /v1/tables/{id}/actions`: a seated player acts.
//!
//! The body deserializes into a typed [`ActionRequest`]: the `type` tag picks the
//! action, each action is its own object with its own `type` value (a `oneOf` a
//! generated client and a JSON Schema validator both understand), cards are typed
//! (record notation), and a field that does not fit is named in the problem document
//! (`throw[1]`, `draw.discard`, `card`, ...). [`Action::try_from`] then checks what the
//! types cannot say (a throw holds 1 to 16 cards, room for the 13 of the longest run;
//! hands have no such limit), before anything is read from the
//! database; the table decides the move on its freshly folded state. A draw from the
//! stock is always "the top card, unseen": a client can never name a stock card, so it
//! cannot probe the stock. When the move is accepted, the server deals the next round
//! if one is due and lets the bots play until a human must act; everything is appended
//! together.

use actix_web::{HttpResponse, web};
use serde::de::{self, Deserializer, MapAccess, Visitor};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;
use yaniv_domain::cards::{Card, Cards, MAX_CARDS};
use yaniv_domain::game::{CallKind, DrawChoice, QueenSwap};
use yaniv_domain::shuffle::Contribution;
use yaniv_domain::table::{Action, TableCommand};

use super::write::ActionResponse;
use super::{TableAnswer, run};
use crate::app_state::AppState;
use crate::error::{ApiError, FieldError, typed_body};
use crate::http::routes::command::CommandRequest;
use crate::http::routes::problems::TableCommandProblems;

/// Declares a one-value enum for an action's `type` field, so every action object
/// carries its own tag in the schema.
macro_rules! action_tag {
    ($name:ident, $schema:ident, $value:literal) => {
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
        #[schema(as = $schema)]
        pub enum $name {
            #[serde(rename = $value)]
            #[schema(rename = $value)]
            Tag,
        }
    };
}

/// The actions, each named once: its variant of [`ActionRequest`], its object, the
/// one-value enum of its `type` (and that enum's schema name), and the `type` itself.
macro_rules! actions {
    ($($(#[$doc:meta])* $variant:ident($body:ident, $tag:ident, $schema:ident) = $value:literal,)*) => {
        /// An action: one of the objects below, told apart by `type`.
        #[derive(Debug, Clone, Serialize, ToSchema)]
        #[serde(untagged)]
        pub enum ActionRequest {
            $($(#[$doc])* $variant($body),)*
        }

        $(action_tag!($tag, $schema, $value);)*

        /// Every action's `type`, in order.
        const TYPES: &[&str] = &[$($value),*];

        impl ActionRequest {
            /// The action whose `type` is `kind`, its object read whole from `body`;
            /// `None` for no such type.
            fn of_type(kind: &str, body: Value) -> Option<Result<Self, ApiError>> {
                Some(match kind {
                    $($value => typed_body(body).map(Self::$variant),)*
                    _ => return None,
                })
            }
        }
    };
}

actions! {
    /// Throw one combination, then draw one card.
    Play(PlayAction, PlayType, ActionRequestPlayType) = "play",
    /// Call (Yaniv, or Kluft under Kluft rules) at the start of the turn.
    Call(CallAction, CallType, ActionRequestCallType) = "call",
    /// The thrower lays the card just drawn onto their own throw.
    Slap(SlapAction, SlapType, ActionRequestSlapType) = "slap",
    /// Lay cards onto another player's throw, out of turn.
    AddOn(AddOnAction, AddOnType, ActionRequestAddOnType) = "add_on",
    /// Belgian: go along with the call or not.
    GoAlong(GoAlongAction, GoAlongType, ActionRequestGoAlongType) = "go_along",
    /// Kluft: challenge the call or not.
    Onderkluft(OnderkluftAction, OnderkluftType, ActionRequestOnderkluftType) = "onderkluft",
    /// Waterfall: at the beginning of your turn, pass a straight (one card per player,
    /// any suits) to your left.
    Waterfall(WaterfallAction, WaterfallType, ActionRequestWaterfallType) = "waterfall",
    /// Waterfall: keep one of the cards passed to you; the rest go on to your left.
    WaterfallPick(WaterfallPickAction, WaterfallPickType, ActionRequestWaterfallPickType) = "waterfall_pick",
    /// Fifths Disease: before your turn, lay the five of diamonds on a pile of Cell
    /// Division (not the original one), killing it for the rest of the round.
    KillPile(KillPileAction, KillPileType, ActionRequestKillPileType) = "kill_pile",
    /// Nothing to lay in the out-of-turn window the table holds open for you (tables
    /// with a clock); when everyone it waits for has passed, it closes.
    Pass(PassAction, PassType, ActionRequestPassType) = "pass",
    /// Your seat was marked absent after its timeouts: you are back, and the table
    /// waits for you again.
    Return(ReturnAction, ReturnType, ActionRequestReturnType) = "return",
    /// Your 32 bytes for the next deal's seed, at a table with player entropy (when
    /// `legal.contribute` is true).
    Contribute(ContributeAction, ContributeType, ActionRequestContributeType) = "contribute",
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[schema(as = ActionRequestPlay)]
#[serde(deny_unknown_fields)]
pub struct PlayAction {
    #[serde(rename = "type")]
    pub kind: PlayType,
    /// The combination, bottom card first (the last card is the top of the pile).
    #[schema(min_items = 1, max_items = 16, example = json!(["3H", "4H", "5H"]))]
    pub throw: Vec<Card>,
    pub draw: DrawRequest,
    /// Crazy queens: required when the throw holds a (natural) queen, leaves a card in
    /// your hand and `legal.queen_targets` is not empty; refused otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub queen: Option<QueenRequest>,
}

/// Crazy queens: the other player who receives `give`, a card of your hand left after
/// the throw (not the card you draw), and from whose face-down hand the server then
/// picks one card for you, blindly (the first in an order the round's committed seed
/// decides).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct QueenRequest {
    /// A seat of `legal.queen_targets`.
    #[schema(maximum = 7, example = 2)]
    pub target: u8,
    pub give: Card,
}

/// `"stock"` (the top of the stock, unseen) or `{"discard": "7H"}` (a card of the
/// previous throw).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(untagged)]
pub enum DrawRequest {
    Stock(StockDraw),
    Discard(DiscardDraw),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum StockDraw {
    Stock,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct DiscardDraw {
    pub discard: Card,
}

/// Read by hand rather than derived (as untagged), so that a bad card inside
/// `{"discard": ...}` is reported at `draw.discard`, not as "no variant matched".
impl<'de> Deserialize<'de> for DrawRequest {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct DrawVisitor;
        impl<'de> Visitor<'de> for DrawVisitor {
            type Value = DrawRequest;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("\"stock\" or {\"discard\": \"<card>\"}")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<DrawRequest, E> {
                match v {
                    "stock" => Ok(DrawRequest::Stock(StockDraw::Stock)),
                    _ => Err(E::invalid_value(de::Unexpected::Str(v), &self)),
                }
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<DrawRequest, A::Error> {
                let Some(key) = map.next_key::<String>()? else {
                    return Err(de::Error::invalid_length(0, &self));
                };
                if key != "discard" {
                    return Err(de::Error::invalid_value(de::Unexpected::Str(&key), &self));
                }
                let discard: Card = map.next_value()?;
                if map.next_key::<String>()?.is_some() {
                    return Err(de::Error::invalid_length(2, &self));
                }
                Ok(DrawRequest::Discard(DiscardDraw { discard }))
            }
        }
        deserializer.deserialize_any(DrawVisitor)
    }
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[schema(as = ActionRequestCall)]
#[serde(deny_unknown_fields)]
pub struct CallAction {
    #[serde(rename = "type")]
    pub kind: CallType,
    /// `yaniv` or `kluft`; the word the rules use when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub call: Option<CallWord>,
}

/// What a call is called.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum CallWord {
    Yaniv,
    Kluft,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[schema(as = ActionRequestSlap)]
#[serde(deny_unknown_fields)]
pub struct SlapAction {
    #[serde(rename = "type")]
    pub kind: SlapType,
    pub card: Card,
    /// Crazy queens, in a game whose slap-downs play: required when `card` is a
    /// (natural) queen, leaves a card in your hand and `legal.queen_targets` is not
    /// empty; refused otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub queen: Option<QueenRequest>,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[schema(as = ActionRequestAddOn)]
#[serde(deny_unknown_fields)]
pub struct AddOnAction {
    #[serde(rename = "type")]
    pub kind: AddOnType,
    #[schema(min_items = 1, max_items = 16, example = json!(["QH", "QD"]))]
    pub cards: Vec<Card>,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[schema(as = ActionRequestGoAlong)]
#[serde(deny_unknown_fields)]
pub struct GoAlongAction {
    #[serde(rename = "type")]
    pub kind: GoAlongType,
    pub going: bool,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[schema(as = ActionRequestOnderkluft)]
#[serde(deny_unknown_fields)]
pub struct OnderkluftAction {
    #[serde(rename = "type")]
    pub kind: OnderkluftType,
    pub challenge: bool,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[schema(as = ActionRequestWaterfall)]
#[serde(deny_unknown_fields)]
pub struct WaterfallAction {
    #[serde(rename = "type")]
    pub kind: WaterfallType,
    /// One of `legal.waterfalls`.
    #[schema(min_items = 3, max_items = 8, example = json!(["4C", "5H", "6S"]))]
    pub cards: Vec<Card>,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[schema(as = ActionRequestWaterfallPick)]
#[serde(deny_unknown_fields)]
pub struct WaterfallPickAction {
    #[serde(rename = "type")]
    pub kind: WaterfallPickType,
    /// One of `legal.waterfall_pick`.
    pub card: Card,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[schema(as = ActionRequestKillPile)]
#[serde(deny_unknown_fields)]
pub struct KillPileAction {
    #[serde(rename = "type")]
    pub kind: KillPileType,
    /// The size of the pile's throws: one of `legal.kill_piles`.
    #[schema(minimum = 2, maximum = 16, example = 2)]
    pub size: u8,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[schema(as = ActionRequestPass)]
#[serde(deny_unknown_fields)]
pub struct PassAction {
    #[serde(rename = "type")]
    pub kind: PassType,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[schema(as = ActionRequestReturn)]
#[serde(deny_unknown_fields)]
pub struct ReturnAction {
    #[serde(rename = "type")]
    pub kind: ReturnType,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[schema(as = ActionRequestContribute)]
#[serde(deny_unknown_fields)]
pub struct ContributeAction {
    #[serde(rename = "type")]
    pub kind: ContributeType,
    /// 32 bytes as 64 hexadecimal digits, drawn from the client's own random
    /// generator: the deal's seed mixes them with the server's committed seed.
    pub value: Contribution,
}

impl ActionRequest {
    /// Reads a body: its `type` picks the action, whose object is then read whole.
    pub fn parse(body: Value) -> Result<Self, ApiError> {
        let Some(kind) = body.as_object().map(|o| o.get("type")) else {
            return Err(ApiError::invalid_field(
                "body",
                format!(
                    "must be a JSON object with a `type`: one of {}",
                    TYPES.join(", ")
                ),
            ));
        };
        let kind = match kind {
            None => {
                return Err(ApiError::invalid_field(
                    "type",
                    format!("required: one of {}", TYPES.join(", ")),
                ));
            }
            Some(Value::String(kind)) => kind.clone(),
            Some(_) => {
                return Err(ApiError::invalid_field(
                    "type",
                    format!("must be one of {}", TYPES.join(", ")),
                ));
            }
        };
        ActionRequest::of_type(&kind, body).unwrap_or_else(|| {
            let shown: String = kind.chars().take(32).collect();
            Err(ApiError::invalid_field(
                "type",
                format!(
                    "unknown action type {shown:?}: expected one of {}",
                    TYPES.join(", ")
                ),
            ))
        })
    }
}

/// A list of 1 to [`MAX_CARDS`] cards, or the field's error.
fn card_list(field: &str, cards: &[Card], errors: &mut Vec<FieldError>) -> Option<Cards> {
    match Cards::from_slice(cards) {
        Ok(list) if !list.is_empty() => Some(list),
        _ => {
            errors.push(FieldError::new(
                field,
                format!("must hold 1 to {MAX_CARDS} cards"),
            ));
            None
        }
    }
}

impl TryFrom<ActionRequest> for Action {
    type Error = ApiError;

    fn try_from(request: ActionRequest) -> Result<Self, ApiError> {
        let mut errors = Vec::new();
        let action = match request {
            ActionRequest::Play(play) => {
                card_list("throw", &play.throw, &mut errors).map(|throw| Action::Play {
                    throw,
                    draw: match play.draw {
                        DrawRequest::Stock(_) => DrawChoice::Stock,
                        DrawRequest::Discard(d) => DrawChoice::Discard(d.discard),
                    },
                    queen: play.queen.map(|q| QueenSwap {
                        target: q.target,
                        give: q.give,
                    }),
                })
            }
            ActionRequest::Call(call) => Some(Action::Call(call.call.map(|word| match word {
                CallWord::Yaniv => CallKind::Yaniv,
                CallWord::Kluft => CallKind::Kluft,
            }))),
            ActionRequest::Slap(slap) => Some(Action::Slap {
                card: slap.card,
                queen: slap.queen.map(|q| QueenSwap {
                    target: q.target,
                    give: q.give,
                }),
            }),
            ActionRequest::AddOn(add_on) => {
                card_list("cards", &add_on.cards, &mut errors).map(Action::AddOn)
            }
            ActionRequest::GoAlong(g) => Some(Action::GoAlong(g.going)),
            ActionRequest::Onderkluft(o) => Some(Action::Onderkluft(o.challenge)),
            ActionRequest::Waterfall(w) => {
                card_list("cards", &w.cards, &mut errors).map(Action::Waterfall)
            }
            ActionRequest::WaterfallPick(p) => Some(Action::WaterfallPick(p.card)),
            ActionRequest::KillPile(k) => Some(Action::KillPile(k.size)),
            ActionRequest::Pass(_) => Some(Action::Pass),
            ActionRequest::Return(_) => Some(Action::Return),
            ActionRequest::Contribute(c) => Some(Action::Contribute(c.value)),
        };
        action.ok_or(ApiError::Validation(errors))
    }
}

/// Checks a body before anything is read from the database.
fn parse_action(body: &Value) -> Result<Action, ApiError> {
    Action::try_from(ActionRequest::parse(body.clone())?)
}

/// Acts at a table as the caller's seat.
#[utoipa::path(
    post,
    path = "/v1/tables/{id}/actions",
    tag = "tables",
    security(("bearer" = [])),
    params(
        ("id" = i64, Path, description = "Table id"),
        ("Idempotency-Key" = Option<String>, Header, description = "Retry safely: the same key gets the same answer and appends nothing"),
        ("If-Match" = Option<String>, Header, description = "Act only if the table is at this version (its `ETag`)"),
    ),
    request_body = ActionRequest,
    responses(
        (status = 200, description = "Accepted; the caller's view after the server's moves", body = ActionResponse),
        TableCommandProblems,
    )
)]
pub async fn act(
    state: web::Data<AppState>,
    request: CommandRequest,
    path: web::Path<i64>,
    body: web::Json<Value>,
) -> Result<HttpResponse, ApiError> {
    let command = TableCommand::Act(parse_action(&body)?);
    let answer = TableAnswer::View;
    run(&state, &request, path.into_inner(), &*body, command, answer).await
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn fields_of(body: Value) -> Vec<String> {
        match parse_action(&body) {
            Err(ApiError::Validation(errors)) => errors.into_iter().map(|e| e.field).collect(),
            other => panic!("expected a validation error, got {other:?}"),
        }
    }

    #[test]
    fn every_action_type_parses() {
        let card = |s: &str| s.parse::<Card>().unwrap();
        assert_eq!(
            parse_action(&json!({"type": "play", "throw": ["3H", "4H", "5H"], "draw": "stock"}))
                .unwrap(),
            Action::Play {
                throw: Cards::from_slice(&[card("3H"), card("4H"), card("5H")]).unwrap(),
                draw: DrawChoice::Stock,
                queen: None,
            }
        );
        assert_eq!(
            parse_action(&json!({"type": "play", "throw": ["QH"], "draw": "stock", "queen": {"target": 2, "give": "9C"}}))
                .unwrap(),
            Action::Play {
                throw: Cards::from_slice(&[card("QH")]).unwrap(),
                draw: DrawChoice::Stock,
                queen: Some(QueenSwap { target: 2, give: card("9C") }),
            }
        );
        assert_eq!(
            parse_action(&json!({"type": "play", "throw": ["JK"], "draw": {"discard": "7H"}}))
                .unwrap(),
            Action::Play {
                throw: Cards::from_slice(&[card("JK")]).unwrap(),
                draw: DrawChoice::Discard(card("7H")),
                queen: None,
            }
        );
        assert_eq!(
            parse_action(&json!({"type": "call"})).unwrap(),
            Action::Call(None)
        );
        assert_eq!(
            parse_action(&json!({"type": "call", "call": "kluft"})).unwrap(),
            Action::Call(Some(CallKind::Kluft))
        );
        assert_eq!(
            parse_action(&json!({"type": "slap", "card": "QS"})).unwrap(),
            Action::Slap {
                card: card("QS"),
                queen: None
            }
        );
        assert!(matches!(
            parse_action(&json!({"type": "add_on", "cards": ["QH", "QD"]})),
            Ok(Action::AddOn(_))
        ));
        assert_eq!(
            parse_action(&json!({"type": "go_along", "going": true})).unwrap(),
            Action::GoAlong(true)
        );
        assert_eq!(
            parse_action(&json!({"type": "onderkluft", "challenge": false})).unwrap(),
            Action::Onderkluft(false)
        );
        assert_eq!(
            parse_action(&json!({"type": "waterfall", "cards": ["4C", "5H", "6S"]})).unwrap(),
            Action::Waterfall(Cards::from_slice(&[card("4C"), card("5H"), card("6S")]).unwrap())
        );
        assert_eq!(
            parse_action(&json!({"type": "waterfall_pick", "card": "5H"})).unwrap(),
            Action::WaterfallPick(card("5H"))
        );
        assert_eq!(
            parse_action(&json!({"type": "kill_pile", "size": 2})).unwrap(),
            Action::KillPile(2)
        );
    }

    #[test]
    fn bad_fields_are_named() {
        assert_eq!(fields_of(json!({"type": "dance"})), ["type"]);
        assert_eq!(fields_of(json!({"throw": []})), ["type"]);
        assert_eq!(fields_of(json!([1, 2])), ["body"]);
        assert_eq!(
            fields_of(json!({"type": "play", "throw": ["3H", "ZZ"], "draw": "stock"})),
            ["throw[1]"]
        );
        assert_eq!(
            fields_of(json!({"type": "play", "throw": ["3H"], "draw": {"stock": "QS"}})),
            ["draw"]
        );
        assert_eq!(
            fields_of(json!({"type": "play", "throw": ["3H"], "draw": {"discard": "1H"}})),
            ["draw.discard"]
        );
        assert_eq!(fields_of(json!({"type": "play", "throw": []})), ["draw"]);
        assert_eq!(
            fields_of(json!({"type": "play", "throw": [], "draw": "stock"})),
            ["throw"]
        );
        assert_eq!(fields_of(json!({"type": "slap", "card": 5})), ["card"]);
        assert_eq!(
            fields_of(json!({"type": "slap", "card": "QS", "seat": 2})),
            ["seat"]
        );
        assert_eq!(
            fields_of(json!({"type": "go_along", "going": "yes"})),
            ["going"]
        );
        assert_eq!(
            fields_of(json!({"type": "call", "call": "jhyap"})),
            ["call"]
        );
        let many: Vec<&str> = vec!["AS"; MAX_CARDS + 1];
        assert_eq!(
            fields_of(json!({"type": "add_on", "cards": many})),
            ["cards"]
        );
    }
}
