//! Export: a game's events written as a record. Rules become the closest preset plus the
//! parameters that differ; each round gets its starter, the hands as dealt (folded from a
//! seeded deal, with the shuffle commitment and seed), the up card and one action per
//! action event. Only finished rounds are written: a round still being played is left out,
//! so every exported record replays to a game between rounds.

use crate::game::{Deal, Draw, Event, Game, Seat};
use crate::rules::{Overrides, Preset, RuleSpec, Rules, overrides_between};
use crate::shuffle::SHUFFLE_ALGORITHM;

use super::error::ExportError;
use super::format::{
    Act, ActionRecord, DrawRecord, GameRecord, QueenRecord, RECORD_FORMAT,
    RECORD_FORMAT_SLAPS_PLAY, RECORD_FORMAT_UNCAPPED, RoundRecord, ShuffleRecord, TurnBonus,
};
use super::player_map::PlayerMap;

/// The record of the game of `events` (`game_created.v1` first), its finished rounds only.
/// Its actions carry no `event_version` (see [`export_with_versions`]).
pub fn export(events: &[Event]) -> Result<GameRecord, ExportError> {
    export_inner(events, None)
}

/// [`export`], each action carrying the stream version of the event it was written
/// from: `versions[i]` is the version of `events[i]` (a table's stream interleaves other
/// events with the game's, so the versions are not simply `i + 1`).
pub fn export_with_versions(events: &[Event], versions: &[u64]) -> Result<GameRecord, ExportError> {
    if versions.len() != events.len() {
        return Err(ExportError::Versions {
            events: events.len(),
            versions: versions.len(),
        });
    }
    export_inner(events, Some(versions))
}

fn export_inner(events: &[Event], versions: Option<&[u64]>) -> Result<GameRecord, ExportError> {
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
            event_version: versions.and_then(|v| v.get(index).copied()),
        };
        let recorded = match event {
            // Derived by the rules: a replay makes them again.
            Event::GameCreated(_)
            | Event::StockReshuffled(_)
            | Event::GameFinished(_)
            | Event::HandsShown(_) => None,
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
                        entropy: None,
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
                bonus: TurnBonus::default(),
            })),
            // Written with the turn (or slap-down) that caused them, so that a round dealt on paper
            // names its cards (a shuffled one would derive them): Sevens' forced draws,
            // the Piñata set aside, Double-edged sword's new hands, Crazy queens' swap.
            Event::ForcedToDraw(e) => {
                let bonus = last_turn(&mut current).ok_or_else(unexpected)?;
                bonus.forced.push(e.card.to_string());
                None
            }
            Event::PinataSetAside(e) => {
                let bonus = last_turn(&mut current).ok_or_else(unexpected)?;
                bonus.pinata = Some(e.card.to_string());
                None
            }
            Event::QueenSwapped(e) => {
                let bonus = last_turn(&mut current).ok_or_else(unexpected)?;
                bonus.queen = Some(QueenRecord {
                    target: name(e.target),
                    give: e.given.to_string(),
                    take: Some(e.taken.to_string()),
                });
                None
            }
            Event::HandsRedealt(e) => {
                let hands: PlayerMap<Vec<String>> = (0..)
                    .zip(&e.hands)
                    .filter_map(|(seat, hand)| Some((name(seat), strings(hand.as_ref()?.iter()))))
                    .collect();
                let bonus = last_turn(&mut current).ok_or_else(unexpected)?;
                bonus.redealt = Some(hands);
                None
            }
            // Derived by the rules from the card set aside.
            Event::PinataTaken(_) => None,
            Event::SlappedDown(e) => Some(action(Act::Slap {
                card: e.card.to_string(),
                bonus: TurnBonus::default(),
            })),
            Event::AddedOn(e) => Some(action(Act::Add(strings(e.cards.iter())))),
            Event::Called(e) => Some(action(Act::Call(e.call))),
            Event::WentAlong(e) => Some(action(Act::GoAlong(e.going))),
            Event::OnderkluftDeclared(e) => Some(action(Act::Onderkluft(e.challenged))),
            Event::WaterfallStarted(e) => Some(action(Act::Waterfall(strings(e.cards.iter())))),
            Event::WaterfallPicked(e) => Some(action(Act::WaterfallPick(e.card.to_string()))),
            Event::PileKilled(e) => Some(action(Act::KillPile(e.size))),
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
        // The lowest version that says how the game was played.
        format: if created.hands_uncapped || created.pile_tops_keep_order {
            RECORD_FORMAT_UNCAPPED
        } else if created.slap_downs_play {
            RECORD_FORMAT_SLAPS_PLAY
        } else {
            RECORD_FORMAT
        }
        .to_owned(),
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
    let (preset, overrides) = Preset::ALL
        .into_iter()
        .map(|p| (p, overrides_between(&p.rules(), rules)))
        .min_by_key(|(_, overrides)| overrides.len())
        .unwrap_or((Preset::Israeli, Overrides::new()));
    RuleSpec {
        preset: preset.name().to_owned(),
        overrides,
    }
}

/// What the bonus rules' events fill in of the round's last action, a turn; `None`
/// when the last action is not a turn.
fn last_turn(current: &mut Option<RoundRecord>) -> Option<&mut TurnBonus> {
    match current.as_mut()?.actions.last_mut()? {
        ActionRecord {
            act: Act::Play { bonus, .. } | Act::Slap { bonus, .. },
            ..
        } => Some(bonus),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use crate::bots::BotKind;

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

    fn bots_game(preset: Preset, players: usize, seed: u64) -> Vec<Event> {
        crate::sim::bots_game(BotKind::Greedy, &preset.rules(), players, seed)
    }

    #[test]
    fn each_action_carries_the_version_of_its_event() {
        let events = bots_game(Preset::Belgian, 3, 7);
        // As in a table's stream: the game's events come after other events.
        let versions: Vec<u64> = (0..events.len() as u64).map(|i| 2 * i + 5).collect();
        let plain = export(&events).expect("exports");
        let versioned = export_with_versions(&events, &versions).expect("exports");
        let mut checked = 0;
        for (round, plain_round) in versioned.rounds.iter().zip(&plain.rounds) {
            assert_eq!(round.actions.len(), plain_round.actions.len());
            for (action, plain_action) in round.actions.iter().zip(&plain_round.actions) {
                assert_eq!(plain_action.event_version, None);
                let version = action.event_version.expect("a version");
                let index = usize::try_from((version - 5) / 2).expect("an index");
                assert_eq!(versions[index], version);
                let event = &events[index];
                assert_eq!(
                    plain.players[usize::from(event.actor().expect("an action event"))],
                    action.player
                );
                assert_eq!(action.act, plain_action.act);
                checked += 1;
            }
        }
        assert!(checked > 10, "a whole game has actions");
        // Replaying reads the versions and ignores them: the same game either way.
        let json = |record: &GameRecord| serde_json::to_vec(record).expect("serializes");
        let replayed = crate::record::replay_json(&json(&versioned)).expect("replays");
        assert_eq!(replayed.events, events);
        let plain_replayed = crate::record::replay_json(&json(&plain)).expect("replays");
        assert_eq!(
            serde_json::to_value(&replayed.result).ok(),
            serde_json::to_value(&plain_replayed.result).ok()
        );
        assert_eq!(
            export_with_versions(&events, &versions[1..]),
            Err(ExportError::Versions {
                events: events.len(),
                versions: events.len() - 1
            })
        );
    }
}
