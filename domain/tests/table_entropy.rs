//! Player entropy at a table (`yaniv_domain::table::entropy`): the server commits to
//! its seed, every human seat contributes, the deal's seed mixes them all; a seat out
//! of time or absent gets the default; the stored stream checks out event by event.

mod table_support;

use table_support::{actor, create, refold, spec, types, when};
use yaniv_domain::cards::Cards;
use yaniv_domain::game::{Deal, DrawChoice, Event as GameEvent, Seat};
use yaniv_domain::record;
use yaniv_domain::shuffle::{Contribution, Seed};
use yaniv_domain::table::clock::Clock;
use yaniv_domain::table::entropy::{
    EntropyEvent, EntropyMismatch, EntropyState, first_starter, mix,
};
use yaniv_domain::table::{
    Action, BotKindName, NewTable, StreamEvent, Table, TableCommand, TableError,
};

/// Humans at seats 0 and 1 (accounts 10 and 11), a greedy bot at seat 2.
fn started(clock: Option<Clock>, seed: u64) -> (Table, Vec<StreamEvent>) {
    let new = NewTable {
        rules: spec("israeli"),
        seats: 3,
        bots: vec![(2, BotKindName::Greedy)],
        clock,
        player_entropy: true,
        rated: false,
    };
    let (mut table, mut log) = create(new, seed).expect("a valid table");
    for seat in 0..2u8 {
        let join = TableCommand::Join { seat: Some(seat) };
        log.extend(when(&mut table, &actor(10 + i64::from(seat)), seed, join).expect("joins"));
    }
    log.extend(when(&mut table, &actor(1), seed, TableCommand::Start).expect("starts"));
    (table, log)
}

fn contribute(table: &mut Table, seat: Seat, byte: u8) -> Result<Vec<StreamEvent>, TableError> {
    let action = Action::Contribute(Contribution([byte; 32]));
    when(
        table,
        &actor(10 + i64::from(seat)),
        5,
        TableCommand::Act(action),
    )
}

fn committed_seed(log: &[StreamEvent], round: u32) -> Seed {
    log.iter()
        .find_map(|e| match e {
            StreamEvent::Entropy(EntropyEvent::SeedCommitted(c)) if c.round == round => {
                Some(c.seed)
            }
            _ => None,
        })
        .expect("a commitment")
}

fn dealt(log: &[StreamEvent], round: u32) -> (Seed, Seat) {
    log.iter()
        .find_map(|e| match e {
            StreamEvent::Game(GameEvent::RoundDealt(d)) if d.round == round => match d.deal {
                Deal::Shuffled { seed, .. } => Some((seed, d.starter)),
                Deal::Explicit { .. } => None,
            },
            _ => None,
        })
        .expect("a deal")
}

/// Call when allowed, else throw the first card and draw from the stock.
fn simple_move(table: &Table, seat: Seat) -> Action {
    if table.legal_actions(seat).call {
        return Action::Call(None);
    }
    let card = table.game.hand(seat).first().expect("a card");
    Action::Play {
        throw: Cards::from_slice(&[card]).expect("one card"),
        draw: DrawChoice::Stock,
        queen: None,
    }
}

/// The whole stream checked against the procedure, as `verify` does.
fn audit(log: &[StreamEvent]) -> Result<(), (usize, EntropyMismatch)> {
    let StreamEvent::Table(yaniv_domain::table::TableEvent::Created(created)) = &log[0] else {
        panic!("a table's stream starts with its creation");
    };
    let mut state = EntropyState::of_table(created);
    for (i, event) in log.iter().enumerate() {
        state.observe(event).map_err(|e| (i, e))?;
    }
    Ok(())
}

#[test]
fn the_server_commits_first_and_deals_only_after_the_last_contribution() {
    // "after the server commits to its seed for a deal, each seat ... contributes a
    // value; the deal's seed is derived from both"
    let (mut table, mut log) = started(None, 3);
    assert_eq!(
        types(&log)[3..],
        [
            "table_started.v1",
            "game_created.v1",
            "deal_seed_committed.v1"
        ]
    );
    assert_eq!(
        table.entropy.awaiting(),
        [0, 1],
        "the bot seat sends nothing"
    );
    assert!(table.game.needs_deal());
    log.extend(contribute(&mut table, 1, 0xb1).expect("seat 1 contributes"));
    assert!(table.game.needs_deal(), "seat 0 has not contributed yet");
    assert_eq!(
        contribute(&mut table, 1, 0xb2),
        Err(TableError::NothingToContribute),
        "once per round"
    );
    log.extend(contribute(&mut table, 0, 0xa0).expect("seat 0 contributes"));
    assert!(!table.game.needs_deal(), "the last contribution deals");
    let server = committed_seed(&log, 1);
    let (seed, starter) = dealt(&log, 1);
    let values = [
        Some(Contribution([0xa0; 32])),
        Some(Contribution([0xb1; 32])),
        None,
    ];
    assert_eq!(seed, mix(&server, &values));
    assert_eq!(
        starter,
        first_starter(&seed, 3),
        "the starter comes from the seed"
    );
    assert_eq!(audit(&log), Ok(()));
    assert_eq!(refold(&log).version, table.version);
    assert_eq!(
        contribute(&mut table, 0, 1),
        Err(TableError::NothingToContribute),
        "nothing is asked during a round"
    );
}

#[test]
fn no_one_party_can_predict_the_deal_before_the_last_contribution() {
    // "the deal cannot be predicted by any one party before the last contribution":
    // the same committed server seed and first contribution, a different last one,
    // give another deal; and the players see only the commitment until the round ends.
    let deal_after = |last: u8| {
        let (mut table, mut log) = started(None, 3);
        log.extend(contribute(&mut table, 0, 0xa0).unwrap());
        log.extend(contribute(&mut table, 1, last).unwrap());
        (committed_seed(&log, 1), dealt(&log, 1).0, table)
    };
    let (server_a, deal_a, table) = deal_after(1);
    let (server_b, deal_b, _) = deal_after(2);
    assert_eq!(
        server_a, server_b,
        "the same server seed, fixed by its commitment"
    );
    assert_ne!(deal_a, deal_b, "the last contribution changes the deal");
    assert_ne!(
        table.game.hand(0),
        deal_after(2).2.game.hand(0),
        "and the cards"
    );
    assert!(
        !table.entropy.seed_revealed(1),
        "the server's seed stays hidden in play"
    );
}

#[test]
fn a_server_that_changes_its_seed_after_the_commitment_is_caught() {
    // "a server that changes its seed after the commitment is caught"
    let (mut table, mut log) = started(None, 3);
    log.extend(contribute(&mut table, 0, 0xa0).unwrap());
    log.extend(contribute(&mut table, 1, 0xb1).unwrap());
    let committed_at = log
        .iter()
        .position(|e| e.type_name() == "deal_seed_committed.v1")
        .unwrap();
    let dealt_at = log
        .iter()
        .position(|e| e.type_name() == "round_dealt.v1")
        .unwrap();

    // Another seed in the commitment event: it no longer hashes to the commitment.
    let mut swapped = log.clone();
    if let StreamEvent::Entropy(EntropyEvent::SeedCommitted(c)) = &mut swapped[committed_at] {
        c.seed = Seed([9; 32]);
    }
    assert_eq!(
        audit(&swapped).map_err(|(i, e)| (i, e.code())),
        Err((committed_at, "commitment_mismatch"))
    );

    // Another seed and its own commitment, chosen after the contributions: the deal no
    // longer mixes the seed the players saw committed... and if the deal is made from
    // it, the seed the deal shows is not the mix of the committed one.
    let mut redealt = log.clone();
    if let StreamEvent::Game(GameEvent::RoundDealt(d)) = &mut redealt[dealt_at]
        && let Deal::Shuffled {
            seed, commitment, ..
        } = &mut d.deal
    {
        *seed = Seed([7; 32]);
        *commitment = seed.commitment();
    }
    assert_eq!(
        audit(&redealt).map_err(|(i, e)| (i, e.code())),
        Err((dealt_at, "entropy_mismatch"))
    );

    // A contribution left out of the stream: the deal came before the seat's turn.
    let mut skipped = log.clone();
    let contributed_at = committed_at + 1;
    skipped.remove(contributed_at);
    assert_eq!(
        audit(&skipped).map_err(|(i, e)| (i, e.code())),
        Err((dealt_at - 1, "contribution_missing"))
    );
}

#[test]
fn the_table_fold_refuses_a_stored_deal_that_breaks_the_procedure() {
    // docs/verification.md 8.3: "Checks, in this order, each failure named at the
    // event where it shows": "`commitment == SHA-256(seed)`" at
    // `deal_seed_committed.v1`, "the deal is `shuffled` and its seed is `D`" at
    // `round_dealt.v1`. The fold that serves and plays the table acts on them too.
    let (mut table, mut log) = started(None, 3);
    log.extend(contribute(&mut table, 0, 0xa0).unwrap());
    log.extend(contribute(&mut table, 1, 0xb1).unwrap());
    let folds = |events: &[StreamEvent]| Table::fold(7, events.iter().cloned()).map(|_| ());
    assert_eq!(folds(&log), Ok(()), "the stream as written folds");

    let mut swapped = log.clone();
    let committed_at = types(&log)
        .iter()
        .position(|t| *t == "deal_seed_committed.v1")
        .unwrap();
    if let StreamEvent::Entropy(EntropyEvent::SeedCommitted(c)) = &mut swapped[committed_at] {
        c.seed = Seed([9; 32]);
    }
    let refused = folds(&swapped).expect_err("a commitment that does not hold");
    assert_eq!(refused.event, "deal_seed_committed.v1", "{refused}");

    let mut redealt = log.clone();
    let dealt_at = types(&log)
        .iter()
        .position(|t| *t == "round_dealt.v1")
        .unwrap();
    if let StreamEvent::Game(GameEvent::RoundDealt(d)) = &mut redealt[dealt_at]
        && let Deal::Shuffled {
            seed, commitment, ..
        } = &mut d.deal
    {
        *seed = Seed([7; 32]);
        *commitment = seed.commitment();
    }
    let refused = folds(&redealt).expect_err("a deal from another seed");
    assert_eq!(refused.event, "round_dealt.v1", "{refused}");
    assert!(refused.reason.contains("mix"), "{refused}");
}

#[test]
fn a_seat_out_of_time_gets_the_default_and_an_absent_seat_gets_it_at_once() {
    // "a seat that does not contribute within its clock gets a documented default"
    let clock = Clock {
        turn_ms: 1_000,
        decision_ms: 1_000,
        window_ms: 0,
        absent_after: 1,
    };
    let (mut table, mut log) = started(Some(clock), 4);
    let due = table.due().expect("the contributions are due");
    assert_eq!(due.limit_ms, 1_000);
    log.extend(contribute(&mut table, 0, 0xa0).unwrap());
    let early = TableCommand::TimeOut { waited_ms: 999 };
    assert!(matches!(
        when(&mut table, &actor(1), 9, early),
        Err(TableError::NotYetDue { remaining_ms: 1 })
    ));
    let late = TableCommand::TimeOut { waited_ms: 1_000 };
    let timed_out = when(&mut table, &actor(1), 9, late).expect("the default");
    let StreamEvent::Entropy(EntropyEvent::Contributed(default)) = &timed_out[0] else {
        panic!("a default contribution first: {:?}", types(&timed_out));
    };
    assert_eq!((default.seat, default.value), (1, None));
    log.extend(timed_out);
    let values = [Some(Contribution([0xa0; 32])), None, None];
    assert_eq!(dealt(&log, 1).0, mix(&committed_seed(&log, 1), &values));
    assert_eq!(audit(&log), Ok(()));

    // Play on until round 2 must be dealt, letting seat 1's clock run out once more so
    // it is absent: its default then comes at once, without waiting.
    let mut guard = 0;
    while table.game.round_number() < 2 && !table.game.is_finished() {
        guard += 1;
        assert!(guard < 500, "round 1 ends");
        if !table.entropy.awaiting().is_empty() {
            break;
        }
        let seat = table.game.to_act().expect("someone acts");
        let events = if seat == 1 {
            when(
                &mut table,
                &actor(1),
                9,
                TableCommand::TimeOut { waited_ms: 1_000 },
            )
        } else {
            let action = simple_move(&table, seat);
            when(&mut table, &actor(10), 9, TableCommand::Act(action))
        };
        log.extend(events.expect("accepted"));
    }
    assert!(table.clock.is_absent(1));
    let round_2: Vec<_> = log
        .iter()
        .filter_map(|e| match e {
            StreamEvent::Entropy(EntropyEvent::Contributed(c)) if c.round == 2 => Some(*c),
            _ => None,
        })
        .collect();
    assert_eq!(round_2.len(), 1, "only the absent seat's default so far");
    assert_eq!((round_2[0].seat, round_2[0].value), (1, None));
    assert_eq!(
        table.entropy.awaiting(),
        [0],
        "the present seat is still asked"
    );
    assert_eq!(audit(&log), Ok(()));
    assert_eq!(refold(&log).version, table.version);
}

#[test]
fn a_whole_game_with_player_entropy_replays_and_checks_out() {
    let (mut table, mut log) = started(None, 11);
    let mut round_seen = 0;
    let mut guard = 0;
    while !table.game.is_finished() {
        guard += 1;
        assert!(guard < 5_000, "the game ends");
        if let Some(pending) = table.entropy.pending() {
            let round = pending.round;
            assert!(round > round_seen, "one commitment per round");
            round_seen = round;
            for seat in table.entropy.awaiting() {
                log.extend(contribute(&mut table, seat, round as u8).unwrap());
            }
            continue;
        }
        let seat = table.game.to_act().expect("someone acts");
        let action = simple_move(&table, seat);
        log.extend(
            when(
                &mut table,
                &actor(10 + i64::from(seat)),
                9,
                TableCommand::Act(action),
            )
            .unwrap(),
        );
    }
    assert!(
        round_seen >= 2,
        "several rounds, each with its own commitment"
    );
    assert_eq!(audit(&log), Ok(()));
    let games: Vec<GameEvent> = log
        .iter()
        .filter_map(|e| match e {
            StreamEvent::Game(g) => Some(g.clone()),
            _ => None,
        })
        .collect();
    assert!(yaniv_domain::game::Game::replay_checked(&games).is_ok());
    assert!(
        table.entropy.seed_revealed(round_seen),
        "every seed is shown at the end"
    );

    // The game record carries how each seed was made, and its replay checks it.
    let mut record = record::export(&table.game_events).expect("a record");
    yaniv_domain::table::entropy::attach_entropy(&mut record, &table.entropy_events);
    let first = record.rounds[0].shuffle.as_ref().expect("a shuffle");
    let entropy = first.entropy.as_ref().expect("the entropy of round 1");
    assert_eq!(entropy.contributions.len(), 2, "two humans, no bot");
    assert!(record::replay(&record).is_ok());
    let mut changed = record.clone();
    if let Some(entropy) = changed.rounds[1]
        .shuffle
        .as_mut()
        .and_then(|s| s.entropy.as_mut())
    {
        entropy.contributions.0[0].1 = Some("ab".repeat(32));
    }
    let refused = record::replay(&changed).expect_err("another contribution");
    assert_eq!((refused.code, refused.round), ("bad_shuffle", Some(1)));
}

#[test]
fn contributions_are_refused_at_a_table_without_player_entropy() {
    let new = NewTable {
        rules: spec("israeli"),
        seats: 2,
        bots: vec![(1, BotKindName::Greedy)],
        clock: None,
        player_entropy: false,
        rated: false,
    };
    let (mut table, _) = create(new, 1).unwrap();
    when(
        &mut table,
        &actor(10),
        1,
        TableCommand::Join { seat: Some(0) },
    )
    .unwrap();
    let log = when(&mut table, &actor(1), 1, TableCommand::Start).unwrap();
    assert!(!types(&log).contains(&"deal_seed_committed.v1"));
    assert_eq!(
        contribute(&mut table, 0, 1),
        Err(TableError::NothingToContribute)
    );
}
