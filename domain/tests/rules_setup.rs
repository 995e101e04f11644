//! Setting the table: the rules stored with the game, the deck of each preset and player
//! count, the hand size, and how a round is dealt.

mod common;

use common::{Table, rules_with};
use serde_json::json;
use yaniv_domain::cards::{Card, JOKER};
use yaniv_domain::game::{Command, DealSource, DrawChoice, Event, Game, GameError};
use yaniv_domain::rules::{DeckCount, Preset};
use yaniv_domain::shuffle::{Seed, ShuffleStream, shuffle_in_place};

/// RULES.md lines 14-16: "A game is created from a preset plus optional overrides of single
/// parameters, and the effective configuration is stored in the game's first event, so a
/// replay never depends on what a preset means today."
#[test]
fn the_effective_rules_are_stored_in_the_first_event() {
    let rules = rules_with(Preset::Belgian, json!({"call_threshold": 7}));
    let t = Table::with_rules(rules.clone(), &["ann", "bob"], &[]);
    match &t.log[0] {
        Event::GameCreated(created) => {
            assert_eq!(created.rules, rules);
            assert_eq!(created.rules.call_threshold, Some(7));
            assert_eq!(created.players, vec!["ann".to_owned(), "bob".to_owned()]);
            assert_eq!(created.initial_totals, vec![0, 0]);
        }
        other => panic!("first event is {}", other.type_name()),
    }
}

/// RULES.md decks: "1; 2 when there are 4+ players (pagat option, kept for the whole game);
/// 2 for 5-8 players (Belgian)"; jokers: "2 per deck; none (Nepal, then J = 0)". pagat: "A 54
/// card deck is used - the standard international deck with two jokers." and "In Nepal, the
/// game is often played with a 52-card pack without Jokers."
#[test]
fn the_deck_of_each_preset_and_player_count() {
    let names = ["p0", "p1", "p2", "p3", "p4", "p5", "p6", "p7"];
    for preset in Preset::ALL {
        for n in 2..=8 {
            let t = Table::new(preset, &names[..n]);
            let deck = t.game.deck().expect("a deck");
            let (decks, jokers) = match preset {
                Preset::Nepali => (1, 0),
                Preset::Belgian if n >= 5 => (2, 2),
                _ => (1, 2),
            };
            assert_eq!(
                (deck.decks, deck.jokers_per_deck),
                (decks, jokers),
                "{preset} {n}"
            );
            assert_eq!(
                deck.size(),
                decks as usize * (52 + jokers as usize),
                "{preset} {n}"
            );
            assert_eq!(deck.counts().count(JOKER), decks * jokers, "{preset} {n}");
        }
    }
}

/// pagat: "When there are four or more players, some people prefer to use two such decks
/// shuffled together, to avoid running out of cards. In that case you continue to use the
/// double deck even after the number of players is reduced below 4." After an elimination
/// leaves three players, a deal may still hold a card twice.
#[test]
fn pagat_option_two_decks_from_four_players_kept_for_the_whole_game() {
    let rules = rules_with(Preset::Israeli, json!({"decks": {"two_from_players": 4}}));
    assert_eq!(rules.decks, DeckCount::TwoFromPlayers(4));
    let three = Table::with_rules(rules.clone(), &["ann", "bob", "cid"], &[]);
    assert_eq!(three.game.deck().map(|d| d.size()), Some(54));
    let mut t = Table::with_rules(rules, &["ann", "bob", "cid", "dan"], &[0, 0, 0, 195]);
    t.deal(
        "ann",
        &[
            "JK JK AC AD AH",
            "JK JK AC AD AH",
            "2C 3C 4C 5C 6C",
            "2D 3D 4D 5D 6D",
        ],
        "9S",
    );
    t.call("ann");
    assert_eq!(t.eliminated(), vec!["dan"]);
    t.deal_next(
        &["JK JK AC AD AH", "JK JK AC AD AH", "2C 2C 3C 3C 4C", ""],
        "9S",
    );
    assert_eq!(t.game.deck().map(|d| d.size()), Some(108));
}

/// RULES.md hand size: "5; 3 (Wikipedia variation); any (yaniv.co generator)". Wikipedia:
/// "The number of cards dealt to each player can be 3 rather than 5."
#[test]
fn five_cards_each_or_the_hand_size_chosen() {
    let mut t = Table::new(Preset::Israeli, &["ann", "bob"]);
    assert_eq!(
        t.try_deal(Some("ann"), &["JK JK AC AD", "2C 3C 4C 5C 6C"], "9S"),
        Err(GameError::BadDeal(
            "seat 0 must be dealt 5 cards, got 4".into()
        ))
    );
    let rules = rules_with(Preset::Wikipedia, json!({"hand_size": 3}));
    let mut t = Table::with_rules(rules, &["ann", "bob"], &[]);
    t.deal("ann", &["JK AC AD", "2C 3C 4C"], "9S");
    assert_eq!(t.game.stock_len(), 54 - 7);
    t.call("ann");
    assert_eq!(t.points_of(["ann", "bob"]), [0, 9]);
}

/// RULES.md line 20: "Each player is dealt 5 cards (one at a time); the next card is turned
/// face up to start the discard pile; the rest is the stock." Project decision
/// (game/deal.rs): from the shuffled deck, one card at a time to each player in the
/// direction of play starting with the round's starter; then the up card; the next card
/// is the top of the stock.
#[test]
fn a_seeded_deal_goes_one_card_at_a_time_from_the_starter() {
    let mut game = Game::new();
    game.execute(&Command::Create {
        rules: Preset::Israeli.rules(),
        players: vec!["ann".into(), "bob".into(), "cid".into()],
        initial_totals: vec![],
    })
    .expect("create");
    let seed = Seed([42; 32]);
    game.execute(&Command::Deal {
        starter: Some(1),
        source: DealSource::Seeded(seed),
    })
    .expect("deal");
    let mut order: Vec<Card> = Preset::Israeli.rules().deck(3).cards();
    shuffle_in_place(&mut order, &mut ShuffleStream::new(&seed, 0));
    // Bob (seat 1) starts: he gets cards 0, 3, 6, 9, 12; Cid 1, 4, ...; Ann 2, 5, ...
    for (seat, first) in [(1u8, 0usize), (2, 1), (0, 2)] {
        let expected: Vec<Card> = (0..5).map(|i| order[first + 3 * i]).collect();
        assert_eq!(
            game.hand(seat).as_slice(),
            expected.as_slice(),
            "seat {seat}"
        );
    }
    assert_eq!(game.top_throw().as_slice(), &[order[15]]);
    assert_eq!(game.stock_len(), 54 - 16);
    let thrown = game.hand(1).iter().next().expect("a card");
    let events = game
        .execute(&Command::play(
            1,
            [thrown].into_iter().collect(),
            DrawChoice::Stock,
        ))
        .expect("play");
    assert!(matches!(&events[0], Event::TurnPlayed(p) if p.draw.card() == order[16]));
}

/// RULES.md players: "2-8". A table of one or nine is refused.
#[test]
fn two_to_eight_players() {
    for preset in Preset::ALL {
        for n in [1usize, 9] {
            let names: Vec<String> = (0..n).map(|i| format!("p{i}")).collect();
            let mut game = Game::new();
            let result = game.execute(&Command::Create {
                rules: preset.rules(),
                players: names,
                initial_totals: vec![],
            });
            assert!(
                matches!(result, Err(GameError::BadPlayers(_))),
                "{preset} {n}"
            );
        }
    }
}

/// RULES.md hand size: "any (yaniv.co generator)". yaniv.co: "each player should be dealt
/// cards, but the amount of cards can change to whatever number you want. ... Try dealing
/// 10 cards and calling Yaniv below 20".
#[test]
fn yaniv_co_generator_ten_cards_and_calling_below_20() {
    // Ten cards each fit one deck only up to five players (validate.rs).
    assert!(
        Preset::House
            .rules()
            .with_overrides(&json_map(json!({"hand_size": 10})))
            .is_err()
    );
    let rules = rules_with(
        Preset::House,
        json!({"hand_size": 10, "max_players": 5, "call_threshold": 19}),
    );
    let mut t = Table::with_rules(rules, &["ann", "bob"], &[]);
    t.deal(
        "ann",
        &[
            "JK JK KH AC AD AH AS 2C 2D 2H",
            "3C 3D 3H 3S 4C 4D 4H 4S 5C 5D",
        ],
        "9S",
    );
    assert_eq!(t.hand("ann").len(), 10);
    t.call("ann");
    assert_eq!(t.hand_totals_of(["ann", "bob"]), [10, 38]);
    assert_eq!(t.round_ended().outcome, yaniv_domain::game::Outcome::Yaniv);
}

fn json_map(value: serde_json::Value) -> serde_json::Map<String, serde_json::Value> {
    match value {
        serde_json::Value::Object(map) => map,
        _ => panic!("an object"),
    }
}
