//! Knockout tables: snake seeding with byes for the highest seeds.
//!
//! TOURNAMENT.md: the entrants "are seeded into tables by snake order; ... When the count
//! does not divide evenly, the highest seeds get byes."
//!
//! With `n` entrants and knockout tables of `s`: the `n % s` highest seeds get a bye (they
//! go through to the next stage without playing), the others fill `t = n / s` tables in
//! snake order: seeds go to tables 1, 2, ..., t, then t, ..., 2, 1, then 1, 2, ... again.
//! Every table then holds one player of each "row" of `t` consecutive seeds, and the sums
//! of the seeds at the tables are as even as a fixed order allows. With 12 entrants at 2
//! tables of 6: table 1 gets seeds 1, 4, 5, 8, 9, 12 and table 2 gets 2, 3, 6, 7, 10, 11.

/// A knockout draw by seed position (0 = the best seed).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bracket {
    /// Seeds `0..byes` go through without playing.
    pub byes: usize,
    /// Seed positions at each table, in snake order.
    pub tables: Vec<Vec<usize>>,
}

/// Snake seeding of `entrants` into tables of `table_size` (at least 1).
pub fn snake(entrants: usize, table_size: usize) -> Bracket {
    let table_size = table_size.max(1);
    let count = entrants / table_size;
    if count == 0 {
        return Bracket {
            byes: entrants,
            tables: Vec::new(),
        };
    }
    let byes = entrants % table_size;
    let mut tables = vec![Vec::with_capacity(table_size); count];
    for (i, seed) in (byes..entrants).enumerate() {
        let (row, column) = (i / count, i % count);
        let table = if row % 2 == 0 {
            column
        } else {
            count - 1 - column
        };
        tables[table].push(seed);
    }
    Bracket { byes, tables }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn twelve_at_two_tables_of_six() {
        let b = snake(12, 6);
        assert_eq!(b.byes, 0);
        assert_eq!(
            b.tables,
            vec![vec![0, 3, 4, 7, 8, 11], vec![1, 2, 5, 6, 9, 10]]
        );
    }

    #[test]
    fn the_highest_seeds_get_the_byes() {
        let b = snake(26, 6);
        assert_eq!(b.byes, 2);
        assert_eq!(b.tables.len(), 4);
        assert_eq!(b.tables[0], vec![2, 9, 10, 17, 18, 25]);
        assert_eq!(b.tables[3], vec![5, 6, 13, 14, 21, 22]);
        assert!(b.tables.iter().all(|t| t.len() == 6));
    }
}
