//! Deciding a table's commands: its setup rules (who sits where, who may start), then
//! the game's own rules for every move, then the server's moves ([`super::autoplay`]).
//! Every decision folds its events into the table as it goes and returns them.

use crate::game::{Command as GameCommand, Game, GameError};
use crate::rules::{RuleSpec, RulesError};

use super::autoplay::{advance, ensure_bots};
use super::command::{Action, NewTable, SeatedTable, TableCommand, TableServices};
use super::error::{SetupProblem, TableError};
use super::event::{
    AccountRef, BotSeat, SeatLeft, SeatTaken, StreamEvent, TableCreated, TableEvent, TableStarted,
};
use super::state::{SeatHolder, Table};

/// Fewest and most seats of a table.
pub const SEATS: std::ops::RangeInclusive<u8> = 2..=8;

impl Table {
    /// A new table's stream (see [`TableCommand::Create`], [`TableCommand::OpenSeated`]).
    pub fn create_stream(
        id: i64,
        command: &TableCommand,
        services: &mut TableServices<'_>,
    ) -> Result<(Table, Vec<StreamEvent>), TableError> {
        match command {
            TableCommand::Create(new) => {
                let created = setup(new, services)?;
                let table = Table::new(id, created.clone());
                Ok((
                    table,
                    vec![StreamEvent::Table(TableEvent::Created(created))],
                ))
            }
            TableCommand::OpenSeated(seated) => open_seated(id, seated, services),
            _ => Err(TableError::Internal(
                "a table's stream starts with its creation".into(),
            )),
        }
    }

    /// Decides `command` on the table as it is (see [`crate::aggregate::Aggregate`]).
    pub fn decide_and_apply(
        &mut self,
        command: &TableCommand,
        services: &mut TableServices<'_>,
    ) -> Result<Vec<StreamEvent>, TableError> {
        self.stall = None;
        match command {
            TableCommand::Create(_) | TableCommand::OpenSeated(_) => {
                Err(TableError::AlreadyCreated)
            }
            TableCommand::Join { seat } => self.join(*seat, services),
            TableCommand::Leave => self.leave(services),
            TableCommand::Start => self.start(services),
            TableCommand::Act(action) => self.act(*action, services),
            TableCommand::TimeOut { waited_ms } => {
                if !self.started {
                    return Err(TableError::NothingDue);
                }
                self.time_out(*waited_ms, services)
            }
        }
    }

    fn join(
        &mut self,
        wanted: Option<u8>,
        services: &TableServices<'_>,
    ) -> Result<Vec<StreamEvent>, TableError> {
        if self.started {
            return Err(TableError::Started("seats can no longer be taken"));
        }
        let actor = services.actor;
        if let Some(seat) = self.seat_of(actor.account_id) {
            return Err(TableError::AlreadySeated(seat));
        }
        let seat = match wanted {
            Some(seat) => match self.seats.get(usize::from(seat)) {
                None => {
                    return Err(TableError::NoSuchSeat {
                        seats: self.seats.len(),
                    });
                }
                Some(SeatHolder::Empty) => seat,
                Some(_) => return Err(TableError::SeatTaken(seat)),
            },
            None => self.first_free_seat().ok_or(TableError::Full)?,
        };
        self.fold_own(StreamEvent::Table(TableEvent::SeatTaken(SeatTaken {
            seat,
            account_id: actor.account_id,
            username: actor.username.clone(),
        })))
    }

    fn leave(&mut self, services: &TableServices<'_>) -> Result<Vec<StreamEvent>, TableError> {
        let account_id = services.actor.account_id;
        let seat = self.seat_of(account_id).ok_or(TableError::NotSeated)?;
        if self.started {
            return Err(TableError::Started("nobody can leave it"));
        }
        self.fold_own(StreamEvent::Table(TableEvent::SeatLeft(SeatLeft {
            seat,
            account_id,
        })))
    }

    fn start(&mut self, services: &mut TableServices<'_>) -> Result<Vec<StreamEvent>, TableError> {
        let actor = services.actor;
        if self.created.created_by.account_id != actor.account_id && !actor.organizer {
            return Err(TableError::MayNotStart);
        }
        if self.started {
            return Err(TableError::Started("it has started already"));
        }
        let free = self.free_seats();
        if free > 0 {
            return Err(TableError::SeatsNotFilled { free });
        }
        let mut events = self.fold_own(StreamEvent::Table(TableEvent::Started(TableStarted {
            started_by: actor.account_id,
            players: self.player_names(),
        })))?;
        let created = self.begin_game()?;
        events.extend(self.play_on(created, services)?);
        Ok(events)
    }

    fn act(
        &mut self,
        action: Action,
        services: &mut TableServices<'_>,
    ) -> Result<Vec<StreamEvent>, TableError> {
        let seat = self
            .seat_of(services.actor.account_id)
            .ok_or(TableError::NotSeated)?;
        if !self.started {
            return Err(TableError::NotStarted);
        }
        let command = match action.command(seat, self.rules().call_resolution_kind()) {
            Some(command) => command,
            None => {
                return match action {
                    Action::Pass => self.pass(seat, services),
                    Action::Contribute(value) => self.contribute(seat, value, services),
                    _ => self.come_back(seat, services),
                };
            }
        };
        self.check_window(seat, &action)?;
        // Only the rules' refusal can stop a move; the game is untouched then.
        let mut moved = Vec::new();
        self.execute_game(&command, &mut moved)?;
        self.play_on(moved, services)
    }

    /// Folds one lifecycle event this table decided and returns it.
    fn fold_own(&mut self, event: StreamEvent) -> Result<Vec<StreamEvent>, TableError> {
        self.apply(event.clone())
            .map_err(|e| TableError::Internal(e.to_string()))?;
        Ok(vec![event])
    }

    /// Creates the game of a table that just started.
    fn begin_game(&mut self) -> Result<Vec<StreamEvent>, TableError> {
        let command = GameCommand::Create {
            rules: self.rules().clone(),
            players: self.player_names(),
            initial_totals: Vec::new(),
        };
        let mut created = Vec::new();
        self.execute_game(&command, &mut created)
            .map_err(|e| TableError::Internal(format!("the game cannot be created: {e}")))?;
        Ok(created)
    }

    /// `done` (events already folded into the game and the clock) and the server's
    /// moves after them, recorded as the table's next versions.
    pub(super) fn play_on(
        &mut self,
        mut done: Vec<StreamEvent>,
        services: &mut TableServices<'_>,
    ) -> Result<Vec<StreamEvent>, TableError> {
        let kinds = self.bot_kinds();
        ensure_bots(&mut self.bots, &kinds, services)?;
        self.stall = advance(
            &mut self.game,
            &mut self.bots,
            &mut self.clock,
            &mut self.entropy,
            services,
            &mut done,
        )?;
        self.record_executed(done.iter().cloned());
        Ok(done)
    }
}

/// Where a rules error belongs in the request.
fn rules_field(error: &RulesError) -> String {
    match error.parameter() {
        None => "preset".into(),
        Some("rules") => "overrides".into(),
        Some(name) => format!("overrides.{name}"),
    }
}

/// The first event of a new table, or every problem of its setup.
fn setup(new: &NewTable, services: &TableServices<'_>) -> Result<TableCreated, TableError> {
    if new.rated && !services.actor.organizer {
        return Err(TableError::MayNotRate);
    }
    let mut problems = Vec::new();
    if let Some(clock) = &new.clock {
        problems.extend(clock.problems("clock"));
    }
    let rules = new
        .rules
        .resolve()
        .map_err(|e| problems.push(SetupProblem::new(rules_field(&e), e.to_string())))
        .ok();
    let seats = if SEATS.contains(&new.seats) {
        Some(new.seats)
    } else {
        problems.push(SetupProblem::new(
            "seats",
            format!("must be {} to {}", SEATS.start(), SEATS.end()),
        ));
        None
    };
    if let (Some(rules), Some(seats)) = (&rules, seats) {
        // The game says how many players these rules seat.
        let players = (0..seats).map(|i| format!("seat {i}")).collect();
        let creation = GameCommand::Create {
            rules: rules.clone(),
            players,
            initial_totals: Vec::new(),
        };
        match Game::new().decide(&creation) {
            Ok(_) => {}
            Err(GameError::BadPlayers(message)) => {
                problems.push(SetupProblem::new("seats", message));
            }
            Err(GameError::BadRules(e)) => {
                problems.push(SetupProblem::new(rules_field(&e), e.to_string()));
            }
            Err(other) => problems.push(SetupProblem::new("body", other.to_string())),
        }
    }
    let mut bots: Vec<BotSeat> = Vec::new();
    for (i, &(seat, kind)) in new.bots.iter().enumerate() {
        let field = format!("bots[{i}].seat");
        match seats {
            Some(seats) if seat >= seats => problems.push(SetupProblem::new(
                field,
                format!("must be a seat from 0 to {}", seats - 1),
            )),
            Some(_) if bots.iter().any(|b| b.seat == seat) => {
                problems.push(SetupProblem::new(field, "seat given twice"));
            }
            Some(_) => bots.push(BotSeat {
                seat,
                kind,
                name: format!("{}#{}", kind.as_str(), u16::from(seat) + 1),
            }),
            None => {}
        }
    }
    if seats.is_some_and(|s| new.bots.len() >= usize::from(s)) {
        problems.push(SetupProblem::new(
            "bots",
            "at least one seat must stay for a human player",
        ));
    }
    match (rules, seats) {
        (Some(effective_rules), Some(seats)) if problems.is_empty() => {
            bots.sort_by_key(|b| b.seat);
            Ok(TableCreated {
                rules: new.rules.clone(),
                effective_rules,
                seats,
                bots,
                created_by: AccountRef {
                    account_id: services.actor.account_id,
                    username: services.actor.username.clone(),
                },
                tournament: None,
                clock: new.clock,
                player_entropy: new.player_entropy,
                rated: new.rated,
            })
        }
        _ => Err(TableError::BadSetup(problems)),
    }
}

/// A tournament's table from its creation to its first deal.
fn open_seated(
    id: i64,
    seated: &SeatedTable,
    services: &mut TableServices<'_>,
) -> Result<(Table, Vec<StreamEvent>), TableError> {
    if seated.rated {
        return Err(TableError::RatedByTournament);
    }
    let seats = u8::try_from(seated.players.len())
        .ok()
        .filter(|n| SEATS.contains(n))
        .ok_or_else(|| {
            TableError::BadSetup(vec![SetupProblem::new(
                "players",
                format!("must be {} to {} players", SEATS.start(), SEATS.end()),
            )])
        })?;
    let created = TableCreated {
        rules: RuleSpec::clone(&seated.rules),
        effective_rules: seated.effective_rules.clone(),
        seats,
        bots: Vec::new(),
        created_by: AccountRef {
            account_id: services.actor.account_id,
            username: services.actor.username.clone(),
        },
        tournament: Some(seated.link),
        clock: seated.clock,
        player_entropy: seated.player_entropy,
        rated: false,
    };
    let mut table = Table::new(id, created.clone());
    let mut events = vec![StreamEvent::Table(TableEvent::Created(created))];
    for (seat, player) in (0u8..).zip(&seated.players) {
        events.extend(
            table.fold_own(StreamEvent::Table(TableEvent::SeatTaken(SeatTaken {
                seat,
                account_id: player.account_id,
                username: player.username.clone(),
            })))?,
        );
    }
    events.extend(
        table.fold_own(StreamEvent::Table(TableEvent::Started(TableStarted {
            started_by: services.actor.account_id,
            players: table.player_names(),
        })))?,
    );
    let created = table.begin_game()?;
    // No bots sit here: this only deals round 1.
    events.extend(table.play_on(created, services)?);
    Ok((table, events))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::command::{Actor, Randomness};
    use crate::table::event::{AccountRef, TournamentLink};
    use crate::table::link::TableRef;

    /// Never asked: creating a table draws nothing.
    struct NoRandomness;

    impl Randomness for NoRandomness {
        fn fill(&mut self, bytes: &mut [u8]) -> Result<(), String> {
            bytes.fill(7);
            Ok(())
        }
    }

    fn actor(organizer: bool) -> Actor {
        Actor {
            account_id: 5,
            username: "eve".into(),
            organizer,
        }
    }

    fn new_table(rated: bool) -> TableCommand {
        TableCommand::Create(NewTable {
            rules: RuleSpec {
                preset: "israeli".into(),
                overrides: Default::default(),
            },
            seats: 3,
            bots: vec![],
            clock: None,
            player_entropy: false,
            rated,
        })
    }

    fn create(command: &TableCommand, actor: &Actor) -> Result<Table, TableError> {
        let mut random = NoRandomness;
        let mut services = TableServices {
            actor,
            random: &mut random,
        };
        Table::create_stream(1, command, &mut services).map(|(table, _)| table)
    }

    #[test]
    fn only_an_organizer_opens_a_rated_table() {
        assert_eq!(
            create(&new_table(true), &actor(false)).err(),
            Some(TableError::MayNotRate)
        );
        let rated = create(&new_table(true), &actor(true)).expect("an organizer may");
        assert!(rated.created.rated);
        let casual = create(&new_table(false), &actor(false)).expect("anyone may");
        assert!(!casual.created.rated);
    }

    #[test]
    fn a_tournament_table_takes_no_rated_option() {
        let seated = |rated| {
            TableCommand::OpenSeated(SeatedTable {
                link: TournamentLink {
                    tournament_id: 2,
                    table: TableRef {
                        stage: 1,
                        round: 1,
                        table: 1,
                    },
                },
                rules: RuleSpec {
                    preset: "israeli".into(),
                    overrides: Default::default(),
                },
                effective_rules: crate::rules::Preset::Israeli.rules(),
                players: vec![
                    AccountRef {
                        account_id: 1,
                        username: "ann".into(),
                    },
                    AccountRef {
                        account_id: 2,
                        username: "bob".into(),
                    },
                ],
                clock: None,
                player_entropy: false,
                rated,
            })
        };
        let refused = create(&seated(true), &actor(true)).err();
        assert_eq!(refused, Some(TableError::RatedByTournament));
        let table = create(&seated(false), &actor(true)).expect("opened");
        assert!(!table.created.rated, "its tournament rates it");
    }
}
