//! A table's own events (seats, start, clock, player entropy) as short English sentences, players by
//! name, beside the game's ([`crate::game::describe`]): a referee reading a table's
//! history reads every event in words.

use super::clock::{ClockEvent, WindowCloseReason};
use super::entropy::EntropyEvent;
use super::event::TableEvent;
use crate::game::seat_name;

/// The table's lifecycle events in words, in order (a seat left is named by the
/// username that took it).
pub fn describe_table_events(events: &[TableEvent]) -> Vec<String> {
    let mut usernames: Vec<(i64, &str)> = Vec::new();
    events
        .iter()
        .map(|event| match event {
            TableEvent::Created(e) => format!(
                "the table is created: {} seats, {} of them the server's bots",
                e.seats,
                e.bots.len()
            ),
            TableEvent::SeatTaken(e) => {
                usernames.push((e.account_id, &e.username));
                format!("{} takes seat {}", e.username, e.seat)
            }
            TableEvent::SeatLeft(e) => {
                let who = usernames
                    .iter()
                    .rev()
                    .find(|(account, _)| *account == e.account_id)
                    .map_or_else(
                        || format!("account {}", e.account_id),
                        |(_, name)| (*name).to_owned(),
                    );
                format!("{who} leaves seat {}", e.seat)
            }
            TableEvent::Started(e) => format!("the table starts: {}", e.players.join(", ")),
        })
        .collect()
}

/// `event` in words; `players` are the game's names in seat order.
pub fn describe_clock_event(event: &ClockEvent, players: &[String]) -> String {
    let name = |seat: u8| seat_name(players, seat);
    match event {
        ClockEvent::TurnTimedOut(e) if e.absent => {
            format!("{} is absent: the server plays for them", name(e.seat))
        }
        ClockEvent::TurnTimedOut(e) => format!(
            "{}'s time ran out after {} ms: the server plays for them",
            name(e.seat),
            e.waited_ms
        ),
        ClockEvent::WindowPassed(e) => format!("{} lays nothing out of turn", name(e.seat)),
        ClockEvent::WindowClosed(e) => match e.reason {
            WindowCloseReason::Elapsed => format!(
                "the window for out-of-turn cards closes after {} ms",
                e.waited_ms
            ),
            WindowCloseReason::AllPassed => {
                "the window for out-of-turn cards closes: everyone passed".to_owned()
            }
        },
        ClockEvent::SeatReturned(e) => format!("{} is back", name(e.seat)),
    }
}

/// A player-entropy event in words; `players` are the game's names in seat order.
pub fn describe_entropy_event(event: &EntropyEvent, players: &[String]) -> String {
    match event {
        EntropyEvent::SeedCommitted(e) => format!(
            "the server commits to its seed for round {}: {}",
            e.round, e.commitment
        ),
        EntropyEvent::Contributed(e) => match e.value {
            Some(value) => format!(
                "{} contributes {} to the seed of round {}",
                seat_name(players, e.seat),
                value.to_hex(),
                e.round
            ),
            None => format!(
                "{} sent no contribution in time: the default (zeros) counts for round {}",
                seat_name(players, e.seat),
                e.round
            ),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::{SeatLeft, SeatTaken, TableStarted};

    #[test]
    fn seats_and_the_start_are_said_in_words() {
        let events = [
            TableEvent::SeatTaken(SeatTaken {
                seat: 1,
                account_id: 7,
                username: "bob".into(),
            }),
            TableEvent::SeatLeft(SeatLeft {
                seat: 1,
                account_id: 7,
            }),
            TableEvent::SeatLeft(SeatLeft {
                seat: 0,
                account_id: 9,
            }),
            TableEvent::Started(TableStarted {
                started_by: 7,
                players: vec!["ann".into(), "bob".into()],
            }),
        ];
        assert_eq!(
            describe_table_events(&events),
            [
                "bob takes seat 1",
                "bob leaves seat 1",
                "account 9 leaves seat 0",
                "the table starts: ann, bob"
            ]
        );
    }
}
