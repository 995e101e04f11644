//! [`Table`]: a table folded from its stream, with the bots that play its bot seats.

use crate::aggregate::FoldError;
use crate::bots::AnyBot;
use crate::game::{Event as GameEvent, Game, Seat};
use crate::rules::Rules;

use super::clock::{ClockEvent, ClockState, Due, Waiting};
use super::entropy::{EntropyEvent, EntropyMismatch, EntropyState};
use super::event::{BotKindName, StreamEvent, TableCreated, TableEvent};

/// Where a table is in its life.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
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

impl SeatHolder {
    /// The account of a human seat.
    pub fn account_id(&self) -> Option<i64> {
        match self {
            SeatHolder::Human { account_id, .. } => Some(*account_id),
            _ => None,
        }
    }

    /// The kind of a bot seat.
    pub fn bot_kind(&self) -> Option<BotKindName> {
        match self {
            SeatHolder::Bot { kind, .. } => Some(*kind),
            _ => None,
        }
    }
}

/// The bots of a table, one slot per seat (`None` for human seats). Their memory of
/// the round is a heuristic only: a bot rebuilt from scratch plays as legally, so they
/// are not part of the stream's truth and are made again whenever a table is folded
/// anew.
pub type Bots = Vec<Option<AnyBot>>;

/// Why the server's own moves stopped before a human had to act or the game ended.
/// The table then waits; the next accepted command tries again.
#[derive(Debug, Clone, PartialEq)]
pub enum AutoplayStall {
    /// More commands than one request may make ([`super::MAX_SERVER_COMMANDS`]).
    Bounded,
    /// A bot chose nothing, or something the rules refused: a bot bug.
    BotFailed { seat: Seat, why: String },
    /// A round in progress had nobody to act: an engine bug.
    NobodyToAct,
}

/// A table folded from its stream.
#[derive(Debug, Clone)]
pub struct Table {
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
    /// The clock's events, in order, and the stream version of each.
    pub clock_events: Vec<ClockEvent>,
    pub clock_versions: Vec<u64>,
    /// What the clock knows: timeouts in a row, absent seats, the held window.
    pub clock: ClockState,
    /// Player entropy's events, in order, and the stream version of each.
    pub entropy_events: Vec<EntropyEvent>,
    pub entropy_versions: Vec<u64>,
    /// The committed seed of the next deal and the contributions it waits for.
    pub entropy: EntropyState,
    /// The bots of the bot seats (empty until the first decision needs them).
    pub(super) bots: Bots,
    /// Set when the last decision's server moves stalled (see [`AutoplayStall`]).
    pub stall: Option<AutoplayStall>,
}

impl Table {
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
        let clock = ClockState::new(
            created.clock,
            created.seats,
            created.bots.iter().map(|bot| bot.seat),
        );
        let entropy = EntropyState::of_table(&created);
        Self {
            id,
            version: 1,
            table_events: vec![TableEvent::Created(created.clone())],
            entropy_events: Vec::new(),
            entropy_versions: Vec::new(),
            entropy,
            clock_events: Vec::new(),
            clock_versions: Vec::new(),
            clock,
            created,
            seats,
            started: false,
            game: Game::new(),
            game_events: Vec::new(),
            game_versions: Vec::new(),
            bots: Vec::new(),
            stall: None,
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
            return Err(FoldError {
                event: first.type_name(),
                reason: "a table's stream starts with table_created.v1",
            });
        };
        let mut state = Self::new(id, created);
        for event in events {
            state.apply(event)?;
        }
        Ok(Some(state))
    }

    /// Folds the next event of the stream.
    pub fn apply(&mut self, event: StreamEvent) -> Result<(), FoldError> {
        let unexpected = |event: &StreamEvent, reason| FoldError {
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
                self.clock.observe(&event, &self.game);
                self.entropy
                    .observe(&event)
                    .map_err(|mismatch| breaks_entropy(&event, &mismatch))?;
                self.game_versions.push(self.version + 1);
                if let StreamEvent::Game(e) = event {
                    self.game_events.push(e);
                }
            }
            StreamEvent::Clock(_) => {
                if !self.started {
                    return Err(unexpected(&event, "the table has not started"));
                }
                if self.created.clock.is_none() {
                    return Err(unexpected(&event, "the table has no clock"));
                }
                self.clock.observe(&event, &self.game);
                self.clock_versions.push(self.version + 1);
                if let StreamEvent::Clock(e) = event {
                    self.clock_events.push(e);
                }
            }
            StreamEvent::Entropy(_) => {
                if !self.started {
                    return Err(unexpected(&event, "the table has not started"));
                }
                if !self.created.player_entropy {
                    return Err(unexpected(&event, "the table has no player entropy"));
                }
                self.entropy
                    .observe(&event)
                    .map_err(|mismatch| breaks_entropy(&event, &mismatch))?;
                self.entropy_versions.push(self.version + 1);
                if let StreamEvent::Entropy(e) = event {
                    self.entropy_events.push(e);
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

    /// The seat of `account_id`, if it sits here.
    pub fn seat_of(&self, account_id: i64) -> Option<Seat> {
        self.seats
            .iter()
            .position(|s| s.account_id() == Some(account_id))
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

    /// The account of each human seat, in seat order (bots are left out).
    pub fn human_accounts(&self) -> Vec<i64> {
        self.seats
            .iter()
            .filter_map(SeatHolder::account_id)
            .collect()
    }

    /// The bot kind of every seat (`None` for humans and empty seats).
    pub fn bot_kinds(&self) -> Vec<Option<BotKindName>> {
        self.seats.iter().map(SeatHolder::bot_kind).collect()
    }

    /// Records events of a decision, already folded into [`Table::game`] and
    /// [`Table::clock`], as the next versions.
    pub(super) fn record_executed(&mut self, events: impl IntoIterator<Item = StreamEvent>) {
        for event in events {
            self.version += 1;
            match event {
                StreamEvent::Game(event) => {
                    self.game_versions.push(self.version);
                    self.game_events.push(event);
                }
                StreamEvent::Clock(event) => {
                    self.clock_versions.push(self.version);
                    self.clock_events.push(event);
                }
                StreamEvent::Table(event) => self.table_events.push(event),
                StreamEvent::Entropy(event) => {
                    self.entropy_versions.push(self.version);
                    self.entropy_events.push(event);
                }
            }
        }
    }

    /// What the table waits for and how long its clock allows, if a clock runs: the
    /// contributions to the next deal first, then the clock's own waits.
    pub fn due(&self) -> Option<Due> {
        let clock = self.created.clock?;
        if !self.game.is_finished() && !self.entropy.awaiting().is_empty() {
            return Some(Due {
                waiting: Waiting::Contributions,
                limit_ms: clock.turn_ms,
            });
        }
        self.clock.due(&self.game)
    }

    /// The index in [`Table::entropy_events`] of the first one with a stream version
    /// above `after`.
    pub fn entropy_index_after(&self, after: u64) -> usize {
        self.entropy_versions.partition_point(|&v| v <= after)
    }

    /// The index in [`Table::clock_events`] of the first clock event with a stream
    /// version above `after`.
    pub fn clock_index_after(&self, after: u64) -> usize {
        self.clock_versions.partition_point(|&v| v <= after)
    }

    /// The index in [`Table::game_events`] of the first game event with a stream
    /// version above `after`.
    pub fn game_index_after(&self, after: u64) -> usize {
        self.game_versions.partition_point(|&v| v <= after)
    }
}

/// The fold's refusal of a stored event that breaks player entropy's procedure
/// (`docs/verification.md` 8.3): a table whose deal is not the players' mix is not
/// one this server wrote, so it is not served or played on as if it were.
fn breaks_entropy(event: &StreamEvent, mismatch: &EntropyMismatch) -> FoldError {
    let reason = match mismatch {
        EntropyMismatch::NotEnabled(_)
        | EntropyMismatch::MisplacedCommitment { .. }
        | EntropyMismatch::MisplacedContribution { .. }
        | EntropyMismatch::UnknownProcedure(_) => {
            "it is out of place in player entropy's procedure"
        }
        EntropyMismatch::CommitmentMismatch => {
            "its commitment is not the SHA-256 of the server's seed"
        }
        EntropyMismatch::ContributionMissing { .. } => {
            "the round is dealt while a seat still owes its contribution"
        }
        EntropyMismatch::DealWithoutCommitment { .. } => {
            "the round is dealt without a committed server seed"
        }
        EntropyMismatch::SeedMismatch => {
            "the deal's seed is not the mix of the committed seed and the contributions"
        }
        EntropyMismatch::StarterMismatch { .. } => {
            "round 1's starter is not the seat drawn from the mixed seed"
        }
    };
    FoldError {
        event: event.type_name(),
        reason,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::event::{SeatLeft, SeatTaken, TableStarted, sample_created as created};

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
        let state = Table::fold(5, events).unwrap().unwrap();
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
        let mut state = Table::new(1, created());
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
            Table::fold(1, [take(0, 1)]),
            Err(FoldError {
                event: "seat_taken.v1",
                ..
            })
        ));
    }
}
