//! The rules a score sheet reminds its table of, in words, from the tournament's
//! effective rules: whatever the preset or the overrides say (the Belgian 50, 100 and
//! 150 reductions and the end above 150 are one case, not the only one). Only what the
//! scorekeeper needs: calls, what a call costs, reductions, the end of the game.

use yaniv_domain::rules::{
    AssafPenalty, CallResolution, GameEnd, OverThresholdCall, Reductions, Rules,
};

use super::fill;
use crate::http::pages::lang::Lang;
use crate::http::pages::text;

/// The reminders, one sentence each, in the order a round is scored.
pub fn reminders(rules: &Rules, lang: Lang) -> Vec<String> {
    let mut lines = Vec::new();
    lines.extend(calls(rules, lang));
    lines.push(resolution(rules.call_resolution, lang));
    lines.extend(reductions(&rules.reductions, lang));
    lines.push(game_end(rules.game_end, lang));
    lines
}

fn calls(rules: &Rules, lang: Lang) -> Vec<String> {
    let Some(threshold) = rules.call_threshold else {
        return vec![text::CALL_ANY_TOTAL.get(lang).to_owned()];
    };
    let over = match rules.over_threshold_call {
        OverThresholdCall::Refused => fill(text::OVER_THRESHOLD_REFUSED, lang, threshold, ""),
        OverThresholdCall::HandPlus { points } => {
            fill(text::OVER_THRESHOLD_HAND_PLUS, lang, threshold, points)
        }
        OverThresholdCall::PlusLeftNeighbourHand { points } => {
            fill(text::OVER_THRESHOLD_LEFT_HAND, lang, threshold, points)
        }
    };
    vec![fill(text::CALL_THRESHOLD, lang, threshold, ""), over]
}

fn resolution(resolution: CallResolution, lang: Lang) -> String {
    match resolution {
        CallResolution::GoAlong { penalty } => fill(text::GO_ALONG, lang, penalty, ""),
        CallResolution::Kluft { penalty } => fill(text::KLUFT, lang, penalty, ""),
        CallResolution::Immediate { penalty, .. } => match penalty {
            AssafPenalty::HandPlus { points } => fill(text::BEATEN_CALLER, lang, points, ""),
            AssafPenalty::HandPlusPerAssaf { single, each } => {
                fill(text::BEATEN_CALLER_PER_PLAYER, lang, single, each)
            }
            AssafPenalty::HandPlusFirstAndFurther { first, further } => {
                fill(text::BEATEN_CALLER_FURTHER, lang, first, further)
            }
        },
    }
}

fn reductions(reductions: &Reductions, lang: Lang) -> Vec<String> {
    let mut lines: Vec<String> = match reductions {
        Reductions::None => return vec![text::NO_REDUCTIONS.get(lang).to_owned()],
        Reductions::Exact(pairs) => {
            // Lowest first, as the totals rise during a game.
            let mut pairs = pairs.clone();
            pairs.sort_unstable();
            pairs
                .iter()
                .map(|[from, to]| fill(text::REDUCTION_EXACT, lang, from, to))
                .collect()
        }
        Reductions::MultiplesOf { step, minus } => {
            vec![fill(text::REDUCTION_MULTIPLE, lang, step, minus)]
        }
    };
    lines.push(text::REDUCTION_ONCE.get(lang).to_owned());
    lines
}

fn game_end(end: GameEnd, lang: Lang) -> String {
    match end {
        GameEnd::LowestWins {
            limit,
            at_limit: false,
        } => fill(text::END_LOWEST_ABOVE, lang, limit, ""),
        GameEnd::LowestWins {
            limit,
            at_limit: true,
        } => fill(text::END_LOWEST_AT, lang, limit, ""),
        GameEnd::Elimination {
            limit,
            at_limit: false,
        } => fill(text::END_ELIMINATION_ABOVE, lang, limit, ""),
        GameEnd::Elimination {
            limit,
            at_limit: true,
        } => fill(text::END_ELIMINATION_AT, lang, limit, ""),
    }
}

/// The end score of a game under `end`: what the score sheet's rows are sized by.
pub fn end_limit(end: GameEnd) -> u32 {
    match end {
        GameEnd::LowestWins { limit, .. } | GameEnd::Elimination { limit, .. } => limit,
    }
}

#[cfg(test)]
mod tests {
    use yaniv_domain::rules::Preset;

    use super::*;

    #[test]
    fn belgian_reminders_come_from_the_belgian_rules() {
        let lines = reminders(&Preset::Belgian.rules(), Lang::En);
        for line in [
            "A call is allowed with 5 points or fewer in hand.",
            "A call above 5: the caller scores 32 + the hand of the player on their left.",
            "A total of exactly 50 drops to 0.",
            "A total of exactly 100 drops to 50.",
            "A total of exactly 150 drops to 100.",
            "The game ends after the round in which a player goes above 150; the lowest total wins.",
        ] {
            assert!(lines.iter().any(|l| l == line), "{line} in {lines:#?}");
        }
    }

    #[test]
    fn other_rules_give_other_reminders() {
        let lines = reminders(&Preset::Wikipedia.rules(), Lang::Nl);
        assert!(lines.contains(&"Roepen mag met 7 punten of minder in de hand.".to_owned()));
        assert!(lines.contains(&"Boven 7 roepen mag niet.".to_owned()));
        assert!(lines.contains(&"Een totaal dat een veelvoud van 50 is, verliest 50.".to_owned()));
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("Een speler boven 200 valt af"))
        );
        let house = reminders(&Preset::House.rules(), Lang::En);
        assert!(house.contains(&"Totals are never reduced.".to_owned()));
        assert!(!house.iter().any(|l| l.contains("exactly")));
    }
}
