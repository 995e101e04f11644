//! Seating benchmark: TOURNAMENT seating of 10,000 players must take under a second.
//! Ignored by default (it is a measurement, not a test); run it in release:
//!
//! ```text
//! cargo test --release -p yaniv-domain --test tournament_bench -- --ignored --nocapture
//! ```
//!
//! It times the pure seating functions (random first round, Swiss rounds with a real
//! history, the knockout snake) and the whole `DrawRound` decision through the
//! `Tournament` aggregate (standings from every result, the played-with matrix, the
//! seating, the event), and asserts the one-second budget in release builds. Results are
//! recorded in `BENCHMARKS.md`, section `tournament`.

mod common;

use std::time::{Duration, Instant};

use yaniv_domain::rules::RuleSpec;
use yaniv_domain::shuffle::Seed;
use yaniv_domain::sim::SplitMix64;
use yaniv_domain::tournament::seating::*;
use yaniv_domain::tournament::*;

const PLAYERS: usize = 10_000;
const BUDGET: Duration = Duration::from_secs(1);

fn timed<T>(label: &str, f: impl FnOnce() -> T) -> (T, Duration) {
    let start = Instant::now();
    let out = f();
    let took = start.elapsed();
    println!("{label:<58} {:>9.2} ms", took.as_secs_f64() * 1e3);
    if !cfg!(debug_assertions) {
        assert!(took < BUDGET, "{label} took {took:?}");
    }
    (out, took)
}

fn shuffled(n: usize, rng: &mut SplitMix64) -> Vec<u32> {
    let mut v: Vec<u32> = (0..n as u32).collect();
    for i in (1..n).rev() {
        v.swap(i, (rng.next_u64() % (i as u64 + 1)) as usize);
    }
    v
}

mod tournament_bench {
    use super::*;

    #[test]
    #[ignore = "benchmark: run in release with --ignored --nocapture"]
    fn seating_10000_players() {
        let mut rng = SplitMix64::new(10_000);
        let sizes = table_sizes(PLAYERS, 4, 6, 8).expect("a split");
        println!("{PLAYERS} players at {} tables of 4-6", sizes.len());
        let players: Vec<u32> = (0..PLAYERS as u32).collect();
        let (first, _) = timed("round 1: random draw", || {
            random_draw(&players, &sizes, &rng.next_seed())
        });
        let mut met = PlayedWith::new(PLAYERS);
        for t in &first.tables {
            met.add_table(t);
        }
        for round in 2..=10 {
            let ranked = shuffled(PLAYERS, &mut rng);
            let seed = rng.next_seed();
            let (seating, _) = timed(
                &format!(
                    "round {round}: Swiss (standings random, {} earlier rounds)",
                    round - 1
                ),
                || swiss_draw(&ranked, &sizes, &met, &seed),
            );
            let repeats: u32 = seating.tables.iter().map(|t| met.table_cost(t)).sum();
            println!("{:<58} {repeats:>9}", "  repeat meetings");
            for t in &seating.tables {
                met.add_table(t);
            }
        }
        // Adversarial standings: the players of each table of the last round next to each
        // other, so the greedy's nearest candidates all met.
        let last: Vec<Vec<u32>> = {
            let ranked = shuffled(PLAYERS, &mut rng);
            let seating = swiss_draw(&ranked, &sizes, &met, &rng.next_seed());
            for t in &seating.tables {
                met.add_table(t);
            }
            seating.tables
        };
        let adversarial: Vec<u32> = last.concat();
        let seed = rng.next_seed();
        let (seating, _) = timed(
            "round 12: Swiss, each earlier table adjacent in standings",
            || swiss_draw(&adversarial, &sizes, &met, &seed),
        );
        let repeats: u32 = seating.tables.iter().map(|t| met.table_cost(t)).sum();
        println!("{:<58} {repeats:>9}", "  repeat meetings");
        // Dense histories, where many repeats cannot be avoided: the budgets bound the work.
        for (players, rounds) in [(60usize, 15usize), (600, 60)] {
            let sizes = table_sizes(players, 4, 6, 8).expect("a split");
            let mut met = PlayedWith::new(players);
            for _ in 0..rounds {
                let ranked = shuffled(players, &mut rng);
                let mut rest = ranked.as_slice();
                for &s in &sizes {
                    let (t, tail) = rest.split_at(s);
                    met.add_table(t);
                    rest = tail;
                }
            }
            let ranked = shuffled(players, &mut rng);
            let seed = rng.next_seed();
            let label = format!("{players} players after {rounds} random rounds (dense)");
            let (seating, _) = timed(&label, || swiss_draw(&ranked, &sizes, &met, &seed));
            let repeats: u32 = seating.tables.iter().map(|t| met.table_cost(t)).sum();
            println!("{:<58} {repeats:>9}", "  repeat meetings");
        }
        let seeded = shuffled(5_000, &mut rng);
        timed(
            "knockout: 5,000 seeds, snake at tables of 6 with byes",
            || knockout_draw(&seeded, 6, 8, &Seed([1; 32])),
        );
    }

    #[test]
    #[ignore = "benchmark: run in release with --ignored --nocapture"]
    fn drawing_rounds_of_10000_players_through_the_aggregate() {
        let mut rng = SplitMix64::new(42);
        let organizer = Context::account(1, 0);
        let mut t = Tournament::new();
        let run = |t: &mut Tournament, c: Command| {
            t.execute(&organizer, &c)
                .unwrap_or_else(|e| panic!("{c:?}: {e:?}"))
        };
        run(
            &mut t,
            Command::Create {
                name: "Bench".into(),
                rules: RuleSpec {
                    preset: "belgian".into(),
                    overrides: Default::default(),
                },
                capacity: PLAYERS as u32,
                registration_window: RegistrationWindow::default(),
                config: ConfigRequest::default(),
            },
        );
        for p in 0..PLAYERS as AccountId {
            run(&mut t, Command::Register { player: 1_000 + p });
            run(&mut t, Command::CheckIn { player: 1_000 + p });
        }
        run(&mut t, Command::StartQualification { seeding: None });
        for round in 1..=3u32 {
            let seed = rng.next_seed();
            let (events, _) = timed(
                &format!("decide DrawRound, qualification round {round}"),
                || {
                    t.decide(&organizer, &Command::DrawRound { seed })
                        .expect("drawn")
                },
            );
            for e in &events {
                t.apply(e);
            }
            let tables = t
                .state()
                .round(RoundRef { stage: 1, round })
                .expect("drawn")
                .tables
                .clone();
            for (k, table) in tables.iter().enumerate() {
                let mut order = table.players.clone();
                for i in (1..order.len()).rev() {
                    order.swap(i, (rng.next_u64() % (i as u64 + 1)) as usize);
                }
                let standings = common::finishing(&order, 0, 20);
                run(
                    &mut t,
                    Command::RecordResult {
                        reason: None,
                        table: TableRef {
                            stage: 1,
                            round,
                            table: k as u32 + 1,
                        },
                        input: ResultInput::Game {
                            game: None,
                            standings,
                        },
                    },
                );
            }
        }
        timed("standings of 10,000 players after 3 rounds", || {
            t.standings().len()
        });
        run(&mut t, Command::AdvanceStage);
        let seed = rng.next_seed();
        let (events, _) = timed("decide DrawRound, knockout (cut 4,998 of 10,000)", || {
            t.decide(&organizer, &Command::DrawRound { seed })
                .expect("drawn")
        });
        let Some(Event::RoundDrawn(d)) = events.first() else {
            panic!("a draw")
        };
        println!(
            "knockout: {} seeds, {} tables, {} byes",
            d.seeds.len(),
            d.tables.len(),
            d.byes.len()
        );
    }
}
