//! The House Rules' bonus rules the engine models (`bonus_rules`), each test quoting
//! the source's sentence.

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

/// Landmine, "The 2 of spades is worth 20 points", with Wormhole, "If a player ends the
/// round with exactly 41 points in her hand": the two of spades' 20 counts first, then
/// the total of 41 (our reading; docs/rules.md, "Readings we chose").
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
    assert_eq!(shown.hands[1], Some(common::cards("3C KH JK 7D 8D").into()));

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

/// yaniv.co Southern hemisphere: "Playing a 9 reverses the direction of play."
#[test]
fn southern_hemisphere_a_nine_reverses_the_direction_of_play() {
    let players = ["ann", "bob", "cid", "dan"];
    let hands = [
        "9C 3C 4S 5S 6S",
        "KH 2H 4D 5D 6D",
        "9D 9H 4C 5C 6C",
        "10S 2C 7H 8H KD",
    ];
    let mut t = Table::with_rules(house_with(&["southern_hemisphere"]), &players, &[]);
    t.deal("ann", &hands, "3D");
    assert!(!t.game.view(0).expect("seat").reversed);
    // Ann's nine sends the turn to her right: dan, not bob.
    t.play("ann", "9C", common::stock("AS"));
    assert_eq!(t.to_act(), Some("dan"));
    assert!(t.game.view(1).expect("seat").reversed, "every seat sees it");
    t.play("dan", "KD", common::stock("AD"));
    assert_eq!(t.to_act(), Some("cid"));
    // A throw of two nines reverses once, not twice (our reading: the source counts
    // per card only where it says so, in Sevens).
    t.play("cid", "9D 9H", common::stock("AH"));
    assert_eq!(t.to_act(), Some("dan"));
    assert!(!t.game.view(0).expect("seat").reversed);
    t.replays();

    // Without the rule, a nine is just a nine.
    let mut plain = Table::new(Preset::House, &players);
    plain.deal("ann", &hands, "3D");
    plain.play("ann", "9C", common::stock("AS"));
    assert_eq!(plain.to_act(), Some("bob"));
}

/// Southern hemisphere, our readings: each round starts in the usual direction, and a
/// nine in the Belgian last turns after a call does not reverse them, since each other
/// player plays exactly one last turn.
#[test]
fn southern_hemisphere_resets_each_round_and_leaves_the_last_turns_alone() {
    let players = ["ann", "bob", "cid", "dan"];
    let mut t = Table::with_rules(house_with(&["southern_hemisphere"]), &players, &[]);
    t.deal(
        "ann",
        &[
            "9C AC AD JK 3S",
            "KH QH 4D 5D 6D",
            "KC QC 4C 5C 6C",
            "KS QS 7H 8H 10D",
        ],
        "3D",
    );
    t.play("ann", "9C", common::stock("JK"));
    assert_eq!(t.to_act(), Some("dan"));
    t.play("dan", "KS", common::stock("5H"));
    t.play("cid", "KC", common::stock("6H"));
    t.play("bob", "KH", common::stock("7C"));
    t.call("ann");
    let next = t.next_starter().expect("the game goes on").to_owned();
    t.deal_next(
        &[
            "9S 2C 3C 4D 5D",
            "KH QH 6D 7D 8D",
            "KC QC 6C 8C 10C",
            "KS QS 7H 8H 10D",
        ],
        "3H",
    );
    assert_eq!(t.to_act(), Some(next.as_str()));
    assert!(!t.game.view(0).expect("seat").reversed, "a new round");

    let mut belgian = Table::with_rules(
        rules_with(
            Preset::Belgian,
            json!({ "bonus_rules": ["southern_hemisphere"] }),
        ),
        &players,
        &[],
    );
    belgian.deal(
        "ann",
        &[
            "JK JK AC AD 3C",
            "9C KH QH 4D 5D",
            "KC QC 4C 5C 6C",
            "KS QS 7H 8H 10D",
        ],
        "3H",
    );
    belgian.call("ann");
    assert_eq!(belgian.to_act(), Some("bob"));
    belgian.play("bob", "9C", common::stock("9H"));
    assert_eq!(
        belgian.to_act(),
        Some("cid"),
        "the last turns keep their order"
    );
    belgian.play("cid", "KC", common::stock("JC"));
    assert_eq!(belgian.to_act(), Some("dan"));
    belgian.replays();
}

/// yaniv.co Mathematician: "Players can add-on to or slap-down on any card discarded if
/// that card's value is a multiple of the value of the card laid. For example, if a 3 is
/// discarded, another player may lay down a 6 or a 9 before the next player's turn
/// begins. This rule does not apply if a set or straight is played."
#[test]
fn mathematician_lays_a_multiple_of_a_single_card_discarded() {
    let players = ["ann", "bob", "cid"];
    let hands = ["3C 4C 8C 8S KD", "KH 2H 5D 7D JK", "6H 9S 7H 3D 5C"];
    let mut t = Table::with_rules(house_with(&["mathematician"]), &players, &[]);
    t.deal("ann", &hands, "2D");
    t.play("ann", "3C", common::stock("AS"));
    // The example's 6 and 9 fit the 3, a 7 does not, nor a joker.
    assert!(t.accepts_add_on("cid", "6H"));
    assert!(t.accepts_add_on("cid", "9S"));
    assert!(t.accepts_add_on("cid", "3D"), "3 is 1 x 3");
    assert!(!t.accepts_add_on("cid", "7H"));
    assert!(
        !t.accepts_add_on("bob", "JK"),
        "a card counting 0 multiplies nothing"
    );
    assert!(!t.accepts_add_on("cid", "6H 9S"), "one card on one card");
    let legal = t.game.legal_actions(t.seat("cid"));
    assert_eq!(legal.add_ons.len(), 3, "{:?}", legal.add_ons);
    t.add_on("cid", "6H");
    // The discarded card took its one card: a 9 no longer fits the 3.
    assert!(!t.accepts_add_on("cid", "9S"));

    // The thrower's slap-down too: bob throws the 5 of diamonds, draws a king and may
    // slap it down (10 is 2 x 5).
    t.play("bob", "5D", common::stock("KC"));
    t.slap("bob", "KC");

    // Not on a set or a straight.
    let mut set = Table::with_rules(house_with(&["mathematician"]), &players, &[]);
    set.deal(
        "ann",
        &["3C 3S 8C 8S KD", "KH 2H 5D 7D JK", "6H 9S 7H 3D 5C"],
        "2D",
    );
    set.play("ann", "3C 3S", common::stock("AS"));
    assert!(!set.accepts_add_on("cid", "6H"));
    set.replays();

    // Without the rule the 6 does not fit the 3.
    let mut plain = Table::new(Preset::House, &players);
    plain.deal("ann", &hands, "2D");
    plain.play("ann", "3C", common::stock("AS"));
    assert!(!plain.accepts_add_on("cid", "6H"));
    t.replays();
}

/// Mathematician, the direction: "if that card's value is a multiple of the value of the
/// card laid" says the discarded card is the multiple, and "if a 3 is discarded, another
/// player may lay down a 6 or a 9" lays the multiple. We follow the example (as Cell
/// Division's figure over its text): on a 6, a 6 fits and a 3, a 2 or an ace does not,
/// neither as another player's add-on nor as the thrower's slap-down.
#[test]
fn mathematician_follows_its_example_the_card_laid_is_the_multiple() {
    let players = ["ann", "bob", "cid"];
    let hands = ["6C 4C 8C 8S KD", "3H 2H AH 7D 9D", "6H 5C 10S 4D JD"];
    let mut t = Table::with_rules(house_with(&["mathematician"]), &players, &[]);
    t.deal("ann", &hands, "2D");
    t.play("ann", "6C", common::stock("3S"));
    for divisor in ["3H", "2H", "AH"] {
        assert!(!t.accepts_add_on("bob", divisor), "{divisor} divides 6");
    }
    assert_eq!(
        t.try_slap("ann", "3S").map_err(|e| e.code()),
        Err("slap_not_allowed"),
        "6 is a multiple of the 3 drawn, not the other way round"
    );
    assert!(t.accepts_add_on("cid", "6H"), "6 is 1 x 6");
}

/// Mathematician, cards that count 0 (our reading): a joker or the king of hearts is no
/// multiple of a card, and no card is a multiple of them. Zero times any value is zero,
/// so reading them as multiples would lay a joker on every single card.
#[test]
fn mathematician_a_card_counting_zero_is_no_multiple_and_has_none() {
    let players = ["ann", "bob", "cid"];
    let hands = ["JK 4C 8C 8S KD", "JK 2H 5D 7D 9D", "6H 5C 10S 4D KH"];
    let mut t = Table::with_rules(house_with(&["mathematician"]), &players, &[]);
    t.deal("ann", &hands, "2D");
    t.play("ann", "JK", common::stock("AS"));
    assert!(!t.accepts_add_on("bob", "JK"), "a joker on a joker");
    for card in ["KH", "6H", "5C", "10S", "4D"] {
        assert!(!t.accepts_add_on("cid", card), "{card} on a joker");
    }
    t.play("bob", "5D", common::stock("2C"));
    assert!(t.accepts_add_on("cid", "10S"), "10 is 2 x 5");
    assert!(
        !t.accepts_add_on("cid", "KH"),
        "the king of hearts counts 0 here"
    );
    assert!(t.accepts_add_on("ann", "KD"), "another king counts 10");
}

/// A game of `players` under `rules`, its first round dealt from an all-`seed` seed with
/// the first player starting; with its events so far.
fn seeded_deal(
    rules: &yaniv_domain::rules::Rules,
    players: &[&str],
    seed: u8,
) -> (yaniv_domain::game::Game, Vec<yaniv_domain::game::Event>) {
    use yaniv_domain::game::{Command, DealSource, Game};
    let mut game = Game::new();
    let mut log = game
        .execute(&Command::Create {
            rules: rules.clone(),
            players: players.iter().map(|p| p.to_string()).collect(),
            initial_totals: vec![],
        })
        .expect("create");
    log.extend(
        game.execute(&Command::Deal {
            starter: Some(0),
            source: DealSource::Seeded(yaniv_domain::shuffle::Seed([seed; 32])),
        })
        .expect("deal"),
    );
    (game, log)
}

/// The forced draws of `events`, as (seat, card).
fn forced_draws(events: &[yaniv_domain::game::Event]) -> Vec<(u8, String)> {
    events
        .iter()
        .filter_map(|e| match e {
            yaniv_domain::game::Event::ForcedToDraw(f) => Some((f.seat, f.card.to_string())),
            _ => None,
        })
        .collect()
}

/// yaniv.co Sevens: "When a player plays any 7 card, all other players must draw a card
/// from the top of the deck. In the event that multiple 7s are played (two, three, or
/// four of-a-kind, etc.), a card is drawn for each seven played. The same rule applies if
/// a straight containing a seven is played."
#[test]
fn sevens_every_other_player_draws_a_card_per_seven() {
    let players = ["ann", "bob", "cid"];
    let hands = ["7C 7D 5S 6S 7S", "KH 2H 4D 5D JK", "6H 9S QH 3D 5C"];
    let mut t = Table::with_rules(house_with(&["sevens"]), &players, &[]);
    t.deal("ann", &hands, "2D");
    // A round dealt on paper names the cards: one seven, one card each, from ann's left.
    let events = t
        .try_play_forcing("ann", "7C", common::stock("AS"), "8C 8D")
        .expect("a seven forces a draw on each other player");
    assert_eq!(
        forced_draws(&events),
        [(1, "8C".to_owned()), (2, "8D".to_owned())]
    );
    assert_eq!(t.hand("bob").len(), 6);
    assert_eq!(t.hand("cid").len(), 6);
    t.play("bob", "KH", common::stock("10C"));
    t.play("cid", "QH", common::stock("10D"));
    // Two sevens: two cards each, bob's both before cid's.
    let events = t
        .try_play_forcing("ann", "7D 7S", common::stock("AH"), "2C 3C 4C 9C")
        .expect("two sevens");
    assert_eq!(
        forced_draws(&events),
        [
            (1, "2C".to_owned()),
            (1, "3C".to_owned()),
            (2, "4C".to_owned()),
            (2, "9C".to_owned())
        ]
    );
    t.replays();

    // A straight holding a seven forces one card each.
    let mut run = Table::with_rules(house_with(&["sevens"]), &players, &[]);
    run.deal(
        "ann",
        &["5S 6S 7S 2C 3C", "KH 2H 4D 5D JK", "6H 9S QH 3D 5C"],
        "2D",
    );
    let events = run
        .try_play_forcing("ann", "5S 6S 7S", common::stock("AS"), "8C 8D")
        .expect("a run with a seven");
    assert_eq!(forced_draws(&events).len(), 2);

    // Without the rule a seven forces nothing, and naming draws is refused.
    let mut plain = Table::new(Preset::House, &players);
    plain.deal("ann", &hands, "2D");
    assert!(
        plain
            .try_play_forcing("ann", "7C", common::stock("AS"), "8C 8D")
            .is_err()
    );
    let events = plain.play("ann", "7C", common::stock("AS"));
    assert!(forced_draws(&events).is_empty());
}

/// Sevens, a joker in a run (our reading): "The same rule applies if a straight
/// containing a seven is played." A joker standing for the seven is not one: Sevens
/// counts the natural sevens, as Spy its queen, Piñata its three and Crazy queens its
/// queen, so that the card on the table, not what it stood for, says what it does.
#[test]
fn sevens_a_joker_standing_for_a_seven_forces_nothing() {
    let players = ["ann", "bob", "cid"];
    for (hand, run) in [
        ("6S JK 8S 2C 3C", "6S JK 8S"),
        ("5S 6S JK 2C 3C", "5S 6S JK"),
    ] {
        let mut t = Table::with_rules(house_with(&["sevens"]), &players, &[]);
        t.deal("ann", &[hand, "KH 2H 4D 5D 9D", "6H 9S QH 3D 5C"], "2D");
        assert!(
            t.try_play_forcing("ann", run, common::stock("AS"), "8C 8D")
                .is_err(),
            "{run}: nothing to name"
        );
        let events = t.play("ann", run, common::stock("AS"));
        assert!(forced_draws(&events).is_empty(), "{run}");
        assert_eq!(t.hand("bob").len(), 5);
    }
}

/// Sevens on paper: the record must name exactly the cards forced, each one the stock
/// can still hold; a shuffled stock decides them itself.
#[test]
fn sevens_forced_draws_are_named_on_paper_and_taken_from_the_top_otherwise() {
    let players = ["ann", "bob", "cid"];
    let hands = ["7C 7D 5S 6S 7S", "KH 2H 4D 5D JK", "6H 9S QH 3D 5C"];
    let mut t = Table::with_rules(house_with(&["sevens"]), &players, &[]);
    t.deal("ann", &hands, "2D");
    let unnamed = t.try_play("ann", "7C", common::stock("AS"));
    assert!(
        matches!(&unnamed, Err(GameError::CardNotAvailable(m)) if m.contains("names every card")),
        "{unnamed:?}"
    );
    assert!(
        t.try_play_forcing("ann", "7C", common::stock("AS"), "8C")
            .is_err(),
        "one card short"
    );
    assert!(
        t.try_play_forcing("ann", "7C", common::stock("AS"), "8C 8D 8H")
            .is_err(),
        "one card too many"
    );
    assert!(
        t.try_play_forcing("ann", "7C", common::stock("AS"), "8C KH")
            .is_err(),
        "bob holds the king of hearts"
    );
    assert_eq!(t.hand("bob").len(), 5, "a refused turn changes nothing");

    // Shuffled: the cards on top of the stock, in order.
    use yaniv_domain::game::{Command, DrawChoice, Event};
    let rules = house_with(&["sevens"]);
    for seed in 0..40u8 {
        let (mut game, _) = seeded_deal(&rules, &players, seed);
        let Some(seven) = game.hand(0).iter().find(|c| c.rank() == 7) else {
            continue;
        };
        let (before, stock) = (game.clone(), game.stock_len());
        let events = game
            .execute(&Command::play(
                0,
                [seven].into_iter().collect(),
                DrawChoice::Stock,
            ))
            .expect("a seven from a shuffled deal");
        let Event::TurnPlayed(turn) = &events[0] else {
            panic!("the turn first")
        };
        assert_eq!(forced_draws(&events).len(), 2);
        assert_eq!(game.stock_len(), stock - 3);
        // Naming other cards than the stock's next ones is refused.
        let wrong = before.decide(&Command::Play {
            seat: 0,
            throw: [seven].into_iter().collect(),
            draw: DrawChoice::StockCard(turn.draw.card()),
            forced: vec![turn.draw.card(), turn.draw.card()],
            pinata: None,
            redealt: Vec::new(),
            queen: None,
            queen_taken: None,
        });
        assert!(wrong.is_err());
        return;
    }
    panic!("no seed dealt ann a seven");
}

/// Sevens, hidden information: the card a player is forced to draw is theirs alone, in
/// their view and in every stream, like any stock draw.
#[test]
fn sevens_a_forced_card_is_seen_by_its_drawer_only() {
    use yaniv_domain::game::{Viewer, visible_events};
    let players = ["ann", "bob", "cid"];
    let mut t = Table::with_rules(house_with(&["sevens"]), &players, &[]);
    t.deal(
        "ann",
        &["7C 7D 5S 6S 7S", "KH 2H 4D 5D JK", "6H 9S QH 3D 5C"],
        "2D",
    );
    t.try_play_forcing("ann", "7C", common::stock("AS"), "8C 8D")
        .expect("forced");
    let bobs = t.log.len() - 2;
    for (viewer, sees_bobs) in [
        (Viewer::Seat(0), false),
        (Viewer::Seat(1), true),
        (Viewer::Seat(2), false),
        (Viewer::Spectator, false),
        (Viewer::Referee, true),
    ] {
        let visible = visible_events(&t.log, viewer);
        assert_eq!(visible[bobs]["type"], "forced_to_draw.v1");
        assert_eq!(visible[bobs]["seat"], 1);
        assert_eq!(!visible[bobs]["card"].is_null(), sees_bobs, "{viewer:?}");
    }
    // Seats see their own hand grow, and only the size of the others'.
    let cid = t.game.view(2).expect("seat");
    assert!(cid.hand.contains(common::card("8D")));
    assert_eq!(cid.hand_sizes, [5, 6, 6]);
}

/// Sevens, our reading: the caller whose hand is closed for the Belgian last turns
/// draws nothing.
#[test]
fn sevens_spare_the_closed_caller() {
    let players = ["ann", "bob", "cid"];
    let rules = rules_with(Preset::Belgian, json!({ "bonus_rules": ["sevens"] }));
    let mut t = Table::with_rules(rules, &players, &[]);
    t.deal(
        "ann",
        &["JK JK AC AD 3C", "7C KH QH 4D 5D", "KC QC 4C 5C 6C"],
        "3H",
    );
    t.call("ann");
    let events = t
        .try_play_forcing("bob", "7C", common::stock("9H"), "9D")
        .expect("one forced draw");
    assert_eq!(forced_draws(&events), [(2, "9D".to_owned())], "not ann");
    t.replays();
}

/// yaniv.co Piñata: "When an 3 is played, a card from the top of the deck is set aside,
/// face down. The next player to play an 3 picks up the card."
#[test]
fn pinata_a_three_sets_a_card_aside_and_the_next_three_takes_it() {
    use yaniv_domain::game::{Event, Viewer, visible_events};
    let players = ["ann", "bob", "cid"];
    let hands = ["3C 4C 8C 8S KD", "3H 2H 5D 7D JK", "6H 9S QH 3D 5C"];
    let mut t = Table::with_rules(house_with(&["pinata"]), &players, &[]);
    t.deal("ann", &hands, "2D");
    // Ann's three sets a card aside; on paper the record names it.
    let events = t
        .try_play_naming("ann", "3C", common::stock("AS"), "", Some("KS"))
        .expect("a three sets the piñata aside");
    assert!(
        matches!(events.last(), Some(Event::PinataSetAside(p)) if p.card == common::card("KS"))
    );
    let stock = t.game.stock_len();
    assert_eq!(t.hand("ann").len(), 5, "set aside, not drawn");
    assert!(
        t.game.view(2).expect("seat").pinata_aside,
        "every seat sees a card lies aside"
    );
    // Face down: nobody sees it while the round is played, not even a referee, who
    // sees the hands but no card outside them.
    let at = t.log.len() - 1;
    for (viewer, sees) in [
        (Viewer::Seat(0), false),
        (Viewer::Seat(1), false),
        (Viewer::Spectator, false),
        (Viewer::Referee, false),
    ] {
        let visible = visible_events(&t.log, viewer);
        assert_eq!(visible[at]["type"], "pinata_set_aside.v1");
        assert_eq!(!visible[at]["card"].is_null(), sees, "{viewer:?}");
    }
    // Bob plays the next three and takes it; only he sees which card it is.
    let events = t.play("bob", "3H", common::stock("4H"));
    assert!(
        matches!(events.last(), Some(Event::PinataTaken(p)) if p.seat == 1 && p.card == common::card("KS"))
    );
    assert!(t.hand("bob").contains(common::card("KS")));
    assert!(!t.game.view(2).expect("seat").pinata_aside);
    assert_eq!(t.hand("bob").len(), 6);
    assert_eq!(t.game.stock_len(), stock - 1, "only bob's own draw");
    let at = t.log.len() - 1;
    for (viewer, sees) in [
        (Viewer::Seat(0), false),
        (Viewer::Seat(1), true),
        (Viewer::Seat(2), false),
    ] {
        let visible = visible_events(&t.log, viewer);
        assert_eq!(!visible[at]["card"].is_null(), sees, "{viewer:?}");
    }
    // Our reading: the three that takes it sets none aside; the one after does again.
    let events = t
        .try_play_naming("cid", "3D", common::stock("4D"), "", Some("QS"))
        .expect("the next three sets another aside");
    assert!(matches!(events.last(), Some(Event::PinataSetAside(_))));
    t.replays();

    // On paper the card must be named, and be one the stock can hold.
    let mut paper = Table::with_rules(house_with(&["pinata"]), &players, &[]);
    paper.deal("ann", &hands, "2D");
    assert!(paper.try_play("ann", "3C", common::stock("AS")).is_err());
    assert!(
        paper
            .try_play_naming("ann", "3C", common::stock("AS"), "", Some("3H"))
            .is_err(),
        "bob holds the three of hearts"
    );
    // Without the rule a three sets nothing aside, and naming one is refused.
    let mut plain = Table::new(Preset::House, &players);
    plain.deal("ann", &hands, "2D");
    assert!(
        plain
            .try_play_naming("ann", "3C", common::stock("AS"), "", Some("KS"))
            .is_err()
    );
    let events = plain.play("ann", "3C", common::stock("AS"));
    assert!(!events.iter().any(|e| matches!(e, Event::PinataSetAside(_))));
}

/// Piñata, our reading: a card still set aside when the round ends belongs to nobody;
/// it is in no hand and counts for no one.
#[test]
fn pinata_a_card_left_aside_counts_for_nobody() {
    let players = ["ann", "bob"];
    let mut t = Table::with_rules(house_with(&["pinata"]), &players, &[]);
    t.deal("ann", &["3C AC AD 2S JK", "KH QH 4D 5D 6D"], "2D");
    t.try_play_naming("ann", "3C", common::stock("AS"), "", Some("KS"))
        .expect("set aside");
    t.play("bob", "KH", common::stock("10C"));
    t.call("ann");
    assert_eq!(t.hand_totals_of(["ann", "bob"]), [5, 35]);
    t.replays();
}

/// yaniv.co Double-edged sword: "When a player plays a black 8, all players combine their
/// cards together into a new deck that is then shuffled and re-dealt by the player who
/// played the 8. Deal starts with the player on his or her left. Players may not all
/// have the same number of cards when finished."
#[test]
fn double_edged_sword_a_black_eight_re_deals_every_hand() {
    use yaniv_domain::game::{Command, DrawChoice, Event, Viewer, visible_events};
    let players = ["ann", "bob", "cid"];
    let rules = house_with(&["double_edged_sword"]);
    for seed in 0..60u8 {
        let (mut game, mut log) = seeded_deal(&rules, &players, seed);
        let Some(eight) = game
            .hand(0)
            .iter()
            .find(|c| matches!(c.to_string().as_str(), "8C" | "8S"))
        else {
            continue;
        };
        let mut turn_only = game.clone();
        let events = game
            .execute(&Command::play(
                0,
                [eight].into_iter().collect(),
                DrawChoice::Stock,
            ))
            .expect("a black eight");
        let Some(Event::HandsRedealt(redealt)) = events.last() else {
            panic!("a re-deal follows the turn: {events:?}");
        };
        assert_eq!(redealt.dealer, 0);
        // Every hand after the turn, gathered, is dealt again: fifteen cards, five each.
        for event in &events[..events.len() - 1] {
            turn_only.apply(event);
        }
        let mut gathered: Vec<_> = (0..3)
            .flat_map(|s| turn_only.hand(s).iter().collect::<Vec<_>>())
            .collect();
        let mut dealt: Vec<_> = redealt
            .hands
            .iter()
            .flatten()
            .flat_map(|h| h.iter())
            .collect();
        gathered.sort_unstable();
        dealt.sort_unstable();
        assert_eq!(dealt, gathered);
        let sizes: Vec<usize> = redealt
            .hands
            .iter()
            .map(|h| h.as_ref().map_or(0, |h| h.len()))
            .collect();
        assert_eq!(sizes, [5, 5, 5]);
        // Each seat sees its own new hand only; spectators none.
        log.extend(events.iter().cloned());
        let at = log.len() - 1;
        for me in 0..3u8 {
            let visible = visible_events(&log, Viewer::Seat(me));
            let hands = visible[at]["hands"].as_array().expect("hands");
            for (s, hand) in hands.iter().enumerate() {
                assert_eq!(!hand.is_null(), s == me as usize, "seat {me} sees seat {s}");
            }
        }
        assert!(visible_events(&log, Viewer::Spectator)[at]["hands"][0].is_null());
        assert!(yaniv_domain::game::Game::replay_checked(&log).is_ok());
        return;
    }
    panic!("no seed dealt ann a black eight");
}

/// Double-edged sword on paper: "all players combine their cards together into a new
/// deck that is then shuffled and re-dealt by the player who played the 8. Deal starts
/// with the player on his or her left." The record names the new hands, which must be
/// the cards gathered after the turn's draw (our reading: the card just drawn is
/// re-dealt too), dealt one at a time from the thrower's left (the first seats get the
/// odd cards).
#[test]
fn double_edged_sword_on_paper_the_new_hands_are_named() {
    let players = ["ann", "bob", "cid"];
    let mut t = Table::with_rules(house_with(&["double_edged_sword"]), &players, &[]);
    t.deal(
        "ann",
        &["8S 8C 4C 5C 6C", "KH 2H 4D 5D JK", "6H 9S QH 3D 5S"],
        "2D",
    );
    // Ann throws both black eights (one re-deal) and draws: 4 + 5 + 5 = 14 cards, so
    // bob and cid (from her left) get 5, ann 4.
    assert!(
        t.try_play("ann", "8S 8C", common::stock("AS")).is_err(),
        "on paper the new hands must be named"
    );
    assert!(
        t.try_play_redealing(
            "ann",
            "8S 8C",
            common::stock("AS"),
            &["4C 5C 6C AS KH", "2H 4D 5D JK", "6H 9S QH 3D 5S"],
        )
        .is_err(),
        "ann, the dealer, is dealt last: she gets the short hand"
    );
    assert!(
        t.try_play_redealing(
            "ann",
            "8S 8C",
            common::stock("AS"),
            &["4C 5C 6C AS", "KH 2H 4D 5D KD", "6H 9S QH 3D 5S"],
        )
        .is_err(),
        "a card that was in no hand"
    );
    t.try_play_redealing(
        "ann",
        "8S 8C",
        common::stock("AS"),
        &["4C 5C 6C AS", "KH 2H 4D 5D JK", "6H 9S QH 3D 5S"],
    )
    .expect("the gathered cards, five, five and four");
    // A red eight re-deals nothing.
    let mut red = Table::with_rules(house_with(&["double_edged_sword"]), &players, &[]);
    red.deal(
        "ann",
        &["8H 8C 4C 5C 6C", "KH 2H 4D 5D JK", "6H 9S QH 3D 5S"],
        "2D",
    );
    let events = red.play("ann", "8H", common::stock("AS"));
    assert_eq!(events.len(), 1);
    t.replays();
}

/// yaniv.co Crazy queens: "When a queen is played, all other players put their cards
/// face down on the table without re-shuffling. The player who played the queen then
/// picks a target player and passes that player a card of their choice from his or her
/// hand and blindly picks one of the cards out from their hand." On paper, the record
/// names the card the blind pick took.
#[test]
fn crazy_queens_a_queen_passes_a_chosen_card_and_takes_one_blindly() {
    use yaniv_domain::game::{Event, Viewer, visible_events};
    let players = ["ann", "bob", "cid"];
    let hands = ["QC 9H 4S 5S 2D", "3C KH JK 7D 8D", "AC 2C 6H 10S JS"];
    let mut t = Table::with_rules(house_with(&["crazy_queens"]), &players, &[]);
    t.deal("ann", &hands, "4D");

    // The swap is the thrower's choice, and it is not optional.
    let missing = t.try_play("ann", "QC", common::stock("KS"));
    assert_eq!(missing.map_err(|e| e.code()), Err("queen_swap_not_allowed"));
    for (target, give, taken, why) in [
        ("ann", "9H", "AC", "the target is another player"),
        ("cid", "QC", "AC", "a thrown card is not left to give"),
        ("cid", "KS", "AC", "nor is the card the turn draws"),
        ("cid", "9H", "KH", "the card taken is the target's"),
    ] {
        let refused = t.try_play_queen("ann", "QC", common::stock("KS"), target, give, Some(taken));
        assert_eq!(
            refused.map_err(|e| e.code()),
            Err("queen_swap_not_allowed"),
            "{why}"
        );
    }
    let unnamed = t.try_play_queen("ann", "QC", common::stock("KS"), "cid", "9H", None);
    assert!(
        unnamed.is_err_and(|e| e.to_string().contains("dealt on paper")),
        "a paper round names the blind pick"
    );

    let events = t
        .try_play_queen("ann", "QC", common::stock("KS"), "cid", "9H", Some("AC"))
        .expect("a queen swaps");
    let Some(Event::QueenSwapped(swapped)) = events.get(1) else {
        panic!("the swap follows the turn: {events:?}");
    };
    assert_eq!((swapped.seat, swapped.target, swapped.swap), (0, 2, 1));
    let sorted = |cards: yaniv_domain::cards::Hand| {
        let mut cards: Vec<_> = cards.iter().collect();
        cards.sort_unstable();
        cards
    };
    assert_eq!(
        sorted(t.hand("ann")),
        sorted(common::cards("4S 5S 2D KS AC").into())
    );
    assert_eq!(
        sorted(t.hand("cid")),
        sorted(common::cards("2C 6H 10S JS 9H").into())
    );
    assert_eq!(t.hand("bob"), common::cards(hands[1]));

    // The cards are the two players' only: bob and spectators read nulls.
    let at = t.log.len() - 1;
    for (viewer, sees) in [
        (Viewer::Seat(0), true),
        (Viewer::Seat(1), false),
        (Viewer::Seat(2), true),
        (Viewer::Spectator, false),
        (Viewer::Referee, true),
    ] {
        let visible = visible_events(&t.log, viewer);
        assert_eq!(visible[at]["type"], "queen_swapped.v1");
        assert_eq!(visible[at]["target"], 2, "everyone sees who was targeted");
        for field in ["given", "taken"] {
            assert_eq!(!visible[at][field].is_null(), sees, "{viewer:?} {field}");
        }
    }

    // Without the rule a queen swaps nothing, and naming a swap is refused.
    let mut plain = Table::new(Preset::House, &players);
    plain.deal("ann", &hands, "4D");
    let refused = plain.try_play_queen("ann", "QC", common::stock("KS"), "cid", "9H", None);
    assert_eq!(refused.map_err(|e| e.code()), Err("queen_swap_not_allowed"));
    let events = plain.play("ann", "QC", common::stock("KS"));
    assert!(!events.iter().any(|e| matches!(e, Event::QueenSwapped(_))));
}

/// Crazy queens, our readings: a throw swaps once however many queens it holds (like a
/// Spy's queen, "a queen is played" once per throw), and a joker standing for a queen
/// is not one.
#[test]
fn crazy_queens_swap_once_per_throw_and_not_for_a_joker() {
    use yaniv_domain::game::Event;
    let players = ["ann", "bob"];
    let hands = ["QC QH 4S 5S 2D", "3C KH JK 7D 8D"];
    let mut t = Table::with_rules(house_with(&["crazy_queens"]), &players, &[]);
    t.deal("ann", &hands, "4D");
    let events = t
        .try_play_queen("ann", "QC QH", common::stock("KS"), "bob", "5S", Some("JK"))
        .expect("a pair of queens swaps once");
    let swaps = events
        .iter()
        .filter(|e| matches!(e, Event::QueenSwapped(_)))
        .count();
    assert_eq!(swaps, 1);
    // Bob's run J-joker-K: the joker stands in for the queen; no swap.
    t.play("bob", "8D", common::stock("9D"));
    let mut jokers = Table::with_rules(house_with(&["crazy_queens"]), &players, &[]);
    jokers.deal("ann", &["JS JK KS 4S 5S", "3C KH QD 7D 8D"], "4D");
    let events = jokers.play("ann", "JS JK KS", common::stock("2H"));
    assert!(!events.iter().any(|e| matches!(e, Event::QueenSwapped(_))));
}

/// Crazy queens, our reading of the blind pick: the target's face-down cards are put in
/// an order drawn from the round's committed seed (its own stream, `QUEEN_STREAM + n`
/// for the n-th swap), and the pick is the first of them; so neither player can steer
/// it, and anyone holding the revealed seed can check it.
#[test]
fn crazy_queens_the_blind_pick_is_drawn_from_the_committed_seed() {
    use yaniv_domain::cards::Card;
    use yaniv_domain::game::{Command, DrawChoice, Event, Game, QueenSwap};
    use yaniv_domain::shuffle::{Seed, ShuffleStream, shuffle_in_place};
    let rules = house_with(&["crazy_queens"]);
    for seed in 0..=255u8 {
        let (mut game, mut log) = seeded_deal(&rules, &["ann", "bob", "cid"], seed);
        let hand = game.hand(0);
        let Some(queen) = hand.iter().find(|c| !c.is_joker() && c.rank() == 12) else {
            continue;
        };
        let give = hand.iter().find(|&c| c != queen).expect("five cards");
        let mut face_down: Vec<Card> = game.hand(1).iter().collect();
        face_down.sort_unstable();
        shuffle_in_place(
            &mut face_down,
            &mut ShuffleStream::new(&Seed([seed; 32]), 0x4000_0000 + 1),
        );
        let swap = Some(QueenSwap { target: 1, give });
        let throw = [queen].into_iter().collect();
        let before = game.clone();
        let events = game
            .execute(&Command::play_with_queen(0, throw, DrawChoice::Stock, swap))
            .expect("a queen from a shuffled deal");
        let swapped = events
            .iter()
            .find_map(|e| match e {
                Event::QueenSwapped(s) => Some(*s),
                _ => None,
            })
            .expect("a swap");
        assert_eq!(swapped.taken, face_down[0], "seed {seed}");
        assert!(game.hand(0).contains(face_down[0]));
        assert!(game.hand(1).contains(give));

        // A record naming another card than the seed's pick is refused.
        let Command::Play { draw, .. } = Command::play(0, throw, DrawChoice::Stock) else {
            unreachable!()
        };
        let other = face_down[1];
        let wrong = before.decide(&Command::Play {
            seat: 0,
            throw,
            draw,
            forced: Vec::new(),
            pinata: None,
            redealt: Vec::new(),
            queen: swap,
            queen_taken: Some(other),
        });
        assert_eq!(wrong.map_err(|e| e.code()), Err("queen_swap_not_allowed"));

        // A stored swap whose pick was changed is named at its own version.
        log.extend(events);
        let at = log
            .iter()
            .position(|e| matches!(e, Event::QueenSwapped(_)))
            .expect("stored");
        let mut forged = log.clone();
        if let Event::QueenSwapped(s) = &mut forged[at] {
            s.taken = other;
        }
        assert!(Game::replay_checked(&log).is_ok());
        assert_eq!(
            Game::replay_checked(&forged).err().map(|(i, _)| i),
            Some(at)
        );
        return;
    }
    panic!("no seed dealt ann a queen");
}

/// Crazy queens, our reading: "passes that player a card of their choice from his or her
/// hand and blindly picks one of the cards out from their hand". The hands were put face
/// down first, so the blind pick is among the target's own cards and never takes back
/// the card just given, which stays with the target; a pick that could return it would
/// make the choice of the gift pointless.
#[test]
fn crazy_queens_the_blind_pick_never_takes_back_the_card_given() {
    use yaniv_domain::game::{Command, DrawChoice, Event, QueenSwap};
    let rules = house_with(&["crazy_queens"]);
    let mut swaps = 0;
    for seed in 0..=255u8 {
        let (mut game, _) = seeded_deal(&rules, &["ann", "bob"], seed);
        let hand = game.hand(0);
        let Some(queen) = hand.iter().find(|c| !c.is_joker() && c.rank() == 12) else {
            continue;
        };
        let give = hand.iter().find(|&c| c != queen).expect("five cards");
        let before = game.hand(1).clone();
        let swap = Some(QueenSwap { target: 1, give });
        let throw = [queen].into_iter().collect();
        let events = game
            .execute(&Command::play_with_queen(0, throw, DrawChoice::Stock, swap))
            .expect("a queen from a shuffled deal");
        let Some(swapped) = events.iter().find_map(|e| match e {
            Event::QueenSwapped(s) => Some(*s),
            _ => None,
        }) else {
            panic!("seed {seed}: a swap");
        };
        assert_ne!(swapped.taken, give, "seed {seed}");
        assert!(before.contains(swapped.taken), "seed {seed}");
        assert!(game.hand(1).contains(give), "seed {seed}");
        swaps += 1;
    }
    assert!(swaps >= 20, "{swaps} swaps tried");
}

/// yaniv.co Waterfall: "At the beginning of his or her turn, if a player has an unsuited
/// straight that contains as many cards as there are players in the game (i.e. a
/// straight of four in a four player game, three in a three player game, etc.), they
/// can pass those cards to the player on his or her left. That player then chooses
/// which card he or she wants and passes the remaining cards from the straight to the
/// next player and so on until the player who initiated the waterfall ends up with the
/// last remaining card. That player then begins his or her normal turn."
#[test]
fn waterfall_a_straight_goes_round_and_its_starter_keeps_the_last_card() {
    use yaniv_domain::game::{Event, RoundStage, Viewer, visible_events};
    let players = ["ann", "bob", "cid", "dan"];
    let hands = [
        "AH 2H 3S 4D AS",
        "3C KH JK 9D 8D",
        "AC 2C 6H 10S JS",
        "2D 3H 9S QC QD",
    ];
    let mut t = Table::with_rules(house_with(&["waterfall"]), &players, &[]);
    t.deal("ann", &hands, "4C");
    let legal = t.game.legal_actions(0);
    assert_eq!(
        legal.waterfalls,
        vec![common::cards("AH 2H 3S 4D"), common::cards("AS 2H 3S 4D")],
        "either ace"
    );

    // Unsuited, and one card per player: four here.
    for (cards, why) in [
        ("AH 2H 3S", "three cards in a four-player game"),
        ("AH 2H 4D AS", "not consecutive"),
    ] {
        let refused = t.try_waterfall("ann", cards).map_err(|e| e.code());
        assert_eq!(refused, Err("waterfall_not_allowed"), "{why}");
    }
    assert_eq!(
        t.try_waterfall("bob", "8D 9D JK KH").map_err(|e| e.code()),
        Err("not_your_turn")
    );

    let started = t.try_waterfall("ann", "AH 2H 3S 4D").expect("a waterfall");
    assert!(matches!(started[..], [Event::WaterfallStarted(e)] if e.seat == 0 && e.to == 1));
    assert_eq!(t.hand("ann"), common::cards("AS"));
    assert_eq!(t.game.round_stage(), RoundStage::Waterfall);
    assert_eq!(
        t.game.to_act(),
        Some(1),
        "the player on her left chooses first"
    );
    assert_eq!(
        t.game.legal_actions(1).waterfall_pick.len(),
        4,
        "bob chooses from the four"
    );
    assert!(t.game.legal_actions(0).throws.is_empty(), "ann waits");
    assert_eq!(
        t.try_waterfall_pick("cid", "7D").map_err(|e| e.code()),
        Err("not_your_turn")
    );
    assert_eq!(
        t.try_waterfall_pick("bob", "AS").map_err(|e| e.code()),
        Err("waterfall_not_allowed"),
        "a card that was not passed"
    );

    t.try_waterfall_pick("bob", "4D")
        .expect("bob keeps the four");
    assert_eq!(t.game.legal_actions(2).waterfall_pick.len(), 3);
    t.try_waterfall_pick("cid", "3S")
        .expect("cid keeps the three");
    let last = t
        .try_waterfall_pick("dan", "2H")
        .expect("dan keeps the two");
    assert!(
        matches!(last[..], [Event::WaterfallPicked(e)] if e.to == 0 && e.passed == common::cards("AH"))
    );
    let sorted = |cards: yaniv_domain::cards::Hand| {
        let mut cards: Vec<_> = cards.iter().collect();
        cards.sort_unstable();
        cards
    };
    assert_eq!(sorted(t.hand("ann")), sorted(common::cards("AS AH").into()));
    assert!(t.hand("bob").contains(common::card("4D")));
    assert!(t.hand("cid").contains(common::card("3S")));
    assert!(t.hand("dan").contains(common::card("2H")));
    // Her normal turn begins: she may throw, or call (two aces are within the limit).
    assert_eq!(t.game.round_stage(), RoundStage::Playing);
    assert_eq!(t.game.to_act(), Some(0));
    assert!(t.game.legal_actions(0).call);
    assert!(t.game.legal_actions(0).waterfalls.is_empty());

    // Each card is seen by whoever passes it and whoever receives it; a card kept, by
    // its keeper only.
    let started_at = t
        .log
        .iter()
        .position(|e| matches!(e, Event::WaterfallStarted(_)))
        .expect("stored");
    let first_pick = started_at + 1;
    for (viewer, sees_start, sees_kept, sees_passed) in [
        (Viewer::Seat(0), true, false, false),
        (Viewer::Seat(1), true, true, true),
        (Viewer::Seat(2), false, false, true),
        (Viewer::Seat(3), false, false, false),
        (Viewer::Spectator, false, false, false),
        (Viewer::Referee, true, true, true),
    ] {
        let visible = visible_events(&t.log, viewer);
        assert_eq!(
            !visible[started_at]["cards"].is_null(),
            sees_start,
            "{viewer:?}"
        );
        assert_eq!(
            !visible[first_pick]["card"].is_null(),
            sees_kept,
            "{viewer:?}"
        );
        assert_eq!(
            !visible[first_pick]["passed"].is_null(),
            sees_passed,
            "{viewer:?}"
        );
    }
}

/// Waterfall, our readings: a straight has at least three cards, so two players have no
/// waterfall; and without the rule there is none.
#[test]
fn waterfall_needs_the_rule_and_three_players() {
    let mut two = Table::with_rules(house_with(&["waterfall"]), &["ann", "bob"], &[]);
    two.deal("ann", &["4C 5H 6S 7D KS", "3C KH JK 9D 8D"], "4D");
    assert!(two.game.legal_actions(0).waterfalls.is_empty());
    assert_eq!(
        two.try_waterfall("ann", "4C 5H").map_err(|e| e.code()),
        Err("waterfall_not_allowed")
    );
    let mut plain = Table::new(Preset::House, &["ann", "bob", "cid"]);
    plain.deal(
        "ann",
        &["4C 5H 6S 7D KS", "3C KH JK 9D 8D", "AC 2C 6H 10S JS"],
        "4D",
    );
    assert!(plain.game.legal_actions(0).waterfalls.is_empty());
    let refused = plain.try_waterfall("ann", "4C 5H 6S");
    assert!(refused.is_err_and(|e| e.to_string().contains("no waterfall")));
}

/// Waterfall, our readings: "at the beginning of his or her turn", so one per turn, and
/// it begins the turn: the window to slap down on or add on to the throw before it is
/// closed. Not in the Belgian last turns after a call, where the caller's hand is
/// closed.
#[test]
fn waterfall_once_per_turn_and_it_closes_the_window_before_it() {
    let players = ["ann", "bob", "cid"];
    let hands = ["9C 10H JS 5D 6C", "4C 5H 6S 7D 8C", "AC 2C 6H 10S JH"];
    let mut t = Table::with_rules(
        rules_with(
            Preset::House,
            json!({"bonus_rules": ["waterfall"], "slap_down": "after_stock_draw"}),
        ),
        &players,
        &[],
    );
    t.deal("ann", &hands, "4D");
    // Ann throws nothing of her straight and draws a card she may slap down.
    t.play("ann", "5D", common::stock("5S"));
    assert_eq!(t.game.legal_actions(0).slap, Some(common::card("5S")));
    // Bob passes a straight; ann's slap-down is over, and stays over after it.
    t.try_waterfall("bob", "4C 5H 6S").expect("a waterfall");
    assert_eq!(t.game.legal_actions(0).slap, None);
    t.try_waterfall_pick("cid", "4C").expect("cid keeps one");
    t.try_waterfall_pick("ann", "5H").expect("ann keeps one");
    assert_eq!(t.hand("bob").len(), 3, "7D 8C and the six back");
    assert_eq!(t.game.legal_actions(0).slap, None, "still over");
    assert!(t.try_slap("ann", "5S").is_err());
    // Bob now holds 6S 7D 8C, another straight: one waterfall per turn.
    assert!(t.game.legal_actions(1).waterfalls.is_empty());
    assert_eq!(
        t.try_waterfall("bob", "6S 7D 8C").map_err(|e| e.code()),
        Err("waterfall_not_allowed")
    );
    // His next turn may have one again.
    t.play("bob", "8C", common::stock("8H"));
    t.play("cid", "AC", common::stock("QD"));
    t.play("ann", "9C", common::stock("QH"));
    assert_eq!(
        t.game.legal_actions(1).waterfalls,
        vec![common::cards("6S 7D 8H")]
    );

    // Belgian last turns: the caller's hand is closed, so no waterfall.
    let mut belgian = Table::with_rules(
        rules_with(Preset::Belgian, json!({"bonus_rules": ["waterfall"]})),
        &players,
        &[],
    );
    belgian.deal(
        "ann",
        &["JK JK AC AD 3C", hands[1], "3H 2C 6H 10S JH"],
        "4D",
    );
    let called = belgian.call("ann");
    assert!(
        belgian.game.legal_actions(1).waterfalls.is_empty(),
        "{called:?}"
    );
    let refused = belgian.try_waterfall("bob", "4C 5H 6S");
    assert!(
        refused
            .as_ref()
            .is_err_and(|e| e.to_string().contains("last turns")),
        "{refused:?}"
    );
}

/// Spy with the hand-changing rules: what a player was shown stays exact without
/// telling them what they did not see. After a swap between two others, or a waterfall
/// passed by another, a spy forgets those hands rather than learning which cards left
/// them; the players who saw the cards go forget just those.
#[test]
fn spy_forgets_hands_a_swap_or_a_waterfall_changed_unseen() {
    let players = ["ann", "bob", "cid"];
    let mut t = Table::with_rules(house_with(&["spy", "crazy_queens"]), &players, &[]);
    t.deal(
        "ann",
        &["QD 9C 9H 4S 5S", "QS 3C KH 8D 8H", "AC 2C 6H 10S JS"],
        "4D",
    );
    // Ann's queen of diamonds shows her both hands; she swaps with bob.
    t.try_play_queen("ann", "QD", common::stock("2D"), "bob", "9C", Some("KH"))
        .expect("a swap, then the hands shown");
    assert!(!t.game.shown_to(0)[1].is_empty() && !t.game.shown_to(0)[2].is_empty());
    // Bob swaps with cid: ann, who saw both hands, forgets both.
    t.try_play_queen("bob", "QS", common::stock("7C"), "cid", "8D", Some("JS"))
        .expect("bob's swap");
    assert!(
        t.game.shown_to(0)[1].is_empty(),
        "ann cannot tell what bob gave"
    );
    assert!(t.game.shown_to(0)[2].is_empty(), "nor what bob took");

    // A waterfall: a spy of its starter forgets the starter's hand.
    let mut w = Table::with_rules(house_with(&["spy", "waterfall"]), &players, &[]);
    w.deal(
        "ann",
        &["QD 9C 9H 4S 5S", "3C 4H 5D KH 8D", "AC 2C 6H 10S JS"],
        "4D",
    );
    w.play("ann", "QD", common::stock("2D"));
    assert!(!w.game.shown_to(0)[1].is_empty());
    w.try_waterfall("bob", "3C 4H 5D").expect("bob's waterfall");
    assert!(
        w.game.shown_to(0)[1].is_empty(),
        "ann cannot tell which straight"
    );
}

/// The discard piles as everyone sees them: (size, top throw, dead).
fn piles(t: &Table) -> Vec<(u8, String, bool)> {
    let view = t.game.view(0).expect("a seat");
    view.piles
        .iter()
        .map(|p| (p.size, p.top.to_string(), p.dead))
        .collect()
}

/// yaniv.co Cell Division: "When more than one card (set of two, straights, etc.) is
/// first played, a new discard pile is created for that specific amount of cards. Every
/// player that then plays that amount of cards plays those cards on that pile and must
/// draw from the top of the deck." Figure 7c: "This player must take a card from the
/// top of the deck ... The 10 is available for the next player to play one-of-a-kind";
/// figure 7d: "This player lays his 4s in the two card discard pile. She can then draw
/// a 6 from that pile." Where the text and figure 7d differ, we follow the figure: a
/// throw draws from the deck or from the previous throw on its own pile.
#[test]
fn cell_division_each_throw_size_has_its_own_pile() {
    use yaniv_domain::game::SizeDraws;
    let players = ["ann", "bob", "cid"];
    let hands = ["6S 6H 2C 9D KD", "QC 3D 7S 8S JD", "4C 4D AH 2H 3H"];
    let mut t = Table::with_rules(house_with(&["cell_division"]), &players, &[]);
    t.deal("ann", &hands, "10H");
    assert_eq!(piles(&t), vec![(1, "10H".into(), false)]);
    let legal = t.game.legal_actions(0);
    assert!(
        legal.draw_from_discard.is_empty(),
        "it depends on the throw"
    );
    assert_eq!(
        legal.discard_draws[..2],
        [
            SizeDraws {
                size: 1,
                cards: common::cards("10H")
            },
            SizeDraws {
                size: 2,
                cards: common::cards("")
            },
        ],
        "a single may take the ten; a pair has no pile to draw from yet"
    );
    // Figure 7c: the first pair makes the doubles pile and draws from the deck.
    let refused = t.try_play("ann", "6S 6H", common::discard("10H"));
    assert_eq!(refused.map_err(|e| e.code()), Err("illegal_draw"));
    t.play("ann", "6S 6H", common::stock("QH"));
    assert_eq!(
        piles(&t),
        vec![(1, "10H".into(), false), (2, "6S 6H".into(), false)]
    );
    // The ten is still there for a single; a single cannot take a six.
    assert!(!t.accepts_play("bob", "QC", common::discard("6S")));
    t.play("bob", "QC", common::discard("10H"));
    assert_eq!(
        piles(&t),
        vec![(1, "QC".into(), false), (2, "6S 6H".into(), false)]
    );
    // Figure 7d: the fours go on the doubles pile, and may take a six from it.
    assert!(!t.accepts_play("cid", "4C 4D", common::discard("QC")));
    t.play("cid", "4C 4D", common::discard("6H"));
    assert_eq!(
        t.hand("cid").sorted(),
        common::cards("AH 2H 3H 6H").sorted()
    );
    assert_eq!(
        piles(&t),
        vec![(1, "QC".into(), false), (2, "4C 4D".into(), false)]
    );
    // A run of three starts a third pile.
    t.play("ann", "2C", common::stock("5C"));
    t.play("bob", "7S", common::stock("9S"));
    t.play("cid", "AH 2H 3H", common::stock("KS"));
    let sizes: Vec<u8> = piles(&t).iter().map(|p| p.0).collect();
    assert_eq!(sizes, [1, 2, 3]);
    // Every card is somewhere: hands, stock and the piles (no card lost below a top).
    let total: usize = t.game.cards_in_play().iter().map(|(_, n)| n as usize).sum();
    assert_eq!(total, 54);
}

/// Cell Division: the cards laid on a throw after it was made go on its pile (without
/// Osmosis, only on the latest throw).
#[test]
fn cell_division_slap_downs_and_add_ons_go_on_the_latest_throw() {
    let players = ["ann", "bob", "cid"];
    let hands = ["6S 6H 2C 9D KD", "9C 3D 7S 8S JD", "4C 4D AH 6C 6D"];
    let mut t = Table::with_rules(house_with(&["cell_division"]), &players, &[]);
    t.deal("ann", &hands, "10H");
    t.play("ann", "6S 6H", common::stock("QH"));
    t.play("bob", "9C", common::stock("9H"));
    // Bob's nine is the latest throw: the sixes on the doubles pile take nothing more.
    assert!(!t.accepts_add_on("cid", "6C 6D"));
    t.slap("bob", "9H");
    assert_eq!(piles(&t)[0], (1, "9C 9H".into(), false));
}

/// yaniv.co Osmosis: "Similar to Cell Division, a pile is created for each new group of
/// cards. With Osmosis, though, any player can draw from, add-on, and slap-down on any
/// pile." Figure 8c: "With Osmosis, that player can then pick up the 8 from the single
/// draw pile."
#[test]
fn osmosis_any_pile_is_drawn_from_and_laid_on() {
    let players = ["ann", "bob", "cid"];
    let hands = ["6S 6H 2C 9D KD", "9C 3D 7S 8S JD", "4C 4D AH 6C 2D"];
    let osmosis = house_with(&["cell_division", "osmosis"]);
    let mut t = Table::with_rules(osmosis, &players, &[]);
    t.deal("ann", &hands, "8C");
    let legal = t.game.legal_actions(0);
    assert_eq!(legal.draw_from_discard, common::cards("8C"), "any throw");
    // Figure 8c: the pair goes on a new pile, and takes the eight from the singles.
    t.play("ann", "6S 6H", common::discard("8C"));
    assert_eq!(
        piles(&t),
        vec![(1, "".into(), false), (2, "6S 6H".into(), false)]
    );
    // A single may take a six off the doubles pile.
    assert_eq!(
        t.game.legal_actions(1).draw_from_discard,
        common::cards("6S 6H")
    );
    t.play("bob", "9C", common::stock("6D"));
    // Without Osmosis the six would fit nothing: the latest throw is the nine.
    let mut cell_division = Table::with_rules(house_with(&["cell_division"]), &players, &[]);
    cell_division.deal("ann", &hands, "8C");
    cell_division.play("ann", "6S 6H", common::stock("QH"));
    cell_division.play("bob", "9C", common::stock("6D"));
    assert_eq!(
        cell_division.try_slap("bob", "6D").map_err(|e| e.code()),
        Err("slap_not_allowed")
    );
    // Slapped down on any pile: the six goes on the sixes, not on the nine.
    t.slap("bob", "6D");
    assert_eq!(
        piles(&t),
        vec![(1, "9C".into(), false), (2, "6S 6H 6D".into(), false)]
    );
    // Added on to any pile: cid completes the sixes to four.
    t.add_on("cid", "6C");
    assert_eq!(
        piles(&t),
        vec![(1, "9C".into(), false), (2, "6S 6H 6D 6C".into(), false)]
    );
}

/// Osmosis without Cell Division (our reading): Osmosis "Similar to Cell Division, a
/// pile is created for each new group of cards. With Osmosis, though, any player can
/// draw from, add-on, and slap-down on any pile", and Cell Division's figure 7c: "This
/// player must take a card from the top of the deck (unless Osmosis is in effect - see
/// below)". Its piles are Cell Division's, which it opens: a game of Osmosis is a game of
/// both, so the rules say so, and `osmosis` alone is refused naming what it needs.
#[test]
fn osmosis_is_refused_without_cell_division() {
    use yaniv_domain::rules::RulesError;
    let with = |bonus: serde_json::Value| {
        let serde_json::Value::Object(overrides) = json!({ "bonus_rules": bonus }) else {
            unreachable!("an object")
        };
        Preset::House.rules().with_overrides(&overrides)
    };
    match with(json!(["osmosis"])) {
        Err(RulesError::Inconsistent {
            name: "bonus_rules",
            message,
        }) => assert!(message.contains("needs cell_division"), "{message}"),
        other => panic!("osmosis alone is refused: {other:?}"),
    }
    let both = with(json!(["cell_division", "osmosis"])).expect("osmosis on cell division");
    assert!(both.several_piles());
}

/// yaniv.co Fifths Disease: "When Cell Division is in effect, before a player's normal
/// turn, he or she can play the 5 of diamonds on an any pile other than the original
/// discard pile to kill the action on that pile. Once the 5 of diamonds is played on a
/// pile, players can no longer play on it or draw from it for the rest of the round."
/// Figure 9b: "Players can no longer lay two cards down at a time. The player's normal
/// turn now begins."
#[test]
fn fifths_disease_the_five_of_diamonds_kills_a_pile() {
    let players = ["ann", "bob", "cid"];
    let hands = ["6S 6H 2C 9D KD", "5D 3D 3S 8S JD", "4C 4D AH 5H 7C"];
    let mut t = Table::with_rules(
        house_with(&["cell_division", "osmosis", "fifths_disease"]),
        &players,
        &[],
    );
    t.deal("ann", &hands, "8C");
    t.play("ann", "6S 6H", common::stock("QH"));
    assert_eq!(t.game.legal_actions(1).kill_piles, vec![2]);
    for (size, why) in [(1, "the original pile"), (3, "no pile of three yet")] {
        let refused = t.try_kill_pile("bob", size).map_err(|e| e.code());
        assert_eq!(refused, Err("pile_kill_not_allowed"), "{why}");
    }
    assert_eq!(
        t.try_kill_pile("cid", 2).map_err(|e| e.code()),
        Err("not_your_turn")
    );
    t.try_kill_pile("bob", 2).expect("bob kills the doubles");
    assert_eq!(
        t.hand("bob").sorted(),
        common::cards("3D 3S 8S JD").sorted()
    );
    assert_eq!(piles(&t)[1], (2, "5D".into(), true));
    // The five covers the latest throw: nothing of it may be taken or laid on.
    let view = t.game.view(1).expect("a seat");
    assert_eq!(
        (view.top_throw, view.top_thrower),
        (common::cards("5D"), None)
    );
    assert!(view.takeable.is_empty() && view.piles[1].takeable.is_empty());
    // "Players can no longer lay two cards down at a time", nor draw from it.
    let legal = t.game.legal_actions(1);
    assert!(legal.throws.iter().all(|throw| throw.len() != 2));
    assert!(legal.kill_piles.is_empty(), "once per turn");
    assert_eq!(
        t.try_play("bob", "3D 3S", common::stock("KC"))
            .map_err(|e| e.code()),
        Err("illegal_throw")
    );
    assert!(!t.accepts_play("bob", "8S", common::discard("5D")));
    // "The player's normal turn now begins."
    t.play("bob", "JD", common::stock("KC"));
    assert_eq!(
        t.try_play("cid", "4C 4D", common::stock("KH"))
            .map_err(|e| e.code()),
        Err("illegal_throw")
    );
    // A five of diamonds is needed, and another card to throw after it.
    let refused = t.try_kill_pile("cid", 2).map_err(|e| e.code());
    assert_eq!(refused, Err("card_not_in_hand"));
}

/// Fifths Disease under Osmosis: "Once the 5 of diamonds is played on a pile, players can
/// no longer play on it or draw from it for the rest of the round." Figure 9b: "The
/// player's normal turn now begins." Osmosis empties piles that no throw covers again
/// ("any player can draw from ... any pile"), so with the stock out and nothing below to
/// reshuffle the latest throw may be the only card left to draw. Killing it would leave
/// a turn with no throw to make (a throw needs its draw), so the kill is refused there
/// (our reading: a kill must leave the normal turn it begins).
#[test]
fn fifths_disease_a_kill_must_leave_a_turn_to_play() {
    let players = ["ann", "bob", "cid", "dan", "eve"];
    let rules = rules_with(
        Preset::House,
        json!({
            "bonus_rules": ["cell_division", "osmosis", "fifths_disease", "sevens"],
            "hand_size": 10,
            "max_players": 5,
        }),
    );
    let hands = [
        "7C 7D AC 5C 6C 8C 9C 10C JC QC",
        "5D KC AD 2D 3D 4D 6D 8D 9D 10D",
        "JD QD KD AH 2H 3H 4H 5H 6H 7H",
        "8H 9H 10H JH QH KH AS 2S 3S 4S",
        "5S 6S 7S 8S 9S 10S JS QS JK JK",
    ];
    let mut t = Table::with_rules(rules, &players, &[]);
    t.deal("ann", &hands, "KS");
    // Ann's pair takes the king off the singles, and its two sevens draw the last three
    // cards of the stock (eve's and dan's lapse: nothing lies below to reshuffle).
    t.try_play_forcing("ann", "7C 7D", common::discard("KS"), "2C 3C 4C")
        .expect("two sevens empty the stock");
    assert_eq!(t.game.stock_len(), 0, "the stock is out");
    assert_eq!(
        piles(&t),
        vec![(1, "".into(), false), (2, "7C 7D".into(), false)]
    );
    // The sevens are all there is to draw: bob may not kill their pile.
    let legal = t.game.legal_actions(t.seat("bob"));
    assert!(legal.kill_piles.is_empty(), "{:?}", legal.kill_piles);
    assert!(!legal.throws.is_empty() && !legal.call);
    let refused = t.try_kill_pile("bob", 2);
    assert_eq!(refused.map_err(|e| e.code()), Err("pile_kill_not_allowed"));
    // His normal turn: a single, and a seven from the doubles pile.
    t.play("bob", "KC", common::discard("7C"));
    assert_eq!(t.to_act(), Some("cid"));
}

/// Fifths Disease: the kill begins the turn, so the throw before it takes nothing more.
#[test]
fn fifths_disease_a_kill_closes_the_window_before_it() {
    let players = ["ann", "bob", "cid"];
    let hands = ["6S 6H 2C 9D KD", "5D 3D 3S 8S JD", "4C 4D AH 5H 7C"];
    let mut t = Table::with_rules(
        house_with(&["cell_division", "fifths_disease"]),
        &players,
        &[],
    );
    t.deal("ann", &hands, "8C");
    t.play("ann", "6S", common::stock("6D"));
    assert_eq!(t.game.legal_actions(0).slap, Some(common::card("6D")));
    t.play("bob", "3D 3S", common::stock("QS"));
    t.play("cid", "7C", common::stock("2S"));
    t.play("ann", "6H 6D", common::stock("AD"));
    t.try_kill_pile("bob", 2).expect("a kill");
    assert!(!t.accepts_add_on("cid", "4C 4D"));
}

/// Fifths Disease in the Belgian last turns: each player's last turn begins afresh
/// after the call (the caller's kill does not bar the next player's), and an add-on in
/// one's own turn is something done in it, after which no kill.
#[test]
fn fifths_disease_each_last_turn_begins_afresh() {
    let players = ["ann", "bob", "cid", "dan", "eve"];
    let rules = || {
        rules_with(
            Preset::Belgian,
            json!({"bonus_rules": ["cell_division", "fifths_disease"]}),
        )
    };
    // Five players: two decks, so two fives of diamonds.
    let opening = |t: &mut Table, ann: &str, eve: &str| {
        t.deal(
            "ann",
            &[
                ann,
                "5D 10S 10H QH JD",
                "7C 8C 9C KD QD",
                "KS QS JH 9H 9S",
                "10C 10D 4S 4H JC",
            ],
            "3H",
        );
        t.play("ann", "6S 6H", common::stock("AS"));
        t.play("bob", "QH", common::stock("2D"));
        t.play("cid", "7C 8C 9C", common::stock("JS"));
        t.play("dan", "KS", common::stock("8D"));
        t.play("eve", eve, common::stock("8S"));
    };

    let mut t = Table::with_rules(rules(), &players, &[]);
    opening(&mut t, "6S 6H AC 5D 2C", "JC");
    t.try_kill_pile("ann", 2).expect("ann kills the pairs");
    t.call("ann");
    assert_eq!(t.to_act(), Some("bob"));
    assert_eq!(t.game.legal_actions(1).kill_piles, vec![3]);
    t.try_kill_pile("bob", 3)
        .expect("bob's last turn is his own");

    let mut t = Table::with_rules(rules(), &players, &[]);
    opening(&mut t, "6S 6H AC AH 2C", "10C 10D");
    t.call("ann");
    assert_eq!(t.game.legal_actions(1).kill_piles, vec![2, 3]);
    t.add_on("bob", "10S 10H");
    assert!(
        t.game.legal_actions(1).kill_piles.is_empty(),
        "after an add-on"
    );
    let refused = t.try_kill_pile("bob", 3).map_err(|e| e.code());
    assert_eq!(refused, Err("pile_kill_not_allowed"));
}
