//! A slapped-down card is a play. House Rules, Slap-downs: "If a player draws a card of
//! the same value as the card he just played, he can then play that card right away as
//! long as the next player has not begun her turn. This play is called a slap-down." So
//! the bonus rules that a played card sets off ("When a player plays any 7 card",
//! "Playing a 9 reverses the direction of play", ...) are set off by a slapped card as
//! by a thrown one, right after the slap. Games created before this reading keep the
//! one they were played under.

mod common;

use common::{Table, rules_with, stock};
use serde_json::json;
use yaniv_domain::game::{Command, Event, Game, GameError};
use yaniv_domain::record::replay_json;
use yaniv_domain::rules::Preset;

fn house_with(bonus: &[&str]) -> yaniv_domain::rules::Rules {
    rules_with(Preset::House, json!({ "bonus_rules": bonus }))
}

/// Four players, ann to throw the run 6♠ 7♠ 8♠ and draw the 9♠ that extends it.
const FOUR_HANDS: [&str; 4] = [
    "6S 7S 8S AC AD",
    "KH QH 4D 5D 6D",
    "KC QC 4C 5C 6C",
    "10D 2D 7H 8H KD",
];
const FOUR: [&str; 4] = ["ann", "bob", "cid", "dan"];

/// Southern hemisphere: "Playing a 9 reverses the direction of play." A slapped nine
/// reverses it as a thrown one does, so the turn goes to the slapper's right.
#[test]
fn southern_hemisphere_a_slapped_nine_reverses_the_direction_of_play() {
    let mut t = Table::with_rules(house_with(&["southern_hemisphere"]), &FOUR, &[]);
    t.deal("ann", &FOUR_HANDS, "3D");
    t.play("ann", "6S 7S 8S", stock("9S"));
    assert_eq!(t.to_act(), Some("bob"), "the run holds no nine");
    t.slap("ann", "9S");
    assert_eq!(
        t.to_act(),
        Some("dan"),
        "the slapped nine sends the turn right"
    );
    assert!(t.game.view(1).expect("seat").reversed, "every seat sees it");
    t.play("dan", "KD", stock("2H"));
    assert_eq!(t.to_act(), Some("cid"));
    t.replays();

    // Without the rule, a slapped nine is just a nine.
    let mut plain = Table::new(Preset::House, &FOUR);
    plain.deal("ann", &FOUR_HANDS, "3D");
    plain.play("ann", "6S 7S 8S", stock("9S"));
    plain.slap("ann", "9S");
    assert_eq!(plain.to_act(), Some("bob"));
}

/// A game stored before slap-downs played (its `game_created.v1` without
/// `slap_downs_play`) keeps its reading: there a slapped nine reversed nothing, and a
/// checked replay of such a stream still accepts it.
#[test]
fn a_game_created_before_slap_downs_played_keeps_its_reading() {
    let mut t = Table::with_rules(house_with(&["southern_hemisphere"]), &FOUR, &[]);
    let Some(Event::GameCreated(created)) = t.log.first_mut() else {
        panic!("the game is created first");
    };
    assert!(
        created.slap_downs_play,
        "new games read a slap-down as a play"
    );
    created.slap_downs_play = false;
    let stored = serde_json::to_value(&t.log[0]).expect("serializes");
    assert!(
        stored.get("slap_downs_play").is_none(),
        "the old reading is written as before: {stored}"
    );
    t.game = Game::from_events(&t.log);
    t.deal("ann", &FOUR_HANDS, "3D");
    t.play("ann", "6S 7S 8S", stock("9S"));
    t.slap("ann", "9S");
    assert_eq!(t.to_act(), Some("bob"));
    t.play("bob", "KH", stock("2H"));
    t.replays();
}

/// Sevens: "When a player plays any 7 card, all other players must draw a card from the
/// top of the deck." A slapped seven forces a card on each other player, after the
/// slap, named on paper as a turn's are.
#[test]
fn sevens_a_slapped_seven_forces_a_draw_on_every_other_player() {
    let players = ["ann", "bob", "cid"];
    let hands = ["7C 5S 6S 9H 10H", "KH 2H 4D 5D JK", "6H 9S QH 3D 5C"];
    let mut t = Table::with_rules(house_with(&["sevens"]), &players, &[]);
    t.deal("ann", &hands, "2D");
    t.try_play_forcing("ann", "7C", stock("7D"), "8C 8D")
        .expect("the thrown seven forces one card each");
    let events = t
        .try_slap_naming("ann", "7D", "2C 3C", None)
        .expect("the slapped seven forces one card each");
    let forced: Vec<_> = events
        .iter()
        .filter_map(|e| match e {
            Event::ForcedToDraw(f) => Some((f.seat, f.card.to_string())),
            _ => None,
        })
        .collect();
    assert!(matches!(events[0], Event::SlappedDown(_)), "the slap first");
    assert_eq!(forced, [(1, "2C".to_owned()), (2, "3C".to_owned())]);
    assert_eq!((t.hand("bob").len(), t.hand("cid").len()), (7, 7));
    assert_eq!(t.to_act(), Some("bob"));
    t.replays();

    // On paper the slap must name them, as a turn does.
    let mut unnamed = Table::with_rules(house_with(&["sevens"]), &players, &[]);
    unnamed.deal("ann", &hands, "2D");
    unnamed
        .try_play_forcing("ann", "7C", stock("7D"), "8C 8D")
        .expect("the throw");
    assert!(matches!(
        unnamed.try_slap("ann", "7D"),
        Err(GameError::CardNotAvailable(_))
    ));
}

/// Piñata: "When an 3 is played, a card from the top of the deck is set aside, face
/// down. The next player to play an 3 picks up the card." A slapped three is the next
/// three played.
#[test]
fn pinata_a_slapped_three_takes_the_card_set_aside() {
    let players = ["ann", "bob", "cid"];
    let hands = ["3C 5S 6S 9H 10H", "KH 2H 4D 5D JK", "6H 9S QH 4C 5C"];
    let mut t = Table::with_rules(house_with(&["pinata"]), &players, &[]);
    t.deal("ann", &hands, "2D");
    t.try_play_naming("ann", "3C", stock("3D"), "", Some("KS"))
        .expect("the thrown three sets the king aside");
    let events = t.slap("ann", "3D");
    assert!(
        matches!(events.last(), Some(Event::PinataTaken(p)) if p.seat == 0 && p.card == common::card("KS")),
        "{events:?}"
    );
    assert!(t.hand("ann").contains(common::card("KS")));
    t.replays();
}

/// Double-edged sword: "When a player plays a black 8, all players combine their cards
/// together into a new deck that is then shuffled and re-dealt by the player who played
/// the 8. Deal starts with the player on his or her left." A slapped black eight
/// re-deals, its slapper dealing.
#[test]
fn double_edged_sword_a_slapped_black_eight_re_deals() {
    let players = ["ann", "bob", "cid"];
    let hands = ["8H 5S 6S 9H 10H", "KH 2H 4D 5D JK", "6H 9S QH 4C 5C"];
    let mut t = Table::with_rules(house_with(&["double_edged_sword"]), &players, &[]);
    t.deal("ann", &hands, "2D");
    t.play("ann", "8H", stock("8S"));
    // 14 cards from ann's left: bob and cid five each, ann four.
    let events = t
        .try_slap_redealing(
            "ann",
            "8S",
            &["5S 6S 9H 10H", "KH 2H 4D 5D JK", "6H 9S QH 4C 5C"],
        )
        .expect("the slapped black eight re-deals");
    assert!(
        matches!(events.last(), Some(Event::HandsRedealt(r)) if r.dealer == 0),
        "{events:?}"
    );
    t.replays();
}

/// Crazy queens: "When a queen is played, all other players put their cards face down
/// on the table without re-shuffling. The player who played the queen then picks a
/// target player and passes that player a card of their choice from his or her hand
/// and blindly picks one of the cards out from their hand." A slapped queen swaps, the
/// slapper naming the target and the card given as a thrower does; the view lists the
/// targets beside the slap.
#[test]
fn crazy_queens_a_slapped_queen_swaps_with_a_chosen_target() {
    let players = ["ann", "bob", "cid"];
    let hands = ["9H 10H JH 2C 3C", "KH 2H 4D 5D JK", "6H 9S KC 4C 5C"];
    let mut t = Table::with_rules(house_with(&["crazy_queens"]), &players, &[]);
    t.deal("ann", &hands, "2D");
    t.play("ann", "9H 10H JH", stock("QH"));
    let legal = t.game.legal_actions(0);
    assert_eq!(legal.slap, Some(common::card("QH")));
    assert_eq!(legal.queen_targets, [1, 2]);
    assert!(
        matches!(
            t.try_slap("ann", "QH"),
            Err(GameError::QueenSwapNotAllowed(_))
        ),
        "the swap is named with the slap"
    );
    let events = t
        .try_slap_queen("ann", "QH", "bob", "3C", Some("KH"))
        .expect("the slapped queen swaps");
    let Some(Event::QueenSwapped(swapped)) = events.get(1) else {
        panic!("{events:?}")
    };
    assert_eq!((swapped.seat, swapped.target), (0, 1));
    assert_eq!(t.hand("ann"), common::cards("2C KH"));
    assert!(t.hand("bob").contains(common::card("3C")));
    t.replays();
}

/// Spy: "When a player plays the queen of diamonds, every other player must show him
/// their cards." A slapped queen of diamonds shows them to the slapper.
#[test]
fn spy_a_slapped_queen_of_diamonds_shows_the_other_hands() {
    let players = ["ann", "bob", "cid"];
    let hands = ["QH 5S 6S 9H 10H", "KH 2H 4D 5D JK", "6H 9S KC 4C 5C"];
    let mut t = Table::with_rules(house_with(&["spy"]), &players, &[]);
    t.deal("ann", &hands, "2D");
    t.play("ann", "QH", stock("QD"));
    let events = t.slap("ann", "QD");
    let Some(Event::HandsShown(shown)) = events.last() else {
        panic!("{events:?}")
    };
    assert_eq!(shown.to, 0);
    assert_eq!(shown.hands[1], Some(common::cards("KH 2H 4D 5D JK").into()));
    t.replays();
}

/// The record of a game with a slapped nine under Southern hemisphere: `format` and the
/// order of the turns after the slap.
fn slapped_nine_record(format: &str, after_slap: [&str; 2]) -> String {
    let turn = |player: &str, card: &str, drawn: &str| json!({"player": player, "throw": [card], "draw": {"stock": drawn}});
    let [first, second] = after_slap;
    let king = |p: &str| if p == "bob" { "KH" } else { "KC" };
    let drawn = |p: &str| if p == "bob" { "2S" } else { "2H" };
    json!({
        "format": format,
        "rules": {"preset": "house", "overrides": {"bonus_rules": ["southern_hemisphere"]}},
        "players": ["ann", "bob", "cid"],
        "rounds": [{
            "starter": "ann",
            "hands": {
                "ann": ["6S", "7S", "8S", "AC", "AD"],
                "bob": ["KH", "QH", "4D", "5D", "6D"],
                "cid": ["KC", "QC", "4C", "5C", "6C"]
            },
            "up_card": "3D",
            "actions": [
                {"player": "ann", "throw": ["6S", "7S", "8S"], "draw": {"stock": "9S"}},
                {"player": "ann", "slap": ["9S"]},
                turn(first, king(first), drawn(first)),
                turn(second, king(second), drawn(second)),
                {"player": "ann", "call": "yaniv"}
            ]
        }]
    })
    .to_string()
}

/// The record format is versioned: in `yaniv-record/2` a slapped card plays, in
/// `yaniv-record/1` it sets off nothing, so every record written before replays as it
/// did. The export writes `yaniv-record/2` for a game whose slap-downs play.
#[test]
fn a_record_names_by_its_version_whether_slapped_cards_play() {
    let new = slapped_nine_record("yaniv-record/2", ["cid", "bob"]);
    let replayed = replay_json(new.as_bytes()).expect("the slapped nine sends the turn to cid");
    let exported = yaniv_domain::record::export(&replayed.events).expect("exports");
    assert_eq!(exported.format, "yaniv-record/2");
    assert!(replay_json(slapped_nine_record("yaniv-record/2", ["bob", "cid"]).as_bytes()).is_err());

    let old = slapped_nine_record("yaniv-record/1", ["bob", "cid"]);
    let replayed = replay_json(old.as_bytes()).expect("a slapped nine reversed nothing");
    let exported = yaniv_domain::record::export(&replayed.events).expect("exports");
    assert_eq!(exported.format, "yaniv-record/1");
    assert!(replay_json(slapped_nine_record("yaniv-record/1", ["cid", "bob"]).as_bytes()).is_err());
}

/// A `yaniv-record/2` slap-down carries what its card moved as a turn does
/// (`"forced"` here), and the export writes it there; `yaniv-record/1` has no place
/// for it (`bad_record`).
#[test]
fn a_slap_down_carries_its_forced_draws_in_yaniv_record_2() {
    let record = |format: &str| {
        json!({
            "format": format,
            "rules": {"preset": "house", "overrides": {"bonus_rules": ["sevens"]}},
            "players": ["ann", "bob"],
            "rounds": [{
                "starter": "ann",
                "hands": {"ann": ["7C", "AS", "AH", "2C", "KS"], "bob": ["KH", "QH", "4D", "5D", "6D"]},
                "up_card": "3D",
                "actions": [
                    {"player": "ann", "throw": ["KS"], "draw": {"stock": "AD"}},
                    {"player": "bob", "throw": ["KH"], "draw": {"stock": "9C"}},
                    {"player": "ann", "throw": ["7C"], "draw": {"stock": "7H"}, "forced": ["8C"]},
                    {"player": "ann", "slap": ["7H"], "forced": ["8D"]},
                    {"player": "bob", "throw": ["QH"], "draw": {"stock": "9D"}},
                    {"player": "ann", "call": "yaniv"}
                ]
            }]
        })
        .to_string()
    };
    let replayed = replay_json(record("yaniv-record/2").as_bytes()).expect("replays");
    let exported = yaniv_domain::record::export(&replayed.events).expect("exports");
    let written = serde_json::to_value(&exported).expect("serializes");
    assert_eq!(
        written["rounds"][0]["actions"][3],
        json!({"player": "ann", "slap": ["7H"], "forced": ["8D"]})
    );
    let old = replay_json(record("yaniv-record/1").as_bytes()).expect_err("no place for it");
    assert_eq!(
        (old.code, old.round, old.action),
        ("bad_record", Some(0), Some(3))
    );
}

/// The bots still choose legal slap-downs: a greedy bot slaps its drawn queen with a
/// swap the rules accept.
#[test]
fn a_bot_slaps_a_queen_with_a_legal_swap() {
    use yaniv_domain::bots::{Bot, BotView, GreedyBot};
    let players = ["ann", "bob", "cid"];
    let hands = ["9H 10H JH 2C 3C", "KH 2H 4D 5D JK", "6H 9S KC 4C 5C"];
    let mut t = Table::with_rules(house_with(&["crazy_queens"]), &players, &[]);
    t.deal("ann", &hands, "2D");
    t.play("ann", "9H 10H JH", stock("QH"));
    let command = GreedyBot::default()
        .out_of_turn(&BotView::new(&t.game, 0))
        .expect("the bot slaps");
    assert!(
        matches!(command, Command::Slap { queen: Some(_), .. }),
        "{command:?}"
    );
    // On paper the blind pick is named; the bot's choice of target and card stands.
    let Command::Slap {
        queen: Some(swap), ..
    } = command
    else {
        unreachable!()
    };
    let target = t.name(swap.target).to_owned();
    let taken = t.hand(&target).as_slice()[0].to_string();
    t.try_slap_queen("ann", "QH", &target, &swap.give.to_string(), Some(&taken))
        .expect("the bot's swap is legal");
}

/// The game of `domain/tests/fixtures/slapped_cards.events.jsonl`: one round dealt on
/// paper under the House Rules with every bonus rule a played card sets off, in which
/// every such card is slapped down (a nine, a seven, a three, a black eight, a queen,
/// the queen of diamonds). The reference verifier's tests read the same file.
fn every_slapped_effect() -> Table {
    let rules = house_with(&[
        "crazy_queens",
        "double_edged_sword",
        "pinata",
        "sevens",
        "southern_hemisphere",
        "spy",
    ]);
    let mut t = Table::with_rules(rules, &["ann", "bob", "cid"], &[]);
    t.deal(
        "ann",
        &["9C 7C 3C 8H QH", "KH 2H 4D 5D 6D", "KC 4C 5C 6C 10D"],
        "2D",
    );
    t.play("ann", "9C", stock("9S"));
    t.slap("ann", "9S");
    assert_eq!(
        t.to_act(),
        Some("bob"),
        "two nines: back to the usual direction"
    );
    t.play("bob", "6D", stock("JS"));
    t.play("cid", "10D", stock("JC"));
    t.try_play_forcing("ann", "7C", stock("7D"), "2C 2S")
        .expect("the thrown seven");
    t.try_slap_naming("ann", "7D", "5H 6H", None)
        .expect("the slapped seven");
    t.play("bob", "JS", stock("4H"));
    t.play("cid", "JC", stock("10C"));
    t.try_play_naming("ann", "3C", stock("3D"), "", Some("KD"))
        .expect("the thrown three");
    t.slap("ann", "3D");
    t.play("bob", "4D", stock("8D"));
    t.play("cid", "10C", stock("4S"));
    t.play("ann", "8H", stock("8S"));
    t.try_slap_redealing(
        "ann",
        "8S",
        &["QH KD 2H 5D 2C", "KH 5H 4H 8D KC 4C", "5C 6C 2S 6H 4S"],
    )
    .expect("the slapped black eight");
    t.play("bob", "KC", stock("10H"));
    t.play("cid", "6C", stock("10S"));
    t.try_play_queen("ann", "QH", stock("QD"), "bob", "KD", Some("4C"))
        .expect("the thrown queen");
    t.try_slap_queen("ann", "QD", "cid", "5D", Some("2S"))
        .expect("the slapped queen of diamonds");
    t
}

/// Every effect a slapped card has, in one stream that the engine replays and the
/// fixture pins; `YANIV_WRITE_FIXTURES=1` writes it again after a deliberate change.
#[test]
fn every_slapped_effect_replays_and_matches_its_fixture() {
    let t = every_slapped_effect();
    t.replays();
    for kind in [
        "forced_to_draw.v1",
        "pinata_taken.v1",
        "hands_redealt.v1",
        "queen_swapped.v1",
        "hands_shown.v1",
    ] {
        // Among the events between a slap-down and the next turn.
        let after_slap = t.log.iter().enumerate().any(|(at, e)| {
            matches!(e, Event::SlappedDown(_))
                && t.log[at + 1..]
                    .iter()
                    .take_while(|e| !matches!(e, Event::TurnPlayed(_)))
                    .any(|e| e.type_name() == kind)
        });
        assert!(after_slap, "a slap-down is followed by {kind}");
    }
    let lines: String = t
        .log
        .iter()
        .map(|e| serde_json::to_string(e).expect("serializes") + "\n")
        .collect();
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/slapped_cards.events.jsonl"
    );
    if std::env::var_os("YANIV_WRITE_FIXTURES").is_some() {
        std::fs::write(path, &lines).expect("write the fixture");
    }
    let pinned = std::fs::read_to_string(path).expect("the fixture");
    assert_eq!(
        pinned, lines,
        "the engine no longer produces the pinned stream"
    );
    let stored: Vec<Event> = pinned
        .lines()
        .map(|line| serde_json::from_str(line).expect("an event"))
        .collect();
    Game::replay_checked(&stored).unwrap_or_else(|(at, e)| panic!("event {at}: {e}"));
}
