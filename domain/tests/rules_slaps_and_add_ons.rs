//! Slap-downs and add-ons outside the Belgian rules (yaniv.co house rules, pagat's
//! slam-down, presets without them). The Belgian examples are in rules_belgian.rs.

mod common;

use common::{ADD_ON_DOES_NOT_FIT, NOT_JUST_DRAWN, Table, cards, discard, rules_with, stock};
use serde_json::json;
use yaniv_domain::game::{GameError, Outcome};
use yaniv_domain::rules::Preset;

/// RULES.md slap-down "none" and add-on "none": the Israeli, Nepali, Kluft and Wikipedia
/// presets have neither.
#[test]
fn no_slaps_or_add_ons_where_the_rules_have_none() {
    for preset in [
        Preset::Israeli,
        Preset::Nepali,
        Preset::Kluft,
        Preset::Wikipedia,
    ] {
        let mut t = Table::new(preset, &["ann", "bob", "cid"]);
        t.deal(
            "ann",
            &["6H KD QD 10D 9D", "6C 6D 2H 3H 4H", "2D 3D 4D 5D 7D"],
            "KC",
        );
        t.play("ann", "6H", stock("6S"));
        assert_eq!(
            t.try_slap("ann", "6S"),
            Err(GameError::SlapNotAllowed("these rules have no slap-down")),
            "{preset}"
        );
        assert_eq!(
            t.try_add_on("bob", "6C 6D"),
            Err(GameError::AddOnNotAllowed("these rules have no add-ons")),
            "{preset}"
        );
    }
}

/// yaniv.co: "If a player draws a card of the same value as the card he just played, he can
/// then play that card right away as long as the next player has not begun her turn. This
/// play is called a slap-down. After executing a slap-down, a player does not draw another
/// card."
#[test]
fn house_slap_down_of_the_card_just_drawn() {
    let mut t = Table::new(Preset::House, &["ann", "bob"]);
    t.deal("ann", &["6H KD QD 10D 9D", "2C 3C 4C 5C 7C"], "KC");
    t.play("ann", "6H", stock("6S"));
    t.slap("ann", "6S");
    assert_eq!(t.game.top_throw(), cards("6H 6S"));
    assert_eq!(t.hand("ann").len(), 4);
    // Bob may draw the slapped card: the first or last card of the pile's top throw.
    t.play("bob", "7C", discard("6S"));
}

/// pagat (Adrian's variants), "Slam-down": "The drawn card that is 'slammed down' can come
/// from the previous player's discard - for example player X discards an 8 and draws, and
/// the next player Y discards another 8, picks up player X's 8 and discards it on top of
/// their own 8." (RULES.md: "pagat's variant also from the discard"; `after_any_draw`.)
/// Wikipedia's "Lironing" takes the card "from the deck (NOT the stack of played cards)".
#[test]
fn pagat_slam_down_also_from_the_discard() {
    let rules = rules_with(Preset::Israeli, json!({"slap_down": "after_any_draw"}));
    let mut t = Table::with_rules(rules, &["ann", "bob"], &[]);
    t.deal("ann", &["8C KD QD 10D 9D", "8D 3C 4C 5C 7C"], "KC");
    t.play("ann", "8C", stock("2S"));
    t.play("bob", "8D", discard("8C"));
    t.slap("bob", "8C");
    assert_eq!(t.game.top_throw(), cards("8D 8C"));

    let rules = rules_with(Preset::Israeli, json!({"slap_down": "after_stock_draw"}));
    let mut t = Table::with_rules(rules, &["ann", "bob"], &[]);
    t.deal("ann", &["8C KD QD 10D 9D", "8D 3C 4C 5C 7C"], "KC");
    t.play("ann", "8C", stock("2S"));
    t.play("bob", "8D", discard("8C"));
    assert_eq!(t.try_slap("bob", "8C"), Err(NOT_JUST_DRAWN));
}

/// yaniv.co: "If a player plays a set of two or three cards, and any other player has the
/// cards that would complete that set (i.e. make it a set of four cards with the same
/// value) he or she can play those cards out of turn if done before the next player begins
/// their turn." A single card is not a set: under these rules it cannot be completed.
#[test]
fn house_add_ons_complete_sets_of_two_or_three_to_four() {
    let mut t = Table::new(Preset::House, &["ann", "bob", "cid"]);
    t.deal(
        "ann",
        &["4C 4D KD QD 10D", "2H 3H 5H 6H 7H", "4H 4S 2D 3D 5D"],
        "KC",
    );
    t.play("ann", "4C 4D", stock("JS"));
    t.add_on("cid", "4H 4S");
    assert_eq!(t.game.top_throw(), cards("4C 4D 4H 4S"));

    let mut t = Table::new(Preset::House, &["ann", "bob", "cid"]);
    t.deal(
        "ann",
        &["4C KD QD 10D 9D", "2H 3H 5H 6H 7H", "4H 4S 4D 3D 5D"],
        "KC",
    );
    t.play("ann", "4C", stock("JS"));
    assert_eq!(t.try_add_on("cid", "4H 4S 4D"), Err(ADD_ON_DOES_NOT_FIT));
}

/// yaniv.co, Fig. 6b: "This player adds their two 4s to the others before the next player
/// can begin their turn. ... It is still this player's turn. He or she plays as if the 4s
/// were the cards discarded." and "It is possible to add-on to cards when it is your turn,
/// after which you play your turn normally". But: "A player cannot call Yaniv after laying
/// down or picking up a card during their turn or after playing cards out of turn (see
/// Add-ons)." An add-on in one's own turn forfeits the call under house rules.
#[test]
fn house_an_add_on_in_your_own_turn_forfeits_the_call() {
    let mut t = Table::new(Preset::House, &["ann", "bob"]);
    t.deal("ann", &["4C 4D KD QD 10D", "4H 4S JK AC AD"], "KC");
    t.play("ann", "4C 4D", stock("JS"));
    assert_eq!(t.to_act(), Some("bob"));
    // Bob holds 4+4+0+1+1 = 10: after adding his fours he holds 2 and would call...
    t.add_on("bob", "4H 4S");
    assert_eq!(
        t.try_call("bob"),
        Err(GameError::CallNotAllowed(
            "you added on in this turn: a call must be the first thing in a turn".into()
        ))
    );
    // ... but plays his turn normally; the fours are the throw he may draw from.
    t.play("bob", "AC", discard("4S"));
}

/// The Belgian rules do not take the call away after an own-turn add-on (RECORD.md's
/// Belgian example: Cid adds his queens, then calls).
#[test]
fn belgian_an_add_on_in_your_own_turn_keeps_the_call() {
    let mut t = Table::new(Preset::Belgian, &["ann", "bob"]);
    t.deal("ann", &["4C 4D KD QD 10D", "4H 4S JK AC AD"], "KC");
    t.play("ann", "4C 4D", stock("JS"));
    t.add_on("bob", "4H 4S");
    t.call("bob");
    assert_eq!(t.to_act(), Some("ann"), "Ann's last turn");
    t.play("ann", "KD", stock("2S"));
    t.go_along("ann", false);
    assert_eq!(t.round_ended().outcome, Outcome::Yaniv);
}

/// The `add_ons.in_own_turn` parameter: when it is off, the player whose turn it is may not
/// add on (others still may).
#[test]
fn add_ons_in_your_own_turn_can_be_switched_off() {
    let rules = rules_with(
        Preset::House,
        json!({"add_ons": {"to_sets": true, "to_single_cards": false, "to_runs": true, "in_own_turn": false, "call_after_own_add_on": false}}),
    );
    let mut t = Table::with_rules(rules, &["ann", "bob", "cid"], &[]);
    t.deal(
        "ann",
        &["4C 4D KD QD 10D", "4H 4S 2D 3D 5D", "7C 8C 9C 2H 3H"],
        "KC",
    );
    t.play("ann", "4C 4D", stock("JS"));
    assert_eq!(
        t.try_add_on("bob", "4H 4S"),
        Err(GameError::AddOnNotAllowed("not in your own turn"))
    );
}

/// yaniv.co: "If a player plays a straight and any other player has a card (or cards) that
/// would build on the straight, they can play those cards out of turn if done before the
/// next player begins their turn." and "JOKERS COUNT AS 0 AND ARE WILD."
#[test]
fn house_add_ons_build_on_a_straight_jokers_included() {
    let mut t = Table::new(Preset::House, &["ann", "bob", "cid"]);
    t.deal(
        "ann",
        &["4C 5C 6C KD QD", "2H 3H 5H 6H 7H", "JK 8C 2D 3D 5D"],
        "KC",
    );
    t.play("ann", "4C 5C 6C", stock("JS"));
    t.add_on("cid", "JK 8C");
    assert_eq!(t.game.top_throw(), cards("4C 5C 6C JK 8C"));
    t.play("bob", "5H 6H 7H", discard("8C"));
}
