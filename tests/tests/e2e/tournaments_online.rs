//! Tournaments played on the server: draws from the server's committed seeds create
//! online game tables seated in the drawn order; the end of each game records its
//! result in the tournament; a voided game is replaced and only the new one counts;
//! the accounts a command names must exist; `If-Match` guards commands.

use reqwest::StatusCode;
use serde_json::{Value, json};
use yaniv_e2e_tests::tables::{Api, Player, check_events_hide, check_view_hides, play_to_end};
use yaniv_e2e_tests::tournaments::{sha256_hex, tables_of};
use yaniv_e2e_tests::{TestApp, expect_problem, spawn_app};

/// Belgian rules with a game that ends as soon as anyone passes 40 (short games).
fn short_rules() -> Value {
    json!({"preset": "belgian", "overrides": {"game_end": {"lowest_wins": {"limit": 40, "at_limit": false}}}})
}

/// A cup of `n` players named `<prefix>1`, `<prefix>2`, ... at tables of 4 (short
/// rules, one qualification round), everyone registered and checked in and the
/// qualification started, organized by `organizer` with `referee` added as a referee.
/// Returns the app's API, the tournament, its organizer, its referee and the players.
async fn refereed_cup(
    app: &TestApp,
    organizer: &str,
    referee: &str,
    prefix: &str,
    n: usize,
) -> (Api, i64, Player, Player, Vec<Player>) {
    let api = app.api();
    let org = app.new_organizer(organizer).await;
    let referee = app.new_referee(referee).await;
    let players = new_players(app, prefix, n).await;
    let body = json!({
        "name": "Online cup",
        "rules": short_rules(),
        "capacity": n,
        "config": {"qualification_rounds": 1, "table_min": 4, "table_max": 4},
    });
    let id = api.started_tournament(&org, &players, &body).await;
    api.accepted(
        id,
        &org.token,
        &json!({"command": "add_referee", "referee": referee.id}),
    )
    .await;
    (api, id, org, referee, players)
}

async fn new_players(app: &TestApp, prefix: &str, n: usize) -> Vec<Player> {
    let mut players = Vec::new();
    for i in 1..=n {
        players.push(app.new_player(&format!("{prefix}{i}")).await);
    }
    players
}

/// The players of `all` whose ids are `ids`, in that order.
fn seated(all: &[Player], ids: &[i64]) -> Vec<Player> {
    ids.iter()
        .map(|id| {
            all.iter()
                .find(|p| p.id == *id)
                .cloned()
                .expect("a seated player")
        })
        .collect()
}

/// Every event of tournament `id`.
async fn tournament_events(api: &Api, id: i64, token: &str) -> Vec<Value> {
    let page = api.tournament_read(id, "/events?limit=1000", token).await;
    page["events"].as_array().cloned().unwrap_or_default()
}

#[tokio::test]
async fn drawn_tables_are_played_online_and_the_server_records_their_results() {
    let app = spawn_app().await;
    let (api, id, org, referee, players) = refereed_cup(&app, "orla", "reggie", "pl", 8).await;
    let before = api.tournament_read(id, "", &org.token).await;
    let commitment = before["tournament"]["pending_commitment"].clone();

    // Only the organizer draws; a paper table the round will not have is refused, and
    // a refused draw reveals nothing and changes nothing.
    let by_player = api
        .post(
            &format!("/v1/tournaments/{id}/draws"),
            &players[0].token,
            Some(&json!({})),
        )
        .await;
    expect_problem(by_player, StatusCode::FORBIDDEN, "forbidden").await;
    let bad = api
        .post(
            &format!("/v1/tournaments/{id}/draws"),
            &org.token,
            Some(&json!({"paper_tables": [3]})),
        )
        .await;
    let problem = expect_problem(bad, StatusCode::UNPROCESSABLE_ENTITY, "validation_failed").await;
    assert!(
        format!("{problem:?}").contains("paper_tables"),
        "{problem:?}"
    );
    assert_eq!(api.tournament_read(id, "", &org.token).await, before);

    // Table 1 online, table 2 on paper.
    let drawn = api
        .draw(id, &org.token, &json!({"paper_tables": [2]}))
        .await;
    let draw = &drawn["events"][0]["payload"];
    assert_eq!(draw["precommitted"], true);
    assert_eq!(draw["commitment"], commitment);
    assert_eq!(
        draw["commitment"],
        sha256_hex(draw["seed"].as_str().expect("seed"))
    );
    let online = drawn["online_tables"].as_array().expect("online tables");
    assert_eq!(online.len(), 1);
    assert_eq!(
        online[0]["table"],
        json!({"stage": 1, "round": 1, "table": 1})
    );
    let game_table = online[0]["game_table"].as_i64().expect("game table id");
    let types: Vec<&str> = drawn["events"]
        .as_array()
        .expect("events")
        .iter()
        .map(|e| e["type"].as_str().unwrap_or(""))
        .collect();
    // The draw, its online table, and the commitment to the knockout draw's seed.
    assert_eq!(
        types,
        [
            "round_drawn.v1",
            "table_game_started.v1",
            "draw_seed_committed.v1"
        ]
    );
    assert_eq!(
        drawn["events"][1]["payload"]["game"],
        format!("table-{game_table}")
    );

    // The game table seats the drawn players in the drawn order and is dealt.
    let stages = api.tournament_read(id, "/stages", &players[0].token).await;
    let tables = tables_of(&stages, 1, 1);
    let at_online = seated(&players, &tables[0].1);
    let summary = api.summary(game_table, &at_online[0].token).await;
    assert_eq!(summary["status"], "playing");
    let names: Vec<&str> = summary["seats"]
        .as_array()
        .expect("seats")
        .iter()
        .map(|s| s["name"].as_str().unwrap_or(""))
        .collect();
    let drawn_names: Vec<&str> = at_online.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, drawn_names);
    // Nobody can join or leave it.
    let join = api
        .post(
            &format!("/v1/tables/{game_table}/join"),
            &players[0].token,
            None,
        )
        .await;
    assert_eq!(join.status(), StatusCode::CONFLICT);

    // The game is played through the table API; its last action records the result.
    let played = play_to_end(&api, game_table, &at_online, 5_000, 0, |_| async {}).await;
    let events = tournament_events(&api, id, &org.token).await;
    let recorded = events
        .iter()
        .find(|e| e["type"] == "result_recorded.v1")
        .expect("the server recorded the result");
    let payload = &recorded["payload"];
    assert_eq!(payload["by"], "server");
    assert_eq!(
        payload["table"],
        json!({"stage": 1, "round": 1, "table": 1})
    );
    assert_eq!(payload["input"]["source"], "game");
    assert_eq!(payload["input"]["game"], format!("table-{game_table}"));
    // The result is the game's: each seat's final total and place.
    for (seat, player) in at_online.iter().enumerate() {
        let line = payload["result"]
            .as_array()
            .expect("result lines")
            .iter()
            .find(|l| l["player"] == player.id)
            .expect("a line per player");
        assert_eq!(line["total"], played.summary["totals"][seat], "seat {seat}");
        let standing = played.summary["standings"]
            .as_array()
            .expect("standings")
            .iter()
            .find(|s| s["seat"] == seat)
            .expect("a standing per seat");
        assert_eq!(line["place"], standing["place"], "seat {seat}");
    }

    // The finished game of a tournament is public: its record needs no token, and
    // replays to the game's totals. A game of no tournament still needs one.
    let record = app
        .get(&format!("/v1/tables/{game_table}/record"), None)
        .await;
    assert_eq!(record.status(), StatusCode::OK);
    let record: Value = record.json().await.expect("a record");
    let replayed = app
        .post_json("/v1/records/replay", &record, Some(&org.token))
        .await;
    assert_eq!(replayed.status(), StatusCode::OK);
    let replayed: Value = replayed.json().await.expect("a replay result");
    assert_eq!(replayed["finished"], true);
    assert_eq!(
        replayed["rounds"].as_array().map(Vec::len),
        record["rounds"].as_array().map(Vec::len)
    );
    let casual = api
        .create_table(&players[0].token, &json!({"preset": "israeli", "seats": 2}))
        .await["id"]
        .as_i64()
        .unwrap();
    for id in [casual, 999_999] {
        let hidden = app.get(&format!("/v1/tables/{id}/record"), None).await;
        assert_eq!(hidden.status(), StatusCode::UNAUTHORIZED, "table {id}");
    }

    // The paper table is the referee's; then the round is complete.
    let at_paper = &tables[1];
    let (sheet, _) = yaniv_e2e_tests::tournaments::paper_sheet(
        &yaniv_domain::rules::RuleSpec {
            preset: "belgian".into(),
            overrides: serde_json::from_value(short_rules()["overrides"].clone())
                .expect("overrides"),
        }
        .resolve()
        .expect("rules"),
        &at_paper.1,
    );
    api.accepted(
        id,
        &referee.token,
        &json!({"command": "record_result", "table": at_paper.0, "input": sheet}),
    )
    .await;
    let advanced = api
        .accepted(id, &org.token, &json!({"command": "advance_stage"}))
        .await;
    assert_eq!(advanced["tournament"]["phase"], "knockout");
}

#[tokio::test]
async fn a_voided_online_game_is_replaced_and_only_the_new_game_counts() {
    let app = spawn_app().await;
    let (api, id, org, referee, players) = refereed_cup(&app, "vera", "rufus", "vp", 4).await;
    let drawn = api.draw(id, &org.token, &json!({})).await;
    let first_game = drawn["online_tables"][0]["game_table"]
        .as_i64()
        .expect("id");
    let table = drawn["online_tables"][0]["table"].clone();
    let stages = api.tournament_read(id, "/stages", &org.token).await;
    let at_table = seated(&players, &tables_of(&stages, 1, 1)[0].1);

    // A running table cannot get a second game.
    let online_path = format!("/v1/tournaments/{id}/tables/1/1/1/online");
    let twice = api.post(&online_path, &referee.token, None).await;
    expect_problem(twice, StatusCode::CONFLICT, "table_already_started").await;

    // The referee voids the game (a player's connection broke) and starts another.
    api.accepted(
        id,
        &referee.token,
        &json!({"command": "void_game", "table": table, "reason": "a player lost the connection"}),
    )
    .await;
    // Players are no longer sent to the voided game.
    let me = api.tournament_read(id, "/me", &at_table[0].token).await;
    assert!(me["seat"]["game_table"].is_null(), "{me}");
    // The player who left is disqualified: the new game seats the other three.
    let (gone, staying) = at_table.split_last().expect("four players");
    api.accepted(
        id,
        &referee.token,
        &json!({"command": "disqualify", "player": gone.id, "reason": "left the venue"}),
    )
    .await;
    let by_player = api.post(&online_path, &players[0].token, None).await;
    expect_problem(by_player, StatusCode::FORBIDDEN, "forbidden").await;
    // Officials open this server's games only through the endpoint.
    let bound_by_hand = api
        .tournament_command(
            id,
            &referee.token,
            &json!({"command": "start_table_game", "table": table, "game": format!("table-{first_game}")}),
            None,
        )
        .await;
    expect_problem(
        bound_by_hand,
        StatusCode::UNPROCESSABLE_ENTITY,
        "online_games_by_server",
    )
    .await;
    let replay = api.post(&online_path, &referee.token, None).await;
    let replay = Api::json_ok(replay, StatusCode::CREATED, "start online").await;
    let second_game = replay["game_table"].as_i64().expect("id");
    assert_ne!(second_game, first_game);
    assert_eq!(replay["table"], table);
    let summary = api.summary(second_game, &staying[0].token).await;
    assert_eq!(summary["seats"].as_array().map(Vec::len), Some(3));
    let me = api.tournament_read(id, "/me", &staying[0].token).await;
    assert_eq!(me["seat"]["game_table"], second_game);

    // The new game counts when it ends; the voided one, finished later, does not.
    play_to_end(&api, second_game, staying, 5_000, 0, |_| async {}).await;
    let after_second = tournament_events(&api, id, &org.token).await;
    let results: Vec<&Value> = after_second
        .iter()
        .filter(|e| e["type"] == "result_recorded.v1")
        .collect();
    assert_eq!(results.len(), 1);
    assert_eq!(
        results[0]["payload"]["input"]["game"],
        format!("table-{second_game}")
    );
    play_to_end(&api, first_game, &at_table, 5_000, 0, |_| async {}).await;
    let after_first = tournament_events(&api, id, &org.token).await;
    assert_eq!(
        after_first.len(),
        after_second.len(),
        "the voided game records nothing"
    );

    // The stored history verifies, the three-seat game's result included.
    let verified = api
        .post(
            &format!("/v1/tournaments/{id}/verify"),
            &referee.token,
            None,
        )
        .await;
    let verified = Api::json_ok(verified, StatusCode::OK, "verify").await;
    assert_eq!(verified["ok"], true, "{verified}");
    assert_eq!(verified["games"]["checked"], 1);
}

#[tokio::test]
async fn commands_name_real_accounts_and_respect_if_match() {
    let app = spawn_app().await;
    let api = app.api();
    let org = app.new_organizer("ida").await;
    let player = app.new_player("pia").await;
    let created = api
        .create_tournament(
            &org.token,
            &json!({"name": "Checks", "rules": {"preset": "israeli"}, "capacity": 4}),
        )
        .await;
    let id = created["id"].as_i64().expect("id");
    let version = created["version"].as_u64().expect("version");
    api.accepted(id, &org.token, &json!({"command": "open_registration"}))
        .await;

    let ghost = api
        .tournament_command(
            id,
            &org.token,
            &json!({"command": "register", "player": 987_654}),
            None,
        )
        .await;
    expect_problem(ghost, StatusCode::UNPROCESSABLE_ENTITY, "unknown_account").await;
    let not_referee = api
        .tournament_command(
            id,
            &org.token,
            &json!({"command": "add_referee", "referee": player.id}),
            None,
        )
        .await;
    expect_problem(
        not_referee,
        StatusCode::UNPROCESSABLE_ENTITY,
        "not_a_referee",
    )
    .await;

    // If-Match: the version before `open_registration` is stale now.
    let stale = api
        .client
        .post(api.url(&format!("/v1/tournaments/{id}/commands")))
        .bearer_auth(&org.token)
        .header("If-Match", format!("\"{version}\""))
        .json(&json!({"command": "register", "player": player.id}))
        .send()
        .await
        .expect("POST");
    expect_problem(
        stale,
        StatusCode::PRECONDITION_FAILED,
        "precondition_failed",
    )
    .await;
    let current = api.tournament_read(id, "", &org.token).await["version"].clone();
    let fresh = api
        .client
        .post(api.url(&format!("/v1/tournaments/{id}/commands")))
        .bearer_auth(&org.token)
        .header("If-Match", format!("\"{current}\""))
        .json(&json!({"command": "register", "player": player.id}))
        .send()
        .await
        .expect("POST");
    Api::json_ok(fresh, StatusCode::OK, "register with If-Match").await;

    // Paging past the end of the stream is an empty page, whatever the cursor, up to the
    // largest the document allows (`int64`; past it is a 422, see `errors.rs`).
    let beyond = api
        .tournament_read(id, &format!("/events?after={}", i64::MAX), &org.token)
        .await;
    assert_eq!(beyond["events"], json!([]));
    assert_eq!(beyond["has_more"], false);
}

#[tokio::test]
async fn a_competitor_with_a_staff_role_sees_other_tables_as_a_spectator() {
    let app = spawn_app().await;
    let api = app.api();
    let org = app.new_organizer("oona").await;
    // An account with the organizer role that enters the tournament as a player.
    let mut players = vec![app.new_organizer("otto").await];
    for i in 1..=7 {
        players.push(app.new_player(&format!("sp{i}")).await);
    }
    let id = api
        .started_tournament(
            &org,
            &players,
            &json!({"name": "Fair cup", "rules": short_rules(), "capacity": 8,
                    "config": {"qualification_rounds": 1, "table_min": 4, "table_max": 4}}),
        )
        .await;
    let drawn = api.draw(id, &org.token, &json!({})).await;
    let stages = api.tournament_read(id, "/stages", &org.token).await;
    let tables = tables_of(&stages, 1, 1);
    let otto = &players[0];
    let elsewhere = tables
        .iter()
        .position(|(_, seated)| !seated.contains(&otto.id))
        .expect("a table without otto");
    let game_table = drawn["online_tables"][elsewhere]["game_table"]
        .as_i64()
        .expect("an online table");

    // The tournament's organizer, who does not play, sees every hand; otto sees what
    // any spectator sees, in the view and in the events.
    let staff = api.view(game_table, &org.token).await;
    assert!(staff["hands"].is_array(), "{staff}");
    let otto_view = api.view(game_table, &otto.token).await;
    check_view_hides(&otto_view, &staff);
    let staff_events = api.events(game_table, &org.token, 0).await;
    let otto_events = api.events(game_table, &otto.token, 0).await;
    check_events_hide(&otto_events, &staff_events, None);
    // Nor may otto audit it while it runs, nor verify it: the head hash it answers
    // covers the hidden stock draws (issue #9 finding 2: they were brute-forced back).
    let audit = api
        .get(&format!("/v1/tables/{game_table}/audit"), &otto.token)
        .await;
    expect_problem(audit, StatusCode::FORBIDDEN, "forbidden").await;
    // Nor diff two versions of it: a diff shows the cards that moved.
    let diff = api
        .get(&format!("/v1/tables/{game_table}/diff?from=1"), &otto.token)
        .await;
    expect_problem(diff, StatusCode::FORBIDDEN, "forbidden").await;
    let diff = api
        .get(&format!("/v1/tables/{game_table}/diff?from=1"), &org.token)
        .await;
    assert_eq!(
        diff.status(),
        StatusCode::OK,
        "the organizer, who does not play, may"
    );
    let verify = api
        .post(
            &format!("/v1/tables/{game_table}/verify"),
            &otto.token,
            None,
        )
        .await;
    expect_problem(verify, StatusCode::FORBIDDEN, "forbidden").await;
    let verify = api
        .post(&format!("/v1/tables/{game_table}/verify"), &org.token, None)
        .await;
    assert_eq!(
        verify.status(),
        StatusCode::OK,
        "the organizer, who does not play, may"
    );
}
