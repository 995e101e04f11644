//! [`StandIn`]: the move the server makes for a seat whose clock ran out, and for a
//! seat marked absent. It is one fixed move, not a strategy, so that anyone replaying
//! the table derives the same one:
//!
//! - in its turn it throws the single card that scores most in its hand (ties go to the
//!   higher rank, then to the later suit in the order clubs, diamonds, hearts, spades)
//!   and draws the unseen top of the stock; with an empty stock it draws the first card
//!   of the previous throw that may be drawn;
//! - it never calls, never goes along (Belgian) and never challenges (Kluft);
//! - it never lays a card out of turn.
//!
//! Throwing the highest card is what a cautious player does when they cannot think: it
//! lowers the hand the most and tells the table nothing a normal throw does not.

use crate::cards::Cards;
use crate::game::{Command, DrawChoice};

use super::{Bot, BotView};

/// The stand-in of an absent or timed-out seat (see the module docs).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct StandIn;

impl Bot for StandIn {
    fn act(&mut self, view: &BotView<'_>) -> Option<Command> {
        let seat = view.seat();
        if let Some(declaration) = view.owed_declaration() {
            return Some(declaration.command(seat, false));
        }
        if !view.is_my_turn() {
            return None;
        }
        let rules = view.rules()?;
        let card = view
            .hand()
            .iter()
            .max_by_key(|&card| (rules.value(card), card.rank(), card.suit_index()))?;
        let throw = Cards::from_slice(&[card]).ok()?;
        let draw = if view.can_draw_from_stock() {
            DrawChoice::Stock
        } else {
            DrawChoice::Discard(view.discard_draws().first()?)
        };
        Some(Command::Play { seat, throw, draw })
    }

    fn out_of_turn(&mut self, _view: &BotView<'_>) -> Option<Command> {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::{card, cards};
    use crate::game::{DealSource, Game, RoundStage};
    use crate::rules::Preset;

    fn dealt(preset: Preset, hands: &[&str], up: &str) -> Game {
        let mut game = Game::new();
        game.execute(&Command::Create {
            rules: preset.rules(),
            players: (0..hands.len()).map(|i| format!("p{i}")).collect(),
            initial_totals: vec![],
        })
        .expect("create");
        game.execute(&Command::Deal {
            starter: Some(0),
            source: DealSource::Explicit {
                hands: hands.iter().map(|h| cards(h)).collect(),
                up_card: card(up),
            },
        })
        .expect("deal");
        game
    }

    #[test]
    fn in_its_turn_it_throws_the_highest_scoring_card_and_draws_from_the_stock() {
        // House rules: the king of hearts scores 0, so the queen is the highest card,
        // and between the two queens the later suit (spades) goes.
        let game = dealt(Preset::House, &["KH QD QS 3C AD", "2C 2D 4H 5S 6S"], "9C");
        let command = StandIn.act(&BotView::new(&game, 0));
        assert_eq!(
            command,
            Some(Command::Play {
                seat: 0,
                throw: cards("QS"),
                draw: DrawChoice::Stock,
            })
        );
        game.decide(&command.unwrap()).expect("the rules accept it");
    }

    #[test]
    fn it_never_calls_even_when_it_could() {
        let game = dealt(
            Preset::Israeli,
            &["AC AD AH JK 2H", "KC QC JC 10C 9C"],
            "8D",
        );
        assert!(BotView::new(&game, 0).can_call(), "a call is legal here");
        let Some(Command::Play { throw, .. }) = StandIn.act(&BotView::new(&game, 0)) else {
            panic!("the stand-in must throw");
        };
        assert_eq!(throw, cards("2H"));
    }

    #[test]
    fn it_declines_every_declaration_and_lays_nothing_out_of_turn() {
        let mut game = dealt(
            Preset::Belgian,
            &["AC AD AH JK 2H", "KC QC JC 10C 9C", "KD QD JD 10D 9D"],
            "8D",
        );
        game.execute(&Command::Call {
            seat: 0,
            call: crate::game::CallKind::Yaniv,
        })
        .expect("seat 0 calls");
        // The others' last turns, then the declarations.
        for seat in [1, 2] {
            let command = StandIn
                .act(&BotView::new(&game, seat))
                .expect("a last turn");
            game.execute(&command).expect("accepted");
        }
        assert_eq!(game.round_stage(), RoundStage::GoingAlong);
        let seat = game.to_act().expect("someone declares");
        assert_eq!(
            StandIn.act(&BotView::new(&game, seat)),
            Some(Command::GoAlong { seat, going: false })
        );
        assert_eq!(StandIn.out_of_turn(&BotView::new(&game, 1)), None);
    }
}
