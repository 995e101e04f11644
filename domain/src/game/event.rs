//! The events of a game: immutable facts, stored forever.
//!
//! Each event's serialized form is versioned in its `type` tag (`turn_played.v1`). A later
//! change to an event's shape adds a new variant (`.v2`) and upcasts the old one when
//! reading; the `.v1` forms must keep deserializing unchanged. The golden file
//! `domain/tests/fixtures/events.v1.jsonl` holds one of each and a test holds them fixed.
//!
//! Events carry what the rules decided (scores, eliminations, the next starter) rather than
//! leaving a later version of the code to recompute it.

use serde::{Deserialize, Serialize};

use crate::cards::{Card, Cards, Hand};
use crate::rules::Rules;
use crate::shuffle::{Commitment, Seed};

/// A seat number: the index of a player in the game's `players`, which are listed in the
/// direction of play.
pub type Seat = u8;

/// Most players at one table.
pub const MAX_PLAYERS: usize = 8;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = GameEvent))]
#[serde(tag = "type")]
pub enum Event {
    #[serde(rename = "game_created.v1")]
    GameCreated(GameCreated),
    #[serde(rename = "round_dealt.v1")]
    RoundDealt(RoundDealt),
    #[serde(rename = "turn_played.v1")]
    TurnPlayed(TurnPlayed),
    #[serde(rename = "stock_reshuffled.v1")]
    StockReshuffled(StockReshuffled),
    #[serde(rename = "slapped_down.v1")]
    SlappedDown(SlappedDown),
    #[serde(rename = "added_on.v1")]
    AddedOn(AddedOn),
    #[serde(rename = "called.v1")]
    Called(Called),
    #[serde(rename = "went_along.v1")]
    WentAlong(WentAlong),
    #[serde(rename = "onderkluft_declared.v1")]
    OnderkluftDeclared(OnderkluftDeclared),
    #[serde(rename = "round_ended.v1")]
    RoundEnded(RoundEnded),
    #[serde(rename = "game_finished.v1")]
    GameFinished(GameFinished),
    #[serde(rename = "hands_shown.v1")]
    HandsShown(HandsShown),
    #[serde(rename = "forced_to_draw.v1")]
    ForcedToDraw(ForcedToDraw),
    #[serde(rename = "pinata_set_aside.v1")]
    PinataSetAside(PinataSetAside),
    #[serde(rename = "pinata_taken.v1")]
    PinataTaken(PinataTaken),
    #[serde(rename = "hands_redealt.v1")]
    HandsRedealt(HandsRedealt),
    #[serde(rename = "queen_swapped.v1")]
    QueenSwapped(QueenSwapped),
    #[serde(rename = "waterfall_started.v1")]
    WaterfallStarted(WaterfallStarted),
    #[serde(rename = "waterfall_picked.v1")]
    WaterfallPicked(WaterfallPicked),
    #[serde(rename = "pile_killed.v1")]
    PileKilled(PileKilled),
}

impl Event {
    /// Every type name, as stored beside the payload.
    pub const TYPES: [&'static str; 20] = [
        "game_created.v1",
        "round_dealt.v1",
        "turn_played.v1",
        "stock_reshuffled.v1",
        "slapped_down.v1",
        "added_on.v1",
        "called.v1",
        "went_along.v1",
        "onderkluft_declared.v1",
        "round_ended.v1",
        "game_finished.v1",
        "hands_shown.v1",
        "forced_to_draw.v1",
        "pinata_set_aside.v1",
        "pinata_taken.v1",
        "hands_redealt.v1",
        "queen_swapped.v1",
        "waterfall_started.v1",
        "waterfall_picked.v1",
        "pile_killed.v1",
    ];

    /// Whether this is one of the events a turn's throw (or a slapped card) causes
    /// through the bonus rules (Crazy queens, Sevens, Piñata, Double-edged sword), or a
    /// reshuffle among them: what follows a play in the same write.
    pub(crate) fn follows_a_play(&self) -> bool {
        matches!(
            self,
            Event::ForcedToDraw(_)
                | Event::StockReshuffled(_)
                | Event::PinataSetAside(_)
                | Event::PinataTaken(_)
                | Event::HandsRedealt(_)
                | Event::QueenSwapped(_)
        )
    }

    /// The `type` tag, as stored beside the payload.
    pub fn type_name(&self) -> &'static str {
        let i = match self {
            Event::GameCreated(_) => 0,
            Event::RoundDealt(_) => 1,
            Event::TurnPlayed(_) => 2,
            Event::StockReshuffled(_) => 3,
            Event::SlappedDown(_) => 4,
            Event::AddedOn(_) => 5,
            Event::Called(_) => 6,
            Event::WentAlong(_) => 7,
            Event::OnderkluftDeclared(_) => 8,
            Event::RoundEnded(_) => 9,
            Event::GameFinished(_) => 10,
            Event::HandsShown(_) => 11,
            Event::ForcedToDraw(_) => 12,
            Event::PinataSetAside(_) => 13,
            Event::PinataTaken(_) => 14,
            Event::HandsRedealt(_) => 15,
            Event::QueenSwapped(_) => 16,
            Event::WaterfallStarted(_) => 17,
            Event::WaterfallPicked(_) => 18,
            Event::PileKilled(_) => 19,
        };
        Event::TYPES[i]
    }

    /// The seat whose action this event records, if it records one.
    pub fn actor(&self) -> Option<Seat> {
        match self {
            Event::TurnPlayed(e) => Some(e.seat),
            Event::SlappedDown(e) => Some(e.seat),
            Event::AddedOn(e) => Some(e.seat),
            Event::Called(e) => Some(e.seat),
            Event::WentAlong(e) => Some(e.seat),
            Event::OnderkluftDeclared(e) => Some(e.seat),
            Event::WaterfallStarted(e) => Some(e.seat),
            Event::WaterfallPicked(e) => Some(e.seat),
            Event::PileKilled(e) => Some(e.seat),
            _ => None,
        }
    }
}

/// The table is set: effective rules (preset and overrides already applied), the players
/// in the direction of play, and their totals before the first round.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct GameCreated {
    pub rules: Rules,
    pub players: Vec<String>,
    pub initial_totals: Vec<u32>,
    /// House Rules: "This play is called a slap-down": a slapped card sets off the
    /// bonus rules a thrown card of its kind does (a nine's reversal, a seven's draws,
    /// ...). Written only where that can matter (a slap-down and such a bonus rule in
    /// the rules); absent, a game keeps the reading it was created under, in which a
    /// slapped card set off nothing.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub slap_downs_play: bool,
    /// House Rules, Sevens: "a card is drawn for each seven played", with no limit: a
    /// hand holds any number of cards. Written only where a hand can grow (Sevens,
    /// Piñata or Waterfall in the rules); absent, a game keeps the reading it was
    /// created under, in which a hand of 16 cards took no more (a forced draw, the
    /// piñata or a waterfall's card lapsed).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub hands_uncapped: bool,
    /// Osmosis: a card drawn off an open pile's top throw leaves the other cards in
    /// their order, so a run stays a run for the next draw or add-on. Written only
    /// under Osmosis; absent, the last card of the throw took the drawn card's place.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub pile_tops_keep_order: bool,
}

impl GameCreated {
    /// Takes the readings `stored` was created under (slap-downs, the hand cap, the
    /// pile order): a game decided afresh from a stored one must play by those, not by
    /// the readings of today.
    pub(crate) fn keep_readings_of(&mut self, stored: &GameCreated) {
        self.slap_downs_play = stored.slap_downs_play;
        self.hands_uncapped = stored.hands_uncapped;
        self.pile_tops_keep_order = stored.pile_tops_keep_order;
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct RoundDealt {
    /// 1 for the first round.
    pub round: u32,
    pub dealer: Option<Seat>,
    pub starter: Seat,
    pub deal: Deal,
}

/// Where a round's cards came from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Deal {
    /// Dealt by the server from a secret seed (see `docs/shuffle.md`). Players see the
    /// commitment only until the round is over.
    Shuffled {
        algorithm: String,
        commitment: Commitment,
        /// `null` where a viewer may not see it yet (the round is not over).
        #[cfg_attr(feature = "openapi", schema(value_type = Option<Seed>))]
        seed: Seed,
    },
    /// Dealt on paper and entered from a game record: the hands (per seat, empty for seats
    /// out of the game) and the up card; the stock is the rest of the deck, order unknown.
    Explicit {
        /// A hand is `null` where a viewer may not see it.
        #[cfg_attr(feature = "openapi", schema(value_type = Vec<Option<Cards>>))]
        hands: Vec<Cards>,
        up_card: Card,
    },
}

/// A turn: one combination thrown (bottom card first), then one card drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct TurnPlayed {
    pub seat: Seat,
    pub thrown: Cards,
    pub draw: Draw,
}

/// The card drawn and where from; `{"stock": "QS"}` or `{"discard": "7H"}` as in records.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Draw {
    Stock(Card),
    Discard(Card),
}

/// The schema of [`Draw`], written out because a stock card reads `null` where a
/// viewer may not see it (`game::visible_events`).
#[cfg(feature = "openapi")]
mod draw_schema {
    use std::borrow::Cow;

    use utoipa::openapi::schema::{
        AdditionalProperties, ObjectBuilder, OneOfBuilder, Schema, Type,
    };
    use utoipa::openapi::{Ref, RefOr};
    use utoipa::{PartialSchema, ToSchema};

    use super::Draw;
    use crate::cards::Card;

    fn single(name: &str, value: RefOr<Schema>) -> ObjectBuilder {
        ObjectBuilder::new()
            .property(name, value)
            .required(name)
            .additional_properties(Some(AdditionalProperties::FreeForm(false)))
    }

    impl PartialSchema for Draw {
        fn schema() -> RefOr<Schema> {
            let card = || RefOr::Ref(Ref::from_schema_name("Card"));
            let hidden_or_card = OneOfBuilder::new()
                .item(card())
                .item(ObjectBuilder::new().schema_type(Type::Null));
            OneOfBuilder::new()
                .item(single("stock", hidden_or_card.into()))
                .item(single("discard", card()))
                .description(Some(
                    "The card drawn and where from: `{\"stock\": \"QS\"}` (`null` where the \
                     viewer may not see it) or `{\"discard\": \"7H\"}`",
                ))
                .into()
        }
    }

    impl ToSchema for Draw {
        fn name() -> Cow<'static, str> {
            Cow::Borrowed("DrawnFrom")
        }

        fn schemas(schemas: &mut Vec<(String, RefOr<Schema>)>) {
            schemas.push((Card::name().into_owned(), Card::schema()));
        }
    }
}

impl Draw {
    pub fn card(self) -> Card {
        match self {
            Draw::Stock(c) | Draw::Discard(c) => c,
        }
    }
}

/// Spy (a House Rules bonus rule): `to` threw the queen of diamonds, and every other
/// player in the round shows them their hand. Only `to` (and staff) see `hands`; in
/// everyone else's stream it reads `null`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct HandsShown {
    pub to: Seat,
    /// Per seat: the hand shown; `null` for `to` and for seats out of the round.
    #[cfg_attr(feature = "openapi", schema(value_type = Option<Vec<Option<Hand>>>))]
    pub hands: Vec<Option<Hand>>,
}

/// Sevens (a House Rules bonus rule): a seven was thrown, and `seat` had to draw `card`
/// from the top of the stock. Only `seat` (and staff) see `card`; in everyone else's
/// stream it reads `null`, like another player's stock draw.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct ForcedToDraw {
    pub seat: Seat,
    #[cfg_attr(feature = "openapi", schema(value_type = Option<Card>))]
    pub card: Card,
}

/// Piñata (a House Rules bonus rule): a three was thrown and the top card of the stock
/// was set aside, face down. Nobody at the table sees `card` before the round is over
/// (staff do): it reads `null`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct PinataSetAside {
    #[cfg_attr(feature = "openapi", schema(value_type = Option<Card>))]
    pub card: Card,
}

/// Piñata: `seat` threw the next three and took the card set aside. Only `seat` (and
/// staff) see `card`; in everyone else's stream it reads `null`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct PinataTaken {
    pub seat: Seat,
    #[cfg_attr(feature = "openapi", schema(value_type = Option<Card>))]
    pub card: Card,
}

/// Double-edged sword (a House Rules bonus rule): `dealer` threw a black eight, and the
/// hands in play were gathered, shuffled and dealt again from `dealer`'s left. A seat
/// sees its own new hand only; staff see all.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct HandsRedealt {
    pub dealer: Seat,
    /// 1 for the round's first re-deal; with a shuffled deal, the shuffle's stream id
    /// is `REDEAL_STREAM + redeal`.
    pub redeal: u32,
    /// Per seat: the new hand; `null` for seats that were not dealt (out of the round,
    /// or a caller whose hand is closed), and for the other seats where a viewer may
    /// not see it.
    #[cfg_attr(feature = "openapi", schema(value_type = Vec<Option<Vec<Card>>>))]
    pub hands: Vec<Option<Hand>>,
}

/// Crazy queens (a House Rules bonus rule): `seat` threw a queen, passed `given` to
/// `target` and took `taken` from `target`'s hand, blindly (a shuffled round's seed
/// chose it). Only the two of them (and staff) see the cards; in everyone else's stream
/// both read `null`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct QueenSwapped {
    pub seat: Seat,
    pub target: Seat,
    /// 1 for the round's first swap; with a shuffled deal, the blind pick's shuffle
    /// stream id is `QUEEN_STREAM + swap`.
    pub swap: u32,
    #[cfg_attr(feature = "openapi", schema(value_type = Option<Card>))]
    pub given: Card,
    #[cfg_attr(feature = "openapi", schema(value_type = Option<Card>))]
    pub taken: Card,
}

/// Fifths Disease (a House Rules bonus rule): before their turn, `seat` laid the five
/// of diamonds on the pile of `size`-card throws (Cell Division), which is dead for the
/// rest of the round: no throw of that size, no draw from it. Public.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct PileKilled {
    pub seat: Seat,
    pub size: u8,
}

/// Waterfall (a House Rules bonus rule): at the beginning of their turn, `seat` passed
/// the straight `cards` (as many as there are players) to `to`, the player on their
/// left. Only the two of them (and staff) see `cards`; everyone else reads `null`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct WaterfallStarted {
    pub seat: Seat,
    pub to: Seat,
    #[cfg_attr(feature = "openapi", schema(value_type = Option<Vec<Card>>))]
    pub cards: Cards,
}

/// Waterfall: `seat` kept `card` of the cards passed to them and passed the rest,
/// `passed`, on to `to`; when `to` started the waterfall, `passed` is the one card
/// they end with, and their turn begins. Only `seat` (and staff) see `card`; `passed`
/// is seen by `seat` and `to`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct WaterfallPicked {
    pub seat: Seat,
    #[cfg_attr(feature = "openapi", schema(value_type = Option<Card>))]
    pub card: Card,
    pub to: Seat,
    #[cfg_attr(feature = "openapi", schema(value_type = Option<Vec<Card>>))]
    pub passed: Cards,
}

/// The stock ran out: the discard pile, all but the last throw, became the new stock.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct StockReshuffled {
    /// 1 for the first reshuffle of the round; also the shuffle's stream id.
    pub reshuffle: u32,
    pub cards: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct SlappedDown {
    pub seat: Seat,
    pub card: Card,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct AddedOn {
    pub seat: Seat,
    pub cards: Cards,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum CallKind {
    Yaniv,
    Kluft,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct Called {
    pub seat: Seat,
    pub call: CallKind,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct WentAlong {
    pub seat: Seat,
    pub going: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct OnderkluftDeclared {
    pub seat: Seat,
    pub challenged: bool,
}

/// How a round ended: `yaniv` (the call succeeded), `assaf` (another hand was as low or
/// lower), `false_call` (called above the threshold, with the penalty), `empty_hand`
/// (Belgian), `kluft` (the Kluft caller won), `onderkluft` (a challenger won).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// The call succeeded.
    Yaniv,
    /// The call failed: another hand was as low or lower.
    Assaf,
    /// Called above the threshold, where the rules allow it with a penalty.
    FalseCall,
    /// A hand became empty (Belgian).
    EmptyHand,
    /// The Kluft caller won.
    Kluft,
    /// An Onderkluft challenger won.
    Onderkluft,
}

/// The round is over: hands shown and scored. Per-seat lists have one entry per seat;
/// `null` for seats that were out of the game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct RoundEnded {
    pub round: u32,
    pub outcome: Outcome,
    pub caller: Option<Seat>,
    /// Whose hand emptied, for `empty_hand`; whose challenge won, for `onderkluft`.
    pub winner: Option<Seat>,
    pub hands: Vec<Option<Hand>>,
    pub hand_totals: Vec<Option<u32>>,
    /// What the round added, before reductions.
    pub points: Vec<Option<u32>>,
    /// Every seat's total after the round (reductions and bonuses applied).
    pub totals: Vec<u32>,
    pub reductions: Vec<Reduction>,
    pub bonuses: Vec<Bonus>,
    pub eliminated: Vec<Seat>,
    /// Who deals and who starts the next round; `None` when the game is over.
    pub next_dealer: Option<Seat>,
    pub next_starter: Option<Seat>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct Reduction {
    pub seat: Seat,
    pub from: u32,
    pub to: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct Bonus {
    pub seat: Seat,
    pub minus: u32,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct GameFinished {
    /// Ordered by place; tied players share a place (RULES.md interpretation 10).
    pub standings: Vec<Standing>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct Standing {
    pub seat: Seat,
    pub total: u32,
    pub place: u8,
}
