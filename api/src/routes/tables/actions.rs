//! `POST /v1/tables/{id}/actions`: a seated player acts.
//!
//! The body is tagged by `type`; the acting seat is the caller's seat at the table.
//! The body is checked field by field before anything is read from the database
//! (a bad card names its field, e.g. `throw[1]`), then the rules engine decides the
//! command on the freshly folded table. A draw from the stock is always "the top
//! card, unseen": a client can never name a stock card, so it cannot probe the
//! stock. When the command is accepted, the server deals the next round if one is
//! due and lets the bots play until a human must act; everything is appended
//! together (see [`crate::tables::autoplay`]).

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use utoipa::ToSchema;
use yaniv_domain::cards::{Card, Cards, MAX_CARDS};
use yaniv_domain::game::{CallKind, Command, DrawChoice, Seat};

use super::dto::TableView;
use super::{if_match, mutation};
use crate::auth::Authenticated;
use crate::error::{ApiError, FieldError, Problem};
use crate::idempotency::{IdempotencyKeyHeader, request_fingerprint};
use crate::request_id::RequestId;
use crate::startup::AppState;
use crate::tables::events::StreamEvent;
use crate::tables::repo::{self, Decision};
use crate::tables::state::{Access, TableState};
use crate::tables::{autoplay, game_refusal, table_refusal};

/// An action, tagged by `type`.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ActionRequest {
    /// Throw one combination, then draw one card.
    Play(PlayAction),
    /// Call (Yaniv, or Kluft under Kluft rules) at the start of the turn.
    Call(CallAction),
    /// The thrower lays the card just drawn onto their own throw.
    Slap(SlapAction),
    /// Lay cards onto another player's throw, out of turn.
    AddOn(AddOnAction),
    /// Belgian: go along with the call or not.
    GoAlong(GoAlongAction),
    /// Kluft: challenge the call or not.
    Onderkluft(OnderkluftAction),
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PlayAction {
    /// The combination, bottom card first (the last card is the top of the pile).
    #[schema(example = json!(["3H", "4H", "5H"]))]
    pub throw: Vec<String>,
    pub draw: DrawRequest,
}

/// `"stock"` (the top of the stock, unseen) or `{"discard": "7H"}` (a card of the
/// previous throw).
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(untagged)]
pub enum DrawRequest {
    Stock(StockDraw),
    Discard(DiscardDraw),
}

#[derive(Debug, Clone, Copy, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum StockDraw {
    Stock,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct DiscardDraw {
    #[schema(example = "7H")]
    pub discard: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CallAction {
    /// `yaniv` or `kluft`; the word the rules use when absent.
    pub call: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SlapAction {
    #[schema(example = "QS")]
    pub card: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AddOnAction {
    #[schema(example = json!(["QH", "QD"]))]
    pub cards: Vec<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct GoAlongAction {
    pub going: bool,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct OnderkluftAction {
    pub challenge: bool,
}

/// The answer to an accepted command: what was appended and the caller's view
/// after it (and after the server's own moves).
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct ActionResponse {
    /// The table's version now.
    #[schema(example = 57)]
    pub version: u64,
    /// Version of the first event appended by this request (fetch them with
    /// `GET /v1/tables/{id}/events?after=<first_version - 1>`).
    pub first_version: u64,
    /// Events appended: the command's, the deals and the bots' moves.
    pub appended: u64,
    pub view: TableView,
}

impl ActionResponse {
    /// The JSON answer for `table`, changed from version `before`.
    pub fn body(table: &TableState, access: Access, before: u64) -> Result<Value, ApiError> {
        serde_json::to_value(Self {
            version: table.version,
            first_version: before + 1,
            appended: table.version - before,
            view: TableView::of(table, access),
        })
        .map_err(|e| ApiError::unexpected("serialising an answer", e))
    }
}

/// A checked action, its cards parsed.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Action {
    Play { throw: Cards, draw: DrawChoice },
    Call(Option<CallKind>),
    Slap(Card),
    AddOn(Cards),
    GoAlong(bool),
    Onderkluft(bool),
}

impl Action {
    fn command(&self, seat: Seat, table: &TableState) -> Command {
        match *self {
            Self::Play { throw, draw } => Command::Play { seat, throw, draw },
            Self::Call(call) => Command::Call {
                seat,
                call: call.unwrap_or_else(|| table.rules().call_resolution_kind()),
            },
            Self::Slap(card) => Command::Slap { seat, card },
            Self::AddOn(cards) => Command::AddOn { seat, cards },
            Self::GoAlong(going) => Command::GoAlong { seat, going },
            Self::Onderkluft(challenge) => Command::Onderkluft { seat, challenge },
        }
    }
}

const TYPES: &str = "play, call, slap, add_on, go_along, onderkluft";

/// Reads fields off an action object, collecting every problem.
struct Fields<'a> {
    object: &'a Map<String, Value>,
    errors: Vec<FieldError>,
}

impl Fields<'_> {
    fn error(&mut self, field: impl Into<String>, message: impl Into<String>) {
        self.errors.push(FieldError::new(field, message));
    }

    /// Refuses fields other than `type` and `allowed`.
    fn only(&mut self, allowed: &[&str]) {
        let unknown: Vec<String> = self
            .object
            .keys()
            .filter(|k| k.as_str() != "type" && !allowed.contains(&k.as_str()))
            .map(|k| k.chars().take(64).collect())
            .collect();
        for field in unknown {
            self.error(field, "unknown field for this action type");
        }
    }

    fn card_value(&mut self, field: &str, value: &Value) -> Option<Card> {
        match value.as_str() {
            Some(text) => match text.parse::<Card>() {
                Ok(card) => Some(card),
                Err(e) => {
                    self.error(field, e.to_string());
                    None
                }
            },
            None => {
                self.error(field, "must be a card such as \"10H\", \"AS\" or \"JK\"");
                None
            }
        }
    }

    fn card(&mut self, field: &str) -> Option<Card> {
        match self.object.get(field) {
            Some(value) => self.card_value(field, value),
            None => {
                self.error(field, "required");
                None
            }
        }
    }

    fn cards(&mut self, field: &str) -> Option<Cards> {
        let Some(value) = self.object.get(field) else {
            self.error(field, "required");
            return None;
        };
        let Some(items) = value.as_array() else {
            self.error(field, "must be a list of cards");
            return None;
        };
        if items.is_empty() || items.len() > MAX_CARDS {
            self.error(field, format!("must hold 1 to {MAX_CARDS} cards"));
            return None;
        }
        let parsed: Vec<Option<Card>> = items
            .iter()
            .enumerate()
            .map(|(i, item)| self.card_value(&format!("{field}[{i}]"), item))
            .collect();
        let cards: Option<Vec<Card>> = parsed.into_iter().collect();
        cards.and_then(|cards| Cards::from_slice(&cards).ok())
    }

    fn boolean(&mut self, field: &str) -> Option<bool> {
        match self.object.get(field).map(Value::as_bool) {
            Some(Some(b)) => Some(b),
            Some(None) => {
                self.error(field, "must be true or false");
                None
            }
            None => {
                self.error(field, "required");
                None
            }
        }
    }

    fn draw(&mut self) -> Option<DrawChoice> {
        const SHAPE: &str = "must be \"stock\" or {\"discard\": \"<card>\"}";
        match self.object.get("draw") {
            None => {
                self.error("draw", "required");
                None
            }
            Some(Value::String(s)) if s == "stock" => Some(DrawChoice::Stock),
            Some(Value::Object(o)) if o.len() == 1 && o.contains_key("discard") => {
                let value = o.get("discard").cloned().unwrap_or_default();
                self.card_value("draw.discard", &value)
                    .map(DrawChoice::Discard)
            }
            Some(_) => {
                self.error("draw", SHAPE);
                None
            }
        }
    }
}

/// Checks an action body field by field.
fn parse_action(body: &Value) -> Result<Action, ApiError> {
    let Some(object) = body.as_object() else {
        return Err(ApiError::invalid_field(
            "body",
            format!("must be a JSON object with a `type`: one of {TYPES}"),
        ));
    };
    let kind = match object.get("type") {
        None => {
            return Err(ApiError::invalid_field(
                "type",
                format!("required: one of {TYPES}"),
            ));
        }
        Some(Value::String(kind)) => kind.as_str(),
        Some(_) => {
            return Err(ApiError::invalid_field(
                "type",
                format!("must be one of {TYPES}"),
            ));
        }
    };
    let mut fields = Fields {
        object,
        errors: Vec::new(),
    };
    let action = match kind {
        "play" => {
            fields.only(&["throw", "draw"]);
            let throw = fields.cards("throw");
            let draw = fields.draw();
            throw
                .zip(draw)
                .map(|(throw, draw)| Action::Play { throw, draw })
        }
        "call" => {
            fields.only(&["call"]);
            match object.get("call") {
                None | Some(Value::Null) => Some(Action::Call(None)),
                Some(Value::String(s)) if s == "yaniv" => Some(Action::Call(Some(CallKind::Yaniv))),
                Some(Value::String(s)) if s == "kluft" => Some(Action::Call(Some(CallKind::Kluft))),
                Some(_) => {
                    fields.error("call", "must be yaniv or kluft");
                    None
                }
            }
        }
        "slap" => {
            fields.only(&["card"]);
            fields.card("card").map(Action::Slap)
        }
        "add_on" => {
            fields.only(&["cards"]);
            fields.cards("cards").map(Action::AddOn)
        }
        "go_along" => {
            fields.only(&["going"]);
            fields.boolean("going").map(Action::GoAlong)
        }
        "onderkluft" => {
            fields.only(&["challenge"]);
            fields.boolean("challenge").map(Action::Onderkluft)
        }
        other => {
            let shown: String = other.chars().take(32).collect();
            return Err(ApiError::invalid_field(
                "type",
                format!("unknown action type {shown:?}: expected one of {TYPES}"),
            ));
        }
    };
    match action {
        Some(action) if fields.errors.is_empty() => Ok(action),
        _ => Err(ApiError::Validation(fields.errors)),
    }
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
        (status = 401, description = "Missing, unknown or expired token",
         body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "The caller has no seat here (`not_seated`)",
         body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such table (`not_found`)",
         body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "Not now: `not_your_turn`, `wrong_phase`, `game_over`, \
         `table_not_started`, or `version_conflict` (lost the race to other writers 4 times)",
         body = Problem, content_type = "application/problem+json"),
        (status = 412, description = "`If-Match` names another version (`precondition_failed`)",
         body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "A malformed action (`validation_failed`, naming the field) \
         or a move the rules refuse, with the rules' code: `illegal_throw`, `card_not_in_hand`, \
         `illegal_draw`, `card_not_available`, `call_not_allowed`, `slap_not_allowed`, \
         `add_on_not_allowed`, `declaration_not_allowed`, `player_eliminated`",
         body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn act(
    state: web::Data<AppState>,
    auth: Authenticated,
    request_id: RequestId,
    key: IdempotencyKeyHeader,
    path: web::Path<i64>,
    req: HttpRequest,
    body: web::Json<Value>,
) -> Result<HttpResponse, ApiError> {
    let action = parse_action(&body)?;
    let fingerprint = request_fingerprint(&req, &*body);
    let mutation = mutation(&auth, &request_id, key.0, fingerprint, if_match(&req)?);
    let account = &auth.account;
    repo::mutate(&state, path.into_inner(), mutation, |mut loaded| {
        let table = &loaded.state;
        let Some(seat) = table.seat_of(account.id) else {
            return Err(table_refusal(
                StatusCode::FORBIDDEN,
                "not_seated",
                "you have no seat at this table",
            ));
        };
        if !table.started {
            return Err(table_refusal(
                StatusCode::CONFLICT,
                "table_not_started",
                "the table has not started",
            ));
        }
        let before = table.version;
        let command = action.command(seat, table);
        let mut events = loaded
            .state
            .game
            .execute(&command)
            .map_err(|e| game_refusal(&e))?;
        autoplay::advance(&mut loaded.state.game, &mut loaded.bots, &mut events)?;
        loaded.state.record_executed(events.iter().cloned());
        let body = ActionResponse::body(&loaded.state, Access::Seat(seat), before)?;
        Ok(Decision {
            events: events.into_iter().map(StreamEvent::Game).collect(),
            after: loaded,
            status: StatusCode::OK,
            body,
        })
    })
    .await
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
                draw: DrawChoice::Stock
            }
        );
        assert_eq!(
            parse_action(&json!({"type": "play", "throw": ["JK"], "draw": {"discard": "7H"}}))
                .unwrap(),
            Action::Play {
                throw: Cards::from_slice(&[card("JK")]).unwrap(),
                draw: DrawChoice::Discard(card("7H"))
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
            Action::Slap(card("QS"))
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
        assert_eq!(
            fields_of(json!({"type": "play", "throw": []})),
            ["throw", "draw"]
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
