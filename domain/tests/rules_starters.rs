//! Who starts (and deals) each round. The Belgian dealer rotation is in rules_belgian.rs.

mod common;

use common::{Table, low_lap, stock};
use yaniv_domain::game::GameError;
use yaniv_domain::rules::Preset;

/// RULES.md starter of a round: "first round random". pagat: "The starting player for the
/// first round should be chosen in advance by some random method". The engine takes that
/// draw as an input of the first deal and requires it.
#[test]
fn the_first_round_needs_a_starter_drawn_outside_the_engine() {
    for preset in Preset::ALL {
        let mut t = Table::new(preset, &["ann", "bob"]);
        assert_eq!(
            t.try_deal(None, &["KC KD KH QC QD", "9S 9D 9H 8S 8D"], "7C"),
            Err(GameError::BadDeal("the first round needs a starter".into())),
            "{preset}"
        );
        let dealt = t.deal("bob", &["KC KD KH QC QD", "9S 9D 9H 8S 8D"], "7C");
        assert_eq!(dealt.starter, t.seat("bob"));
        assert_eq!(t.to_act(), Some("bob"));
    }
}

/// pagat: "The player with the lowest card point total for that round starts the next
/// round." After a successful call that is the caller; after an Assaf, the lowest hand.
#[test]
fn israeli_the_lowest_hand_starts_the_next_round() {
    let mut t = Table::new(Preset::Israeli, &["ann", "bob", "cid"]);
    t.deal(
        "bob",
        &["2C 3C 4C 5C 6C", "JK JK AC AD AH", "2D 3D 4D 5D 6D"],
        "9S",
    );
    t.call("bob");
    assert_eq!(t.next_starter(), Some("bob"));
    assert_eq!(t.next_dealer(), None, "the Israeli game has no dealer seat");

    let mut t = low_lap(Preset::Israeli, &[], "AS");
    t.call("ann");
    assert_eq!(t.hand_totals_of(["ann", "bob"]), [5, 4]);
    assert_eq!(t.next_starter(), Some("bob"));
    assert_eq!(
        t.deal_next(
            &["2C 3C 4C 5C 6C", "JK JK AC AD AH", "2D 3D 4D 5D 6D"],
            "9S"
        )
        .starter,
        1
    );
}

/// pagat: "If two or more players had the equally low totals, the starter of the next round
/// will be the first of them, counting clockwise starting to the left of the caller."
/// RULES.md interpretation 11: "ties go to the first of them counting from the caller's
/// left, in the direction of play." Bob calls with 5; Ann and Dan both hold 4; from Bob's
/// left the order is Cid, Dan, Ann: Dan starts, although Ann sits at seat 0.
#[test]
fn pagat_tie_for_lowest_the_first_from_the_callers_left_starts() {
    let mut t = Table::new(Preset::Israeli, &["ann", "bob", "cid", "dan"]);
    t.deal(
        "bob",
        &[
            "JC JD JH 2D 2S",
            "KC KD KH AC 4C",
            "9C 9D 9H 10S 10H",
            "QC QD QH AH 2H",
        ],
        "7S",
    );
    t.play("bob", "KC KD KH", stock("JK"));
    t.play("cid", "9C", stock("3S"));
    t.play("dan", "QC QD QH", stock("AS"));
    t.play("ann", "JC JD JH", stock("JK"));
    t.call("bob");
    assert_eq!(
        t.hand_totals_of(["ann", "bob", "cid", "dan"]),
        [4, 5, 41, 4]
    );
    assert_eq!(t.next_starter(), Some("dan"));
}

/// RULES.md interpretation 11 covers the Nepali game too. When the caller ties for lowest,
/// the caller is the last one counted from their own left.
#[test]
fn nepali_the_lowest_hand_starts_a_tied_caller_counting_last() {
    let mut t = Table::new(Preset::Nepali, &["ann", "bob", "cid"]);
    t.deal(
        "ann",
        &["JC JD AC AD 2D", "JH JS AH AS 2C", "QC QD KC KD 10C"],
        "9S",
    );
    t.call("ann");
    assert_eq!(t.hand_totals_of(["ann", "bob"]), [4, 4]);
    assert_eq!(t.next_starter(), Some("bob"));
}

/// The Kluft and Wikipedia presets keep pagat's main rule, the lowest hand starts, even when
/// the round was won by an unchallenged Kluft caller with a higher hand.
#[test]
fn kluft_the_lowest_hand_starts_even_after_an_unchallenged_call() {
    let mut t = low_lap(Preset::Kluft, &[], "AS");
    t.call("ann");
    t.onderkluft("bob", false);
    t.onderkluft("cid", false);
    assert_eq!(t.round_ended().winner, Some(t.seat("ann")));
    assert_eq!(t.next_starter(), Some("bob"));
}

/// yaniv.co: "THE WINNER DEALS AND THE PLAYER TO THEIR LEFT STARTS." and "After each round,
/// the winner shuffles and deals, and the player to his or her left goes first." The first
/// round's dealer sits on the (randomly drawn) starter's right.
#[test]
fn house_the_winner_deals_and_the_player_on_their_left_starts() {
    let mut t = Table::new(Preset::House, &["ann", "bob", "cid"]);
    let dealt = t.deal(
        "bob",
        &["2C 3C 4C 5C 6C", "KH JK AC AD AH", "2D 3D 4D 5D 6D"],
        "9S",
    );
    assert_eq!(dealt.dealer, Some(t.seat("ann")));
    t.call("bob");
    assert_eq!(
        (t.next_dealer(), t.next_starter()),
        (Some("bob"), Some("cid"))
    );
    let dealt = t.deal_next(
        &["QC QD QH AH 2H", "9C 9D 9H 10S 10H", "KC KD KS AC 4C"],
        "7S",
    );
    assert_eq!(
        (dealt.dealer, dealt.starter),
        (Some(t.seat("bob")), t.seat("cid"))
    );

    // An Assaf: the round winner is the lowest hand that beat the caller (Ann's 4).
    t.play("cid", "KC KD KS", stock("JK"));
    t.play("ann", "QC QD QH", stock("AS"));
    t.play("bob", "9C", stock("3S"));
    t.call("cid");
    assert_eq!(t.round_ended().winner, Some(t.seat("ann")));
    assert_eq!(
        (t.next_dealer(), t.next_starter()),
        (Some("ann"), Some("bob"))
    );
}
