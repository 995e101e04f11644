//! The played-with matrix: how often two players have sat at the same table. Sparse (a
//! player meets at most 7 others per round), so 10,000 players cost kilobytes, not the
//! hundred million cells of a dense matrix.

/// Meeting counts between players `0..n` (dense indices chosen by the caller).
#[derive(Debug, Clone, Default)]
pub struct PlayedWith {
    /// Per player: (other player, meetings), unordered.
    met: Vec<Vec<(u32, u16)>>,
}

impl PlayedWith {
    pub fn new(players: usize) -> PlayedWith {
        PlayedWith {
            met: vec![Vec::new(); players],
        }
    }

    /// Everyone at `table` has met everyone else at it once more.
    pub fn add_table(&mut self, table: &[u32]) {
        for (i, &a) in table.iter().enumerate() {
            for &b in &table[i + 1..] {
                self.bump(a, b);
                self.bump(b, a);
            }
        }
    }

    fn bump(&mut self, a: u32, b: u32) {
        let Some(row) = self.met.get_mut(a as usize) else {
            return;
        };
        match row.iter_mut().find(|(o, _)| *o == b) {
            Some((_, n)) => *n = n.saturating_add(1),
            None => row.push((b, 1)),
        }
    }

    /// How often `a` and `b` have met.
    pub fn count(&self, a: u32, b: u32) -> u32 {
        self.met
            .get(a as usize)
            .and_then(|row| row.iter().find(|(o, _)| *o == b))
            .map_or(0, |&(_, n)| n as u32)
    }

    /// Meetings of `p` with the players of `table`, leaving out position `skip`.
    pub fn with_table(&self, p: u32, table: &[u32], skip: Option<usize>) -> u32 {
        let Some(row) = self.met.get(p as usize) else {
            return 0;
        };
        if row.is_empty() {
            return 0;
        }
        table
            .iter()
            .enumerate()
            .filter(|&(i, &o)| Some(i) != skip && o != p)
            .map(|(_, &o)| {
                row.iter()
                    .find(|(x, _)| *x == o)
                    .map_or(0, |&(_, n)| n as u32)
            })
            .sum()
    }

    /// Repeat meetings within one table: the sum over its pairs of their past meetings.
    pub fn table_cost(&self, table: &[u32]) -> u32 {
        table
            .iter()
            .enumerate()
            .map(|(i, &a)| {
                table[i + 1..]
                    .iter()
                    .map(|&b| self.count(a, b))
                    .sum::<u32>()
            })
            .sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_meetings_both_ways() {
        let mut m = PlayedWith::new(5);
        m.add_table(&[0, 1, 2]);
        m.add_table(&[1, 2, 3]);
        assert_eq!(m.count(1, 2), 2);
        assert_eq!(m.count(2, 1), 2);
        assert_eq!(m.count(0, 3), 0);
        assert_eq!(m.with_table(2, &[0, 1, 4], None), 3);
        assert_eq!(m.with_table(2, &[0, 1, 4], Some(1)), 1);
        assert_eq!(m.table_cost(&[0, 1, 2, 3]), 1 + 1 + 2 + 1 + 1);
    }
}
