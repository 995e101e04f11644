//! How many tables, of which sizes.
//!
//! TOURNAMENT.md: tables of 4-6 "as equal as possible, never fewer than the minimum: 23
//! players -> 6,6,6,5".
//!
//! # The formula
//!
//! For `n` players and sizes `min ..= max`: take the fewest tables that can hold everyone,
//! `t = ceil(n / max)`. A split exists exactly when `t * min <= n` (fewer tables cannot
//! hold `n`; more tables need even more players to reach the minimum). The sizes are then
//! `n / t` and `n / t + 1`, the `n % t` larger tables first: they differ by at most one,
//! none is above `max` (because `t >= n / max`) and none below `min` (because
//! `t * min <= n`). 23 at 4-6: `t = 4`, 23 = 4 * 5 + 3, so 6, 6, 6, 5.
//!
//! # When no split exists
//!
//! With 4-6 that happens only for 7 players (two tables need 8, one seats 6) and for
//! fewer than 4. The minimum is never lowered: a table below it is what the format
//! forbids. The maximum is raised one seat at a time up to `hard_max`, the most the rules
//! (and the engine, 8) seat at one game: 7 players at 4-6 play one table of 7. If that
//! fails too (fewer players than the minimum: 3 players at 4-6), the draw is refused with
//! `no_table_split` and nobody is seated.

/// No table sizes exist for this many players.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NoSplit {
    pub players: usize,
    pub min: usize,
    pub max: usize,
    pub hard_max: usize,
}

/// The fewest tables of `min ..= max` seating `players`, as equal as possible, larger
/// tables first; `None` when no such split exists.
pub fn balanced_sizes(players: usize, min: usize, max: usize) -> Option<Vec<usize>> {
    if players == 0 || min == 0 || min > max {
        return None;
    }
    let tables = players.div_ceil(max);
    if tables * min > players {
        return None;
    }
    let (base, larger) = (players / tables, players % tables);
    Some(
        (0..tables)
            .map(|i| base + usize::from(i < larger))
            .collect(),
    )
}

/// The sizes of a draw: [`balanced_sizes`] within `min ..= max`; when none exists, the
/// maximum is raised up to `hard_max` (see the module docs).
pub fn table_sizes(
    players: usize,
    min: usize,
    max: usize,
    hard_max: usize,
) -> Result<Vec<usize>, NoSplit> {
    (max..=hard_max.max(max))
        .find_map(|m| balanced_sizes(players, min, m))
        .ok_or(NoSplit {
            players,
            min,
            max,
            hard_max,
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn twenty_three_players_at_four_to_six() {
        assert_eq!(balanced_sizes(23, 4, 6), Some(vec![6, 6, 6, 5]));
        assert_eq!(table_sizes(23, 4, 6, 8), Ok(vec![6, 6, 6, 5]));
    }

    #[test]
    fn seven_players_at_four_to_six_sit_at_one_table_of_seven() {
        assert_eq!(balanced_sizes(7, 4, 6), None);
        assert_eq!(table_sizes(7, 4, 6, 8), Ok(vec![7]));
        assert_eq!(table_sizes(7, 4, 6, 6).map_err(|e| e.players), Err(7));
    }

    #[test]
    fn fewer_players_than_the_minimum_cannot_be_seated() {
        assert_eq!(
            table_sizes(3, 4, 6, 8),
            Err(NoSplit {
                players: 3,
                min: 4,
                max: 6,
                hard_max: 8
            })
        );
        assert_eq!(table_sizes(0, 4, 6, 8).map_err(|e| e.players), Err(0));
    }
}
