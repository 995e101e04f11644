//! Turns: throw then draw, the order of play, which cards of the previous throw may be
//! drawn, the up card, the stock and its reshuffle.

mod common;

use common::{Table, card, cards, discard, rules_with, stock};
use serde_json::json;
use yaniv_domain::cards::Cards;
use yaniv_domain::combos::ThrowError;
use yaniv_domain::game::{DrawChoice, Event, GameError};
use yaniv_domain::rules::{Preset, Rules};

fn not_drawable(c: &str) -> GameError {
    GameError::IllegalDraw {
        card: card(c),
        reason: "is not a card of the previous throw that may be drawn",
    }
}

/// Bob's hand in the two-player deals below: he throws his Q♣ and draws.
const BOB: &str = "QC QD 4H 5H 6H";

/// Two players under `rules`: Ann, holding `ann` (Bob [`BOB`]), throws `throw` and draws A♠
/// from the stock; Bob is to play.
fn after_anns_throw(rules: Rules, ann: &str, up_card: &str, throw: &str) -> Table {
    let mut t = Table::with_rules(rules, &["ann", "bob"], &[]);
    t.deal("ann", &[ann, BOB], up_card);
    t.play("ann", throw, stock("AS"));
    t
}

/// Bob throws his Q♣ and draws `card` from Ann's throw.
fn bob_takes(t: &mut Table, card: &str) -> Result<Vec<Event>, GameError> {
    t.try_play("bob", "QC", discard(card))
}

/// RULES.md line 22: "A turn is either (a) throw one combination, then draw one card ...
/// You always throw before you draw." pagat: "No matter how many cards you throw, you pick
/// up just one card." and "The turn to play passes clockwise around the table."
#[test]
fn a_turn_throws_one_combination_then_draws_one_card_and_passes_on() {
    let mut t = Table::new(Preset::Israeli, &["ann", "bob", "cid"]);
    t.deal(
        "ann",
        &["KC KD KH 2C 3C", "QC QD 4H 5H 6H", "9S 9D 9H 8S 8D"],
        "7C",
    );
    assert_eq!(t.to_act(), Some("ann"));
    let events = t.play("ann", "KC KD KH", stock("AS"));
    assert!(matches!(&events[..], [Event::TurnPlayed(p)] if p.thrown == cards("KC KD KH")));
    assert_eq!(t.hand("ann").sorted(), cards("2C 3C AS").sorted());
    assert_eq!(t.game.top_throw(), cards("KC KD KH"));
    assert_eq!(t.to_act(), Some("bob"));
    t.play("bob", "QC QD", discard("KH"));
    assert_eq!(t.hand("bob").len(), 4);
    assert_eq!(t.to_act(), Some("cid"));
    t.play("cid", "9S", stock("2S"));
    assert_eq!(t.to_act(), Some("ann"));
    t.replays();
}

/// RULES.md line 24: "You always throw before you draw." A turn without a throw is refused.
#[test]
fn there_is_no_draw_without_a_throw() {
    let mut t = Table::new(Preset::Israeli, &["ann", "bob"]);
    t.deal("ann", &["KC KD KH 2C 3C", "QC QD 4H 5H 6H"], "7C");
    assert_eq!(
        t.try_play("ann", "", stock("AS")),
        Err(GameError::IllegalThrow(ThrowError::Empty))
    );
}

/// pagat: "In Nepal, the game is usually played counter-clockwise." RULES.md interpretation
/// 8: "'Clockwise' and 'left' always mean the direction of play, which in a game record is
/// the order of `players`." A Nepali table lists its players counter-clockwise, and play
/// follows that list.
#[test]
fn nepali_counter_clockwise_is_the_order_of_the_players_list() {
    let mut t = Table::new(Preset::Nepali, &["ann", "bob", "cid"]);
    assert_eq!(
        t.game.rules().map(|r| r.direction),
        Some(yaniv_domain::rules::Direction::CounterClockwise)
    );
    t.deal(
        "bob",
        &["KC KD KH 2C 3C", "QC QD 4H 5H 6H", "9S 9D 9H 8S 8D"],
        "7C",
    );
    t.play("bob", "QC QD", stock("AS"));
    assert_eq!(t.to_act(), Some("cid"));
    t.play("cid", "9S", stock("2S"));
    assert_eq!(t.to_act(), Some("ann"));
    t.play("ann", "KC", stock("3S"));
    assert_eq!(t.to_act(), Some("bob"));
}

/// pagat: "you cannot call other than at the beginning of your own turn. If after throwing
/// and picking up you think you have the lowest total, you must wait for your next turn in
/// order to end the play." A play out of turn is refused the same way.
#[test]
fn only_the_player_whose_turn_it_is_plays_or_calls() {
    let mut t = Table::new(Preset::Israeli, &["ann", "bob", "cid"]);
    t.deal(
        "ann",
        &["KC AD AH 2C JK", "JK AS 4H 5H 6H", "9S 9D 9H 8S 8D"],
        "7C",
    );
    let bob = t.seat("bob");
    let ann = t.seat("ann");
    assert_eq!(
        t.try_call("bob"),
        Err(GameError::NotYourTurn { expected: ann })
    );
    assert_eq!(
        t.try_play("cid", "9S", stock("2S")),
        Err(GameError::NotYourTurn { expected: ann })
    );
    // Ann throws her king and has 4 points: too late to call in this turn.
    t.play("ann", "KC", stock("AC"));
    assert_eq!(
        t.try_call("ann"),
        Err(GameError::NotYourTurn { expected: bob })
    );
}

/// RULES.md interpretation 12: "The card turned up at the deal counts as the previous throw
/// for the first player of the round, who may draw it." pagat: "The top card of the stock
/// is turned face up and placed alongside it to start the 'Dump Pile'."
#[test]
fn the_up_card_is_the_previous_throw_for_the_first_player() {
    for preset in Preset::ALL {
        let mut t = Table::new(preset, &["ann", "bob"]);
        t.deal("ann", &["KC KD KH 2C 3C", "QC QD 4H 5H 6H"], "7C");
        assert_eq!(t.game.top_throw(), cards("7C"), "{preset}");
        assert_eq!(
            t.game.view(0).map(|v| v.takeable),
            Some(cards("7C")),
            "{preset}"
        );
        assert_eq!(
            t.try_play("ann", "KC", discard("9C")),
            Err(not_drawable("9C")),
            "{preset}"
        );
        t.play("ann", "KC", discard("7C"));
        assert!(t.hand("ann").contains(card("7C")), "{preset}");
    }
}

/// pagat: "if the previous player threw the sequence 4-5-Joker-7, you could pick up the 4
/// or the 7 but not the 5 or the Joker." RULES.md: "first or last card of the previous
/// throw (pagat, Wikipedia, yaniv.co)".
#[test]
fn pagat_four_five_joker_seven_only_the_four_or_the_seven() {
    for preset in [Preset::Israeli, Preset::Wikipedia, Preset::House] {
        let mut t = after_anns_throw(preset.rules(), "4D 5D JK 7D KS", "9C", "4D 5D JK 7D");
        assert_eq!(
            t.game.view(1).map(|v| v.takeable.sorted()),
            Some(cards("4D 7D").sorted())
        );
        assert_eq!(bob_takes(&mut t, "5D"), Err(not_drawable("5D")), "{preset}");
        if preset != Preset::Wikipedia {
            // (Wikipedia lets a player who throws the 6♦ take that joker: see the joker swap.)
            assert_eq!(bob_takes(&mut t, "JK"), Err(not_drawable("JK")), "{preset}");
        }
        assert!(t.accepts_play("bob", "QC", discard("7D")), "{preset}");
        t.play("bob", "QC", discard("4D"));
    }
}

/// pagat: "If Joker-8-9 was thrown you could pick up the the Joker or the 9."
#[test]
fn pagat_joker_eight_nine_the_joker_or_the_nine() {
    let mut t = after_anns_throw(Preset::Israeli.rules(), "JK 8C 9C KS QS", "9D", "JK 8C 9C");
    assert_eq!(bob_takes(&mut t, "8C"), Err(not_drawable("8C")));
    assert!(t.accepts_play("bob", "QC", discard("9C")));
    t.play("bob", "QC", discard("JK"));
}

/// pagat: "if 8-8-8 is thrown [clubs, hearts, spades], the next player can pick up either
/// black 8 but not the heart 8."
#[test]
fn pagat_eight_eight_eight_either_black_eight_but_not_the_heart() {
    let mut t = after_anns_throw(Preset::Israeli.rules(), "8C 8H 8S KS QS", "9D", "8C 8H 8S");
    assert_eq!(bob_takes(&mut t, "8H"), Err(not_drawable("8H")));
    assert!(t.accepts_play("bob", "QC", discard("8C")));
    t.play("bob", "QC", discard("8S"));
}

/// pagat: "In Israel, some play that when a set of equal ranked cards is thrown, the next
/// player may pick up any of those cards, irrespective of the order in which they are
/// thrown, but if a sequence is thrown only its end cards can be taken." (RULES.md: "any
/// card of a set but only ends of a run (Israeli variation)".)
#[test]
fn israeli_variation_any_card_of_a_set_but_only_the_ends_of_a_run() {
    let rules = rules_with(
        Preset::Israeli,
        json!({"discard_draw": "any_of_set_ends_of_run"}),
    );
    let mut t = after_anns_throw(rules.clone(), "8C 8H 8S KS QS", "9D", "8C 8H 8S");
    t.play("bob", "QC", discard("8H"));

    let mut t = after_anns_throw(rules, "4D 5D 6D 7D KS", "9D", "4D 5D 6D 7D");
    assert_eq!(bob_takes(&mut t, "5D"), Err(not_drawable("5D")));
    t.play("bob", "QC", discard("7D"));
}

/// pagat: "In the Nepali game, a player may pick up any one of the cards discarded by the
/// previous player, not only the first or last card." (RULES.md: "any card of the throw
/// (Nepal)".)
#[test]
fn nepali_any_card_of_the_throw() {
    for middle in ["5D", "6D"] {
        let mut t = after_anns_throw(
            Preset::Nepali.rules(),
            "4D 5D 6D 7D KS",
            "9D",
            "4D 5D 6D 7D",
        );
        t.play("bob", "QC", discard(middle));
    }
}

/// pagat, Kluft: "Only the top card can be drawn from the discard pile. A player discarding
/// a sequence can do so either in ascending or in descending order ... and a player
/// discarding a set of equal ranked cards can decide which suit to place on top." Belgian:
/// "Aflegstapel: Neem de bovenste kaart van de open stapel".
#[test]
fn kluft_and_belgian_only_the_top_card_the_thrower_choosing_the_order() {
    for preset in [Preset::Kluft, Preset::Belgian] {
        for (throw, top, bottom) in [
            ("4D 5D 6D", "6D", "4D"),
            ("6D 5D 4D", "4D", "6D"),
            ("9C 9H", "9H", "9C"),
        ] {
            let mut t = after_anns_throw(preset.rules(), "4D 5D 6D 9C 9H", "9D", throw);
            assert_eq!(
                t.game.view(1).map(|v| v.takeable),
                Some(cards(top)),
                "{preset}"
            );
            assert_eq!(
                bob_takes(&mut t, bottom),
                Err(not_drawable(bottom)),
                "{preset}"
            );
            t.play("bob", "QC", discard(top));
        }
    }
}

/// A card named from the stock must be one the stock can hold (RECORD.md: "the replay
/// checks that the card could be in the stock (card conservation ...)").
#[test]
fn a_stock_card_held_elsewhere_cannot_be_drawn() {
    let mut t = Table::new(Preset::Israeli, &["ann", "bob"]);
    t.deal("ann", &["KC KD KH 2C 3C", "QC QD 4H 5H 6H"], "7C");
    for taken in ["QC", "7C", "KD"] {
        assert_eq!(
            t.try_play("ann", "KC", stock(taken)),
            Err(GameError::CardNotAvailable(format!(
                "{taken} cannot be in the stock: every copy is accounted for elsewhere"
            )))
        );
    }
    // Nepal plays without jokers: none can come from the stock.
    let mut t = Table::new(Preset::Nepali, &["ann", "bob"]);
    t.deal("ann", &["KC KD KH 2C 3C", "QC QD 4H 5H 6H"], "7C");
    assert!(matches!(
        t.try_play("ann", "KC", stock("JK")),
        Err(GameError::CardNotAvailable(_))
    ));
}

/// RULES.md line 27: "When the stock is empty, the discard pile except the last throw is
/// shuffled into a new stock." pagat: "all the cards of the dump pile except for the last
/// player's discard are shuffled and stacked face down to make a new drawing deck."
/// Belgian: "De bovenste kaart van de aflegstapel blijft liggen."
#[test]
fn when_the_stock_runs_out_the_pile_but_the_last_throw_becomes_the_stock() {
    for preset in [Preset::Israeli, Preset::Belgian] {
        let mut t = Table::new(preset, &["ann", "bob"]);
        t.deal("ann", &["KC KD KH QC QD", "JC JD JH 10C 10D"], "9S");
        let deck = t.game.deck().expect("deck").counts();
        let mut reshuffled = None;
        let mut last_throw = Cards::new();
        for _ in 0..60 {
            let who = t.to_act().expect("someone plays").to_owned();
            let throw = Cards::from_iter([t.hand(&who).iter().next().expect("a card")]);
            let events = t.play(&who, &throw.to_string(), DrawChoice::Stock);
            assert_eq!(
                t.game.cards_in_play(),
                deck,
                "{preset}: cards are conserved"
            );
            if let Some(Event::StockReshuffled(r)) = events
                .iter()
                .find(|e| matches!(e, Event::StockReshuffled(_)))
            {
                reshuffled = Some(*r);
                last_throw = throw;
                break;
            }
        }
        let r = reshuffled.expect("the stock ran out");
        // 54 cards: 10 in hands, the last throw stays on the pile, the rest is the stock.
        assert_eq!(r.cards, 43, "{preset}");
        assert_eq!(r.reshuffle, 1, "{preset}");
        assert_eq!(t.game.stock_len(), 43, "{preset}");
        assert_eq!(t.game.top_throw(), last_throw, "{preset}");
        // The next player may still draw the last throw, or draw from the new stock.
        let who = t.to_act().expect("someone plays").to_owned();
        let throw = t.hand(&who).iter().next().expect("a card").to_string();
        t.play(&who, &throw, DrawChoice::Stock);
        t.replays();
    }
}
