//! The season standings, `yaniv-season/1` (`docs/seasons.md` section 2): every finished
//! member's ranking earns points by place, a player's best `N` results count, and the
//! standings sort by total, then countback, then account id.

use std::cmp::Ordering;
use std::collections::BTreeMap;

use serde::Serialize;

use crate::tournament::{AccountId, RankedPlayer};

use super::scoring::Scoring;

/// A member tournament that has finished, with its published ranking.
#[derive(Debug, Clone, Copy)]
pub struct FinishedMember<'a> {
    pub tournament: i64,
    pub ranking: &'a [RankedPlayer],
}

/// One player's result in one member.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SeasonResult {
    pub tournament: i64,
    pub place: u32,
    pub points: u32,
    /// Among the player's best `N`.
    pub counted: bool,
}

/// One line of the standings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct StandingsRow {
    /// From 1, shared by players equal on total and countback.
    pub place: u32,
    pub player: AccountId,
    pub total: u64,
    /// In the order of the members given.
    pub results: Vec<SeasonResult>,
}

impl StandingsRow {
    /// The places of the counted results, best first: what countback compares.
    fn counted_places(&self) -> Vec<u32> {
        let mut places: Vec<u32> = self
            .results
            .iter()
            .filter(|r| r.counted)
            .map(|r| r.place)
            .collect();
        places.sort_unstable();
        places
    }
}

/// Countback: more counted 1st places ranks higher, then more 2nd places, and so on.
/// Over two sorted lists of places this is a walk: at the first place where they
/// differ, the list holding the better (smaller) place has one more of it; when one
/// list runs out first, the other has one more of its next place.
fn countback(a: &[u32], b: &[u32]) -> Ordering {
    for (x, y) in a.iter().zip(b) {
        if x != y {
            // The smaller place is the one `a` or `b` has more of: it ranks higher.
            return x.cmp(y);
        }
    }
    b.len().cmp(&a.len())
}

/// The standings of `members` (in the season's order, finished ones only) under
/// `scoring`, best first.
pub fn standings(scoring: &Scoring, members: &[FinishedMember<'_>]) -> Vec<StandingsRow> {
    let mut by_player: BTreeMap<AccountId, Vec<SeasonResult>> = BTreeMap::new();
    for member in members {
        for line in member.ranking {
            by_player
                .entry(line.player)
                .or_default()
                .push(SeasonResult {
                    tournament: member.tournament,
                    place: line.place,
                    points: scoring.points_of(line.place),
                    counted: false,
                });
        }
    }
    let mut rows: Vec<(StandingsRow, Vec<u32>)> = by_player
        .into_iter()
        .map(|(player, mut results)| {
            let mut best: Vec<usize> = (0..results.len()).collect();
            best.sort_by(|&i, &j| {
                let (a, b) = (&results[i], &results[j]);
                b.points
                    .cmp(&a.points)
                    .then(a.place.cmp(&b.place))
                    .then(a.tournament.cmp(&b.tournament))
            });
            let count = scoring
                .best
                .map_or(best.len(), |n| usize::try_from(n).unwrap_or(usize::MAX));
            for &i in best.iter().take(count) {
                results[i].counted = true;
            }
            let total = results
                .iter()
                .filter(|r| r.counted)
                .map(|r| u64::from(r.points))
                .sum();
            let row = StandingsRow {
                place: 0,
                player,
                total,
                results,
            };
            let places = row.counted_places();
            (row, places)
        })
        .collect();
    let equal_rank = |a: &(StandingsRow, Vec<u32>), b: &(StandingsRow, Vec<u32>)| {
        b.0.total
            .cmp(&a.0.total)
            .then_with(|| countback(&a.1, &b.1))
    };
    rows.sort_by(|a, b| equal_rank(a, b).then(a.0.player.cmp(&b.0.player)));
    let mut placed: Vec<StandingsRow> = Vec::with_capacity(rows.len());
    for i in 0..rows.len() {
        let place = if i > 0 && equal_rank(&rows[i - 1], &rows[i]) == Ordering::Equal {
            placed[i - 1].place
        } else {
            u32::try_from(i + 1).unwrap_or(u32::MAX)
        };
        placed.push(StandingsRow {
            place,
            ..rows[i].0.clone()
        });
    }
    placed
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::Reached;

    fn ranking(lines: &[(AccountId, u32)]) -> Vec<RankedPlayer> {
        lines
            .iter()
            .map(|&(player, place)| RankedPlayer {
                place,
                player,
                reached: Reached::Qualification,
                withdrawn: false,
            })
            .collect()
    }

    fn summary(rows: &[StandingsRow]) -> Vec<(u32, AccountId, u64)> {
        rows.iter().map(|r| (r.place, r.player, r.total)).collect()
    }

    /// seasons.md 2, the example: scale [10, 6, 4], best 2, three members; players 3,
    /// 5 and 7 "are equal on total and countback (one 1st and one 2nd each), so they
    /// share place 1 and are listed 3, 5, 7".
    #[test]
    fn the_documented_example() {
        let a = ranking(&[(7, 1), (3, 2), (5, 3), (9, 4)]);
        let b = ranking(&[(3, 1), (5, 2), (7, 3), (9, 4)]);
        let c = ranking(&[(5, 1), (7, 2), (9, 3), (3, 4)]);
        let members = [
            FinishedMember {
                tournament: 11,
                ranking: &a,
            },
            FinishedMember {
                tournament: 12,
                ranking: &b,
            },
            FinishedMember {
                tournament: 15,
                ranking: &c,
            },
        ];
        let scoring = Scoring {
            points: vec![10, 6, 4],
            best: Some(2),
        };
        let rows = standings(&scoring, &members);
        assert_eq!(
            summary(&rows),
            vec![(1, 3, 16), (1, 5, 16), (1, 7, 16), (4, 9, 4)]
        );
        let seven = &rows[2].results;
        assert_eq!(
            seven
                .iter()
                .map(|r| (r.points, r.counted))
                .collect::<Vec<_>>(),
            vec![(10, true), (4, false), (6, true)]
        );
        // Player 9's two 4th places earn 0 each; one of them counts (by tournament id).
        let nine: Vec<_> = rows[3]
            .results
            .iter()
            .map(|r| (r.tournament, r.counted))
            .collect();
        assert_eq!(nine, vec![(11, true), (12, false), (15, true)]);
    }

    /// seasons.md 2: "more counted 1st places first; if equal, more counted 2nd places;
    /// and so on through every place".
    #[test]
    fn countback_breaks_equal_totals() {
        let scoring = Scoring {
            points: vec![6, 3, 3],
            best: None,
        };
        // Player 1: places 2 and 3 (3 + 3 = 6). Player 2: place 1 once (6).
        let a = ranking(&[(2, 1), (1, 2)]);
        let b = ranking(&[(1, 3), (3, 4)]);
        let rows = standings(
            &scoring,
            &[
                FinishedMember {
                    tournament: 1,
                    ranking: &a,
                },
                FinishedMember {
                    tournament: 2,
                    ranking: &b,
                },
            ],
        );
        assert_eq!(summary(&rows), vec![(1, 2, 6), (2, 1, 6), (3, 3, 0)]);
        assert_eq!(countback(&[1, 3], &[1, 2]), Ordering::Greater);
        assert_eq!(countback(&[1], &[1, 4]), Ordering::Greater);
        assert_eq!(countback(&[1, 5], &[2, 2]), Ordering::Less);
        assert_eq!(countback(&[2, 2], &[2, 2]), Ordering::Equal);
    }

    /// seasons.md 2: "Players the ranking shares a place between ... earn that place's
    /// points each"; without `best`, every result counts.
    #[test]
    fn shared_places_earn_their_points_each_and_all_results_count_without_best() {
        let scoring = Scoring {
            points: vec![10, 6, 4],
            best: None,
        };
        let a = ranking(&[(1, 1), (2, 2), (3, 2), (4, 4)]);
        let b = ranking(&[(4, 1), (1, 2)]);
        let rows = standings(
            &scoring,
            &[
                FinishedMember {
                    tournament: 1,
                    ranking: &a,
                },
                FinishedMember {
                    tournament: 2,
                    ranking: &b,
                },
            ],
        );
        assert_eq!(
            summary(&rows),
            vec![(1, 1, 16), (2, 4, 10), (3, 2, 6), (3, 3, 6)]
        );
        assert!(rows.iter().flat_map(|r| &r.results).all(|r| r.counted));
        assert!(standings(&scoring, &[]).is_empty());
    }
}
