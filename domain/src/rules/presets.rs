//! The six rule systems of `RULES.md`, each a complete [`Rules`] value. The Israeli game as
//! pagat describes it is the base; every other preset says what it changes and why.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use super::error::RulesError;
use super::{
    AceRule, AddOns, AssafOthers, AssafPenalty, CallResolution, CardValues, DeckCount, Direction,
    DiscardDraw, GameEnd, JokerRule, OverThresholdCall, Reductions, Rules, SlapDown, StarterRule,
};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum Preset {
    Israeli,
    Nepali,
    Kluft,
    Belgian,
    Wikipedia,
    House,
}

pub const PRESET_NAMES: [&str; 6] = [
    "israeli",
    "nepali",
    "kluft",
    "belgian",
    "wikipedia",
    "house",
];

const STANDARD_VALUES: CardValues = CardValues {
    jack: 10,
    queen: 10,
    king: 10,
    king_of_hearts: 10,
    joker: 0,
};

impl Preset {
    pub const ALL: [Preset; 6] = [
        Preset::Israeli,
        Preset::Nepali,
        Preset::Kluft,
        Preset::Belgian,
        Preset::Wikipedia,
        Preset::House,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Preset::Israeli => "israeli",
            Preset::Nepali => "nepali",
            Preset::Kluft => "kluft",
            Preset::Belgian => "belgian",
            Preset::Wikipedia => "wikipedia",
            Preset::House => "house",
        }
    }

    pub fn rules(self) -> Rules {
        match self {
            Preset::Israeli => israeli(),
            Preset::Nepali => nepali(),
            Preset::Kluft => kluft(),
            Preset::Belgian => belgian(),
            Preset::Wikipedia => wikipedia(),
            Preset::House => house(),
        }
    }
}

impl fmt::Display for Preset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Preset {
    type Err = RulesError;

    fn from_str(name: &str) -> Result<Self, Self::Err> {
        Preset::ALL
            .into_iter()
            .find(|p| p.name() == name)
            .ok_or_else(|| RulesError::UnknownPreset {
                name: name.chars().take(40).collect(),
            })
    }
}

/// pagat, "Yaniv" (2013) and "Yaniv / Jhyap / Dhumbal" (2024), main description.
fn israeli() -> Rules {
    Rules {
        min_players: 2,
        max_players: 8,
        // "some people prefer to use two such decks" with 4+: an option, not the default.
        decks: DeckCount::One,
        jokers_per_deck: 2,
        card_values: STANDARD_VALUES,
        hand_size: 5,
        direction: Direction::Clockwise,
        next_starter: StarterRule::LowestHand,
        ace: AceRule::Low,
        // "A Joker can be used in a sequence as a substitute for any card."
        jokers_wild: JokerRule::InRuns,
        discard_draw: DiscardDraw::Ends,
        joker_swap: false,
        call_threshold: Some(5),
        call_after_full_lap: false,
        caller_wins_ties: false,
        call_resolution: CallResolution::Immediate {
            penalty: AssafPenalty::HandPlus { points: 30 },
            others: AssafOthers::Hands,
        },
        over_threshold_call: OverThresholdCall::Refused,
        reductions: Reductions::Exact(vec![[200, 100], [100, 50]]),
        game_end: GameEnd::Elimination {
            limit: 200,
            at_limit: false,
        },
        slap_down: SlapDown::Off,
        add_ons: AddOns::NONE,
        round_ends_on_empty_hand: false,
        successful_call_bonus: None,
        joker_value_when_caught: None,
        bonus_rules: Vec::new(),
    }
}

/// pagat variations for Nepal (Jhyap / Dhumbal).
fn nepali() -> Rules {
    Rules {
        // "a 52-card pack without Jokers. In this case the Jacks score 0 points".
        jokers_per_deck: 0,
        card_values: CardValues {
            jack: 0,
            ..STANDARD_VALUES
        },
        // "In Nepal, the game is usually played counter-clockwise."
        direction: Direction::CounterClockwise,
        // "a player may pick up any one of the cards discarded by the previous player".
        discard_draw: DiscardDraw::Any,
        // "the usual penalty for the wrong call is 25 rather than 30, and the other players
        // do not score the points in their hands."
        call_resolution: CallResolution::Immediate {
            penalty: AssafPenalty::HandPlus { points: 25 },
            others: AssafOthers::Zero,
        },
        // "eliminate players when their score reaches more than 100 points ... and there
        // are no score reductions".
        reductions: Reductions::None,
        game_end: GameEnd::Elimination {
            limit: 100,
            at_limit: false,
        },
        ..israeli()
    }
}

/// pagat, Kluft section (László Kiss).
fn kluft() -> Rules {
    Rules {
        // "Jokers cannot be used as a substitute card in a sequence".
        jokers_wild: JokerRule::Never,
        // "Only the top card can be drawn from the discard pile."
        discard_draw: DiscardDraw::TopOnly,
        call_resolution: CallResolution::Kluft { penalty: 15 },
        // "Players whose cumulative score is over 100 are eliminated. A score of exactly
        // 100 is reduced to 50."
        reductions: Reductions::Exact(vec![[100, 50]]),
        game_end: GameEnd::Elimination {
            limit: 100,
            at_limit: false,
        },
        ..israeli()
    }
}

/// Officiële Spelregels Yaniv, Belgische Yaniv Vereniging.
fn belgian() -> Rules {
    Rules {
        min_players: 2,
        max_players: 8,
        decks: DeckCount::TwoFromPlayers(5),
        next_starter: StarterRule::LeftOfDealer,
        // "Aas kan laag (A-2-3) of hoog (Q-K-A) gebruikt worden, maar niet beide".
        ace: AceRule::LowOrHigh,
        // RULES.md interpretation 2: the rules never make jokers wild.
        jokers_wild: JokerRule::Never,
        // "Pak daarna één kaart van de trekstapel OF van de aflegstapel" / "de bovenste kaart".
        discard_draw: DiscardDraw::TopOnly,
        call_resolution: CallResolution::GoAlong { penalty: 32 },
        // Rule 6: "32 strafpunten, plus het aantal punten van de persoon links van hem/haar".
        over_threshold_call: OverThresholdCall::PlusLeftNeighbourHand { points: 32 },
        // "precies op 50, 100, of 150 punten ... worden er 50 punten afgetrokken".
        reductions: Reductions::Exact(vec![[50, 0], [100, 50], [150, 100]]),
        // "Zodra een van de spelers meer dan 150 punten heeft, eindigt het spel".
        game_end: GameEnd::LowestWins {
            limit: 150,
            at_limit: false,
        },
        slap_down: SlapDown::AfterStockDraw,
        add_ons: AddOns {
            to_sets: true,
            to_single_cards: true,
            to_runs: true,
            in_own_turn: true,
            call_after_own_add_on: true,
        },
        round_ends_on_empty_hand: true,
        ..israeli()
    }
}

/// Wikipedia, "Yaniv (card game)".
fn wikipedia() -> Rules {
    Rules {
        call_threshold: Some(7),
        // "if the next player has the exact card the joker stands for, the player can take
        // the joker and throw that card instead."
        joker_swap: true,
        call_resolution: CallResolution::Immediate {
            penalty: AssafPenalty::HandPlusPerAssaf {
                single: 30,
                each: 20,
            },
            others: AssafOthers::LowestZero,
        },
        reductions: Reductions::MultiplesOf {
            step: 50,
            minus: 50,
        },
        ..israeli()
    }
}

/// yaniv.co "House Rules", with RULES.md interpretation 9.
fn house() -> Rules {
    Rules {
        card_values: CardValues {
            king_of_hearts: 0,
            ..STANDARD_VALUES
        },
        next_starter: StarterRule::LeftOfRoundWinner,
        jokers_wild: JokerRule::InRunsAndSets,
        call_resolution: CallResolution::Immediate {
            penalty: AssafPenalty::HandPlusFirstAndFurther {
                first: 30,
                further: 20,
            },
            others: AssafOthers::LowestZero,
        },
        reductions: Reductions::None,
        slap_down: SlapDown::AfterStockDraw,
        add_ons: AddOns {
            to_sets: true,
            to_single_cards: false,
            to_runs: true,
            in_own_turn: true,
            call_after_own_add_on: false,
        },
        ..israeli()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_preset_is_valid_and_named() {
        for preset in Preset::ALL {
            assert_eq!(preset.name().parse::<Preset>().ok(), Some(preset));
            assert_eq!(preset.rules().validate(), Ok(()), "{preset}");
        }
        assert_eq!(PRESET_NAMES.map(|n| n.parse::<Preset>().is_ok()), [true; 6]);
    }

    #[test]
    fn unknown_preset_is_an_error() {
        assert!(matches!(
            "dutch".parse::<Preset>(),
            Err(RulesError::UnknownPreset { .. })
        ));
    }

    #[test]
    fn israeli_threshold_is_five() {
        // pagat: "You may call 'Jhyap' or 'Yaniv' only if the total value of your cards is less than 6."
        assert_eq!(Preset::Israeli.rules().call_threshold, Some(5));
    }

    #[test]
    fn wikipedia_threshold_is_seven() {
        // Wikipedia: "A player can only call 'Yaniv' ... if the sum of his cards is equal to or less than 7."
        assert_eq!(Preset::Wikipedia.rules().call_threshold, Some(7));
    }

    #[test]
    fn house_threshold_is_five_or_less() {
        // RULES.md interpretation 9: the summary's "5 or less" beats the body's "fewer than five".
        assert_eq!(Preset::House.rules().call_threshold, Some(5));
    }

    #[test]
    fn rules_round_trip_through_json() {
        for preset in Preset::ALL {
            let rules = preset.rules();
            let json = serde_json::to_value(&rules).expect("rules serialize");
            let back: Rules = serde_json::from_value(json).expect("rules deserialize");
            assert_eq!(back, rules);
        }
    }
}
