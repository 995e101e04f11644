//! Table points and score differences, in exact integer arithmetic.
//!
//! TOURNAMENT.md: "at a table of `n`, place `p` earns `100 * (n - p) / (n - 1)` points;
//! tied players share the average of their places' points", and the score difference is
//! "own final total minus the table's mean".
//!
//! # Units
//!
//! Both are kept as integers in **840ths** ([`SCALE`]). 840 is the least common multiple
//! of 1 to 8, so for every table size the rules allow (2 to 8):
//!
//! - a tie of `k` players from place `p` shares `100 * (2(n - p) - (k - 1)) / (2(n - 1))`
//!   points, which in 840ths is `42000 * (2(n - p) - (k - 1)) / (n - 1)`: an integer,
//!   because 42000 = 2^4 * 3 * 5^3 * 7 is divisible by every `n - 1` from 1 to 7;
//! - `total - sum / n` in 840ths is `(840 / n) * (n * total - sum)`: an integer.
//!
//! Sums over games stay exact; standings compare integers; nothing is ever rounded except
//! for display ([`Points::hundredths`], half up).

use std::fmt;

use serde::{Deserialize, Serialize};

use super::event::PlayerResult;
use super::refs::AccountId;

/// 1 point = 840 units.
pub const SCALE: i64 = 840;

/// Table points in 840ths of a point.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(transparent)]
pub struct Points(pub i64);

/// A score difference in 840ths of a point (lower is better).
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(transparent)]
pub struct ScoreDifference(pub i64);

/// `units / 840` rounded half away from zero to hundredths.
fn hundredths(units: i64) -> i64 {
    let scaled = units * 100;
    let half = SCALE / 2;
    if scaled >= 0 {
        (scaled + half) / SCALE
    } else {
        -((-scaled + half) / SCALE)
    }
}

fn write_hundredths(f: &mut fmt::Formatter<'_>, units: i64) -> fmt::Result {
    let h = hundredths(units);
    let sign = if h < 0 { "-" } else { "" };
    write!(f, "{sign}{}.{:02}", h.abs() / 100, h.abs() % 100)
}

impl Points {
    /// Whole points (exact when the value is whole).
    pub fn from_points(points: i64) -> Points {
        Points(points * SCALE)
    }

    /// Rounded to hundredths, half away from zero: for display only.
    pub fn hundredths(self) -> i64 {
        hundredths(self.0)
    }
}

impl ScoreDifference {
    pub fn hundredths(self) -> i64 {
        hundredths(self.0)
    }
}

impl std::ops::Add for Points {
    type Output = Points;
    fn add(self, other: Points) -> Points {
        Points(self.0 + other.0)
    }
}

impl std::ops::AddAssign for Points {
    fn add_assign(&mut self, other: Points) {
        self.0 += other.0;
    }
}

impl std::ops::AddAssign for ScoreDifference {
    fn add_assign(&mut self, other: ScoreDifference) {
        self.0 += other.0;
    }
}

/// `66.67`: the value rounded to hundredths.
impl fmt::Display for Points {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_hundredths(f, self.0)
    }
}

impl fmt::Display for ScoreDifference {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_hundredths(f, self.0)
    }
}

/// The points shared by `tied` players who take places `place ..= place + tied - 1` at a
/// table of `n` (2 to 8). A place outside the table earns nothing.
pub fn place_points(n: usize, place: usize, tied: usize) -> Points {
    if n < 2 || place == 0 || tied == 0 || place + tied - 1 > n {
        return Points(0);
    }
    let numerator = 2 * (n - place) as i64 - (tied as i64 - 1);
    Points(SCALE * 50 * numerator / (n as i64 - 1))
}

/// Table points of every player of one game's result, in the result's order. Players who
/// share a place share the points of the places they cover.
pub fn table_points(result: &[PlayerResult]) -> Vec<(AccountId, Points)> {
    let n = result.len();
    result
        .iter()
        .map(|r| {
            let tied = result.iter().filter(|o| o.place == r.place).count();
            (r.player, place_points(n, r.place as usize, tied))
        })
        .collect()
}

/// Each player's final total minus the table's mean, in the result's order.
pub fn score_differences(result: &[PlayerResult]) -> Vec<(AccountId, ScoreDifference)> {
    let n = result.len() as i64;
    if n == 0 {
        return Vec::new();
    }
    let sum: i64 = result.iter().map(|r| r.total as i64).sum();
    result
        .iter()
        .map(|r| {
            (
                r.player,
                ScoreDifference(SCALE / n * (n * r.total as i64 - sum)),
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result(places_totals: &[(u8, u32)]) -> Vec<PlayerResult> {
        places_totals
            .iter()
            .enumerate()
            .map(|(i, &(place, total))| PlayerResult {
                player: i as AccountId + 1,
                total,
                place,
            })
            .collect()
    }

    #[test]
    fn places_earn_100_down_to_0() {
        assert_eq!(place_points(5, 1, 1), Points::from_points(100));
        assert_eq!(place_points(5, 2, 1), Points::from_points(75));
        assert_eq!(place_points(5, 5, 1), Points::from_points(0));
        assert_eq!(place_points(2, 1, 1), Points::from_points(100));
        // 100 * 4 / 6 = 66.666...: exact in 840ths.
        assert_eq!(place_points(7, 3, 1), Points(56_000));
        assert_eq!(place_points(7, 3, 1).to_string(), "66.67");
    }

    #[test]
    fn a_tie_for_second_at_five_shares_75_and_50() {
        let r = result(&[(1, 10), (2, 40), (2, 40), (4, 90), (5, 120)]);
        let points: Vec<Points> = table_points(&r).into_iter().map(|(_, p)| p).collect();
        assert_eq!(
            points,
            vec![
                Points::from_points(100),
                Points(62_500 * 840 / 1000),
                Points(62_500 * 840 / 1000),
                Points::from_points(25),
                Points::from_points(0),
            ]
        );
        assert_eq!(points[1].to_string(), "62.50");
        // The points of a table always add up to 100 * n / 2.
        let sum: i64 = points.iter().map(|p| p.0).sum();
        assert_eq!(sum, 250 * SCALE);
    }

    #[test]
    fn every_table_size_and_tie_is_exact() {
        for n in 2..=8usize {
            for place in 1..=n {
                for tied in 1..=(n - place + 1) {
                    let shared = place_points(n, place, tied).0 * tied as i64;
                    let sum: i64 = (place..place + tied)
                        .map(|p| 100 * SCALE * (n - p) as i64)
                        .sum::<i64>();
                    assert_eq!(
                        shared * (n as i64 - 1),
                        sum,
                        "n={n} place={place} tied={tied}"
                    );
                }
            }
        }
    }

    #[test]
    fn score_difference_is_total_minus_mean() {
        let r = result(&[(1, 10), (2, 20), (3, 40)]);
        let d: Vec<i64> = score_differences(&r)
            .into_iter()
            .map(|(_, d)| d.0)
            .collect();
        // Mean 70/3: 10 - 70/3 = -40/3 = -11200/840.
        assert_eq!(d, vec![-11_200, -2_800, 14_000]);
        assert_eq!(d.iter().sum::<i64>(), 0);
        assert_eq!(ScoreDifference(-11_200).to_string(), "-13.33");
    }
}
