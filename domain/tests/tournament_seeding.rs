//! Seeding by rating (`seeding: rating`, docs/ratings.md "Seeding by rating") and by a
//! season (`seeding: season`, docs/seasons.md section 4): the qualification starts from
//! the order the server records, round 1 is dealt by snake order over it, and it is the
//! entry order that ends every tie where the registration order would.

use yaniv_domain::rules::RuleSpec;
use yaniv_domain::shuffle::Seed;
use yaniv_domain::tournament::*;

const ORGANIZER: AccountId = 1000;
/// The season a season-seeded tournament here names.
const SEASON: i64 = 4;

/// Twelve players (accounts 1..=12) registered and checked in, at tables of 4.
fn checked_in(seeding: Seeding) -> Tournament {
    let mut t = Tournament::new();
    let ctx = Context::account(ORGANIZER, 0);
    let config = ConfigRequest {
        table_min: Some(4),
        table_max: Some(4),
        seeding: Some(seeding),
        season: (seeding == Seeding::Season).then_some(SEASON),
        ..ConfigRequest::default()
    };
    let mut run = |c: Command| {
        t.execute(&ctx, &c)
            .unwrap_or_else(|e| panic!("{c:?}: {e:?}"));
    };
    run(Command::Create {
        name: "seeded".into(),
        rules: RuleSpec {
            preset: "belgian".into(),
            overrides: Default::default(),
        },
        capacity: 100,
        registration_window: RegistrationWindow::default(),
        config,
    });
    for p in 1..=12 {
        run(Command::Register { player: p });
        run(Command::CheckIn { player: p });
    }
    t
}

fn by_rating(order: Vec<AccountId>) -> Command {
    Command::StartQualification {
        seeding: Some(RecordedSeeding {
            procedure: "yaniv-ratings/1".into(),
            as_of_micros: 1_700_000_000_000_000,
            season: None,
            order,
        }),
    }
}

fn by_season(season: i64, order: Vec<AccountId>) -> Command {
    Command::StartQualification {
        seeding: Some(RecordedSeeding {
            procedure: SEASON_PROCEDURE.into(),
            as_of_micros: 1_700_000_000_000_000,
            season: Some(SeasonBasis {
                season,
                points: vec![10, 6, 4],
                best: Some(2),
                tournaments: vec![11, 12],
            }),
            order,
        }),
    }
}

fn start(t: &mut Tournament, command: &Command) -> Result<Vec<Event>, TournamentError> {
    t.execute(&Context::account(ORGANIZER, 0), command)
}

/// The strongest first: 12, 11, ..., 1 (the reverse of registration).
fn strongest_last_registered() -> Vec<AccountId> {
    (1..=12).rev().collect()
}

mod tournament_seeding {
    use super::*;

    #[test]
    fn a_tournament_seeded_by_rating_starts_only_from_a_full_rating_order() {
        let mut t = checked_in(Seeding::Rating);
        let code = |r: Result<Vec<Event>, TournamentError>| r.map_err(|e| e.code()).err();
        assert_eq!(
            code(start(
                &mut t,
                &Command::StartQualification { seeding: None }
            )),
            Some("bad_seeding")
        );
        let mut short = strongest_last_registered();
        short.pop();
        assert_eq!(code(start(&mut t, &by_rating(short))), Some("bad_seeding"));
        let mut twice = strongest_last_registered();
        twice[0] = 11;
        assert_eq!(code(start(&mut t, &by_rating(twice))), Some("bad_seeding"));
        let mut stranger = strongest_last_registered();
        stranger[0] = 99;
        assert_eq!(
            code(start(&mut t, &by_rating(stranger))),
            Some("bad_seeding")
        );
        let events = start(&mut t, &by_rating(strongest_last_registered())).expect("starts");
        let Event::StageStarted(started) = &events[0] else {
            panic!("{events:?}");
        };
        assert_eq!(
            started.seeding.as_ref().map(|s| s.order.clone()),
            Some(strongest_last_registered())
        );
    }

    #[test]
    fn a_random_draw_takes_no_seeding() {
        let mut t = checked_in(Seeding::Random);
        let refused = start(&mut t, &by_rating(strongest_last_registered()));
        assert_eq!(refused.map_err(|e| e.code()).err(), Some("bad_seeding"));
        let events = start(&mut t, &Command::StartQualification { seeding: None }).expect("ok");
        // Nothing new in the payload of a random tournament: older streams hash the same.
        let json = serde_json::to_string(&events[0]).expect("JSON");
        assert!(!json.contains("seeding"), "{json}");
    }

    #[test]
    fn round_one_snakes_the_rating_order_over_the_tables_and_lists_it() {
        let mut t = checked_in(Seeding::Rating);
        start(&mut t, &by_rating(strongest_last_registered())).expect("starts");
        let ctx = Context::account(ORGANIZER, 0);
        let events = t
            .execute(
                &ctx,
                &Command::DrawRound {
                    seed: Seed([5; 32]),
                },
            )
            .expect("drawn");
        let Event::RoundDrawn(drawn) = &events[0] else {
            panic!("{events:?}");
        };
        assert_eq!(drawn.seeds, strongest_last_registered());
        let mut tables = drawn.tables.clone();
        for table in &mut tables {
            table.sort_unstable();
        }
        // Seeds 1-3 to tables 1-3, 4-6 back from 3 to 1, and so on: 12, 7, 6, 1 at
        // table 1.
        assert_eq!(
            tables,
            vec![vec![1, 6, 7, 12], vec![2, 5, 8, 11], vec![3, 4, 9, 10]]
        );
    }

    #[test]
    fn the_rating_order_is_the_entry_order_that_ends_every_tie() {
        let mut t = checked_in(Seeding::Rating);
        start(&mut t, &by_rating(strongest_last_registered())).expect("starts");
        // Before any result everyone is level: the standings follow the entry order.
        let standings = t.standings();
        let order: Vec<AccountId> = standings.iter().map(|r| r.stats.player).collect();
        assert_eq!(order, strongest_last_registered());
        assert_eq!(standings[0].stats.registration, 1);
        let random = {
            let mut t = checked_in(Seeding::Random);
            start(&mut t, &Command::StartQualification { seeding: None }).expect("ok");
            t.standings()
                .iter()
                .map(|r| r.stats.player)
                .collect::<Vec<_>>()
        };
        assert_eq!(random, (1..=12).collect::<Vec<_>>());
    }

    /// seasons.md 4: the final records `yaniv-season/1` with the season it names; a
    /// seeding by rating, another season or no seeding at all is refused, and round 1
    /// snakes the recorded order as it does for a rating.
    #[test]
    fn a_season_final_starts_only_from_its_own_seasons_order() {
        let mut t = checked_in(Seeding::Season);
        let code = |r: Result<Vec<Event>, TournamentError>| r.map_err(|e| e.code()).err();
        let order = strongest_last_registered();
        for refused in [
            Command::StartQualification { seeding: None },
            by_rating(order.clone()),
            by_season(SEASON + 1, order.clone()),
            by_season(SEASON, order[1..].to_vec()),
        ] {
            assert_eq!(
                code(start(&mut t, &refused)),
                Some("bad_seeding"),
                "{refused:?}"
            );
        }
        let mut rated = checked_in(Seeding::Rating);
        assert_eq!(
            code(start(&mut rated, &by_season(SEASON, order.clone()))),
            Some("bad_seeding")
        );
        start(&mut t, &by_season(SEASON, order.clone())).expect("starts");
        let events = t
            .execute(
                &Context::account(ORGANIZER, 0),
                &Command::DrawRound {
                    seed: Seed([9; 32]),
                },
            )
            .expect("drawn");
        let Event::RoundDrawn(drawn) = &events[0] else {
            panic!("{events:?}");
        };
        assert_eq!(drawn.seeds, order);
        let mut first = drawn.tables[0].clone();
        first.sort_unstable();
        assert_eq!(first, vec![1, 6, 7, 12]);
    }
}
