//! A record's numbering of actions, mapped to a game's events and back. A record counts
//! rounds from 1 in the order they were dealt, and the actions of a round from 1 in the
//! order they happened (the JSON arrays `rounds` and `actions`, counted from 1). An
//! action is an event with an actor ([`Event::actor`]): exactly the events
//! [`super::export`] writes as actions. The round in play counts too, although an
//! export leaves it out until it is over.

use serde::{Deserialize, Serialize};

use crate::game::Event;

/// Where an action stands in a record: its round and its place in the round's
/// actions, both from 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct RecordPosition {
    /// 1 for the first round dealt.
    pub round: usize,
    /// 1 for the round's first action.
    pub action: usize,
}

/// A position that no action of the game holds.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    #[error("round {round} was not dealt: rounds count from 1 and {dealt} were dealt")]
    NoSuchRound { round: usize, dealt: usize },
    #[error(
        "action {action} is not in round {round}: actions count from 1 and the round has {actions}"
    )]
    NoSuchAction {
        round: usize,
        action: usize,
        actions: usize,
    },
}

/// The index in `events` of the action at `at`.
pub fn action_index(events: &[Event], at: RecordPosition) -> Result<usize, PositionError> {
    let mut dealt = 0;
    let mut actions = 0;
    for (index, event) in events.iter().enumerate() {
        if matches!(event, Event::RoundDealt(_)) {
            if dealt == at.round {
                break;
            }
            dealt += 1;
        } else if dealt == at.round && event.actor().is_some() {
            actions += 1;
            if actions == at.action {
                return Ok(index);
            }
        }
    }
    if at.round == 0 || at.round > dealt {
        let dealt = events
            .iter()
            .filter(|e| matches!(e, Event::RoundDealt(_)))
            .count();
        return Err(PositionError::NoSuchRound {
            round: at.round,
            dealt,
        });
    }
    Err(PositionError::NoSuchAction {
        round: at.round,
        action: at.action,
        actions,
    })
}

/// The position of the last action among `events`; `None` when no action has
/// happened since the last deal (or nothing was dealt yet).
pub fn last_position(events: &[Event]) -> Option<RecordPosition> {
    let round = events
        .iter()
        .filter(|e| matches!(e, Event::RoundDealt(_)))
        .count();
    let since_deal = events
        .iter()
        .rev()
        .take_while(|e| !matches!(e, Event::RoundDealt(_)));
    let action = since_deal.filter(|e| e.actor().is_some()).count();
    (round > 0 && action > 0).then_some(RecordPosition { round, action })
}

/// [`last_position`] after each of `events`, in one pass: what a viewer stepping
/// through a game shows beside each event.
pub fn positions(events: &[Event]) -> Vec<Option<RecordPosition>> {
    let mut round = 0;
    let mut action = 0;
    events
        .iter()
        .map(|event| {
            if matches!(event, Event::RoundDealt(_)) {
                round += 1;
                action = 0;
            } else if round > 0 && event.actor().is_some() {
                action += 1;
            }
            (action > 0).then_some(RecordPosition { round, action })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bots::BotKind;
    use crate::record::export;
    use crate::rules::Preset;

    fn bots_game(preset: Preset, players: usize, seed: u64) -> Vec<Event> {
        crate::sim::bots_game(BotKind::Greedy, &preset.rules(), players, seed)
    }

    /// Every action of the exported record is found at its position, and the event
    /// there is the one the export wrote it from; the way back gives the same position.
    #[test]
    fn positions_are_the_exported_records() {
        for preset in Preset::ALL {
            let events = bots_game(preset, 3, 11);
            let record = export(&events).expect("exports");
            let versions: Vec<u64> = (1..=events.len() as u64).collect();
            let versioned = crate::record::export_with_versions(&events, &versions)
                .expect("exports with versions");
            assert!(!record.rounds.is_empty());
            let after_each = positions(&events);
            for (index, position) in after_each.iter().enumerate() {
                assert_eq!(*position, last_position(&events[..=index]), "event {index}");
            }
            for (r, round) in versioned.rounds.iter().enumerate() {
                for (a, action) in round.actions.iter().enumerate() {
                    let at = RecordPosition {
                        round: r + 1,
                        action: a + 1,
                    };
                    let index = action_index(&events, at).expect("found");
                    assert_eq!(action.event_version, Some(index as u64 + 1), "{at:?}");
                    assert_eq!(last_position(&events[..=index]), Some(at));
                    assert_eq!(after_each[index], Some(at));
                }
                let past = RecordPosition {
                    round: r + 1,
                    action: round.actions.len() + 1,
                };
                assert_eq!(
                    action_index(&events, past),
                    Err(PositionError::NoSuchAction {
                        round: r + 1,
                        action: round.actions.len() + 1,
                        actions: round.actions.len(),
                    })
                );
            }
            let rounds = record.rounds.len();
            for round in [0, rounds + 1] {
                assert_eq!(
                    action_index(&events, RecordPosition { round, action: 1 }),
                    Err(PositionError::NoSuchRound {
                        round,
                        dealt: rounds
                    })
                );
            }
            assert!(matches!(
                action_index(
                    &events,
                    RecordPosition {
                        round: 1,
                        action: 0
                    }
                ),
                Err(PositionError::NoSuchAction { action: 0, .. })
            ));
        }
    }

    #[test]
    fn no_position_before_the_first_action_of_a_round() {
        let events = bots_game(Preset::Israeli, 2, 3);
        let dealt = events
            .iter()
            .position(|e| matches!(e, Event::RoundDealt(_)))
            .expect("a deal");
        assert_eq!(last_position(&events[..dealt]), None);
        assert_eq!(last_position(&events[..=dealt]), None);
        assert_eq!(
            last_position(&events[..=dealt + 1]),
            Some(RecordPosition {
                round: 1,
                action: 1
            })
        );
    }
}
