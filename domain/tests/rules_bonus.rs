//! The House Rules' bonus rules the engine models (`bonus_rules`): Landmine and
//! Wormhole, each test quoting the source's sentence.

mod common;

use common::{Table, rules_with};
use serde_json::json;
use yaniv_domain::game::{GameError, Outcome};
use yaniv_domain::rules::Preset;

fn house_with(bonus: &[&str]) -> yaniv_domain::rules::Rules {
    rules_with(Preset::House, json!({ "bonus_rules": bonus }))
}

/// yaniv.co Landmine: "The 2 of spades is worth 20 points only if the player holding it
/// at the end of the round did not call Yaniv."
#[test]
fn landmine_the_two_of_spades_counts_20_for_everyone_but_the_caller() {
    // The caller holds it: it counts 2.
    let mut t = Table::with_rules(house_with(&["landmine"]), &["ann", "bob"], &[]);
    t.deal("ann", &["2S AC AD JK KH", "QC QD QH 3C 4C"], "4D");
    t.call("ann");
    assert_eq!(t.hand_totals_of(["ann", "bob"]), [4, 37]);

    // Another player holds it: it counts 20.
    let mut t = Table::with_rules(house_with(&["landmine"]), &["ann", "bob"], &[]);
    t.deal("ann", &["AC AD AH JK KH", "2S 3C 4C 5C 6C"], "4D");
    t.call("ann");
    assert_eq!(t.hand_totals_of(["ann", "bob"]), [3, 38]);

    // So a hand that would have equalled the caller's (an Assaf) no longer does.
    let hands = ["AC AD AH 2C KH", "2S AS JK JK 2H"];
    let mut plain = Table::new(Preset::House, &["ann", "bob"]);
    plain.deal("ann", &hands, "4D");
    plain.call("ann");
    assert_eq!(plain.round_ended().outcome, Outcome::Assaf);
    let mut mined = Table::with_rules(house_with(&["landmine"]), &["ann", "bob"], &[]);
    mined.deal("ann", &hands, "4D");
    mined.call("ann");
    assert_eq!(mined.round_ended().outcome, Outcome::Yaniv);
    assert_eq!(mined.points_of(["ann", "bob"]), [0, 23]);
}

/// yaniv.co Wormhole: "If a player ends the round with exactly 41 points in her hand,
/// she is awarded zero points for the round and the player calling Yaniv is
/// automatically Assaffed."
#[test]
fn wormhole_a_hand_of_41_scores_nothing_and_assafs_the_caller() {
    let mut t = Table::with_rules(house_with(&["wormhole"]), &["ann", "bob", "cid"], &[]);
    t.deal(
        "ann",
        &["AC AD AH JK KH", "10C 10D 10H 10S AS", "QC QD QH 3C 6C"],
        "4D",
    );
    t.call("ann");
    assert_eq!(t.round_ended().outcome, Outcome::Assaf);
    assert_eq!(t.hand_totals_of(["ann", "bob", "cid"]), [3, 0, 39]);
    // House Assaf: the caller scores hand + 30; the lowest hand (the wormhole's 0)
    // scores nothing, the rest their hands.
    assert_eq!(t.points_of(["ann", "bob", "cid"]), [33, 0, 39]);
}

/// yaniv.co Wormhole: "If it is the beginning of her turn, she may call Yaniv with 41
/// and it acts as zero points."
#[test]
fn wormhole_a_hand_of_41_may_call_and_counts_0() {
    let hands = ["10C 10D 10H 10S AS", "2C 3C 4C 5C 6C"];
    let mut plain = Table::new(Preset::House, &["ann", "bob"]);
    plain.deal("ann", &hands, "4D");
    assert!(matches!(
        plain.try_call("ann"),
        Err(GameError::CallNotAllowed(_))
    ));

    let mut t = Table::with_rules(house_with(&["wormhole"]), &["ann", "bob"], &[]);
    t.deal("ann", &hands, "4D");
    t.call("ann");
    assert_eq!(t.round_ended().outcome, Outcome::Yaniv);
    assert_eq!(t.points_of(["ann", "bob"]), [0, 20]);
}

/// Both at once: the two of spades' 20 counts first, then the total of 41 (our reading;
/// docs/rules.md, bonus rules).
#[test]
fn landmine_counts_before_the_wormhole() {
    let rules = house_with(&["landmine", "wormhole"]);
    let mut t = Table::with_rules(rules, &["ann", "bob"], &[]);
    // Bob: 2 + 10 + 10 + 1 + 0 = 23, or 20 + 10 + 10 + 1 + 0 = 41 with the landmine.
    t.deal("ann", &["AC AD AH 2C KH", "2S 10C 10D AS JK"], "4D");
    t.call("ann");
    assert_eq!(t.hand_totals_of(["ann", "bob"]), [5, 0]);
    assert_eq!(t.round_ended().outcome, Outcome::Assaf);
}

/// yaniv.co Spy: "When a player plays the queen of diamonds, every other player must
/// show him their cards." Hidden information stays exact: the hands are shown to the
/// thrower only, in their view and their event stream, and only as far as each player
/// still holds those cards.
#[test]
fn spy_the_queen_of_diamonds_shows_every_other_hand_to_its_thrower_only() {
    use yaniv_domain::game::{Event, Viewer, visible_events};
    let rules = house_with(&["spy"]);
    let mut t = Table::with_rules(rules, &["ann", "bob", "cid"], &[]);
    t.deal(
        "ann",
        &["QD 9C 9H 4S 5S", "3C KH JK 7D 8D", "AC 2C 6H 10S JS"],
        "4D",
    );
    let events = t.play("ann", "QD", common::stock("2D"));
    let Some(Event::HandsShown(shown)) = events.last() else {
        panic!("the hands are shown after the throw: {events:?}");
    };
    assert_eq!(shown.to, 0);
    assert_eq!(shown.hands[0], None, "not her own");
    assert_eq!(shown.hands[1], Some(common::cards("3C KH JK 7D 8D")));

    // In her view only.
    let known = t.game.shown_to(0);
    assert_eq!(known[1], common::cards("3C KH JK 7D 8D"));
    assert_eq!(known[2], common::cards("AC 2C 6H 10S JS"));
    for other in [1, 2] {
        assert!(t.game.shown_to(other).iter().all(|cards| cards.is_empty()));
    }

    // In her event stream only: every other seat and spectators read `hands: null`.
    let at = t.log.len() - 1;
    for (viewer, sees) in [
        (Viewer::Seat(0), true),
        (Viewer::Seat(1), false),
        (Viewer::Seat(2), false),
        (Viewer::Spectator, false),
        (Viewer::Referee, true),
    ] {
        let visible = visible_events(&t.log, viewer);
        assert_eq!(visible[at]["type"], "hands_shown.v1");
        assert_eq!(!visible[at]["hands"].is_null(), sees, "{viewer:?}");
    }

    // As far as it still holds: bob throws his 8 of diamonds; what ann knows of his
    // hand loses it, and the card he draws stays unknown to her.
    t.play("bob", "8D", common::stock("5H"));
    assert_eq!(t.game.shown_to(0)[1], common::cards("3C KH JK 7D"));

    // Without the rule, a queen of diamonds shows nothing.
    let mut plain = Table::new(Preset::House, &["ann", "bob"]);
    plain.deal("ann", &["QD 9C 9H 4S 5S", "3C KH JK 7D 8D"], "4D");
    let events = plain.play("ann", "QD", common::stock("2D"));
    assert!(!events.iter().any(|e| matches!(e, Event::HandsShown(_))));
}
