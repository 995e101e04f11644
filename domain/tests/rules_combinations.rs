//! What may be thrown in one turn: single cards, sets, runs, aces and jokers, for every
//! preset. Each test plays the throw through `Game::execute`, so the whole turn is checked.

mod common;

use common::{ADD_ON_DOES_NOT_FIT, Table, card, rules_with, spare, stock};
use serde_json::json;
use yaniv_domain::combos::ThrowError;
use yaniv_domain::game::{Event, GameError};
use yaniv_domain::rules::{Preset, Rules};

/// Ann (the starter) holds `hand` and tries to throw `throw`, drawing a filler card from
/// the stock.
fn try_throw(rules: Rules, hand: &str, throw: &str) -> Result<Vec<Event>, GameError> {
    let mut t = Table::with_rules(rules, &["ann", "bob"], &[]);
    let bob = spare(&[hand], 5);
    let up = spare(&[hand, &bob], 1);
    let draw = spare(&[hand, &bob, &up], 1);
    t.deal("ann", &[hand, &bob], &up);
    t.try_play("ann", throw, stock(&draw))
}

fn throws(preset: Preset, hand: &str, throw: &str) -> bool {
    try_throw(preset.rules(), hand, throw).is_ok()
}

fn refused(preset: Preset, hand: &str, throw: &str) -> GameError {
    try_throw(preset.rules(), hand, throw).expect_err("the throw should be refused")
}

const NOT_A_COMBINATION: GameError = GameError::IllegalThrow(ThrowError::NotACombination);

/// Ann's throw of `throw` from `hand` is refused: the cards are no combination.
#[track_caller]
fn assert_no_combination(preset: Preset, hand: &str, throw: &str) {
    let refusal = refused(preset, hand, throw);
    assert_eq!(refusal, NOT_A_COMBINATION, "{preset}: {throw}");
}

/// RULES.md line 25: "Combinations: one card; a set (2+ cards of the same rank); a run (3+
/// consecutive cards of one suit)." pagat: "A player can throw either: Any one card".
#[test]
fn any_single_card_is_a_throw_in_every_preset() {
    for preset in Preset::ALL {
        assert!(throws(preset, "KD 2C 3C 4H 5S", "KD"), "{preset}");
        assert!(throws(preset, "KD 2C 3C 4H 5S", "2C"), "{preset}");
    }
    // A joker alone is a single card too, even where jokers are never wild.
    assert!(throws(Preset::Kluft, "JK 2C 3C 4H 5S", "JK"));
}

/// pagat: "A set of two or more cards of the same rank (two 9s, three Kings, etc.)".
/// Belgian: "Twee of meer kaarten met dezelfde waarde, ongeacht de kleur."
#[test]
fn a_set_is_two_or_more_cards_of_one_rank_in_any_suits() {
    for preset in Preset::ALL {
        assert!(throws(preset, "9C 9H 2C 3D 4S", "9C 9H"), "{preset}");
        assert!(throws(preset, "KC KD KS 2C 3D", "KC KD KS"), "{preset}");
        assert!(throws(preset, "5C 5D 5H 5S 2C", "5C 5D 5H 5S"), "{preset}");
        assert_no_combination(preset, "9C 8C 2H 3D 4S", "9C 8C");
    }
}

/// pagat: "A sequence of three or more consecutive cards of the same suit (for example
/// 4-5-6)."
#[test]
fn a_run_is_three_or_more_consecutive_cards_of_one_suit() {
    for preset in Preset::ALL {
        assert!(throws(preset, "4S 5S 6S 9D 10H", "4S 5S 6S"), "{preset}");
        assert!(
            throws(preset, "4S 5S 6S 7S 8S", "4S 5S 6S 7S 8S"),
            "{preset}"
        );
        // Two cards in sequence are no combination.
        assert_no_combination(preset, "4S 5S 9D 10H KC", "4S 5S");
        // One suit only, no gaps.
        assert_no_combination(preset, "4S 5H 6S 9D 10H", "4S 5H 6S");
        assert_no_combination(preset, "4S 6S 7S 9D 10H", "4S 6S 7S");
    }
}

/// pagat: "Only one card or one combination (set or sequence) may be thrown in a turn. For
/// example if at the start of your turn you hold 5-5-5-9-9 you can throw either the fives
/// or the nines but not both." (RULES.md line 26: "Only one combination per turn.")
#[test]
fn only_one_combination_per_turn_pagat_fives_and_nines() {
    let hand = "5C 5D 5H 9C 9D";
    assert!(throws(Preset::Israeli, hand, "5C 5D 5H"));
    assert!(throws(Preset::Israeli, hand, "9C 9D"));
    assert_no_combination(Preset::Israeli, hand, "5C 5D 5H 9C 9D");
}

/// RULES.md interpretation 1: "A run may be thrown ascending or descending; its first and
/// last cards are its ends." pagat: "the cards must be thrown in sequential order - for
/// example 2-3-4-5, not 3-5-4-2".
#[test]
fn runs_are_thrown_in_order_ascending_or_descending() {
    for preset in Preset::ALL {
        let hand = "2D 3D 4D 5D KS";
        assert!(throws(preset, hand, "2D 3D 4D 5D"), "{preset}");
        assert!(throws(preset, hand, "5D 4D 3D 2D"), "{preset}");
        assert_no_combination(preset, hand, "3D 5D 4D 2D");
    }
}

/// pagat: "In sequences aces are always low: A-2-3 is a valid sequence, but Q-K-A is not."
/// yaniv.co: "In a straight, aces are always low and cannot be placed after a king."
/// (RULES.md: ace in runs "low only (pagat, Wikipedia, yaniv.co)".)
#[test]
fn aces_are_low_only_outside_belgium() {
    for preset in [
        Preset::Israeli,
        Preset::Nepali,
        Preset::Kluft,
        Preset::Wikipedia,
        Preset::House,
    ] {
        assert!(throws(preset, "AH 2H 3H 9C 10D", "AH 2H 3H"), "{preset}");
        assert_no_combination(preset, "QH KH AH 9C 10D", "QH KH AH");
        assert_no_combination(preset, "QH KH AH 9C 10D", "AH KH QH");
    }
    // A joker after the king would have to be a high ace.
    assert_no_combination(Preset::Israeli, "QH KH JK 9C 10D", "QH KH JK");
    assert!(throws(Preset::Israeli, "QH KH JK 9C 10D", "JK QH KH"));
}

/// Belgian: "Aas kan laag (A-2-3) of hoog (Q-K-A) gebruikt worden, maar niet beide (K-A-2
/// is NIET geldig)." (RULES.md: "low or high but no wrap, K-A-2 invalid (Belgian)".)
#[test]
fn belgian_aces_are_low_or_high_but_never_wrap() {
    assert!(throws(Preset::Belgian, "AH 2H 3H 9C 10D", "AH 2H 3H"));
    assert!(throws(Preset::Belgian, "QH KH AH 9C 10D", "QH KH AH"));
    assert!(throws(Preset::Belgian, "QH KH AH 9C 10D", "AH KH QH"));
    assert_no_combination(Preset::Belgian, "KH AH 2H 9C 10D", "KH AH 2H");
    assert_no_combination(Preset::Belgian, "KH AH 2H 9C 10D", "2H AH KH");
}

/// pagat: "A Joker can be used in a sequence as a substitute for any card." and "You could
/// throw 8-9-Joker either in that order or as Joker-8-9". RULES.md: jokers wild "in runs
/// (pagat, Wikipedia)"; the Israeli preset has "sets without jokers".
#[test]
fn israeli_and_wikipedia_jokers_are_wild_in_runs_only() {
    for preset in [Preset::Israeli, Preset::Wikipedia] {
        assert!(throws(preset, "4D 5D JK 7D KS", "4D 5D JK 7D"), "{preset}");
        assert!(throws(preset, "8C 9C JK KS 2H", "8C 9C JK"), "{preset}");
        assert!(throws(preset, "8C 9C JK KS 2H", "JK 8C 9C"), "{preset}");
        assert_eq!(
            refused(preset, "4C 4D JK KS 2H", "4C 4D JK"),
            GameError::IllegalThrow(ThrowError::JokerNotWildInSets),
            "{preset}"
        );
    }
}

/// yaniv.co: "JOKERS COUNT AS 0 AND ARE WILD." and "A joker can be used as a 'wild' card to
/// complete a straight or set." (RULES.md: "in runs and sets (yaniv.co)".)
#[test]
fn house_jokers_are_wild_in_runs_and_sets() {
    assert!(throws(Preset::House, "4C 4D JK KS 2H", "4C 4D JK"));
    assert!(throws(Preset::House, "4C JK JK KS 2H", "4C JK JK"));
    assert!(throws(Preset::House, "4D 5D JK 7D KS", "4D 5D JK 7D"));
}

/// pagat, Kluft: "Jokers cannot be used as a substitute card in a sequence, they are just a
/// card with a value of zero." RULES.md interpretation 2: "Belgian: jokers are plain
/// 0-point cards (the rules never make them wild)."
#[test]
fn kluft_and_belgian_jokers_are_never_wild() {
    for preset in [Preset::Kluft, Preset::Belgian] {
        assert_eq!(
            refused(preset, "4D 5D JK KS 2H", "4D 5D JK"),
            GameError::IllegalThrow(ThrowError::JokerNotWildInRuns),
            "{preset}"
        );
        assert_eq!(
            refused(preset, "4D JK 6D KS 2H", "4D JK 6D"),
            GameError::IllegalThrow(ThrowError::JokerNotWildInRuns),
            "{preset}"
        );
        assert_eq!(
            refused(preset, "4C 4D JK KS 2H", "4C 4D JK"),
            GameError::IllegalThrow(ThrowError::JokerNotWildInSets),
            "{preset}"
        );
        // Project decision: two jokers are two cards of one "rank", a pair of zeros.
        assert!(throws(preset, "JK JK KS 2H 3C", "JK JK"), "{preset}");
    }
}

/// Project decision (combos/mod.rs `classify`): cards whose naturals share one rank are a
/// set, never a run, so a throw has one reading. Where jokers are wild in sets (yaniv.co)
/// one natural and jokers read as a set; elsewhere they read as a run (10-Joker-Joker is
/// 10-J-Q). Observable through add-ons: on the house set 10♦-Joker-Joker the fourth ten
/// may be added, the K♦ that would continue a 10-J-Q run may not.
#[test]
fn one_natural_and_jokers_read_as_a_set_where_jokers_are_wild_in_sets() {
    assert!(throws(Preset::Israeli, "10D JK JK KS 2H", "10D JK JK"));
    let mut t = Table::new(Preset::House, &["ann", "bob", "cid"]);
    t.deal(
        "ann",
        &["10D JK JK 2S 3S", "10C KD 4H 5H 6H", "9C 9D 9H 9S 8C"],
        "7C",
    );
    t.play("ann", "10D JK JK", stock("QC"));
    assert_eq!(t.try_add_on("bob", "KD"), Err(ADD_ON_DOES_NOT_FIT));
    t.add_on("bob", "10C");
    assert_eq!(t.game.top_throw(), common::cards("10D JK JK 10C"));
}

/// RULES.md interpretation 1: "A joker inside a run stands for the card it replaces; at an
/// end it stands for the card that continues the run in the order thrown." In 8♣-9♣-Joker
/// the joker is the 10♣, so the J♣ extends the run past its top; in Joker-8♣-9♣ the joker
/// is the 7♣ and the 10♣ extends it. (Shown with yaniv.co add-ons: "If a player plays a
/// straight and any other player has a card (or cards) that would build on the straight,
/// they can play those cards out of turn".)
#[test]
fn a_joker_at_an_end_continues_the_run_in_the_order_thrown() {
    let hands = ["8C 9C JK 2S 3S", "10C JC 4H 5H 6H", "9D 9H 9S 8D KD"];
    let mut t = Table::new(Preset::House, &["ann", "bob", "cid"]);
    t.deal("ann", &hands, "7D");
    t.play("ann", "8C 9C JK", stock("QC"));
    assert!(
        t.try_add_on("bob", "10C").is_err(),
        "the joker already is the 10♣"
    );
    t.add_on("bob", "JC");

    let mut t = Table::new(Preset::House, &["ann", "bob", "cid"]);
    t.deal("ann", &hands, "7D");
    t.play("ann", "JK 8C 9C", stock("QC"));
    t.add_on("bob", "10C");
    t.add_on("bob", "JC");
    assert_eq!(t.game.top_throw(), common::cards("JK 8C 9C 10C JC"));
}

/// RULES.md interpretation 1, a joker inside a run: pagat's "4-5-Joker-7" has the joker as
/// the 6. Wikipedia: "if the next player has the exact card the joker stands for, the
/// player can take the joker and throw that card instead."
#[test]
fn a_joker_inside_a_run_stands_for_the_card_it_replaces() {
    let deal = ["4D 5D JK 7D KS", "6D 6H 2C 3C QH"];
    let mut t = Table::new(Preset::Wikipedia, &["ann", "bob"]);
    t.deal("ann", &deal, "9C");
    t.play("ann", "4D 5D JK 7D", stock("QC"));
    assert_eq!(
        t.try_play("bob", "6H", common::discard("JK")),
        Err(GameError::IllegalDraw {
            card: card("JK"),
            reason: "is not a card of the previous throw that may be drawn"
        })
    );
    t.play("bob", "6D", common::discard("JK"));
    assert!(t.hand("bob").contains(card("JK")));
}

/// pagat: "Sets of equal ranked cards can be thrown in any order". With two decks (Belgian,
/// 5-8 players) a set may hold the same card twice.
#[test]
fn sets_in_any_order_and_duplicate_cards_with_two_decks() {
    assert!(throws(Preset::Israeli, "8C 8H 8S 2D 3D", "8H 8S 8C"));
    let mut t = Table::new(Preset::Belgian, &["ann", "bob", "cid", "dan", "eve"]);
    t.deal(
        "ann",
        &[
            "5S 5S 5H KD QD",
            "2C 3C 4C 6C 7C",
            "2D 3D 4D 6D 7D",
            "2H 3H 4H 6H 7H",
            "2S 3S 4S 6S 7S",
        ],
        "9C",
    );
    t.play("ann", "5S 5H 5S", stock("9C"));
}

/// The throw must be made of the player's own cards.
#[test]
fn a_throw_of_cards_not_held_is_refused() {
    assert_eq!(
        try_throw(
            Preset::Israeli.rules(),
            "2C 3C 4C 5C 6C",
            "2C 3C 4C 5C 6C 7C"
        ),
        Err(GameError::CardNotInHand { card: card("7C") })
    );
    let rules = rules_with(Preset::Israeli, json!({"jokers_wild": "never"}));
    assert_eq!(
        try_throw(rules, "4D 5D JK KS 2H", "4D 5D JK"),
        Err(GameError::IllegalThrow(ThrowError::JokerNotWildInRuns))
    );
}
