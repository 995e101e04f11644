//! [`TableState`]: a table folded from its stream. Nothing else is the truth about a
//! table; the cache ([`super::cache`]) only saves re-reading a prefix of the stream.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use yaniv_domain::game::{Event as GameEvent, Game, Seat, Viewer};
use yaniv_domain::rules::Rules;

use super::events::{BotKindName, StreamEvent, TableCreated, TableEvent};
use crate::auth::Role;
use crate::auth::accounts::Account;

/// Where a table is in its life.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum TableStatus {
    /// Waiting for players: seats can be taken and left.
    Open,
    /// Started: the game is being played.
    Playing,
    /// The game is over.
    Finished,
}

impl TableStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Open => "open",
            Self::Playing => "playing",
            Self::Finished => "finished",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        [Self::Open, Self::Playing, Self::Finished]
            .into_iter()
            .find(|status| status.as_str() == s)
    }
}

/// Who sits at a seat.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SeatHolder {
    Empty,
    Human { account_id: i64, username: String },
    Bot { kind: BotKindName, name: String },
}

/// How a request sees a table (which events and hands it may see).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// A player seated here: their seat's view.
    Seat(Seat),
    /// A logged-in account without a seat and without a staff role: public
    /// information only.
    Spectator,
    /// A referee, organizer or admin who does not play at this table: everything.
    Staff,
}

impl Access {
    pub fn viewer(self) -> Viewer {
        match self {
            Self::Seat(seat) => Viewer::Seat(seat),
            Self::Spectator => Viewer::Spectator,
            Self::Staff => Viewer::Referee,
        }
    }
}

/// Whether an account may see everything of tables it does not play at.
pub fn is_staff(account: &Account) -> bool {
    account.has_role(Role::Referee) || account.has_role(Role::Organizer)
}

/// Why a stream cannot be folded into a table.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FoldError {
    #[error("a table stream starts with table_created.v1, not {0}")]
    NotCreated(&'static str),
    #[error("{event} is not allowed here: {reason}")]
    Unexpected {
        event: &'static str,
        reason: &'static str,
    },
}

/// A table folded from its stream.
#[derive(Debug, Clone)]
pub struct TableState {
    pub id: i64,
    /// Number of events folded: the stream's version.
    pub version: u64,
    pub created: TableCreated,
    pub seats: Vec<SeatHolder>,
    pub started: bool,
    /// The game (empty until the table starts).
    pub game: Game,
    /// The game's events, in order, and the stream version of each.
    pub game_events: Vec<GameEvent>,
    pub game_versions: Vec<u64>,
    /// The lifecycle events (versions 1..=table_events.len()).
    pub table_events: Vec<TableEvent>,
}

impl TableState {
    /// The table right after its first event.
    pub fn new(id: i64, created: TableCreated) -> Self {
        let mut seats = vec![SeatHolder::Empty; created.seats as usize];
        for bot in &created.bots {
            if let Some(slot) = seats.get_mut(bot.seat as usize) {
                *slot = SeatHolder::Bot {
                    kind: bot.kind,
                    name: bot.name.clone(),
                };
            }
        }
        Self {
            id,
            version: 1,
            table_events: vec![TableEvent::Created(created.clone())],
            created,
            seats,
            started: false,
            game: Game::new(),
            game_events: Vec::new(),
            game_versions: Vec::new(),
        }
    }

    /// Folds a whole stream (`events[0]` must be `table_created.v1`).
    pub fn fold(
        id: i64,
        events: impl IntoIterator<Item = StreamEvent>,
    ) -> Result<Option<Self>, FoldError> {
        let mut events = events.into_iter();
        let Some(first) = events.next() else {
            return Ok(None);
        };
        let StreamEvent::Table(TableEvent::Created(created)) = first else {
            return Err(FoldError::NotCreated(first.type_name()));
        };
        let mut state = Self::new(id, created);
        for event in events {
            state.apply(event)?;
        }
        Ok(Some(state))
    }

    /// Folds the next event of the stream.
    pub fn apply(&mut self, event: StreamEvent) -> Result<(), FoldError> {
        let unexpected = |event: &StreamEvent, reason| FoldError::Unexpected {
            event: event.type_name(),
            reason,
        };
        match &event {
            StreamEvent::Table(table_event) => {
                if self.started {
                    return Err(unexpected(&event, "the table has started"));
                }
                match table_event {
                    TableEvent::Created(_) => {
                        return Err(unexpected(&event, "the table exists"));
                    }
                    TableEvent::SeatTaken(e) => {
                        let Some(slot @ SeatHolder::Empty) = self.seats.get_mut(e.seat as usize)
                        else {
                            return Err(unexpected(&event, "the seat is not free"));
                        };
                        *slot = SeatHolder::Human {
                            account_id: e.account_id,
                            username: e.username.clone(),
                        };
                    }
                    TableEvent::SeatLeft(e) => match self.seats.get_mut(e.seat as usize) {
                        Some(slot @ SeatHolder::Human { .. }) => *slot = SeatHolder::Empty,
                        _ => return Err(unexpected(&event, "nobody sits there")),
                    },
                    TableEvent::Started(_) => self.started = true,
                }
                if let StreamEvent::Table(e) = event {
                    self.table_events.push(e);
                }
            }
            StreamEvent::Game(game_event) => {
                if !self.started {
                    return Err(unexpected(&event, "the table has not started"));
                }
                self.game.apply(game_event);
                self.game_versions.push(self.version + 1);
                if let StreamEvent::Game(e) = event {
                    self.game_events.push(e);
                }
            }
        }
        self.version += 1;
        Ok(())
    }

    pub fn status(&self) -> TableStatus {
        if !self.started {
            TableStatus::Open
        } else if self.game.is_finished() {
            TableStatus::Finished
        } else {
            TableStatus::Playing
        }
    }

    pub fn rules(&self) -> &Rules {
        &self.created.effective_rules
    }

    pub fn stream_id(&self) -> String {
        super::events::stream_id(self.id)
    }

    /// The seat of `account_id`, if it sits here.
    pub fn seat_of(&self, account_id: i64) -> Option<Seat> {
        self.seats
            .iter()
            .position(|s| matches!(s, SeatHolder::Human { account_id: a, .. } if *a == account_id))
            .and_then(|i| Seat::try_from(i).ok())
    }

    pub fn free_seats(&self) -> usize {
        self.seats
            .iter()
            .filter(|s| **s == SeatHolder::Empty)
            .count()
    }

    /// The first free seat.
    pub fn first_free_seat(&self) -> Option<Seat> {
        self.seats
            .iter()
            .position(|s| *s == SeatHolder::Empty)
            .and_then(|i| Seat::try_from(i).ok())
    }

    /// Player names in seat order (empty seats as empty strings).
    pub fn player_names(&self) -> Vec<String> {
        self.seats
            .iter()
            .map(|s| match s {
                SeatHolder::Empty => String::new(),
                SeatHolder::Human { username, .. } => username.clone(),
                SeatHolder::Bot { name, .. } => name.clone(),
            })
            .collect()
    }

    /// The bot kind of every seat (`None` for humans and empty seats).
    /// The account of each human seat, in seat order (bots are left out).
    pub fn human_accounts(&self) -> Vec<i64> {
        self.seats
            .iter()
            .filter_map(|seat| match seat {
                SeatHolder::Human { account_id, .. } => Some(*account_id),
                _ => None,
            })
            .collect()
    }

    pub fn bot_kinds(&self) -> Vec<Option<BotKindName>> {
        self.seats
            .iter()
            .map(|s| match s {
                SeatHolder::Bot { kind, .. } => Some(*kind),
                _ => None,
            })
            .collect()
    }

    /// How `account` sees this table. A staff member who plays here sees only their
    /// seat until the game is over: nobody at the table sees other hands.
    pub fn access(&self, account: &Account) -> Access {
        match self.seat_of(account.id) {
            Some(seat) if !is_staff(account) || self.status() != TableStatus::Finished => {
                Access::Seat(seat)
            }
            _ if is_staff(account) => Access::Staff,
            Some(seat) => Access::Seat(seat),
            None => Access::Spectator,
        }
    }

    /// Records game events that `Game::execute` already folded into
    /// [`TableState::game`] (the server's own decisions), as the next versions.
    pub fn record_executed(&mut self, events: impl IntoIterator<Item = GameEvent>) {
        for event in events {
            self.version += 1;
            self.game_versions.push(self.version);
            self.game_events.push(event);
        }
    }

    /// The index in [`TableState::game_events`] of the first game event with a stream
    /// version above `after`.
    pub fn game_index_after(&self, after: u64) -> usize {
        self.game_versions.partition_point(|&v| v <= after)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tables::events::{AccountRef, BotSeat, SeatLeft, SeatTaken, TableStarted};
    use yaniv_domain::rules::{Preset, RuleSpec};

    fn created() -> TableCreated {
        TableCreated {
            rules: RuleSpec {
                preset: "israeli".into(),
                overrides: Default::default(),
            },
            effective_rules: Preset::Israeli.rules(),
            seats: 3,
            bots: vec![BotSeat {
                seat: 1,
                kind: BotKindName::Random,
                name: "random#2".into(),
            }],
            created_by: AccountRef {
                account_id: 1,
                username: "ann".into(),
            },
            tournament: None,
        }
    }

    fn take(seat: Seat, account_id: i64) -> StreamEvent {
        StreamEvent::Table(TableEvent::SeatTaken(SeatTaken {
            seat,
            account_id,
            username: format!("user{account_id}"),
        }))
    }

    #[test]
    fn seats_are_taken_and_left_until_the_start() {
        let events = vec![
            StreamEvent::Table(TableEvent::Created(created())),
            take(0, 10),
            take(2, 11),
            StreamEvent::Table(TableEvent::SeatLeft(SeatLeft {
                seat: 0,
                account_id: 10,
            })),
        ];
        let state = TableState::fold(5, events).unwrap().unwrap();
        assert_eq!(state.version, 4);
        assert_eq!(state.status(), TableStatus::Open);
        assert_eq!(state.seat_of(11), Some(2));
        assert_eq!(state.seat_of(10), None);
        assert_eq!(state.first_free_seat(), Some(0));
        assert_eq!(state.free_seats(), 1);
        assert_eq!(state.player_names(), ["", "random#2", "user11"]);
    }

    #[test]
    fn structure_violations_are_refused() {
        let mut state = TableState::new(1, created());
        assert!(state.apply(take(1, 10)).is_err(), "a bot's seat");
        state.apply(take(0, 10)).unwrap();
        assert!(state.apply(take(0, 11)).is_err(), "taken seat");
        state
            .apply(StreamEvent::Table(TableEvent::Started(TableStarted {
                started_by: 1,
                players: vec![],
            })))
            .unwrap();
        assert!(state.apply(take(2, 11)).is_err(), "after the start");
        assert!(matches!(
            TableState::fold(1, [take(0, 1)]),
            Err(FoldError::NotCreated("seat_taken.v1"))
        ));
    }
}
