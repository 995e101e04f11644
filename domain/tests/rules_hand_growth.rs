//! Hands that grow past sixteen cards: the House Rules set no limit on the cards a
//! Sevens draw, the piñata or a waterfall gives a player, and a game created before
//! that reading keeps the 16-card cap it was played under. Osmosis' pile tops keep
//! their order after a draw in the same new games.

mod common;

use common::{Table, card, cards, rules_with, stock};
use serde_json::json;
use yaniv_domain::game::{Event, Game};
use yaniv_domain::record::{RECORD_FORMAT_SLAPS_PLAY, RECORD_FORMAT_UNCAPPED, export, replay};
use yaniv_domain::rules::{Preset, Rules};

const PLAYERS: [&str; 3] = ["ann", "bob", "cid"];

/// Two decks and ten-card hands, as the Sevens case of the source asks for.
fn two_decks_with(bonus: &[&str]) -> Rules {
    rules_with(
        Preset::House,
        json!({ "bonus_rules": bonus, "decks": "two", "hand_size": 10 }),
    )
}

fn forced_count(events: &[Event], seat: u8) -> usize {
    events
        .iter()
        .filter(|e| matches!(e, Event::ForcedToDraw(f) if f.seat == seat))
        .count()
}

/// Ann throws four sevens, then bob and cid one card each: ann holds the other four
/// sevens (two decks hold eight).
fn four_sevens_once(t: Table) -> Table {
    four_sevens_once_holding(t, "9H 10S", "JD")
}

/// [`four_sevens_once`] with ann's two other cards `extra` and her draw `drawn`.
fn four_sevens_once_holding(mut t: Table, extra: &str, drawn: &str) -> Table {
    let ann = format!("7C 7D 7H 7S 7C 7D 7H 7S {extra}");
    t.deal(
        "ann",
        &[
            &ann,
            "2C 2D 2H 2S 3C 4C 4D 4H 4S 5C",
            "3D 5D 5H 5S 6C 6D 6H 6S 8C 8D",
        ],
        "9C",
    );
    let first = t
        .try_play_forcing(
            "ann",
            "7C 7D 7H 7S",
            stock(drawn),
            "9D 9S 10C 10D 10H JC JH JS",
        )
        .expect("four sevens: four cards each");
    assert_eq!((forced_count(&first, 1), forced_count(&first, 2)), (4, 4));
    t.play("bob", "2C", stock("QC"));
    t.play("cid", "5D", stock("QD"));
    t
}

/// [`four_sevens_once`], then ann throws the other four sevens. `second_forced` names
/// the cards they make the others draw, bob's first.
fn four_sevens_twice(t: Table, second_forced: &str) -> (Table, Vec<Event>) {
    let mut t = four_sevens_once(t);
    let second = t
        .try_play_forcing("ann", "7C 7D 7H 7S", stock("KC"), second_forced)
        .expect("the other four sevens");
    (t, second)
}

/// Sevens: "When a player plays any 7 card, all other players must draw a card from
/// the top of the deck. In the event that multiple 7s are played (two, three, or four
/// of-a-kind, etc.), a card is drawn for each seven played." No limit: with two decks
/// and ten-card hands, four sevens thrown twice make each other player draw eight.
#[test]
fn sevens_four_sevens_thrown_twice_make_every_other_player_draw_eight() {
    let t = Table::with_rules(two_decks_with(&["sevens"]), &PLAYERS, &[]);
    let (t, second) = four_sevens_twice(t, "QH QS KD KH KS AC AD AH");
    assert_eq!((forced_count(&second, 1), forced_count(&second, 2)), (4, 4));
    assert_eq!(t.hand("bob").len(), 18);
    assert_eq!(t.hand("cid").len(), 18);
    // A hand past sixteen cards still lists its throws (by rank and suit, not 2^18
    // subsets): bob's four fours among them.
    let throws = t.game.legal_actions(1).throws;
    assert!(throws.contains(&cards("4C 4D 4H 4S")), "{throws:?}");
    assert!(
        throws
            .iter()
            .all(|th| t.hand("bob").contains_all(th.as_slice()))
    );
    t.replays();
}

/// A game created before hands had no limit replays as it was played: a hand of 16
/// cards drew no more, and the sevens' remaining draws lapsed.
#[test]
fn sevens_a_game_created_with_the_old_cap_still_lapses_at_sixteen() {
    let old = Table::created_before_uncapped_hands(two_decks_with(&["sevens"]), &PLAYERS);
    let (t, second) = four_sevens_twice(old, "QH QS KD KH");
    assert_eq!((forced_count(&second, 1), forced_count(&second, 2)), (2, 2));
    assert_eq!(t.hand("bob").len(), 16);
    assert_eq!(t.hand("cid").len(), 16);
    t.replays();
    // The new reading's draws past sixteen are refused in such a game.
    let old = Table::created_before_uncapped_hands(two_decks_with(&["sevens"]), &PLAYERS);
    let mut old = four_sevens_once(old);
    let refused =
        old.try_play_forcing("ann", "7C 7D 7H 7S", stock("KC"), "QH QS KD KH KS AC AD AH");
    assert_eq!(
        refused.map_err(|e| e.code()).err(),
        Some("card_not_available"),
        "eight named draws where four lapse"
    );
}

/// Piñata: "When an 3 is played, a card from the top of the deck is set aside, face
/// down. The next player to play an 3 picks up the card." A hand of eighteen picks it
/// up as any other.
#[test]
fn pinata_a_hand_above_sixteen_takes_the_card_set_aside() {
    let t = Table::with_rules(two_decks_with(&["sevens", "pinata"]), &PLAYERS, &[]);
    let (mut t, _) = four_sevens_twice(t, "QH QS KD KH KS AC AD AH");
    t.play("bob", "2H", stock("3H"));
    t.try_play_naming("cid", "3D", stock("3S"), "", Some("8H"))
        .expect("cid's three sets a card aside");
    t.play("ann", "9H", stock("8S"));
    let events = t.play("bob", "3C", stock("6C"));
    assert!(
        matches!(events.last(), Some(Event::PinataTaken(p)) if p.seat == 1 && p.card == card("8H"))
    );
    assert_eq!(t.hand("bob").len(), 19);
    t.replays();
}

/// Waterfall: "they can pass those cards to the player on his or her left. That
/// player then chooses which card he or she wants and passes the remaining cards from
/// the straight to the next player". Hands of eighteen take their card; in a game
/// created under the 16-card cap, hands of sixteen could not, and no waterfall began.
#[test]
fn waterfall_passes_to_hands_above_sixteen() {
    let t = Table::with_rules(two_decks_with(&["sevens", "waterfall"]), &PLAYERS, &[]);
    let (mut t, _) = four_sevens_twice(t, "QH QS KD KH KS AC AD AH");
    t.play("bob", "2H", stock("3H"));
    t.play("cid", "5H", stock("3S"));
    t.try_waterfall("ann", "9H 10S JD")
        .expect("a straight of three");
    t.try_waterfall_pick("bob", "JD").expect("bob keeps one");
    t.try_waterfall_pick("cid", "10S").expect("cid keeps one");
    assert_eq!((t.hand("bob").len(), t.hand("cid").len()), (19, 19));
    assert_eq!(
        t.hand("ann").sorted(),
        cards("9H KC").sorted(),
        "the last card"
    );
    t.replays();

    let old =
        Table::created_before_uncapped_hands(two_decks_with(&["sevens", "waterfall"]), &PLAYERS);
    let (mut old, _) = four_sevens_twice(old, "QH QS KD KH");
    old.play("bob", "2H", stock("3H"));
    old.play("cid", "5H", stock("3S"));
    assert_eq!(
        old.try_waterfall("ann", "9H 10S JD").map_err(|e| e.code()),
        Err("waterfall_not_allowed")
    );
}

/// A portable record carries no `game_created` flags: its format says the reading. A
/// game whose hands have no cap is written as `yaniv-record/3` and imports with
/// eighteen-card hands; one created under the cap is written as before and imports
/// with the cap.
#[test]
fn records_of_both_readings_import_and_replay_as_played() {
    // Ann keeps jokers and an ace (House: a joker counts 0) and calls once bob and cid,
    // with eighteen cards each, have played: the round ends and is written.
    let play_round = |t: Table, forced: &str| -> Table {
        let mut t = four_sevens_once_holding(t, "JK AS", "JK");
        t.try_play_forcing("ann", "7C 7D 7H 7S", stock("JK"), forced)
            .expect("the other four sevens");
        t.play("bob", "2H", stock("3H"));
        t.play("cid", "5H", stock("3S"));
        t.call("ann");
        t
    };
    let t = Table::with_rules(two_decks_with(&["sevens"]), &PLAYERS, &[]);
    let new = play_round(t, "QH QS KD KH KS AC AD AH");
    let ended = new.round_ended();
    assert_eq!(ended.hands[1].as_ref().map(|h| h.len()), Some(18));
    let record = export(&new.log).expect("export");
    assert_eq!(record.format, RECORD_FORMAT_UNCAPPED);
    let replayed = replay(&record).expect("a /3 record with 18-card hands replays");
    assert_eq!(replayed.events, new.log);
    assert_eq!(replayed.game.hand(1).len(), 18);

    let old = Table::created_before_uncapped_hands(two_decks_with(&["sevens"]), &PLAYERS);
    let old = play_round(old, "QH QS KD KH");
    let record = export(&old.log).expect("export");
    assert_eq!(record.format, RECORD_FORMAT_SLAPS_PLAY);
    let replayed = replay(&record).expect("a /2 record replays under the cap");
    assert_eq!(replayed.events, old.log);
    assert_eq!(replayed.game.hand(1).len(), 16);
    // The same turns read as /2 lapse: the /3 record's eight draws are refused.
    let mut as_two = export(&new.log).expect("export");
    as_two.format = RECORD_FORMAT_SLAPS_PLAY.into();
    assert!(replay(&as_two).is_err());
}

/// Osmosis: "any player can draw from, add-on, and slap-down on any pile", so a pile's
/// top is read again after a card was drawn off it. Drawing the 3H off 3H 4H 5H 6H
/// leaves the run 4H 5H 6H, whose ends are the 4H and the 6H (`discard_draw: ends`);
/// the 5H inside it is not takeable. A game created before that reading let the last
/// card fill the gap (6H 4H 5H), and keeps doing so.
#[test]
fn osmosis_a_draw_off_a_run_leaves_it_in_order() {
    let rules = rules_with(
        Preset::House,
        json!({ "bonus_rules": ["cell_division", "osmosis"], "discard_draw": "ends" }),
    );
    let hands = ["3H 4H 5H 6H 2C", "KD 9C 8S JD QS", "4C 4D AH 6C 2D"];
    let play = |mut t: Table| -> Table {
        t.deal("ann", &hands, "8C");
        t.play("ann", "3H 4H 5H 6H", stock("KS"));
        t.play("bob", "KD", common::discard("3H"));
        t
    };
    let new = play(Table::with_rules(rules.clone(), &PLAYERS, &[]));
    let draws = new.game.legal_actions(2).draw_from_discard;
    assert!(
        draws.contains(card("4H")) && draws.contains(card("6H")),
        "{draws:?}"
    );
    assert!(!draws.contains(card("5H")), "an inner card: {draws:?}");
    new.replays();

    let old = play(Table::created_before_uncapped_hands(rules, &PLAYERS));
    let draws = old.game.legal_actions(2).draw_from_discard;
    assert!(
        draws.contains(card("5H")),
        "the old order 6H 4H 5H: {draws:?}"
    );
    old.replays();
    let mut checked = Game::new();
    for e in &old.log {
        checked.apply(e);
    }
    assert_eq!(checked.legal_actions(2), old.game.legal_actions(2));
}

/// Writes `log` to `domain/tests/fixtures/<name>` under `YANIV_WRITE_FIXTURES=1`, and
/// checks the pinned file is that stream and replays: the reference verifier's tests
/// read the same files.
fn pinned(name: &str, log: &[Event]) {
    let lines: String = log
        .iter()
        .map(|e| serde_json::to_string(e).expect("serializes") + "\n")
        .collect();
    let path = format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
    if std::env::var_os("YANIV_WRITE_FIXTURES").is_some() {
        std::fs::write(&path, &lines).expect("write the fixture");
    }
    let pinned = std::fs::read_to_string(&path).expect("the fixture");
    assert_eq!(pinned, lines, "the engine no longer produces {name}");
    let stored: Vec<Event> = pinned
        .lines()
        .map(|line| serde_json::from_str(line).expect("an event"))
        .collect();
    Game::replay_checked(&stored).unwrap_or_else(|(at, e)| panic!("event {at}: {e}"));
}

/// One round in which hands grow past sixteen by all three rules that grow them: the
/// sevens' draws (to 18), a waterfall's card and the piñata (bob ends at 20).
#[test]
fn grown_hands_stream_replays_and_matches_its_fixture() {
    let rules = two_decks_with(&["sevens", "pinata", "waterfall"]);
    let t = Table::with_rules(rules, &PLAYERS, &[]);
    let (mut t, _) = four_sevens_twice(t, "QH QS KD KH KS AC AD AH");
    t.play("bob", "2H", stock("3H"));
    t.try_play_naming("cid", "3D", stock("3S"), "", Some("8H"))
        .expect("cid's three sets a card aside");
    t.try_waterfall("ann", "9H 10S JD")
        .expect("a straight of three");
    t.try_waterfall_pick("bob", "JD").expect("bob keeps one");
    t.try_waterfall_pick("cid", "10S").expect("cid keeps one");
    t.play("ann", "KC", stock("8S"));
    let events = t.play("bob", "3C", stock("6C"));
    assert!(matches!(events.last(), Some(Event::PinataTaken(p)) if p.seat == 1));
    assert_eq!(t.hand("bob").len(), 20);
    t.replays();
    pinned("grown_hands.events.jsonl", &t.log);
}

/// Osmosis after a draw off a run: cid takes the 4H, an end of 4H 5H 6H only in the
/// order the new reading keeps.
#[test]
fn osmosis_order_stream_replays_and_matches_its_fixture() {
    let rules = rules_with(
        Preset::House,
        json!({ "bonus_rules": ["cell_division", "osmosis"], "discard_draw": "ends" }),
    );
    let mut t = Table::with_rules(rules, &PLAYERS, &[]);
    t.deal(
        "ann",
        &["3H 4H 5H 6H 2C", "KD 9C 8S JD QS", "4C 4D AH 6C 2D"],
        "8C",
    );
    t.play("ann", "3H 4H 5H 6H", stock("KS"));
    t.play("bob", "KD", common::discard("3H"));
    t.play("cid", "AH", common::discard("4H"));
    t.replays();
    pinned("osmosis_order.events.jsonl", &t.log);
}
