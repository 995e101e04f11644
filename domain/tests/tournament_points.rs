//! Table points and tie-breaks (TOURNAMENT.md "Table points"): exact arithmetic, shared
//! places for ties, and a standings order that follows the configured tie-breaks.

use yaniv_domain::rules::RuleSpec;
use yaniv_domain::shuffle::Seed;
use yaniv_domain::tournament::*;

fn line(player: AccountId, total: u32, place: u8) -> PlayerResult {
    PlayerResult {
        player,
        total,
        place,
    }
}

/// A tournament of `players` (accounts 1..=n) with one qualification round drawn; the
/// organizer is account 1000.
fn one_round(players: AccountId, config: ConfigRequest) -> Tournament {
    let mut t = Tournament::new();
    let ctx = Context::account(1000, 0);
    let mut run = |c: Command| {
        t.execute(&ctx, &c)
            .unwrap_or_else(|e| panic!("{c:?}: {e:?}"));
    };
    run(Command::Create {
        name: "points".into(),
        rules: RuleSpec {
            preset: "belgian".into(),
            overrides: Default::default(),
        },
        capacity: 100,
        registration_window: RegistrationWindow::default(),
        config,
    });
    for p in 1..=players {
        run(Command::Register { player: p });
        run(Command::CheckIn { player: p });
    }
    run(Command::StartQualification { seeding: None });
    run(Command::DrawRound {
        seed: Seed([9; 32]),
    });
    t
}

fn record(t: &mut Tournament, table: u32, standings: Vec<PlayerResult>) {
    let ctx = Context::server(0);
    let at = TableRef {
        stage: 1,
        round: 1,
        table,
    };
    t.execute(
        &ctx,
        &Command::RecordResult {
            reason: None,
            table: at,
            input: ResultInput::Game {
                game: None,
                standings,
            },
        },
    )
    .unwrap_or_else(|e| panic!("{e:?}"));
}

mod tournament_points {
    use super::*;

    #[test]
    fn a_table_of_five_with_a_tie_for_second() {
        let mut t = one_round(5, ConfigRequest::default());
        // Players 2 and 3 share second place: they share (75 + 50) / 2 = 62.5 points.
        record(
            &mut t,
            1,
            vec![
                line(1, 40, 1),
                line(2, 90, 2),
                line(3, 90, 2),
                line(4, 120, 4),
                line(5, 160, 5),
            ],
        );
        let rows = t.standings();
        let points: Vec<(AccountId, String, u32)> = rows
            .iter()
            .map(|r| (r.stats.player, r.stats.table_points.to_string(), r.place))
            .collect();
        assert_eq!(
            points,
            vec![
                (1, "100.00".into(), 1),
                (2, "62.50".into(), 2),
                (3, "62.50".into(), 3),
                (4, "25.00".into(), 4),
                (5, "0.00".into(), 5),
            ]
        );
        assert_eq!(rows[1].stats.table_points, Points(52_500));
        // Score difference: own total minus the mean (500 / 5 = 100).
        assert_eq!(rows[0].stats.score_difference, ScoreDifference(-60 * SCALE));
        assert_eq!(rows[0].stats.wins, 1);
        assert_eq!(place_points(5, 2, 2), Points(52_500));
    }

    #[test]
    fn thirds_are_exact() {
        // A table of 4: 100, 66.67, 33.33, 0 — never rounded before display.
        let mut t = one_round(4, ConfigRequest::default());
        record(
            &mut t,
            1,
            vec![
                line(1, 10, 1),
                line(2, 20, 2),
                line(3, 30, 3),
                line(4, 160, 4),
            ],
        );
        let rows = t.standings();
        assert_eq!(rows[1].stats.table_points, Points(56_000));
        assert_eq!(rows[1].stats.table_points.hundredths(), 6_667);
        assert_eq!(rows[2].stats.table_points.to_string(), "33.33");
        let total: i64 = rows.iter().map(|r| r.stats.table_points.0).sum();
        assert_eq!(total, 200 * SCALE);
    }

    #[test]
    fn the_tie_break_order_is_configurable() {
        // Two tables of 4. Player 1 wins table 1 with the worst difference of the winners;
        // player 5 wins table 2 by a wider margin. Both have 100 points and one win, so by
        // default the score difference decides; with the registration order first, player
        // 1 is ahead.
        let sheet = |t: &mut Tournament| {
            let tables: Vec<Vec<AccountId>> = t
                .state()
                .round(RoundRef { stage: 1, round: 1 })
                .expect("drawn")
                .tables
                .iter()
                .map(|x| x.players.clone())
                .collect();
            for (k, players) in tables.iter().enumerate() {
                let mut sorted = players.clone();
                sorted.sort_unstable();
                let margin = if sorted.contains(&1) { 1 } else { 50 };
                let standings = sorted
                    .iter()
                    .enumerate()
                    .map(|(i, &p)| {
                        line(
                            p,
                            if i == 0 { 100 } else { 100 + margin * i as u32 },
                            i as u8 + 1,
                        )
                    })
                    .collect();
                record(t, k as u32 + 1, standings);
            }
            tables
                .iter()
                .map(|t| *t.iter().min().expect("players"))
                .collect::<Vec<_>>()
        };
        let mut by_default = one_round(8, ConfigRequest::default());
        let winners = sheet(&mut by_default);
        let other = *winners.iter().find(|&&w| w != 1).expect("two tables");
        let top: Vec<AccountId> = by_default
            .standings()
            .iter()
            .take(2)
            .map(|r| r.stats.player)
            .collect();
        assert_eq!(top, vec![other, 1]);

        let mut by_registration = one_round(
            8,
            ConfigRequest {
                tie_breaks: Some(vec![TieBreak::TablePoints, TieBreak::RegistrationOrder]),
                ..ConfigRequest::default()
            },
        );
        sheet(&mut by_registration);
        let top: Vec<AccountId> = by_registration
            .standings()
            .iter()
            .take(2)
            .map(|r| r.stats.player)
            .collect();
        assert_eq!(top, vec![1, other]);

        // Table points alone: complete ties share their place.
        let mut shared = one_round(
            8,
            ConfigRequest {
                tie_breaks: Some(vec![TieBreak::TablePoints]),
                ..ConfigRequest::default()
            },
        );
        sheet(&mut shared);
        let places: Vec<u32> = shared.standings().iter().map(|r| r.place).collect();
        assert_eq!(places, vec![1, 1, 3, 3, 5, 5, 7, 7]);
    }
}
