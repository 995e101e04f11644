//! Paper tables entered round by round are scored by `tournament/paper.rs`, which applies
//! the engine's scoring steps to hand totals (the engine has no public entry point that
//! scores from totals). This differential test holds the two equal: thousands of bot games
//! under all six presets, 2 to 8 players, each turned into the referee's sheet (caller,
//! declarations, hand totals) and scored again; every round must give the points,
//! reductions, bonuses, totals, eliminations and outcome of the engine's `round_ended.v1`,
//! and the game the engine's final standings.
//!
//! `YANIV_PAPER_GAMES` sets the games per (preset, players, bot) combination (default 6).

use yaniv_domain::bots::BotKind;
use yaniv_domain::game::Event as GameEvent;
use yaniv_domain::record::export;
use yaniv_domain::rules::{CallBonus, Preset, RuleSpec, Rules};
use yaniv_domain::sim::{SimOptions, Simulator, game_seed, make_bots};
use yaniv_domain::tournament::{
    PaperEnding, PaperGame, PaperRound, ResultInput, TournamentError, paper_rounds,
    score_paper_game,
};

fn games_per_combination() -> u64 {
    std::env::var("YANIV_PAPER_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(6)
}

fn play(rules: &Rules, players: usize, seed: u64, bot: BotKind) -> Vec<GameEvent> {
    let mut sim = Simulator::new(SimOptions {
        record: true,
        ..SimOptions::default()
    });
    let mut bots = make_bots(bot, players, seed);
    sim.play(rules, players, seed, &mut bots)
        .expect("bots play legal games")
        .log
        .expect("recorded")
}

fn check_game(rules: &Rules, players: usize, events: &[GameEvent], label: &str) {
    let rounds = paper_rounds(events);
    let ended: Vec<_> = events
        .iter()
        .filter_map(|e| match e {
            GameEvent::RoundEnded(r) => Some(r),
            _ => None,
        })
        .collect();
    assert_eq!(rounds.len(), ended.len(), "{label}");
    let mut paper = PaperGame::new(rules, players).expect("a table");
    for (i, (round, engine)) in rounds.iter().zip(&ended).enumerate() {
        let score = paper
            .score(round)
            .unwrap_or_else(|e| panic!("{label} round {i}: the sheet is refused: {e}"));
        assert_eq!(score.outcome, engine.outcome, "{label} round {i}");
        assert_eq!(score.points, engine.points, "{label} round {i}");
        assert_eq!(score.totals, engine.totals, "{label} round {i}");
        assert_eq!(score.reductions, engine.reductions, "{label} round {i}");
        assert_eq!(score.bonuses, engine.bonuses, "{label} round {i}");
        assert_eq!(score.eliminated, engine.eliminated, "{label} round {i}");
    }
    let Some(GameEvent::GameFinished(finished)) = events.last() else {
        panic!("{label}: the game is over")
    };
    assert!(paper.is_finished(), "{label}");
    assert_eq!(paper.standings(), finished.standings, "{label}");
}

mod tournament_paper {
    use super::*;

    #[test]
    fn paper_scoring_equals_the_engine_for_every_preset() {
        let per = games_per_combination();
        let mut rounds = 0;
        for preset in Preset::ALL {
            let rules = preset.rules();
            for players in 2..=8usize {
                for bot in BotKind::ALL {
                    for g in 0..per {
                        let seed = game_seed(0x7A9E_4000 + players as u64, g);
                        let events = play(&rules, players, seed, bot);
                        rounds += events
                            .iter()
                            .filter(|e| matches!(e, GameEvent::RoundEnded(_)))
                            .count();
                        let label =
                            format!("{} {players}p {} seed {seed}", preset.name(), bot.name());
                        check_game(&rules, players, &events, &label);
                    }
                }
            }
        }
        assert!(rounds > 1000, "only {rounds} rounds compared");
    }

    #[test]
    fn the_successful_call_bonus_is_scored_like_the_engine() {
        // The pagat variation is in no preset: switch it on.
        let mut rules = Preset::Israeli.rules();
        rules.successful_call_bonus = Some(CallBonus {
            calls: 3,
            minus: 20,
        });
        let mut bonuses = 0;
        for g in 0..40 {
            let events = play(&rules, 4, game_seed(99, g), BotKind::Greedy);
            bonuses += events
                .iter()
                .filter(|e| matches!(e, GameEvent::RoundEnded(r) if !r.bonuses.is_empty()))
                .count();
            check_game(&rules, 4, &events, &format!("bonus game {g}"));
        }
        assert!(
            bonuses > 0,
            "no bonus was ever given: the test proves nothing"
        );
    }

    #[test]
    fn a_sheet_that_breaks_the_rules_is_refused_with_its_round() {
        let rules = Preset::Belgian.rules();
        let round = |caller, declared: Vec<u8>, hands: [u32; 3]| PaperRound {
            ending: PaperEnding::Call { caller, declared },
            hand_totals: hands.iter().map(|&h| Some(h)).collect(),
        };
        let good = round(0, vec![1], [4, 3, 20]);
        let input = vec![good.clone(), round(0, vec![0], [4, 3, 20])];
        let err = score_paper_game(&rules, 3, &input).map(|_| ()).unwrap_err();
        assert_eq!(err.0, 1);
        // An emptied hand totals 0.
        let empty = PaperRound {
            ending: PaperEnding::EmptyHand { seat: 2 },
            hand_totals: vec![Some(4), Some(3), Some(5)],
        };
        assert!(score_paper_game(&rules, 3, &[empty]).is_err());
        // Through a tournament result, the error names the round.
        let input = ResultInput::PaperRounds {
            seats: vec![1, 2, 3],
            rounds: vec![good, round(1, vec![], [4, 3, 99])],
        };
        let err = input.resolve(&rules).unwrap_err();
        assert_eq!(err.code(), "bad_paper_round");
        assert!(
            matches!(err, TournamentError::BadPaperRound { round: 1, .. }),
            "{err:?}"
        );
    }

    #[test]
    fn a_game_record_is_replayed_and_its_rules_must_be_the_tournaments() {
        let rules = Preset::Belgian.rules();
        let events = play(&rules, 4, 77, BotKind::Greedy);
        let record = export(&events).expect("exports");
        let seats = vec![10, 11, 12, 13];
        let input = ResultInput::Record {
            seats: seats.clone(),
            record: record.clone(),
        };
        let result = input.resolve(&rules).expect("a finished game");
        let Some(GameEvent::GameFinished(finished)) = events.last() else {
            panic!("finished")
        };
        for (line, standing) in result.iter().zip(&finished.standings) {
            assert_eq!(line.player, seats[standing.seat as usize]);
            assert_eq!((line.total, line.place), (standing.total, standing.place));
        }
        assert_eq!(
            input
                .resolve(&Preset::Israeli.rules())
                .map_err(|e| e.code()),
            Err("rules_mismatch")
        );
        let mut unfinished = record;
        unfinished.rounds.pop();
        let input = ResultInput::Record {
            seats,
            record: unfinished,
        };
        assert_eq!(
            input.resolve(&rules).map_err(|e| e.code()),
            Err("game_not_finished")
        );
        // The record names the rules it was played with.
        let _: &RuleSpec = &export(&events).expect("exports").rules;
    }
}
