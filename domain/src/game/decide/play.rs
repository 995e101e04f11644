//! A turn: "throw one combination, then draw one card" (RULES.md common ground).

use crate::cards::{Card, Cards, Hand};
use crate::combos::classify;
use crate::rules::{BonusRule, Rules};

use super::super::command::{DrawChoice, QueenSwap};
use super::super::error::GameError;
use super::super::event::{Draw, Event, HandsShown, Seat, StockReshuffled, TurnPlayed};
use super::super::state::{Game, Stage};

/// What a record names for the bonus rules of a round dealt on paper, whose stock has
/// no order to decide it: the fields of the same names in `Command::Play`.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub(super) struct NamedByRecord<'a> {
    pub forced: &'a [Card],
    pub pinata: Option<Card>,
    pub redealt: &'a [Hand],
    pub queen_taken: Option<Card>,
}

impl NamedByRecord<'_> {
    fn is_empty(&self) -> bool {
        self.forced.is_empty()
            && self.pinata.is_none()
            && self.redealt.is_empty()
            && self.queen_taken.is_none()
    }
}

/// Whether `throw` sets off a bonus rule that acts within the turn: Crazy queens (a
/// queen), Sevens (a seven), Piñata (a three), Double-edged sword (a black eight) or Spy
/// (the queen of diamonds). Jokers set off none of them.
fn sets_off_turn_bonus(rules: &Rules, throw: &Cards) -> bool {
    !rules.bonus_rules.is_empty()
        && throw.iter().any(|card| match card.rank() {
            12 => {
                rules.has_bonus(BonusRule::CrazyQueens)
                    || card == Card::QUEEN_OF_DIAMONDS && rules.has_bonus(BonusRule::Spy)
            }
            7 => rules.has_bonus(BonusRule::Sevens),
            3 => rules.has_bonus(BonusRule::Pinata),
            8 => card.suit_index() % 3 == 0 && rules.has_bonus(BonusRule::DoubleEdgedSword),
            _ => false,
        })
}

impl Game {
    /// This game with `events` folded: what the bonus rules decide the rest of a turn
    /// against, once its first events are known.
    pub(super) fn folded_with(&self, events: &[Event]) -> Game {
        let mut after = self.clone();
        for event in events {
            after.apply(event);
        }
        after
    }

    /// Appends, and folds, the reshuffle of a stock a bonus rule's draw just emptied
    /// (as after a turn's draw: the pile below the top throw becomes the stock).
    pub(super) fn reshuffle_if_emptied(&mut self, events: &mut Vec<Event>) {
        let below = self.round.piles.below_count();
        if self.round.stock.is_empty() && below > 0 {
            let event = Event::StockReshuffled(StockReshuffled {
                reshuffle: self.round.reshuffles + 1,
                cards: below as u32,
            });
            self.apply(&event);
            events.push(event);
        }
    }

    /// A turn's events, appended to `events` (untouched on refusal).
    pub(super) fn decide_play_into(
        &self,
        seat: Seat,
        throw: &Cards,
        draw: DrawChoice,
        queen: Option<QueenSwap>,
        named: NamedByRecord,
        events: &mut Vec<Event>,
    ) -> Result<(), GameError> {
        let rules = self.rules_in_round()?;
        self.check_seat(seat)?;
        let round = &self.round;
        if !matches!(round.stage, Stage::Playing | Stage::LastTurns { .. }) {
            return Err(GameError::WrongPhase(
                "the turns are over; declarations are being taken",
            ));
        }
        if seat != round.turn {
            return Err(GameError::NotYourTurn {
                expected: round.turn,
            });
        }
        let hand = &round.hands[seat as usize];
        if let Some(card) = hand.first_missing(throw.as_slice()) {
            return Err(GameError::CardNotInHand { card });
        }
        classify(throw.as_slice(), rules).map_err(GameError::IllegalThrow)?;
        let pile = rules.pile_for(throw.len());
        if round.piles.get(pile).is_some_and(|p| p.dead) {
            return Err(GameError::PileDead { size: pile });
        }
        let draw = match draw {
            DrawChoice::Stock => {
                let card = round.stock.last().ok_or_else(|| {
                    GameError::CardNotAvailable("the stock is empty: draw from the discard".into())
                })?;
                Draw::Stock(*card)
            }
            DrawChoice::StockCard(card) => {
                let available = if round.stock_ordered {
                    round.stock.last() == Some(&card)
                } else {
                    round.stock.contains(&card)
                };
                if !available {
                    return Err(GameError::CardNotAvailable(if round.stock_ordered {
                        format!("{card} is not the top card of the stock")
                    } else {
                        format!(
                            "{card} cannot be in the stock: every copy is accounted for elsewhere"
                        )
                    }));
                }
                Draw::Stock(card)
            }
            DrawChoice::Discard(card) => {
                if self.discard_source(card, throw).is_none() {
                    return Err(GameError::IllegalDraw {
                        card,
                        reason: if rules.several_piles() {
                            "is not a card this throw may draw: the previous throw on its own \
                             pile (Cell Division) or on any pile (Osmosis)"
                        } else {
                            "is not a card of the previous throw that may be drawn"
                        },
                    });
                }
                Draw::Discard(card)
            }
        };
        let turn = events.len();
        let played = Event::TurnPlayed(TurnPlayed {
            seat,
            thrown: *throw,
            draw,
        });
        // "When the stock is empty, the discard pile except the last throw is shuffled into
        // a new stock": done as soon as a draw empties it. With several piles, every
        // live pile's cards below its top throw.
        let stock_left = round.stock.len() - usize::from(matches!(draw, Draw::Stock(_)));
        let below = if stock_left == 0 {
            let drawn_from = match draw {
                Draw::Discard(card) => Some(self.drawn_from(card, throw)),
                Draw::Stock(_) => None,
            };
            round.piles.below_count_after_throw(pile, drawn_from)
        } else {
            0
        };
        events.push(played);
        if below > 0 {
            events.push(Event::StockReshuffled(StockReshuffled {
                reshuffle: round.reshuffles + 1,
                cards: below as u32,
            }));
        }
        self.push_played_card_effects(seat, throw, queen, named, events, turn)
    }

    /// Appends what the bonus rules do when `seat` has just played `throw` (a turn's
    /// throw, or a slapped card), after the play's own events `events[turn..]`, in the
    /// order of docs/rules.md ("Order within a turn"). On refusal `events` is cut back
    /// to `turn`.
    #[inline]
    pub(super) fn push_played_card_effects(
        &self,
        seat: Seat,
        throw: &Cards,
        queen: Option<QueenSwap>,
        named: NamedByRecord,
        events: &mut Vec<Event>,
        turn: usize,
    ) -> Result<(), GameError> {
        let Some(rules) = self.rules.as_deref() else {
            return Err(GameError::NotCreated);
        };
        // Most turns set off no bonus rule: they skip the chain below, which hands a
        // whole game from rule to rule and cost a third of the engine's speed.
        if named.is_empty() && queen.is_none() && !sets_off_turn_bonus(rules, throw) {
            return Ok(());
        }
        self.push_bonus_effects(seat, throw, queen, named, events, turn)
    }

    /// [`Game::push_played_card_effects`] for a play that sets off a bonus rule (or
    /// names something for one).
    #[inline(never)]
    fn push_bonus_effects(
        &self,
        seat: Seat,
        throw: &Cards,
        queen: Option<QueenSwap>,
        named: NamedByRecord,
        events: &mut Vec<Event>,
        turn: usize,
    ) -> Result<(), GameError> {
        let after = self
            .push_queen_swap(seat, throw, queen, named.queen_taken, events, turn)
            .and_then(|after| {
                self.push_forced_draws(seat, throw, named.forced, events, turn, after)
            })
            .and_then(|after| self.push_pinata(seat, throw, named.pinata, events, turn, after))
            .and_then(|after| self.push_redeal(seat, throw, named.redealt, events, turn, after));
        let after = match after {
            Ok(after) => after,
            Err(refused) => {
                events.truncate(turn);
                return Err(refused);
            }
        };
        // Spy: "When a player plays the queen of diamonds, every other player must show
        // him their cards." After a queen's swap (Crazy queens), the draws a run with a seven forced (Sevens), the
        // piñata a three took and a re-deal (Double-edged sword).
        let spy = self
            .rules
            .as_deref()
            .is_some_and(|r| r.has_bonus(BonusRule::Spy));
        if spy && throw.contains(Card::QUEEN_OF_DIAMONDS) {
            let hands_now = &after.as_ref().unwrap_or(self).round.hands;
            let hands = (0..self.seat_count())
                .map(|other| {
                    let other = other as Seat;
                    (other != seat && !self.is_eliminated(other))
                        .then(|| hands_now[other as usize].clone())
                })
                .collect();
            events.push(Event::HandsShown(HandsShown { to: seat, hands }));
        }
        Ok(())
    }
}
