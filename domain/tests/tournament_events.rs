//! The tournament's stored events: every type is produced by some command, serializes
//! under its versioned `type` tag and reads back unchanged; a few shapes are pinned.

mod common;

use std::collections::BTreeSet;

use serde_json::{Value, json};
use yaniv_domain::bots::BotKind;
use yaniv_domain::rules::RuleSpec;
use yaniv_domain::shuffle::Seed;
use yaniv_domain::tournament::sim::{TournamentSim, simulate};
use yaniv_domain::tournament::*;

/// The referee decisions and the rarer organizer commands, on a small field.
fn decisions() -> Vec<Event> {
    let mut t = Tournament::new();
    let org = Context::account(1, 0);
    let run = |t: &mut Tournament, ctx: &Context, c: Command| {
        t.execute(ctx, &c)
            .unwrap_or_else(|e| panic!("{c:?}: {e:?}"));
    };
    run(
        &mut t,
        &org,
        Command::Create {
            name: "decisions".into(),
            rules: RuleSpec {
                preset: "israeli".into(),
                overrides: Default::default(),
            },
            capacity: 20,
            registration_window: RegistrationWindow::default(),
            config: ConfigRequest::default(),
        },
    );
    run(
        &mut t,
        &org,
        Command::ConfigureStages {
            config: ConfigRequest {
                qualification_rounds: Some(2),
                ..Default::default()
            },
        },
    );
    run(&mut t, &org, Command::AddReferee { referee: 2 });
    run(&mut t, &org, Command::AddReferee { referee: 3 });
    run(&mut t, &org, Command::RemoveReferee { referee: 3 });
    for p in 101..=109 {
        run(&mut t, &org, Command::Register { player: p });
        run(&mut t, &org, Command::CheckIn { player: p });
    }
    // A check-in taken back, then made again.
    run(&mut t, &org, Command::UndoCheckIn { player: 108 });
    run(&mut t, &org, Command::CheckIn { player: 108 });
    run(&mut t, &org, Command::Withdraw { player: 109 });
    run(&mut t, &org, Command::SetRoundClock { minutes: Some(30) });
    run(
        &mut t,
        &org,
        Command::Announce {
            text: "Round 1 starts at 10:00".into(),
        },
    );
    run(&mut t, &org, Command::StartQualification { seeding: None });
    run(
        &mut t,
        &org,
        Command::DrawRound {
            seed: Seed([1; 32]),
        },
    );
    run(
        &mut t,
        &org,
        Command::RedrawRound {
            round: RoundRef { stage: 1, round: 1 },
            seed: Seed([2; 32]),
            reason: "a table was missing a deck".into(),
        },
    );
    let referee = Context::account(2, 0);
    let at = TableRef {
        stage: 1,
        round: 1,
        table: 1,
    };
    let players = t.state().table(at).expect("a table").players.clone();
    let sheet = |order: &[AccountId]| ResultInput::Game {
        game: Some("g-1".into()),
        standings: common::finishing(order, 0, 10),
    };
    run(
        &mut t,
        &referee,
        Command::StartTableGame {
            table: at,
            game: Some("g-1".into()),
        },
    );
    run(
        &mut t,
        &referee,
        Command::RecordResult {
            reason: Some("the game was played on paper after all".into()),
            table: at,
            input: sheet(&players),
        },
    );
    let mut reversed = players.clone();
    reversed.reverse();
    run(
        &mut t,
        &referee,
        Command::CorrectResult {
            table: at,
            input: sheet(&reversed),
            reason: "upside down".into(),
        },
    );
    run(
        &mut t,
        &Context::account(players[0], 0),
        Command::OpenDispute {
            table: at,
            reason: "my total".into(),
        },
    );
    run(
        &mut t,
        &referee,
        Command::ResolveDispute {
            dispute: 1,
            resolution: "checked: right".into(),
        },
    );
    run(
        &mut t,
        &referee,
        Command::VoidGame {
            table: at,
            reason: "misdeal".into(),
        },
    );
    run(
        &mut t,
        &referee,
        Command::RecordNoShow {
            table: at,
            player: players[1],
            reason: "did not come back for the replay".into(),
        },
    );
    run(&mut t, &org, Command::EnterLate { player: 110 });
    run(
        &mut t,
        &referee,
        Command::Disqualify {
            player: 101,
            reason: "cheating".into(),
        },
    );
    t.events().to_vec()
}

mod tournament_events {
    use super::*;

    #[test]
    fn every_event_type_round_trips_under_its_tag() {
        let sim = simulate(&TournamentSim {
            rules: RuleSpec {
                preset: "belgian".into(),
                overrides: Default::default(),
            },
            config: ConfigRequest::default(),
            players: 12,
            bot: BotKind::Greedy,
            seed: 3,
        })
        .expect("runs");
        let mut all = sim.tournament.events().to_vec();
        all.extend(decisions());
        let mut seen = BTreeSet::new();
        for event in &all {
            let value = serde_json::to_value(event).expect("serializes");
            assert_eq!(value["type"], Value::String(event.type_name().into()));
            let back: Event = serde_json::from_value(value.clone()).expect("deserializes");
            assert_eq!(&back, event);
            seen.insert(event.type_name());
        }
        let missing: Vec<&str> = Event::TYPES
            .iter()
            .copied()
            .filter(|t| !seen.contains(t))
            .collect();
        assert!(missing.is_empty(), "never produced: {missing:?}");
        // Replaying the stored JSON gives the same tournament.
        let decoded: Vec<Event> = sim
            .tournament
            .events()
            .iter()
            .map(|e| serde_json::from_str(&serde_json::to_string(e).expect("json")).expect("event"))
            .collect();
        assert_eq!(
            Tournament::from_events(&decoded).ranking(),
            sim.tournament.ranking()
        );
    }

    #[test]
    fn shapes_are_pinned() {
        let e = Event::PlayerRegistered(PlayerRegistered {
            player: 101,
            by: Actor::Account(101),
            order: 1,
        });
        assert_eq!(
            serde_json::to_value(&e).expect("json"),
            json!({"type": "player_registered.v1", "player": 101, "by": {"account": 101}, "order": 1})
        );
        let e = Event::TableGameStarted(TableGameStarted {
            table: TableRef {
                stage: 1,
                round: 2,
                table: 3,
            },
            game: None,
            by: Actor::Server,
        });
        assert_eq!(
            serde_json::to_value(&e).expect("json"),
            json!({"type": "table_game_started.v1", "table": {"stage": 1, "round": 2, "table": 3}, "game": null, "by": "server"})
        );
        let seed = Seed([0; 32]);
        let e = Event::RoundDrawn(RoundDrawn {
            stage: 2,
            round: 1,
            algorithm: "tournament-draw/1".into(),
            commitment: seed.commitment(),
            seed,
            precommitted: true,
            seeds: vec![7, 8, 9],
            tables: vec![vec![9, 7, 8]],
            byes: vec![],
            final_table: true,
            reason: None,
            by: None,
            replaced: None,
        });
        assert_eq!(
            serde_json::to_value(&e).expect("json"),
            json!({
                "type": "round_drawn.v1", "stage": 2, "round": 1, "algorithm": "tournament-draw/1",
                "commitment": "66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925",
                "seed": "0".repeat(64), "precommitted": true, "seeds": [7, 8, 9],
                "tables": [[9, 7, 8]], "byes": [], "final_table": true
            })
        );
        // A redraw says who made it and which seating it replaced.
        let Event::RoundDrawn(drawn) = e else {
            unreachable!()
        };
        let e = Event::RoundRedrawn(RoundDrawn {
            reason: Some("a late arrival".into()),
            by: Some(Actor::Account(3)),
            replaced: Some(ReplacedSeating {
                tables: vec![vec![7, 8, 9]],
                byes: vec![],
            }),
            ..drawn
        });
        assert_eq!(
            serde_json::to_value(&e).expect("json"),
            json!({
                "type": "round_redrawn.v1", "stage": 2, "round": 1, "algorithm": "tournament-draw/1",
                "commitment": "66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925",
                "seed": "0".repeat(64), "precommitted": true, "seeds": [7, 8, 9],
                "tables": [[9, 7, 8]], "byes": [], "final_table": true,
                "reason": "a late arrival", "by": {"account": 3},
                "replaced": {"tables": [[7, 8, 9]], "byes": []}
            })
        );
        let paper: ResultInput = serde_json::from_value(json!({
            "source": "paper_rounds",
            "seats": [1, 2, 3],
            "rounds": [{"ending": {"kind": "call", "caller": 0}, "hand_totals": [3, 20, null]}]
        }))
        .expect("a paper sheet");
        assert!(matches!(paper, ResultInput::PaperRounds { .. }));
        assert!(serde_json::from_value::<Event>(json!({"type": "player_registered.v1", "player": 1, "by": "server", "order": 1, "x": 1})).is_err());
    }

    #[test]
    fn commands_read_from_json() {
        let c: Command =
            serde_json::from_value(json!({"command": "draw_round", "seed": "ab".repeat(32)}))
                .expect("a command");
        assert_eq!(
            c,
            Command::DrawRound {
                seed: Seed([0xab; 32])
            }
        );
        let c: Command =
            serde_json::from_value(json!({"command": "advance_stage"})).expect("a command");
        assert_eq!(c, Command::AdvanceStage);
        let c: Command = serde_json::from_value(json!({
            "command": "create", "name": "Open", "rules": {"preset": "belgian"}, "capacity": 64
        }))
        .expect("defaults for the window and the format");
        assert!(matches!(c, Command::Create { capacity: 64, .. }));
        assert!(
            serde_json::from_value::<Command>(
                json!({"command": "withdraw", "player": 1, "now": 1})
            )
            .is_err()
        );
    }
}
