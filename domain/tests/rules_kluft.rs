//! The Dutch Kluft (pagat, Kluft section): the Kluft call, Onderkluft challenges, the 15
//! penalty, elimination above 100 and 100 -> 50.

mod common;

use common::{
    DECLARATIONS_BEING_TAKEN, NO_THROW_TO_ADD_ON_TO, NOBODY_GOING_ALONG, NOT_THE_THROWER, Table,
    lap_of_four, low_lap, rules_with, stock,
};
use serde_json::json;
use yaniv_domain::game::{GameError, Outcome};
use yaniv_domain::rules::Preset;

/// A lap, then Ann calls Kluft: Ann comes to 5, Bob to `bob_draws` + 3 (4 with A♠, 5 with
/// 2♠), Cid stays at 41. Bob, then Cid, declare: Onderkluft when named in `challengers`.
fn kluft_lap(initial_totals: &[u32], bob_draws: &str, challengers: &[&str]) -> Table {
    let mut t = low_lap(Preset::Kluft, initial_totals, bob_draws);
    t.call("ann");
    for who in ["bob", "cid"] {
        t.onderkluft(who, challengers.contains(&who));
    }
    t
}

/// pagat, Kluft: "If no one called 'Onderkluft', the Kluft caller scores 0 points and the
/// other players each score the value of the cards in their hands. Even if some player had
/// a lower score than the Kluft caller, there is no penalty for calling Kluft if no one
/// challenges the call."
#[test]
fn unchallenged_the_caller_scores_0_even_if_someone_is_lower() {
    let t = kluft_lap(&[], "AS", &[]);
    assert_eq!(t.hand_totals_of(["ann", "bob", "cid"]), [5, 4, 41]);
    assert_eq!(t.points_of(["ann", "bob", "cid"]), [0, 4, 41]);
    assert_eq!(t.round_ended().outcome, Outcome::Kluft);
    assert_eq!(t.round_ended().winner, Some(t.seat("ann")));
    t.replays();
}

/// pagat, Kluft: "If one or more players called 'Onderkluft', then the winner is whichever
/// of the callers has the lowest hand value. In this case the winner scores zero points,
/// those whose calls were unsuccessful score the value of their hand plus a penalty of 15
/// points, and the other players score the values of their hands."
#[test]
fn a_lower_challenger_wins_and_the_caller_pays_hand_plus_15() {
    let t = kluft_lap(&[], "AS", &["bob"]);
    assert_eq!(t.points_of(["ann", "bob", "cid"]), [20, 0, 41]);
    assert_eq!(t.round_ended().outcome, Outcome::Onderkluft);
    assert_eq!(t.round_ended().winner, Some(t.seat("bob")));
}

/// pagat, Kluft: "In case of a tie for lowest the earliest caller wins. So the Kluft caller
/// wins if none of the Onderkluft callers are lower". Bob's 5 equals Ann's 5.
#[test]
fn a_challenger_who_only_ties_loses_to_the_caller() {
    let t = kluft_lap(&[], "2S", &["bob"]);
    assert_eq!(t.points_of(["ann", "bob", "cid"]), [0, 20, 41]);
    assert_eq!(t.round_ended().outcome, Outcome::Kluft);
}

/// pagat, Kluft: "in the rare case where two Onderkluft callers tie for lowest the winner is
/// the one who called first." RULES.md interpretation 8: "after a Kluft call the other
/// players decide clockwise from the caller's left", so Bob calls before Cid. Every losing
/// caller, Dan's hopeless challenge included, pays hand + 15 (RULES.md: "hand + 15 for
/// each failed Kluft/Onderkluft caller").
#[test]
fn two_challengers_tied_for_lowest_the_first_to_call_wins() {
    let mut t = lap_of_four(
        Preset::Kluft,
        [
            "KC KD KS AC 4C",
            "QC QD QH AD 2H",
            "JC JD JH AS 3H",
            "10C 10D 10H 9S 8S",
        ],
        ["JK", "AH", "JK", "7S"],
    );
    t.call("ann");
    t.onderkluft("bob", true);
    t.onderkluft("cid", true);
    t.onderkluft("dan", true);
    assert_eq!(
        t.hand_totals_of(["ann", "bob", "cid", "dan"]),
        [5, 4, 4, 44]
    );
    assert_eq!(t.points_of(["ann", "bob", "cid", "dan"]), [20, 0, 19, 59]);
    assert_eq!(t.round_ended().winner, Some(t.seat("bob")));
}

/// RULES.md interpretation 8: "Kluft: after a Kluft call the other players decide clockwise
/// from the caller's left." Nothing but declarations is accepted until everyone has
/// decided.
#[test]
fn declarations_are_taken_clockwise_from_the_callers_left() {
    let mut t = Table::new(Preset::Kluft, &["ann", "bob", "cid"]);
    t.deal(
        "bob",
        &["KC KD KH QC QD", "JK JK AC AD AH", "9C 9D 9H 10S 10H"],
        "7S",
    );
    assert_eq!(
        t.try_onderkluft("cid", true),
        Err(GameError::DeclarationNotAllowed("nobody has called kluft"))
    );
    t.call("bob");
    let cid = t.seat("cid");
    assert_eq!(t.to_act(), Some("cid"));
    assert_eq!(
        t.try_onderkluft("ann", false),
        Err(GameError::NotYourTurn { expected: cid })
    );
    assert_eq!(
        t.try_play("cid", "9C", stock("2C")),
        Err(DECLARATIONS_BEING_TAKEN)
    );
    assert_eq!(t.try_go_along("cid", true), Err(NOBODY_GOING_ALONG));
    assert_eq!(
        t.try_call("cid"),
        Err(GameError::CallNotAllowed(
            "the round has already been called".into()
        ))
    );
    t.onderkluft("cid", false);
    assert_eq!(t.to_act(), Some("ann"));
    t.onderkluft("ann", false);
    assert!(!t.game.round_in_progress());
    assert_eq!(t.points_of(["ann", "bob", "cid"]), [50, 0, 47]);
}

/// pagat, Kluft: "Players whose cumulative score is over 100 are eliminated. A score of
/// exactly 100 is reduced to 50."
#[test]
fn eliminated_above_100_and_exactly_100_becomes_50() {
    let t = kluft_lap(&[0, 96, 60], "AS", &[]);
    assert_eq!(t.totals(), vec![("ann", 0), ("bob", 50), ("cid", 101)]);
    assert_eq!(t.eliminated(), vec!["cid"]);
    assert!(!t.game.is_finished(), "two players are left");
}

/// Project decision (decide/mod.rs `window_open`): a Kluft call closes the slap-down and
/// add-on windows, so the hands compared are those at the call. Kluft has neither; they are
/// switched on here by overrides to show it.
#[test]
fn a_kluft_call_closes_the_slap_and_add_on_windows() {
    let rules = rules_with(
        Preset::Kluft,
        json!({
            "slap_down": "after_stock_draw",
            "add_ons": {"to_sets": true, "to_single_cards": false, "to_runs": true, "in_own_turn": true, "call_after_own_add_on": true}
        }),
    );
    let mut t = Table::with_rules(rules, &["ann", "bob", "cid"], &[]);
    t.deal(
        "ann",
        &["4C 5C 6C KD QD", "JK JK AC AD AH", "7C 9D 9H 10S 10H"],
        "7S",
    );
    t.play("ann", "4C 5C 6C", stock("6S"));
    assert!(t.accepts_add_on("cid", "7C"));
    t.call("bob");
    assert_eq!(t.try_slap("ann", "6S"), Err(NOT_THE_THROWER));
    assert_eq!(t.try_add_on("cid", "7C"), Err(NO_THROW_TO_ADD_ON_TO));
}
