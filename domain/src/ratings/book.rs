//! The rating of every player, folded from the rated games in their order
//! ([`super::games::sort_games`]). Nothing is stored: the list is this fold, so a
//! correction anywhere re-rates everything after it.

use std::collections::HashMap;

use super::error::RatingError;
use super::games::RatedGame;
use super::weng_lin::{Entry, Rating, rate_game};
use crate::tournament::AccountId;

/// Where a player stands after the games folded so far.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Standing {
    pub rating: Rating,
    /// Rated games played.
    pub games: u32,
    /// The `at_micros` of the latest of them.
    pub last_played_micros: i64,
}

/// One player's rating after one game: a point of their history.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Change {
    pub player: AccountId,
    pub place: u8,
    pub before: Rating,
    pub after: Rating,
}

/// Every player's standing; players are kept in the order they first played.
#[derive(Debug, Default)]
pub struct RatingBook {
    index: HashMap<AccountId, usize>,
    players: Vec<(AccountId, Standing)>,
}

impl RatingBook {
    pub fn new() -> Self {
        Self::default()
    }

    /// Rates `game` (the next in the order) and returns each line's change, in the
    /// game's line order. A game that cannot be rated changes nothing.
    pub fn apply(&mut self, game: &RatedGame) -> Result<Vec<Change>, RatingError> {
        let mut entries = Vec::with_capacity(game.lines.len());
        for (k, line) in game.lines.iter().enumerate() {
            if game.lines[..k].iter().any(|l| l.player == line.player) {
                return Err(RatingError::PlayerTwice(line.player));
            }
            entries.push(Entry {
                rating: self.rating(line.player),
                place: u32::from(line.place),
            });
        }
        let rated = rate_game(&entries)?;
        let mut changes = Vec::with_capacity(rated.len());
        for ((line, entry), after) in game.lines.iter().zip(&entries).zip(rated) {
            let slot = match self.index.get(&line.player) {
                Some(&slot) => slot,
                None => {
                    self.index.insert(line.player, self.players.len());
                    self.players.push((
                        line.player,
                        Standing {
                            rating: Rating::NEW,
                            games: 0,
                            last_played_micros: game.at_micros,
                        },
                    ));
                    self.players.len() - 1
                }
            };
            let standing = &mut self.players[slot].1;
            standing.rating = after;
            standing.games += 1;
            standing.last_played_micros = game.at_micros;
            changes.push(Change {
                player: line.player,
                place: line.place,
                before: entry.rating,
                after,
            });
        }
        Ok(changes)
    }

    /// The rating of `player` now (a new player's if they have not played).
    pub fn rating(&self, player: AccountId) -> Rating {
        self.standing(player).map_or(Rating::NEW, |s| s.rating)
    }

    pub fn standing(&self, player: AccountId) -> Option<&Standing> {
        self.index.get(&player).map(|&slot| &self.players[slot].1)
    }

    /// Every rated player, in the order they first played.
    pub fn players(&self) -> &[(AccountId, Standing)] {
        &self.players
    }

    /// Every rated player, best first: displayed rating, then mu, both higher first,
    /// then the smaller account id.
    pub fn ranked(&self) -> Vec<(AccountId, Standing)> {
        let mut list = self.players.clone();
        list.sort_by(|(a, x), (b, y)| {
            y.rating
                .displayed()
                .total_cmp(&x.rating.displayed())
                .then(y.rating.mu.total_cmp(&x.rating.mu))
                .then(a.cmp(b))
        });
        list
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ratings::games::{GameSource, RatedLine};
    use crate::tournament::TableRef;

    fn game(at: i64, order: &[AccountId]) -> RatedGame {
        RatedGame {
            at_micros: at,
            source: GameSource::Tournament {
                tournament: 1,
                table: TableRef {
                    stage: 1,
                    round: 1,
                    table: 1,
                },
            },
            lines: order
                .iter()
                .enumerate()
                .map(|(i, &player)| RatedLine {
                    player,
                    place: i as u8 + 1,
                })
                .collect(),
        }
    }

    #[test]
    fn ratings_carry_from_game_to_game() {
        let mut book = RatingBook::new();
        let first = book.apply(&game(10, &[1, 2, 3])).expect("rated");
        assert_eq!(first[0].before, Rating::NEW);
        let second = book.apply(&game(20, &[2, 1])).expect("rated");
        // Player 2 comes in with the rating the first game left.
        assert_eq!(second[0].before, first[1].after);
        let standing = book.standing(2).expect("played");
        assert_eq!((standing.games, standing.last_played_micros), (2, 20));
        assert_eq!(book.standing(3).map(|s| s.games), Some(1));
        assert_eq!(book.standing(4), None);
        let ranked: Vec<AccountId> = book.ranked().iter().map(|(p, _)| *p).collect();
        assert_eq!(ranked.len(), 3);
        assert_eq!(ranked[2], 3, "the only last place is last");
    }

    #[test]
    fn a_game_naming_a_player_twice_changes_nothing() {
        let mut book = RatingBook::new();
        assert_eq!(
            book.apply(&game(10, &[1, 2, 1])),
            Err(RatingError::PlayerTwice(1))
        );
        assert!(book.players().is_empty());
    }
}
