//! Properties of whole games between bots, for every preset and 2 to 8 players, with the
//! random and the greedy bot.
//!
//! `YANIV_PROPTEST_GAMES` sets the games per (preset, players, bot) combination (default
//! 25: 6 presets x 7 player counts x 2 bots x 25 = 2100 games, about 30 s in a debug build); `YANIV_PROPTEST_DEEP` how
//! many of them also compare the bots' legal moves with `legal_actions` after every event
//! (default 1). A large run, in release:
//!
//! ```text
//! YANIV_PROPTEST_GAMES=1000 YANIV_PROPTEST_DEEP=50 cargo test --release -p yaniv-domain --test properties
//! ```

use yaniv_domain::bots::{BotKind, BotView};
use yaniv_domain::cards::{Card, Cards, MAX_HAND};
use yaniv_domain::combos::{Combination, add_on_fits, arrange_run, classify, for_each_throw};
use yaniv_domain::game::{Command, Event, Game, Seat, Standing};
use yaniv_domain::rules::{GameEnd, Preset, Rules, random_rules_v4};
use yaniv_domain::shuffle::Seed;
use yaniv_domain::sim::{SimOptions, Simulator, game_seed, make_bots};

fn games_per_combination() -> u64 {
    std::env::var("YANIV_PROPTEST_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(25)
}

/// In how many games of each combination the (slower) legal-move checks run after every
/// event: `YANIV_PROPTEST_DEEP`, default 1.
fn deep_checked_games() -> u64 {
    std::env::var("YANIV_PROPTEST_DEEP")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1)
}

/// Every add-on `seat` may lay now, found by asking `decide` about every subset of its
/// hand that fits the top throw (`decide` accepts no other): the reference for the
/// enumeration `legal_actions` uses.
fn reference_add_ons(game: &Game, seat: Seat, rules: &Rules) -> Vec<Cards> {
    let hand = game.hand(seat);
    // Osmosis lays add-ons on any pile: every top is tried.
    let tops: Vec<Cards> = game
        .view(seat)
        .map(|v| v.piles.iter().filter(|p| !p.dead).map(|p| p.top).collect())
        .unwrap_or_default();
    let mut out: Vec<Cards> = Vec::new();
    for mask in 1u32..(1 << hand.len()) {
        let cards = hand.subset(u128::from(mask));
        if tops
            .iter()
            .any(|top| add_on_fits(top, cards.as_slice(), rules))
            && !out.contains(&cards)
            && game.decide(&Command::AddOn { seat, cards }).is_ok()
        {
            out.push(cards);
        }
    }
    out
}

/// `for_each_throw` as first written (every subset classified), the reference for the
/// optimised generator: same throws, same order.
fn reference_throws(cards: &[Card], rules: &Rules) -> Vec<Cards> {
    let n = cards.len();
    let mut out = Vec::new();
    for mask in 1u32..(1 << n) {
        let subset: Cards = (0..n)
            .filter(|i| mask & (1 << i) != 0)
            .map(|i| cards[i])
            .collect();
        if (0..n).any(|i| {
            mask & (1 << i) == 0 && (i + 1..n).any(|j| mask & (1 << j) != 0 && cards[i] == cards[j])
        }) {
            continue;
        }
        match classify(subset.as_slice(), rules) {
            Ok(Combination::Single | Combination::Set) => out.push(subset),
            _ if subset.len() >= 3 => {
                if let Some(run) = arrange_run(subset.as_slice(), rules) {
                    out.push(run);
                }
            }
            _ => {}
        }
    }
    out
}

/// Plays one game and checks every property on the way and at the end.
fn check_game(preset: Preset, players: usize, kind: BotKind, index: u64) {
    let series = preset as u64 * 1_000 + players as u64 * 100 + kind as u64;
    check_game_under(
        &preset.rules(),
        &preset.to_string(),
        series,
        players,
        kind,
        index,
    );
}

/// [`check_game`] under any rules; `label` names them in failures.
fn check_game_under(
    rules: &Rules,
    label: &str,
    series: u64,
    players: usize,
    kind: BotKind,
    index: u64,
) {
    let rules = rules.clone();
    let seed = game_seed(series, index);
    let context = format!("{label} {players}p {kind} seed {seed}");
    let deck = rules.deck(players).counts();
    let hand_size = rules.hand_size as usize;
    let deep = index < deep_checked_games();
    let mut allowed = [hand_size; 8];
    let mut seen = 0u64;
    let mut bots = make_bots(kind, players, seed);
    let mut simulator = Simulator::new(SimOptions {
        record: true,
        ..SimOptions::default()
    });
    let summary = simulator
        .play_observed(
            &rules,
            players,
            seed,
            &mut bots,
            |game: &Game, event: &Event| {
                // Conservation (RULES.md common ground: every card is in a hand, the stock or
                // the discard pile; reshuffles only move the pile into the stock): after every
                // event of a dealt game the cards in play are exactly the deck.
                if game.round_number() > 0 {
                    assert_eq!(
                        game.cards_in_play(),
                        deck,
                        "{context}: cards not conserved after {event:?}"
                    );
                }
                // A turn throws at least one card and draws one; slap-downs and add-ons only
                // lay cards: no hand ever holds more than it was dealt, but for the draws
                // Sevens forced on it, the piñatas it took and the waterfall cards it kept
                // this round, and never more
                // than a hand can hold. A re-deal (Double-edged sword) deals the gathered
                // cards evenly, and each hand starts again from what it was dealt then.
                match event {
                    Event::RoundDealt(_) => allowed = [hand_size; 8],
                    Event::ForcedToDraw(f) => allowed[f.seat as usize] += 1,
                    Event::PinataTaken(p) => allowed[p.seat as usize] += 1,
                    Event::WaterfallPicked(p) => allowed[p.seat as usize] += 1,
                    Event::HandsRedealt(r) => {
                        let sizes: Vec<usize> = r.hands.iter().flatten().map(|h| h.len()).collect();
                        let (low, high) = (sizes.iter().min(), sizes.iter().max());
                        assert!(
                            high.zip(low).is_none_or(|(h, l)| h - l <= 1),
                            "{context}: an uneven re-deal {sizes:?}"
                        );
                        for (seat, hand) in r.hands.iter().enumerate() {
                            if let Some(hand) = hand {
                                allowed[seat] = hand.len();
                            }
                        }
                    }
                    _ => {}
                }
                for seat in 0..players as Seat {
                    let held = game.hand(seat).len();
                    assert!(
                        held <= allowed[seat as usize] && held <= MAX_HAND,
                        "{context}: seat {seat} holds too many cards"
                    );
                }
                // Every event of a deep-checked game, but only every 50th after the first
                // 1,000: random bots under Sevens play rounds of thousands of turns.
                seen += 1;
                if deep && (seen <= 1_000 || seen.is_multiple_of(50)) {
                    for seat in 0..players as Seat {
                        // The bots' allocation-free legal moves are exactly `legal_actions`
                        // (which promises that every listed action is accepted by `decide`).
                        let view = BotView::new(game, seat);
                        let legal = game.legal_actions(seat);
                        assert_eq!(
                            view.legal_actions(),
                            legal,
                            "{context}: seat {seat} after {event:?}"
                        );
                        // Every subset tried, as the reference, for hands up to the size
                        // dealt (or 7): past that, hands Sevens swelled would cost up to
                        // 2^16 subsets each.
                        let hand = game.hand(seat);
                        if hand.len() > hand_size.max(7) {
                            continue;
                        }
                        // The add-on enumeration finds every subset `add_on_fits` accepts.
                        let mut reference = reference_add_ons(game, seat, &rules);
                        let mut listed = legal.add_ons.clone();
                        reference.sort_by_key(|c| format!("{c}"));
                        listed.sort_by_key(|c| format!("{c}"));
                        assert_eq!(listed, reference, "{context}: add-ons of {hand}");
                        // The throw generator lists what classifying every subset finds.
                        let mut fast = Vec::new();
                        for_each_throw(hand.as_slice(), &rules, |t| fast.push(*t));
                        assert_eq!(
                            fast,
                            reference_throws(hand.as_slice(), &rules),
                            "{context}: throws of {hand}"
                        );
                    }
                }
            },
        )
        // Every command a bot sends is accepted by `decide` (the simulator stops with
        // `Refused` otherwise), and every game ends.
        .unwrap_or_else(|e| panic!("{context}: {e}"));
    let log = summary.log.as_ref().expect("recorded");
    assert!(
        matches!(log.last(), Some(Event::GameFinished(_))),
        "{context}: the game did not finish"
    );

    // The counts are the events.
    let count = |f: fn(&Event) -> bool| log.iter().filter(|e| f(e)).count() as u64;
    assert_eq!(summary.events, log.len() as u64, "{context}");
    assert_eq!(
        summary.turns,
        count(|e| matches!(e, Event::TurnPlayed(_))),
        "{context}"
    );
    assert_eq!(
        summary.rounds,
        count(|e| matches!(e, Event::RoundEnded(_))),
        "{context}"
    );
    assert_eq!(summary.outcomes.total(), summary.rounds, "{context}");

    // Checked replay: deciding every action again from the state before it gives exactly
    // the stored events, and the same final totals and standings.
    let replayed = Game::replay_checked(log)
        .unwrap_or_else(|(at, e)| panic!("{context}: replay fails at {at}: {e}"));
    assert!(replayed.is_finished(), "{context}");
    assert_eq!(replayed.totals(), &summary.totals[..], "{context}");
    assert_eq!(replayed.standings(), summary.standings, "{context}");
    // Folding the trusted events gives the same state too.
    let folded = Game::from_events(log);
    assert_eq!(folded.totals(), &summary.totals[..], "{context}");

    // Events survive their JSON form unchanged.
    let json = serde_json::to_string(log).expect("events serialize");
    let back: Vec<Event> = serde_json::from_str(&json).expect("events deserialize");
    assert_eq!(&back, log, "{context}: JSON round trip");

    check_standings(&rules, &summary.standings, &replayed, players, &context);
    let winners: Vec<Seat> = summary
        .standings
        .iter()
        .filter(|s| s.place == 1)
        .map(|s| s.seat)
        .collect();
    assert_eq!(summary.winners, winners, "{context}");
}

/// RULES.md interpretation 10 and the game ends: standings list every seat once, best
/// first; places start at 1, a player's place is one more than the number of players
/// strictly ahead, so tied players share a place and the next place skips.
fn check_standings(
    rules: &Rules,
    standings: &[Standing],
    game: &Game,
    players: usize,
    context: &str,
) {
    assert_eq!(standings.len(), players, "{context}");
    let mut seats: Vec<Seat> = standings.iter().map(|s| s.seat).collect();
    seats.sort_unstable();
    assert_eq!(
        seats,
        (0..players as Seat).collect::<Vec<_>>(),
        "{context}: every seat once"
    );
    for (i, s) in standings.iter().enumerate() {
        assert_eq!(
            s.total,
            game.totals()[s.seat as usize],
            "{context}: standing total"
        );
        if i == 0 {
            assert_eq!(s.place, 1, "{context}");
            continue;
        }
        let before = standings[i - 1];
        assert!(
            s.place == before.place || s.place as usize == i + 1,
            "{context}: places {standings:?}"
        );
        match rules.game_end {
            // "the lowest total wins": ascending totals, equal totals share a place.
            GameEnd::LowestWins { .. } => {
                assert!(
                    before.total <= s.total,
                    "{context}: not sorted {standings:?}"
                );
                assert_eq!(
                    before.total == s.total,
                    before.place == s.place,
                    "{context}: ties {standings:?}"
                );
            }
            // "last survivor wins": the one player left is alone in first place, everyone
            // after them was eliminated; a tie needs equal totals.
            GameEnd::Elimination { .. } => {
                if s.place == before.place {
                    assert_eq!(s.total, before.total, "{context}: ties {standings:?}");
                }
                assert!(
                    game.is_eliminated(s.seat),
                    "{context}: a survivor below first place"
                );
            }
        }
    }
    if matches!(rules.game_end, GameEnd::Elimination { .. }) {
        assert!(
            !game.is_eliminated(standings[0].seat),
            "{context}: the winner survives"
        );
        assert_eq!(
            standings.iter().filter(|s| s.place == 1).count(),
            1,
            "{context}: one survivor"
        );
    }
}

fn check_preset(preset: Preset) {
    let games = games_per_combination();
    for players in 2..=8 {
        for kind in BotKind::ALL {
            for index in 0..games {
                check_game(preset, players, kind, index);
            }
        }
    }
}

/// One test per preset, so that the presets are checked in parallel.
macro_rules! every_property_of {
    ($($test:ident: $preset:ident),* $(,)?) => {$(
        #[test]
        fn $test() {
            check_preset(Preset::$preset);
        }
    )*};
}

every_property_of! {
    israeli_games_hold_every_property: Israeli,
    nepali_games_hold_every_property: Nepali,
    kluft_games_hold_every_property: Kluft,
    belgian_games_hold_every_property: Belgian,
    wikipedia_games_hold_every_property: Wikipedia,
    house_games_hold_every_property: House,
}

/// The random rule generator's draws (`yaniv-random-rules/4`, bonus rules included) are
/// games like any other: forty seeds, the smallest and the largest table each allows,
/// both bots; the legal-move checks after every event (slow with hands of ten) in the
/// first three seeds' games only.
///
/// But for one pairing: random bots under Sevens at the largest table play the
/// smallest only. Seven others draw a card for each seven, and a random bot calls
/// about once in as many turns as it has moves, so rounds there last tens of
/// thousands of turns (seed 6's rules at eight seats: 11.3 million turns in 127
/// rounds of 20 games, `yaniv simulate --preset house --players 8 --games 20 --seed 3
/// --overrides <those rules>`), past the simulator's two million commands. The greedy
/// bot plays that table, and the bonus-rules test plays Sevens with random bots at
/// every size.
#[test]
fn random_rules_games_hold_every_property() {
    use yaniv_domain::rules::BonusRule;
    for i in 0..40u8 {
        let mut bytes = [0u8; 32];
        bytes[0] = i;
        let drawn = random_rules_v4(&Seed(bytes));
        let rules = &drawn.rules;
        let index = if i < 3 { 0 } else { deep_checked_games() };
        for players in [rules.min_players, rules.max_players].map(usize::from) {
            for kind in BotKind::ALL {
                if kind == BotKind::Random
                    && rules.has_bonus(BonusRule::Sevens)
                    && players > usize::from(rules.min_players)
                {
                    continue;
                }
                let series = 90_000 + u64::from(i) * 100 + players as u64 * 10 + kind as u64;
                let label = format!("random rules #{i}");
                check_game_under(rules, &label, series, players, kind, index);
            }
        }
    }
}

/// The bonus rules, each alone (with `cell_division`, which `osmosis` and
/// `fifths_disease` need) and all together, under the house rules (and those that fit
/// the Belgian go-along calls under them): every table size, both bots,
/// `YANIV_PROPTEST_GAMES / 8` games each (at least 3).
#[test]
fn games_with_the_bonus_rules_hold_every_property() {
    use yaniv_domain::rules::BonusRule;
    let names: Vec<&str> = BonusRule::ALL.iter().map(|r| r.name()).collect();
    let mut sets: Vec<(Preset, Vec<&str>)> = names
        .iter()
        .map(|&n| match n {
            "osmosis" | "fifths_disease" => (Preset::House, vec!["cell_division", n]),
            _ => (Preset::House, vec![n]),
        })
        .collect();
    sets.push((Preset::House, names.clone()));
    sets.push((
        Preset::Belgian,
        names.iter().copied().filter(|&n| n != "wormhole").collect(),
    ));
    let games = (games_per_combination() / 8).max(3);
    for (set, (preset, bonus)) in sets.iter().enumerate() {
        let overrides = serde_json::json!({ "bonus_rules": bonus });
        let serde_json::Value::Object(overrides) = overrides else {
            unreachable!("an object")
        };
        let rules = preset
            .rules()
            .with_overrides(&overrides)
            .expect("valid bonus rules");
        let label = format!("{preset:?} + {}", bonus.join(" + "));
        for players in 2..=8 {
            for kind in BotKind::ALL {
                for index in 0..games {
                    let series = 80_000 + set as u64 * 1_000 + players as u64 * 10 + kind as u64;
                    check_game_under(&rules, &label, series, players, kind, index);
                }
            }
        }
    }
}

/// The same seed gives the same game: deals, bot choices, results.
#[test]
fn a_seed_fixes_the_whole_game() {
    for kind in BotKind::ALL {
        let rules = Preset::Belgian.rules();
        let play = |seed| {
            let mut bots = make_bots(kind, 5, seed);
            let mut sim = Simulator::new(SimOptions {
                record: true,
                ..SimOptions::default()
            });
            sim.play(&rules, 5, seed, &mut bots).expect("plays")
        };
        assert_eq!(play(7), play(7));
        assert_ne!(play(7).log, play(8).log);
    }
}

/// Bots see only their seat: a bot's command depends on its own hand and the public table,
/// never on other hands or the stock. Swapping the cards of two other hands (same sizes)
/// and of the stock must not change what a deterministic bot does.
#[test]
fn greedy_bot_ignores_hidden_cards() {
    use yaniv_domain::bots::{Bot, GreedyBot};
    use yaniv_domain::cards::Card;
    use yaniv_domain::game::{Command, DealSource};
    let rules = Preset::Israeli.rules();
    let card = |s: &str| s.parse::<Card>().expect("card");
    let hand = |s: &str| s.split_whitespace().map(card).collect::<Cards>();
    let deal = |second: &str, third: &str| {
        let mut game = Game::new();
        game.execute(&Command::Create {
            rules: rules.clone(),
            players: vec!["a".into(), "b".into(), "c".into()],
            initial_totals: vec![],
        })
        .expect("create");
        game.execute(&Command::Deal {
            starter: Some(0),
            source: DealSource::Explicit {
                hands: vec![hand("9C 9D KS 2H 3H"), hand(second), hand(third)],
                up_card: card("AS"),
            },
        })
        .expect("deal");
        game
    };
    let one = deal("4C 5C 6C QH QD", "7S 8S JK 10D 2C");
    let two = deal("7S 8S JK 10D 2C", "4C 5C 6C QH QD");
    let mut bot = GreedyBot::default();
    let a = bot.act(&BotView::new(&one, 0));
    let b = bot.act(&BotView::new(&two, 0));
    assert_eq!(a, b);
    assert!(matches!(a, Some(Command::Play { .. })));
}
