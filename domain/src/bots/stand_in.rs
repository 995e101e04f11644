//! [`StandIn`]: the move the server makes for a seat whose clock ran out, and for a
//! seat marked absent. It is one fixed move, not a strategy, so that anyone replaying
//! the table derives the same one:
//!
//! - in its turn it calls when the rules allow a call and its hand is at or below the
//!   call threshold (never a call above it, which a penalty follows);
//! - otherwise it throws the legal combination worth the most points (ties go to the
//!   one with more cards, then to the first in the engine's listing order) and draws
//!   the unseen top of the stock; with an empty stock it draws the first card of the
//!   previous throw that may be drawn;
//! - it never goes along (Belgian) and never challenges (Kluft);
//! - it never lays a card out of turn.
//!
//! The throw lowers the hand the most and tells the table nothing a normal throw does
//! not; the call keeps a table whose every player is gone moving to its end.

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
        if let Some(card) = view.lowest_of_offer() {
            return Some(Command::WaterfallPick { seat, card });
        }
        if !view.is_my_turn() {
            return None;
        }
        let rules = view.rules()?;
        let within = rules
            .call_threshold
            .is_none_or(|limit| view.hand_total() <= u32::from(limit));
        if within && view.can_call() {
            return Some(Command::Call {
                seat,
                call: view.call_kind(),
            });
        }
        let mut best: Option<(u32, usize, Cards)> = None;
        view.for_each_throw(|throw| {
            let key = (rules.hand_total(throw.as_slice()), throw.len());
            if best.is_none_or(|(points, len, _)| key > (points, len)) {
                best = Some((key.0, key.1, *throw));
            }
        });
        let (_, _, throw) = best?;
        let draw = if view.can_draw_from_stock() {
            DrawChoice::Stock
        } else {
            DrawChoice::Discard(view.discard_draws_for(&throw).first()?)
        };
        let queen = view.default_queen_swap(&throw);
        Some(Command::play_with_queen(seat, throw, draw, queen))
    }

    fn out_of_turn(&mut self, _view: &BotView<'_>) -> Option<Command> {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bots::dealt;
    use crate::cards::cards;
    use crate::game::RoundStage;
    use crate::rules::Preset;

    #[test]
    fn in_its_turn_it_throws_the_combination_worth_most_and_draws_from_the_stock() {
        // House rules: the king of hearts scores 0, so the pair of queens (20) beats
        // a single queen and the king.
        let game = dealt(Preset::House, &["KH QD QS 3C AD", "2C 2D 4H 5S 6S"], "9C");
        let Some(Command::Play {
            seat, throw, draw, ..
        }) = StandIn.act(&BotView::new(&game, 0))
        else {
            panic!("the stand-in must throw");
        };
        assert_eq!(
            (seat, throw.sorted(), draw),
            (0, cards("QD QS").sorted(), DrawChoice::Stock)
        );
        game.decide(&Command::play(seat, throw, draw))
            .expect("the rules accept it");
    }

    #[test]
    fn it_calls_within_the_threshold_and_never_above_it() {
        let game = dealt(
            Preset::Israeli,
            &["AC AD AH JK 2H", "KC QC JC 10C 9C"],
            "8D",
        );
        assert_eq!(
            StandIn.act(&BotView::new(&game, 0)),
            Some(Command::Call {
                seat: 0,
                call: crate::game::CallKind::Yaniv,
            })
        );
        // Belgian rules accept a call above the threshold, with a penalty: the
        // stand-in throws instead.
        let game = dealt(
            Preset::Belgian,
            &["AC AD AH 3S 2H", "KC QC JC 10C 9C"],
            "8D",
        );
        assert!(BotView::new(&game, 0).can_call(), "a call is accepted here");
        assert!(matches!(
            StandIn.act(&BotView::new(&game, 0)),
            Some(Command::Play { .. })
        ));
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
