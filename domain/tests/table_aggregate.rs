//! The online table as an aggregate, given / when / then: given the events of a
//! stream, when a command is executed with fixed services, then these events come out
//! (or this refusal, and the table is unchanged).

mod table_support;

use table_support::{Fixed, actor, create, refold, spec, types, when};
use yaniv_domain::aggregate::{Aggregate, Refusal, RefusalKind};
use yaniv_domain::game::{DrawChoice, Event as GameEvent};
use yaniv_domain::sim::SplitMix64;
use yaniv_domain::table::{
    AccountRef, Action, Actor, BotKindName, NewTable, Randomness, SeatHolder, SeatedTable,
    StreamEvent, Table, TableCommand, TableError, TableServices, TableStatus, TournamentLink,
};
use yaniv_domain::tournament::TableRef;

/// Randomness that is not there (a broken OS generator).
struct Broken;

impl Randomness for Broken {
    fn fill(&mut self, _: &mut [u8]) -> Result<(), String> {
        Err("no entropy".into())
    }
}

/// A new table of `seats` with bots at `bots`, created by account 1.
fn given_table(preset: &str, seats: u8, bots: &[(u8, BotKindName)]) -> (Table, Vec<StreamEvent>) {
    let new = NewTable {
        rules: spec(preset),
        seats,
        bots: bots.to_vec(),
        clock: None,
        player_entropy: false,
        rated: false,
    };
    create(new, 0).expect("a valid table")
}

#[test]
fn seats_are_taken_first_free_or_as_asked_and_given_back_before_the_start() {
    let (mut table, mut log) = given_table("israeli", 3, &[(2, BotKindName::Greedy)]);
    assert_eq!(types(&log), ["table_created.v1"]);
    log.extend(when(&mut table, &actor(10), 1, TableCommand::Join { seat: None }).unwrap());
    log.extend(
        when(
            &mut table,
            &actor(11),
            1,
            TableCommand::Join { seat: Some(1) },
        )
        .unwrap(),
    );
    assert_eq!(table.seat_of(10), Some(0));
    assert_eq!(table.seat_of(11), Some(1));
    log.extend(when(&mut table, &actor(10), 1, TableCommand::Leave).unwrap());
    assert_eq!(table.seats[0], SeatHolder::Empty);
    assert_eq!(
        types(&log),
        [
            "table_created.v1",
            "seat_taken.v1",
            "seat_taken.v1",
            "seat_left.v1"
        ]
    );
    // What was decided is what the stream folds back to.
    let folded = refold(&log);
    assert_eq!(folded.version, table.version);
    assert_eq!(folded.seats, table.seats);
}

#[test]
fn setup_refusals_carry_their_codes_and_change_nothing() {
    let (mut table, _) = given_table("israeli", 2, &[(1, BotKindName::Random)]);
    when(&mut table, &actor(10), 1, TableCommand::Join { seat: None }).unwrap();
    let before = (table.version, table.seats.clone());
    let cases = [
        (
            actor(11),
            TableCommand::Join { seat: Some(1) },
            "seat_taken",
            RefusalKind::NotNow,
        ),
        (
            actor(11),
            TableCommand::Join { seat: Some(5) },
            "validation_failed",
            RefusalKind::Invalid,
        ),
        (
            actor(11),
            TableCommand::Join { seat: None },
            "table_full",
            RefusalKind::NotNow,
        ),
        (
            actor(10),
            TableCommand::Join { seat: None },
            "already_seated",
            RefusalKind::NotNow,
        ),
        (
            actor(11),
            TableCommand::Leave,
            "not_seated",
            RefusalKind::Forbidden,
        ),
        (
            actor(10),
            TableCommand::Start,
            "forbidden",
            RefusalKind::Forbidden,
        ),
        (
            actor(10),
            TableCommand::Act(Action::Call(None)),
            "table_not_started",
            RefusalKind::NotNow,
        ),
    ];
    for (who, command, code, kind) in cases {
        let error = when(&mut table, &who, 1, command.clone()).unwrap_err();
        assert_eq!(
            (error.code(), error.kind()),
            (code, kind),
            "{command:?}: {error}"
        );
        assert_eq!((table.version, table.seats.clone()), before, "{command:?}");
    }
    let error = when(
        &mut table,
        &actor(11),
        1,
        TableCommand::Join { seat: Some(5) },
    )
    .unwrap_err();
    assert_eq!(error.field().as_deref(), Some("seat"));
}

#[test]
fn a_table_starts_only_when_every_human_seat_is_taken() {
    let (mut table, _) = given_table("israeli", 3, &[(2, BotKindName::Greedy)]);
    when(&mut table, &actor(1), 1, TableCommand::Join { seat: None }).unwrap();
    let refused = when(&mut table, &actor(1), 1, TableCommand::Start).unwrap_err();
    assert_eq!(refused, TableError::SeatsNotFilled { free: 1 });
    when(&mut table, &actor(12), 1, TableCommand::Join { seat: None }).unwrap();
    let started = when(&mut table, &actor(1), 1, TableCommand::Start).unwrap();
    assert_eq!(
        types(&started)[..3],
        ["table_started.v1", "game_created.v1", "round_dealt.v1"]
    );
    assert_eq!(table.status(), TableStatus::Playing);
    // The bot played until a human must act.
    let to_act = table.game.to_act().unwrap();
    assert_ne!(to_act, 2);
    let again = when(&mut table, &actor(1), 1, TableCommand::Start).unwrap_err();
    assert_eq!(again.code(), "table_started");
}

#[test]
fn an_organizer_may_start_a_table_of_someone_else() {
    let (mut table, _) = given_table("israeli", 2, &[(1, BotKindName::Random)]);
    when(&mut table, &actor(20), 1, TableCommand::Join { seat: None }).unwrap();
    let organizer = Actor {
        organizer: true,
        ..actor(30)
    };
    when(&mut table, &organizer, 1, TableCommand::Start).unwrap();
    assert!(table.started);
}

#[test]
fn the_same_randomness_deals_the_same_game_and_the_stream_folds_back_to_it() {
    let play = |seed| {
        let (mut table, mut log) = given_table(
            "belgian",
            3,
            &[(1, BotKindName::Greedy), (2, BotKindName::Random)],
        );
        log.extend(
            when(
                &mut table,
                &actor(1),
                seed,
                TableCommand::Join { seat: None },
            )
            .unwrap(),
        );
        log.extend(when(&mut table, &actor(1), seed, TableCommand::Start).unwrap());
        (table, log)
    };
    let (first, log) = play(5);
    let (second, log_again) = play(5);
    assert_eq!(log, log_again);
    let (_, other) = play(6);
    assert_ne!(log, other, "another seed deals another game");
    let folded = refold(&log);
    assert_eq!(folded.version, first.version);
    assert_eq!(folded.game.view(0), first.game.view(0));
    assert_eq!(second.game.view(0), first.game.view(0));
}

#[test]
fn a_human_plays_a_whole_game_against_bots_through_legal_actions() {
    let (mut table, mut log) = given_table(
        "israeli",
        3,
        &[(1, BotKindName::Greedy), (2, BotKindName::Greedy)],
    );
    let ann = actor(1);
    log.extend(when(&mut table, &ann, 3, TableCommand::Join { seat: None }).unwrap());
    log.extend(when(&mut table, &ann, 3, TableCommand::Start).unwrap());
    let mut moves = 0;
    while !table.game.is_finished() {
        assert_eq!(
            table.game.to_act(),
            Some(0),
            "only the human is left to act"
        );
        let view = table.game.view(0).expect("a view");
        let action = if view.legal.call {
            Action::Call(None)
        } else {
            let throw = view.legal.throws[0];
            Action::Play {
                throw,
                draw: DrawChoice::Stock,
                queen: None,
            }
        };
        log.extend(when(&mut table, &ann, moves, TableCommand::Act(action)).unwrap());
        moves += 1;
        assert!(moves < 5_000, "the game ends");
    }
    assert_eq!(table.status(), TableStatus::Finished);
    let game_events: Vec<GameEvent> = log
        .iter()
        .filter_map(|e| match e {
            StreamEvent::Game(g) => Some(g.clone()),
            StreamEvent::Table(_) | StreamEvent::Clock(_) | StreamEvent::Entropy(_) => None,
        })
        .collect();
    assert!(
        yaniv_domain::game::Game::replay_checked(&game_events).is_ok(),
        "every move the table made is one the rules accept"
    );
    assert_eq!(refold(&log).version, table.version);
}

#[test]
fn a_refused_move_changes_nothing() {
    let (mut table, _) = given_table("israeli", 2, &[(1, BotKindName::Greedy)]);
    when(&mut table, &actor(1), 1, TableCommand::Join { seat: None }).unwrap();
    when(&mut table, &actor(1), 1, TableCommand::Start).unwrap();
    let version = table.version;
    let hand = table.game.hand(0).clone();
    let deck = yaniv_domain::cards::Deck {
        decks: 1,
        jokers_per_deck: 2,
    };
    let not_held = deck
        .cards()
        .into_iter()
        .find(|c| !hand.contains(*c))
        .expect("a card not in hand");
    let throw = [not_held].into_iter().collect();
    let refused = when(
        &mut table,
        &actor(1),
        1,
        TableCommand::Act(Action::Play {
            throw,
            draw: DrawChoice::Stock,
            queen: None,
        }),
    )
    .unwrap_err();
    assert_eq!(refused.code(), "card_not_in_hand");
    assert_eq!(table.version, version);
    assert_eq!(table.game.hand(0), &hand);
}

#[test]
fn a_tournament_table_opens_seated_started_and_dealt() {
    let players: Vec<AccountRef> = (1..=5)
        .map(|i| AccountRef {
            account_id: 10 + i,
            username: format!("p{i}"),
        })
        .collect();
    let link = TournamentLink {
        tournament_id: 4,
        table: TableRef {
            stage: 1,
            round: 2,
            table: 3,
        },
    };
    let command = TableCommand::OpenSeated(SeatedTable {
        link,
        rules: spec("belgian"),
        effective_rules: yaniv_domain::rules::Preset::Belgian.rules(),
        players,
        clock: None,
        player_entropy: false,
        rated: false,
    });
    let official = actor(1);
    let mut random = Fixed(SplitMix64::new(9));
    let mut services = TableServices {
        actor: &official,
        random: &mut random,
    };
    let (table, events) = Table::create(8, &command, &mut services).unwrap();
    let types = types(&events);
    assert_eq!(types[0], "table_created.v1");
    assert_eq!(types[1..6], ["seat_taken.v1"; 5]);
    assert_eq!(
        types[6..],
        ["table_started.v1", "game_created.v1", "round_dealt.v1"]
    );
    assert_eq!(table.created.tournament, Some(link));
    assert_eq!(table.player_names(), ["p1", "p2", "p3", "p4", "p5"]);
    assert_eq!(table.free_seats(), 0);
    assert_eq!(refold(&events).version, table.version);
}

#[test]
fn a_bad_setup_names_every_field_at_once() {
    let creator = actor(1);
    let mut random = Fixed(SplitMix64::new(0));
    let mut services = TableServices {
        actor: &creator,
        random: &mut random,
    };
    let command = TableCommand::Create(NewTable {
        rules: spec("swiss"),
        seats: 9,
        bots: vec![],
        clock: None,
        player_entropy: false,
        rated: false,
    });
    let Err(TableError::BadSetup(problems)) = Table::create(1, &command, &mut services) else {
        panic!("refused");
    };
    let fields: Vec<&str> = problems.iter().map(|p| p.field.as_str()).collect();
    assert_eq!(fields, ["preset", "seats"]);
    let command = TableCommand::Create(NewTable {
        rules: spec("israeli"),
        seats: 2,
        bots: vec![
            (0, BotKindName::Greedy),
            (0, BotKindName::Random),
            (5, BotKindName::Random),
        ],
        clock: None,
        player_entropy: false,
        rated: false,
    });
    let Err(TableError::BadSetup(problems)) = Table::create(1, &command, &mut services) else {
        panic!("refused");
    };
    let fields: Vec<&str> = problems.iter().map(|p| p.field.as_str()).collect();
    assert_eq!(fields, ["bots[1].seat", "bots[2].seat", "bots"]);
}

#[test]
fn without_randomness_the_table_cannot_deal_and_says_so() {
    let (mut table, _) = given_table("israeli", 2, &[(1, BotKindName::Greedy)]);
    when(&mut table, &actor(1), 1, TableCommand::Join { seat: None }).unwrap();
    let creator = actor(1);
    let mut services = TableServices {
        actor: &creator,
        random: &mut Broken,
    };
    let error = table
        .execute(&TableCommand::Start, &mut services)
        .unwrap_err();
    assert_eq!(error.kind(), RefusalKind::Internal);
}
