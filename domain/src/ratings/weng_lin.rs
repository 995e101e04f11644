//! Weng-Lin's Bayesian approximation under the Plackett-Luce model (Weng and Lin,
//! "A Bayesian Approximation Method for Online Ranking", JMLR 12, 2011, algorithm 4),
//! for games of single players, with ties. `docs/ratings.md` states every constant and
//! every operation in the order done here: the reference verifier repeats them in
//! Python and must land on the same binary64 values, so the arithmetic below is
//! written out step by step (no fused multiply-add, sums in the game's line order).

use super::error::RatingError;

/// Every player's skill before their first rated game (`mu`).
pub const INITIAL_MU: f64 = 25.0;
/// The uncertainty of a new player (`sigma`), and the most any player ever has.
pub const INITIAL_SIGMA: f64 = 25.0 / 3.0;
/// The spread of one game's performance around the skill (`beta`).
pub const BETA: f64 = 25.0 / 6.0;
/// Uncertainty added back before each game (`tau`), so that the ratings of regular
/// players keep moving instead of freezing as their sigma shrinks.
pub const TAU: f64 = 25.0 / 300.0;
/// The least share of the variance a game may leave (`kappa`): keeps sigma positive.
pub const KAPPA: f64 = 0.0001;
/// How many sigmas the displayed rating stays below mu.
pub const DISPLAY_SIGMAS: f64 = 3.0;

/// A player's rating: the estimated skill and its uncertainty.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rating {
    pub mu: f64,
    pub sigma: f64,
}

impl Default for Rating {
    fn default() -> Self {
        Self::NEW
    }
}

impl Rating {
    /// The rating of a player who has not played a rated game.
    pub const NEW: Rating = Rating {
        mu: INITIAL_MU,
        sigma: INITIAL_SIGMA,
    };

    /// The conservative figure the lists sort and show: `mu - 3 sigma`, a skill the
    /// player is very likely to have at least (0 for a new player).
    pub fn displayed(&self) -> f64 {
        self.mu - DISPLAY_SIGMAS * self.sigma
    }
}

/// One player of a game: the rating going in and the place (1 = best; tied players
/// share a place, the values only compare).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Entry {
    pub rating: Rating,
    pub place: u32,
}

/// The ratings after one game, in the order of `entries`.
pub fn rate_game(entries: &[Entry]) -> Result<Vec<Rating>, RatingError> {
    if entries.len() < 2 {
        return Err(RatingError::TooFewPlayers(entries.len()));
    }
    let sigma_cap = INITIAL_SIGMA * INITIAL_SIGMA;
    // The variance going into the game: tau added back, never past a new player's.
    let variance: Vec<f64> = entries
        .iter()
        .map(|e| {
            let grown = e.rating.sigma * e.rating.sigma + TAU * TAU;
            if grown > sigma_cap { sigma_cap } else { grown }
        })
        .collect();
    let mut c_squared = 0.0;
    for v in &variance {
        c_squared += v + BETA * BETA;
    }
    let c = c_squared.sqrt();
    let strength: Vec<f64> = entries.iter().map(|e| (e.rating.mu / c).exp()).collect();
    // For each q: the strengths of everyone placed at or below q (the field q beat or
    // tied), and how many share q's place.
    let field: Vec<f64> = entries
        .iter()
        .map(|q| {
            let mut sum = 0.0;
            for (s, e) in strength.iter().zip(entries) {
                if e.place >= q.place {
                    sum += s;
                }
            }
            sum
        })
        .collect();
    let tied: Vec<f64> = entries
        .iter()
        .map(|q| entries.iter().filter(|e| e.place == q.place).count() as f64)
        .collect();
    let mut rated = Vec::with_capacity(entries.len());
    for (i, player) in entries.iter().enumerate() {
        let mut omega = 0.0;
        let mut delta = 0.0;
        for (q, other) in entries.iter().enumerate() {
            if other.place > player.place {
                continue;
            }
            let p = strength[i] / field[q];
            if q == i {
                omega += (1.0 - p) / tied[q];
            } else {
                omega -= p / tied[q];
            }
            delta += p * (1.0 - p) / tied[q];
        }
        let v = variance[i];
        let sigma = v.sqrt();
        let mu_change = v / c * omega;
        let gamma = sigma / c;
        let variance_share = gamma * (v / c_squared) * delta;
        let kept = 1.0 - variance_share;
        let kept = if kept < KAPPA { KAPPA } else { kept };
        rated.push(Rating {
            mu: player.rating.mu + mu_change,
            sigma: sigma * kept.sqrt(),
        });
    }
    Ok(rated)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn new_at(place: u32) -> Entry {
        Entry {
            rating: Rating::NEW,
            place,
        }
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-12
    }

    /// Two new players: the winner gains what the loser loses. By hand: c^2 =
    /// 2 (sigma^2 + beta^2) = 3125/18, p = 1/2, so mu moves by sigma^2 / c / 2 =
    /// 5 sqrt(10) / 6 and sigma^2 shrinks by (sigma / c)^3 / 4 = (2/5)^(3/2) / 4 of
    /// itself. The same figures as the `skillratings` crate's own test of its
    /// two-player Weng-Lin (27.63523138347365, 8.065506316323548), an independent
    /// implementation: with two players Plackett-Luce and Bradley-Terry coincide.
    #[test]
    fn a_two_player_game_moves_both_by_the_same_amount() {
        let rated = rate_game(&[new_at(1), new_at(2)]).expect("two players");
        let step = 5.0 * 10f64.sqrt() / 6.0;
        assert!(close(rated[0].mu, 25.0 + step), "{:?}", rated[0]);
        assert!(close(rated[1].mu, 25.0 - step), "{:?}", rated[1]);
        let shrink = 0.4f64.powf(1.5) / 4.0;
        let sigma = INITIAL_SIGMA * (1.0 - shrink).sqrt();
        assert!(close(rated[0].sigma, sigma) && close(rated[1].sigma, sigma));
        assert!(close(rated[0].mu, 27.635_231_383_473_65));
        assert!(close(rated[0].sigma, 8.065_506_316_323_548));
    }

    /// Four new players, places 1, 2, 2, 4. Equal strengths make every probability a
    /// simple fraction: the fields below each place hold 4, 3, 3 and 1 players, so
    /// omega is 3/4 for the winner, -1/4 + (1/3)/2 - (1/3)/2 ... = -1/12 for each of the
    /// tied pair and -7/12 for the last; delta is 3/16 for the winner and 59/144 for
    /// the others. c^2 = 4 (sigma^2 + beta^2) = 3125/9, so sigma^2 / c = 5 sqrt(5) / 3
    /// and (sigma / c)^3 = 1 / (5 sqrt 5).
    #[test]
    fn a_four_player_game_with_a_tie_matches_the_hand_computation() {
        let rated = rate_game(&[new_at(1), new_at(2), new_at(2), new_at(4)]).expect("four players");
        let scale = 5.0 * 5f64.sqrt() / 3.0;
        let mu = [
            25.0 + scale * 3.0 / 4.0,
            25.0 - scale / 12.0,
            25.0 - scale / 12.0,
            25.0 - scale * 7.0 / 12.0,
        ];
        let cube = 1.0 / (5.0 * 5f64.sqrt());
        let sigma = [
            INITIAL_SIGMA * (1.0 - cube * 3.0 / 16.0).sqrt(),
            INITIAL_SIGMA * (1.0 - cube * 59.0 / 144.0).sqrt(),
            INITIAL_SIGMA * (1.0 - cube * 59.0 / 144.0).sqrt(),
            INITIAL_SIGMA * (1.0 - cube * 59.0 / 144.0).sqrt(),
        ];
        for (k, r) in rated.iter().enumerate() {
            assert!(close(r.mu, mu[k]), "player {k}: {r:?} vs mu {}", mu[k]);
            assert!(
                close(r.sigma, sigma[k]),
                "player {k}: {r:?} vs {}",
                sigma[k]
            );
        }
        // The tied pair is rated alike (up to the order of the sums).
        assert!(close(rated[1].mu, rated[2].mu) && close(rated[1].sigma, rated[2].sigma));
    }

    #[test]
    fn a_game_needs_two_players() {
        assert_eq!(rate_game(&[new_at(1)]), Err(RatingError::TooFewPlayers(1)));
        assert_eq!(rate_game(&[]), Err(RatingError::TooFewPlayers(0)));
    }

    /// A small deterministic generator (no dev-dependency needed): games of 2 to 8
    /// players with random ratings and places, ties included.
    struct Lcg(u64);

    impl Lcg {
        fn next(&mut self) -> u64 {
            self.0 = self
                .0
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            self.0 >> 33
        }

        fn below(&mut self, n: u64) -> u64 {
            self.next() % n
        }

        fn unit(&mut self) -> f64 {
            self.below(1 << 20) as f64 / (1u64 << 20) as f64
        }
    }

    fn random_game(rng: &mut Lcg) -> Vec<Entry> {
        let n = 2 + rng.below(7) as usize;
        (0..n)
            .map(|_| Entry {
                rating: Rating {
                    mu: 5.0 + 40.0 * rng.unit(),
                    sigma: 0.5 + (INITIAL_SIGMA - 0.5) * rng.unit(),
                },
                place: 1 + rng.below(n as u64) as u32,
            })
            .collect()
    }

    /// Over many random games: sigma never grows past a new player's and never reaches
    /// zero; the mu changes weighted by each player's variance sum to zero (exactly
    /// zero-sum when the variances are equal); a sole winner gains and a sole last
    /// loses; players sharing a place with equal ratings move alike.
    #[test]
    fn invariants_hold_over_random_games() {
        let mut rng = Lcg(34);
        for _ in 0..20_000 {
            let game = random_game(&mut rng);
            let rated = rate_game(&game).expect("at least two players");
            let mut weighted = 0.0;
            let mut scale = 0.0;
            for (before, after) in game.iter().zip(&rated) {
                assert!(after.sigma <= INITIAL_SIGMA, "{before:?} -> {after:?}");
                assert!(after.sigma > 0.0);
                assert!(after.sigma <= (before.rating.sigma.powi(2) + TAU * TAU).sqrt() + 1e-12);
                let variance = (before.rating.sigma.powi(2) + TAU * TAU).min(INITIAL_SIGMA.powi(2));
                weighted += (after.mu - before.rating.mu) / variance;
                scale += (after.mu - before.rating.mu).abs() / variance;
            }
            assert!(weighted.abs() <= 1e-9 * scale.max(1.0), "{game:?}");
            let best = game.iter().map(|e| e.place).min().unwrap_or(0);
            let worst = game.iter().map(|e| e.place).max().unwrap_or(0);
            let alone = |place: u32| game.iter().filter(|e| e.place == place).count() == 1;
            for (before, after) in game.iter().zip(&rated) {
                if before.place == best && alone(best) && best != worst {
                    assert!(
                        after.mu > before.rating.mu,
                        "winner {before:?} -> {after:?}"
                    );
                }
                if before.place == worst && alone(worst) && best != worst {
                    assert!(after.mu < before.rating.mu, "last {before:?} -> {after:?}");
                }
            }
        }
    }

    #[test]
    fn equal_players_of_a_game_sum_to_zero() {
        let rated = rate_game(&[new_at(3), new_at(1), new_at(2), new_at(2), new_at(5)])
            .expect("five players");
        let sum: f64 = rated.iter().map(|r| r.mu - INITIAL_MU).sum();
        assert!(sum.abs() < 1e-12, "{sum}");
    }

    /// The upset moves more than the expected result: beating a stronger player gains
    /// more than beating a weaker one.
    #[test]
    fn an_upset_moves_more() {
        let strong = Rating {
            mu: 35.0,
            sigma: 3.0,
        };
        let weak = Rating {
            mu: 15.0,
            sigma: 3.0,
        };
        let expected = rate_game(&[
            Entry {
                rating: strong,
                place: 1,
            },
            Entry {
                rating: weak,
                place: 2,
            },
        ])
        .expect("two");
        let upset = rate_game(&[
            Entry {
                rating: strong,
                place: 2,
            },
            Entry {
                rating: weak,
                place: 1,
            },
        ])
        .expect("two");
        assert!(upset[1].mu - weak.mu > expected[0].mu - strong.mu);
        assert!(Rating::NEW.displayed().abs() < 1e-12);
    }
}
