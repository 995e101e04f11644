//! Hidden information: what `Game::view(seat)` shows one seat. A seat sees its own hand and
//! the public table (the top throw, sizes, totals), never another hand, never the seed.

mod common;

use yaniv_domain::cards::Card;
use yaniv_domain::game::{Command, DealSource, DrawChoice, Game};
use yaniv_domain::rules::Preset;
use yaniv_domain::shuffle::Seed;

/// Checks every seat's serialized view: no card of another hand appears in it unless the
/// same card is public (in the top throw) or also in the seat's own hand (two decks), and
/// neither the seed nor a `seed` field does.
fn assert_views_hide_other_hands(game: &Game, seed: &Seed, context: &str) {
    let seats = game.players().len() as u8;
    for seat in 0..seats {
        let view = game.view(seat).expect("a view for every seat");
        let json = serde_json::to_string(&view).expect("the view serializes");
        assert!(
            !json.contains(&seed.to_hex()),
            "{context}: seat {seat} sees the seed"
        );
    }
    assert_views_hide_other_hands_unseeded(game, context);
}

/// [`assert_views_hide_other_hands`] without the seed: for games whose seed the
/// simulator derives.
fn assert_views_hide_other_hands_unseeded(game: &Game, context: &str) {
    let seats = game.players().len() as u8;
    for seat in 0..seats {
        let view = game.view(seat).expect("a view for every seat");
        let json = serde_json::to_string(&view).expect("the view serializes");
        assert!(
            !json.contains("\"seed\""),
            "{context}: seat {seat} has a seed field"
        );
        let own = game.hand(seat);
        let top = game.top_throw();
        for other in (0..seats).filter(|&o| o != seat) {
            for card in game.hand(other).iter() {
                if top.contains(card) || own.contains(card) {
                    continue;
                }
                let quoted = format!("\"{card}\"");
                assert!(
                    !json.contains(&quoted),
                    "{context}: seat {seat} sees {card} in seat {other}'s hand: {json}"
                );
            }
        }
        assert_eq!(&view.hand, own, "{context}: a seat sees its own hand");
    }
}

/// RULES.md: the server plays hidden-information rounds; `view.rs`: "Nothing else: no other
/// hand, no stock card, no seed before the round is over." Played through whole rounds of
/// every preset with server-dealt (seeded) cards, checking every seat after every action.
#[test]
fn a_seat_never_sees_another_hand_or_the_seed() {
    for preset in Preset::ALL {
        for players in [2usize, 4, 6] {
            let mut game = Game::new();
            let names = (0..players).map(|i| format!("p{i}")).collect();
            game.execute(&Command::Create {
                rules: preset.rules(),
                players: names,
                initial_totals: vec![],
            })
            .expect("create");
            let seed = Seed([players as u8 * 17 + preset as u8; 32]);
            game.execute(&Command::Deal {
                starter: Some(0),
                source: DealSource::Seeded(seed),
            })
            .expect("deal");
            assert!(game.commitment().is_some());
            for step in 0..40 {
                let context = format!("{preset} {players}p step {step}");
                assert_views_hide_other_hands(&game, &seed, &context);
                let Some(seat) = game.to_act() else { break };
                let legal = game.legal_actions(seat);
                let command = if legal.go_along {
                    Command::GoAlong { seat, going: true }
                } else if legal.onderkluft {
                    Command::Onderkluft {
                        seat,
                        challenge: true,
                    }
                } else if legal.call && step > 20 {
                    Command::Call {
                        seat,
                        call: game.rules().expect("rules").call_resolution_kind(),
                    }
                } else {
                    // Throw the biggest combination and draw from the discard when possible,
                    // so that drawn cards (known to the table) are part of the check.
                    let throw = *legal
                        .throws
                        .iter()
                        .max_by_key(|t| t.len())
                        .expect("a throw");
                    let draw: Option<Card> = legal.draws_for(&throw).iter().next();
                    let draw = match draw {
                        Some(card) if step & 1 == 0 => DrawChoice::Discard(card),
                        _ => DrawChoice::Stock,
                    };
                    Command::play(seat, throw, draw)
                };
                game.execute(&command).expect("a legal action");
            }
        }
    }
}

/// Every event of a game of greedy bots under `rules`, dealt from `seed`.
fn greedy_game(
    rules: &yaniv_domain::rules::Rules,
    players: usize,
    seed: u64,
) -> Vec<yaniv_domain::game::Event> {
    use yaniv_domain::bots::BotKind;
    use yaniv_domain::sim::{SimOptions, Simulator};
    let mut log = Vec::new();
    let mut bots: Vec<_> = (0..players)
        .map(|s| BotKind::Greedy.make(seed * 10 + s as u64))
        .collect();
    Simulator::new(SimOptions::default())
        .play_observed(rules, players, seed, &mut bots, |_: &Game, e| {
            log.push(e.clone())
        })
        .expect("a game");
    log
}

/// Crazy queens' blind picks, from every seat: while the round lasts, the two cards of
/// a swap are seen by its thrower and its target only; every other seat and spectators
/// read `null` for both, and referees see them. Bots play whole games of every table
/// size under `crazy_queens` (with Spy, whose shown hands the swap changes), and every
/// swap is checked from every seat.
#[test]
fn a_queen_swap_is_seen_by_its_two_players_only() {
    use yaniv_domain::game::{Event, Viewer, visible_events};
    let rules = common::rules_with(
        Preset::House,
        serde_json::json!({"bonus_rules": ["crazy_queens", "spy"]}),
    );
    let mut swaps = 0;
    for players in 2..=8usize {
        for game in 0..3u64 {
            let log = greedy_game(&rules, players, 4_000 + game);
            for (at, event) in log.iter().enumerate() {
                let Event::QueenSwapped(swap) = event else {
                    continue;
                };
                swaps += 1;
                let prefix = &log[..=at];
                let mut viewers: Vec<Viewer> = (0..players as u8).map(Viewer::Seat).collect();
                viewers.extend([Viewer::Spectator, Viewer::Referee]);
                for viewer in viewers {
                    let sees = match viewer {
                        Viewer::Seat(s) => s == swap.seat || s == swap.target,
                        Viewer::Spectator => false,
                        Viewer::Referee => true,
                    };
                    let shown = &visible_events(prefix, viewer)[at];
                    assert_eq!(shown["type"], "queen_swapped.v1");
                    for field in ["given", "taken"] {
                        assert_eq!(
                            !shown[field].is_null(),
                            sees,
                            "{players}p game {game} event {at}: {viewer:?} and {field}"
                        );
                    }
                }
            }
        }
    }
    assert!(swaps > 20, "only {swaps} swaps were played");
}

/// Waterfalls, from every seat: while the round lasts, a straight passed is seen by who
/// passes it and who receives it, a card kept by its keeper only, and the rest passed
/// on by the two players it goes between. Bots play whole games of every table size
/// from three under `waterfall`, and every waterfall event is checked from every seat.
#[test]
fn a_waterfall_is_seen_card_by_card_by_the_players_it_passes_between() {
    use yaniv_domain::game::{Event, Viewer, visible_events};
    let rules = common::rules_with(
        Preset::House,
        serde_json::json!({"bonus_rules": ["waterfall"]}),
    );
    let mut picks = 0;
    for players in 3..=8usize {
        for game in 0..3u64 {
            let log = greedy_game(&rules, players, 5_000 + game);
            for (at, event) in log.iter().enumerate() {
                // Who may see each hidden field of the event.
                let fields: Vec<(&str, Vec<u8>)> = match event {
                    Event::WaterfallStarted(e) => vec![("cards", vec![e.seat, e.to])],
                    Event::WaterfallPicked(e) => {
                        picks += 1;
                        vec![("card", vec![e.seat]), ("passed", vec![e.seat, e.to])]
                    }
                    _ => continue,
                };
                let prefix = &log[..=at];
                let mut viewers: Vec<Viewer> = (0..players as u8).map(Viewer::Seat).collect();
                viewers.extend([Viewer::Spectator, Viewer::Referee]);
                for viewer in viewers {
                    let shown = &visible_events(prefix, viewer)[at];
                    for (field, seats) in &fields {
                        let sees = match viewer {
                            Viewer::Seat(s) => seats.contains(&s),
                            Viewer::Spectator => false,
                            Viewer::Referee => true,
                        };
                        assert_eq!(
                            !shown[*field].is_null(),
                            sees,
                            "{players}p game {game} event {at}: {viewer:?} and {field}"
                        );
                    }
                }
            }
        }
    }
    assert!(picks > 20, "only {picks} waterfall picks were played");
}

/// The bonus rules that move cards between hands (Crazy queens' swap, Waterfall's
/// straight) never put another hand's card in a seat's view: greedy bots play whole
/// games at three to six seats, and every seat's view is checked after every event.
/// (Spy is left out: showing hands is what it does.)
#[test]
fn views_hide_other_hands_under_the_hand_changing_bonus_rules() {
    use yaniv_domain::bots::BotKind;
    use yaniv_domain::game::Event;
    use yaniv_domain::sim::{SimOptions, Simulator};
    let rules = common::rules_with(
        Preset::House,
        serde_json::json!({"bonus_rules": ["crazy_queens", "waterfall", "double_edged_sword", "sevens"]}),
    );
    let mut moved = 0;
    for players in 3..=6usize {
        let mut bots: Vec<_> = (0..players)
            .map(|s| BotKind::Greedy.make(700 + s as u64))
            .collect();
        let mut step = 0;
        Simulator::new(SimOptions::default())
            .play_observed(
                &rules,
                players,
                7_000 + players as u64,
                &mut bots,
                |game: &Game, e: &Event| {
                    step += 1;
                    if matches!(
                        e,
                        Event::QueenSwapped(_)
                            | Event::WaterfallStarted(_)
                            | Event::WaterfallPicked(_)
                    ) {
                        moved += 1;
                    }
                    if game.round_in_progress() {
                        assert_views_hide_other_hands_unseeded(
                            game,
                            &format!("{players}p step {step}"),
                        );
                    }
                },
            )
            .expect("a game");
    }
    assert!(moved > 20, "only {moved} swaps and waterfall moves");
}
