//! Calling: the threshold, when a call is allowed, the word used, and how an immediate call
//! (Israeli, Nepali, Wikipedia, yaniv.co) is scored. The Belgian and Kluft resolutions have
//! their own files.

mod common;

use common::{Table, emptied_by_an_add_on, lap_of_four, low_lap, rules_with, spare, stock};
use serde_json::json;
use yaniv_domain::combos::ThrowError;
use yaniv_domain::game::{CallKind, GameError, Outcome};
use yaniv_domain::rules::{Preset, Rules};

/// Ann (the starter) holds `hand` and calls at once; Bob holds filler cards.
fn call_holding(
    rules: Rules,
    hand: &str,
) -> (Table, Result<Vec<yaniv_domain::game::Event>, GameError>) {
    let mut t = Table::with_rules(rules, &["ann", "bob"], &[]);
    let bob = spare(&[hand], 5);
    let up = spare(&[hand, &bob], 1);
    t.deal("ann", &[hand, &bob], &up);
    let result = t.try_call("ann");
    (t, result)
}

/// Ann may call holding `at` (`threshold` points) but not `over` (one point more).
#[track_caller]
fn assert_threshold(rules: Rules, threshold: u32, at: &str, over: &str) {
    let (_, answer) = call_holding(rules.clone(), at);
    assert!(
        answer.is_ok(),
        "{at} calls under a threshold of {threshold}"
    );
    let (_, answer) = call_holding(rules, over);
    assert_eq!(answer, Err(above(threshold + 1, threshold)), "{over}");
}

fn above(total: u32, threshold: u32) -> GameError {
    GameError::CallNotAllowed(format!(
        "your hand totals {total}, above the threshold of {threshold}"
    ))
}

/// RULES.md line 23: "call (Yaniv/Jhyap/Kluft) at the start of the turn if the hand total is
/// at or under the threshold"; call threshold "total <= 5 (pagat, Belgian, yaniv.co); <= 7
/// (Wikipedia)". pagat: "You may call 'Jhyap' or 'Yaniv' only if the total value of your
/// cards is less than 6." Wikipedia: "if the sum of his cards is equal to or less than 7".
/// RULES.md interpretation 9: "yaniv.co: the summary's '5 or less' beats the body's 'fewer
/// than five'."
#[test]
fn the_call_threshold_of_each_preset() {
    for preset in [Preset::Israeli, Preset::Kluft, Preset::House] {
        assert_threshold(preset.rules(), 5, "JK JK AC AD 3C", "JK JK AC AD 4C");
    }
    // Nepal has no jokers, but its jacks are worth nothing.
    assert_threshold(
        Preset::Nepali.rules(),
        5,
        "JC JD JH JS 5C",
        "JC JD JH JS 6C",
    );
    assert_threshold(
        Preset::Wikipedia.rules(),
        7,
        "JK JK AC 2D 4C",
        "JK JK AC 3D 4C",
    );
    // Belgian: 5 starts the last turns; 6 is a false call (see rules_belgian.rs).
    let (t, result) = call_holding(Preset::Belgian.rules(), "JK JK AC AD 3C");
    assert!(result.is_ok());
    assert!(t.game.round_in_progress());
    let (t, result) = call_holding(Preset::Belgian.rules(), "JK JK AC AD 4C");
    assert!(result.is_ok());
    assert_eq!(t.round_ended().outcome, Outcome::FalseCall);
}

/// pagat: "Some play that you can end the play with 6 or fewer points, others set the limit
/// higher, at 7, 10, 11 or 13." (RULES.md call threshold: "6, 10, 11, 13".)
#[test]
fn other_thresholds_by_override() {
    for (threshold, at, over) in [
        (6, "JK JK AC AD 4C", "JK JK AC AD 5C"),
        (10, "JK JK AC AD 8C", "JK JK AC AD 9C"),
        (11, "JK JK AC AD 9C", "JK JK AC AD 10C"),
        (13, "JK JK AC 2D 10C", "JK JK AC 3D 10C"),
    ] {
        let rules = rules_with(Preset::Israeli, json!({ "call_threshold": threshold }));
        assert_threshold(rules, threshold, at, over);
    }
}

/// pagat: "Some play with no limit at all, but when there is no limit, there is often a rule
/// that the play cannot be ended before everyone has had one turn to play." (RULES.md:
/// "none, but not before everyone has had one turn"; parameter `call_after_full_lap`.)
#[test]
fn no_limit_but_not_before_everyone_has_had_one_turn() {
    let rules = rules_with(
        Preset::Israeli,
        json!({"call_threshold": null, "call_after_full_lap": true}),
    );
    let mut t = Table::with_rules(rules, &["ann", "bob", "cid"], &[]);
    t.deal(
        "ann",
        &["KC KD KH QC QD", "9S 9D 9H 8S 8D", "7S 7D 7H 6S 6D"],
        "2C",
    );
    let early =
        GameError::CallNotAllowed("not before every player has had one turn in this round".into());
    assert_eq!(t.try_call("ann"), Err(early.clone()));
    t.play("ann", "KC KD KH", stock("AS"));
    assert_eq!(t.try_call("bob"), Err(early.clone()));
    t.play("bob", "9S 9D 9H", stock("AH"));
    // Cid has not had a turn yet: calling would be that turn.
    assert_eq!(t.try_call("cid"), Err(early));
    t.play("cid", "7S 7D 7H", stock("AD"));
    // Ann holds QC QD AS = 21: no limit, so she may call; Bob (17) and Cid (13) beat her.
    t.call("ann");
    assert_eq!(t.round_ended().outcome, Outcome::Assaf);
    assert_eq!(t.points("ann"), 21 + 30);
}

/// The `call_after_full_lap` parameter also applies with a threshold.
#[test]
fn call_after_a_full_lap_with_a_threshold() {
    let rules = rules_with(Preset::Israeli, json!({"call_after_full_lap": true}));
    let mut t = Table::with_rules(rules, &["ann", "bob"], &[]);
    t.deal("ann", &["JK JK AC AD AH", "9S 9D 9H 8S 8D"], "2C");
    assert!(matches!(
        t.try_call("ann"),
        Err(GameError::CallNotAllowed(_))
    ));
    t.play("ann", "AH", stock("AS"));
    t.play("bob", "9S 9D 9H", stock("KS"));
    t.call("ann");
    assert_eq!(t.round_ended().outcome, Outcome::Yaniv);
}

/// RULES.md line 29: "The caller succeeds when every other hand is strictly higher." The
/// `caller_wins_ties` parameter (no source uses it) lets an equal hand lose to the caller.
#[test]
fn caller_wins_ties_parameter() {
    let hands = ["JK AC AD 2C 2D", "JK AH AS 2H 2S", "KC KD KH QC QD"];
    let mut t = Table::new(Preset::Wikipedia, &["ann", "bob", "cid"]);
    t.deal("ann", &hands, "9C");
    t.call("ann");
    assert_eq!(t.round_ended().outcome, Outcome::Assaf);

    let rules = rules_with(Preset::Wikipedia, json!({"caller_wins_ties": true}));
    let mut t = Table::with_rules(rules, &["ann", "bob", "cid"], &[]);
    t.deal("ann", &hands, "9C");
    t.call("ann");
    assert_eq!(t.round_ended().outcome, Outcome::Yaniv);
    assert_eq!(t.points_of(["ann", "bob", "cid"]), [0, 6, 50]);
}

/// Project decision (view.rs `call_resolution_kind`): the call is "kluft" under the Kluft
/// resolution and "yaniv" everywhere else. pagat, Kluft: "a player who has 5 points or
/// fewer in hand at the start of their turn may call 'Kluft'".
#[test]
fn the_word_of_the_call_follows_the_resolution() {
    let mut t = Table::new(Preset::Kluft, &["ann", "bob"]);
    t.deal("ann", &["JK JK AC AD AH", "9S 9D 9H 8S 8D"], "2C");
    assert_eq!(
        t.try_call_as("ann", CallKind::Yaniv),
        Err(GameError::CallNotAllowed("these rules call kluft".into()))
    );
    assert!(t.try_call_as("ann", CallKind::Kluft).is_ok());

    let mut t = Table::new(Preset::Israeli, &["ann", "bob"]);
    t.deal("ann", &["JK JK AC AD AH", "9S 9D 9H 8S 8D"], "2C");
    assert_eq!(
        t.try_call_as("ann", CallKind::Kluft),
        Err(GameError::CallNotAllowed("these rules call yaniv".into()))
    );
}

/// pagat: "If the caller succeeded (had the lowest number of points in their cards) - the
/// caller scores 0 points, and the other players score however many points they have in
/// their hands." After the call the round is over.
#[test]
fn israeli_successful_call() {
    let mut t = Table::new(Preset::Israeli, &["ann", "bob", "cid"]);
    t.deal(
        "ann",
        &["JK JK AC AD AH", "QC QD 4H 5H 6H", "2C 2D 2H 2S 3C"],
        "9C",
    );
    t.call("ann");
    let end = t.round_ended();
    assert_eq!(end.outcome, Outcome::Yaniv);
    assert_eq!(end.caller, Some(0));
    assert_eq!(t.points_of(["ann", "bob", "cid"]), [0, 35, 11]);
    assert_eq!(t.totals(), vec![("ann", 0), ("bob", 35), ("cid", 11)]);
    assert_eq!(
        t.try_play("bob", "QC", stock("KS")),
        Err(GameError::WrongPhase("no round is being played"))
    );
    t.replays();
}

/// pagat: "If any other player has the same number of points or fewer points than the
/// caller, the caller scores 30 penalty points plus whatever they had in their hand, and
/// the other players score whatever they had in their hands as points (in this case even
/// the player with the lowest hand scores points)."
#[test]
fn israeli_assaf_caller_hand_plus_30_everyone_else_their_hand() {
    // Lower: Bob 4 against Ann's 5.
    let mut t = low_lap(Preset::Israeli, &[], "AS");
    t.call("ann");
    assert_eq!(t.round_ended().outcome, Outcome::Assaf);
    assert_eq!(t.hand_totals_of(["ann", "bob", "cid"]), [5, 4, 41]);
    assert_eq!(t.points_of(["ann", "bob", "cid"]), [35, 4, 41]);
    assert_eq!(t.round_ended().winner, Some(t.seat("bob")));
    // Equal: Bob 5 against Ann's 5.
    let mut t = low_lap(Preset::Israeli, &[], "2S");
    t.call("ann");
    assert_eq!(t.round_ended().outcome, Outcome::Assaf);
    assert_eq!(t.points_of(["ann", "bob", "cid"]), [35, 5, 41]);
}

/// pagat: "In Nepal, if a player calls 'Jhyap' and another player has an equal or lower
/// number of points, the usual penalty for the wrong call is 25 rather than 30, and the
/// other players do not score the points in their hands." (RULES.md: "hand + 25 and the
/// others score nothing (Nepal)".)
#[test]
fn nepali_failed_call_hand_plus_25_and_the_others_score_nothing() {
    let hands = ["JC JD AC AD 3C", "JH JS AH AS 2C", "KC KD KH QC QD"];
    let mut t = Table::new(Preset::Nepali, &["ann", "bob", "cid"]);
    t.deal("ann", &hands, "9C");
    t.call("ann");
    assert_eq!(t.round_ended().outcome, Outcome::Assaf);
    assert_eq!(t.points_of(["ann", "bob", "cid"]), [30, 0, 0]);

    // pagat: "In another variant, only the caller and any players with more points in their
    // hands than the caller score these points, while those who are equal to or lower than
    // the caller score zero."
    let rules = rules_with(
        Preset::Nepali,
        json!({"call_resolution": {"immediate": {"penalty": {"hand_plus": {"points": 25}}, "others": "at_or_below_caller_zero"}}}),
    );
    let mut t = Table::with_rules(rules, &["ann", "bob", "cid"], &[]);
    t.deal("ann", &hands, "9C");
    t.call("ann");
    assert_eq!(t.points_of(["ann", "bob", "cid"]), [30, 0, 50]);
}

/// Wikipedia: "If the player who declared 'Yaniv' is not the winner because his hand is
/// beaten by another player, the total amount of his points is the sum of the cards in his
/// hand, plus thirty for one player". The one Assaf is a round winner: "All round winners
/// get zero points."
#[test]
fn wikipedia_one_assaf_hand_plus_30() {
    let mut t = Table::new(Preset::Wikipedia, &["ann", "bob", "cid"]);
    t.deal(
        "ann",
        &["JK AC AD 2C 2D", "JK AH AS 2H 2S", "KC KD KH QC QD"],
        "9C",
    );
    t.call("ann");
    assert_eq!(t.round_ended().outcome, Outcome::Assaf);
    assert_eq!(t.points_of(["ann", "bob", "cid"]), [36, 0, 50]);
    assert_eq!(t.round_ended().winner, Some(t.seat("bob")));
}

/// Wikipedia: "If more than one player can call Assaf, the player with the lowest sum is the
/// round winner, or all players with the same lowest sum are the round winners (but never
/// the player who declared 'Yaniv')." and "If more than one player declared 'Assaf', the
/// player who called 'Yaniv' receives an extra 20 points for each player who called
/// 'Assaf'." (RULES.md: "hand + 30 for one Assaf, + 20 per Assaf when several".)
#[test]
fn wikipedia_several_assafs_20_each_and_the_lowest_win() {
    let dan = "10C 10D 10H 9S 8S";
    // Bob 4 and Cid 6 both beat Ann's 7: Bob alone is lowest.
    let mut t = lap_of_four(
        Preset::Wikipedia,
        ["KC KD KS 3C 4C", "QC QD QH AC 2D", "JC JD JH 2H 3H", dan],
        ["JK", "AD", "AH", "7S"],
    );
    t.call("ann");
    assert_eq!(
        t.hand_totals_of(["ann", "bob", "cid", "dan"]),
        [7, 4, 6, 44]
    );
    assert_eq!(t.points_of(["ann", "bob", "cid", "dan"]), [47, 0, 6, 44]);
    // Bob and Cid tie at 4: both are round winners.
    let mut t = lap_of_four(
        Preset::Wikipedia,
        ["KC KD KS 3C 4C", "QC QD QH AC 2D", "JC JD JH AS 2H", dan],
        ["JK", "AD", "AH", "7S"],
    );
    t.call("ann");
    assert_eq!(t.points_of(["ann", "bob", "cid", "dan"]), [47, 0, 0, 44]);
}

/// RULES.md interpretation 9: "A caller who is Assafed scores hand + 30, plus 20 for each
/// further player at or below the caller's total; the lowest of those players score 0;
/// everyone else scores their hand." yaniv.co: "If more than one player can call Assaf, the
/// player who called Yaniv receives 30 points for calling Yaniv and 20 points for each other
/// player with a lower score. The player with the lowest hand value receives zero points
/// and every other player receives the value of the points in their hand. If two players
/// share the lowest total score, each receives zero points."
#[test]
fn house_assaf_30_plus_20_per_further_player_the_lowest_scoring_0() {
    let dan = "10C 10D 10H 9S 8S";
    let ann = "KC KD KS AC 2C";
    let bob = "QC QD QH AD 2H";
    let draws = ["2D", "AH", "JK", "7S"];
    // One Assaf: Bob 4 against Ann's 5; Cid 13.
    let mut t = lap_of_four(Preset::House, [ann, bob, "JC JD JH 9D 4H", dan], draws);
    t.call("ann");
    assert_eq!(t.hand_totals_of(["ann", "bob", "cid"]), [5, 4, 13]);
    assert_eq!(t.points_of(["ann", "bob", "cid", "dan"]), [35, 0, 13, 44]);
    // Bob 4 and Cid 5 (equal to Ann): 30 + 20; only the lowest, Bob, scores 0.
    let mut t = lap_of_four(Preset::House, [ann, bob, "JC JD JH AS 4H", dan], draws);
    t.call("ann");
    assert_eq!(t.points_of(["ann", "bob", "cid", "dan"]), [55, 0, 5, 44]);
    // Bob and Cid share the lowest total, 4: each scores 0.
    let mut t = lap_of_four(Preset::House, [ann, bob, "JC JD JH AS 3H", dan], draws);
    t.call("ann");
    assert_eq!(t.points_of(["ann", "bob", "cid", "dan"]), [55, 0, 0, 44]);
}

/// RULES.md call over the threshold: "allowed with a penalty of 30 whatever the others hold
/// (pagat variation)". pagat: "a player whose score is 63 and has 7 points in their hand is
/// allowed to call Yaniv to score 37 points including the penalty, bringing their score to
/// 100, which is halved to 50."
#[test]
fn pagat_variation_call_over_the_threshold_63_plus_37_is_100_halved_to_50() {
    let rules = rules_with(
        Preset::Israeli,
        json!({"over_threshold_call": {"hand_plus": {"points": 30}}}),
    );
    let mut t = Table::with_rules(rules, &["ann", "bob"], &[63, 0]);
    t.deal("ann", &["JK JK AC 2D 4C", "AS AH 2S 2H 3S"], "9C");
    t.call("ann");
    let end = t.round_ended();
    assert_eq!(end.outcome, Outcome::FalseCall);
    assert_eq!(t.points_of(["ann", "bob"]), [37, 9]);
    assert_eq!(t.total("ann"), 50);
    // The Israeli preset refuses such a call.
    let mut t = Table::with_totals(Preset::Israeli, &["ann", "bob"], &[63, 0]);
    t.deal("ann", &["JK JK AC 2D 4C", "AS AH 2S 2H 3S"], "9C");
    assert_eq!(t.try_call("ann"), Err(above(7, 5)));
}

/// Project decision (decide/call.rs): a player left with no cards has nothing to throw, so
/// a call is their turn, at any total and even after adding on in that turn. yaniv.co:
/// "If a player plays a straight and any other player has a card (or cards) that would
/// build on the straight, they can play those cards out of turn".
#[test]
fn an_empty_hand_can_only_call() {
    let mut t = emptied_by_an_add_on(Preset::House);
    assert!(t.hand("cid").is_empty());
    assert!(
        t.game.round_in_progress(),
        "yaniv.co has no empty-hand rule"
    );
    t.play("bob", "9S 9D 9H", stock("3S"));
    let legal = t.game.legal_actions(t.seat("cid"));
    assert!(legal.throws.is_empty() && legal.call);
    assert_eq!(
        t.try_play("cid", "", stock("KS")),
        Err(GameError::IllegalThrow(ThrowError::Empty))
    );
    t.call("cid");
    assert_eq!(t.round_ended().outcome, Outcome::Yaniv);
    assert_eq!(t.points_of(["ann", "bob", "cid"]), [22, 19, 0]);
}

/// RULES.md, bonuses: "joker worth 10 when caught (Wikipedia)". Wikipedia: "In some
/// variations, if the joker is held by someone after another player has called Yaniv, the
/// joker is worth 10 points." The caller's own joker keeps its value, and so does the call
/// threshold; a caught joker can turn an Assaf into a successful call.
#[test]
fn wikipedia_variation_a_caught_joker_counts_ten() {
    let rules = rules_with(Preset::Wikipedia, json!({"joker_value_when_caught": 10}));
    let t = joker_round(rules);
    // Ann: A+2+JK+3+A = 7 with her own joker at 0, within Wikipedia's threshold of 7.
    assert_eq!(t.hand_total("ann"), 7, "the caller's joker keeps its value");
    // Bob: JK+A+2+3+A = 7 with the joker at 0, 17 with the caught joker at 10.
    assert_eq!(t.hand_total("bob"), 17);
    assert_eq!(t.round_ended().outcome, Outcome::Yaniv);
    assert_eq!(t.points("ann"), 0);
}

/// Without the variation a joker counts 0 for everyone: the same hands tie, an Assaf.
#[test]
fn without_the_variation_a_caught_joker_counts_zero() {
    let t = joker_round(Preset::Wikipedia.rules());
    assert_eq!(t.hand_total("bob"), 7);
    assert_eq!(t.round_ended().outcome, Outcome::Assaf);
}

/// Ann and Bob each hold a joker; after one turn each Ann calls with 7.
fn joker_round(rules: Rules) -> Table {
    let mut t = Table::with_rules(rules, &["ann", "bob"], &[]);
    t.deal("ann", &["AS 2D JK 3C QH", "JK AC 2S 3D QS"], "9C");
    t.play("ann", "QH", stock("AH"));
    t.play("bob", "QS", stock("AD"));
    let _ = t.call("ann");
    t
}
