//! Property: exporting a game as a record and replaying the record reproduces the game.
//! For random legal games of every preset with 2 to 8 players (dealt from seeds, and
//! dealt on paper), export -> JSON text -> parse -> replay gives
//! - exactly the original events (the record's commands, decided again, produce them),
//! - a result whose rounds, totals and standings are the events' `RoundEnded` data,
//! - the same record when exported again.
//!
//! The random player is local to this test (the project's bots are not used).

use yaniv_domain::cards::Cards;
use yaniv_domain::game::{Command, Deal, DealSource, DrawChoice, Event, Game, QueenSwap, Seat};
use yaniv_domain::record::{self, PlayerMap, ReplayResult};
use yaniv_domain::rules::{BonusRule, Preset, Rules};
use yaniv_domain::shuffle::Seed;

/// A tiny deterministic generator (splitmix64).
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    fn seed(&mut self) -> Seed {
        let mut bytes = [0u8; 32];
        for chunk in bytes.chunks_mut(8) {
            chunk.copy_from_slice(&self.next().to_le_bytes());
        }
        Seed(bytes)
    }
}

#[derive(Clone, Copy, PartialEq)]
enum Dealing {
    /// The server's way: a fresh seed per round.
    Seeded,
    /// A referee's way: hands and up card entered on paper (taken from a seeded deal).
    OnPaper,
}

/// A random legal game, stopped after `max_rounds` rounds (and possibly in the middle of
/// the next one), or played to its end.
fn random_game(
    rules: Rules,
    players: usize,
    seed: u64,
    dealing: Dealing,
    max_rounds: u32,
) -> Vec<Event> {
    let mut rng = Rng(seed);
    let mut game = Game::new();
    let mut log = Vec::new();
    let names: Vec<String> = ["ann", "bob", "cid", "dan", "eve", "fay", "gus", "hal"][..players]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let initial_totals = if rng.below(3) == 0 {
        (0..players).map(|_| rng.below(60) as u32).collect()
    } else {
        Vec::new()
    };
    let create = Command::Create {
        rules,
        players: names,
        initial_totals,
    };
    log.extend(game.execute(&create).expect("create"));
    for _step in 0..50_000 {
        if game.is_finished() {
            return log;
        }
        if game.needs_deal() {
            if game.round_number() >= max_rounds {
                return log;
            }
            let starter = (game.round_number() == 0).then(|| rng.below(players) as Seat);
            let seed = rng.seed();
            let source = match dealing {
                Dealing::Seeded => DealSource::Seeded(seed),
                Dealing::OnPaper => {
                    let mut scratch = game.clone();
                    let events = scratch
                        .execute(&Command::Deal {
                            starter,
                            source: DealSource::Seeded(seed),
                        })
                        .expect("deal");
                    assert!(
                        matches!(&events[0], Event::RoundDealt(e) if matches!(e.deal, Deal::Shuffled { .. }))
                    );
                    DealSource::Explicit {
                        hands: (0..players as Seat)
                            .map(|s| scratch.hand(s).as_cards().unwrap_or_default())
                            .collect(),
                        up_card: scratch.top_throw().first().expect("up card"),
                    }
                }
            };
            log.extend(
                game.execute(&Command::Deal { starter, source })
                    .expect("deal"),
            );
            continue;
        }
        if let Some(command) = out_of_turn(&game, players, &mut rng) {
            log.extend(game.execute(&command).expect("listed action is legal"));
            continue;
        }
        let seat = game.to_act().expect("someone acts");
        let legal = game.legal_actions(seat);
        let command = if !legal.waterfall_pick.is_empty() {
            let offer = legal.waterfall_pick.as_slice();
            Command::WaterfallPick {
                seat,
                card: offer[rng.below(offer.len())],
            }
        } else if !legal.waterfalls.is_empty() && rng.below(2) == 0 {
            Command::Waterfall {
                seat,
                cards: legal.waterfalls[rng.below(legal.waterfalls.len())],
            }
        } else if !legal.kill_piles.is_empty() && rng.below(2) == 0 {
            Command::KillPile {
                seat,
                size: legal.kill_piles[rng.below(legal.kill_piles.len())],
            }
        } else if legal.go_along {
            Command::GoAlong {
                seat,
                going: rng.below(2) == 0,
            }
        } else if legal.onderkluft {
            Command::Onderkluft {
                seat,
                challenge: rng.below(3) == 0,
            }
        } else if legal.call
            && (legal.throws.is_empty() || rng.below(wants_to_call(&game, seat)) == 0)
        {
            Command::Call {
                seat,
                call: game.rules().expect("rules").call_resolution_kind(),
            }
        } else {
            let throw: Cards = legal.throws[rng.below(legal.throws.len())];
            let discard: Vec<_> = legal.draws_for(&throw).iter().collect();
            let draw = if legal.draw_from_stock && (discard.is_empty() || rng.below(2) == 0) {
                DrawChoice::Stock
            } else {
                DrawChoice::Discard(discard[rng.below(discard.len())])
            };
            let mut left = game.hand(seat).clone();
            let _ = left.remove_all(throw.as_slice());
            let queen = (game.throw_swaps_queens(&throw)
                && !left.is_empty()
                && !legal.queen_targets.is_empty())
            .then(|| QueenSwap {
                target: legal.queen_targets[rng.below(legal.queen_targets.len())],
                give: left.as_slice()[rng.below(left.len())],
            });
            Command::play_with_queen(seat, throw, draw, queen)
        };
        log.extend(game.execute(&command).expect("listed action is legal"));
    }
    panic!("seed {seed}: the game did not finish");
}

/// One in how many turns the player calls when allowed: often within the threshold,
/// rarely above it (where the rules let a call above it end the round with a penalty).
fn wants_to_call(game: &Game, seat: Seat) -> usize {
    let rules = game.rules().expect("rules");
    let total = rules.hand_total(game.hand(seat).as_slice());
    if rules.call_threshold.is_none_or(|t| total <= t as u32) {
        2
    } else {
        40
    }
}

/// Now and then a slap-down or an add-on, when one is legal.
fn out_of_turn(game: &Game, players: usize, rng: &mut Rng) -> Option<Command> {
    if !game.round_in_progress() {
        return None;
    }
    for seat in 0..players as Seat {
        let legal = game.legal_actions(seat);
        if let Some(card) = legal.slap
            && rng.below(2) == 0
        {
            let mut left = game.hand(seat).clone();
            left.remove(card);
            let queen = (game.slap_swaps_queens(card)
                && !left.is_empty()
                && !legal.queen_targets.is_empty())
            .then(|| QueenSwap {
                target: legal.queen_targets[rng.below(legal.queen_targets.len())],
                give: left.as_slice()[rng.below(left.len())],
            });
            return Some(Command::slap_with_queen(seat, card, queen));
        }
        if !legal.add_ons.is_empty() && rng.below(2) == 0 {
            let cards = legal.add_ons[rng.below(legal.add_ons.len())];
            return Some(Command::AddOn { seat, cards });
        }
    }
    None
}

/// The events up to the end of the last finished round.
fn finished_part(events: &[Event]) -> &[Event] {
    let end = events
        .iter()
        .rposition(|e| matches!(e, Event::RoundEnded(_) | Event::GameFinished(_)))
        .map_or(1, |i| i + 1);
    &events[..end]
}

/// The result the events say, computed here without the record module.
fn expected_rounds(events: &[Event]) -> Vec<serde_json::Value> {
    let Event::GameCreated(created) = &events[0] else {
        panic!("created first")
    };
    let name = |s: Seat| created.players[s as usize].clone();
    let by_name = |values: &[Option<u32>]| -> serde_json::Value {
        values
            .iter()
            .enumerate()
            .filter_map(|(s, v)| v.map(|v| (name(s as Seat), serde_json::Value::from(v))))
            .collect::<serde_json::Map<_, _>>()
            .into()
    };
    events
        .iter()
        .filter_map(|e| match e {
            Event::RoundEnded(e) => Some(serde_json::json!({
                "hand_totals": by_name(&e.hand_totals),
                "caller": e.caller.map(name),
                "outcome": e.outcome,
                "winner": e.winner.map(name),
                "points": by_name(&e.points),
                "totals": by_name(&e.totals.iter().map(|&t| Some(t)).collect::<Vec<_>>()),
                "reductions": e.reductions.iter().map(|r| serde_json::json!({"player": name(r.seat), "from": r.from, "to": r.to})).collect::<Vec<_>>(),
                "bonuses": e.bonuses.iter().map(|b| serde_json::json!({"player": name(b.seat), "minus": b.minus})).collect::<Vec<_>>(),
                "eliminated": e.eliminated.iter().map(|&s| name(s)).collect::<Vec<_>>(),
            })),
            _ => None,
        })
        .collect()
}

fn result_rounds(result: &ReplayResult) -> Vec<serde_json::Value> {
    let mut rounds: Vec<serde_json::Value> = result
        .rounds
        .iter()
        .map(|r| serde_json::to_value(r).expect("serializes"))
        .collect();
    for r in &mut rounds {
        // Bonuses are left out of the result when there are none.
        r.as_object_mut()
            .expect("object")
            .entry("bonuses")
            .or_insert(serde_json::json!([]));
    }
    rounds
}

fn check_round_trip(events: &[Event], context: &str) {
    let finished = finished_part(events);
    let exported = record::export(events).unwrap_or_else(|e| panic!("{context}: export: {e}"));
    let text = serde_json::to_string_pretty(&exported).expect("serializes");
    let parsed = record::parse_record(text.as_bytes())
        .unwrap_or_else(|e| panic!("{context}: parse: {e}\n{text}"));
    assert_eq!(
        parsed, exported,
        "{context}: the JSON text reads back as the same record"
    );
    let outcome =
        record::replay(&parsed).unwrap_or_else(|e| panic!("{context}: replay: {e}\n{text}"));

    assert_eq!(
        outcome.events.len(),
        finished.len(),
        "{context}: event count"
    );
    for (i, (a, b)) in outcome.events.iter().zip(finished).enumerate() {
        assert_eq!(a, b, "{context}: event {i} differs");
    }

    assert_eq!(
        result_rounds(&outcome.result),
        expected_rounds(finished),
        "{context}: rounds"
    );
    let game = Game::from_events(finished);
    assert_eq!(outcome.result.finished, game.is_finished(), "{context}");
    let standings: Vec<(String, u32, u8)> = outcome
        .result
        .standings
        .iter()
        .map(|s| (s.player.clone(), s.total, s.place))
        .collect();
    let expected: Vec<(String, u32, u8)> = game
        .standings()
        .iter()
        .map(|s| (game.players()[s.seat as usize].clone(), s.total, s.place))
        .collect();
    assert_eq!(standings, expected, "{context}: standings");
    if game.is_finished() {
        assert_eq!(outcome.result.next_starter, None, "{context}");
    } else if let Some(Event::RoundEnded(last)) = finished
        .iter()
        .rev()
        .find(|e| matches!(e, Event::RoundEnded(_)))
    {
        let next = last
            .next_starter
            .map(|s| game.players()[s as usize].clone());
        assert_eq!(outcome.result.next_starter, next, "{context}");
    }

    let again = record::export(&outcome.events).expect("export again");
    assert_eq!(
        again, exported,
        "{context}: exporting the replay gives the same record"
    );
}

#[test]
fn seeded_games_of_every_preset_replay_from_their_records() {
    let mut seen = std::collections::BTreeMap::<&str, usize>::new();
    for preset in Preset::ALL {
        for players in 2..=8 {
            for game in 0..2u64 {
                let seed = 1000 * players as u64 + game;
                let events = random_game(preset.rules(), players, seed, Dealing::Seeded, u32::MAX);
                for e in &events {
                    *seen.entry(e.type_name()).or_default() += 1;
                }
                check_round_trip(&events, &format!("{preset} {players}p seed {seed}"));
            }
        }
    }
    // The House Rules' bonus rules, together (Spy's hands_shown.v1).
    let all: Vec<&str> = BonusRule::ALL.iter().map(|r| r.name()).collect();
    let serde_json::Value::Object(overrides) = serde_json::json!({ "bonus_rules": all }) else {
        unreachable!("an object")
    };
    let bonus = Preset::House
        .rules()
        .with_overrides(&overrides)
        .expect("valid bonus rules");
    for players in 2..=8 {
        let seed = 5000 + players as u64;
        let events = random_game(bonus.clone(), players, seed, Dealing::Seeded, u32::MAX);
        for e in &events {
            *seen.entry(e.type_name()).or_default() += 1;
        }
        check_round_trip(
            &events,
            &format!("house + bonus rules {players}p seed {seed}"),
        );
    }
    // The games exercise every kind of event a record must carry.
    for kind in Event::TYPES {
        assert!(
            seen.get(kind).copied().unwrap_or(0) > 0,
            "no {kind} in {seen:?}"
        );
    }
}

#[test]
fn games_dealt_on_paper_replay_from_their_records() {
    for preset in Preset::ALL {
        for players in 2..=8 {
            let seed = 77 + players as u64;
            let events = random_game(preset.rules(), players, seed, Dealing::OnPaper, u32::MAX);
            let exported = record::export(&events).expect("export");
            assert!(exported.rounds.iter().all(|r| r.shuffle.is_none()));
            check_round_trip(
                &events,
                &format!("{preset} {players}p on paper seed {seed}"),
            );
        }
    }
}

#[test]
fn an_unfinished_round_is_left_out_of_the_export() {
    for preset in Preset::ALL {
        let events = random_game(preset.rules(), 4, 5, Dealing::Seeded, 3);
        // Cut inside the fourth round (or inside the last one, if the game ended early).
        let Some(last_deal) = events
            .iter()
            .rposition(|e| matches!(e, Event::RoundDealt(_)))
        else {
            panic!("{preset}: no round dealt")
        };
        for cut in [last_deal + 1, last_deal + 3] {
            let partial = &events[..cut.min(events.len())];
            if matches!(
                partial.last(),
                Some(Event::RoundEnded(_) | Event::GameFinished(_))
            ) {
                continue;
            }
            let exported = record::export(partial).expect("export");
            let finished_rounds = partial
                .iter()
                .filter(|e| matches!(e, Event::RoundEnded(_)))
                .count();
            assert_eq!(exported.rounds.len(), finished_rounds, "{preset}");
            check_round_trip(partial, &format!("{preset} cut at {cut}"));
        }
    }
}

#[test]
fn a_table_without_rounds_exports_and_replays() {
    let events = random_game(Preset::Belgian.rules(), 3, 9, Dealing::Seeded, 0);
    assert_eq!(events.len(), 1);
    let exported = record::export(&events).expect("export");
    assert!(exported.rounds.is_empty());
    let outcome = record::replay(&exported).expect("replay");
    assert!(outcome.result.rounds.is_empty());
    assert!(!outcome.result.finished);
    assert_eq!(outcome.result.next_starter, None);
    assert_eq!(outcome.result.standings.len(), 3);
}

#[test]
fn seeded_records_carry_the_shuffle_and_the_dealt_hands() {
    let events = random_game(Preset::Israeli.rules(), 3, 11, Dealing::Seeded, 2);
    let exported = record::export(&events).expect("export");
    for (round, dealt) in exported
        .rounds
        .iter()
        .zip(events.iter().filter_map(|e| match e {
            Event::RoundDealt(e) => Some(e),
            _ => None,
        }))
    {
        let Deal::Shuffled {
            commitment, seed, ..
        } = &dealt.deal
        else {
            panic!("seeded")
        };
        let shuffle = round.shuffle.as_ref().expect("shuffle present");
        assert_eq!(shuffle.commitment, commitment.to_hex());
        assert_eq!(shuffle.seed, seed.to_hex());
        assert_eq!(round.hands.len(), 3);
        assert!(round.hands.iter().all(|(_, hand)| hand.len() == 5));
    }
    let _: &PlayerMap<Vec<String>> = &exported.rounds[0].hands;
}
