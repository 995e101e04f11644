//! Standings: each player's record over a set of games, ordered by the configured
//! tie-breaks (TOURNAMENT.md "Standings order: table points, then game wins, then lower
//! score difference ..., then the earlier registration").
//!
//! - Table points and score differences are exact (`table_points.rs`).
//! - A game win is a first place, shared or not.
//! - Players equal on every configured criterion share a place (1, 2, 2, 4). The default
//!   order ends with the registration order, which is unique, so by default nobody
//!   shares; an organizer who leaves it out gets shared places.
//! - Seeding (who is "better" for a Swiss draw, the cut and the knockout seeds) needs a
//!   strict order: after the configured criteria it falls back to the registration order
//!   ([`seeding_order`]).

use std::cmp::Ordering;
use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use super::config::TieBreak;
use super::event::PlayerResult;
use super::refs::AccountId;
use super::table_points::{Points, ScoreDifference, score_differences, table_points};

/// One player's record.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PlayerStats {
    pub player: AccountId,
    /// 1 for the first registration.
    pub registration: u32,
    pub games: u32,
    /// In 840ths of a point (`table_points.rs`).
    pub table_points: Points,
    pub wins: u32,
    /// In 840ths of a point; lower is better.
    pub score_difference: ScoreDifference,
    /// Of `games`, the qualification rounds missed (entered late, or a no-show), scored
    /// by the tournament's `absent_scoring`.
    #[serde(default)]
    pub absences: u32,
}

impl PlayerStats {
    pub fn new(player: AccountId, registration: u32) -> PlayerStats {
        PlayerStats {
            player,
            registration,
            games: 0,
            table_points: Points::default(),
            wins: 0,
            score_difference: ScoreDifference::default(),
            absences: 0,
        }
    }
}

/// Adds every game of `results` to the players of `stats` who played it.
pub fn accumulate<'a>(
    stats: &mut HashMap<AccountId, PlayerStats>,
    results: impl IntoIterator<Item = &'a [PlayerResult]>,
) {
    for result in results {
        let points = table_points(result);
        let differences = score_differences(result);
        for ((line, (_, p)), (_, d)) in result.iter().zip(points).zip(differences) {
            if let Some(s) = stats.get_mut(&line.player) {
                s.games += 1;
                s.wins += u32::from(line.place == 1);
                s.table_points += p;
                s.score_difference += d;
            }
        }
    }
}

/// Better first, by the configured criteria only (`Equal` for a complete tie).
pub fn compare(a: &PlayerStats, b: &PlayerStats, tie_breaks: &[TieBreak]) -> Ordering {
    tie_breaks
        .iter()
        .map(|t| match t {
            TieBreak::TablePoints => b.table_points.cmp(&a.table_points),
            TieBreak::GameWins => b.wins.cmp(&a.wins),
            TieBreak::ScoreDifference => a.score_difference.cmp(&b.score_difference),
            TieBreak::RegistrationOrder => a.registration.cmp(&b.registration),
        })
        .find(|o| o.is_ne())
        .unwrap_or(Ordering::Equal)
}

/// A strict order for seeding: the configured criteria, then the registration order.
pub fn seeding_order(a: &PlayerStats, b: &PlayerStats, tie_breaks: &[TieBreak]) -> Ordering {
    compare(a, b, tie_breaks)
        .then(a.registration.cmp(&b.registration))
        .then(a.player.cmp(&b.player))
}

/// One line of the standings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct StandingsRow {
    /// From 1; shared by complete ties.
    pub place: u32,
    #[serde(flatten)]
    pub stats: PlayerStats,
    /// Withdrawn players keep their record but are seated no more.
    pub withdrawn: bool,
}

/// `stats` in seeding order, with competition places (1, 2, 2, 4) by the configured
/// criteria.
pub fn rank(mut stats: Vec<PlayerStats>, tie_breaks: &[TieBreak]) -> Vec<(u32, PlayerStats)> {
    stats.sort_by(|a, b| seeding_order(a, b, tie_breaks));
    let mut out: Vec<(u32, PlayerStats)> = Vec::with_capacity(stats.len());
    for (i, s) in stats.into_iter().enumerate() {
        let place = match out.last() {
            Some((place, prev)) if compare(prev, &s, tie_breaks).is_eq() => *place,
            _ => i as u32 + 1,
        };
        out.push((place, s));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::config::DEFAULT_TIE_BREAKS;

    fn stats(player: AccountId, points: i64, wins: u32, diff: i64) -> PlayerStats {
        PlayerStats {
            player,
            registration: player as u32,
            games: 3,
            table_points: Points(points),
            wins,
            score_difference: ScoreDifference(diff),
            absences: 0,
        }
    }

    #[test]
    fn the_default_order_is_points_wins_difference_registration() {
        let all = vec![
            stats(1, 100, 0, 0),
            stats(2, 200, 0, 0),
            stats(3, 100, 1, 0),
            stats(4, 100, 1, -5),
            stats(5, 100, 1, -5),
        ];
        let ranked = rank(all, &DEFAULT_TIE_BREAKS);
        let order: Vec<(u32, AccountId)> = ranked.iter().map(|(p, s)| (*p, s.player)).collect();
        assert_eq!(order, vec![(1, 2), (2, 4), (3, 5), (4, 3), (5, 1)]);
    }

    #[test]
    fn without_registration_order_complete_ties_share_a_place() {
        let all = vec![
            stats(1, 100, 1, -5),
            stats(2, 100, 1, -5),
            stats(3, 50, 1, -5),
        ];
        let ranked = rank(all, &[TieBreak::TablePoints]);
        let order: Vec<(u32, AccountId)> = ranked.iter().map(|(p, s)| (*p, s.player)).collect();
        assert_eq!(order, vec![(1, 1), (1, 2), (3, 3)]);
    }

    #[test]
    fn the_order_of_criteria_is_configurable() {
        let all = vec![stats(1, 300, 0, 0), stats(2, 100, 2, 0)];
        let by_points = rank(all.clone(), &DEFAULT_TIE_BREAKS);
        assert_eq!(by_points[0].1.player, 1);
        let by_wins = rank(all, &[TieBreak::GameWins, TieBreak::TablePoints]);
        assert_eq!(by_wins[0].1.player, 2);
    }
}
