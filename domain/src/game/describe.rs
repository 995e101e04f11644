//! One game event as a short English sentence, players by name, for referees reading
//! a stretch of a game (`GET /v1/tables/{id}/diff`). Every card is named, the stock
//! draws too: the sentences are for those who may see everything.

use crate::cards::Cards;

use super::event::{CallKind, Deal, Draw, Event, Outcome, Seat};

/// The name of `seat` among `players` (in seat order), or `seat N` past their end.
pub fn seat_name(players: &[String], seat: Seat) -> String {
    players
        .get(usize::from(seat))
        .cloned()
        .unwrap_or_else(|| format!("seat {seat}"))
}

/// `event` in words; `players` are the game's names in seat order.
pub fn describe(event: &Event, players: &[String]) -> String {
    let name = |seat: Seat| seat_name(players, seat);
    match event {
        Event::GameCreated(e) => format!("the game is set: {}", e.players.join(", ")),
        Event::RoundDealt(e) => {
            let how = match e.deal {
                Deal::Shuffled { .. } => "from a committed seed",
                Deal::Explicit { .. } => "as entered from paper",
            };
            format!("round {} dealt {how}; {} starts", e.round, name(e.starter))
        }
        Event::TurnPlayed(e) => {
            let draw = match e.draw {
                Draw::Stock(card) => format!("drew {card} from the stock"),
                Draw::Discard(card) => format!("took {card} from the previous throw"),
            };
            format!("{} threw {} and {draw}", name(e.seat), cards(&e.thrown))
        }
        Event::StockReshuffled(e) => format!(
            "the stock ran out: {} cards of the pile became the new stock (reshuffle {})",
            e.cards, e.reshuffle
        ),
        Event::SlappedDown(e) => format!("{} slapped {} down", name(e.seat), e.card),
        // The words never name the cards: a viewer who may not see them reads these too.
        Event::HandsShown(e) => format!(
            "the queen of diamonds: every other player shows {} their hand",
            name(e.to)
        ),
        Event::ForcedToDraw(e) => format!(
            "{} had to draw a card from the stock (a seven was thrown)",
            name(e.seat)
        ),
        Event::HandsRedealt(e) => format!(
            "a black eight: {} gathers the hands, shuffles and deals them again (re-deal {})",
            name(e.dealer),
            e.redeal
        ),
        Event::QueenSwapped(e) => format!(
            "a queen: {} passes {} a card and takes one from their hand, blindly",
            name(e.seat),
            name(e.target)
        ),
        Event::WaterfallStarted(e) => format!(
            "{} starts a waterfall: a straight of {} cards passed to {}",
            name(e.seat),
            e.cards.len(),
            name(e.to)
        ),
        Event::PileKilled(e) => format!(
            "{} lays the five of diamonds on the pile of {}-card throws: it is dead for the round",
            name(e.seat),
            e.size
        ),
        Event::WaterfallPicked(e) => format!(
            "{} keeps a card of the waterfall and passes {} to {}",
            name(e.seat),
            match e.passed.len() {
                1 => "the last one".to_owned(),
                n => format!("{n} cards"),
            },
            name(e.to)
        ),
        Event::PinataSetAside(_) => {
            "a three: the top card of the stock is set aside, face down (the piñata)".to_owned()
        }
        Event::PinataTaken(e) => {
            format!("{} threw the next three and takes the piñata", name(e.seat))
        }
        Event::AddedOn(e) => format!(
            "{} added {} onto the top throw",
            name(e.seat),
            cards(&e.cards)
        ),
        Event::Called(e) => {
            let word = match e.call {
                CallKind::Yaniv => "yaniv",
                CallKind::Kluft => "kluft",
            };
            format!("{} called {word}", name(e.seat))
        }
        Event::WentAlong(e) if e.going => format!("{} goes along", name(e.seat)),
        Event::WentAlong(e) => format!("{} does not go along", name(e.seat)),
        Event::OnderkluftDeclared(e) if e.challenged => {
            format!("{} challenges the call (onderkluft)", name(e.seat))
        }
        Event::OnderkluftDeclared(e) => format!("{} does not challenge", name(e.seat)),
        Event::RoundEnded(e) => {
            let outcome = match e.outcome {
                Outcome::Yaniv => "the call succeeded",
                Outcome::Assaf => "assaf: the call failed",
                Outcome::FalseCall => "a call above the threshold, penalised",
                Outcome::EmptyHand => "a hand emptied",
                Outcome::Kluft => "the kluft caller won",
                Outcome::Onderkluft => "a challenger won",
            };
            let mut words = format!("round {} over: {outcome}", e.round);
            if let Some(caller) = e.caller {
                words += &format!(", caller {}", name(caller));
            }
            if let Some(winner) = e.winner {
                words += &format!(", winner {}", name(winner));
            }
            let totals: Vec<String> = e
                .totals
                .iter()
                .enumerate()
                .map(|(seat, total)| {
                    let seat = Seat::try_from(seat).unwrap_or(Seat::MAX);
                    format!("{} {total}", name(seat))
                })
                .collect();
            words + &format!("; totals {}", totals.join(", "))
        }
        Event::GameFinished(e) => {
            let standings: Vec<String> = e
                .standings
                .iter()
                .map(|s| format!("{}. {} ({})", s.place, name(s.seat), s.total))
                .collect();
            format!("the game is over: {}", standings.join(", "))
        }
    }
}

fn cards(cards: &Cards) -> String {
    cards
        .iter()
        .map(|c| c.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{AddedOn, Called, TurnPlayed, WentAlong};

    fn names() -> Vec<String> {
        ["ann", "bob"].map(String::from).to_vec()
    }

    fn hand(cards: &[&str]) -> Cards {
        cards.iter().map(|c| c.parse().expect("a card")).collect()
    }

    #[test]
    fn actions_read_as_sentences() {
        let turn = Event::TurnPlayed(TurnPlayed {
            seat: 1,
            thrown: hand(&["QS", "QD"]),
            draw: Draw::Stock("3C".parse().expect("a card")),
        });
        assert_eq!(
            describe(&turn, &names()),
            "bob threw QS QD and drew 3C from the stock"
        );
        let take = Event::TurnPlayed(TurnPlayed {
            seat: 0,
            thrown: hand(&["9S"]),
            draw: Draw::Discard("QS".parse().expect("a card")),
        });
        assert_eq!(
            describe(&take, &names()),
            "ann threw 9S and took QS from the previous throw"
        );
        let add = Event::AddedOn(AddedOn {
            seat: 0,
            cards: hand(&["QH"]),
        });
        assert_eq!(describe(&add, &names()), "ann added QH onto the top throw");
        let call = Event::Called(Called {
            seat: 1,
            call: CallKind::Yaniv,
        });
        assert_eq!(describe(&call, &names()), "bob called yaniv");
        let along = Event::WentAlong(WentAlong {
            seat: 7,
            going: false,
        });
        assert_eq!(describe(&along, &names()), "seat 7 does not go along");
    }

    /// Every event of whole games reads as a sentence naming its actor.
    #[test]
    fn every_event_of_a_game_has_words() {
        use crate::bots::BotKind;
        use crate::rules::Preset;
        use crate::sim::{SimOptions, Simulator, make_bots, player_names};
        for preset in Preset::ALL {
            let mut simulator = Simulator::new(SimOptions {
                record: true,
                ..SimOptions::default()
            });
            let mut bots = make_bots(BotKind::Greedy, 3, 4);
            let summary = simulator
                .play(&preset.rules(), 3, 4, &mut bots)
                .expect("the bots finish");
            let players = player_names(3);
            for event in summary.log.expect("recorded") {
                let words = describe(&event, &players);
                assert!(!words.is_empty());
                if let Some(seat) = event.actor() {
                    assert!(words.starts_with(&players[usize::from(seat)]), "{words}");
                }
                if let Event::RoundEnded(e) = &event {
                    assert!(
                        words.contains(&format!("round {} over", e.round)),
                        "{words}"
                    );
                }
            }
        }
    }
}
