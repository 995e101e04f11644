//! A tournament's links to its online games, checked from both ends.
//!
//! A result taken from an online game is checked against that game
//! ([`super::check_game`]). The other way round: every table whose online
//! game is in force (opened by `table_game_started.v1`, not voided) and finished must
//! have its result in the tournament, since the game's last action records it in the
//! same transaction. A finished game without its result means the result event was
//! deleted (`missing_result`), which neither the tournament's chain (a deleted tail
//! keeps it) nor its rules (a tournament may wait for a result) can tell. It is named
//! at the first version past the stream's end, where the listing row and the
//! checkpoints name a cut tail: the stream ends before the result its game says
//! exists. What is wrong with the game itself is named at the event that opened it.

use yaniv_domain::table::TournamentLink;
use yaniv_domain::tournament::{Event, State, TableGameStarted, TableRef};

use super::{LinkedGame, linked_table};
use crate::report::{CheckReport, VerifyFailure, failure, report};

/// The online games in force, each with the version of the event that opened it.
pub fn games_in_force(events: &[Event], state: &State) -> Vec<(u64, TableRef, String)> {
    let mut opened: Vec<(u64, TableRef, String)> = Vec::new();
    for (index, event) in events.iter().enumerate() {
        if let Event::TableGameStarted(TableGameStarted {
            table,
            game: Some(game),
            ..
        }) = event
        {
            opened.retain(|(_, t, _)| t != table);
            opened.push((index as u64 + 1, *table, game.clone()));
        }
    }
    opened.retain(|(_, table, game)| {
        state
            .table(*table)
            .is_some_and(|t| t.game.as_deref() == Some(game.as_str()) && t.result.is_none())
    });
    opened
}

/// Checks that no online game in force of tournament `id` is over without its result:
/// `game_stream` gives the table of a game id, as [`LinkedGame`]; the stream's last
/// stored version is `stream_end`.
pub fn check(
    id: i64,
    events: &[Event],
    state: &State,
    stream_end: u64,
    game_stream: impl Fn(i64) -> LinkedGame,
) -> CheckReport {
    let failure = games_in_force(events, state)
        .into_iter()
        .find_map(|(version, table, game)| {
            let table_id = linked_table(&game)?;
            let opened = Opened { version, table };
            finding(id, opened, stream_end, &game, &game_stream(table_id))
        });
    report(failure)
}

/// Where the tournament opened an online game: the version of its
/// `table_game_started.v1` and its table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Opened {
    pub version: u64,
    pub table: TableRef,
}

/// What game `game` (`opened` by the tournament, whose stream ends at `stream_end`)
/// says of the tournament's results: `None` when it is not over yet, so no result is
/// missing.
pub fn finding(
    id: i64,
    opened: Opened,
    stream_end: u64,
    game: &str,
    linked: &LinkedGame,
) -> Option<VerifyFailure> {
    let Opened { version, table } = opened;
    match linked {
        LinkedGame::Missing => Some(failure(
            version,
            "game_not_found",
            format!("{table}: there is no online game {game}"),
        )),
        LinkedGame::Unreadable => Some(failure(
            version,
            "game_unreadable",
            format!("{table}: the stream of {game} cannot be read"),
        )),
        LinkedGame::Found(linked) => {
            let link = TournamentLink {
                tournament_id: id,
                table,
            };
            if linked.created.tournament != Some(link) {
                Some(failure(
                    version,
                    "game_not_linked",
                    format!("{table}: {game} was not opened for this table of this tournament"),
                ))
            } else if linked.game.is_finished() {
                Some(failure(
                    stream_end + 1,
                    "missing_result",
                    format!(
                        "{table}: the online game {game} (opened at version {version}) is \
                         over, but the tournament's stream ends at version {stream_end} \
                         without its result: the result event was deleted"
                    ),
                ))
            } else {
                None
            }
        }
    }
}
