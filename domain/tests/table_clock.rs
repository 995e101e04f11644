//! Clocks at a table, given / when / then: timeouts, the stand-in's move, absent seats
//! and the held out-of-turn window. The server measures time; these tests hand the
//! table the waited milliseconds as the server would.

mod table_support;

use table_support::{actor, create, refold, spec, types, when};
use yaniv_domain::aggregate::Refusal;
use yaniv_domain::bots::{Bot, BotView, StandIn};
use yaniv_domain::game::{
    Command as GameCommand, DrawChoice, Event as GameEvent, RoundStage, Seat,
};
use yaniv_domain::rules::RuleSpec;
use yaniv_domain::table::clock::{Clock, ClockEvent, Waiting, WindowCloseReason};
use yaniv_domain::table::{
    Action, Actor, BotKindName, NewTable, StreamEvent, Table, TableCommand, TableError,
};

/// The account that sits at `seat` (humans join in seat order).
fn player(seat: Seat) -> Actor {
    actor(10 + i64::from(seat))
}

const SYSTEM: i64 = 0;

fn clock(window_ms: u32) -> Clock {
    Clock {
        turn_ms: 1_000,
        decision_ms: 500,
        window_ms,
        absent_after: 2,
    }
}

/// A started table of `preset` with a clock: humans at every seat but `bots`, dealt
/// from `seed`. Returns the table and its whole stream.
fn given_started(
    preset: &str,
    seats: u8,
    bots: &[(Seat, BotKindName)],
    clock: Clock,
    seed: u64,
) -> (Table, Vec<StreamEvent>) {
    given_started_with(preset, Default::default(), seats, bots, clock, seed)
}

fn given_started_with(
    preset: &str,
    overrides: yaniv_domain::rules::Overrides,
    seats: u8,
    bots: &[(Seat, BotKindName)],
    clock: Clock,
    seed: u64,
) -> (Table, Vec<StreamEvent>) {
    let creator = actor(1);
    let new = NewTable {
        rules: RuleSpec {
            preset: preset.into(),
            overrides,
        },
        seats,
        bots: bots.to_vec(),
        clock: Some(clock),
        player_entropy: false,
        rated: false,
    };
    let (mut table, mut log) = create(new, seed).expect("a valid table");
    for seat in 0..seats {
        if bots.iter().any(|&(bot, _)| bot == seat) {
            continue;
        }
        log.extend(
            when(
                &mut table,
                &player(seat),
                seed,
                TableCommand::Join { seat: Some(seat) },
            )
            .expect("joins"),
        );
    }
    log.extend(when(&mut table, &creator, seed, TableCommand::Start).expect("starts"));
    (table, log)
}

fn time_out(table: &mut Table, waited_ms: u64) -> Result<Vec<StreamEvent>, TableError> {
    when(
        table,
        &actor(SYSTEM),
        99,
        TableCommand::TimeOut { waited_ms },
    )
}

fn to_act(table: &Table) -> Seat {
    table.game.to_act().expect("someone must act")
}

/// What the stand-in plays for `seat` now.
fn stand_in_move(table: &Table, seat: Seat) -> GameCommand {
    StandIn
        .act(&BotView::new(&table.game, seat))
        .expect("a move")
}

/// `seat` throws its first legal single card and draws from the stock.
fn play_something(table: &mut Table, seat: Seat) -> Result<Vec<StreamEvent>, TableError> {
    let card = table.game.hand(seat).first().expect("a card");
    let throw = yaniv_domain::cards::Cards::from_slice(&[card]).expect("one card");
    when(
        table,
        &player(seat),
        5,
        TableCommand::Act(Action::Play {
            throw,
            draw: DrawChoice::Stock,
            queen: None,
        }),
    )
}

/// `seat` throws its longest legal combination and draws from the stock.
fn play_longest(table: &mut Table, seat: Seat) {
    let throw = table
        .game
        .legal_actions(seat)
        .throws
        .into_iter()
        .max_by_key(|t| t.len())
        .expect("a throw");
    when(
        table,
        &player(seat),
        5,
        TableCommand::Act(Action::Play {
            throw,
            draw: DrawChoice::Stock,
            queen: None,
        }),
    )
    .expect("the throw is legal");
}

/// Clocks: "time per turn ... a timeout is a command the domain decides
/// (`turn_timed_out` with the move the policy chose)".
#[test]
fn a_turn_that_runs_out_is_played_by_the_stand_in_after_a_turn_timed_out_event() {
    let (mut table, mut log) = given_started("israeli", 3, &[], clock(0), 1);
    let seat = to_act(&table);
    let due = table.clock.due(&table.game).expect("a clock runs");
    assert_eq!((due.waiting, due.limit_ms), (Waiting::Turn(seat), 1_000));

    let early = time_out(&mut table, 999).expect_err("not yet due");
    assert_eq!(early, TableError::NotYetDue { remaining_ms: 1 });
    assert_eq!(early.code(), "not_yet_due");

    let expected = stand_in_move(&table, seat);
    let events = time_out(&mut table, 1_000).expect("due");
    assert_eq!(types(&events)[..2], ["turn_timed_out.v1", "turn_played.v1"]);
    let StreamEvent::Clock(ClockEvent::TurnTimedOut(timed_out)) = &events[0] else {
        unreachable!()
    };
    assert_eq!(
        (timed_out.seat, timed_out.waited_ms, timed_out.absent),
        (seat, 1_000, false)
    );
    let (GameCommand::Play { throw, .. }, StreamEvent::Game(GameEvent::TurnPlayed(played))) =
        (expected, &events[1])
    else {
        panic!("the stand-in throws");
    };
    assert_eq!(played.thrown, throw);
    assert_eq!(table.clock.timeouts(seat), 1);
    log.extend(events);

    // The stream folds to the same table: the clock's state is in its events.
    let folded = refold(&log);
    assert_eq!(folded.version, table.version);
    assert_eq!(folded.clock.timeouts(seat), 1);
    assert_eq!(folded.clock.due(&folded.game), table.clock.due(&table.game));
}

/// "after N timeouts in a row the seat is marked absent and played at once until its
/// player acts again".
#[test]
fn a_seat_that_times_out_twice_in_a_row_is_played_at_once_until_its_player_returns() {
    let (mut table, mut log) = given_started("israeli", 3, &[], clock(0), 2);
    let absent = to_act(&table);
    // Its first timeout, the others play, its second timeout.
    log.extend(time_out(&mut table, 1_000).expect("first timeout"));
    while to_act(&table) != absent {
        let seat = to_act(&table);
        log.extend(play_something(&mut table, seat).expect("plays"));
    }
    log.extend(time_out(&mut table, 1_000).expect("second timeout"));
    assert!(table.clock.is_absent(absent));

    // From now on its turns are played inside the previous player's move.
    let before = to_act(&table);
    let mut seat = before;
    let mut auto = Vec::new();
    for _ in 0..4 {
        let events = play_something(&mut table, seat).expect("plays");
        auto.extend(events.iter().filter_map(|e| match e {
            StreamEvent::Clock(ClockEvent::TurnTimedOut(t)) => Some(*t),
            _ => None,
        }));
        log.extend(events);
        seat = to_act(&table);
        assert_ne!(seat, absent, "an absent seat is never waited on");
    }
    assert!(!auto.is_empty());
    assert!(
        auto.iter()
            .all(|t| t.seat == absent && t.absent && t.waited_ms == 0)
    );

    // Its player comes back: the table waits on it again.
    assert_eq!(
        when(
            &mut table,
            &player(seat),
            3,
            TableCommand::Act(Action::Return)
        )
        .unwrap_err(),
        TableError::NotAbsent
    );
    let back = when(
        &mut table,
        &player(absent),
        3,
        TableCommand::Act(Action::Return),
    )
    .expect("returns");
    assert_eq!(types(&back), ["seat_returned.v1"]);
    assert!(!table.clock.is_absent(absent));
    log.extend(back);
    let folded = refold(&log);
    assert!(!folded.clock.is_absent(absent));
    assert_eq!(folded.version, table.version);
}

/// Clocks: "time for a Belgian going-along decision".
#[test]
fn a_declaration_has_its_own_time_and_the_stand_in_does_not_go_along() {
    // A threshold no hand reaches, so that the call opens the last turns.
    let mut overrides = yaniv_domain::rules::Overrides::new();
    overrides.insert("call_threshold".into(), 60.into());
    let (mut table, _) = given_started_with("belgian", overrides, 3, &[], clock(0), 4);
    let caller = to_act(&table);
    when(
        &mut table,
        &player(caller),
        1,
        TableCommand::Act(Action::Call(None)),
    )
    .expect("a Belgian call is always accepted");
    // The others' last turns.
    while table.game.round_stage() == RoundStage::LastTurns {
        let seat = to_act(&table);
        play_something(&mut table, seat).expect("a last turn");
    }
    assert_eq!(table.game.round_stage(), RoundStage::GoingAlong);
    let seat = to_act(&table);
    let due = table.clock.due(&table.game).expect("a declaration is due");
    assert_eq!((due.waiting, due.limit_ms), (Waiting::Decision(seat), 500));
    let events = time_out(&mut table, 500).expect("due");
    assert_eq!(types(&events)[..2], ["turn_timed_out.v1", "went_along.v1"]);
    assert!(matches!(
        &events[1],
        StreamEvent::Game(GameEvent::WentAlong(w)) if w.seat == seat && !w.going
    ));
}

/// Real out-of-turn windows: "the window stays open for its configured duration (or
/// until every seat that may act has passed with an explicit `pass`); the next
/// player's turn waits for it".
#[test]
fn the_next_throw_waits_for_the_held_window_until_it_elapses_or_everyone_passes() {
    let (mut table, mut log) = given_started("house", 3, &[], clock(400), 3);
    let thrower = to_act(&table);
    log.extend(play_something(&mut table, thrower).expect("a throw"));
    let next = to_act(&table);
    assert!(table.clock.window_held());
    let due = table.clock.due(&table.game).expect("the window is due");
    assert_eq!((due.waiting, due.limit_ms), (Waiting::Window, 400));

    // The next player waits; an early timeout is refused.
    let refused = play_something(&mut table, next).expect_err("the window is held");
    assert_eq!(refused.code(), "window_open");
    assert_eq!(
        time_out(&mut table, 399).unwrap_err(),
        TableError::NotYetDue { remaining_ms: 1 }
    );

    // Everyone the window waits for passes: it closes, and the next throw goes.
    let waiting = table.clock.window_waiting().to_vec();
    assert!(!waiting.is_empty());
    for (i, &seat) in waiting.iter().enumerate() {
        let events = when(
            &mut table,
            &player(seat),
            1,
            TableCommand::Act(Action::Pass),
        )
        .expect("passes");
        if i + 1 < waiting.len() {
            assert_eq!(types(&events), ["window_passed.v1"]);
        } else {
            assert_eq!(types(&events), ["window_passed.v1", "window_closed.v1"]);
            assert!(matches!(
                events[1],
                StreamEvent::Clock(ClockEvent::WindowClosed(c)) if c.reason == WindowCloseReason::AllPassed
            ));
        }
        log.extend(events);
    }
    assert_eq!(
        when(
            &mut table,
            &player(waiting[0]),
            1,
            TableCommand::Act(Action::Pass)
        )
        .unwrap_err(),
        TableError::NothingToPass
    );
    log.extend(play_something(&mut table, next).expect("the window has closed"));

    // The next window runs out instead.
    assert!(table.clock.window_held());
    let closed = time_out(&mut table, 400).expect("the window's time ran out");
    assert_eq!(types(&closed), ["window_closed.v1"]);
    log.extend(closed);
    assert!(table.clock.window_closed());
    let folded = refold(&log);
    assert!(folded.clock.window_closed());
    assert_eq!(folded.clock.due(&folded.game), table.clock.due(&table.game));
}

/// "bots wait for it too, so humans can add on after a bot".
#[test]
fn bots_do_not_throw_while_a_window_is_held_for_a_human() {
    let bots = [(1, BotKindName::Greedy), (2, BotKindName::Greedy)];
    let (mut table, _) = given_started("house", 3, &bots, clock(400), 6);
    // The human throws when it is its turn; a held window or the human's turn runs out
    // otherwise, until a bot's throw holds a window for the human.
    for _ in 0..20 {
        if table.clock.window_held() && table.game.top_thrower() != Some(0) {
            break;
        }
        if table.game.to_act() == Some(0) && !table.clock.window_held() {
            play_something(&mut table, 0).expect("the human throws");
        } else {
            time_out(&mut table, 1_000).expect("a held window or the human's turn is due");
        }
    }
    assert!(table.clock.window_held(), "a bot's throw holds the window");
    assert_eq!(table.clock.window_waiting(), [0]);
    let version = table.version;
    let top = table.game.top_thrower().expect("a throw");
    assert_ne!(top, 0, "a bot threw last");
    // Nothing moves until the human passes or the window elapses.
    assert_eq!(table.version, version);
    let next = to_act(&table);
    let after = time_out(&mut table, 400).expect("the window elapses");
    assert_eq!(after[0].type_name(), "window_closed.v1");
    let thrown = after.iter().any(|e| e.type_name() == "turn_played.v1");
    if next == 0 {
        assert!(!thrown, "the human's turn comes");
    } else {
        assert!(thrown, "then the next bot throws");
    }
}

/// "The window's length must never depend on hidden cards": the seats it waits for and
/// its time are the same whatever the hands.
#[test]
fn the_window_waits_for_the_same_seats_for_the_same_time_whatever_the_hands() {
    let mut seen = Vec::new();
    for seed in 0..120 {
        let (mut table, _) = given_started("house", 4, &[], clock(700), seed);
        let thrower = to_act(&table);
        play_longest(&mut table, thrower);
        let due = table.clock.due(&table.game).expect("the window is due");
        assert_eq!((due.waiting, due.limit_ms), (Waiting::Window, 700));
        // Every other seat may add on whatever it holds; the thrower waits only if the
        // rules let it slap the card it drew from the stock.
        let mut expected: Vec<Seat> = (0..4).filter(|&s| s != thrower).collect();
        expected.retain(|&s| table.game.to_act() != Some(s) || table.rules().add_ons.in_own_turn);
        if table.rules().slap_down != yaniv_domain::rules::SlapDown::Off {
            expected.push(thrower);
            expected.sort_unstable();
        }
        assert_eq!(
            table.clock.window_waiting(),
            expected.as_slice(),
            "seed {seed}"
        );
        let fitting = (0..4)
            .filter(|&s| !table.game.legal_actions(s).add_ons.is_empty())
            .count();
        seen.push(fitting);
    }
    // The hands differed: some windows had no fitting card anywhere, some had.
    assert!(seen.contains(&0), "{seen:?}");
    assert!(seen.iter().any(|&n| n > 0), "{seen:?}");
}

#[test]
fn a_timeout_at_a_table_without_a_clock_or_before_the_start_is_refused() {
    let creator = actor(1);
    let new = NewTable {
        rules: spec("israeli"),
        seats: 2,
        bots: vec![(1, BotKindName::Greedy)],
        clock: None,
        player_entropy: false,
        rated: false,
    };
    let (mut table, _) = create(new, 0).expect("a table");
    assert_eq!(
        time_out(&mut table, 10_000).unwrap_err(),
        TableError::NothingDue
    );
    when(
        &mut table,
        &player(0),
        1,
        TableCommand::Join { seat: Some(0) },
    )
    .expect("joins");
    when(&mut table, &creator, 1, TableCommand::Start).expect("starts");
    assert_eq!(
        time_out(&mut table, 10_000).unwrap_err(),
        TableError::NothingDue
    );
    assert_eq!(
        when(&mut table, &player(0), 1, TableCommand::Act(Action::Pass)).unwrap_err(),
        TableError::NothingToPass
    );
}

#[test]
fn a_clock_out_of_bounds_is_a_setup_problem() {
    let new = NewTable {
        rules: spec("israeli"),
        seats: 2,
        bots: vec![],
        clock: Some(Clock {
            turn_ms: 10,
            ..clock(0)
        }),
        player_entropy: false,
        rated: false,
    };
    let Err(TableError::BadSetup(problems)) = create(new, 0) else {
        panic!("refused");
    };
    assert_eq!(problems[0].field, "clock.turn_ms");
}

/// Each timeout of `log`, with the index among the game's events of the move after it.
fn timed_out_moves(log: &[StreamEvent]) -> Vec<yaniv_domain::table::clock::TimedOutMove> {
    let mut game_index = 0;
    let mut moves = Vec::new();
    for event in log {
        match event {
            StreamEvent::Game(_) => game_index += 1,
            StreamEvent::Clock(ClockEvent::TurnTimedOut(t)) => {
                moves.push(yaniv_domain::table::clock::TimedOutMove {
                    seat: t.seat,
                    game_index,
                });
            }
            _ => {}
        }
    }
    moves
}

/// A table whose every player is gone still ends: the stand-in calls within the
/// threshold, so its rounds end and the game reaches its last round.
#[test]
fn a_table_whose_players_are_all_absent_plays_itself_to_the_end() {
    let one_timeout = Clock {
        absent_after: 1,
        ..clock(0)
    };
    let (mut table, mut log) = given_started("israeli", 2, &[], one_timeout, 8);
    log.extend(time_out(&mut table, 1_000).expect("the first seat times out"));
    log.extend(time_out(&mut table, 1_000).expect("the second seat times out"));
    assert!(table.game.is_finished(), "stall: {:?}", table.stall);
    let timeouts: Vec<_> = log
        .iter()
        .filter_map(|e| match e {
            StreamEvent::Clock(ClockEvent::TurnTimedOut(t)) => Some(*t),
            _ => None,
        })
        .collect();
    assert_eq!(timeouts.iter().filter(|t| !t.absent).count(), 2);
    assert!(timeouts.len() > 2);
    let folded = refold(&log);
    assert!(folded.game.is_finished());
    // Every move after a timeout is the stand-in's, as a replay derives it.
    let moves = timed_out_moves(&log);
    assert_eq!(
        yaniv_domain::table::clock::first_wrong_stand_in(&table.game_events, &moves),
        None
    );
    // A timeout followed by another seat's move is caught.
    let mut wrong = moves.clone();
    wrong[0].seat = 1 - wrong[0].seat;
    assert_eq!(
        yaniv_domain::table::clock::first_wrong_stand_in(&table.game_events, &wrong),
        Some(0)
    );
}

/// The stand-in's move is checked whole: under Crazy queens its swap too (whom it
/// targets and what it gives), so a stored swap that is not the stand-in's is caught.
#[test]
fn a_stand_in_queen_swap_is_checked_with_its_turn() {
    let one_timeout = Clock {
        absent_after: 1,
        ..clock(0)
    };
    let serde_json::Value::Object(overrides) =
        serde_json::json!({"bonus_rules": ["crazy_queens", "waterfall"]})
    else {
        unreachable!("an object")
    };
    for seed in 1..40 {
        let (mut table, mut log) =
            given_started_with("house", overrides.clone(), 3, &[], one_timeout, seed);
        for _ in 0..3 {
            log.extend(time_out(&mut table, 1_000).expect("a seat times out"));
        }
        assert!(table.game.is_finished(), "stall: {:?}", table.stall);
        let moves = timed_out_moves(&log);
        let events = table.game_events.clone();
        assert_eq!(
            yaniv_domain::table::clock::first_wrong_stand_in(&events, &moves),
            None
        );
        let Some(at) = events
            .iter()
            .position(|e| matches!(e, GameEvent::QueenSwapped(_)))
        else {
            continue;
        };
        // Another target than the stand-in's (three players: the other one).
        let mut forged = events.clone();
        if let GameEvent::QueenSwapped(swap) = &mut forged[at] {
            swap.target = 3 - swap.seat - swap.target;
        }
        let turn = moves
            .iter()
            .rposition(|m| m.game_index < at)
            .expect("a timed-out turn before the swap");
        assert_eq!(
            yaniv_domain::table::clock::first_wrong_stand_in(&forged, &moves),
            Some(turn)
        );
        return;
    }
    panic!("no stand-in threw a queen");
}
