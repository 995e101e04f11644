//! Which stored event was changed, when the rules reject a later one.
//!
//! A checked replay ([`Game::replay_checked`]) names the first event the rules
//! reject. A forger who rewrites one event and recomputes the hash chain can pick a
//! change the rules accept where it stands: a turn that throws another card of the
//! same hand, or takes another card of the previous throw. The game goes on from a
//! state that never was, and the rules object only when it matters: the card kept
//! is thrown a few turns later, another player takes the card that is no longer on
//! the pile, or the round's scores come out different. The rejected event is then
//! not the changed one.
//!
//! The changed event lies in the round of the rejection, at the latest: a round's
//! end scores every hand, so a changed hand cannot outlive its round. Every turn of
//! that round up to the rejected event is tried, earliest first, with each other
//! turn its seat could have played there; the first whose replacement makes the
//! rest of the round replay is the earliest event that differs from what the replay
//! of the later events derives. Deals are not searched: a deal from a changed seed
//! is consistent with itself, and only a checkpoint of the stream's head exposes it.

use super::{Draw, Event, Game, TurnPlayed};
use crate::cards::{Card, Cards};
use crate::combos::for_each_throw;

/// The index of the earliest event before `rejected` whose replacement by another
/// turn the rules allow there makes the events after it replay, up to the end of the
/// round of `rejected` (or of `events`). `None` when no single changed turn explains
/// the rejection (the rejected event itself is then the first that does not hold).
pub fn earliest_divergence(events: &[Event], rejected: usize) -> Option<usize> {
    earliest_divergence_from(events, 0, rejected)
}

/// [`earliest_divergence`] when the events before `first_suspect` are known to be the
/// ones first written (a hash chain that breaks only at a later event vouches for
/// them): the search then blames none of them, though a change there would explain
/// the rejection as well.
pub fn earliest_divergence_from(
    events: &[Event],
    first_suspect: usize,
    rejected: usize,
) -> Option<usize> {
    let rejected = rejected.min(events.len().checked_sub(1)?);
    let round_start = events[..=rejected]
        .iter()
        .rposition(|e| matches!(e, Event::RoundDealt(_)))?;
    let round_end = events[rejected..]
        .iter()
        .position(|e| matches!(e, Event::RoundEnded(_)))
        .map_or(events.len(), |offset| rejected + offset + 1);
    // Everything before the rejection passed the checked replay: it folds as trusted.
    let mut game = Game::from_events(&events[..round_start]);
    let mut replaced = Vec::with_capacity(round_end - round_start);
    for at in round_start..rejected {
        if let Event::TurnPlayed(stored) = &events[at]
            && at >= first_suspect
        {
            for candidate in other_turns(&game, stored) {
                replaced.clear();
                replaced.push(Event::TurnPlayed(candidate));
                replaced.extend_from_slice(&events[at + 1..round_end]);
                if Game::replay_checked_from(game.clone(), &replaced).is_ok() {
                    return Some(at);
                }
            }
        }
        game.apply(&events[at]);
    }
    None
}

/// The turns `stored`'s seat could have tried instead at `game`: every combination
/// of its hand (runs both ways), with every card it could name to draw. The rules
/// decide which of them are legal.
fn other_turns(game: &Game, stored: &TurnPlayed) -> Vec<TurnPlayed> {
    let Some(rules) = game.rules() else {
        return Vec::new();
    };
    let mut throws: Vec<Cards> = Vec::new();
    for_each_throw(game.hand(stored.seat).as_slice(), rules, |throw| {
        throws.push(*throw);
        if throw.len() > 1 {
            throws.push(throw.reversed());
        }
    });
    let round = &game.round;
    let stock: Vec<Card> = if round.stock_ordered {
        round.stock.last().copied().into_iter().collect()
    } else {
        round.stock.clone()
    };
    let mut draws: Vec<Draw> = Vec::new();
    let named = std::iter::once(stored.draw)
        .chain(stock.into_iter().map(Draw::Stock))
        .chain(
            round
                .piles
                .live()
                .flat_map(|p| p.top.iter())
                .map(Draw::Discard),
        );
    for draw in named {
        if !draws.contains(&draw) {
            draws.push(draw);
        }
    }
    let mut turns = Vec::with_capacity(throws.len() * draws.len());
    for thrown in &throws {
        for &draw in &draws {
            if (*thrown, draw) != (stored.thrown, stored.draw) {
                turns.push(TurnPlayed {
                    seat: stored.seat,
                    thrown: *thrown,
                    draw,
                });
            }
        }
    }
    turns
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bots::BotKind;
    use crate::rules::Preset;

    fn bots_game(seed: u64) -> Vec<Event> {
        crate::sim::bots_game(BotKind::Greedy, &Preset::Israeli.rules(), 2, seed)
    }

    /// Every one-card turn changed to throw another card of the same hand, where the
    /// rules accept the change and reject a later event: `(changed index, events,
    /// rejected index)`.
    fn late_noticed_forgeries(game: &[Event]) -> Vec<(usize, Vec<Event>, usize)> {
        let mut found = Vec::new();
        for (at, event) in game.iter().enumerate() {
            let Event::TurnPlayed(turn) = event else {
                continue;
            };
            if turn.thrown.len() != 1 {
                continue;
            }
            let before = Game::from_events(&game[..at]);
            for other in before.hand(turn.seat).iter() {
                if turn.thrown.contains(other) {
                    continue;
                }
                let mut changed = game.to_vec();
                let mut forged = *turn;
                forged.thrown = Cards::from_slice(&[other]).expect("one card");
                changed[at] = Event::TurnPlayed(forged);
                if let Err((rejected, _)) = Game::replay_checked(&changed)
                    && rejected > at
                {
                    found.push((at, changed, rejected));
                }
            }
        }
        found
    }

    #[test]
    fn a_turn_changed_to_another_legal_throw_is_rejected_only_later_and_found() {
        let game = bots_game(5);
        let forgeries = late_noticed_forgeries(&game);
        assert!(
            forgeries
                .iter()
                .any(|(at, _, rejected)| rejected > &(at + 3)),
            "the rules notice some changes several events later"
        );
        for (at, changed, rejected) in forgeries.iter().take(40) {
            assert_eq!(
                earliest_divergence(changed, *rejected),
                Some(*at),
                "changed at {at}, rejected at {rejected}"
            );
        }
    }

    #[test]
    fn events_known_to_be_original_are_never_blamed() {
        let game = bots_game(5);
        for (at, changed, rejected) in late_noticed_forgeries(&game).iter().take(40) {
            assert_eq!(
                earliest_divergence_from(changed, *at, *rejected),
                Some(*at),
                "changed at {at}, rejected at {rejected}, vouched before {at}"
            );
            assert_eq!(
                earliest_divergence_from(changed, *rejected, *rejected),
                None,
                "every event before the rejected one is vouched for"
            );
        }
    }

    #[test]
    fn a_game_rejected_where_it_was_changed_has_no_earlier_divergence() {
        let game = bots_game(9);
        let at = game
            .iter()
            .position(|e| matches!(e, Event::RoundEnded(_)))
            .expect("a round ends");
        let mut changed = game.clone();
        let Event::RoundEnded(ended) = &mut changed[at] else {
            unreachable!()
        };
        ended.totals[0] += 1;
        let (rejected, _) = Game::replay_checked(&changed).expect_err("a changed score");
        assert_eq!(rejected, at);
        assert_eq!(earliest_divergence(&changed, rejected), None);
    }
}
