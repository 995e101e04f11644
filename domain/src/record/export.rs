//! Export: a game's events written as a record. Rules become the closest preset plus the
//! parameters that differ; each round gets its starter, the hands as dealt (folded from a
//! seeded deal, with the shuffle commitment and seed), the up card and one action per
//! action event. Only finished rounds are written: a round still being played is left out,
//! so every exported record replays to a game between rounds.

use serde_json::Value;

use crate::game::{Deal, Draw, Event, Game, Seat};
use crate::rules::{Overrides, Preset, RuleSpec, Rules};
use crate::shuffle::SHUFFLE_ALGORITHM;

use super::error::ExportError;
use super::format::{
    Act, ActionRecord, DrawRecord, GameRecord, RECORD_FORMAT, RoundRecord, ShuffleRecord,
};
use super::player_map::PlayerMap;

/// The record of the game of `events` (`game_created.v1` first), its finished rounds only.
pub fn export(events: &[Event]) -> Result<GameRecord, ExportError> {
    let Some(Event::GameCreated(created)) = events.first() else {
        return Err(ExportError::NotCreated);
    };
    let players = &created.players;
    let name = |seat: Seat| players.get(seat as usize).cloned().unwrap_or_default();
    let mut game = Game::new();
    let mut rounds = Vec::new();
    let mut current: Option<RoundRecord> = None;
    for (index, event) in events.iter().enumerate() {
        let unexpected = || ExportError::UnexpectedEvent {
            index,
            event: event.type_name(),
        };
        if index > 0 && matches!(event, Event::GameCreated(_)) {
            return Err(unexpected());
        }
        game.apply(event);
        let action = |act: Act| ActionRecord {
            player: name(event.actor().unwrap_or_default()),
            act,
        };
        let recorded = match event {
            Event::GameCreated(_) | Event::StockReshuffled(_) | Event::GameFinished(_) => None,
            Event::RoundDealt(e) => {
                if current.is_some() {
                    return Err(unexpected());
                }
                let shuffle = match &e.deal {
                    Deal::Explicit { .. } => None,
                    Deal::Shuffled { algorithm, .. } if algorithm != SHUFFLE_ALGORITHM => {
                        return Err(ExportError::UnknownAlgorithm {
                            index,
                            algorithm: algorithm.clone(),
                        });
                    }
                    Deal::Shuffled {
                        commitment, seed, ..
                    } => Some(ShuffleRecord {
                        commitment: commitment.to_hex(),
                        seed: seed.to_hex(),
                    }),
                };
                let hands = (0..players.len() as Seat)
                    .filter(|&seat| !game.is_eliminated(seat))
                    .map(|seat| {
                        (
                            name(seat),
                            game.hand(seat).iter().map(|c| c.to_string()).collect(),
                        )
                    })
                    .collect::<PlayerMap<Vec<String>>>();
                current = Some(RoundRecord {
                    starter: Some(name(e.starter)),
                    hands,
                    up_card: game
                        .top_throw()
                        .first()
                        .map(|c| c.to_string())
                        .unwrap_or_default(),
                    shuffle,
                    actions: Vec::new(),
                });
                None
            }
            Event::RoundEnded(_) => {
                rounds.push(current.take().ok_or_else(unexpected)?);
                None
            }
            Event::TurnPlayed(e) => Some(action(Act::Play {
                throw: strings(e.thrown.iter()),
                draw: match e.draw {
                    Draw::Stock(card) => DrawRecord::Stock(card.to_string()),
                    Draw::Discard(card) => DrawRecord::Discard(card.to_string()),
                },
            })),
            Event::SlappedDown(e) => Some(action(Act::Slap(e.card.to_string()))),
            Event::AddedOn(e) => Some(action(Act::Add(strings(e.cards.iter())))),
            Event::Called(e) => Some(action(Act::Call(e.call))),
            Event::WentAlong(e) => Some(action(Act::GoAlong(e.going))),
            Event::OnderkluftDeclared(e) => Some(action(Act::Onderkluft(e.challenged))),
        };
        if let Some(recorded) = recorded {
            current
                .as_mut()
                .ok_or_else(unexpected)?
                .actions
                .push(recorded);
        }
    }
    let initial_totals = (created.initial_totals.iter().any(|&t| t != 0)).then(|| {
        players
            .iter()
            .cloned()
            .zip(created.initial_totals.iter().copied())
            .collect::<PlayerMap<u32>>()
    });
    Ok(GameRecord {
        format: RECORD_FORMAT.to_owned(),
        rules: rule_spec(&created.rules),
        players: players.clone(),
        initial_totals,
        rounds,
    })
}

fn strings(cards: impl Iterator<Item = crate::cards::Card>) -> Vec<String> {
    cards.map(|c| c.to_string()).collect()
}

/// `rules` as the preset they differ least from (the first such preset in
/// [`Preset::ALL`] on a tie) and overrides of exactly the parameters that differ.
pub fn rule_spec(rules: &Rules) -> RuleSpec {
    let fields = |rules: &Rules| match serde_json::to_value(rules) {
        Ok(Value::Object(fields)) => fields,
        _ => unreachable!("Rules always serializes to a JSON object"),
    };
    let target = fields(rules);
    let differences = |preset: Preset| -> Overrides {
        let base = fields(&preset.rules());
        target
            .iter()
            .filter(|(name, value)| base.get(name.as_str()) != Some(value))
            .map(|(name, value)| (name.clone(), value.clone()))
            .collect()
    };
    let (preset, overrides) = Preset::ALL
        .into_iter()
        .map(|p| (p, differences(p)))
        .min_by_key(|(_, overrides)| overrides.len())
        .unwrap_or((Preset::Israeli, Overrides::new()));
    RuleSpec {
        preset: preset.name().to_owned(),
        overrides,
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn rules_are_written_as_the_nearest_preset_and_its_differences() {
        for preset in Preset::ALL {
            let spec = rule_spec(&preset.rules());
            assert_eq!(spec.preset, preset.name());
            assert!(spec.overrides.is_empty());
        }
        let mut rules = Preset::Belgian.rules();
        rules.call_threshold = Some(7);
        let spec = rule_spec(&rules);
        assert_eq!(spec.preset, "belgian");
        assert_eq!(
            Value::Object(spec.overrides.clone()),
            json!({"call_threshold": 7})
        );
        assert_eq!(spec.resolve(), Ok(rules));
    }

    #[test]
    fn events_must_start_with_the_table() {
        assert_eq!(export(&[]), Err(ExportError::NotCreated));
    }
}
