//! What changed in a game between two of its states ([`diff`]): per seat the cards
//! gained and lost, hand sizes and hand totals, scores; the stock, the top throw, the
//! round, its stage and whose turn it is. A referee reads it instead of comparing two
//! whole tables.

use serde::Serialize;

use crate::cards::{Card, Cards, Hand};

use super::event::Seat;
use super::seat_view::RoundStage;
use super::state::Game;

/// The change from `before` to `after` (see [`diff`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct GameDiff {
    /// The round in play (or the last one); 0 before the first deal.
    pub round_before: u32,
    pub round_after: u32,
    pub stage_before: RoundStage,
    pub stage_after: RoundStage,
    /// Who had to act (throw or call, or declare).
    pub to_act_before: Option<Seat>,
    pub to_act_after: Option<Seat>,
    pub stock_before: usize,
    pub stock_after: usize,
    /// `stock_after - stock_before`.
    pub stock_change: i64,
    /// The throw on top of the discard pile, bottom first.
    pub top_throw_before: Cards,
    pub top_throw_after: Cards,
    /// One entry per seat, in seat order.
    pub seats: Vec<SeatDiff>,
}

/// What changed for one seat.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SeatDiff {
    pub seat: Seat,
    /// The seat's player name (empty before the game starts).
    pub name: String,
    /// Cards in the hand after that were not in it before (a new deal counts: the
    /// hands of two rounds are compared as they are).
    pub gained: Vec<Card>,
    /// Cards in the hand before that are not in it after.
    pub lost: Vec<Card>,
    pub hand_size_before: usize,
    pub hand_size_after: usize,
    pub hand_total_before: u32,
    pub hand_total_after: u32,
    /// The game score (total) before and after, and `total_after - total_before`.
    pub total_before: u32,
    pub total_after: u32,
    pub total_change: i64,
    pub eliminated_before: bool,
    pub eliminated_after: bool,
    /// Whether anything above changed for this seat.
    pub changed: bool,
}

/// What changed from `before` to `after`, two states of the same game (`before` may be
/// an earlier one, or the empty game before the first event).
pub fn diff(before: &Game, after: &Game) -> GameDiff {
    let seats = before.seat_count().max(after.seat_count());
    let seats = (0..seats)
        .filter_map(|s| Seat::try_from(s).ok())
        .map(|seat| seat_diff(before, after, seat))
        .collect();
    GameDiff {
        round_before: before.round_number(),
        round_after: after.round_number(),
        stage_before: before.round_stage(),
        stage_after: after.round_stage(),
        to_act_before: before.to_act(),
        to_act_after: after.to_act(),
        stock_before: before.stock_len(),
        stock_after: after.stock_len(),
        stock_change: signed(after.stock_len()) - signed(before.stock_len()),
        top_throw_before: before.top_throw(),
        top_throw_after: after.top_throw(),
        seats,
    }
}

fn seat_diff(before: &Game, after: &Game, seat: Seat) -> SeatDiff {
    let (hand_before, hand_after) = (before.hand(seat), after.hand(seat));
    let hand_total = |game: &Game, hand: &Hand| {
        game.rules()
            .map_or(0, |rules| rules.hand_total(hand.as_slice()))
    };
    let total = |game: &Game| game.totals().get(seat as usize).copied().unwrap_or(0);
    let name = after
        .players()
        .get(seat as usize)
        .or_else(|| before.players().get(seat as usize))
        .cloned()
        .unwrap_or_default();
    let gained = minus(hand_after, hand_before);
    let lost = minus(hand_before, hand_after);
    let (total_before, total_after) = (total(before), total(after));
    let eliminated = |game: &Game| game.is_eliminated(seat);
    let changed = !gained.is_empty()
        || !lost.is_empty()
        || total_before != total_after
        || eliminated(before) != eliminated(after);
    SeatDiff {
        seat,
        name,
        gained,
        lost,
        hand_size_before: hand_before.len(),
        hand_size_after: hand_after.len(),
        hand_total_before: hand_total(before, hand_before),
        hand_total_after: hand_total(after, hand_after),
        total_before,
        total_after,
        total_change: i64::from(total_after) - i64::from(total_before),
        eliminated_before: eliminated(before),
        eliminated_after: eliminated(after),
        changed,
    }
}

/// The cards of `from` left once each card of `take` is removed once (multisets: with
/// two decks a card can be held twice).
fn minus(from: &Hand, take: &Hand) -> Vec<Card> {
    let mut left: Vec<Card> = from.iter().collect();
    for card in take.iter() {
        if let Some(at) = left.iter().position(|&c| c == card) {
            left.remove(at);
        }
    }
    left
}

fn signed(n: usize) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bots::BotKind;
    use crate::game::{Draw, Event};
    use crate::rules::Preset;

    fn bots_game(preset: Preset, players: usize, seed: u64) -> Vec<Event> {
        crate::sim::bots_game(BotKind::Greedy, &preset.rules(), players, seed)
    }

    fn card(s: &str) -> Card {
        s.parse().expect("a card")
    }

    #[test]
    fn a_turn_moves_its_cards_and_passes_the_turn() {
        let events = bots_game(Preset::Israeli, 3, 5);
        let at = events
            .iter()
            .position(|e| matches!(e, Event::TurnPlayed(_)))
            .expect("a turn");
        let Event::TurnPlayed(turn) = &events[at] else {
            unreachable!("found above")
        };
        let before = Game::from_events(&events[..at]);
        let after = Game::from_events(&events[..=at]);
        let d = diff(&before, &after);
        assert_eq!((d.round_before, d.round_after), (1, 1));
        assert_eq!(d.to_act_before, Some(turn.seat));
        assert_eq!(d.to_act_after, after.to_act());
        assert_ne!(d.to_act_after, d.to_act_before);
        assert_eq!(d.top_throw_before, before.top_throw());
        assert_eq!(d.top_throw_after, turn.thrown);
        let stock_draw = matches!(turn.draw, Draw::Stock(_));
        assert_eq!(d.stock_change, if stock_draw { -1 } else { 0 });
        assert_eq!(d.seats.len(), 3);
        for seat in &d.seats {
            if seat.seat == turn.seat {
                assert!(seat.changed);
                let mut lost = seat.lost.clone();
                lost.sort_unstable();
                let mut thrown: Vec<Card> = turn.thrown.iter().collect();
                thrown.sort_unstable();
                // One deck: the card drawn is never one of those thrown.
                assert_eq!(lost, thrown);
                assert_eq!(seat.gained, vec![turn.draw.card()]);
                assert_eq!(
                    seat.hand_size_after + turn.thrown.len(),
                    seat.hand_size_before + 1
                );
                assert_eq!(seat.name, after.players()[turn.seat as usize]);
            } else {
                assert!(!seat.changed, "{seat:?}");
                assert!(seat.gained.is_empty() && seat.lost.is_empty());
                assert_eq!(seat.hand_total_before, seat.hand_total_after);
            }
            assert_eq!(seat.total_change, 0);
        }
        assert_eq!(
            diff(&after, &after)
                .seats
                .iter()
                .filter(|s| s.changed)
                .count(),
            0
        );
    }

    #[test]
    fn a_round_end_changes_the_scores() {
        let events = bots_game(Preset::Israeli, 3, 9);
        let end = events
            .iter()
            .position(|e| matches!(e, Event::RoundEnded(_)))
            .expect("a round ends");
        let Event::RoundEnded(ended) = &events[end] else {
            unreachable!("found above")
        };
        let before = Game::from_events(&events[..end]);
        let after = Game::from_events(&events[..=end]);
        let d = diff(&before, &after);
        assert_eq!(d.stage_before, RoundStage::Playing);
        assert_eq!(d.stage_after, RoundStage::BetweenRounds);
        assert_eq!(d.to_act_after, None);
        for seat in &d.seats {
            let total = ended.totals[seat.seat as usize];
            assert_eq!(seat.total_after, total);
            assert_eq!(
                seat.total_change,
                i64::from(total) - i64::from(before.totals()[seat.seat as usize])
            );
        }
        assert!(d.seats.iter().any(|s| s.total_change != 0));
    }

    #[test]
    fn the_empty_game_before_everything() {
        let events = bots_game(Preset::Belgian, 4, 2);
        let dealt = events
            .iter()
            .position(|e| matches!(e, Event::RoundDealt(_)))
            .expect("a deal");
        let after = Game::from_events(&events[..=dealt]);
        let d = diff(&Game::new(), &after);
        assert_eq!((d.round_before, d.round_after), (0, 1));
        assert_eq!(d.seats.len(), 4);
        for seat in &d.seats {
            assert_eq!(seat.hand_size_before, 0);
            assert_eq!(seat.gained.len(), after.hand(seat.seat).len());
            assert!(seat.changed);
        }
        assert_eq!(d.stock_change, signed(after.stock_len()));
    }

    #[test]
    fn hands_are_compared_as_multisets() {
        let pair = Cards::from_iter([card("QS"), card("QS"), card("2H")]);
        let one = Cards::from_iter([card("QS"), card("5D")]);
        let (pair, one) = (Hand::from(pair), Hand::from(one));
        assert_eq!(minus(&pair, &one), vec![card("QS"), card("2H")]);
        assert_eq!(minus(&one, &pair), vec![card("5D")]);
    }
}
