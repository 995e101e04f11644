//! Rating recomputation benchmark (issue 34): the whole list folded again from
//! 1,000,000 games among 10,000 players, as the server does when a result lands and the
//! reference verifier does from archives. Ignored by default (a measurement, not a
//! test); run it in release:
//!
//! ```text
//! cargo test --release -p yaniv-domain --test ratings_bench -- --ignored --nocapture
//! ```
//!
//! Games are tables of 4 to 6 players drawn at random from the field, places a random
//! order with a tie in one game of ten, at increasing times across 200 tournaments, so
//! the fold sees what a long-lived server holds. It times the order (sorting the games
//! of every tournament into one list) and the fold (every game rated in turn), and
//! prints a checksum so that two runs can be seen to compute the same thing. Figures in
//! `BENCHMARKS.md`, section "Ratings".

use std::time::Instant;

use yaniv_domain::ratings::{GameSource, RatedGame, RatedLine, RatingBook, sort_games};
use yaniv_domain::sim::SplitMix64;
use yaniv_domain::tournament::TableRef;

const PLAYERS: u64 = 10_000;
const GAMES: usize = 1_000_000;
const TOURNAMENTS: u64 = 200;

fn below(rng: &mut SplitMix64, n: u64) -> u64 {
    rng.next_u64() % n
}

fn games(rng: &mut SplitMix64) -> Vec<RatedGame> {
    let mut games = Vec::with_capacity(GAMES);
    for k in 0..GAMES {
        let seats = 4 + below(rng, 3) as usize;
        let mut players: Vec<i64> = Vec::with_capacity(seats);
        while players.len() < seats {
            let p = 1 + below(rng, PLAYERS) as i64;
            if !players.contains(&p) {
                players.push(p);
            }
        }
        let tie = below(rng, 10) == 0;
        let lines = players
            .iter()
            .enumerate()
            .map(|(i, &player)| RatedLine {
                player,
                // With a tie, the last two share the last place.
                place: if tie && i == seats - 1 {
                    i as u8
                } else {
                    i as u8 + 1
                },
            })
            .collect();
        let tournament = 1 + below(rng, TOURNAMENTS) as i64;
        games.push(RatedGame {
            // The games of a tournament interleave with the others' in time.
            at_micros: 1_700_000_000_000_000 + k as i64 * 1_000 + below(rng, 5_000) as i64,
            source: GameSource::Tournament {
                tournament,
                table: TableRef {
                    stage: 1,
                    round: 1 + (k / 10_000) as u32,
                    table: 1 + (k % 10_000) as u32,
                },
            },
            lines,
        });
    }
    games
}

#[test]
#[ignore = "a measurement: run with --ignored in release"]
fn recompute_ten_thousand_players_and_a_million_games() {
    let mut rng = SplitMix64::new(34);
    let mut games = games(&mut rng);
    let lines: usize = games.iter().map(|g| g.lines.len()).sum();
    let start = Instant::now();
    sort_games(&mut games);
    let sorted = start.elapsed();
    let mut book = RatingBook::new();
    for game in &games {
        book.apply(game).expect("a rateable game");
    }
    let total = start.elapsed();
    let ranked = book.ranked();
    let ranked_in = start.elapsed() - total;
    let checksum: f64 = book.players().iter().map(|(_, s)| s.rating.mu).sum();
    println!(
        "{} players, {} games, {} lines: order {:.0} ms, order and fold {:.0} ms ({:.2} us per game), ranking {:.1} ms; sum of mu {checksum:.6}",
        ranked.len(),
        games.len(),
        lines,
        sorted.as_secs_f64() * 1e3,
        total.as_secs_f64() * 1e3,
        total.as_secs_f64() * 1e6 / games.len() as f64,
        ranked_in.as_secs_f64() * 1e3,
    );
    assert_eq!(ranked.len(), PLAYERS as usize);
}
