//! A record replayed step by step, for a referee who steps through a game on paper or
//! from another server the way the replay viewer steps through a stored table: the game
//! after every event the rules decided, every hand shown, and where a faulty record
//! stops.
//!
//! A step is one engine event (`game_created.v1` is step 1), so the steps number like a
//! table's versions, and the record's own numbering (round and action, from 1) is
//! given beside each.

use serde::Serialize;

use crate::cards::{Cards, Hand};
use crate::game::{DiscardPile, Event, Game, Seat, describe, discard_pile};

use super::error::RecordError;
use super::format::GameRecord;
use super::import::replay_until_problem;
use super::position::{RecordPosition, positions};
use super::result::ReplayResult;

/// Every step of a record's replay, up to its first problem.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct RecordSteps {
    /// The record's players, in seat order.
    pub players: Vec<String>,
    /// The game after each event the rules decided, in order.
    pub steps: Vec<RecordStep>,
    /// Each round's discard pile as it stood after the last step replayed in that
    /// round; its versions are step numbers, so a viewer shows the throws (and what was
    /// laid on or taken from them) up to the step it shows.
    pub discard_piles: Vec<DiscardPile>,
    /// The first problem (a `yaniv-error/1` document: 0-based `round` and `action`,
    /// `code`, `message`); `null` when the whole record replays. The steps end right
    /// before it.
    #[cfg_attr(
        feature = "openapi",
        schema(value_type = Option<crate::record::error::RecordErrorDocument>)
    )]
    pub problem: Option<RecordError>,
    /// The `yaniv-result/1` result; `null` when the record has a problem.
    pub result: Option<ReplayResult>,
}

/// The game right after one event.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct RecordStep {
    /// 1 for `game_created.v1`, then one per event.
    pub step: u64,
    /// The event's type (`round_dealt.v1`, `turn_played.v1`, ...).
    pub event: String,
    /// The event in words, every card named.
    pub summary: String,
    /// The record's last action at this step (round and action, from 1); `null` before
    /// a round's first action.
    pub position: Option<RecordPosition>,
    /// The round dealt last (0 before the first deal).
    pub round: u32,
    /// Every seat's hand.
    pub hands: Vec<Hand>,
    /// Every seat's hand counted by the rules.
    pub hand_totals: Vec<u32>,
    /// Cards left in the stock.
    pub stock_size: usize,
    /// The throw on top of the discard pile.
    pub top_throw: Cards,
    /// Every seat's game total.
    pub totals: Vec<u32>,
    /// The seat the game waits on; `null` between rounds and once it is over.
    pub to_act: Option<Seat>,
}

/// Replays `record` and keeps the game after every event.
pub fn record_steps(record: &GameRecord) -> RecordSteps {
    let (outcome, problem) = replay_until_problem(record);
    let events = &outcome.events;
    let players = record.players.clone();
    let after_each = positions(events);
    let mut game = Game::new();
    let mut steps = Vec::with_capacity(events.len());
    for ((index, event), position) in events.iter().enumerate().zip(after_each) {
        game.apply(event);
        steps.push(step_after(
            &game,
            event,
            index as u64 + 1,
            position,
            &players,
        ));
    }
    RecordSteps {
        players,
        steps,
        discard_piles: round_piles(events),
        result: problem.is_none().then_some(outcome.result),
        problem,
    }
}

fn step_after(
    game: &Game,
    event: &Event,
    step: u64,
    position: Option<RecordPosition>,
    players: &[String],
) -> RecordStep {
    let seats = 0..players.len() as Seat;
    let hands: Vec<Hand> = seats.map(|seat| game.hand(seat).clone()).collect();
    let hand_totals = match game.rules() {
        Some(rules) => hands
            .iter()
            .map(|h| rules.hand_total(h.as_slice()))
            .collect(),
        None => vec![0; hands.len()],
    };
    RecordStep {
        step,
        event: event.type_name().to_owned(),
        summary: describe(event, players),
        position,
        round: game.round_number(),
        hands,
        hand_totals,
        stock_size: game.stock_len(),
        top_throw: game.top_throw(),
        totals: game.totals().to_vec(),
        to_act: game.to_act(),
    }
}

/// The discard pile of each round, at the round's last event among `events`.
fn round_piles(events: &[Event]) -> Vec<DiscardPile> {
    let numbered: Vec<(u64, &Event)> = (1..).zip(events).collect();
    let deals: Vec<usize> = events
        .iter()
        .enumerate()
        .filter(|(_, e)| matches!(e, Event::RoundDealt(_)))
        .map(|(index, _)| index)
        .collect();
    let ends = deals.iter().skip(1).copied().chain([events.len()]);
    ends.filter_map(|end| discard_pile(numbered[..end].iter().copied()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bots::BotKind;
    use crate::record::{Act, export};
    use crate::rules::Preset;

    fn bots_record(preset: Preset, players: usize, seed: u64) -> (Vec<Event>, GameRecord) {
        let events = crate::sim::bots_game(BotKind::Greedy, &preset.rules(), players, seed);
        let record = export(&events).expect("exports");
        (events, record)
    }

    #[test]
    fn every_event_of_a_clean_record_is_a_step_showing_the_game_after_it() {
        let (events, record) = bots_record(Preset::Israeli, 3, 21);
        let walked = record_steps(&record);
        assert!(walked.problem.is_none());
        assert!(walked.result.as_ref().is_some_and(|r| r.finished));
        assert_eq!(walked.steps.len(), events.len());
        let mut game = Game::new();
        for (event, step) in events.iter().zip(&walked.steps) {
            game.apply(event);
            assert_eq!(step.event, event.type_name());
            assert_eq!(step.stock_size, game.stock_len(), "step {}", step.step);
            assert_eq!(step.top_throw, game.top_throw(), "step {}", step.step);
            assert_eq!(step.totals, game.totals(), "step {}", step.step);
            for (seat, hand) in step.hands.iter().enumerate() {
                assert_eq!(hand, game.hand(seat as Seat), "step {}", step.step);
            }
        }
        let rounds = events
            .iter()
            .filter(|e| matches!(e, Event::RoundDealt(_)))
            .count();
        assert_eq!(walked.discard_piles.len(), rounds);
        for (number, pile) in (1..).zip(&walked.discard_piles) {
            assert_eq!(pile.round, number);
            assert!(pile.ended_at.is_some(), "round {number} is over");
        }
    }

    /// A record whose second round opens with a throw of a card dealt to the other
    /// player: the steps go as far as that round's deal, and the problem names the
    /// action.
    #[test]
    fn a_faulty_record_is_stepped_through_up_to_its_problem() {
        let (events, mut record) = bots_record(Preset::Israeli, 2, 5);
        assert!(
            record.rounds.len() >= 2,
            "the bots play two rounds at least"
        );
        let round = &mut record.rounds[1];
        let starter = round.actions[0].player.clone();
        let (_, other_hand) = round
            .hands
            .iter()
            .find(|(name, _)| *name != starter)
            .expect("two players are dealt");
        let not_held = other_hand[0].clone();
        let Act::Play { throw, .. } = &mut round.actions[0].act else {
            panic!("a round opens with a turn")
        };
        throw[0] = not_held;
        let walked = record_steps(&record);
        let problem = walked.problem.expect("the rules refuse the forged throw");
        assert_eq!((problem.round, problem.action), (Some(1), Some(0)));
        assert!(walked.result.is_none());
        let last = walked.steps.last().expect("steps before the problem");
        assert_eq!((last.event.as_str(), last.round), ("round_dealt.v1", 2));
        assert_eq!(last.position, None, "no action of round 2 replayed");
        assert!(walked.steps.len() < events.len());
        assert_eq!(walked.discard_piles.len(), 2);
        assert_eq!(walked.discard_piles[1].ended_at, None);
        assert_eq!(walked.discard_piles[1].throws.len(), 1, "the up card only");
    }

    #[test]
    fn a_record_refused_before_any_event_has_no_step() {
        let (_, mut record) = bots_record(Preset::Israeli, 2, 5);
        record.players[1] = record.players[0].clone();
        let walked = record_steps(&record);
        assert!(walked.problem.is_some());
        assert!(walked.steps.is_empty());
        assert!(walked.discard_piles.is_empty());
    }
}
