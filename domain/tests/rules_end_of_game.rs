//! Eliminations, the end of the game and the final standings.

mod common;

use common::{Table, rules_with, stock};
use serde_json::json;
use yaniv_domain::game::GameError;
use yaniv_domain::rules::{Preset, Rules};

const ANN_CALLS: &str = "JK JK AC AD AH";
const TWENTY_CLUBS: &str = "2C 3C 4C 5C 6C";
const TWENTY_DIAMONDS: &str = "2D 3D 4D 5D 6D";

/// A three-seat round in which Ann calls at once holding `ann`, against Bob's and Cid's
/// twenty points each; the totals before it are `totals`.
fn twenties(rules: Rules, ann: &str, totals: &[u32]) -> Table {
    let mut t = Table::with_rules(rules, &["ann", "bob", "cid"], totals);
    t.deal("ann", &[ann, TWENTY_CLUBS, TWENTY_DIAMONDS], "9S");
    t.call("ann");
    t
}

/// pagat: "Any player who has more than 200 points is eliminated from the game, which then
/// continues with the remaining players, until only one survives." A seat out of the game
/// is dealt no cards and may not act. Later eliminations rank above earlier ones.
#[test]
fn pagat_eliminated_above_200_the_last_survivor_wins() {
    let mut t = twenties(Preset::Israeli.rules(), ANN_CALLS, &[0, 190, 0]);
    assert_eq!(t.eliminated(), vec!["bob"]);
    assert!(!t.game.is_finished());
    assert!(t.game.is_eliminated(t.seat("bob")));
    assert_eq!(
        t.try_deal(None, &[ANN_CALLS, TWENTY_CLUBS, TWENTY_DIAMONDS], "9S"),
        Err(GameError::BadDeal(
            "seat 1 must be dealt 0 cards, got 5".into()
        ))
    );
    t.deal_next(&[ANN_CALLS, "", TWENTY_DIAMONDS], "9S");
    assert_eq!(t.try_call("bob"), Err(GameError::SeatEliminated(1)));
    assert_eq!(t.to_act(), Some("ann"));
    t.call("ann");
    assert_eq!(t.totals(), vec![("ann", 0), ("bob", 210), ("cid", 40)]);
    let t2 = twenties(Preset::Israeli.rules(), ANN_CALLS, &[0, 190, 185]);
    // Both out in the same round: Ann survives alone; Bob and Cid rank by total.
    assert_eq!(t2.eliminated(), vec!["bob", "cid"]);
    assert_eq!(
        t2.standings(),
        vec![("ann", 0, 1), ("cid", 205, 2), ("bob", 210, 3)]
    );
}

/// RULES.md interpretation 10 and `scoring/end.rs`: standings put the players still in
/// first, then later eliminations above earlier ones.
#[test]
fn later_eliminations_rank_above_earlier_ones() {
    let mut t = twenties(Preset::Israeli.rules(), ANN_CALLS, &[0, 190, 170]);
    assert_eq!(t.eliminated(), vec!["bob"]);
    t.deal_next(&[ANN_CALLS, "", TWENTY_DIAMONDS], "9S");
    t.call("ann");
    assert_eq!(t.eliminated(), vec!["cid"]);
    assert_eq!(
        t.standings(),
        vec![("ann", 0, 1), ("cid", 210, 2), ("bob", 210, 3)]
    );
    // The game is over: nothing more is accepted.
    assert_eq!(
        t.try_deal(None, &[ANN_CALLS, "", ""], "9S"),
        Err(GameError::GameOver)
    );
    assert_eq!(t.try_call("ann"), Err(GameError::GameOver));
}

/// yaniv.co: "When a player's score exceeds 200, she is out of the game". House rules have
/// no reductions, so a total of exactly 200 stays in the game.
#[test]
fn house_exactly_200_stays_201_is_out() {
    let t = twenties(Preset::House.rules(), "KH JK AC AD AH", &[0, 180, 181]);
    assert_eq!(t.totals(), vec![("ann", 0), ("bob", 200), ("cid", 201)]);
    assert_eq!(t.eliminated(), vec!["cid"]);
}

/// pagat: "In Nepal, it is usual to eliminate players when their score reaches more than 100
/// points (with exactly 100 you are still in the game)".
#[test]
fn nepal_exactly_100_stays_101_is_out() {
    let t = twenties(Preset::Nepali.rules(), "JC JD JH JS AC", &[0, 80, 81]);
    assert_eq!(t.totals(), vec![("ann", 0), ("bob", 100), ("cid", 101)]);
    assert_eq!(t.eliminated(), vec!["cid"]);
}

/// The elimination limit's `at_limit` parameter: out at the limit itself, not only above.
#[test]
fn elimination_at_the_limit_parameter() {
    let rules = rules_with(
        Preset::House,
        json!({"game_end": {"elimination": {"limit": 200, "at_limit": true}}}),
    );
    let t = twenties(rules, "KH JK AC AD AH", &[0, 180, 170]);
    assert_eq!(t.totals(), vec![("ann", 0), ("bob", 200), ("cid", 190)]);
    assert_eq!(t.eliminated(), vec!["bob"]);
}

/// Ann (168) and Bob (198) each come down to 3; Ann calls and is Assafed: 168 + 33 and
/// 198 + 3.
fn double_elimination(totals: &[u32]) -> Table {
    let mut t = Table::with_totals(Preset::Israeli, &["ann", "bob"], totals);
    t.deal("ann", &["KC KD KH AC 2C", "QC QD QH AH 2H"], "7S");
    t.play("ann", "KC KD KH", stock("JK"));
    t.play("bob", "QC QD QH", stock("JK"));
    t.call("ann");
    t
}

/// pagat: "For example the scores are 198-168, the player with 168 points calls with 3
/// points, but the opponent also has 3, so now both are on 201. It is not clear what should
/// happen in this situation. The only solution seems to be to play another round." RULES.md
/// interpretation 7: "When every remaining player would be eliminated in the same round, the
/// lowest total wins; players tied for lowest play another round."
#[test]
fn pagat_198_168_both_on_201_play_another_round() {
    let mut t = double_elimination(&[168, 198]);
    assert_eq!(t.totals(), vec![("ann", 201), ("bob", 201)]);
    assert!(t.eliminated().is_empty());
    assert!(!t.game.is_finished());
    // Both hands were 3: the first from the caller's left, Bob, starts.
    assert_eq!(t.next_starter(), Some("bob"));
    t.deal_next(&[TWENTY_CLUBS, ANN_CALLS], "9S");
    t.call("bob");
    assert_eq!(t.totals(), vec![("ann", 221), ("bob", 201)]);
    assert_eq!(t.eliminated(), vec!["ann"]);
    assert_eq!(t.standings(), vec![("bob", 201, 1), ("ann", 221, 2)]);
}

/// pagat: "If the final scores were different, say 201-202, one could say that the player
/// with the lower score (201) was the winner." RULES.md interpretation 7: "the lowest total
/// wins".
#[test]
fn pagat_201_202_the_lower_total_wins() {
    let t = double_elimination(&[168, 199]);
    assert_eq!(t.totals(), vec![("ann", 201), ("bob", 202)]);
    assert_eq!(t.eliminated(), vec!["bob"]);
    assert_eq!(t.standings(), vec![("ann", 201, 1), ("bob", 202, 2)]);
}

/// Wikipedia: "A certain limit is set. Whenever a player crosses that limit, the game ends
/// and the victor is the one with the smallest score." (RULES.md end of the game: "above a
/// limit, lowest wins (Wikipedia option)".)
#[test]
fn wikipedia_option_above_the_limit_the_lowest_wins() {
    let rules = rules_with(
        Preset::Wikipedia,
        json!({"game_end": {"lowest_wins": {"limit": 200, "at_limit": false}}}),
    );
    let t = twenties(rules, ANN_CALLS, &[120, 195, 90]);
    assert_eq!(t.totals(), vec![("ann", 120), ("bob", 215), ("cid", 110)]);
    assert!(t.eliminated().is_empty());
    assert_eq!(
        t.standings(),
        vec![("cid", 110, 1), ("ann", 120, 2), ("bob", 215, 3)]
    );
}
