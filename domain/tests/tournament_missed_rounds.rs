//! Late entries and no-shows (docs/tournaments.md, "Missed rounds: late entries and
//! no-shows"): who may admit or record them, when, and how the rounds a player missed
//! count in the standings.

mod common;

use yaniv_domain::rules::RuleSpec;
use yaniv_domain::shuffle::Seed;
use yaniv_domain::tournament::*;

const ORGANIZER: AccountId = 1;
const REFEREE: AccountId = 2;

fn seed(tag: u8) -> Seed {
    let mut bytes = [tag; 32];
    bytes[0] = 0x4d;
    Seed(bytes)
}

struct Cup {
    t: Tournament,
}

impl Cup {
    /// `players` (accounts 101, 102, ...) registered and checked in, a referee, the
    /// qualification started; `dropped` more registered without checking in.
    fn started(players: AccountId, dropped: AccountId, config: ConfigRequest) -> Cup {
        let mut cup = Cup {
            t: Tournament::new(),
        };
        cup.by(
            ORGANIZER,
            Command::Create {
                name: "Door cup".into(),
                rules: RuleSpec {
                    preset: "belgian".into(),
                    overrides: Default::default(),
                },
                capacity: 100,
                registration_window: RegistrationWindow::default(),
                config,
            },
        );
        cup.by(ORGANIZER, Command::AddReferee { referee: REFEREE });
        for player in 101..101 + players + dropped {
            cup.by(ORGANIZER, Command::Register { player });
            if player < 101 + players {
                cup.by(player, Command::CheckIn { player });
            }
        }
        cup.by(ORGANIZER, Command::StartQualification { seeding: None });
        cup
    }

    fn try_by(
        &mut self,
        account: AccountId,
        command: Command,
    ) -> Result<Vec<Event>, TournamentError> {
        self.t.execute(&Context::account(account, 1_000), &command)
    }

    fn by(&mut self, account: AccountId, command: Command) -> Vec<Event> {
        self.try_by(account, command.clone())
            .unwrap_or_else(|e| panic!("{command:?} by {account} refused: {e:?}"))
    }

    fn refuse(&mut self, account: AccountId, command: Command) -> &'static str {
        match self.try_by(account, command) {
            Ok(events) => panic!("accepted: {events:?}"),
            Err(e) => e.code(),
        }
    }

    fn draw(&mut self, round: u8) -> Vec<Vec<AccountId>> {
        match self
            .by(ORGANIZER, Command::DrawRound { seed: seed(round) })
            .pop()
        {
            Some(Event::RoundDrawn(d)) => d.tables,
            other => panic!("{other:?}"),
        }
    }

    /// Records every table of the round that has no result yet: places by account,
    /// no-shows left out.
    fn play_round(&mut self, round: u32) {
        let tables: Vec<(TableRef, Vec<AccountId>, bool)> = self
            .t
            .state()
            .round(RoundRef { stage: 1, round })
            .map(|r| {
                r.tables
                    .iter()
                    .zip(1..)
                    .map(|(t, k)| (at(round, k), t.present().collect(), t.result.is_some()))
                    .collect()
            })
            .unwrap_or_default();
        for (at, mut players, done) in tables {
            if done {
                continue;
            }
            players.sort_unstable();
            self.by(REFEREE, record(at, &players));
        }
    }

    fn standing(&self, player: AccountId) -> StandingsRow {
        self.t
            .standings()
            .into_iter()
            .find(|r| r.stats.player == player)
            .unwrap_or_else(|| panic!("{player} is not in the standings"))
    }
}

fn at(round: u32, table: u32) -> TableRef {
    TableRef {
        stage: 1,
        round,
        table,
    }
}

/// `players` finishing in that order, totals 10, 20, ...
fn record(at: TableRef, players: &[AccountId]) -> Command {
    Command::RecordResult {
        table: at,
        input: ResultInput::Game {
            game: None,
            standings: common::finishing(players, 10, 10),
        },
        reason: None,
    }
}

/// The highest score difference of round `round`'s results.
fn worst_difference(cup: &Cup, round: u32) -> ScoreDifference {
    let r = cup.t.state().round(RoundRef { stage: 1, round }).unwrap();
    r.tables
        .iter()
        .filter_map(|t| t.result.as_deref())
        .flat_map(score_differences)
        .map(|(_, d)| d)
        .max()
        .unwrap()
}

/// "Once the qualification has started, the organizer can still admit a player with
/// `enter_late` ... The player joins the qualification and is drawn from the next
/// round on ... Every round drawn before it counts as missed."
#[test]
fn a_late_entry_is_drawn_from_the_next_round_and_the_rounds_before_count_as_missed() {
    let mut cup = Cup::started(8, 0, ConfigRequest::default());
    cup.draw(1);
    // Admitted while round 1 is being played: round 2 is the next one.
    let events = cup.by(ORGANIZER, Command::EnterLate { player: 201 });
    let [Event::PlayerEnteredLate(late)] = &events[..] else {
        panic!("{events:?}");
    };
    assert_eq!(
        (late.player, late.order, late.first_round),
        (201, 9, 2),
        "a new registration order, first drawn in round 2"
    );
    cup.play_round(1);
    cup.by(ORGANIZER, Command::EnterLate { player: 202 });
    let round_two = cup.draw(2);
    let seated: Vec<AccountId> = round_two.concat();
    assert_eq!(seated.len(), 10);
    assert!(seated.contains(&201) && seated.contains(&202));

    // "`last_place` (the default): 0 table points ... The score difference is the
    // highest score difference of any player in that round."
    let row = cup.standing(201);
    assert_eq!(
        (row.stats.games, row.stats.absences, row.stats.wins),
        (1, 1, 0)
    );
    assert_eq!(row.stats.table_points, Points::default());
    assert_eq!(row.stats.score_difference, worst_difference(&cup, 1));
    assert!(row.stats.score_difference > ScoreDifference::default());

    // After round 2 the missed round and the game played both count.
    cup.play_round(2);
    let row = cup.standing(201);
    assert_eq!((row.stats.games, row.stats.absences), (2, 1));
    let view = cup
        .t
        .state()
        .player_views()
        .into_iter()
        .find(|p| p.player == 201)
        .unwrap();
    assert_eq!(view.first_round, Some(2));
}

/// "A missed round never ranks above a game actually played and lost": under
/// `last_place`, a late entrant is behind every player who lost round 1, on points and
/// then on score difference.
#[test]
fn under_last_place_a_missed_round_ranks_below_every_game_played() {
    let mut cup = Cup::started(8, 0, ConfigRequest::default());
    cup.draw(1);
    cup.play_round(1);
    cup.by(ORGANIZER, Command::EnterLate { player: 201 });
    let standings = cup.t.standings();
    assert_eq!(standings.last().map(|r| r.stats.player), Some(201));
}

/// "`fixed`: the configured table points and score difference, the same for every
/// missed round."
#[test]
fn a_fixed_score_counts_for_each_missed_round() {
    let config = ConfigRequest {
        absent_scoring: Some(AbsentScoring::Fixed {
            table_points: 25,
            score_difference: 3,
        }),
        ..Default::default()
    };
    let mut cup = Cup::started(8, 0, config);
    cup.draw(1);
    cup.play_round(1);
    cup.draw(2);
    cup.play_round(2);
    cup.by(ORGANIZER, Command::EnterLate { player: 201 });
    let row = cup.standing(201);
    assert_eq!((row.stats.games, row.stats.absences), (2, 2));
    assert_eq!(row.stats.table_points, Points::from_points(50));
    assert_eq!(row.stats.score_difference, ScoreDifference(6 * SCALE));
}

/// "A player who was dropped at the start for not checking in can be admitted the same
/// way: they keep their registration order. A late entry is refused once every
/// qualification round is drawn, and in the knockout."
#[test]
fn late_entries_are_the_organizers_and_only_while_a_round_is_left() {
    let mut cup = Cup::started(8, 1, ConfigRequest::default());
    assert_eq!(cup.t.state().stage(1).unwrap().dropped, vec![109]);
    assert_eq!(
        cup.refuse(REFEREE, Command::EnterLate { player: 201 }),
        "forbidden"
    );
    assert_eq!(
        cup.refuse(201, Command::EnterLate { player: 201 }),
        "forbidden"
    );
    assert_eq!(
        cup.refuse(ORGANIZER, Command::EnterLate { player: 101 }),
        "already_registered",
        "already in the qualification"
    );
    assert_eq!(
        cup.refuse(ORGANIZER, Command::EnterLate { player: REFEREE }),
        "official_cannot_play"
    );
    let events = cup.by(ORGANIZER, Command::EnterLate { player: 109 });
    let [Event::PlayerEnteredLate(late)] = &events[..] else {
        panic!("{events:?}");
    };
    assert_eq!((late.order, late.first_round), (9, 1));
    assert!(cup.t.state().stage(1).unwrap().dropped.is_empty());
    // Entered before round 1 is drawn: nothing missed.
    let seated = cup.draw(1).concat();
    assert!(seated.contains(&109));
    assert_eq!(cup.standing(109).stats.absences, 0);
    cup.by(ORGANIZER, Command::Withdraw { player: 104 });
    assert_eq!(
        cup.refuse(ORGANIZER, Command::EnterLate { player: 104 }),
        "player_withdrawn"
    );
    for round in 1..=3 {
        if round > 1 {
            cup.draw(round as u8);
        }
        let tables = cup
            .t
            .state()
            .round(RoundRef { stage: 1, round })
            .unwrap()
            .tables
            .clone();
        for (k, t) in tables.iter().enumerate() {
            let mut present: Vec<AccountId> = t.present().filter(|&p| p != 104).collect();
            present.sort_unstable();
            cup.by(REFEREE, record(at(round, k as u32 + 1), &present));
        }
    }
    assert_eq!(
        cup.refuse(ORGANIZER, Command::EnterLate { player: 201 }),
        "wrong_phase",
        "every qualification round is drawn"
    );
    cup.by(ORGANIZER, Command::AdvanceStage);
    assert_eq!(
        cup.refuse(ORGANIZER, Command::EnterLate { player: 201 }),
        "wrong_phase"
    );
}

/// "A referee or the organizer (not one seated at the table) records with
/// `record_no_show` that a drawn player did not come ... The table plays without the
/// player. Its result must leave them out ... That round counts as missed for the
/// player, who stays in the tournament and is drawn again in the next round."
#[test]
fn a_no_show_is_left_out_of_the_result_and_scored_as_a_missed_round() {
    let mut cup = Cup::started(10, 0, ConfigRequest::default());
    let tables = cup.draw(1);
    let first = tables[0].clone();
    let absent = first[0];
    let no_show = |player| Command::RecordNoShow {
        table: at(1, 1),
        player,
        reason: "not at the table 15 minutes after the start".into(),
    };
    assert_eq!(cup.refuse(absent, no_show(absent)), "forbidden");
    assert_eq!(cup.refuse(REFEREE, no_show(tables[1][0])), "not_at_table");
    let events = cup.by(REFEREE, no_show(absent));
    let [Event::NoShowRecorded(recorded)] = &events[..] else {
        panic!("{events:?}");
    };
    assert_eq!(
        (recorded.player, recorded.by),
        (absent, Actor::Account(REFEREE))
    );
    assert_eq!(cup.refuse(REFEREE, no_show(absent)), "already_absent");

    // The result must leave the no-show out.
    let mut everyone = first.clone();
    everyone.sort_unstable();
    assert_eq!(
        cup.refuse(REFEREE, record(at(1, 1), &everyone)),
        "bad_result"
    );
    cup.play_round(1);
    let row = cup.standing(absent);
    assert_eq!((row.stats.games, row.stats.absences), (1, 1));
    assert_eq!(row.stats.table_points, Points::default());
    assert_eq!(row.stats.score_difference, worst_difference(&cup, 1));
    let lines = cup
        .t
        .state()
        .result_lines(Some(RoundRef { stage: 1, round: 1 }));
    let line = lines.iter().find(|l| l.player == absent).unwrap();
    assert!(line.absent && line.place.is_none() && line.table_points.is_none());
    assert_eq!(lines.len(), 10, "every drawn player has a line");
    assert_eq!(
        cup.refuse(REFEREE, no_show(first[1])),
        "result_already_recorded"
    );
    // Still in: drawn again in round 2.
    assert!(cup.draw(2).concat().contains(&absent));
}

/// "only allowed at a qualification table that has no result yet and whose game has
/// not begun ... it needs at least two players (`not_enough_players` otherwise)".
#[test]
fn a_no_show_needs_a_table_not_begun_with_two_players_left() {
    let mut cup = Cup::started(8, 0, ConfigRequest::default());
    let tables = cup.draw(1);
    let no_show = |table, player| Command::RecordNoShow {
        table: at(1, table),
        player,
        reason: "absent".into(),
    };
    cup.by(
        REFEREE,
        Command::StartTableGame {
            table: at(1, 2),
            game: None,
        },
    );
    assert_eq!(
        cup.refuse(REFEREE, no_show(2, tables[1][0])),
        "table_already_started"
    );
    cup.by(REFEREE, no_show(1, tables[0][0]));
    cup.by(REFEREE, no_show(1, tables[0][1]));
    assert_eq!(
        cup.refuse(REFEREE, no_show(1, tables[0][2])),
        "not_enough_players"
    );
    // The Belgian rules seat 2 to 8: the table of 4 plays with the 2 who came.
    let mut present: Vec<AccountId> = tables[0][2..].to_vec();
    present.sort_unstable();
    cup.by(REFEREE, record(at(1, 1), &present));
}
