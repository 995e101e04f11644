//! Complete verification (issue 9, findings 11 and 12): what the hash chain alone
//! cannot see. A truncated tail is caught by the listing row and by checkpoints of
//! every stream head; a deleted tournament result by the finished game it links; a
//! rewritten event whose consequences the rules notice only later is named where it
//! was changed; and a read that meets a changed or missing event says which one.

use reqwest::StatusCode;
use serde_json::{Value, json};
use yaniv_api::checkpoints;
use yaniv_domain::game::Event as GameEvent;
use yaniv_domain::game::Game;
use yaniv_domain::table::{StreamEvent, decode};
use yaniv_e2e_tests::tables::{Api, Player, choose};
use yaniv_e2e_tests::tamper::{
    Hashes, delete_checkpoint_head, delete_event, delete_tail, set_table_listing, tamper,
};
use yaniv_e2e_tests::tournaments::cup_with_a_finished_online_game;
use yaniv_e2e_tests::{TestApp, expect_problem, spawn_app};

/// A two-player Israeli table with `turns` turns played; its id, players, referee.
async fn played_table(app: &TestApp, turns: usize) -> (Api, i64, Vec<Player>, Player) {
    let api = app.api();
    let players = vec![app.new_player("ann").await, app.new_player("bob").await];
    let referee = app.new_referee("rita").await;
    let id = api
        .started_table(&json!({"preset": "israeli", "seats": 2}), &players)
        .await;
    for _ in 0..turns {
        let summary = api.summary(id, &players[0].token).await;
        if summary["status"] == "finished" {
            break;
        }
        let seat = summary["to_act"].as_u64().unwrap() as usize;
        let view = api.view(id, &players[seat].token).await;
        let action = choose(&view).unwrap();
        Api::json_ok(
            api.act(id, &players[seat].token, &action, None).await,
            StatusCode::OK,
            "act",
        )
        .await;
    }
    (api, id, players, referee)
}

async fn verify(api: &Api, path: &str, token: &str) -> Value {
    let response = api.post(&format!("{path}/verify"), token, None).await;
    Api::json_ok(response, StatusCode::OK, "verify").await
}

async fn stream_version(app: &TestApp, stream: &str) -> u64 {
    app.store.stream_version(stream).await.expect("a version")
}

/// The latest version at or before `at` whose event starts a command of the game (a
/// turn, a call, a declaration, a deal): cutting the stream there leaves whole
/// commands, which replay, whatever the game dealt.
async fn command_start_at_or_before(app: &TestApp, stream: &str, at: u64) -> u64 {
    const STARTS: [&str; 5] = [
        "turn_played.v1",
        "called.v1",
        "went_along.v1",
        "onderkluft_declared.v1",
        "round_dealt.v1",
    ];
    let events = app.store.read_stream(stream, 1, 10_000).await.unwrap();
    (2..=at)
        .rev()
        .find(|&version| {
            let kind = |v: u64| events[v as usize - 1].event_type.as_str();
            // A reshuffle comes with the turn that needed it.
            STARTS.contains(&kind(version)) && kind(version - 1) != "stock_reshuffled.v1"
        })
        .expect("a command starts before the tail")
}

#[tokio::test]
async fn a_truncated_table_stream_fails_against_its_listing_row() {
    let app = spawn_app().await;
    let (api, id, _players, referee) = played_table(&app, 14).await;
    let stream = format!("table-{id}");
    let listed = stream_version(&app, &stream).await;
    let path = format!("/v1/tables/{id}");
    assert_eq!(verify(&api, &path, &referee.token).await["ok"], true);

    // The forger deletes the last ten events; the chain up to the new end holds.
    delete_tail(&app, &stream, listed - 9).await;

    let verdict = verify(&api, &path, &referee.token).await;
    assert_eq!(verdict["chain"]["ok"], true, "{verdict}");
    assert_eq!(verdict["ok"], false, "{verdict}");
    assert_eq!(verdict["first_failure"]["code"], "truncated_stream");
    assert_eq!(verdict["first_failure"]["version"], listed - 9, "{verdict}");
    assert_eq!(verdict["listing"]["ok"], false);
}

#[tokio::test]
async fn a_deleted_tournament_result_fails_against_its_finished_game() {
    let app = spawn_app().await;
    let (api, id, org, game_table) = cup_with_a_finished_online_game(&app).await;
    let stream = format!("tournament-{id}");
    let path = format!("/v1/tournaments/{id}");
    assert_eq!(verify(&api, &path, &org.token).await["ok"], true);

    let stored = app.store.read_stream(&stream, 1, 1000).await.unwrap();
    let result = stored
        .iter()
        .find(|e| e.event_type == "result_recorded.v1")
        .expect("the game's end recorded its result");
    let started = stored
        .iter()
        .find(|e| e.event_type == "table_game_started.v1")
        .expect("the draw opened the game");
    // The forger deletes the result (the stream's tail) and makes the listing row
    // agree, so that only the link to the finished game remains to tell.
    delete_tail(&app, &stream, result.version as u64).await;
    sqlx::query("UPDATE tournaments SET version = $2 WHERE id = $1")
        .bind(id)
        .bind(result.version - 1)
        .execute(&app.db)
        .await
        .unwrap();

    let verdict = verify(&api, &path, &org.token).await;
    assert_eq!(verdict["chain"]["ok"], true, "{verdict}");
    assert_eq!(verdict["ok"], false, "{verdict}");
    let links = &verdict["links"]["first_failure"];
    assert_eq!(links["code"], "missing_result", "{verdict}");
    // Named where the stream ends before it, as a cut tail is (verification.md 20.3);
    // the reason says which event opened the game.
    assert_eq!(links["version"], result.version, "{verdict}");
    assert!(
        links["reason"]
            .as_str()
            .unwrap()
            .contains(&format!("opened at version {}", started.version)),
        "{verdict}"
    );
    assert!(
        links["reason"]
            .as_str()
            .unwrap()
            .contains(&format!("table-{game_table}")),
        "{verdict}"
    );
    // The game's own verification says the same from its end.
    let game = verify(&api, &format!("/v1/tables/{game_table}"), &org.token).await;
    assert_eq!(game["ok"], false, "{game}");
    assert_eq!(game["links"]["first_failure"]["code"], "missing_result");
    assert_eq!(game["first_failure"]["code"], "missing_result", "{game}");
}

/// The game events of a table's stored stream, with their versions.
async fn stored_game(app: &TestApp, stream: &str) -> Vec<(u64, GameEvent)> {
    let stored = app.store.read_stream(stream, 1, 1000).await.unwrap();
    stored
        .iter()
        .filter_map(
            |e| match decode(&e.event_type, &e.payload).expect("a stored event") {
                StreamEvent::Game(game) => Some((e.version as u64, game)),
                StreamEvent::Table(_) | StreamEvent::Clock(_) | StreamEvent::Entropy(_) => None,
            },
        )
        .collect()
}

/// A forgery the rules accept where it is made and reject only some events later: a
/// turn that threw one card now throws another one of the same hand. The index of
/// the changed event, the changed event, and the index of the event the rules reject.
fn late_noticed_forgery(game: &[GameEvent]) -> Option<(usize, GameEvent, usize)> {
    for (at, event) in game.iter().enumerate() {
        let GameEvent::TurnPlayed(turn) = event else {
            continue;
        };
        if turn.thrown.len() != 1 {
            continue;
        }
        let before = Game::from_events(&game[..at]);
        for other in before.hand(turn.seat).iter() {
            if turn.thrown.contains(other) {
                continue;
            }
            let mut forged = *turn;
            forged.thrown = yaniv_domain::cards::Cards::from_slice(&[other]).unwrap();
            let forged = GameEvent::TurnPlayed(forged);
            let mut changed = game.to_vec();
            changed[at] = forged.clone();
            if let Err((rejected, _)) = Game::replay_checked(&changed)
                && rejected > at + 1
            {
                return Some((at, forged, rejected));
            }
        }
    }
    None
}

#[tokio::test]
async fn a_rewritten_turn_the_rules_notice_later_is_named_where_it_was_changed() {
    let app = spawn_app().await;
    let (api, id, _players, referee) = played_table(&app, 40).await;
    let stream = format!("table-{id}");
    let game = stored_game(&app, &stream).await;
    let events: Vec<GameEvent> = game.iter().map(|(_, e)| e.clone()).collect();
    let (at, forged, rejected) =
        late_noticed_forgery(&events).expect("a turn whose change the rules notice later");
    let (version, rejected_version) = (game[at].0, game[rejected].0);

    // The forger rewrites the turn and every later hash: the chain holds.
    let GameEvent::TurnPlayed(forged) = forged else {
        unreachable!()
    };
    tamper(&app, &stream, version, Hashes::Recomputed, |payload| {
        payload["thrown"] = serde_json::to_value(forged.thrown).unwrap();
    })
    .await;

    let verdict = verify(&api, &format!("/v1/tables/{id}"), &referee.token).await;
    assert_eq!(verdict["chain"]["ok"], true, "{verdict}");
    assert_eq!(verdict["ok"], false);
    assert_eq!(verdict["first_failure"]["version"], version, "{verdict}");
    assert_eq!(verdict["first_failure"]["code"], "diverging_event");
    assert_eq!(
        verdict["rule_failure"]["version"], rejected_version,
        "the first event the rules reject is still named: {verdict}"
    );
}

#[tokio::test]
async fn a_checkpoint_catches_a_truncated_tail_that_the_listing_row_hides() {
    let app = spawn_app().await;
    let (api, id, _players, referee) = played_table(&app, 12).await;
    let stream = format!("table-{id}");
    let checkpointed = stream_version(&app, &stream).await;
    let written = checkpoints::write(&app.db).await.expect("a checkpoint");
    assert!(written.heads.iter().any(|h| h.stream_id == stream));

    // Auditors read it through the API, with every head and the root.
    let (_, admin) = app.admin().await;
    let latest = api.get("/v1/checkpoints/latest", &admin).await;
    let latest = Api::json_ok(latest, StatusCode::OK, "latest checkpoint").await;
    assert_eq!(latest["root"], hex::encode(written.root));
    let head = latest["heads"]
        .as_array()
        .unwrap()
        .iter()
        .find(|h| h["stream_id"] == stream)
        .expect("the table's head")
        .clone();
    assert_eq!(head["version"], checkpointed);
    // Its round is still in play: its hash stays out, for the admin too (#27: two
    // heads around one append would let the card drawn in it be tried).
    assert!(head["head_hash"].is_null(), "{head}");
    assert!(latest["sealed"].as_u64() >= Some(1), "{latest}");
    // Players may not read it: a head hash covers hidden cards.
    let refused = api.get("/v1/checkpoints/latest", &referee.token).await;
    expect_problem(refused, StatusCode::FORBIDDEN, "forbidden").await;

    // Cut where a command starts, so that what is left still replays: only the
    // checkpoint can tell that the stream went further.
    let from = command_start_at_or_before(&app, &stream, checkpointed - 4).await;
    delete_tail(&app, &stream, from).await;
    set_table_listing(&app, id, from - 1, "playing").await;

    let verdict = verify(&api, &format!("/v1/tables/{id}"), &referee.token).await;
    assert_eq!(verdict["chain"]["ok"], true, "{verdict}");
    assert_eq!(verdict["listing"]["ok"], true, "{verdict}");
    assert_eq!(verdict["ok"], false);
    assert_eq!(
        verdict["first_failure"]["code"], "truncated_since_checkpoint",
        "{verdict}"
    );
    // At the first version gone, as the listing row would name it.
    assert_eq!(verdict["first_failure"]["version"], from, "{verdict}");
    assert!(from < checkpointed);
}

#[tokio::test]
async fn a_checkpoint_catches_a_rewritten_tail() {
    let app = spawn_app().await;
    let (api, id, _players, referee) = played_table(&app, 8).await;
    let stream = format!("table-{id}");
    let checkpointed = stream_version(&app, &stream).await;
    checkpoints::write(&app.db).await.expect("a checkpoint");

    // An early event rewritten and the chain recomputed from it: here the username
    // of the first seat taken.
    tamper(&app, &stream, 2, Hashes::Recomputed, |payload| {
        payload["username"] = json!("mallory");
    })
    .await;

    let verdict = verify(&api, &format!("/v1/tables/{id}"), &referee.token).await;
    assert_eq!(verdict["chain"]["ok"], true, "{verdict}");
    let failure = &verdict["checkpoints"]["first_failure"];
    assert_eq!(failure["code"], "rewritten_since_checkpoint", "{verdict}");
    assert_eq!(failure["version"], checkpointed, "{verdict}");
}

#[tokio::test]
async fn a_fresh_server_refuses_a_changed_card_naming_the_stream_and_version() {
    let app = spawn_app().await;
    let (_api, id, players, referee) = played_table(&app, 6).await;
    let stream = format!("table-{id}");
    let stored = app.store.read_stream(&stream, 1, 1000).await.unwrap();
    let turn = stored
        .iter()
        .rev()
        .find(|e| e.event_type == "turn_played.v1")
        .expect("a turn");
    let version = turn.version as u64;
    tamper(&app, &stream, version, Hashes::Kept, |payload| {
        payload["thrown"] = json!(["JK"]);
    })
    .await;

    let fresh = app.spawn_instance().await;
    for path in [
        format!("/v1/tables/{id}"),
        format!("/v1/tables/{id}/view"),
        format!("/v1/tables/{id}/events"),
    ] {
        let response = fresh.get(&path, &players[0].token).await;
        let problem = expect_problem(
            response,
            StatusCode::INTERNAL_SERVER_ERROR,
            "stream_corrupt",
        )
        .await;
        assert!(problem.detail.contains(&stream), "{path}: {problem:?}");
        assert!(
            problem.detail.contains(&format!("version {version}")),
            "{path}: {problem:?}"
        );
    }
    // The server that cached the fold before the change still checks the stored chain
    // of what it returns to staff.
    let events = app
        .api()
        .get(&format!("/v1/tables/{id}/events"), &referee.token)
        .await;
    expect_problem(events, StatusCode::INTERNAL_SERVER_ERROR, "stream_corrupt").await;
}

#[tokio::test]
async fn a_deleted_event_is_named_by_every_read() {
    let app = spawn_app().await;
    let (_api, id, players, _referee) = played_table(&app, 6).await;
    let stream = format!("table-{id}");
    delete_event(&app, &stream, 7).await;

    let fresh = app.spawn_instance().await;
    for path in [format!("/v1/tables/{id}"), format!("/v1/tables/{id}/view")] {
        let response = fresh.get(&path, &players[1].token).await;
        let problem = expect_problem(
            response,
            StatusCode::INTERNAL_SERVER_ERROR,
            "stream_corrupt",
        )
        .await;
        assert!(problem.detail.contains(&stream), "{problem:?}");
        assert!(problem.detail.contains("version 7"), "{problem:?}");
    }
}

#[tokio::test]
async fn the_background_task_checkpoints_every_stream_that_moved() {
    let app = yaniv_e2e_tests::spawn_app_with(
        |settings| settings.checkpoint_interval = Some(std::time::Duration::from_millis(200)),
        Vec::new(),
    )
    .await;
    let (api, id, _players, _referee) = played_table(&app, 2).await;
    let stream = format!("table-{id}");
    let version = stream_version(&app, &stream).await;
    let (_, admin) = app.admin().await;
    let mut covered = false;
    for _ in 0..50 {
        let latest = api.get("/v1/checkpoints/latest", &admin).await;
        if latest.status() == StatusCode::OK {
            let latest: Value = latest.json().await.unwrap();
            covered = latest["heads"]
                .as_array()
                .unwrap()
                .iter()
                .any(|h| h["stream_id"] == stream && h["version"] == version);
        }
        if covered {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert!(covered, "a checkpoint covers {stream} at version {version}");
    // An idle server adds nothing: the heads did not move.
    tokio::time::sleep(std::time::Duration::from_millis(600)).await;
    let (count,): (i64,) = sqlx::query_as("SELECT count(*) FROM checkpoints")
        .fetch_one(&app.db)
        .await
        .unwrap();
    tokio::time::sleep(std::time::Duration::from_millis(600)).await;
    let (again,): (i64,) = sqlx::query_as("SELECT count(*) FROM checkpoints")
        .fetch_one(&app.db)
        .await
        .unwrap();
    assert_eq!(count, again, "no stream moved, no checkpoint");

    // Checkpoints are append-only, like the events they vouch for.
    for statement in [
        "DELETE FROM checkpoint_heads",
        "UPDATE checkpoints SET root = root",
        "TRUNCATE checkpoints CASCADE",
    ] {
        let refused = sqlx::query(statement)
            .execute(&app.db)
            .await
            .expect_err(statement);
        assert!(refused.to_string().contains("append-only"), "{refused}");
    }
}

/// Issue 32: a tournament whose last two events were deleted, with its listing row
/// and a checkpoint still remembering them. Every check that sees the cut names the
/// same version, the first one gone (verification.md 20.3: "A cut tail is named at
/// the first version missing by every check that sees it").
#[tokio::test]
async fn a_cut_tournament_is_named_at_its_first_missing_version_by_every_check() {
    let app = spawn_app().await;
    let (api, id, org, _game_table) = cup_with_a_finished_online_game(&app).await;
    let stream = format!("tournament-{id}");
    let path = format!("/v1/tournaments/{id}");
    checkpoints::write(&app.db).await.expect("a checkpoint");
    let last = stream_version(&app, &stream).await;
    assert_eq!(verify(&api, &path, &org.token).await["ok"], true);

    delete_tail(&app, &stream, last - 1).await;

    let verdict = verify(&api, &path, &org.token).await;
    assert_eq!(verdict["chain"]["ok"], true, "{verdict}");
    assert_eq!(verdict["ok"], false, "{verdict}");
    assert_eq!(verdict["first_failure"]["version"], last - 1, "{verdict}");
    let mut named = 0;
    for check in ["domain", "games", "listing", "links", "checkpoints"] {
        let failure = &verdict[check]["first_failure"];
        if failure.is_null() {
            continue;
        }
        named += 1;
        assert_eq!(failure["version"], last - 1, "{check}: {verdict}");
    }
    assert_eq!(
        verdict["listing"]["first_failure"]["code"],
        "truncated_stream"
    );
    assert_eq!(
        verdict["checkpoints"]["first_failure"]["code"],
        "truncated_since_checkpoint"
    );
    assert!(named >= 2, "{verdict}");
}

/// Issue 32: `order` rewritten with every later hash recomputed is named at the
/// event itself, not only by a checkpoint taken after it (verification.md 12: "The
/// event's `order` field is always index + 1").
#[tokio::test]
async fn a_rewritten_registration_order_is_named_at_its_event() {
    let app = spawn_app().await;
    let (api, id, org, _game_table) = cup_with_a_finished_online_game(&app).await;
    let stream = format!("tournament-{id}");
    let path = format!("/v1/tournaments/{id}");
    checkpoints::write(&app.db).await.expect("a checkpoint");
    let stored = app.store.read_stream(&stream, 1, 1000).await.unwrap();
    let second = stored
        .iter()
        .filter(|e| e.event_type == "player_registered.v1")
        .nth(1)
        .expect("two registrations");
    let version = second.version as u64;
    tamper(&app, &stream, version, Hashes::Recomputed, |payload| {
        assert_eq!(payload["order"], 2);
        payload["order"] = json!(1);
    })
    .await;

    let verdict = verify(&api, &path, &org.token).await;
    assert_eq!(verdict["chain"]["ok"], true, "{verdict}");
    let first = &verdict["first_failure"];
    assert_eq!(first["check"], "domain", "{verdict}");
    assert_eq!(first["code"], "player_order", "{verdict}");
    assert_eq!(first["version"], version, "{verdict}");
}

/// Issue 32: a game table's head row deleted from a checkpoint. The checkpoint's root
/// still holds that head, so the table's verification names it, and only there: the
/// tournament's stream, listed by the same checkpoint, is not blamed.
#[tokio::test]
async fn a_deleted_checkpoint_head_of_a_table_is_named_for_that_table_only() {
    let app = spawn_app().await;
    let (api, id, org, game_table) = cup_with_a_finished_online_game(&app).await;
    let table_stream = format!("table-{game_table}");
    let written = checkpoints::write(&app.db).await.expect("a checkpoint");
    let checkpointed = written
        .heads
        .iter()
        .find(|h| h.stream_id == table_stream)
        .expect("the table's head")
        .version;
    let table_path = format!("/v1/tables/{game_table}");
    assert_eq!(verify(&api, &table_path, &org.token).await["ok"], true);

    delete_checkpoint_head(&app, written.id, &table_stream).await;

    let verdict = verify(&api, &table_path, &org.token).await;
    assert_eq!(verdict["ok"], false, "{verdict}");
    let failure = &verdict["checkpoints"]["first_failure"];
    assert_eq!(failure["code"], "checkpoint_head_removed", "{verdict}");
    assert_eq!(failure["version"], checkpointed, "{verdict}");
    assert_eq!(verdict["first_failure"]["code"], "checkpoint_head_removed");

    let tournament = verify(&api, &format!("/v1/tournaments/{id}"), &org.token).await;
    assert_eq!(tournament["checkpoints"]["ok"], true, "{tournament}");
}
