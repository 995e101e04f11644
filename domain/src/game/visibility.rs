//! What each viewer may see of a game's event log.
//!
//! Hidden until the round is over: the seed of a shuffled deal (players see its
//! commitment), the hands of a deal entered on paper (each player sees their own), which
//! card a player drew from the stock (the drawer sees it), and a card set aside face
//! down. Everything else is laid face up at the table, so everyone sees it. A referee
//! sees every hand while the round is played, never its seed nor a face-down card; once
//! the round is over, everyone sees all of it. Who counts as what is decided in
//! [`crate::visibility`].

use serde_json::{Value, json};

use super::event::{Deal, Draw, Event, Seat};

/// Who is looking.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Viewer {
    /// The player at this seat.
    Seat(Seat),
    /// Someone without a seat: sees only what is face up.
    Spectator,
    /// A referee of the table who plays nowhere in its tournament: sees every hand as it
    /// is, but not what no hand holds (the seed, the stock, a face-down card).
    Referee,
}

impl Viewer {
    fn sees_seat(self, seat: Seat) -> bool {
        match self {
            Viewer::Seat(own) => own == seat,
            Viewer::Spectator => false,
            Viewer::Referee => true,
        }
    }
}

/// The events as `viewer` may see them, in the stored JSON shape with hidden values
/// replaced by `null` (a hidden stock draw reads `{"stock": null}`).
pub fn visible_events(events: &[Event], viewer: Viewer) -> Vec<Value> {
    // A round's secrets are revealed once a later event ends it.
    let mut ended_rounds = std::collections::HashSet::new();
    for e in events {
        if let Event::RoundEnded(end) = e {
            ended_rounds.insert(end.round);
        }
    }
    let mut round = 0;
    events
        .iter()
        .map(|event| {
            if let Event::RoundDealt(dealt) = event {
                round = dealt.round;
            }
            let revealed = ended_rounds.contains(&round);
            redact(event, viewer, revealed)
        })
        .collect()
}

fn redact(event: &Event, viewer: Viewer, revealed: bool) -> Value {
    let mut value = serde_json::to_value(event).unwrap_or(Value::Null);
    if revealed {
        return value;
    }
    match event {
        Event::RoundDealt(dealt) => match &dealt.deal {
            Deal::Shuffled { .. } => value["deal"]["seed"] = Value::Null,
            Deal::Explicit { hands, .. } => {
                let shown: Vec<Value> = hands
                    .iter()
                    .enumerate()
                    .map(|(seat, hand)| {
                        if viewer.sees_seat(seat as Seat) {
                            json!(hand)
                        } else {
                            Value::Null
                        }
                    })
                    .collect();
                value["deal"]["hands"] = Value::Array(shown);
            }
        },
        Event::TurnPlayed(turn)
            if matches!(turn.draw, Draw::Stock(_)) && !viewer.sees_seat(turn.seat) =>
        {
            value["draw"] = json!({ "stock": null });
        }
        // Sevens: like a stock draw, the card is its drawer's.
        Event::ForcedToDraw(forced) if !viewer.sees_seat(forced.seat) => {
            value["card"] = Value::Null;
        }
        // Double-edged sword: each seat sees its own new hand.
        Event::HandsRedealt(redealt) => {
            let shown: Vec<Value> = redealt
                .hands
                .iter()
                .enumerate()
                .map(|(seat, hand)| match hand {
                    Some(hand) if viewer.sees_seat(seat as Seat) => json!(hand),
                    _ => Value::Null,
                })
                .collect();
            value["hands"] = Value::Array(shown);
        }
        // Piñata: face down for everyone until the round is over; taken, its taker's.
        Event::PinataSetAside(_) => value["card"] = Value::Null,
        Event::PinataTaken(taken) if !viewer.sees_seat(taken.seat) => {
            value["card"] = Value::Null;
        }
        // Crazy queens: the swap is between its two players.
        Event::QueenSwapped(swapped)
            if !viewer.sees_seat(swapped.seat) && !viewer.sees_seat(swapped.target) =>
        {
            value["given"] = Value::Null;
            value["taken"] = Value::Null;
        }
        // Waterfall: cards passed are seen by who passes and who receives them; the card
        // kept, by its keeper.
        Event::WaterfallStarted(started)
            if !viewer.sees_seat(started.seat) && !viewer.sees_seat(started.to) =>
        {
            value["cards"] = Value::Null;
        }
        Event::WaterfallPicked(picked) if !viewer.sees_seat(picked.seat) => {
            value["card"] = Value::Null;
            if !viewer.sees_seat(picked.to) {
                value["passed"] = Value::Null;
            }
        }
        // Spy: the hands were shown to one player only.
        Event::HandsShown(shown) if !viewer.sees_seat(shown.to) => {
            value["hands"] = Value::Null;
        }
        _ => {}
    }
    value
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::{card, cards};
    use crate::game::{Command, DealSource, DrawChoice, Game};
    use crate::rules::Preset;
    use crate::shuffle::Seed;

    fn game_with_one_turn() -> Vec<Event> {
        let mut game = Game::new();
        let mut log = game
            .execute(&Command::Create {
                rules: Preset::Israeli.rules(),
                players: vec!["ann".into(), "bob".into()],
                initial_totals: vec![],
            })
            .expect("create");
        log.extend(
            game.execute(&Command::Deal {
                starter: Some(0),
                source: DealSource::Seeded(Seed([9; 32])),
            })
            .expect("deal"),
        );
        let throw = cards(&game.hand(0).as_slice()[0].to_string());
        log.extend(
            game.execute(&Command::play(0, throw, DrawChoice::Stock))
                .expect("play"),
        );
        log
    }

    #[test]
    fn a_player_sees_neither_the_seed_nor_another_players_stock_draw() {
        let log = game_with_one_turn();
        let Event::TurnPlayed(turn) = log[2] else {
            panic!("a turn")
        };
        let drawn = turn.draw.card().to_string();

        let bob = visible_events(&log, Viewer::Seat(1));
        assert_eq!(bob[1]["deal"]["seed"], Value::Null);
        assert!(bob[1]["deal"]["commitment"].is_string());
        assert_eq!(bob[2]["draw"], json!({"stock": null}));

        let ann = visible_events(&log, Viewer::Seat(0));
        assert_eq!(ann[2]["draw"], json!({ "stock": drawn }));
        assert_eq!(ann[1]["deal"]["seed"], Value::Null);

        // A referee sees the card in the hand it went to, never the seed it came from.
        let referee = visible_events(&log, Viewer::Referee);
        assert_eq!(referee[1]["deal"]["seed"], Value::Null);
        assert_eq!(referee[2]["draw"], json!({ "stock": drawn }));
    }

    #[test]
    fn paper_hands_are_shown_to_their_owner_only_until_the_round_ends() {
        let dealt = Event::RoundDealt(crate::game::RoundDealt {
            round: 1,
            dealer: None,
            starter: 0,
            deal: Deal::Explicit {
                hands: vec![cards("AS 2S 3S 4S 5S"), cards("AH 2H 3H 4H 5H")],
                up_card: card("9C"),
            },
        });
        let seen = visible_events(std::slice::from_ref(&dealt), Viewer::Seat(1));
        assert_eq!(seen[0]["deal"]["hands"][0], Value::Null);
        assert_eq!(
            seen[0]["deal"]["hands"][1],
            json!(["AH", "2H", "3H", "4H", "5H"])
        );
        assert_eq!(seen[0]["deal"]["up_card"], json!("9C"));
        let spectator = visible_events(std::slice::from_ref(&dealt), Viewer::Spectator);
        assert_eq!(spectator[0]["deal"]["hands"], json!([null, null]));
    }
}
