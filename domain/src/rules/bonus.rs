//! The yaniv.co House Rules' thirteen bonus rules ("Try adding some of these rules to
//! the classic game"), chosen with the `bonus_rules` parameter: a list of their names.
//!
//! The engine plays all thirteen ([`BonusRule::ALL`]): `landmine` and `wormhole` at
//! the showdown, `spy`, which shows hands to one player, `southern_hemisphere`, whose
//! nines reverse the direction of play, `mathematician`, which lays multiples on a
//! single card, `sevens`, whose sevens make the others draw, `pinata`, whose threes set
//! a card aside and take it, `double_edged_sword`, whose black eights re-deal the
//! hands, `crazy_queens`, whose queens swap a chosen card for a blind pick,
//! `waterfall`, which passes a straight round the table, and the pile family:
//! `cell_division`, a discard pile per throw size, `osmosis`, which opens every pile to
//! every draw and laid card, and `fifths_disease`, whose five of diamonds kills a pile
//! (`game/piles.rs`). A combination the source rules out is refused with `bad_rules`;
//! each check below names the parameter or the rule it conflicts with.

use serde::{Deserialize, Serialize};

use super::{CallResolution, Rules, RulesError, SlapDown};

/// One bonus rule, by its snake_case name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum BonusRule {
    Sevens,
    Spy,
    CellDivision,
    Osmosis,
    FifthsDisease,
    DoubleEdgedSword,
    CrazyQueens,
    Waterfall,
    Mathematician,
    SouthernHemisphere,
    Wormhole,
    Pinata,
    Landmine,
}

impl BonusRule {
    /// Every bonus rule, in the source's order.
    pub const ALL: [BonusRule; 13] = [
        BonusRule::Sevens,
        BonusRule::Spy,
        BonusRule::CellDivision,
        BonusRule::Osmosis,
        BonusRule::FifthsDisease,
        BonusRule::DoubleEdgedSword,
        BonusRule::CrazyQueens,
        BonusRule::Waterfall,
        BonusRule::Mathematician,
        BonusRule::SouthernHemisphere,
        BonusRule::Wormhole,
        BonusRule::Pinata,
        BonusRule::Landmine,
    ];

    /// Whether the rule is set off by a card being played ("When a player plays any 7
    /// card", "Playing a 9 reverses the direction of play", ...), so that a slapped
    /// card, a play too, sets it off as a thrown one does.
    pub fn played_card_sets_off(self) -> bool {
        matches!(
            self,
            Self::Sevens
                | Self::Spy
                | Self::DoubleEdgedSword
                | Self::CrazyQueens
                | Self::SouthernHemisphere
                | Self::Pinata
        )
    }

    /// Whether the rule can give a player a card without a throw first taking one (a
    /// forced draw, the piñata, a waterfall's card): only these grow a hand past its
    /// dealt size.
    pub fn grows_hands(self) -> bool {
        matches!(self, Self::Sevens | Self::Pinata | Self::Waterfall)
    }

    /// The name in `bonus_rules`.
    pub fn name(self) -> &'static str {
        match self {
            Self::Sevens => "sevens",
            Self::Spy => "spy",
            Self::CellDivision => "cell_division",
            Self::Osmosis => "osmosis",
            Self::FifthsDisease => "fifths_disease",
            Self::DoubleEdgedSword => "double_edged_sword",
            Self::CrazyQueens => "crazy_queens",
            Self::Waterfall => "waterfall",
            Self::Mathematician => "mathematician",
            Self::SouthernHemisphere => "southern_hemisphere",
            Self::Wormhole => "wormhole",
            Self::Pinata => "pinata",
            Self::Landmine => "landmine",
        }
    }
}

/// Landmine: the two of spades counts this much in the hand of a player who did not call.
pub const LANDMINE_POINTS: u32 = 20;

/// Wormhole: a hand of exactly this total counts 0.
pub const WORMHOLE_TOTAL: u32 = 41;

fn conflict(message: impl Into<String>) -> RulesError {
    RulesError::Inconsistent {
        name: "bonus_rules",
        message: message.into(),
    }
}

/// Every check on `bonus_rules` (see the module docs).
pub(super) fn check(rules: &Rules) -> Result<(), RulesError> {
    let chosen = &rules.bonus_rules;
    for (i, rule) in chosen.iter().enumerate() {
        if chosen[..i].contains(rule) {
            return Err(conflict(format!("{} is named twice", rule.name())));
        }
    }
    let has = |rule| chosen.contains(&rule);
    // "When Cell Division is in effect, ... he or she can play the 5 of diamonds on any
    // pile other than the original discard pile."
    if has(BonusRule::FifthsDisease) && !has(BonusRule::CellDivision) {
        return Err(conflict(
            "fifths_disease kills a pile of cell_division: it needs cell_division",
        ));
    }
    // "Similar to Cell Division, a pile is created for each new group of cards. With
    // Osmosis, though, ...", and Cell Division's figure 7c: "(unless Osmosis is in
    // effect ...)": Osmosis changes how Cell Division's piles are played.
    if has(BonusRule::Osmosis) && !has(BonusRule::CellDivision) {
        return Err(conflict(
            "osmosis opens the piles of cell_division to every draw: it needs cell_division",
        ));
    }
    if has(BonusRule::Wormhole) {
        // "the player calling Yaniv is automatically Assaffed": a showdown at once, where
        // an equal hand beats the caller.
        if !matches!(rules.call_resolution, CallResolution::Immediate { .. }) {
            return Err(conflict(
                "wormhole assafs the caller at the showdown: it needs call_resolution immediate",
            ));
        }
        if rules.caller_wins_ties {
            return Err(conflict(
                "wormhole's hand of 41 counts 0 and must beat a caller at 0: it cannot be \
                 played with caller_wins_ties",
            ));
        }
    }
    // "Players can add-on to or slap-down on any card discarded if ...": it widens
    // which cards fit the add-ons and slap-downs these rules have; it opens neither.
    if has(BonusRule::Mathematician) && !rules.add_ons.any() && rules.slap_down == SlapDown::Off {
        return Err(conflict(
            "mathematician widens the add-ons and slap-downs: these rules have neither",
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Preset, RuleSpec};

    fn resolve(preset: &str, overrides: serde_json::Value) -> Result<Rules, RulesError> {
        let serde_json::Value::Object(overrides) = overrides else {
            unreachable!("an object")
        };
        RuleSpec {
            preset: preset.into(),
            overrides,
        }
        .resolve()
    }

    fn message(result: Result<Rules, RulesError>) -> String {
        match result {
            Err(RulesError::Inconsistent { name, message }) => format!("{name}: {message}"),
            other => panic!("refused as inconsistent: {other:?}"),
        }
    }

    #[test]
    fn every_name_reads_back() {
        let all = [
            "sevens",
            "spy",
            "cell_division",
            "osmosis",
            "fifths_disease",
            "double_edged_sword",
            "crazy_queens",
            "waterfall",
            "mathematician",
            "southern_hemisphere",
            "wormhole",
            "pinata",
            "landmine",
        ];
        for name in all {
            let rule: BonusRule = serde_json::from_value(name.into()).expect(name);
            assert_eq!(rule.name(), name);
        }
    }

    #[test]
    fn conflicts_are_named() {
        let with =
            |names: serde_json::Value| resolve("house", serde_json::json!({"bonus_rules": names}));
        assert!(
            message(with(serde_json::json!(["fifths_disease"]))).contains("needs cell_division")
        );
        assert!(message(with(serde_json::json!(["landmine", "landmine"]))).contains("named twice"));
        assert!(message(with(serde_json::json!(["osmosis"]))).contains("needs cell_division"));
        let israeli = resolve(
            "israeli",
            serde_json::json!({"bonus_rules": ["mathematician"]}),
        );
        assert!(message(israeli).contains("these rules have neither"));
        let belgian = resolve("belgian", serde_json::json!({"bonus_rules": ["wormhole"]}));
        assert!(message(belgian).contains("call_resolution immediate"));
        let ties = with(serde_json::json!(["wormhole"])).map(|mut r| {
            r.caller_wins_ties = true;
            r.validate()
        });
        assert!(matches!(ties, Ok(Err(RulesError::Inconsistent { .. }))));
        let both = with(serde_json::json!(["landmine", "wormhole"])).expect("valid");
        assert_eq!(both.bonus_rules, [BonusRule::Landmine, BonusRule::Wormhole]);
        assert!(matches!(
            with(serde_json::json!(["volcano"])),
            Err(RulesError::BadValue { .. })
        ));
        assert!(Preset::House.rules().bonus_rules.is_empty());
    }
}
