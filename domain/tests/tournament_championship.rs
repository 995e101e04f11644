//! A whole 23-player championship between bots, from creation to the final ranking, in
//! pure domain code (`yaniv_domain::tournament::sim`), and the final ranking checked
//! against an independent recomputation from the games themselves: each game's result is
//! re-derived here from its engine events (not from what the tournament stored), the
//! table points are summed as exact fractions with their own arithmetic, and the ranking
//! is rebuilt from the draws' seating.

use std::cmp::Ordering;
use std::collections::{BTreeMap, HashMap};

use yaniv_domain::bots::BotKind;
use yaniv_domain::game::{Event as GameEvent, Game};
use yaniv_domain::rules::RuleSpec;
use yaniv_domain::tournament::sim::{SimulatedTournament, TournamentSim, simulate};
use yaniv_domain::tournament::{AccountId, ConfigRequest, Event, Reached, RoundDrawn};

fn belgian_championship(players: usize, seed: u64) -> SimulatedTournament {
    simulate(&TournamentSim {
        rules: RuleSpec {
            preset: "belgian".into(),
            overrides: Default::default(),
        },
        config: ConfigRequest::default(),
        players,
        bot: BotKind::Greedy,
        seed,
    })
    .unwrap_or_else(|e| panic!("the championship runs to its end: {e}"))
}

/// An exact fraction, reduced, positive denominator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Frac(i128, i128);

fn gcd(a: i128, b: i128) -> i128 {
    if b == 0 { a.abs() } else { gcd(b, a % b) }
}

impl Frac {
    fn new(n: i128, d: i128) -> Frac {
        let g = gcd(n, d).max(1);
        Frac(n / g * d.signum(), d.abs() / g)
    }
    fn add(self, o: Frac) -> Frac {
        Frac::new(self.0 * o.1 + o.0 * self.1, self.1 * o.1)
    }
    fn cmp(self, o: Frac) -> Ordering {
        (self.0 * o.1).cmp(&(o.0 * self.1))
    }
}

#[derive(Debug, Clone, Copy)]
struct Record {
    points: Frac,
    wins: u32,
    difference: Frac,
    registration: i64,
}

/// Per player, (account, total, place) of a finished game, from the engine's own events.
fn game_result(events: &[GameEvent], seats: &[AccountId]) -> Vec<(AccountId, u32, u8)> {
    let game = Game::from_events(events);
    assert!(game.is_finished());
    game.standings()
        .iter()
        .map(|s| (seats[s.seat as usize], s.total, s.place))
        .collect()
}

mod tournament_championship {
    use super::*;

    #[test]
    fn a_23_player_championship_from_creation_to_final_ranking() {
        let sim = belgian_championship(23, 2024);
        let t = &sim.tournament;
        let events = t.events();

        // The draws: 3 qualification rounds at 6,6,6,5, then the cut (better half of 23 is
        // 11, rounded down to a multiple of 6: 6) plays the final table directly.
        let draws: Vec<&RoundDrawn> = events
            .iter()
            .filter_map(|e| match e {
                Event::RoundDrawn(d) => Some(d),
                _ => None,
            })
            .collect();
        assert_eq!(draws.len(), 4);
        for d in &draws[..3] {
            let sizes: Vec<usize> = d.tables.iter().map(Vec::len).collect();
            assert_eq!(sizes, vec![6, 6, 6, 5]);
            assert!(d.precommitted && d.commitment.matches(&d.seed));
        }
        let final_draw = draws[3];
        assert!(final_draw.final_table);
        assert_eq!(final_draw.seeds.len(), 6);
        assert_eq!(final_draw.tables.len(), 1);

        // Independent recomputation of the qualification standings.
        let registration: HashMap<AccountId, i64> = events
            .iter()
            .filter_map(|e| match e {
                Event::PlayerRegistered(r) => Some((r.player, r.order as i64)),
                _ => None,
            })
            .collect();
        let mut records: BTreeMap<AccountId, Record> = registration
            .iter()
            .map(|(&p, &order)| {
                (
                    p,
                    Record {
                        points: Frac(0, 1),
                        wins: 0,
                        difference: Frac(0, 1),
                        registration: order,
                    },
                )
            })
            .collect();
        let mut final_result = Vec::new();
        for game in &sim.games {
            let result = game_result(&game.events, &game.seats);
            if game.table.stage != 1 {
                final_result = result;
                continue;
            }
            let n = result.len() as i128;
            let sum: i128 = result.iter().map(|r| r.1 as i128).sum();
            for &(player, total, place) in &result {
                // Places p .. p + k - 1 shared by k players: the average of their points.
                let k = result.iter().filter(|r| r.2 == place).count() as i128;
                let p = place as i128;
                let covered: i128 = (p..p + k).map(|q| 100 * (n - q)).sum();
                let r = records.get_mut(&player).expect("a registered player");
                r.points = r.points.add(Frac::new(covered, k * (n - 1)));
                r.wins += u32::from(place == 1);
                r.difference = r.difference.add(Frac::new(n * total as i128 - sum, n));
            }
        }
        let mut order: Vec<AccountId> = records.keys().copied().collect();
        order.sort_by(|a, b| {
            let (ra, rb) = (records[a], records[b]);
            rb.points
                .cmp(ra.points)
                .then(rb.wins.cmp(&ra.wins))
                .then(ra.difference.cmp(rb.difference))
                .then(ra.registration.cmp(&rb.registration))
        });
        // The tournament's standings agree, line by line.
        let standings: Vec<AccountId> = t.standings().iter().map(|r| r.stats.player).collect();
        assert_eq!(standings, order);
        for row in t.standings() {
            let mine = records[&row.stats.player].points;
            assert_eq!(Frac::new(row.stats.table_points.0 as i128, 840), mine);
        }

        // The cut and the final ranking.
        assert_eq!(final_draw.seeds, order[..6].to_vec());
        let seed_of = |p: AccountId| order.iter().position(|&o| o == p).expect("seeded");
        let mut finalists = final_result.clone();
        finalists.sort_by_key(|&(p, _, place)| (place, seed_of(p)));
        let mut expected: Vec<AccountId> = finalists.iter().map(|r| r.0).collect();
        let rest: Vec<AccountId> = order
            .iter()
            .copied()
            .filter(|p| !expected.contains(p))
            .collect();
        expected.extend(rest);

        let ranking = t.ranking().expect("finished");
        let ranked: Vec<AccountId> = ranking.ranking.iter().map(|r| r.player).collect();
        assert_eq!(ranked, expected);
        assert_eq!(ranking.ranking.len(), 23);
        assert_eq!(
            ranking.ranking.iter().map(|r| r.place).collect::<Vec<_>>(),
            (1..=23).collect::<Vec<u32>>()
        );
        assert!(matches!(
            ranking.ranking[0].reached,
            Reached::Final { place_at_table: 1 }
        ));
        assert!(
            ranking.ranking[6..]
                .iter()
                .all(|r| r.reached == Reached::Qualification)
        );
        let Some(Event::Finished(published)) = events.last() else {
            panic!("the last event publishes the ranking")
        };
        assert_eq!(published, &ranking);

        // Replaying the stored events gives the same tournament.
        let replayed = yaniv_domain::tournament::Tournament::from_events(events);
        assert_eq!(replayed.ranking(), Some(ranking));
        assert_eq!(replayed.standings(), t.standings());
    }
}

mod tournament_knockout {
    use super::*;
    use yaniv_domain::tournament::KnockoutCut;

    fn draws(sim: &SimulatedTournament) -> Vec<RoundDrawn> {
        sim.tournament
            .events()
            .iter()
            .filter_map(|e| match e {
                Event::RoundDrawn(d) => Some(d.clone()),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn a_100_player_championship_plays_a_knockout_stage_then_a_final_of_table_winners() {
        let sim = belgian_championship(100, 7);
        let d = draws(&sim);
        // 3 qualification rounds at 17 tables, then the cut of 48 at 8 tables of 6, then
        // the 8 table winners at the final.
        assert_eq!(d.len(), 5);
        assert!(d[..3].iter().all(|r| r.tables.len() == 17 && r.stage == 1));
        let knockout = &d[3];
        assert_eq!(
            (knockout.stage, knockout.seeds.len(), knockout.tables.len()),
            (2, 48, 8)
        );
        assert!(knockout.byes.is_empty() && !knockout.final_table);
        let final_draw = &d[4];
        assert!(final_draw.final_table);
        assert_eq!(final_draw.stage, 3);
        assert_eq!(final_draw.tables[0].len(), 8);
        // The finalists are the winners of the knockout tables (ties to the better seed).
        let seed_of = |p: AccountId| knockout.seeds.iter().position(|&s| s == p).expect("seeded");
        let mut winners: Vec<AccountId> = sim
            .games
            .iter()
            .filter(|g| g.table.stage == 2)
            .map(|g| {
                let mut r = game_result(&g.events, &g.seats);
                r.sort_by_key(|&(p, _, place)| (place, seed_of(p)));
                r[0].0
            })
            .collect();
        winners.sort_by_key(|&p| seed_of(p));
        assert_eq!(final_draw.seeds, winners);

        let ranking = sim.tournament.ranking().expect("finished").ranking;
        assert_eq!(ranking.len(), 100);
        assert!(
            ranking[..8]
                .iter()
                .all(|r| matches!(r.reached, Reached::Final { .. }))
        );
        assert!(ranking[8..48].iter().all(|r| matches!(r.reached, Reached::Knockout { stage: 2, place_at_table: Some(p) } if p >= 2)));
        assert!(
            ranking[48..]
                .iter()
                .all(|r| r.reached == Reached::Qualification)
        );
        // Knockout eliminations: by place at their table, then by seed.
        let key = |r: &yaniv_domain::tournament::RankedPlayer| match r.reached {
            Reached::Knockout { place_at_table, .. } => (place_at_table, seed_of(r.player)),
            _ => unreachable!(),
        };
        assert!(ranking[8..48].windows(2).all(|w| key(&w[0]) < key(&w[1])));
        // The qualification part follows the standings.
        let standings: Vec<AccountId> = sim
            .tournament
            .standings()
            .iter()
            .map(|r| r.stats.player)
            .collect();
        let rest: Vec<AccountId> = standings
            .iter()
            .copied()
            .filter(|p| !knockout.seeds.contains(p))
            .collect();
        assert_eq!(
            ranking[48..].iter().map(|r| r.player).collect::<Vec<_>>(),
            rest
        );
        assert_eq!(&standings[..48], knockout.seeds.as_slice());
    }

    #[test]
    fn the_highest_seeds_get_byes_when_the_cut_does_not_divide() {
        let sim = simulate(&TournamentSim {
            rules: RuleSpec {
                preset: "belgian".into(),
                overrides: Default::default(),
            },
            config: ConfigRequest {
                knockout_cut: Some(KnockoutCut::Top(26)),
                ..ConfigRequest::default()
            },
            players: 40,
            bot: BotKind::Greedy,
            seed: 11,
        })
        .expect("runs");
        let d = draws(&sim);
        let knockout = d.iter().find(|r| r.stage == 2).expect("a knockout stage");
        assert_eq!(knockout.byes, knockout.seeds[..2].to_vec());
        assert_eq!(knockout.tables.len(), 4);
        let final_draw = d.last().expect("a final");
        assert!(final_draw.final_table);
        assert_eq!(final_draw.seeds.len(), 6);
        assert_eq!(final_draw.seeds[..2], knockout.seeds[..2]);
        let stages = sim.tournament.stages();
        let table_view = &stages[1].rounds[0].tables[0];
        assert_eq!(table_view.advancing.len(), 1);
        assert!(final_draw.seeds.contains(&table_view.advancing[0]));
    }

    #[test]
    fn every_preset_runs_a_championship() {
        for preset in yaniv_domain::rules::PRESET_NAMES {
            let sim = simulate(&TournamentSim {
                rules: RuleSpec {
                    preset: preset.into(),
                    overrides: Default::default(),
                },
                config: ConfigRequest::default(),
                players: 16,
                bot: BotKind::Random,
                seed: 5,
            })
            .unwrap_or_else(|e| panic!("{preset}: {e}"));
            assert_eq!(
                sim.tournament.ranking().map(|r| r.ranking.len()),
                Some(16),
                "{preset}"
            );
        }
    }
}
