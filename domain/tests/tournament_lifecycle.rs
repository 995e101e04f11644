//! The life of a tournament as commands and events (TOURNAMENT.md "Life of a
//! tournament"): every command validated, every refusal with its stable code, referee
//! decisions as events, corrections that flag the draws they would have changed.

mod common;

use yaniv_domain::rules::RuleSpec;
use yaniv_domain::shuffle::Seed;
use yaniv_domain::tournament::seating::{PlayedWith, balanced_sizes, random_draw};
use yaniv_domain::tournament::*;

const ORGANIZER: AccountId = 1;
const REFEREE: AccountId = 2;
const STRANGER: AccountId = 3;

fn seed(tag: u8) -> Seed {
    let mut bytes = [tag; 32];
    bytes[0] = 0x5e;
    Seed(bytes)
}

fn belgian() -> RuleSpec {
    RuleSpec {
        preset: "belgian".into(),
        overrides: Default::default(),
    }
}

struct Harness {
    t: Tournament,
    now: Timestamp,
}

impl Harness {
    fn created(config: ConfigRequest) -> Harness {
        let mut h = Harness {
            t: Tournament::new(),
            now: 1_000,
        };
        h.org(Command::Create {
            name: "Belgian championship".into(),
            rules: belgian(),
            capacity: 200,
            registration_window: RegistrationWindow {
                opens_at: Some(500),
                closes_at: Some(5_000),
            },
            config,
        });
        h
    }

    /// Created, `players` registered and checked in (accounts 101, 102, ...), referee
    /// added, registration closed, qualification started.
    fn started(players: usize, config: ConfigRequest) -> Harness {
        let mut h = Harness::created(config);
        h.org(Command::AddReferee { referee: REFEREE });
        h.org(Command::OpenRegistration);
        for p in 0..players as AccountId {
            h.enter(101 + p);
        }
        h.org(Command::CloseRegistration);
        h.org(Command::StartQualification { seeding: None });
        h
    }

    /// Started (see [`Harness::started`]), round 1 drawn from `seed(1)` and every table's
    /// result recorded, places by account.
    fn round_one_played(players: usize, config: ConfigRequest) -> Harness {
        let mut h = Harness::started(players, config);
        h.draw(1);
        h.play_round(1, 1, |p| p);
        h
    }

    /// `player` registers and checks in.
    fn enter(&mut self, player: AccountId) {
        self.by(player, Command::Register { player });
        self.by(player, Command::CheckIn { player });
    }

    fn try_by(&mut self, actor: Actor, command: Command) -> Result<Vec<Event>, TournamentError> {
        self.t.execute(&Context::new(actor, self.now), &command)
    }

    fn by(&mut self, account: AccountId, command: Command) -> Vec<Event> {
        self.try_by(Actor::Account(account), command.clone())
            .unwrap_or_else(|e| panic!("{command:?} by {account} refused: {e:?}"))
    }

    fn org(&mut self, command: Command) -> Vec<Event> {
        self.by(ORGANIZER, command)
    }

    fn refuse(&mut self, account: AccountId, command: Command) -> &'static str {
        match self.try_by(Actor::Account(account), command) {
            Ok(events) => panic!("accepted: {events:?}"),
            Err(e) => e.code(),
        }
    }

    fn draw(&mut self, tag: u8) -> RoundDrawn {
        match self.org(Command::DrawRound { seed: seed(tag) }).pop() {
            Some(Event::RoundDrawn(d)) => d,
            other => panic!("{other:?}"),
        }
    }

    fn tables(&self, stage: u32, round: u32) -> Vec<Vec<AccountId>> {
        self.t
            .state()
            .round(RoundRef { stage, round })
            .map(|r| r.tables.iter().map(|t| t.players.clone()).collect())
            .unwrap_or_default()
    }

    /// Records every table of the round: places by `rank` (lower first).
    fn play_round(&mut self, stage: u32, round: u32, rank: impl Fn(AccountId) -> i64) {
        for (k, players) in self.tables(stage, round).into_iter().enumerate() {
            let at = TableRef {
                stage,
                round,
                table: k as u32 + 1,
            };
            self.by(REFEREE, record(at, &players, &rank));
        }
    }
}

/// A final sheet: players placed by `rank` (no ties), totals 10, 20, ...
fn sheet(players: &[AccountId], rank: impl Fn(AccountId) -> i64) -> ResultInput {
    let mut sorted = players.to_vec();
    sorted.sort_by_key(|&p| rank(p));
    ResultInput::Game {
        game: None,
        standings: common::finishing(&sorted, 10, 10),
    }
}

fn table(stage: u32, round: u32, table: u32) -> TableRef {
    TableRef {
        stage,
        round,
        table,
    }
}

/// Records `players`' sheet at `at` (see [`sheet`]).
fn record(at: TableRef, players: &[AccountId], rank: impl Fn(AccountId) -> i64) -> Command {
    let input = sheet(players, rank);
    Command::RecordResult {
        table: at,
        input,
        reason: None,
    }
}

/// Corrects the result at `at` to `players`' sheet (see [`sheet`]).
fn correction(
    at: TableRef,
    players: &[AccountId],
    rank: impl Fn(AccountId) -> i64,
    reason: &str,
) -> Command {
    let (input, reason) = (sheet(players, rank), reason.into());
    Command::CorrectResult {
        table: at,
        input,
        reason,
    }
}

/// Redraws round `round` of stage `stage` from `seed(tag)`.
fn redraw(stage: u32, round: u32, tag: u8, reason: &str) -> Command {
    let (round, seed, reason) = (RoundRef { stage, round }, seed(tag), reason.into());
    Command::RedrawRound {
        round,
        seed,
        reason,
    }
}

/// The first of `events`, which must be an `Event::$variant`.
macro_rules! first {
    ($events:expr, $variant:ident) => {
        match &$events[..] {
            [Event::$variant(event), ..] => event,
            _ => panic!("{:?}", $events),
        }
    };
}

mod tournament_lifecycle {
    use super::*;

    #[test]
    fn creation_stores_the_effective_rules_and_format() {
        let h = Harness::created(ConfigRequest::default());
        let Event::Created(created) = &h.t.events()[0] else {
            panic!("created first")
        };
        assert_eq!(created.organizer, ORGANIZER);
        assert_eq!(
            created.effective_rules,
            yaniv_domain::rules::Preset::Belgian.rules()
        );
        assert_eq!(created.config.qualification_rounds, 3);
        let view = h.t.view().expect("a view");
        assert_eq!(view.phase, Phase::Setup);
        assert_eq!(h.t.version(), 1);
    }

    #[test]
    fn creation_is_validated() {
        let mut t = Tournament::new();
        let ctx = Context::account(ORGANIZER, 0);
        let create =
            |name: &str, preset: &str, capacity: u32, window: RegistrationWindow| Command::Create {
                name: name.into(),
                rules: RuleSpec {
                    preset: preset.into(),
                    overrides: Default::default(),
                },
                capacity,
                registration_window: window,
                config: ConfigRequest::default(),
            };
        let code =
            |t: &Tournament, c: Command| t.decide(&ctx, &c).map_err(|e| e.code()).map(|_| ());
        assert_eq!(
            code(
                &t,
                create("  ", "belgian", 10, RegistrationWindow::default())
            ),
            Err("bad_name")
        );
        assert_eq!(
            code(&t, create("x", "bridge", 10, RegistrationWindow::default())),
            Err("bad_rules")
        );
        assert_eq!(
            code(&t, create("x", "belgian", 1, RegistrationWindow::default())),
            Err("bad_config")
        );
        let backwards = RegistrationWindow {
            opens_at: Some(10),
            closes_at: Some(10),
        };
        assert_eq!(
            code(&t, create("x", "belgian", 10, backwards)),
            Err("bad_window")
        );
        assert_eq!(code(&t, Command::OpenRegistration), Err("not_created"));
        assert_eq!(
            t.decide(
                &Context::server(0),
                &create("x", "belgian", 10, RegistrationWindow::default())
            )
            .map_err(|e| e.code())
            .map(|_| ()),
            Err("forbidden")
        );
        t.execute(
            &ctx,
            &create("x", "belgian", 10, RegistrationWindow::default()),
        )
        .expect("valid");
        assert_eq!(
            code(
                &t,
                create("x", "belgian", 10, RegistrationWindow::default())
            ),
            Err("already_created")
        );
    }

    #[test]
    fn a_tournament_may_require_paper_results_round_by_round() {
        let strict = ConfigRequest {
            rounds_required: Some(true),
            ..Default::default()
        };
        let mut h = Harness::started(8, strict);
        h.draw(1);
        let seated = h.tables(1, 1);
        // Final totals alone are refused: nobody could re-derive them.
        let at = table(1, 1, 1);
        assert_eq!(
            h.refuse(ORGANIZER, record(at, &seated[0], |p| p)),
            "rounds_required"
        );
        // The sheet's rounds are taken.
        let rules = yaniv_domain::rules::Preset::Belgian.rules();
        let mut game = PaperGame::new(&rules, 4).expect("a paper game");
        let mut rounds = Vec::new();
        while !game.is_finished() {
            let round = PaperRound {
                ending: PaperEnding::Call {
                    caller: 0,
                    declared: Vec::new(),
                },
                hand_totals: vec![Some(0), Some(30), Some(40), Some(50)],
            };
            game.score(&round).expect("a valid round");
            rounds.push(round);
        }
        h.org(Command::RecordResult {
            table: at,
            input: ResultInput::PaperRounds {
                seats: seated[0].clone(),
                rounds,
            },
            reason: None,
        });
        // By default final totals are taken.
        let mut lenient = Harness::started(8, ConfigRequest::default());
        lenient.draw(1);
        let seated = lenient.tables(1, 1);
        lenient.org(record(at, &seated[0], |p| p));
    }

    #[test]
    fn officials_set_the_projectors_round_clock_and_announcement() {
        let mut h = Harness::created(ConfigRequest::default());
        h.org(Command::AddReferee { referee: REFEREE });
        // A referee starts a 25-minute round: it ends 1,500 s after their clock's now.
        h.now = 10_000;
        let set = h.by(REFEREE, Command::SetRoundClock { minutes: Some(25) });
        assert!(
            matches!(&set[..], [Event::RoundClockSet(e)] if e.ends_at == Some(11_500) && e.by == Actor::Account(REFEREE))
        );
        let view = h.t.view().unwrap();
        assert_eq!(view.clock_ends_at, Some(11_500));
        for minutes in [0, 601] {
            assert_eq!(
                h.refuse(
                    ORGANIZER,
                    Command::SetRoundClock {
                        minutes: Some(minutes)
                    }
                ),
                "bad_clock"
            );
        }
        assert_eq!(
            h.refuse(STRANGER, Command::SetRoundClock { minutes: None }),
            "forbidden"
        );
        h.org(Command::SetRoundClock { minutes: None });
        assert_eq!(h.t.view().unwrap().clock_ends_at, None);

        // An announcement, then taken down with an empty text.
        h.org(Command::Announce {
            text: "  Lunch until 13:00  ".into(),
        });
        assert_eq!(
            h.t.view().unwrap().announcement.as_deref(),
            Some("Lunch until 13:00")
        );
        assert_eq!(
            h.refuse(
                ORGANIZER,
                Command::Announce {
                    text: "x".repeat(281)
                }
            ),
            "bad_announcement"
        );
        assert_eq!(
            h.refuse(
                STRANGER,
                Command::Announce {
                    text: "free drinks".into()
                }
            ),
            "forbidden"
        );
        h.by(REFEREE, Command::Announce { text: " ".into() });
        assert_eq!(h.t.view().unwrap().announcement, None);
    }

    #[test]
    fn only_the_organizer_runs_the_tournament_and_referees_judge() {
        let mut h = Harness::created(ConfigRequest::default());
        assert_eq!(h.refuse(STRANGER, Command::OpenRegistration), "forbidden");
        assert_eq!(
            h.refuse(STRANGER, Command::AddReferee { referee: STRANGER }),
            "forbidden"
        );
        h.org(Command::AddReferee { referee: REFEREE });
        assert_eq!(
            h.refuse(ORGANIZER, Command::AddReferee { referee: REFEREE }),
            "already_referee"
        );
        assert_eq!(h.refuse(REFEREE, Command::OpenRegistration), "forbidden");
        h.org(Command::RemoveReferee { referee: REFEREE });
        assert_eq!(
            h.refuse(ORGANIZER, Command::RemoveReferee { referee: REFEREE }),
            "not_referee"
        );
        // The server may do what the organizer may.
        assert!(h.try_by(Actor::Server, Command::OpenRegistration).is_ok());
    }

    #[test]
    fn registration_follows_the_window_and_the_capacity() {
        let mut h = Harness::created(ConfigRequest::default());
        assert_eq!(
            h.refuse(101, Command::Register { player: 101 }),
            "registration_not_open"
        );
        h.org(Command::OpenRegistration);
        assert_eq!(
            h.refuse(101, Command::Register { player: 102 }),
            "forbidden"
        );
        h.now = 400;
        assert_eq!(
            h.refuse(101, Command::Register { player: 101 }),
            "outside_registration_window"
        );
        h.now = 5_000;
        assert_eq!(
            h.refuse(101, Command::Register { player: 101 }),
            "outside_registration_window"
        );
        h.now = 4_999;
        let events = h.by(101, Command::Register { player: 101 });
        assert!(matches!(
            events[0],
            Event::PlayerRegistered(PlayerRegistered { order: 1, .. })
        ));
        assert_eq!(
            h.refuse(101, Command::Register { player: 101 }),
            "already_registered"
        );
        // The organizer registers anyone, window or not.
        h.now = 9_999;
        h.org(Command::Register { player: 102 });
        h.org(Command::CloseRegistration);
        h.org(Command::Register { player: 103 });
        assert_eq!(
            h.refuse(104, Command::Register { player: 104 }),
            "registration_not_open"
        );
        // A withdrawn player does not come back.
        h.by(103, Command::Withdraw { player: 103 });
        assert_eq!(
            h.refuse(ORGANIZER, Command::Register { player: 103 }),
            "player_withdrawn"
        );
        assert_eq!(
            h.refuse(103, Command::CheckIn { player: 103 }),
            "player_withdrawn"
        );

        let mut small = Harness::created(ConfigRequest::default());
        let ctx = Context::account(ORGANIZER, 0);
        let full = Command::Create {
            name: "small".into(),
            rules: belgian(),
            capacity: 2,
            registration_window: RegistrationWindow::default(),
            config: ConfigRequest::default(),
        };
        small.t = Tournament::new();
        small.t.execute(&ctx, &full).expect("created");
        // (Accounts 11 to 13: the organizer, account 1, does not play.)
        small.org(Command::Register { player: 11 });
        small.org(Command::Register { player: 12 });
        assert_eq!(
            small.refuse(ORGANIZER, Command::Register { player: 13 }),
            "capacity_reached"
        );
        small.org(Command::Withdraw { player: 12 });
        small.org(Command::Register { player: 13 });
    }

    #[test]
    fn players_who_do_not_check_in_are_dropped_at_the_start() {
        let mut h = Harness::created(ConfigRequest::default());
        h.org(Command::OpenRegistration);
        for p in 101..=110 {
            h.by(p, Command::Register { player: p });
        }
        for p in 101..=108 {
            h.by(p, Command::CheckIn { player: p });
        }
        assert_eq!(
            h.refuse(101, Command::CheckIn { player: 101 }),
            "already_checked_in"
        );
        assert_eq!(
            h.refuse(STRANGER, Command::CheckIn { player: 109 }),
            "forbidden"
        );
        // The desk clicks the wrong name: the check-in is taken back before the start,
        // and 109 is dropped like anyone who did not come.
        h.org(Command::CheckIn { player: 109 });
        assert_eq!(
            h.refuse(STRANGER, Command::UndoCheckIn { player: 109 }),
            "forbidden"
        );
        let undone = h.org(Command::UndoCheckIn { player: 109 });
        assert!(matches!(undone[..], [Event::PlayerCheckInUndone(_)]));
        assert_eq!(
            h.refuse(ORGANIZER, Command::UndoCheckIn { player: 109 }),
            "not_checked_in"
        );
        assert_eq!(
            h.refuse(ORGANIZER, Command::StartQualification { seeding: None }),
            "wrong_phase"
        );
        h.org(Command::CloseRegistration);
        assert_eq!(
            h.refuse(ORGANIZER, Command::DrawRound { seed: seed(1) }),
            "wrong_phase"
        );
        let events = h.org(Command::StartQualification { seeding: None });
        let started = first!(events, StageStarted);
        assert_eq!(started.dropped, vec![109, 110]);
        assert_eq!(
            h.refuse(ORGANIZER, Command::StartQualification { seeding: None }),
            "wrong_phase"
        );
        assert_eq!(
            h.refuse(110, Command::CheckIn { player: 110 }),
            "wrong_phase"
        );
        assert_eq!(
            h.refuse(ORGANIZER, Command::UndoCheckIn { player: 101 }),
            "wrong_phase"
        );
        let d = h.draw(1);
        let seated: Vec<AccountId> = d.tables.concat();
        assert_eq!(seated.len(), 8);
        assert!(!seated.contains(&109) && !seated.contains(&110));
        assert_eq!(h.t.view().map(|v| v.phase), Some(Phase::Qualification));
    }

    #[test]
    fn too_few_players_cannot_start() {
        let mut h = Harness::created(ConfigRequest::default());
        h.org(Command::OpenRegistration);
        for p in 101..=103 {
            h.enter(p);
        }
        h.org(Command::CloseRegistration);
        let err = h
            .try_by(
                Actor::Account(ORGANIZER),
                Command::StartQualification { seeding: None },
            )
            .unwrap_err();
        assert_eq!(
            err,
            TournamentError::NoTableSplit {
                players: 3,
                min: 4,
                max: 6,
                hard_max: 8
            }
        );
    }

    #[test]
    fn the_seed_commitment_verifies_and_the_draw_can_be_rederived() {
        let mut h = Harness::started(23, ConfigRequest::default());
        let secret = seed(42);
        h.org(Command::CommitDrawSeed {
            commitment: secret.commitment(),
        });
        assert_eq!(
            h.refuse(
                ORGANIZER,
                Command::CommitDrawSeed {
                    commitment: seed(1).commitment()
                }
            ),
            "seed_already_committed"
        );
        let view = h.t.view().expect("a view");
        assert_eq!(view.pending_commitment, Some(secret.commitment()));
        assert_eq!(
            h.refuse(ORGANIZER, Command::DrawRound { seed: seed(43) }),
            "seed_mismatch"
        );
        let events = h.org(Command::DrawRound { seed: secret });
        let d = first!(events, RoundDrawn);
        assert!(d.precommitted);
        assert_eq!(d.algorithm, "tournament-draw/1");
        assert!(d.commitment.matches(&d.seed));
        assert_eq!(d.commitment, secret.commitment());
        // Anyone can re-derive the seating from the revealed seed: players by registration
        // index, sizes from the count, `random_draw`.
        let sizes = balanced_sizes(23, 4, 6).expect("a split");
        let players: Vec<u32> = (0..23).collect();
        let again = random_draw(&players, &sizes, &d.seed);
        let as_accounts: Vec<Vec<AccountId>> = again
            .tables
            .iter()
            .map(|t| t.iter().map(|&i| 101 + i as AccountId).collect())
            .collect();
        assert_eq!(as_accounts, d.tables);
        // Without a published commitment, the draw carries its own.
        h.play_round(1, 1, |p| p);
        let d2 = h.draw(7);
        assert!(!d2.precommitted && d2.commitment == seed(7).commitment());
    }

    #[test]
    fn withdrawn_players_are_never_seated_again() {
        let mut h = Harness::started(24, ConfigRequest::default());
        h.draw(1);
        h.by(105, Command::Withdraw { player: 105 });
        assert_eq!(
            h.refuse(105, Command::Withdraw { player: 105 }),
            "player_withdrawn"
        );
        // 105 was seated in round 1 and may be missing from that table's result.
        for (k, players) in h.tables(1, 1).into_iter().enumerate() {
            let present: Vec<AccountId> = players.iter().copied().filter(|&p| p != 105).collect();
            h.by(REFEREE, record(table(1, 1, k as u32 + 1), &present, |p| p));
        }
        for round in 2..=3 {
            let d = h.draw(round as u8);
            assert!(!d.tables.concat().contains(&105));
            assert_eq!(d.tables.concat().len(), 23);
            h.play_round(1, round, |p| -p);
        }
        h.org(Command::AdvanceStage);
        let d = h.draw(9);
        assert!(!d.seeds.contains(&105) && !d.tables.concat().contains(&105));
        let row =
            h.t.standings()
                .into_iter()
                .find(|r| r.stats.player == 105)
                .expect("still listed");
        assert!(row.withdrawn);
        assert_eq!(row.stats.games, 0);
    }

    #[test]
    fn results_must_match_the_table() {
        let mut h = Harness::started(8, ConfigRequest::default());
        h.draw(1);
        let players = h.tables(1, 1)[0].clone();
        let at = table(1, 1, 1);
        let mut missing = players.clone();
        missing.pop();
        assert_eq!(h.refuse(REFEREE, record(at, &missing, |p| p)), "bad_result");
        let mut stranger = missing.clone();
        stranger.push(STRANGER);
        assert_eq!(
            h.refuse(REFEREE, record(at, &stranger, |p| p)),
            "bad_result"
        );
        assert_eq!(h.refuse(STRANGER, record(at, &players, |p| p)), "forbidden");
        assert_eq!(
            h.refuse(REFEREE, record(table(1, 1, 9), &players, |p| p)),
            "no_such_table"
        );
        assert_eq!(
            h.refuse(REFEREE, correction(at, &players, |p| p, "typo")),
            "no_result"
        );
        h.by(REFEREE, record(at, &players, |p| p));
        assert_eq!(
            h.refuse(REFEREE, record(at, &players, |p| p)),
            "result_already_recorded"
        );
        assert_eq!(
            h.refuse(REFEREE, correction(at, &players, |p| p, " ")),
            "bad_reason"
        );
        assert_eq!(
            h.refuse(ORGANIZER, Command::DrawRound { seed: seed(2) }),
            "round_incomplete"
        );
        assert_eq!(
            h.refuse(ORGANIZER, Command::AdvanceStage),
            "stage_incomplete"
        );
    }

    #[test]
    fn a_correction_after_a_later_draw_recomputes_the_standings_and_flags_the_round() {
        let mut h = Harness::round_one_played(12, ConfigRequest::default());
        let before = h.t.standings();
        let round2 = h.draw(2);
        // Table 1 of round 1 is corrected: its order is reversed.
        let players = h.tables(1, 1)[0].clone();
        let events = h.by(
            REFEREE,
            correction(
                table(1, 1, 1),
                &players,
                |p| -p,
                "places were entered upside down",
            ),
        );
        let c = first!(events, ResultCorrected);
        assert_eq!(c.flagged, vec![RoundRef { stage: 1, round: 2 }]);
        assert_eq!(c.by, Actor::Account(REFEREE));
        // The standings follow the corrected result.
        let after = h.t.standings();
        assert_ne!(before, after);
        let winner = *players.iter().max().expect("players");
        let row = after
            .iter()
            .find(|r| r.stats.player == winner)
            .expect("listed");
        assert_eq!(row.stats.wins, 1);
        // The draw stands, flagged.
        assert_eq!(h.tables(1, 2), round2.tables);
        let view = h.t.view().expect("a view");
        assert_eq!(view.flagged_rounds, vec![RoundRef { stage: 1, round: 2 }]);
        // The organizer redraws the round (not started): the flag goes.
        let events = h.org(redraw(1, 2, 2, "standings corrected"));
        let redrawn = first!(events, RoundRedrawn);
        assert_ne!(redrawn.tables, round2.tables);
        assert_eq!(redrawn.reason.as_deref(), Some("standings corrected"));
        assert!(h.t.view().expect("a view").flagged_rounds.is_empty());
        // A correction that changes nothing in the order flags nothing.
        let events = h.by(
            REFEREE,
            correction(table(1, 1, 1), &players, |p| -p, "same again"),
        );
        let c = first!(events, ResultCorrected);
        assert!(c.flagged.is_empty());
        // Once a table started, the round's draw stands.
        h.by(
            REFEREE,
            Command::StartTableGame {
                table: table(1, 2, 1),
                game: Some("g-1".into()),
            },
        );
        assert_eq!(
            h.refuse(
                REFEREE,
                Command::StartTableGame {
                    table: table(1, 2, 1),
                    game: None
                }
            ),
            "table_already_started"
        );
        assert_eq!(
            h.refuse(ORGANIZER, redraw(1, 2, 3, "again")),
            "round_started"
        );
        assert_eq!(
            h.refuse(ORGANIZER, redraw(1, 1, 3, "again")),
            "not_latest_round"
        );
    }

    #[test]
    fn a_voided_game_is_played_again() {
        let mut h = Harness::round_one_played(12, ConfigRequest::default());
        h.draw(2);
        let events = h.by(
            REFEREE,
            Command::VoidGame {
                table: table(1, 1, 2),
                reason: "marked cards".into(),
            },
        );
        let v = first!(events, GameVoided);
        // Without that game round 1 is incomplete: round 2 could not have been drawn.
        assert_eq!(v.flagged, vec![RoundRef { stage: 1, round: 2 }]);
        assert_eq!(
            h.t.state()
                .table(table(1, 1, 2))
                .map(|t| t.result.is_none()),
            Some(true)
        );
        h.play_round(1, 2, |p| p);
        assert_eq!(
            h.refuse(ORGANIZER, Command::DrawRound { seed: seed(3) }),
            "round_incomplete"
        );
        // The replay is recorded like a first result.
        let players = h.tables(1, 1)[1].clone();
        h.by(REFEREE, record(table(1, 1, 2), &players, |p| -p));
        h.draw(3);
        let views = h.t.stages();
        assert_eq!(views[0].rounds[0].tables[1].voids, 1);
    }

    #[test]
    fn disputes_hold_the_tournament_until_resolved() {
        let mut h = Harness::round_one_played(8, ConfigRequest::default());
        let seated = h.tables(1, 1)[0][0];
        let other_table = h.tables(1, 1)[1][0];
        assert_eq!(
            h.refuse(
                other_table,
                Command::OpenDispute {
                    table: table(1, 1, 1),
                    reason: "x".into()
                }
            ),
            "forbidden"
        );
        let events = h.by(
            seated,
            Command::OpenDispute {
                table: table(1, 1, 1),
                reason: "wrong total".into(),
            },
        );
        assert!(matches!(
            &events[0],
            Event::DisputeOpened(DisputeOpened { dispute: 1, .. })
        ));
        assert_eq!(
            h.refuse(ORGANIZER, Command::DrawRound { seed: seed(2) }),
            "open_dispute"
        );
        assert_eq!(
            h.refuse(
                seated,
                Command::ResolveDispute {
                    dispute: 1,
                    resolution: "ok".into()
                }
            ),
            "forbidden"
        );
        assert_eq!(
            h.refuse(
                REFEREE,
                Command::ResolveDispute {
                    dispute: 2,
                    resolution: "ok".into()
                }
            ),
            "no_such_dispute"
        );
        h.by(
            REFEREE,
            Command::ResolveDispute {
                dispute: 1,
                resolution: "the sheet is right".into(),
            },
        );
        assert_eq!(
            h.refuse(
                REFEREE,
                Command::ResolveDispute {
                    dispute: 1,
                    resolution: "ok".into()
                }
            ),
            "dispute_resolved"
        );
        h.draw(2);
    }

    #[test]
    fn a_disqualified_player_leaves_the_standings_and_the_ranking() {
        let mut h = Harness::round_one_played(8, ConfigRequest::default());
        assert_eq!(
            h.refuse(
                REFEREE,
                Command::Disqualify {
                    player: 101,
                    reason: "".into()
                }
            ),
            "bad_reason"
        );
        h.by(
            REFEREE,
            Command::Disqualify {
                player: 101,
                reason: "collusion".into(),
            },
        );
        assert_eq!(
            h.refuse(
                REFEREE,
                Command::Disqualify {
                    player: 101,
                    reason: "again".into()
                }
            ),
            "player_disqualified"
        );
        assert!(h.t.standings().iter().all(|r| r.stats.player != 101));
        for round in 2..=3 {
            let d = h.draw(round as u8);
            assert!(!d.tables.concat().contains(&101));
            h.play_round(1, round, |p| p);
        }
        h.org(Command::AdvanceStage);
        assert_eq!(h.refuse(ORGANIZER, Command::Finish), "wrong_phase");
        let d = h.draw(9);
        assert!(d.final_table);
        h.play_round(2, 1, |p| p);
        assert_eq!(h.refuse(ORGANIZER, Command::AdvanceStage), "final_reached");
        assert_eq!(
            h.refuse(ORGANIZER, Command::DrawRound { seed: seed(10) }),
            "final_reached"
        );
        h.org(Command::Finish);
        let ranking = h.t.ranking().expect("finished");
        assert_eq!(ranking.disqualified, vec![101]);
        assert_eq!(ranking.ranking.len(), 7);
        assert_eq!(h.refuse(ORGANIZER, Command::AdvanceStage), "finished");
        assert_eq!(h.t.view().map(|v| v.phase), Some(Phase::Finished));
    }

    #[test]
    fn the_format_is_fixed_once_the_qualification_starts() {
        let mut h = Harness::created(ConfigRequest::default());
        h.org(Command::ConfigureStages {
            config: ConfigRequest {
                qualification_rounds: Some(2),
                tie_breaks: Some(vec![TieBreak::GameWins, TieBreak::TablePoints]),
                ..Default::default()
            },
        });
        assert_eq!(
            h.t.state().config().map(|c| c.qualification_rounds),
            Some(2)
        );
        assert_eq!(
            h.refuse(
                ORGANIZER,
                Command::ConfigureStages {
                    config: ConfigRequest {
                        table_min: Some(1),
                        ..Default::default()
                    }
                }
            ),
            "bad_config"
        );
        let mut h = Harness::started(8, ConfigRequest::default());
        assert_eq!(
            h.refuse(
                ORGANIZER,
                Command::ConfigureStages {
                    config: ConfigRequest::default()
                }
            ),
            "wrong_phase"
        );
    }

    #[test]
    fn swiss_rounds_seat_similar_standings_apart_from_earlier_opponents() {
        // 48 players at 8 tables of 6: a round can take one player from each earlier table.
        let mut h = Harness::started(48, ConfigRequest::default());
        let mut met = PlayedWith::new(200);
        let index = |p: AccountId| (p - 101) as u32;
        for round in 1..=3u32 {
            let d = h.draw(round as u8);
            if round > 1 {
                let repeats: u32 = d
                    .tables
                    .iter()
                    .map(|t| met.table_cost(&t.iter().map(|&p| index(p)).collect::<Vec<_>>()))
                    .sum();
                assert_eq!(repeats, 0, "round {round} repeats an opponent");
            }
            for t in &d.tables {
                met.add_table(&t.iter().map(|&p| index(p)).collect::<Vec<_>>());
            }
            h.play_round(1, round, |p| p);
        }
    }

    #[test]
    fn a_qualification_correction_after_the_cut_flags_the_knockout_draw() {
        // 12 players, 1 qualification round, the top 6 play the final.
        let config = ConfigRequest {
            qualification_rounds: Some(1),
            ..ConfigRequest::default()
        };
        let mut h = Harness::round_one_played(12, config);
        h.org(Command::AdvanceStage);
        let final_draw = h.draw(2);
        assert!(final_draw.final_table);
        assert_eq!(final_draw.seeds.len(), 6);
        // Table 1's result reversed: its last player wins, and enters the final instead.
        let players = h.tables(1, 1)[0].clone();
        let events = h.by(
            REFEREE,
            correction(table(1, 1, 1), &players, |p| -p, "reversed"),
        );
        let c = first!(events, ResultCorrected);
        assert_eq!(c.flagged, vec![RoundRef { stage: 2, round: 1 }]);
        // The organizer redraws the final: the cut follows the corrected standings.
        let events = h.org(redraw(2, 1, 2, "corrected cut"));
        let redrawn = first!(events, RoundRedrawn);
        let standings: Vec<AccountId> =
            h.t.standings()
                .iter()
                .take(6)
                .map(|r| r.stats.player)
                .collect();
        assert_eq!(redrawn.seeds, standings);
        assert_ne!(redrawn.seeds, final_draw.seeds);
    }
}

/// "Organizers can add referees"; "Registration of player accounts": an official of a
/// tournament is never also one of its players (our interpretation, docs/tournaments.md
/// "Officials do not play"): whoever can void a game, ask for a new deal or enter a
/// result must not be able to do it at their own table.
#[test]
fn officials_do_not_play_and_players_do_not_officiate() {
    let mut h = Harness::created(ConfigRequest::default());
    h.org(Command::AddReferee { referee: REFEREE });
    h.org(Command::OpenRegistration);
    h.now = 1_000;
    for official in [ORGANIZER, REFEREE] {
        assert_eq!(
            h.refuse(ORGANIZER, Command::Register { player: official }),
            "official_cannot_play"
        );
        assert_eq!(
            h.refuse(official, Command::Register { player: official }),
            "official_cannot_play"
        );
    }
    h.enter(101);
    assert_eq!(
        h.refuse(ORGANIZER, Command::AddReferee { referee: 101 }),
        "player_cannot_officiate"
    );
    // Withdrawing does not make a player neutral.
    h.by(101, Command::Withdraw { player: 101 });
    assert_eq!(
        h.refuse(ORGANIZER, Command::AddReferee { referee: 101 }),
        "player_cannot_officiate"
    );
    // A referee removed is no longer an official, and may then register.
    h.org(Command::RemoveReferee { referee: REFEREE });
    h.by(REFEREE, Command::Register { player: REFEREE });
}

/// TOURNAMENT.md leaves officials who play to the organizer; we allow it at creation
/// only, and then an official who plays has no power over any result, seating or player
/// of the tournament, at their own table or a rival's: "An official who plays has no
/// power over any result in that tournament (record, correct, void, no-show, withdraw,
/// disqualify, redraw, dispute) — another official must act; officials_may_play
/// requires at least one official who does not play."
#[test]
fn officials_who_play_have_no_power_over_any_result() {
    let allowed = ConfigRequest {
        officials_may_play: Some(true),
        ..ConfigRequest::default()
    };
    let mut h = Harness::created(allowed);
    h.org(Command::OpenRegistration);
    h.now = 1_000;
    // Until an official who does not play is named, no official may play.
    assert_eq!(
        h.refuse(ORGANIZER, Command::Register { player: ORGANIZER }),
        "no_neutral_official"
    );
    h.org(Command::AddReferee { referee: REFEREE });
    h.by(ORGANIZER, Command::Register { player: ORGANIZER });
    h.by(ORGANIZER, Command::CheckIn { player: ORGANIZER });
    for p in 101..=107 {
        h.enter(p);
    }
    h.org(Command::AddReferee { referee: 101 });
    // The last official who does not play stays while officials play.
    assert_eq!(
        h.refuse(ORGANIZER, Command::RemoveReferee { referee: REFEREE }),
        "no_neutral_official"
    );
    // Changing who may play after people signed up under it is refused.
    assert_eq!(
        h.refuse(
            ORGANIZER,
            Command::ConfigureStages {
                config: ConfigRequest {
                    officials_may_play: Some(false),
                    ..ConfigRequest::default()
                },
            },
        ),
        "bad_config"
    );
    // Reconfiguring without naming it keeps the choice made at creation.
    h.org(Command::ConfigureStages {
        config: ConfigRequest::default(),
    });
    assert!(h.t.state().config.as_ref().unwrap().officials_may_play);
    h.org(Command::CloseRegistration);
    h.org(Command::StartQualification { seeding: None });
    h.draw(1);
    let tables = h.tables(1, 1);
    assert_eq!(tables.len(), 2, "{tables:?}");
    let at = |k: usize| table(1, 1, k as u32 + 1);
    let own = (0..2).find(|&k| tables[k].contains(&ORGANIZER)).unwrap();
    let rival = 1 - own;
    let rank = |p: AccountId| p;
    // Neither the organizer who plays nor the referee who plays (101) may touch any
    // table, their own or a rival's; nor redraw, withdraw or disqualify anyone.
    for official in [ORGANIZER, 101] {
        for k in [own, rival] {
            let (table, seated) = (at(k), &tables[k]);
            let player = *seated.iter().find(|&&p| p != official).unwrap();
            for command in [
                record(table, seated, rank),
                Command::VoidGame {
                    table,
                    reason: "misdeal".into(),
                },
                Command::RecordNoShow {
                    table,
                    player,
                    reason: "late".into(),
                },
            ] {
                assert_eq!(h.refuse(official, command), "official_plays");
            }
        }
        let rival_player = tables[rival][0];
        assert_eq!(
            h.refuse(
                official,
                Command::Disqualify {
                    player: rival_player,
                    reason: "rude".into()
                }
            ),
            "official_plays"
        );
    }
    let rival_player = tables[rival][0];
    assert_eq!(
        h.refuse(
            ORGANIZER,
            Command::Withdraw {
                player: rival_player
            }
        ),
        "official_plays"
    );
    assert_eq!(
        h.refuse(
            ORGANIZER,
            Command::RedrawRound {
                round: RoundRef { stage: 1, round: 1 },
                seed: seed(2),
                reason: "a better seating for me".into(),
            }
        ),
        "official_plays"
    );
    // A dispute at a rival's table would hold everyone's tournament: not theirs to open.
    assert_eq!(
        h.refuse(
            ORGANIZER,
            Command::OpenDispute {
                table: at(rival),
                reason: "they cheat".into(),
            }
        ),
        "official_plays"
    );
    // The referee who does not play acts instead, at every table.
    h.by(REFEREE, record(at(own), &tables[own], rank));
    h.by(REFEREE, record(at(rival), &tables[rival], rank));
    assert_eq!(
        h.refuse(
            ORGANIZER,
            correction(at(own), &tables[own], |p| -(p), "swap")
        ),
        "official_plays"
    );
    assert_eq!(
        h.refuse(
            ORGANIZER,
            correction(at(rival), &tables[rival], |p| -(p), "swap")
        ),
        "official_plays"
    );
    // At their own table they are players, and a player may open a dispute there.
    h.by(
        ORGANIZER,
        Command::OpenDispute {
            table: at(own),
            reason: "I was first".into(),
        },
    );
    assert_eq!(
        h.refuse(
            ORGANIZER,
            Command::ResolveDispute {
                dispute: 1,
                resolution: "I was right".into(),
            }
        ),
        "official_plays"
    );
    h.by(
        REFEREE,
        Command::ResolveDispute {
            dispute: 1,
            resolution: "the sheet is void".into(),
        },
    );
    // After a void, a new game is a new deal: not for an official who plays to start.
    h.by(
        REFEREE,
        Command::VoidGame {
            table: at(rival),
            reason: "sheet unreadable".into(),
        },
    );
    let new_deal = Command::StartTableGame {
        table: at(rival),
        game: None,
    };
    assert_eq!(h.refuse(101, new_deal.clone()), "official_plays");
    h.by(REFEREE, new_deal);
    // A player still withdraws themself; the referee who does not play withdraws a
    // rival, and that is listed for review.
    h.by(ORGANIZER, Command::Withdraw { player: ORGANIZER });
    let rival = tables[rival][1];
    h.by(REFEREE, Command::Withdraw { player: rival });
    let listed = h.t.interventions();
    let last = listed.last().expect("listed");
    assert_eq!(last.kind, InterventionKind::PlayerWithdrawn);
    assert_eq!(last.player, Some(rival));
    assert_eq!(last.by, Actor::Account(REFEREE));
    assert!(
        !listed
            .iter()
            .any(|i| i.kind == InterventionKind::PlayerWithdrawn && i.player == Some(ORGANIZER)),
        "withdrawing oneself is no intervention"
    );
}

/// "Officials belong to a tournament. Global roles only allow creating tournaments or
/// being named; powers over a tournament come from being named its organizer or
/// referee, and end when the account loses the role or is removed."
#[test]
fn an_official_who_loses_the_role_loses_the_powers_at_once() {
    let mut h = Harness::started(8, ConfigRequest::default());
    h.draw(1);
    let seated = h.tables(1, 1)[0].clone();
    let own = table(1, 1, 1);
    let lapsed = Context::account(REFEREE, h.now).holding(Roles::NONE);
    let void = Command::VoidGame {
        table: own,
        reason: "misdeal".into(),
    };
    let refused = h.t.execute(&lapsed, &void).unwrap_err();
    assert_eq!(refused, TournamentError::Forbidden(Role::Official));
    let disqualify = Command::Disqualify {
        player: seated[0],
        reason: "rude".into(),
    };
    assert!(h.t.execute(&lapsed, &disqualify).is_err());
    // An organizer's naming lapses with the organizer role; a referee's role does not
    // keep it, and an admin holds both.
    let organizer_as_referee = Context::account(ORGANIZER, h.now).holding(Roles {
        referee: true,
        ..Roles::NONE
    });
    assert_eq!(
        h.t.execute(&organizer_as_referee, &Command::DrawRound { seed: seed(2) })
            .unwrap_err()
            .code(),
        "forbidden"
    );
    let admin = Roles {
        admin: true,
        ..Roles::NONE
    };
    h.t.execute(
        &Context::account(REFEREE, h.now).holding(admin),
        &record(own, &seated, |p| p),
    )
    .expect("an admin named referee referees");
    // A role without a naming is nothing: a stranger with every role has no power here.
    let stranger = Context::account(STRANGER, h.now).holding(Roles::NAMED);
    assert_eq!(
        h.t.execute(&stranger, &disqualify).unwrap_err(),
        TournamentError::Forbidden(Role::Official)
    );
    // And the one who removed a referee removed its powers.
    h.org(Command::RemoveReferee { referee: REFEREE });
    assert_eq!(h.refuse(REFEREE, disqualify), "forbidden");
}

/// "Redraws are public and bounded. Every redraw is an intervention (who, why, the
/// seating it replaced), shown in /interventions; at most a configurable number per
/// round (default 1), and none once any table of the round has a result or has started."
#[test]
fn redraws_are_listed_with_the_seating_they_replaced_and_bounded() {
    let mut h = Harness::started(8, ConfigRequest::default());
    let first = h.draw(1);
    let redraw = |tag: u8| Command::RedrawRound {
        round: RoundRef { stage: 1, round: 1 },
        seed: seed(tag),
        reason: "a player arrived late".into(),
    };
    // The server holds draw seeds; here the next commitment is the test's to make.
    h.org(Command::CommitDrawSeed {
        commitment: seed(2).commitment(),
    });
    // A referee who does not play may redraw, not only the organizer.
    let events = h.by(REFEREE, redraw(2));
    let Some(Event::RoundRedrawn(redrawn)) = events.last() else {
        panic!("{events:?}")
    };
    assert_eq!(redrawn.by, Some(Actor::Account(REFEREE)));
    assert_eq!(
        redrawn.replaced,
        Some(ReplacedSeating {
            tables: first.tables.clone(),
            byes: first.byes.clone(),
        })
    );
    let listed = h.t.interventions();
    let entry = listed.last().expect("the redraw is listed");
    assert_eq!(entry.kind, InterventionKind::RoundRedrawn);
    assert_eq!(entry.round, Some(RoundRef { stage: 1, round: 1 }));
    assert_eq!(entry.by, Actor::Account(REFEREE));
    assert_eq!(entry.reason.as_deref(), Some("a player arrived late"));
    assert_eq!(
        entry.replaced.as_ref().map(|r| &r.tables),
        Some(&first.tables)
    );
    // One redraw per round by default: the second is refused, whoever asks.
    h.org(Command::CommitDrawSeed {
        commitment: seed(3).commitment(),
    });
    assert_eq!(h.refuse(ORGANIZER, redraw(3)), "redraw_limit_reached");
    // The audit holds a redraw to the seating it says it replaced.
    audit::audit(h.t.events()).expect("the stream audits");
    let mut forged = h.t.events().to_vec();
    for event in &mut forged {
        if let Event::RoundRedrawn(redrawn) = event
            && let Some(replaced) = redrawn.replaced.as_mut()
        {
            replaced.tables.swap(0, 1);
        }
    }
    let failure = audit::audit(&forged).expect_err("a forged replaced seating");
    assert_eq!(failure.mismatch.code(), "replaced_mismatch");
}

/// Issue #9: a person who enters the result of a table that has an online game (which
/// reports its own) must say why, and every result entered, corrected or voided by a
/// person is listed for review with who, why and the stream version.
#[test]
fn results_entered_by_hand_at_online_tables_need_a_reason_and_are_listed() {
    let mut h = Harness::started(8, ConfigRequest::default());
    h.draw(1);
    let (online, paper) = (table(1, 1, 1), table(1, 1, 2));
    let tables = h.tables(1, 1);
    let rank = |p: AccountId| p;
    h.by(
        REFEREE,
        Command::StartTableGame {
            table: online,
            game: Some("table-7".into()),
        },
    );
    assert_eq!(
        h.refuse(REFEREE, record(online, &tables[0], rank)),
        "reason_required"
    );
    let with_reason = Command::RecordResult {
        table: online,
        input: sheet(&tables[0], rank),
        reason: Some("the server lost the table's connection".into()),
    };
    h.by(REFEREE, with_reason);
    h.by(REFEREE, record(paper, &tables[1], rank));
    h.by(
        REFEREE,
        correction(paper, &tables[1], |p| -(p), "sheet misread"),
    );
    let listed = h.t.interventions();
    let kinds: Vec<(InterventionKind, TableRef, bool, Option<&str>)> = listed
        .iter()
        .map(|i| (i.kind, i.table.unwrap(), i.online, i.reason.as_deref()))
        .collect();
    assert_eq!(
        kinds,
        vec![
            (
                InterventionKind::ResultEntered,
                online,
                true,
                Some("the server lost the table's connection")
            ),
            (InterventionKind::ResultEntered, paper, false, None),
            (
                InterventionKind::ResultCorrected,
                paper,
                false,
                Some("sheet misread")
            ),
        ]
    );
    assert!(listed.iter().all(|i| i.by == Actor::Account(REFEREE)));
    let last = listed.last().unwrap();
    assert_eq!(last.version, h.t.version(), "the version of its event");
}
