//! Card values, score reductions on exact totals, and the successful-call bonus.

mod common;

use common::{Table, rules_with, stock};
use serde_json::json;
use yaniv_domain::game::Outcome;
use yaniv_domain::rules::Preset;

/// RULES.md line 19: "Card values: ace 1, 2-10 face value, J/Q/K 10, joker 0." pagat: "each
/// ace is worth 1; cards 2-10 are worth their face value; pictures (J, Q, K) are worth 10 and
/// jokers are worth zero."
#[test]
fn standard_card_values() {
    for preset in [Preset::Israeli, Preset::Wikipedia] {
        let mut t = Table::new(preset, &["ann", "bob", "cid"]);
        t.deal(
            "bob",
            &["2C 7D 10C JH QS", "JK JK AC 2D 2H", "KD KS 9H 8H AS"],
            "4C",
        );
        t.call("bob");
        assert_eq!(
            t.hand_totals_of(["ann", "bob", "cid"]),
            [39, 5, 38],
            "{preset}"
        );
    }
}

/// yaniv.co: "THE KING OF HEARTS COUNTS AS 0." and Fig. 1, "Six points: 3 + 3 + 0 (joker) +
/// 0 (K of hearts)". Ann calls with K♥, joker, A, A, 2 = 4.
#[test]
fn house_king_of_hearts_is_worth_nothing() {
    let mut t = Table::new(Preset::House, &["ann", "bob"]);
    t.deal("ann", &["KH JK AC AD 2C", "3C 3D JK KS 10S"], "4C");
    t.call("ann");
    assert_eq!(t.hand_totals_of(["ann", "bob"]), [4, 26]);
    assert_eq!(t.round_ended().outcome, Outcome::Yaniv);
}

/// pagat: "In Nepal, the game is often played with a 52-card pack without Jokers. In this
/// case the Jacks score 0 points while the Queens and Kings score 10 each. When playing with
/// Jokers some score the Jacks, Queens and Kings as 11, 12 and 13." (RULES.md card values:
/// "J/Q/K = 11/12/13 (Nepal option)".)
#[test]
fn nepali_jacks_are_worth_nothing_or_11_12_13_with_jokers() {
    let mut t = Table::new(Preset::Nepali, &["ann", "bob"]);
    t.deal("ann", &["JC JD JH AC 3C", "QC KD 4H 5H 6H"], "4C");
    t.call("ann");
    assert_eq!(t.hand_totals_of(["ann", "bob"]), [4, 35]);

    let rules = rules_with(
        Preset::Nepali,
        json!({"jokers_per_deck": 2, "card_values": {"jack": 11, "queen": 12, "king": 13, "king_of_hearts": 13, "joker": 0}}),
    );
    let mut t = Table::with_rules(rules, &["ann", "bob"], &[]);
    t.deal("ann", &["JK JK AC AD AH", "JC QD KH KS 2H"], "4C");
    t.call("ann");
    assert_eq!(t.hand_totals_of(["ann", "bob"]), [3, 11 + 12 + 13 + 13 + 2]);
}

/// Two players: Ann comes down to 4 and calls; Bob comes down to 4 as well (Assaf).
fn assafed_at_four(rules: yaniv_domain::rules::Rules, totals: &[u32]) -> Table {
    let mut t = Table::with_rules(rules, &["ann", "bob"], totals);
    t.deal("ann", &["KC KD KH AC 3C", "QC QD QH AD 2D"], "7S");
    t.play("ann", "KC KD KH", stock("JK"));
    t.play("bob", "QC QD QH", stock("AH"));
    t.call("ann");
    assert_eq!(t.round_ended().outcome, Outcome::Assaf);
    assert_eq!(t.points_of(["ann", "bob"]), [34, 4]);
    t
}

/// pagat: "If a player's score is exactly 200, it is reduced to 100. In the same way, if a
/// player's score is exactly 100 it is reduced to 50. It is possible to aim for these
/// numbers by calling Yaniv when you expect to lose - for example with a score of 166 you
/// might well call Yaniv with 4 points in your hand hoping to lose and score 34." RULES.md
/// interpretation 6: "A reduction applies once per round to the new total (200 -> 100 is not
/// then reduced again to 50)."
#[test]
fn pagat_166_plus_34_is_200_reduced_to_100_and_not_again_to_50() {
    let t = assafed_at_four(Preset::Israeli.rules(), &[166, 96]);
    assert_eq!(t.totals(), vec![("ann", 100), ("bob", 50)]);
    let reductions: Vec<(u8, u32, u32)> = t
        .round_ended()
        .reductions
        .iter()
        .map(|r| (r.seat, r.from, r.to))
        .collect();
    assert_eq!(reductions, vec![(1, 100, 50), (0, 200, 100)]);
    assert_eq!(
        t.round_ended().points,
        vec![Some(34), Some(4)],
        "points are before reductions"
    );
}

/// pagat: "Some play that if you hit 200 exactly you go back to 150 (not 100); if you hit
/// 100 exactly you go back to 50 as usual."
#[test]
fn pagat_variation_200_to_150() {
    let rules = rules_with(
        Preset::Israeli,
        json!({"reductions": {"exact": [[200, 150], [100, 50]]}}),
    );
    let t = assafed_at_four(rules, &[166, 96]);
    assert_eq!(t.totals(), vec![("ann", 150), ("bob", 50)]);
}

/// pagat: "Some play that your score is halved if you hit 100, 150 or 200 exactly: for
/// example from 150 you go back to 75."
#[test]
fn pagat_variation_halved_at_100_150_200() {
    let rules = rules_with(
        Preset::Israeli,
        json!({"reductions": {"exact": [[100, 50], [150, 75], [200, 100]]}}),
    );
    let t = assafed_at_four(rules, &[116, 146]);
    assert_eq!(t.totals(), vec![("ann", 75), ("bob", 75)]);
}

/// pagat: "Some play that when you hit any multiple of 50 exactly (50, 100, 150 or 200), your
/// score is reduced by 50." Wikipedia: "if a player reaches a total score which is a
/// multiple of 50, 50 points are reduced from his score ... Another option is to call
/// 'Yaniv' yourself, anticipating an 'Assaf', in order to get to a multiple of 50."
#[test]
fn wikipedia_multiples_of_50_lose_50_once() {
    let mut t = Table::with_totals(
        Preset::Wikipedia,
        &["ann", "bob", "cid", "dan"],
        &[64, 10, 100, 150],
    );
    t.deal(
        "ann",
        &[
            "JK AC AD 2C 2D",
            "JK AH AS 2H 2S",
            "KC KD KH QC QD",
            "3C 3D 3H 3S 4C",
        ],
        "9C",
    );
    t.call("ann");
    assert_eq!(t.points_of(["ann", "bob", "cid", "dan"]), [36, 0, 50, 16]);
    // Ann 100 -> 50 (not again to 0), Bob scored nothing, Cid 150 -> 100, Dan 166 stays.
    assert_eq!(
        t.totals(),
        vec![("ann", 50), ("bob", 10), ("cid", 100), ("dan", 166)]
    );

    let mut t = Table::with_totals(Preset::Wikipedia, &["ann", "bob", "cid"], &[14, 0, 150]);
    t.deal(
        "ann",
        &["JK AC AD 2C 2D", "JK AH AS 2H 2S", "KC KD KH QC QD"],
        "9C",
    );
    t.call("ann");
    // Ann 50 -> 0; Cid 200 -> 150.
    assert_eq!(t.totals(), vec![("ann", 0), ("bob", 0), ("cid", 150)]);
}

/// RULES.md reductions: "none (Nepal, yaniv.co)". pagat: "there are no score reductions when
/// particular numbers are reached" (Nepal).
#[test]
fn no_reductions_in_nepal_and_house_rules() {
    let mut t = Table::with_totals(Preset::Nepali, &["ann", "bob"], &[0, 65]);
    t.deal("ann", &["JC JD JH JS AC", "QC KD 4H 5H 6H"], "4C");
    t.call("ann");
    assert_eq!(t.totals(), vec![("ann", 0), ("bob", 100)]);
    assert!(t.round_ended().reductions.is_empty());

    let mut t = Table::with_totals(Preset::House, &["ann", "bob", "cid"], &[0, 165, 50]);
    t.deal(
        "ann",
        &["KH JK AC AD 2C", "3C 3D JK KS 10S", "KD KC QD QC 10D"],
        "4C",
    );
    t.call("ann");
    assert_eq!(t.totals(), vec![("ann", 0), ("bob", 191), ("cid", 100)]);
}

/// Project decision (scoring/totals.rs `reduce`): a reduction needs the round to have added
/// points; a total that stands still on 100 (a successful caller) is not reduced again.
#[test]
fn reductions_apply_only_when_the_round_added_points() {
    let mut t = Table::with_totals(Preset::Israeli, &["ann", "bob"], &[100, 0]);
    t.deal("ann", &["JK JK AC AD AH", "QC KD 4H 5H 6H"], "4C");
    t.call("ann");
    assert_eq!(t.totals(), vec![("ann", 100), ("bob", 35)]);
    assert!(t.round_ended().reductions.is_empty());
}

/// pagat: "Some play that if you manage to 'Go down' successfully (i.e. scoring 0 points)
/// three times during a game (not necessarily in a row), 20 points are deducted from your
/// total score. This rule is suspended when only two players remain, otherwise the game
/// may well never end!" (parameter `successful_call_bonus`).
#[test]
fn three_successful_calls_take_20_off_but_not_with_two_players() {
    let rules = rules_with(
        Preset::Israeli,
        json!({"successful_call_bonus": {"calls": 3, "minus": 20}}),
    );
    let hands = ["JK JK AC AD AH", "2C 3C 4C 5C 6C", "2D 3D 4D 5D 6D"];
    let mut t = Table::with_rules(rules.clone(), &["ann", "bob", "cid"], &[50, 0, 0]);
    for round in 1..=3 {
        if round == 1 {
            t.deal("ann", &hands, "9S");
        } else {
            // The lowest hand, Ann's, starts the next round.
            assert_eq!(t.deal_next(&hands, "9S").starter, t.seat("ann"));
        }
        t.call("ann");
        assert_eq!(t.round_ended().outcome, Outcome::Yaniv);
        let bonuses: Vec<(u8, u32)> = t
            .round_ended()
            .bonuses
            .iter()
            .map(|b| (b.seat, b.minus))
            .collect();
        assert_eq!(
            bonuses,
            if round == 3 { vec![(0, 20)] } else { vec![] },
            "round {round}"
        );
    }
    assert_eq!(t.totals(), vec![("ann", 30), ("bob", 60), ("cid", 60)]);

    let mut t = Table::with_rules(rules, &["ann", "bob"], &[50, 0]);
    for round in 1..=3 {
        if round == 1 {
            t.deal("ann", &hands[..2], "9S");
        } else {
            t.deal_next(&hands[..2], "9S");
        }
        t.call("ann");
        assert!(t.round_ended().bonuses.is_empty());
    }
    assert_eq!(t.totals(), vec![("ann", 50), ("bob", 60)]);
}
