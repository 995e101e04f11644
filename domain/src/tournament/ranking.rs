//! Standings, seeds and the final ranking, computed from the folded state (never stored
//! apart from the events: a correction changes them by changing the results they read).
//!
//! # The final ranking
//!
//! TOURNAMENT.md "final ranking (final table places first, then knockout eliminations by
//! stage, then qualification standings)":
//!
//! 1. the players of the final table, by their place in the final game; players who
//!    share a place there are separated by their seed (the qualification standings);
//! 2. then, stage by stage from the last knockout stage back, the players who went out
//!    in it, by their place at their table, then by seed (a player seeded into a stage
//!    who withdrew before playing it comes after those who played);
//! 3. then everyone else who entered the qualification, in the qualification standings;
//!    only here can players share a place (complete ties under the configured
//!    tie-breaks).
//!
//! Disqualified players are left out (listed apart).

use std::collections::{HashMap, HashSet};

use super::config::AbsentScoring;
use super::event::{PlayerResult, RankedPlayer, Reached, TournamentFinished};
use super::refs::{AccountId, StageKind};
use super::seating::PlayedWith;
use super::standings::{PlayerStats, StandingsRow, accumulate, compare, rank, seeding_order};
use super::state::{Round, State};
use super::table_points::{Points, SCALE, ScoreDifference, score_differences};

/// The highest score difference of any player of `round` (0 before any result): what
/// a missed round costs under [`AbsentScoring::LastPlace`].
fn worst_difference(round: &Round) -> ScoreDifference {
    round
        .tables
        .iter()
        .filter_map(|t| t.result.as_deref())
        .flat_map(score_differences)
        .map(|(_, d)| d)
        .max()
        .unwrap_or_default()
}

impl State {
    fn account(&self, index: u32) -> AccountId {
        self.players[index as usize].account
    }

    fn is_active_index(&self, index: u32) -> bool {
        self.players
            .get(index as usize)
            .is_some_and(|p| p.is_active())
    }

    /// The results of stage `stage`'s rounds before `before` (all rounds when `None`).
    fn stage_results(&self, stage: u32, before: Option<u32>) -> Vec<&[PlayerResult]> {
        let Some(st) = self.stage(stage) else {
            return Vec::new();
        };
        st.rounds
            .iter()
            .filter(|r| before.is_none_or(|b| r.draw.round < b))
            .flat_map(|r| r.tables.iter().filter_map(|t| t.result.as_deref()))
            .collect()
    }

    /// Every player's entry order, by index: the registration order, or in a tournament
    /// seeded by rating the place in the recorded rating order (from 1), players who
    /// were not in it (late entries) after all who were, in registration order.
    fn entry_orders(&self) -> Vec<u32> {
        let mut entry: Vec<u32> = self.players.iter().map(|p| p.order).collect();
        let seeded = self
            .stage(1)
            .map(|s| s.seed_order.as_slice())
            .unwrap_or_default();
        if seeded.is_empty() {
            return entry;
        }
        let after = seeded.len() as u32;
        for e in &mut entry {
            *e += after;
        }
        for (place, &i) in seeded.iter().enumerate() {
            entry[i as usize] = place as u32 + 1;
        }
        entry
    }

    /// Records of `players` (indices) over the qualification rounds before `before`.
    fn qualification_stats(&self, players: &[u32], before: Option<u32>) -> Vec<PlayerStats> {
        let entry = self.entry_orders();
        let mut stats: HashMap<AccountId, PlayerStats> = players
            .iter()
            .map(|&i| {
                let p = &self.players[i as usize];
                (p.account, PlayerStats::new(p.account, entry[i as usize]))
            })
            .collect();
        accumulate(&mut stats, self.stage_results(1, before));
        self.score_absences(&mut stats, before);
        players
            .iter()
            .filter_map(|&i| stats.remove(&self.account(i)))
            .collect()
    }

    /// Adds, for each qualification round before `before` (all when `None`), the round
    /// to every player of `stats` who missed it: entered later, or recorded as a
    /// no-show at their table. Scored by the configured [`AbsentScoring`].
    fn score_absences(&self, stats: &mut HashMap<AccountId, PlayerStats>, before: Option<u32>) {
        let Some(stage) = self.stage(1) else {
            return;
        };
        let scoring = self
            .config
            .as_ref()
            .map(|c| c.absent_scoring)
            .unwrap_or_default();
        for round in &stage.rounds {
            let number = round.draw.round;
            if before.is_some_and(|b| number >= b) {
                continue;
            }
            let entered_later = self
                .players
                .iter()
                .filter(|p| p.first_round.is_some_and(|first| first > number))
                .map(|p| p.account);
            let missed: Vec<AccountId> = round
                .tables
                .iter()
                .flat_map(|t| t.absent.iter().copied())
                .chain(entered_later)
                .collect();
            if missed.is_empty() {
                continue;
            }
            let (points, difference) = match scoring {
                AbsentScoring::LastPlace => (Points::default(), worst_difference(round)),
                AbsentScoring::Fixed {
                    table_points,
                    score_difference,
                } => (
                    Points::from_points(i64::from(table_points)),
                    ScoreDifference(i64::from(score_difference) * SCALE),
                ),
            };
            for player in missed {
                if let Some(s) = stats.get_mut(&player) {
                    s.games += 1;
                    s.absences += 1;
                    s.table_points += points;
                    s.score_difference += difference;
                }
            }
        }
    }

    /// `players` (indices) best first, in the strict seeding order over the qualification
    /// rounds before `before`.
    pub(crate) fn seeded(&self, players: &[u32], before: Option<u32>) -> Vec<u32> {
        let tie_breaks = self
            .config
            .as_ref()
            .map(|c| c.tie_breaks.as_slice())
            .unwrap_or_default();
        let mut stats = self.qualification_stats(players, before);
        stats.sort_by(|a, b| seeding_order(a, b, tie_breaks));
        stats
            .iter()
            .filter_map(|s| self.index.get(&s.player).copied())
            .collect()
    }

    /// Meetings in every round drawn before round `round` of stage `stage`.
    pub(crate) fn played_with(&self, stage: u32, round: u32) -> PlayedWith {
        let mut met = PlayedWith::new(self.players.len());
        let mut table = Vec::new();
        for st in &self.stages {
            for r in &st.rounds {
                if (st.number, r.draw.round) >= (stage, round) {
                    continue;
                }
                for t in &r.tables {
                    table.clear();
                    table.extend(t.present().filter_map(|a| self.index.get(&a).copied()));
                    met.add_table(&table);
                }
            }
        }
        met
    }

    /// The qualification standings now: every player who entered it except the
    /// disqualified, with shared places for complete ties.
    pub fn qualification_standings(&self) -> Vec<StandingsRow> {
        let Some(stage) = self.stage(1) else {
            return Vec::new();
        };
        let players: Vec<u32> = stage
            .entrants
            .iter()
            .copied()
            .filter(|&i| self.players[i as usize].disqualified.is_none())
            .collect();
        let tie_breaks = self
            .config
            .as_ref()
            .map(|c| c.tie_breaks.clone())
            .unwrap_or_default();
        rank(self.qualification_stats(&players, None), &tie_breaks)
            .into_iter()
            .map(|(place, stats)| StandingsRow {
                place,
                stats,
                withdrawn: self.player(stats.player).is_some_and(|p| p.withdrawn),
            })
            .collect()
    }

    /// The seeds of knockout stage `stage` (indices, best first): the cut of the
    /// qualification standings, or the players going through the stage before.
    pub(crate) fn knockout_seeds(&self, stage: u32) -> Option<Vec<u32>> {
        let config = self.config.as_ref()?;
        let previous = self.stage(stage.checked_sub(1)?)?;
        match previous.kind {
            StageKind::Qualification => {
                let active: Vec<u32> = previous
                    .entrants
                    .iter()
                    .copied()
                    .filter(|&i| self.is_active_index(i))
                    .collect();
                let mut seeds = self.seeded(&active, None);
                let size = config.knockout_table_size as usize;
                seeds.truncate(config.knockout_cut.resolve(active.len(), size));
                Some(seeds)
            }
            StageKind::Knockout => {
                let round = previous.rounds.first()?;
                let through = self.going_through(
                    round,
                    &previous.entrants,
                    config.advance_per_table as usize,
                );
                Some(
                    previous
                        .entrants
                        .iter()
                        .copied()
                        .filter(|i| through.contains(i) && self.is_active_index(*i))
                        .collect(),
                )
            }
        }
    }

    /// Byes and the top `advance` of each table of a knockout round (places, then seeds).
    fn going_through(&self, round: &Round, seeds: &[u32], advance: usize) -> HashSet<u32> {
        let position: HashMap<AccountId, usize> = seeds
            .iter()
            .enumerate()
            .map(|(pos, &i)| (self.account(i), pos))
            .collect();
        let mut through: HashSet<u32> = round
            .draw
            .byes
            .iter()
            .filter_map(|a| self.index.get(a).copied())
            .collect();
        for table in &round.tables {
            let Some(result) = &table.result else {
                continue;
            };
            let mut lines: Vec<&PlayerResult> = result.iter().collect();
            lines.sort_by_key(|r| {
                (
                    r.place,
                    position.get(&r.player).copied().unwrap_or(usize::MAX),
                )
            });
            through.extend(
                lines
                    .iter()
                    .take(advance)
                    .filter_map(|r| self.index.get(&r.player).copied()),
            );
        }
        through
    }

    /// The final ranking (module docs), once the final table has its result.
    pub fn final_ranking(&self) -> Option<TournamentFinished> {
        let final_round = self.final_round()?;
        if !final_round.is_complete() {
            return None;
        }
        let mut ranking: Vec<RankedPlayer> = Vec::new();
        let mut placed: HashSet<AccountId> = HashSet::new();
        let withdrawn = |a: AccountId| self.player(a).is_some_and(|p| p.withdrawn);
        let disqualified = |a: AccountId| self.player(a).is_some_and(|p| p.disqualified.is_some());
        for stage in self
            .stages
            .iter()
            .rev()
            .filter(|s| s.kind == StageKind::Knockout)
        {
            let Some(round) = stage.rounds.first() else {
                continue;
            };
            let places: HashMap<AccountId, u8> = round
                .tables
                .iter()
                .flat_map(|t| t.result.iter().flatten())
                .map(|r| (r.player, r.place))
                .collect();
            let mut out: Vec<(Option<u8>, usize, AccountId)> = stage
                .entrants
                .iter()
                .enumerate()
                .map(|(pos, &i)| (pos, self.account(i)))
                .filter(|(_, a)| !placed.contains(a) && !disqualified(*a))
                .map(|(pos, a)| (places.get(&a).copied(), pos, a))
                .collect();
            out.sort_by_key(|&(place, pos, _)| (place.unwrap_or(u8::MAX), pos));
            for (place, _, player) in out {
                let reached = match (round.draw.final_table, place) {
                    (true, Some(place_at_table)) => Reached::Final { place_at_table },
                    (_, place_at_table) => Reached::Knockout {
                        stage: stage.number,
                        place_at_table,
                    },
                };
                placed.insert(player);
                ranking.push(RankedPlayer {
                    place: ranking.len() as u32 + 1,
                    player,
                    reached,
                    withdrawn: withdrawn(player),
                });
            }
        }
        let tie_breaks = self
            .config
            .as_ref()
            .map(|c| c.tie_breaks.clone())
            .unwrap_or_default();
        let above = ranking.len() as u32;
        let rest: Vec<StandingsRow> = self
            .qualification_standings()
            .into_iter()
            .filter(|row| !placed.contains(&row.stats.player))
            .collect();
        for (i, row) in rest.iter().enumerate() {
            let place = match i.checked_sub(1).map(|j| &rest[j]) {
                Some(prev) if compare(&prev.stats, &row.stats, &tie_breaks).is_eq() => {
                    ranking[ranking.len() - 1].place
                }
                _ => above + i as u32 + 1,
            };
            ranking.push(RankedPlayer {
                place,
                player: row.stats.player,
                reached: Reached::Qualification,
                withdrawn: row.withdrawn,
            });
        }
        let disqualified = self
            .players
            .iter()
            .filter(|p| p.disqualified.is_some())
            .map(|p| p.account)
            .collect();
        Some(TournamentFinished {
            ranking,
            disqualified,
        })
    }
}
