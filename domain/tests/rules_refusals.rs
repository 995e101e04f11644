//! Commands refused outside any one rule: the order of a game's life (create, deal, play),
//! seats, and deals. Rule-specific refusals sit beside their rules in the other files.

mod common;

use common::{Table, card, cards, stock};
use serde_json::json;
use yaniv_domain::game::{Command, DealSource, Game, GameError};
use yaniv_domain::rules::{Preset, RulesError};

/// A game is created once, before anything else.
#[test]
fn create_first_and_only_once() {
    let mut game = Game::new();
    let deal = Command::Deal {
        starter: Some(0),
        source: DealSource::Explicit {
            hands: vec![cards("2C 3C 4C 5C 6C"), cards("2D 3D 4D 5D 6D")],
            up_card: card("9S"),
        },
    };
    assert_eq!(game.execute(&deal), Err(GameError::NotCreated));
    let mut t = Table::new(Preset::Israeli, &["ann", "bob"]);
    assert_eq!(
        t.execute(Command::Create {
            rules: Preset::Israeli.rules(),
            players: vec!["x".into(), "y".into()],
            initial_totals: vec![],
        }),
        Err(GameError::AlreadyCreated)
    );
}

/// The rules must be consistent and the players named once each.
#[test]
fn bad_rules_and_bad_players_are_refused() {
    let mut rules = Preset::Israeli.rules();
    rules.hand_size = 0;
    let mut game = Game::new();
    let result = game.execute(&Command::Create {
        rules,
        players: vec!["ann".into(), "bob".into()],
        initial_totals: vec![],
    });
    assert!(matches!(
        result,
        Err(GameError::BadRules(RulesError::Inconsistent {
            name: "hand_size",
            ..
        }))
    ));
    let mut game = Game::new();
    let result = game.execute(&Command::Create {
        rules: Preset::Israeli.rules(),
        players: vec!["ann".into(), "ann".into()],
        initial_totals: vec![],
    });
    assert_eq!(
        result,
        Err(GameError::BadPlayers("\"ann\" is seated twice".into()))
    );
    // An unknown rule parameter is an error, never ignored.
    let overrides = json!({"call_treshold": 7});
    let serde_json::Value::Object(map) = overrides else {
        unreachable!()
    };
    assert_eq!(
        Preset::Israeli.rules().with_overrides(&map),
        Err(RulesError::UnknownParameter {
            name: "call_treshold".into()
        })
    );
}

/// No play before a deal, no deal during a round, no seat that does not exist.
#[test]
fn phases_and_seats() {
    let mut t = Table::new(Preset::Israeli, &["ann", "bob"]);
    assert_eq!(
        t.try_play("ann", "2C", stock("KS")),
        Err(GameError::WrongPhase("no round is being played"))
    );
    t.deal("ann", &["2C 3C 4C 5C 6C", "2D 3D 4D 5D 6D"], "9S");
    assert_eq!(
        t.try_deal(None, &["2C 3C 4C 5C 6C", "2D 3D 4D 5D 6D"], "9S"),
        Err(GameError::WrongPhase("a round is being played"))
    );
    assert_eq!(
        t.execute(Command::Call {
            seat: 5,
            call: yaniv_domain::game::CallKind::Yaniv
        }),
        Err(GameError::NoSuchSeat(5))
    );
}

/// A deal entered on paper must come out of the deck: one hand per seat, the right number of
/// cards, no card more often than the deck holds it, an up card left in the deck.
#[test]
fn explicit_deals_must_come_out_of_the_deck() {
    let mut t = Table::new(Preset::Israeli, &["ann", "bob"]);
    assert_eq!(
        t.try_deal(Some("ann"), &["2C 3C 4C 5C 6C"], "9S"),
        Err(GameError::BadDeal(
            "expected hands for 2 seats, got 1".into()
        ))
    );
    assert_eq!(
        t.try_deal(Some("ann"), &["2C 3C 4C 5C 6C", "2C 3D 4D 5D 6D"], "9S"),
        Err(GameError::BadDeal(
            "2C is dealt more often than the deck holds it".into()
        ))
    );
    assert_eq!(
        t.try_deal(Some("ann"), &["2C 3C 4C 5C 6C", "2D 3D 4D 5D 6D"], "6D"),
        Err(GameError::BadDeal(
            "the up card 6D is not left in the deck".into()
        ))
    );
    assert_eq!(
        t.execute(Command::Deal {
            starter: Some(5),
            source: DealSource::Explicit {
                hands: vec![cards("2C 3C 4C 5C 6C"), cards("2D 3D 4D 5D 6D")],
                up_card: card("9S"),
            },
        }),
        Err(GameError::NoSuchSeat(5))
    );
}
