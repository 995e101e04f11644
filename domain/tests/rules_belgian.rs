//! The Belgian championship rules (Officiële Spelregels Yaniv, Belgische Yaniv Vereniging):
//! going along ("meegaan"), the over-threshold call, the empty hand, dealer rotation, the
//! end of the game above 150, the 50/100/150 reductions, slap-downs and add-ons.

mod common;

use common::{
    ADD_ON_DOES_NOT_FIT, CALLERS_HAND_CLOSED, DECLARATIONS_BEING_TAKEN, NO_THROW_TO_ADD_ON_TO,
    NOBODY_GOING_ALONG, NOT_JUST_DRAWN, NOT_THE_THROWER, SLAP_DOES_NOT_FIT, Table, card, cards,
    discard, emptied_by_an_add_on, stock,
};
use yaniv_domain::game::{GameError, Outcome, RoundStage};
use yaniv_domain::rules::Preset;

const BELGIAN: Preset = Preset::Belgian;

/// Belgian: "Standaard kaartspel van 52 kaarten + 2 jokers (54 kaarten totaal). Bij 5-8
/// spelers worden er 2 kaartspellen gebruikt (108 kaarten totaal)." (RULES.md decks: "2 for
/// 5-8 players (Belgian)".) With two decks a hand may hold a card twice.
#[test]
fn one_deck_for_two_to_four_players_two_decks_for_five_to_eight() {
    let names = ["ann", "bob", "cid", "dan", "eve", "fay", "gus", "hal"];
    for n in 2..=8 {
        let t = Table::new(BELGIAN, &names[..n]);
        let expected = if n >= 5 { 108 } else { 54 };
        assert_eq!(
            t.game.deck().map(|d| d.size()),
            Some(expected),
            "{n} players"
        );
    }
    let four = [
        "5S 5S KD QD JD",
        "2C 3C 4C 6C 7C",
        "2D 3D 4D 6D 7D",
        "2H 3H 4H 6H 7H",
    ];
    let mut t = Table::new(BELGIAN, &names[..4]);
    assert_eq!(
        t.try_deal(Some("ann"), &four, "9C"),
        Err(GameError::BadDeal(
            "5S is dealt more often than the deck holds it".into()
        ))
    );
    let mut t = Table::new(BELGIAN, &names[..5]);
    t.deal(
        "ann",
        &[four[0], four[1], four[2], four[3], "2S 3S 4S 6S 7S"],
        "9C",
    );
    assert_eq!(t.game.stock_len(), 108 - 25 - 1);
}

/// The Belgian round of RECORD.md, action by action. Belgian: "Als je een kaart van de
/// trekstapel pakt waarmee je een combinatie kan afmaken, mag je deze direct afleggen." (the
/// slap of Q♠ on Q♣); "Als een speler een of meerdere kaarten heeft opgelegd van een set,
/// dan mag elke andere speler buiten zijn of haar beurt om een kwartet afmaken" (Cid's
/// queens); "De overige spelers moeten nog 1 beurt spelen." and "De overige spelers mogen
/// aangeven of ze meegaan met de Yaniv of niet. Dit gaat met de klok mee, tellend vanaf de
/// speler die Yaniv riep." Cid adds on in his own turn and may still call (the add-on does
/// not forfeit the call under these rules).
#[test]
fn the_record_md_example_round() {
    let mut t = Table::new(BELGIAN, &["ann", "bob", "cid"]);
    t.deal(
        "ann",
        &["AS 2S 3S 9D KH", "QC 8D AD JK AH", "QH QD AC 2C 2D"],
        "7H",
    );
    t.play("ann", "AS 2S 3S", discard("7H"));
    t.play("bob", "QC", stock("QS"));
    t.slap("bob", "QS");
    t.add_on("cid", "QH QD");
    assert_eq!(t.game.top_throw(), cards("QC QS QH QD"));
    t.call("cid");
    assert_eq!(t.game.view(0).map(|v| v.stage), Some(RoundStage::LastTurns));
    t.play("ann", "9D", stock("4C"));
    t.play("bob", "8D", stock("2H"));
    assert_eq!(
        t.game.view(0).map(|v| v.stage),
        Some(RoundStage::GoingAlong)
    );
    t.go_along("ann", false);
    t.go_along("bob", true);
    let end = t.round_ended();
    assert_eq!(end.outcome, Outcome::Assaf);
    assert_eq!(t.hand_totals_of(["ann", "bob", "cid"]), [21, 4, 5]);
    // Bob went along with 4 <= 5: Cid 32, Bob 0; Ann did not go along: her hand.
    assert_eq!(t.points_of(["ann", "bob", "cid"]), [21, 0, 32]);
    t.replays();
}

/// Deal of the going-along scenario below: Ann calls with 5 at once; in their last turns Bob
/// comes down to 3, Cid to 4, Dan stays at 44.
fn meegaan_table() -> Table {
    let mut t = Table::new(BELGIAN, &["ann", "bob", "cid", "dan"]);
    t.deal(
        "ann",
        &[
            "JK AC AD AH 2C",
            "KC KD KH JK AS",
            "QC QD QH QS 2H",
            "10C 10D 10H 9S 8S",
        ],
        "5D",
    );
    t.call("ann");
    t
}

/// Belgian: "Alle andere spelers krijgen nog één beurt om hun kaarten kwijt te raken (zij
/// mogen geen Yaniv roepen)". RULES.md: "Belgian 'meegaan': all others get one last turn".
/// Project decision (decide/mod.rs `closed_caller`): the caller's hand is closed during the
/// last turns and the declarations.
#[test]
fn after_a_call_the_others_play_one_last_turn_and_may_not_call() {
    let mut t = meegaan_table();
    let bob = t.seat("bob");
    assert_eq!(t.to_act(), Some("bob"));
    t.play("bob", "KC KD KH", stock("2D"));
    // Nobody may call during the last turns.
    assert_eq!(
        t.try_call("cid"),
        Err(GameError::CallNotAllowed(
            "nobody may call again in this round".into()
        ))
    );
    assert_eq!(
        t.try_play("ann", "AC", stock("3C")),
        Err(GameError::NotYourTurn {
            expected: t.seat("cid")
        })
    );
    assert_eq!(t.try_add_on("ann", "AC"), Err(CALLERS_HAND_CLOSED));
    assert_eq!(t.try_go_along("cid", true), Err(NOBODY_GOING_ALONG));
    t.play("cid", "QC QD QH QS", stock("2S"));
    t.play("dan", "10C", stock("7S"));
    // Declarations, clockwise from the caller's left.
    assert_eq!(
        t.try_go_along("cid", true),
        Err(GameError::NotYourTurn { expected: bob })
    );
    assert_eq!(
        t.try_play("bob", "AS", stock("3C")),
        Err(DECLARATIONS_BEING_TAKEN)
    );
    assert_eq!(t.to_act(), Some("bob"));
}

/// RULES.md interpretation 3: "the caller's round score is 32 for each going-along player
/// whose hand is equal or lower, else 0; a going-along player scores 0 when equal or lower
/// than the caller, else 32 (not their hand); players who do not go along score their
/// hand." Belgian: "Let op: De Yaniv-roeper kan dus mogelijk meer dan 32 strafpunten
/// krijgen." Here Bob (3) and Cid (4) go along below Ann's 5: Ann scores 64.
#[test]
fn meegaan_the_caller_can_score_64() {
    let mut t = meegaan_table();
    t.play("bob", "KC KD KH", stock("2D"));
    t.play("cid", "QC QD QH QS", stock("2S"));
    t.play("dan", "10C", stock("7S"));
    t.go_along("bob", true);
    t.go_along("cid", true);
    t.go_along("dan", false);
    assert_eq!(
        t.hand_totals_of(["ann", "bob", "cid", "dan"]),
        [5, 3, 4, 44]
    );
    assert_eq!(t.points_of(["ann", "bob", "cid", "dan"]), [64, 0, 0, 44]);
    assert_eq!(t.round_ended().outcome, Outcome::Assaf);
}

/// Belgian: "Wanneer de Yaniv-roeper minder punten heeft, krijgt hij/zij 0 punten en degene
/// die meeging 32 strafpunten." A going-along player above the caller scores 32, not the
/// 44 in his hand.
#[test]
fn meegaan_a_higher_player_who_goes_along_scores_32() {
    let mut t = meegaan_table();
    t.play("bob", "KC KD KH", stock("2D"));
    t.play("cid", "QC QD QH QS", stock("2S"));
    t.play("dan", "10C", stock("7S"));
    t.go_along("bob", false);
    t.go_along("cid", false);
    t.go_along("dan", true);
    assert_eq!(t.points_of(["ann", "bob", "cid", "dan"]), [0, 3, 4, 32]);
    assert_eq!(t.round_ended().outcome, Outcome::Yaniv);
}

/// RULES.md interpretation 4: "Belgian over-threshold call: the round ends at once; the
/// caller scores 32 + the hand total of the player on their left; every other player scores
/// their hand." Belgian: "De Yaniv-roeper krijgt 32 strafpunten, plus het aantal punten van
/// de persoon links van hem/haar. Dit is omdat de Yaniv-roeper anders expres bij 18, 68, of
/// 118 een foutieve Yaniv zou kunnen roepen om zo 50 punten aftrek te krijgen."
#[test]
fn over_threshold_call_32_plus_the_left_neighbours_hand() {
    let mut t = Table::with_totals(BELGIAN, &["ann", "bob", "cid"], &[0, 18, 0]);
    t.deal(
        "bob",
        &["2C 3C 4C 5C 6C", "JK JK AC AD 4H", "QC QD 4S 5S 6S"],
        "9D",
    );
    // Bob (6, above 5) calls; Cid sits on his left.
    t.call("bob");
    let end = t.round_ended();
    assert_eq!(end.outcome, Outcome::FalseCall);
    assert_eq!(end.caller, Some(t.seat("bob")));
    assert_eq!(t.points_of(["ann", "bob", "cid"]), [20, 32 + 35, 35]);
    assert!(
        !t.game.round_in_progress(),
        "no last turns after a false call"
    );
    // 18 + 32 + 35 = 85: the neighbour's hand keeps the caller off the 50s.
    assert_eq!(t.total("bob"), 85);
    assert!(t.round_ended().reductions.is_empty());
}

/// RULES.md, call over the threshold: "32 plus the hand total of the player on the
/// caller's left (Belgian)" — legal, so the legal actions list the call; they also say
/// it is penalised, so a client can ask before sending it. Within the threshold it is
/// not penalised, and where the rules refuse it (Israeli) it is not listed at all.
#[test]
fn a_call_above_the_threshold_is_listed_as_legal_and_penalised() {
    let mut t = Table::new(BELGIAN, &["ann", "bob", "cid"]);
    t.deal(
        "bob",
        &["2C 3C 4C 5C 6C", "JK JK AC AD 4H", "QC QD 4S 5S 6S"],
        "9D",
    );
    let legal = t.game.legal_actions(t.seat("bob"));
    assert!(
        legal.call && legal.call_penalised,
        "6 is above 5: {legal:?}"
    );

    let mut t = Table::new(BELGIAN, &["ann", "bob", "cid"]);
    t.deal(
        "bob",
        &["2C 3C 4C 5C 6C", "JK JK AC AD 3H", "QC QD 4S 5S 6S"],
        "9D",
    );
    let legal = t.game.legal_actions(t.seat("bob"));
    assert!(
        legal.call && !legal.call_penalised,
        "5 is within: {legal:?}"
    );

    let mut t = Table::new(Preset::Israeli, &["ann", "bob", "cid"]);
    t.deal(
        "bob",
        &["2C 3C 4C 5C 6C", "KS KD AC AD 4H", "QC QD 4S 5S 6S"],
        "9D",
    );
    let legal = t.game.legal_actions(t.seat("bob"));
    assert!(
        !legal.call && !legal.call_penalised,
        "refused, not listed: {legal:?}"
    );
}

/// Belgian: "Direct einde ronde: De ronde eindigt onmiddellijk wanneer een speler al
/// zijn/haar kaarten kwijt is. Alle andere spelers tellen hun punten op zoals gewoonlijk.
/// Aangezien er geen Yaniv is geroepen, kan ook niemand meegaan." Here Ann throws her whole
/// hand as a run and slaps the card she draws.
#[test]
fn an_empty_hand_ends_the_round_at_once() {
    let mut t = Table::new(BELGIAN, &["ann", "bob", "cid"]);
    t.deal(
        "ann",
        &["6H 7H 8H 9H 10H", "2C 3C 4C 5C 6C", "2D 3D 4D 5D 6D"],
        "KC",
    );
    t.play("ann", "6H 7H 8H 9H 10H", stock("JH"));
    let events = t.slap("ann", "JH");
    assert!(common::ends_round(&events));
    let end = t.round_ended();
    assert_eq!(end.outcome, Outcome::EmptyHand);
    assert_eq!(end.caller, None);
    assert_eq!(end.winner, Some(t.seat("ann")));
    assert_eq!(t.points_of(["ann", "bob", "cid"]), [0, 20, 20]);
}

/// The same rule when a player adds his last cards onto another player's run.
#[test]
fn an_add_on_that_empties_a_hand_ends_the_round() {
    let t = emptied_by_an_add_on(BELGIAN);
    let end = t.round_ended();
    assert_eq!(end.outcome, Outcome::EmptyHand);
    assert_eq!(t.points_of(["ann", "bob", "cid"]), [22, 43, 0]);
}

/// Belgian: "De speler links van de deler begint". RULES.md interpretation 2: "The dealer
/// rotates one seat clockwise each round; the first dealer is drawn at random." The first
/// round's starter is drawn, and the dealer sits on the starter's right.
#[test]
fn the_dealer_rotates_and_the_player_on_the_dealers_left_starts() {
    let mut t = Table::new(BELGIAN, &["ann", "bob", "cid"]);
    let hands = ["2C 3C 4C 5C 6C", "2D 3D 4D 5D 6D", "2H 3H 4H 5H 6H"];
    let dealt = t.deal("bob", &hands, "KC");
    assert_eq!(
        (dealt.dealer, dealt.starter),
        (Some(t.seat("ann")), t.seat("bob"))
    );
    // The starter calls above the threshold: the round ends at once.
    t.call("bob");
    assert_eq!(
        (t.next_dealer(), t.next_starter()),
        (Some("bob"), Some("cid"))
    );
    let dealt = t.deal_next(&hands, "KC");
    assert_eq!(
        (dealt.dealer, dealt.starter),
        (Some(t.seat("bob")), t.seat("cid"))
    );
    t.call("cid");
    assert_eq!(
        (t.next_dealer(), t.next_starter()),
        (Some("cid"), Some("ann"))
    );
    // A later round's starter, when given, must be the one the rules derive.
    assert_eq!(
        t.try_deal(Some("bob"), &hands, "KC"),
        Err(GameError::BadDeal(
            "seat 1 cannot start this round: the rules give seat 0".into()
        ))
    );
    let dealt = t.deal("ann", &hands, "KC");
    assert_eq!(
        (dealt.dealer, dealt.starter),
        (Some(t.seat("cid")), t.seat("ann"))
    );
}

/// Belgian: "Zodra een van de spelers meer dan 150 punten heeft, eindigt het spel, en wint
/// de speler met de minste punten." RULES.md interpretation 10: "Ties for the lowest total
/// at the end of a game share the placement". Nobody is eliminated.
#[test]
fn the_game_ends_above_150_and_the_lowest_total_wins_ties_sharing_the_place() {
    let mut t = Table::with_totals(BELGIAN, &["ann", "bob", "cid"], &[140, 100, 100]);
    t.deal(
        "ann",
        &["JK JK AC AD 4H", "2C 3C 4C 5C 6C", "2D 3D 4D 5D 6D"],
        "KC",
    );
    t.call("ann");
    assert_eq!(t.totals(), vec![("ann", 192), ("bob", 120), ("cid", 120)]);
    assert!(t.round_ended().eliminated.is_empty());
    assert_eq!(t.round_ended().next_starter, None);
    assert!(t.game.is_finished());
    assert_eq!(
        t.standings(),
        vec![("bob", 120, 1), ("cid", 120, 1), ("ann", 192, 3)]
    );
    assert_eq!(
        t.try_deal(None, &["", "", ""], "KC"),
        Err(GameError::GameOver)
    );
}

/// "meer dan 150": a total of 150 or less plays on (here 145 after the round).
#[test]
fn the_game_goes_on_at_150_or_less() {
    let mut t = Table::with_totals(BELGIAN, &["ann", "bob"], &[0, 125]);
    t.deal("ann", &["JK JK AC AD 4H", "2C 3C 4C 5C 6C"], "KC");
    t.call("ann");
    // Ann: 32 + Bob's 20 = 52; Bob: 125 + 20 = 145.
    assert_eq!(t.totals(), vec![("ann", 52), ("bob", 145)]);
    assert!(!t.game.is_finished());
}

/// Belgian: "Wanneer een speler precies op 50, 100, of 150 punten komt in de totaalscore,
/// worden er 50 punten afgetrokken van zijn/haar totaalscore." RULES.md interpretation 6: "A
/// reduction applies once per round to the new total".
#[test]
fn exactly_50_100_or_150_loses_50() {
    let mut t = Table::with_totals(BELGIAN, &["ann", "bob", "cid", "dan"], &[0, 80, 130, 30]);
    t.deal(
        "ann",
        &[
            "6H 7H 8H 9H 10H",
            "2C 3C 4C 5C 6C",
            "2D 3D 4D 5D 6D",
            "2S 3S 4S 5S 6S",
        ],
        "KC",
    );
    t.play("ann", "6H 7H 8H 9H 10H", stock("JH"));
    t.slap("ann", "JH");
    // Bob 100 -> 50 (not again to 0), Cid 150 -> 100 (not again to 50), Dan 50 -> 0.
    assert_eq!(
        t.totals(),
        vec![("ann", 0), ("bob", 50), ("cid", 100), ("dan", 0)]
    );
    let reductions: Vec<(u32, u32)> = t
        .round_ended()
        .reductions
        .iter()
        .map(|r| (r.from, r.to))
        .collect();
    assert_eq!(reductions, vec![(100, 50), (150, 100), (50, 0)]);
}

/// Belgian example 1: "Elke andere 6 (6♥, 6♠, 6♦, 6♣) omdat 6 de bovenste kaart is". The
/// slap is the thrower's own card, drawn from the stock.
#[test]
fn slap_on_a_single_card_any_card_of_its_rank() {
    let mut t = Table::new(BELGIAN, &["ann", "bob"]);
    t.deal("ann", &["6H KD QD JD 10D", "2C 3C 4C 5C 7C"], "KC");
    t.play("ann", "6H", stock("6S"));
    t.slap("ann", "6S");
    assert_eq!(t.game.top_throw(), cards("6H 6S"));
    assert_eq!(
        t.hand("ann").len(),
        4,
        "a slap-down is not followed by another draw"
    );
}

/// Belgian FAQ 2: "Als je een straat neerlegt (6♥-7♥-8♥) en vervolgens een 8 pakt van de
/// gesloten stapel, mag je die meteen opleggen? JA. ... als je daarna een kaart pakt die
/// past (in dit geval elke 8, of een 9♥), mag je deze direct opleggen op jouw eigen
/// neerlegde combinatie." Example 2, invalid: "5♥ (kan niet omdat 6♥ niet de bovenste kaart
/// is)" and "Elke andere 6 (omdat 6♥ niet de bovenste kaart is)".
#[test]
fn slap_on_the_run_six_seven_eight_of_hearts() {
    for (drawn, fits) in [
        ("9H", true),
        ("8S", true),
        ("8C", true),
        ("5H", false),
        ("6S", false),
    ] {
        let mut t = Table::new(BELGIAN, &["ann", "bob"]);
        t.deal("ann", &["6H 7H 8H KD QD", "2C 3C 4C 5C 7C"], "KC");
        t.play("ann", "6H 7H 8H", stock(drawn));
        let result = t.try_slap("ann", drawn);
        if fits {
            assert!(result.is_ok(), "{drawn}");
            assert_eq!(t.game.top_throw().last(), Some(card(drawn)));
        } else {
            assert_eq!(result, Err(SLAP_DOES_NOT_FIT), "{drawn}");
        }
    }
}

/// RULES.md slap-down: "the thrower, right after drawing from the stock, lays a card".
/// Refused: a card not just drawn, a card drawn from the discard, a second slap, a slap by
/// another player, a slap after the next throw.
#[test]
fn slap_refusals() {
    let mut t = Table::new(BELGIAN, &["ann", "bob", "cid"]);
    t.deal(
        "ann",
        &["6H 6D KD QD JD", "2C 3C 4C 5C 7C", "2D 3D 4D 5D 7D"],
        "6C",
    );
    // Ann takes the up card 6♣ from the discard: it cannot be slapped, nor can her 6♦.
    t.play("ann", "6H", discard("6C"));
    assert_eq!(t.try_slap("ann", "6C"), Err(NOT_JUST_DRAWN));
    assert_eq!(t.try_slap("ann", "6D"), Err(NOT_JUST_DRAWN));
    t.play("bob", "7C", stock("7S"));
    assert_eq!(t.try_slap("cid", "7D"), Err(NOT_THE_THROWER));
    assert_eq!(t.try_slap("ann", "7S"), Err(NOT_THE_THROWER));
    t.slap("bob", "7S");
    assert_eq!(t.try_slap("bob", "7S"), Err(NOT_JUST_DRAWN));
    t.play("cid", "7D", stock("9S"));
    assert_eq!(t.try_slap("bob", "7S"), Err(NOT_THE_THROWER));
}

/// RULES.md interpretation 5: "Slap-down and add-on windows close when the next throw is
/// made". A call is not a throw: after the next player's Belgian call, the thrower may still
/// slap the card he drew until the first last-turn throw. Belgian: "Zodra een andere speler
/// al een kaart heeft neergelegd, is het te laat."
#[test]
fn a_belgian_call_does_not_close_the_slap_window() {
    let mut t = Table::new(BELGIAN, &["ann", "bob", "cid"]);
    t.deal(
        "ann",
        &["QC KD 9D 10D JD", "JK JK AC AD AH", "2D 3D 4D 5D 7D"],
        "6C",
    );
    t.play("ann", "QC", stock("QS"));
    t.call("bob");
    t.slap("ann", "QS");
    assert_eq!(t.game.top_throw(), cards("QC QS"));
    t.play("cid", "7D", stock("9S"));
    t.play("ann", "KD", stock("2S"));
    t.go_along("cid", false);
    t.go_along("ann", false);
    assert_eq!(t.round_ended().outcome, Outcome::Yaniv);
}

/// Belgian FAQ 3: "Als speler A een straat 6♥-7♥-8♥ neerlegt, mag een andere speler direct
/// een 9♥ opleggen om de straat te verlengen." Another player may not lay another 8 on a
/// run (that is only the thrower's slap-down), nor the 5♥ below its bottom.
#[test]
fn add_on_the_nine_of_hearts_to_another_players_run() {
    let mut t = Table::new(BELGIAN, &["ann", "bob", "cid"]);
    t.deal(
        "ann",
        &["6H 7H 8H KD QD", "9H 8S 5H 2C 3C", "2D 3D 4D 5D 7D"],
        "KC",
    );
    t.play("ann", "6H 7H 8H", stock("JS"));
    assert_eq!(t.try_add_on("bob", "8S"), Err(ADD_ON_DOES_NOT_FIT));
    assert_eq!(t.try_add_on("bob", "5H"), Err(ADD_ON_DOES_NOT_FIT));
    t.add_on("bob", "9H");
    assert_eq!(t.game.top_throw(), cards("6H 7H 8H 9H"));
}

/// Belgian: "Wanneer Speler B de 7♣ in de hand heeft, mag hij/zij deze direct opleggen om de
/// straat af te maken. Mocht een andere speler ook de 8♣ hebben, dan mag deze ook direct
/// opleggen om de straat verder te verlengen, enzovoorts." RULES.md interpretation 5:
/// "Players who add on do not draw."
#[test]
fn add_ons_chain_on_a_run_and_add_ons_do_not_draw() {
    let mut t = Table::new(BELGIAN, &["ann", "bob", "cid"]);
    t.deal(
        "ann",
        &["4C 5C 6C KD QD", "7C 2H 3H 4H 5H", "8C 2D 3D 4D 5D"],
        "KS",
    );
    t.play("ann", "4C 5C 6C", stock("JS"));
    t.add_on("bob", "7C");
    t.add_on("cid", "8C");
    assert_eq!(t.game.top_throw(), cards("4C 5C 6C 7C 8C"));
    assert_eq!((t.hand("bob").len(), t.hand("cid").len()), (4, 4));
    // Bob's turn goes on; the next player may draw the new top card.
    t.play("bob", "2H 3H 4H 5H", discard("8C"));
}

/// Belgian: "Wanneer Speler B twee andere 9's in de hand heeft, mag hij/zij deze direct
/// opleggen om het kwartet af te maken." FAQ 5: "Mag een andere speler een set van 2 kaarten
/// verlengen met een derde? NEE. Sets kunnen alleen worden afgemaakt tot een kwartet." And
/// "een of meerdere kaarten": a single thrown card can be completed to four as well.
#[test]
fn add_ons_complete_a_set_to_exactly_four() {
    let mut t = Table::new(BELGIAN, &["ann", "bob", "cid"]);
    t.deal(
        "ann",
        &["9C 9H KD QD JD", "9D 9S 2H 3H 4H", "2D 3D 4D 5D 7D"],
        "KS",
    );
    t.play("ann", "9C 9H", stock("JS"));
    assert_eq!(t.try_add_on("bob", "9D"), Err(ADD_ON_DOES_NOT_FIT));
    t.add_on("bob", "9D 9S");
    assert_eq!(t.game.top_throw(), cards("9C 9H 9D 9S"));

    let mut t = Table::new(BELGIAN, &["ann", "bob", "cid"]);
    t.deal(
        "ann",
        &["9C KD QD JD 10D", "9D 9S 9H 3H 4H", "2D 3D 4D 5D 7D"],
        "KS",
    );
    t.play("ann", "9C", stock("JS"));
    assert_eq!(t.try_add_on("bob", "9D 9S"), Err(ADD_ON_DOES_NOT_FIT));
    t.add_on("bob", "9D 9S 9H");
}

/// RULES.md add-on: "by others, out of turn"; the thrower's own card is a slap-down. RULES.md
/// interpretation 5: the window closes "when the next throw is made". The up card was
/// thrown by nobody: nothing can be added to it.
#[test]
fn add_on_refusals() {
    let mut t = Table::new(BELGIAN, &["ann", "bob", "cid"]);
    t.deal(
        "ann",
        &["4C 5C 6C 7C QD", "9S 2H 3H 4H 5H", "8C 2D 3D 4D 5D"],
        "9C",
    );
    assert_eq!(t.try_add_on("bob", "9S"), Err(NO_THROW_TO_ADD_ON_TO));
    t.play("ann", "5C 6C 7C", stock("JS"));
    assert_eq!(
        t.try_add_on("ann", "4C"),
        Err(GameError::AddOnNotAllowed(
            "the thrower slaps down; add-ons are for the other players"
        ))
    );
    assert_eq!(
        t.try_add_on("cid", "8D"),
        Err(GameError::CardNotInHand { card: card("8D") })
    );
    assert!(t.accepts_add_on("cid", "8C"));
    t.play("bob", "9S", stock("KS"));
    // Cid's 8♣ would have extended 5♣-6♣-7♣, but that throw is covered now.
    assert_eq!(t.try_add_on("cid", "8C"), Err(ADD_ON_DOES_NOT_FIT));
}

/// Project decision (decide/mod.rs `window_open`): the add-on window also closes at the first
/// going-along declaration, so the hands compared are settled.
#[test]
fn the_add_on_window_closes_at_the_first_going_along_declaration() {
    let mut t = Table::new(BELGIAN, &["ann", "bob", "cid"]);
    t.deal(
        "ann",
        &["JK JK AC AD AH", "4C 5C 6C 8C KD", "8S 8D 8H 7C KS"],
        "9H",
    );
    t.call("ann");
    t.play("bob", "4C 5C 6C", stock("2D"));
    t.play("cid", "8S 8D 8H", stock("3D"));
    assert!(t.accepts_add_on("bob", "8C"), "open after the last turn");
    assert_eq!(t.try_add_on("ann", "AC"), Err(CALLERS_HAND_CLOSED));
    t.go_along("bob", false);
    assert_eq!(t.try_add_on("bob", "8C"), Err(NO_THROW_TO_ADD_ON_TO));
}

/// RULES.md interpretation 1: "A run may be thrown ascending or descending"; slap-down and
/// add-on: "one that extends the run past its top card". Thrown 8♥-7♥-6♥, the 6♥ is on top:
/// the 5♥ extends it, the 9♥ (below the bottom card) does not.
#[test]
fn a_descending_run_is_extended_past_its_top_card() {
    let mut t = Table::new(BELGIAN, &["ann", "bob", "cid"]);
    t.deal(
        "ann",
        &["8H 7H 6H KD QD", "9H 2C 3C 4C 5C", "5H 4H 2D 3D 4D"],
        "KC",
    );
    t.play("ann", "8H 7H 6H", stock("6S"));
    assert_eq!(t.try_add_on("bob", "9H"), Err(ADD_ON_DOES_NOT_FIT));
    t.add_on("cid", "5H 4H");
    assert_eq!(t.game.top_throw(), cards("8H 7H 6H 5H 4H"));
    // The thrower's 6♠ no longer matches the top card (4♥).
    assert_eq!(t.try_slap("ann", "6S"), Err(SLAP_DOES_NOT_FIT));
}

/// Belgian: "Aas kan laag (A-2-3) of hoog (Q-K-A) gebruikt worden, maar niet beide". A high
/// ace continues J♥-Q♥-K♥ past its top, for the thrower's slap-down as for another
/// player's add-on; nothing continues a run past a high ace (no K-A-2).
#[test]
fn a_high_ace_extends_a_run_past_the_king() {
    let mut t = Table::new(BELGIAN, &["ann", "bob", "cid"]);
    t.deal(
        "ann",
        &["JH QH KH 9D 9C", "2H 3C 4C 5C 6C", "2D 3D 4D 5D 7D"],
        "KC",
    );
    t.play("ann", "JH QH KH", stock("AH"));
    t.slap("ann", "AH");
    assert_eq!(t.game.top_throw(), cards("JH QH KH AH"));
    assert_eq!(t.try_add_on("bob", "2H"), Err(ADD_ON_DOES_NOT_FIT));

    let mut t = Table::new(BELGIAN, &["ann", "bob", "cid"]);
    t.deal(
        "ann",
        &["JH QH KH 9D 9C", "AH 3C 4C 5C 6C", "2D 3D 4D 5D 7D"],
        "KC",
    );
    t.play("ann", "JH QH KH", stock("2S"));
    t.add_on("bob", "AH");
    assert_eq!(t.game.top_throw(), cards("JH QH KH AH"));
}

/// Belgian: "Alle andere spelers krijgen nog één beurt om hun kaarten kwijt te raken (zij
/// mogen geen Yaniv roepen)" and "Direct einde ronde: De ronde eindigt onmiddellijk
/// wanneer een speler al zijn/haar kaarten kwijt is." The empty-hand ending is what keeps
/// a last turn after a call from reaching a hand with nothing to throw; without slap-downs
/// and add-ons no hand can empty (every turn draws after its throw), so going along is
/// played there whatever `round_ends_on_empty_hand` says, and refused without it only
/// where a slap-down or an add-on could empty a hand.
#[test]
fn going_along_needs_the_empty_hand_ending_only_where_a_hand_can_empty() {
    use yaniv_domain::bots::BotKind;
    use yaniv_domain::rules::{AddOns, RulesError, SlapDown};
    use yaniv_domain::sim::{SimOptions, Simulator};
    let mut quiet = BELGIAN.rules();
    quiet.slap_down = SlapDown::Off;
    quiet.add_ons = AddOns::NONE;
    quiet.round_ends_on_empty_hand = false;
    assert_eq!(quiet.validate(), Ok(()));
    let refused = |rules: &yaniv_domain::rules::Rules| {
        matches!(
            rules.validate(),
            Err(RulesError::Inconsistent {
                name: "round_ends_on_empty_hand",
                ..
            })
        )
    };
    let mut slapping = quiet.clone();
    slapping.slap_down = SlapDown::AfterStockDraw;
    assert!(refused(&slapping), "a slap-down can empty a hand");
    let mut adding = quiet.clone();
    adding.add_ons.to_runs = true;
    assert!(refused(&adding), "an add-on can empty a hand");

    // The going-along round of the scenarios above, under these rules.
    let mut t = Table::with_rules(quiet.clone(), &["ann", "bob", "cid", "dan"], &[]);
    t.deal(
        "ann",
        &[
            "JK AC AD AH 2C",
            "KC KD KH JK AS",
            "QC QD QH QS 2H",
            "10C 10D 10H 9S 8S",
        ],
        "5D",
    );
    t.call("ann");
    t.play("bob", "KC KD KH", stock("2D"));
    t.play("cid", "QC QD QH QS", stock("2S"));
    t.play("dan", "10C", stock("7S"));
    t.go_along("bob", true);
    t.go_along("cid", true);
    t.go_along("dan", false);
    assert_eq!(t.points_of(["ann", "bob", "cid", "dan"]), [64, 0, 0, 44]);
    t.replays();

    // And whole games of bots, to their end.
    for players in [2, 5] {
        let mut bots: Vec<_> = (0..players)
            .map(|s| BotKind::Greedy.make(700 + s as u64))
            .collect();
        let game = Simulator::new(SimOptions::default())
            .play(&quiet, players, 70 + players as u64, &mut bots)
            .expect("a game without slap-downs or add-ons plays to its end");
        assert!(game.declarations > 0, "calls were gone along with or not");
    }
}
