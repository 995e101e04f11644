//! The rated game of a casual table (`docs/ratings.md`, "Casual tables"): read from
//! the few events of its stream that say who sat where and how the game ended, so
//! that the server need not fold (or even read) the game's moves.
//!
//! Only the human seats count. A bot's skill is not a player's, and a place won or
//! lost against a bot says nothing about the humans beside it, so bot seats are left
//! out of the game's places; a game with fewer than two humans left is not rated.

use std::collections::BTreeMap;

use super::games::{GameSource, RatedGame, RatedLine};
use crate::game::Event as GameEvent;
use crate::table::{StreamEvent, TableEvent};
use crate::tournament::AccountId;

/// A table event with the time the store recorded it (microseconds since the epoch).
#[derive(Debug, Clone, Copy)]
pub struct TimedTableEvent<'a> {
    pub recorded_at_micros: i64,
    pub event: &'a StreamEvent,
}

/// The rated game of casual table `table`, from its stream's events in version order
/// (any others than `table_created.v1`, `seat_taken.v1`, `seat_left.v1` and
/// `game_finished.v1` may be there or not: they change nothing). `None` when the table
/// is not rated (no `rated`, or a tournament's table, which its tournament rates), its
/// game has not finished, or fewer than two humans sat at it.
pub fn casual_game<'a>(
    table: i64,
    events: impl IntoIterator<Item = TimedTableEvent<'a>>,
) -> Option<RatedGame> {
    let mut rated = false;
    let mut bots: Vec<u8> = Vec::new();
    let mut humans: BTreeMap<u8, AccountId> = BTreeMap::new();
    let mut finished = None;
    for TimedTableEvent {
        recorded_at_micros,
        event,
    } in events
    {
        match event {
            StreamEvent::Table(TableEvent::Created(created)) => {
                rated = created.rated && created.tournament.is_none();
                bots = created.bots.iter().map(|b| b.seat).collect();
            }
            StreamEvent::Table(TableEvent::SeatTaken(taken)) => {
                humans.insert(taken.seat, taken.account_id);
            }
            StreamEvent::Table(TableEvent::SeatLeft(left)) => {
                humans.remove(&left.seat);
            }
            StreamEvent::Game(GameEvent::GameFinished(game)) => {
                finished = Some((recorded_at_micros, &game.standings));
            }
            _ => {}
        }
    }
    let (at_micros, standings) = finished.filter(|_| rated)?;
    // The standings in place order, humans only, each with its place at the table.
    let seated: Vec<(AccountId, u8)> = standings
        .iter()
        .filter(|s| !bots.contains(&s.seat))
        .filter_map(|s| humans.get(&s.seat).map(|&player| (player, s.place)))
        .collect();
    if seated.len() < 2 {
        return None;
    }
    // Places among the humans: one more than the humans strictly ahead, so ties still
    // share a place and the places read as they would at a table of humans only.
    let lines = seated
        .iter()
        .map(|&(player, place)| {
            let ahead = seated.iter().filter(|(_, p)| *p < place).count();
            RatedLine {
                player,
                place: u8::try_from(ahead + 1).unwrap_or(u8::MAX),
            }
        })
        .collect();
    Some(RatedGame {
        at_micros,
        source: GameSource::Casual { table },
        lines,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{GameFinished, Standing};
    use crate::table::{BotKindName, BotSeat, SeatLeft, SeatTaken, TableCreated};

    fn created(rated: bool, bots: &[u8]) -> StreamEvent {
        let mut created: TableCreated = crate::table::sample_created();
        created.rated = rated;
        created.seats = 4;
        created.bots = bots
            .iter()
            .map(|&seat| BotSeat {
                seat,
                kind: BotKindName::Greedy,
                name: format!("greedy#{}", seat + 1),
            })
            .collect();
        StreamEvent::Table(TableEvent::Created(created))
    }

    fn sit(seat: u8, account_id: i64) -> StreamEvent {
        StreamEvent::Table(TableEvent::SeatTaken(SeatTaken {
            seat,
            account_id,
            username: format!("p{account_id}"),
        }))
    }

    /// Standings given as (seat, place), in place order.
    fn finished(standings: &[(u8, u8)]) -> StreamEvent {
        StreamEvent::Game(GameEvent::GameFinished(GameFinished {
            standings: standings
                .iter()
                .map(|&(seat, place)| Standing {
                    seat,
                    total: u32::from(place) * 10,
                    place,
                })
                .collect(),
        }))
    }

    fn game(events: &[StreamEvent]) -> Option<RatedGame> {
        casual_game(
            12,
            events.iter().enumerate().map(|(i, event)| TimedTableEvent {
                recorded_at_micros: 1000 + i as i64,
                event,
            }),
        )
    }

    fn lines(game: &RatedGame) -> Vec<(AccountId, u8)> {
        game.lines.iter().map(|l| (l.player, l.place)).collect()
    }

    #[test]
    fn the_standings_are_the_places_and_the_finish_the_position_time() {
        let events = [
            created(true, &[]),
            sit(0, 7),
            sit(1, 8),
            sit(3, 9),
            sit(2, 6),
            finished(&[(2, 1), (0, 2), (3, 2), (1, 4)]),
        ];
        let rated = game(&events).expect("rated");
        assert_eq!(rated.source, GameSource::Casual { table: 12 });
        assert_eq!(rated.at_micros, 1005);
        assert_eq!(lines(&rated), [(6, 1), (7, 2), (9, 2), (8, 4)]);
    }

    #[test]
    fn bot_seats_drop_out_and_the_humans_are_placed_among_themselves() {
        let events = [
            created(true, &[1, 3]),
            sit(0, 7),
            sit(2, 8),
            finished(&[(1, 1), (2, 2), (3, 3), (0, 4)]),
        ];
        assert_eq!(lines(&game(&events).expect("rated")), [(8, 1), (7, 2)]);
        // One human among bots rates nobody.
        let alone = [
            created(true, &[1, 2, 3]),
            sit(0, 7),
            finished(&[(0, 1), (1, 2), (2, 3), (3, 4)]),
        ];
        assert_eq!(game(&alone), None);
    }

    #[test]
    fn the_seat_holder_at_the_start_is_the_one_rated() {
        let left = StreamEvent::Table(TableEvent::SeatLeft(SeatLeft {
            seat: 0,
            account_id: 7,
        }));
        let events = [
            created(true, &[]),
            sit(0, 7),
            left,
            sit(1, 8),
            sit(0, 9),
            finished(&[(0, 1), (1, 2)]),
        ];
        assert_eq!(lines(&game(&events).expect("rated")), [(9, 1), (8, 2)]);
    }

    #[test]
    fn unrated_unfinished_and_tournament_tables_give_no_game() {
        let unrated = [
            created(false, &[]),
            sit(0, 7),
            sit(1, 8),
            finished(&[(0, 1), (1, 2)]),
        ];
        assert_eq!(game(&unrated), None);
        let playing = [created(true, &[]), sit(0, 7), sit(1, 8)];
        assert_eq!(game(&playing), None);
        let StreamEvent::Table(TableEvent::Created(mut linked)) = created(true, &[]) else {
            unreachable!()
        };
        linked.tournament = Some(crate::table::TournamentLink {
            tournament_id: 3,
            table: crate::tournament::TableRef {
                stage: 1,
                round: 1,
                table: 1,
            },
        });
        let linked = [
            StreamEvent::Table(TableEvent::Created(linked)),
            sit(0, 7),
            sit(1, 8),
            finished(&[(0, 1), (1, 2)]),
        ];
        assert_eq!(game(&linked), None, "its tournament rates it");
    }
}
