//! The one visibility policy (`yaniv_domain::visibility`): who stands how to a table,
//! where its secrets in play begin, and, over whole games under random rules, that what
//! each relation sees of a round in play holds no secret the test knows it must not.
//!
//! The policy, as issue #27 states it: "a live round's secrets (seed, stock order,
//! hands not yet shown) are sealed for everyone who reaches the server through the API,
//! admins included, until the round ends; a referee who does not play in the tournament
//! may see the hands at a disputed live table, never the stock order or the seed."

mod table_support;

use std::collections::BTreeSet;

use serde_json::Value;
use table_support::{actor, create, refold, spec, when};
use yaniv_domain::cards::{Card, Cards};
use yaniv_domain::game::{Deal, Draw, DrawChoice, Event as GameEvent, Seat};
use yaniv_domain::rules::{Preset, RuleSpec, overrides_between, random_rules_v4};
use yaniv_domain::shuffle::Seed;
use yaniv_domain::sim::SplitMix64;
use yaniv_domain::table::clock::Clock;
use yaniv_domain::table::entropy::EntropyEvent;
use yaniv_domain::table::{
    Action, BotKindName, NewTable, StreamEvent, Table, TableCommand, TournamentLink,
};
use yaniv_domain::tournament::{
    Command, ConfigRequest, Context, RegistrationWindow, Roles, TableRef, Tournament,
};
use yaniv_domain::visibility::{Relation, relation, sealed_from, visible_events};

const ORGANIZER: i64 = 1;
const REFEREE: i64 = 2;
const PLAYING_REFEREE: i64 = 3;
const PLAYER: i64 = 101;
const RIVAL: i64 = 102;
const STRANGER: i64 = 9;

/// A tournament whose officials may play: organizer 1 and referee 2 do not, referee 3
/// does, and so do players 101 and 102.
fn tournament() -> Tournament {
    let mut t = Tournament::new();
    let org = Context::account(ORGANIZER, 0);
    let commands = [
        Command::Create {
            name: "Cup".into(),
            rules: spec("belgian"),
            capacity: 10,
            registration_window: RegistrationWindow::default(),
            config: ConfigRequest {
                officials_may_play: Some(true),
                ..ConfigRequest::default()
            },
        },
        Command::AddReferee { referee: REFEREE },
        Command::AddReferee {
            referee: PLAYING_REFEREE,
        },
        Command::OpenRegistration,
        Command::Register {
            player: PLAYING_REFEREE,
        },
        Command::Register { player: PLAYER },
        Command::Register { player: RIVAL },
    ];
    for command in commands {
        t.execute(&org, &command)
            .unwrap_or_else(|e| panic!("{command:?}: {e}"));
    }
    t
}

/// A clock whose stand-in plays a seat that does not act: a test moves a table on by
/// telling it that a day went by.
fn clock() -> Clock {
    Clock {
        turn_ms: 1_000,
        decision_ms: 1_000,
        window_ms: 0,
        absent_after: 1,
    }
}

/// What the server does when the table's clock ran out: the stand-in plays the seat
/// that does not act (and, absent, its later turns too).
fn time_passes(table: &mut Table, seed: u64) -> Vec<StreamEvent> {
    let waited = TableCommand::TimeOut {
        waited_ms: 86_400_000,
    };
    when(table, &actor(1), seed, waited).unwrap_or_default()
}

/// A started table with a clock: account 101 at seat 0, a greedy bot at seat 1;
/// `tournament` links it to a tournament.
fn table(tournament: bool, player_entropy: bool) -> (Table, Vec<StreamEvent>) {
    let new = NewTable {
        rules: spec("israeli"),
        seats: 2,
        bots: vec![(1, BotKindName::Greedy)],
        clock: Some(clock()),
        player_entropy,
        rated: false,
    };
    let (mut table, mut log) = create(new, 3).expect("a table");
    log.extend(
        when(
            &mut table,
            &actor(PLAYER),
            3,
            TableCommand::Join { seat: Some(0) },
        )
        .unwrap(),
    );
    log.extend(when(&mut table, &actor(1), 3, TableCommand::Start).unwrap());
    if tournament {
        table.created.tournament = Some(TournamentLink {
            tournament_id: 1,
            table: TableRef {
                stage: 1,
                round: 1,
                table: 1,
            },
        });
    }
    (table, log)
}

fn roles(admin: bool, organizer: bool, referee: bool) -> Roles {
    Roles {
        admin,
        organizer,
        referee,
    }
}

#[test]
fn a_tournament_tables_referees_are_its_officials_who_play_nowhere_in_it() {
    let t = tournament();
    let (table, _) = table(true, false);
    let state = Some(t.state());
    let of = |account: Option<i64>, held: Roles| relation(&table, state, account, held);
    let organizer = roles(false, true, false);
    let referee = roles(false, false, true);
    assert_eq!(of(Some(PLAYER), Roles::NONE), Relation::Seat(0));
    // A seat is a seat, whatever else the account is.
    assert_eq!(of(Some(PLAYER), Roles::NAMED), Relation::Seat(0));
    assert_eq!(of(Some(ORGANIZER), organizer), Relation::Referee);
    assert_eq!(of(Some(REFEREE), referee), Relation::Referee);
    assert_eq!(
        of(Some(PLAYING_REFEREE), referee),
        Relation::PlayingOfficial
    );
    // Another player of the tournament, with or without roles.
    assert_eq!(of(Some(RIVAL), Roles::NAMED), Relation::Operator);
    assert_eq!(of(Some(RIVAL), referee), Relation::Spectator);
    // A naming lapses with its role: the referee without the referee role, the
    // organizer holding only another one.
    assert_eq!(of(Some(REFEREE), Roles::NONE), Relation::Spectator);
    assert_eq!(of(Some(ORGANIZER), referee), Relation::Spectator);
    // An admin keeps every naming; without one, an admin is the operator.
    assert_eq!(
        of(Some(REFEREE), roles(true, false, false)),
        Relation::Referee
    );
    assert_eq!(
        of(Some(STRANGER), roles(true, false, false)),
        Relation::Operator
    );
    // A role without a naming is nothing here.
    assert_eq!(
        of(Some(STRANGER), roles(false, true, true)),
        Relation::Spectator
    );
    assert_eq!(of(None, Roles::NAMED), Relation::Spectator);
}

#[test]
fn outside_tournaments_the_referee_role_referees_and_an_admin_operates() {
    let (table, _) = table(false, false);
    let of = |account, held| relation(&table, None, Some(account), held);
    assert_eq!(of(STRANGER, roles(false, false, true)), Relation::Referee);
    assert_eq!(of(STRANGER, roles(true, false, false)), Relation::Operator);
    assert_eq!(of(STRANGER, roles(false, true, false)), Relation::Spectator);
    assert_eq!(of(PLAYER, roles(true, true, true)), Relation::Seat(0));
}

/// Versions of the events of `log` whose type is `kind`.
fn versions_of(log: &[StreamEvent], kind: &str) -> Vec<u64> {
    (1u64..)
        .zip(log)
        .filter(|(_, e)| e.type_name() == kind)
        .map(|(v, _)| v)
        .collect()
}

#[test]
fn the_secrets_in_play_begin_at_the_commitment_or_the_deal_and_end_with_the_round() {
    // Without player entropy: from the deal of the round in play.
    let (mut table, mut log) = table(false, false);
    let deals = versions_of(&log, "round_dealt.v1");
    assert_eq!(sealed_from(&table), Some(deals[0]));
    // Play until a round ends and the next one is dealt.
    let mut seed = 10;
    while versions_of(&log, "round_ended.v1").is_empty() {
        let step = time_passes(&mut table, seed);
        assert!(!step.is_empty(), "the stand-in plays on");
        log.extend(step);
        seed += 1;
    }
    let last_end = *versions_of(&log, "round_ended.v1").last().unwrap();
    match versions_of(&log, "round_dealt.v1")
        .into_iter()
        .find(|&v| v > last_end)
    {
        Some(next) => assert_eq!(sealed_from(&table), Some(next)),
        None => assert_eq!(sealed_from(&table), None, "the game is over"),
    }
    assert_eq!(sealed_from(&refold(&log[..last_end as usize])), None);

    // With player entropy: from the server's commitment, before the contributions.
    let (table, log) = self::table(false, true);
    let committed = versions_of(&log, "deal_seed_committed.v1");
    assert_eq!(committed.len(), 1);
    assert!(
        versions_of(&log, "round_dealt.v1").is_empty(),
        "waits for 101"
    );
    assert_eq!(sealed_from(&table), Some(committed[0]));
}

#[test]
fn a_referee_sees_every_hand_and_nobody_sees_a_seed_in_play() {
    let (mut table, mut log) = table(false, true);
    let contribute = TableCommand::Act(Action::Contribute(yaniv_domain::shuffle::Contribution(
        [7; 32],
    )));
    log.extend(when(&mut table, &actor(PLAYER), 4, contribute).unwrap());
    let dealt = versions_of(&log, "round_dealt.v1")[0];
    for relation in [
        Relation::Seat(0),
        Relation::Referee,
        Relation::Operator,
        Relation::Spectator,
    ] {
        let (page, _) = visible_events(&table, relation, 0, 1000);
        for event in &page {
            assert!(event.payload["seed"].is_null(), "{relation:?}: {event:?}");
            assert!(
                event.payload["deal"]["seed"].is_null(),
                "{relation:?}: {event:?}"
            );
            assert!(event.payload["deal"]["commitment"].is_string() || event.version != dealt);
        }
    }
    // Seat 1's stock draws: the referee sees them, the operator and seat 0 do not.
    // Seat 0 throws and draws; the bot at seat 1 answers until it draws from the stock
    // while the round is still played. The referee sees the card it drew, the operator,
    // the public and seat 0 do not.
    let bots_stock_draw = |table: &Table| {
        table
            .game_events
            .iter()
            .zip(&table.game_versions)
            .find(|(e, _)| {
                matches!(e, GameEvent::TurnPlayed(t) if t.seat == 1 && matches!(t.draw, Draw::Stock(_)))
            })
            .map(|(_, v)| *v)
    };
    while bots_stock_draw(&table).is_none() {
        let card = table.game.hand(0).first().expect("a card");
        let play = Action::Play {
            throw: Cards::from_slice(&[card]).expect("one card"),
            draw: DrawChoice::Stock,
            queen: None,
        };
        log.extend(when(&mut table, &actor(PLAYER), 5, TableCommand::Act(play)).expect("plays"));
    }
    assert!(
        versions_of(&log, "round_ended.v1").is_empty(),
        "round 1 is still played"
    );
    let at = bots_stock_draw(&table).expect("a draw");
    let seen = |relation| {
        let (page, _) = visible_events(&table, relation, at - 1, 1);
        page[0].payload["draw"]["stock"].clone()
    };
    assert!(seen(Relation::Referee).is_string());
    assert!(seen(Relation::Operator).is_null());
    assert!(seen(Relation::Spectator).is_null());
    assert!(seen(Relation::Seat(0)).is_null());
    assert!(seen(Relation::Seat(1)).is_string());
}

#[test]
fn the_type_names_that_bound_a_round_are_the_events_own() {
    // `sealed_from_types` reads type names: they must be the stored ones.
    let (table, log) = table(false, true);
    assert_eq!(
        yaniv_domain::visibility::sealed_from_types(
            (1u64..).zip(log.iter().map(StreamEvent::type_name))
        ),
        sealed_from(&table)
    );
    assert!(
        log.iter()
            .any(|e| e.type_name() == "deal_seed_committed.v1")
    );
    assert!(
        log.iter()
            .any(|e| matches!(e, StreamEvent::Entropy(EntropyEvent::SeedCommitted(_))))
    );
}

/// What the test knows of the round in play of `table` (folded from a prefix): its
/// seeds, and per seat every card the seat held since the deal.
struct Truth {
    seeds: Vec<String>,
    held: Vec<BTreeSet<Card>>,
    /// Cards laid face up in the round (thrown, turned up, slapped, added on).
    public: BTreeSet<Card>,
}

fn cards_in(value: &Value, into: &mut BTreeSet<Card>) {
    match value {
        Value::String(s) => {
            if let Ok(card) = s.parse::<Card>() {
                into.insert(card);
            }
        }
        Value::Array(items) => items.iter().for_each(|v| cards_in(v, into)),
        Value::Object(fields) => fields.values().for_each(|v| cards_in(v, into)),
        _ => {}
    }
}

/// The property: whole bot games under random rules (the thirteen bonus rules among
/// them) and player entropy, every prefix folded as a server reads it; for every
/// relation, the events it sees hold no seed of the round in play, and under classic
/// rules no card of that round it could not know: only cards laid face up, its own
/// cards (a seat), every hand's cards (a referee).
#[test]
fn no_relation_sees_a_secret_of_a_round_in_play() {
    let mut rng = SplitMix64::new(27);
    let mut checked = 0usize;
    for game in 0..12u64 {
        let classic = game % 2 == 0;
        let rules = if classic {
            spec(["israeli", "belgian", "kluft", "wikipedia"][(game / 2 % 4) as usize])
        } else {
            let mut bytes = [0u8; 32];
            bytes[..8].copy_from_slice(&rng.next_u64().to_le_bytes());
            let drawn = random_rules_v4(&Seed(bytes)).rules;
            RuleSpec {
                preset: Preset::House.name().into(),
                overrides: overrides_between(&Preset::House.rules(), &drawn),
            }
        };
        let seats = 2 + (rng.next_u64() % 3) as u8;
        let new = NewTable {
            rules,
            seats,
            bots: (1..seats).map(|s| (s, BotKindName::Greedy)).collect(),
            clock: Some(clock()),
            player_entropy: game % 3 == 0,
            rated: false,
        };
        let Ok((mut table, mut log)) = create(new, game) else {
            continue;
        };
        let join = TableCommand::Join { seat: Some(0) };
        log.extend(when(&mut table, &actor(PLAYER), game, join).expect("joins"));
        log.extend(when(&mut table, &actor(1), game, TableCommand::Start).expect("starts"));
        // The human at seat 0 never acts: the stand-in plays it, the bots the others.
        for step in 0..2_000 {
            if table.game.is_finished() {
                break;
            }
            let events = time_passes(&mut table, game * 10_000 + step);
            if events.is_empty() {
                break;
            }
            log.extend(events);
        }
        // Every prefix that ends inside a round, stepping so the test stays quick.
        for end in (1..=log.len()).step_by(7) {
            let prefix = refold(&log[..end]);
            let Some(from) = sealed_from(&prefix) else {
                continue;
            };
            let truth = truth_of(&prefix, from);
            let mut relations: Vec<Relation> = (0..seats).map(Relation::Seat).collect();
            relations.extend([
                Relation::Referee,
                Relation::PlayingOfficial,
                Relation::Operator,
                Relation::Spectator,
            ]);
            for relation in relations {
                let (page, _) = visible_events(&prefix, relation, 0, usize::MAX);
                let text = serde_json::to_string(&page).expect("serializes");
                for seed in &truth.seeds {
                    assert!(
                        !text.contains(seed.as_str()),
                        "game {game}, {end} events: {relation:?} sees a seed in play"
                    );
                }
                if !classic {
                    continue;
                }
                let mut known = truth.public.clone();
                match relation {
                    Relation::Seat(s) => known.extend(&truth.held[usize::from(s)]),
                    Relation::Referee => truth.held.iter().for_each(|h| known.extend(h)),
                    _ => {}
                }
                let mut shown = BTreeSet::new();
                for event in page.iter().filter(|e| e.version >= from) {
                    cards_in(&event.payload, &mut shown);
                }
                let unknown: Vec<&Card> = shown.difference(&known).collect();
                assert!(
                    unknown.is_empty(),
                    "game {game}, {end} events: {relation:?} sees {unknown:?} of the round in play"
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 200, "only {checked} classic reads were checked");
}

/// The truth of the round in play of `table`, whose secrets begin at version `from`.
fn truth_of(table: &Table, from: u64) -> Truth {
    let mut seeds = Vec::new();
    for (event, version) in table.entropy_events.iter().zip(&table.entropy_versions) {
        if let EntropyEvent::SeedCommitted(c) = event
            && *version >= from
        {
            seeds.push(c.seed.to_hex());
        }
    }
    let seats = table.seats.len();
    let mut held = vec![BTreeSet::new(); seats];
    let mut public = BTreeSet::new();
    // Fold the round again event by event, as the test's own account of who held what.
    let first = table.game_index_after(from - 1);
    let mut game = yaniv_domain::game::Game::from_events(&table.game_events[..first]);
    for event in &table.game_events[first..] {
        game.apply(event);
        match event {
            GameEvent::RoundDealt(dealt) => {
                if let Deal::Shuffled { seed, .. } = &dealt.deal {
                    seeds.push(seed.to_hex());
                }
                // The card turned up.
                public.extend(game.top_throw().iter());
            }
            GameEvent::TurnPlayed(turn) => public.extend(turn.thrown.iter()),
            GameEvent::SlappedDown(slap) => {
                public.insert(slap.card);
            }
            GameEvent::AddedOn(add) => public.extend(add.cards.iter()),
            _ => {}
        }
        for (seat, cards) in held.iter_mut().enumerate() {
            let seat = Seat::try_from(seat).expect("a seat");
            cards.extend(game.hand(seat).iter());
        }
    }
    Truth {
        seeds,
        held,
        public,
    }
}
