//! One rule configuration type, [`Rules`], holding every parameter of `RULES.md`, and the
//! six presets built from it. A game stores its effective `Rules` in its first event, so a
//! replay never depends on what a preset means today.
//!
//! - `presets.rs`: the six named rule systems and which source fixes each value.
//! - `bonus.rs`: the House Rules' bonus rules (`bonus_rules`) and their conflicts.
//! - `overrides.rs`: changing single parameters by name (unknown names are errors).
//! - `random.rs`: the yaniv.co random rule generator, reproducible from a seed.
//! - `validate.rs`: the consistency checks every configuration passes before a game uses it.

mod bonus;
mod error;
mod overrides;
mod presets;
mod random;
#[cfg(feature = "openapi")]
mod schema;
mod validate;

pub use bonus::{BonusRule, LANDMINE_POINTS, WORMHOLE_TOTAL};
pub use error::RulesError;
pub use overrides::{Overrides, RuleSpec, overrides_between};
pub use presets::{PRESET_NAMES, Preset};
pub use random::{
    BONUS_RULES_V2, BONUS_RULES_V3, BONUS_RULES_V4, RANDOM_RULES_PROCEDURE,
    RANDOM_RULES_PROCEDURE_V2, RANDOM_RULES_PROCEDURE_V3, RANDOM_RULES_PROCEDURE_V4, RandomElement,
    RandomRules, random_rules, random_rules_v2, random_rules_v3, random_rules_v4,
};
#[cfg(feature = "openapi")]
pub use schema::RuleOverrides;

use serde::{Deserialize, Serialize};

use crate::cards::{Card, Deck};

/// The complete rule configuration of a game. Field names are the parameter names used by
/// overrides and by game records (`rules.overrides`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct Rules {
    /// Fewest players a table may start with (at least 2).
    pub min_players: u8,
    /// Most players a table may seat (at most 8).
    pub max_players: u8,
    /// How many decks are shuffled together, fixed for the whole game by the number of
    /// players at the start.
    pub decks: DeckCount,
    /// Jokers added per deck: 2 in the standard international deck, 0 in Nepal.
    pub jokers_per_deck: u8,
    pub card_values: CardValues,
    /// Cards dealt to each player (1 to 10).
    pub hand_size: u8,
    /// Informative for clients drawing the table: the engine always plays in the order of
    /// the players list, which records and tables give in the direction of play.
    pub direction: Direction,
    /// Who starts the rounds after the first (the first starter is drawn at random).
    pub next_starter: StarterRule,
    pub ace: AceRule,
    pub jokers_wild: JokerRule,
    /// Which cards of the previous throw the next player may draw.
    pub discard_draw: DiscardDraw,
    /// Wikipedia: the next player may take a joker out of a thrown run by throwing, as
    /// their whole throw, the exact card the joker stands for.
    pub joker_swap: bool,
    /// Highest hand total at which a player may call; `null` means no limit.
    pub call_threshold: Option<u16>,
    /// No call before every player of the round has had one turn (pagat, for games played
    /// without a threshold).
    pub call_after_full_lap: bool,
    /// Who wins when another hand equals the caller's: `false` (every source) means the
    /// equal hand beats the caller (Assaf); `true` lets the caller win ties.
    pub caller_wins_ties: bool,
    pub call_resolution: CallResolution,
    pub over_threshold_call: OverThresholdCall,
    pub reductions: Reductions,
    pub game_end: GameEnd,
    pub slap_down: SlapDown,
    pub add_ons: AddOns,
    /// Belgian rule 7: the round ends at once when a player's hand becomes empty.
    pub round_ends_on_empty_hand: bool,
    /// pagat variation: after every third successful call, the caller's total drops by
    /// `minus`; suspended while only two players remain.
    pub successful_call_bonus: Option<CallBonus>,
    /// Wikipedia variation: a joker still held by a player other than the caller when the
    /// round is called counts this many points in that hand (the call itself is judged
    /// with the joker's usual value). `null`/absent: jokers keep their value.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub joker_value_when_caught: Option<u8>,
    /// yaniv.co bonus rules played on top of these (see [`BonusRule`]). Absent from
    /// the serialized rules while empty, so games stored before it keep their shape.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub bonus_rules: Vec<BonusRule>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum DeckCount {
    One,
    Two,
    /// Two decks when the game starts with at least this many players.
    TwoFromPlayers(u8),
}

/// Points of the cards whose value differs between rule systems; aces are 1 and 2-10 their
/// face value everywhere.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct CardValues {
    pub jack: u8,
    pub queen: u8,
    pub king: u8,
    /// yaniv.co: the king of hearts counts 0.
    pub king_of_hearts: u8,
    pub joker: u8,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum Direction {
    Clockwise,
    CounterClockwise,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum StarterRule {
    /// pagat: the lowest hand of the round starts; ties go to the first of them counting
    /// from the caller's left.
    LowestHand,
    /// Belgian: the dealer moves one seat on each round and the player on the dealer's
    /// left starts.
    LeftOfDealer,
    /// yaniv.co: the round winner deals and the player on their left starts.
    LeftOfRoundWinner,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum AceRule {
    /// A-2-3 is a run, Q-K-A is not.
    Low,
    /// Belgian: A-2-3 and Q-K-A are runs, K-A-2 is not.
    LowOrHigh,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum JokerRule {
    /// Jokers are plain cards (Kluft; the Belgian rules make them wild nowhere).
    Never,
    InRuns,
    InRunsAndSets,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", schema(as = DiscardDrawRule))]
pub enum DiscardDraw {
    /// The first or last card of the previous throw.
    Ends,
    /// Any card of a thrown set, only the ends of a run (Israeli variation).
    AnyOfSetEndsOfRun,
    /// Any card of the previous throw (Nepal).
    Any,
    /// Only the card on top, the thrower choosing the order (Kluft, Belgian).
    TopOnly,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum CallResolution {
    /// Everyone shows their hand at once.
    Immediate {
        penalty: AssafPenalty,
        others: AssafOthers,
    },
    /// Belgian "meegaan": the others play one last turn, then declare in order whether
    /// they go along; `penalty` is charged per lost comparison.
    GoAlong { penalty: u16 },
    /// Dutch Kluft: the others declare in order whether they challenge ("Onderkluft");
    /// every losing caller pays hand + `penalty`.
    Kluft { penalty: u16 },
}

/// What a caller who is beaten (Assaf) scores on top of their hand.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum AssafPenalty {
    /// Hand + `points` (pagat: 30; Nepal: 25).
    HandPlus { points: u16 },
    /// Wikipedia: hand + `single` when one player beats the caller, + `each` per player
    /// when several do.
    HandPlusPerAssaf { single: u16, each: u16 },
    /// yaniv.co: hand + `first`, plus `further` for each further player at or below the
    /// caller.
    HandPlusFirstAndFurther { first: u16, further: u16 },
}

/// What the other players score when the caller is beaten.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum AssafOthers {
    /// Everyone scores their hand, even the lowest (pagat).
    Hands,
    /// Nobody but the caller scores (Nepal).
    Zero,
    /// Players at or below the caller score 0, the rest their hand (Nepal variant).
    AtOrBelowCallerZero,
    /// The lowest hands score 0 (all of them when tied), the rest their hand
    /// (Wikipedia, yaniv.co).
    LowestZero,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum OverThresholdCall {
    Refused,
    /// pagat variation: allowed; the caller scores hand + `points` whatever the others
    /// hold, the others their hands.
    HandPlus {
        points: u16,
    },
    /// Belgian: allowed; the caller scores `points` + the hand of the player on their
    /// left, the others their hands.
    PlusLeftNeighbourHand {
        points: u16,
    },
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Reductions {
    None,
    /// A new total exactly equal to the first number becomes the second.
    Exact(Vec<[u32; 2]>),
    /// A new total that is a positive multiple of `step` loses `minus`.
    MultiplesOf {
        step: u32,
        minus: u32,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum GameEnd {
    /// A player above `limit` (or at it, with `at_limit`) drops out; the last one left
    /// wins.
    Elimination { limit: u32, at_limit: bool },
    /// The game ends as soon as anyone is above `limit` (or at it); the lowest total wins.
    LowestWins { limit: u32, at_limit: bool },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum SlapDown {
    Off,
    /// The thrower may lay the card just drawn from the stock onto their own throw.
    AfterStockDraw,
    /// pagat's "slam-down": also a card just drawn from the discard.
    AfterAnyDraw,
}

/// Out-of-turn add-ons by the other players, until the next throw.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct AddOns {
    /// Complete a thrown set to exactly four of a kind.
    pub to_sets: bool,
    /// Complete a single thrown card to four of a kind (Belgian: "een of meerdere kaarten").
    pub to_single_cards: bool,
    /// Extend a thrown run past its top card.
    pub to_runs: bool,
    /// The player whose turn it is may add on before throwing or calling (the RECORD.md
    /// Belgian example; yaniv.co "It is possible to add-on to cards when it is your turn").
    pub in_own_turn: bool,
    /// Whether that player may still call after adding on in their own turn; yaniv.co: "A
    /// player cannot call Yaniv after ... playing cards out of turn".
    pub call_after_own_add_on: bool,
}

impl AddOns {
    pub const NONE: AddOns = AddOns {
        to_sets: false,
        to_single_cards: false,
        to_runs: false,
        in_own_turn: false,
        call_after_own_add_on: true,
    };

    pub fn any(self) -> bool {
        self.to_sets || self.to_single_cards || self.to_runs
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct CallBonus {
    pub calls: u8,
    pub minus: u32,
}

impl Rules {
    /// The card's points in a hand.
    pub fn value(&self, card: Card) -> u32 {
        match card.rank() {
            0 => self.card_values.joker as u32,
            11 => self.card_values.jack as u32,
            12 => self.card_values.queen as u32,
            13 if card.is_king_of_hearts() => self.card_values.king_of_hearts as u32,
            13 => self.card_values.king as u32,
            rank => rank as u32,
        }
    }

    pub fn hand_total(&self, cards: &[Card]) -> u32 {
        cards.iter().map(|&c| self.value(c)).sum()
    }

    /// A hand's total when the round is shown. `caught`: a call ended the round and
    /// this is not the caller's hand; its jokers then count `joker_value_when_caught`.
    /// `called`: this is the caller's hand; under `landmine` the two of spades of every
    /// other hand counts 20 (also when nobody called). Then, under `wormhole`, a total
    /// of exactly 41 counts 0.
    pub fn shown_hand_total(&self, cards: &[Card], caught: bool, called: bool) -> u32 {
        let landmine = !called && self.has_bonus(BonusRule::Landmine);
        let total = cards
            .iter()
            .map(|&c| match self.joker_value_when_caught {
                Some(value) if caught && c.is_joker() => u32::from(value),
                _ if landmine && c == Card::TWO_OF_SPADES => LANDMINE_POINTS,
                _ => self.value(c),
            })
            .sum();
        self.wormhole(total)
    }

    /// The total a call is judged by: the hand's, but 0 for a wormhole's 41.
    pub fn call_total(&self, cards: &[Card]) -> u32 {
        self.wormhole(self.hand_total(cards))
    }

    fn wormhole(&self, total: u32) -> u32 {
        if total == WORMHOLE_TOTAL && self.has_bonus(BonusRule::Wormhole) {
            0
        } else {
            total
        }
    }

    pub fn has_bonus(&self, rule: BonusRule) -> bool {
        self.bonus_rules.contains(&rule)
    }

    /// The deck for a game that starts with `players` players.
    pub fn deck(&self, players: usize) -> Deck {
        let decks = match self.decks {
            DeckCount::One => 1,
            DeckCount::Two => 2,
            DeckCount::TwoFromPlayers(from) if players >= from as usize => 2,
            DeckCount::TwoFromPlayers(_) => 1,
        };
        Deck {
            decks,
            jokers_per_deck: self.jokers_per_deck,
        }
    }

    pub fn jokers_wild_in_runs(&self) -> bool {
        matches!(
            self.jokers_wild,
            JokerRule::InRuns | JokerRule::InRunsAndSets
        )
    }

    pub fn jokers_wild_in_sets(&self) -> bool {
        self.jokers_wild == JokerRule::InRunsAndSets
    }

    /// Whether a hand of `other` beats a caller holding `caller`.
    pub fn beats_caller(&self, other: u32, caller: u32) -> bool {
        if self.caller_wins_ties {
            other < caller
        } else {
            other <= caller
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::card;

    #[test]
    fn standard_card_values() {
        // RULES.md common ground: "Card values: ace 1, 2-10 face value, J/Q/K 10, joker 0."
        let rules = Preset::Israeli.rules();
        assert_eq!(rules.value(card("AS")), 1);
        assert_eq!(rules.value(card("7D")), 7);
        assert_eq!(rules.value(card("10C")), 10);
        for face in ["JH", "QS", "KD", "KH"] {
            assert_eq!(rules.value(card(face)), 10);
        }
        assert_eq!(rules.value(card("JK")), 0);
    }

    #[test]
    fn king_of_hearts_is_zero_in_house_rules() {
        // yaniv.co: "THE KING OF HEARTS COUNTS AS 0."
        let rules = Preset::House.rules();
        assert_eq!(rules.value(card("KH")), 0);
        assert_eq!(rules.value(card("KS")), 10);
        // yaniv.co Fig. 1: "Six points: 3 + 3 + 0 (joker) + 0 (K of hearts)".
        assert_eq!(
            rules.hand_total(&[card("3C"), card("3D"), card("JK"), card("KH")]),
            6
        );
    }

    #[test]
    fn nepali_jack_is_zero() {
        // pagat: "In this case the Jacks score 0 points while the Queens and Kings score 10 each."
        let rules = Preset::Nepali.rules();
        assert_eq!(rules.value(card("JC")), 0);
        assert_eq!(rules.value(card("QC")), 10);
        assert_eq!(rules.value(card("KC")), 10);
    }

    #[test]
    fn two_decks_from_four_players_is_kept_for_the_game() {
        // pagat: "When there are four or more players, some people prefer to use two such
        // decks" — the deck is chosen once from the players at the start.
        let mut rules = Preset::Israeli.rules();
        rules.decks = DeckCount::TwoFromPlayers(4);
        assert_eq!(rules.deck(3).decks, 1);
        assert_eq!(rules.deck(4).decks, 2);
    }

    #[test]
    fn belgian_uses_two_decks_for_five_to_eight_players() {
        // Belgian: "Bij 5-8 spelers worden er 2 kaartspellen gebruikt (108 kaarten totaal)."
        let rules = Preset::Belgian.rules();
        assert_eq!(rules.deck(4).size(), 54);
        assert_eq!(rules.deck(5).size(), 108);
        assert_eq!(rules.deck(8).size(), 108);
    }
}
