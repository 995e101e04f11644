//! Tournaments in public and under audit: the listing, the reads anyone may make
//! without a token (while a bad token is still refused), and
//! `POST /v1/tournaments/{id}/verify` on clean streams and on streams changed behind
//! the server's back (its hash chain, the draws and results the rules re-derive, and
//! the online games results are taken from).

use reqwest::StatusCode;
use serde_json::{Value, json};
use yaniv_api::store::{EventMetadata, NewEvent, RecordedEvent};
use yaniv_domain::rules::Preset;
use yaniv_domain::shuffle::Seed;
use yaniv_domain::tournament::{Command, Context, PlayerResult, ResultInput, TableRef, Tournament};
use yaniv_e2e_tests::tables::{Api, Player, play_to_end};
use yaniv_e2e_tests::tamper::{Hashes, tamper};
use yaniv_e2e_tests::tournaments::{paper_sheet, tables_of};
use yaniv_e2e_tests::{TestApp, expect_problem, spawn_app};

/// `GET /v1/tournaments{query}` without a token, expecting 200.
async fn list(app: &TestApp, query: &str) -> Value {
    let response = app.get(&format!("/v1/tournaments{query}"), None).await;
    Api::json_ok(response, StatusCode::OK, &format!("list {query}")).await
}

fn listed_ids(page: &Value) -> Vec<i64> {
    page["tournaments"]
        .as_array()
        .expect("tournaments")
        .iter()
        .map(|t| t["id"].as_i64().expect("an id"))
        .collect()
}

async fn create_cup(api: &Api, organizer: &Player, name: &str) -> Value {
    api.create_tournament(
        &organizer.token,
        &json!({"name": name, "rules": {"preset": "belgian"}, "capacity": 8}),
    )
    .await
}

#[tokio::test]
async fn tournaments_are_listed_newest_first_by_phase_and_page_by_page() {
    let app = spawn_app().await;
    let api = app.api();
    let org = app.new_organizer("olga").await;
    let mut ids = Vec::new();
    for name in ["Spring cup", "Summer cup", "Autumn cup"] {
        ids.push(create_cup(&api, &org, name).await["id"].as_i64().unwrap());
    }
    let opened = api
        .accepted(ids[1], &org.token, &json!({"command": "open_registration"}))
        .await;

    let all = list(&app, "").await;
    assert_eq!(listed_ids(&all), vec![ids[2], ids[1], ids[0]]);
    assert!(all["next_before"].is_null());
    let summer = &all["tournaments"][1];
    assert_eq!(summer["name"], "Summer cup");
    assert_eq!(summer["phase"], "registration_open");
    assert_eq!(summer["version"], opened["version"]);
    assert_eq!(
        summer["created_by"],
        json!({"id": org.id, "username": "olga"})
    );
    let created_at = summer["created_at"].as_str().expect("an RFC 3339 time");
    assert_eq!(created_at.as_bytes()[10], b'T', "{created_at}");
    assert!(created_at.ends_with('Z'), "{created_at}");

    // Two per page: the first page says where the next one starts.
    let first = list(&app, "?limit=2").await;
    assert_eq!(listed_ids(&first), vec![ids[2], ids[1]]);
    assert_eq!(first["next_before"], ids[1]);
    let rest = list(&app, &format!("?limit=2&before={}", ids[1])).await;
    assert_eq!(listed_ids(&rest), vec![ids[0]]);
    assert!(rest["next_before"].is_null());

    assert_eq!(
        listed_ids(&list(&app, "?phase=registration_open").await),
        vec![ids[1]]
    );
    assert_eq!(
        listed_ids(&list(&app, "?phase=setup").await),
        vec![ids[2], ids[0]]
    );
    let setup_after = list(&app, &format!("?phase=setup&before={}", ids[2])).await;
    assert_eq!(listed_ids(&setup_after), vec![ids[0]]);
    assert!(listed_ids(&list(&app, "?phase=finished").await).is_empty());

    for (query, status, code) in [
        (
            "?phase=open",
            StatusCode::UNPROCESSABLE_ENTITY,
            "validation_failed",
        ),
        (
            "?limit=0",
            StatusCode::UNPROCESSABLE_ENTITY,
            "validation_failed",
        ),
        (
            "?limit=101",
            StatusCode::UNPROCESSABLE_ENTITY,
            "validation_failed",
        ),
        ("?before=soon", StatusCode::BAD_REQUEST, "invalid_query"),
        ("?status=open", StatusCode::BAD_REQUEST, "invalid_query"),
    ] {
        let response = app.get(&format!("/v1/tournaments{query}"), None).await;
        expect_problem(response, status, code).await;
    }
}

#[tokio::test]
async fn reads_need_no_token_but_a_bad_token_is_refused() {
    let app = spawn_app().await;
    let api = app.api();
    let org = app.new_organizer("olga").await;
    let reader = app.new_player("pat").await;
    let id = create_cup(&api, &org, "Open cup").await["id"]
        .as_i64()
        .unwrap();

    let paths: Vec<String> = ["", "/standings", "/stages", "/ranking", "/events"]
        .iter()
        .map(|suffix| format!("/v1/tournaments/{id}{suffix}"))
        .chain(["/v1/tournaments".to_owned()])
        .collect();
    for path in &paths {
        let anonymous = app.get(path, None).await;
        let anonymous = Api::json_ok(anonymous, StatusCode::OK, path).await;
        let logged_in =
            Api::json_ok(api.get(path, &reader.token).await, StatusCode::OK, path).await;
        assert_eq!(anonymous, logged_in, "{path}: the same for everyone");
    }

    // A token that no longer works is refused rather than ignored.
    let stale = login_again(&app, "pat").await;
    let response = app
        .client
        .delete(app.url("/v1/sessions/current"))
        .bearer_auth(&stale)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::NO_CONTENT);
    for path in &paths {
        for token in [stale.as_str(), "not-a-token"] {
            let response = app.get(path, Some(token)).await;
            expect_problem(response, StatusCode::UNAUTHORIZED, "invalid_token").await;
        }
    }

    let missing = app.get(&format!("/v1/tournaments/{}", id + 1), None).await;
    expect_problem(missing, StatusCode::NOT_FOUND, "not_found").await;
    // Writing and verifying still need a token.
    let body = json!({"name": "Cup", "rules": {"preset": "belgian"}, "capacity": 8});
    let response = app.post_json("/v1/tournaments", &body, None).await;
    expect_problem(response, StatusCode::UNAUTHORIZED, "unauthenticated").await;
    let response = app
        .post_json(
            &format!("/v1/tournaments/{id}/commands"),
            &json!({"command": "open_registration"}),
            None,
        )
        .await;
    expect_problem(response, StatusCode::UNAUTHORIZED, "unauthenticated").await;
    let response = app
        .post_json(&format!("/v1/tournaments/{id}/verify"), &json!({}), None)
        .await;
    expect_problem(response, StatusCode::UNAUTHORIZED, "unauthenticated").await;
}

/// A second session of `username` (registered by `TestApp::player`): its token.
async fn login_again(app: &TestApp, username: &str) -> String {
    let response = app
        .login(username, &format!("password-of-{username}"))
        .await;
    let body = Api::json_ok(response, StatusCode::CREATED, "log in").await;
    body["token"].as_str().expect("token").to_owned()
}

/// `POST /v1/tournaments/{id}/verify` as `token`, expecting 200.
async fn verify(api: &Api, id: i64, token: &str) -> Value {
    let response = api
        .post(&format!("/v1/tournaments/{id}/verify"), token, None)
        .await;
    Api::json_ok(response, StatusCode::OK, "verify").await
}

/// The stored events of `stream`.
async fn stored(app: &TestApp, stream: &str) -> Vec<RecordedEvent> {
    app.store.read_stream(stream, 1, 1000).await.unwrap()
}

/// The version of the first stored event of `stream` of type `event_type` that
/// `pick` accepts (given its payload).
async fn version_of(
    app: &TestApp,
    stream: &str,
    event_type: &str,
    pick: impl Fn(&Value) -> bool,
) -> u64 {
    stored(app, stream)
        .await
        .iter()
        .find(|e| {
            e.event_type == event_type
                && pick(&serde_json::from_str(&e.payload).expect("JSON payload"))
        })
        .map(|e| e.version as u64)
        .unwrap_or_else(|| panic!("no {event_type} in {stream}"))
}

/// 8 players at two paper tables of 4; table 1's result is a referee's sheet round by
/// round, table 2's its final standings without a game id. Returns the app's API,
/// the tournament, its organizer and the players.
async fn paper_round(app: &TestApp) -> (Api, i64, Player, Vec<Player>) {
    let api = app.api();
    let org = app.new_organizer("olga").await;
    let mut players = Vec::new();
    for i in 1..=8 {
        players.push(app.new_player(&format!("player{i}")).await);
    }
    let id = api
        .started_tournament(
            &org,
            &players,
            &json!({"name": "Club cup", "rules": {"preset": "belgian"}, "capacity": 8,
                    "config": {"qualification_rounds": 1, "table_min": 4, "table_max": 4}}),
        )
        .await;
    api.draw(id, &org.token, &json!({"paper_tables": [1, 2]}))
        .await;
    let stages = api.tournament_read(id, "/stages", &org.token).await;
    let tables = tables_of(&stages, 1, 1);
    assert_eq!(tables.len(), 2);
    let (sheet, _) = paper_sheet(&Preset::Belgian.rules(), &tables[0].1);
    api.accepted(
        id,
        &org.token,
        &json!({"command": "record_result", "table": tables[0].0, "input": sheet}),
    )
    .await;
    let standings: Vec<Value> = tables[1]
        .1
        .iter()
        .enumerate()
        .map(|(i, p)| json!({"player": p, "total": 15 * i, "place": i + 1}))
        .collect();
    api.accepted(
        id,
        &org.token,
        &json!({"command": "record_result", "table": tables[1].0,
                "input": {"source": "game", "standings": standings}}),
    )
    .await;
    (api, id, org, players)
}

fn assert_clean(verdict: &Value, version: &Value) {
    assert_eq!(verdict["ok"], true, "{verdict}");
    assert_eq!(verdict["version"], *version);
    assert_eq!(verdict["events_checked"], *version);
    assert!(verdict["first_failure"].is_null());
    for check in ["chain", "domain", "games"] {
        assert_eq!(verdict[check]["ok"], true, "{check}: {verdict}");
    }
    assert_eq!(verdict["head_hash"].as_str().map(str::len), Some(64));
}

#[tokio::test]
async fn a_clean_tournament_verifies_for_its_officials_and_admins_only() {
    let app = spawn_app().await;
    let (api, id, org, players) = paper_round(&app).await;
    let version = api.tournament_read(id, "", &org.token).await["version"].clone();

    let verdict = verify(&api, id, &org.token).await;
    assert_clean(&verdict, &version);
    // Paper sheets and final standings without a game id are the officials' word.
    assert_eq!(verdict["games"]["checked"], 0);

    // A referee role names nobody: only a referee this tournament names verifies it.
    let referee = app.new_referee("rita").await;
    let refused = api
        .post(
            &format!("/v1/tournaments/{id}/verify"),
            &referee.token,
            None,
        )
        .await;
    expect_problem(refused, StatusCode::FORBIDDEN, "forbidden").await;
    let (_, admin) = app.admin().await;
    assert_clean(&verify(&api, id, &admin).await, &version);

    let refused = api
        .post(
            &format!("/v1/tournaments/{id}/verify"),
            &players[0].token,
            None,
        )
        .await;
    expect_problem(refused, StatusCode::FORBIDDEN, "forbidden").await;
    let missing = api
        .post(
            &format!("/v1/tournaments/{}/verify", id + 1),
            &org.token,
            None,
        )
        .await;
    expect_problem(missing, StatusCode::NOT_FOUND, "not_found").await;

    // Without the organizer role, olga no longer organizes this tournament (#27:
    // powers end with the role).
    app.set_roles(org.id, &["player"]).await;
    let refused = api
        .post(&format!("/v1/tournaments/{id}/verify"), &org.token, None)
        .await;
    expect_problem(refused, StatusCode::FORBIDDEN, "forbidden").await;
}

#[tokio::test]
async fn a_changed_result_is_caught_by_the_chain_then_by_the_rules() {
    let app = spawn_app().await;
    let (api, id, org, _) = paper_round(&app).await;
    let stream = format!("tournament-{id}");
    let at = version_of(&app, &stream, "result_recorded.v1", |p| {
        p["input"]["source"] == "game"
    })
    .await;
    let raise_the_winner = |payload: &mut Value| {
        let total = payload["result"][0]["total"].as_u64().unwrap();
        payload["result"][0]["total"] = json!(total + 1);
    };

    tamper(&app, &stream, at, Hashes::Kept, raise_the_winner).await;
    let verdict = verify(&api, id, &org.token).await;
    assert_eq!(verdict["ok"], false, "{verdict}");
    assert_eq!(
        verdict["first_failure"],
        json!({"check": "chain", "version": at, "code": "hash_mismatch",
               "reason": verdict["chain"]["first_failure"]["reason"]})
    );
    assert_eq!(verdict["domain"]["first_failure"]["version"], at);
    assert_eq!(
        verdict["domain"]["first_failure"]["code"],
        "result_mismatch"
    );
    assert_eq!(verdict["events_checked"], at);
    assert!(verdict["head_hash"].is_null());

    // The forger recomputes every later hash: the rules still see the result.
    tamper(&app, &stream, at, Hashes::Recomputed, |_| {}).await;
    let verdict = verify(&api, id, &org.token).await;
    assert_eq!(verdict["chain"]["ok"], true, "{verdict}");
    assert_eq!(verdict["ok"], false);
    assert_eq!(verdict["first_failure"]["check"], "domain");
    assert_eq!(verdict["first_failure"]["version"], at);
    assert_eq!(verdict["first_failure"]["code"], "result_mismatch");
    assert!(verdict["head_hash"].is_string());
}

#[tokio::test]
async fn a_changed_draw_is_caught_by_its_revealed_seed() {
    let app = spawn_app().await;
    let (api, id, org, _) = paper_round(&app).await;
    let stream = format!("tournament-{id}");
    let at = version_of(&app, &stream, "round_drawn.v1", |_| true).await;

    // Two players change tables; the hashes are recomputed.
    tamper(&app, &stream, at, Hashes::Recomputed, |payload| {
        let first = payload["tables"][0][0].clone();
        payload["tables"][0][0] = payload["tables"][1][0].clone();
        payload["tables"][1][0] = first;
    })
    .await;
    let verdict = verify(&api, id, &org.token).await;
    assert_eq!(verdict["chain"]["ok"], true, "{verdict}");
    assert_eq!(verdict["first_failure"]["check"], "domain", "{verdict}");
    assert_eq!(verdict["first_failure"]["version"], at);
    assert_eq!(verdict["first_failure"]["code"], "draw_mismatch");

    // Another seed with its own commitment: not the seed committed before the draw.
    tamper(&app, &stream, at, Hashes::Recomputed, |payload| {
        let seed = Seed([7; 32]);
        payload["seed"] = json!(seed.to_hex());
        payload["commitment"] = json!(seed.commitment().to_hex());
    })
    .await;
    let verdict = verify(&api, id, &org.token).await;
    assert_eq!(verdict["first_failure"]["version"], at, "{verdict}");
    assert_eq!(verdict["first_failure"]["code"], "seed_mismatch");

    // An event nobody can read is a finding too.
    tamper(&app, &stream, at, Hashes::Recomputed, |payload| {
        payload["tables"] = json!("nonsense");
    })
    .await;
    let verdict = verify(&api, id, &org.token).await;
    assert_eq!(verdict["first_failure"]["version"], at, "{verdict}");
    assert_eq!(verdict["first_failure"]["code"], "undecodable_event");
    assert_eq!(verdict["events_checked"], at);
}

/// Two players of an Israeli game eliminated above 60 (a short game).
fn short_israeli() -> Value {
    json!({"preset": "israeli",
           "overrides": {"game_end": {"elimination": {"limit": 60, "at_limit": false}}}})
}

/// Appends `tournament`'s events as the stream of tournament `id` (no projection row:
/// the verification reads the stream alone).
async fn store_stream(app: &TestApp, id: i64, tournament: &Tournament, actor: i64) {
    let events: Vec<NewEvent> = tournament
        .events()
        .iter()
        .map(|e| NewEvent::new(e.type_name(), e).unwrap())
        .collect();
    app.store
        .append(
            &format!("tournament-{id}"),
            0,
            &events,
            &EventMetadata::new(format!("account:{actor}")),
        )
        .await
        .unwrap();
}

#[tokio::test]
async fn results_of_online_games_are_checked_against_their_games() {
    let app = spawn_app().await;
    let api = app.api();
    let org = app.new_organizer("olga").await;
    let people = [app.new_player("ann").await, app.new_player("bob").await];

    // A tournament of two, decided by the rules engine, up to its first draw.
    let ctx = Context::account(org.id, 0);
    let mut drawn = Tournament::new();
    let run = |t: &mut Tournament, command: Command| {
        t.execute(&ctx, &command)
            .unwrap_or_else(|e| panic!("{command:?}: {e}"));
    };
    run(
        &mut drawn,
        serde_json::from_value(json!({
            "command": "create", "name": "Online cup", "rules": short_israeli(), "capacity": 2,
            "config": {"qualification_rounds": 1, "table_min": 2, "table_max": 2,
                       "advance_per_table": 1},
        }))
        .unwrap(),
    );
    run(&mut drawn, Command::OpenRegistration);
    for p in &people {
        run(&mut drawn, Command::Register { player: p.id });
        run(&mut drawn, Command::CheckIn { player: p.id });
    }
    run(&mut drawn, Command::CloseRegistration);
    run(&mut drawn, Command::StartQualification { seeding: None });
    run(
        &mut drawn,
        Command::DrawRound {
            seed: Seed([5; 32]),
        },
    );
    let at = TableRef {
        stage: 1,
        round: 1,
        table: 1,
    };
    let seated = drawn.state().table(at).unwrap().players.clone();
    let humans: Vec<Player> = seated
        .iter()
        .map(|id| people.iter().find(|p| p.id == *id).unwrap().clone())
        .collect();

    // The table's game, online, in the drawn seat order; and one never played.
    let mut table_body = short_israeli();
    table_body["seats"] = json!(2);
    let played = api.started_table(&table_body, &humans).await;
    let summary = play_to_end(&api, played, &humans, 5_000, 0, |_| async {})
        .await
        .summary;
    let standings: Vec<PlayerResult> = summary["standings"]
        .as_array()
        .expect("final standings")
        .iter()
        .map(|s| PlayerResult {
            player: seated[s["seat"].as_u64().unwrap() as usize],
            total: s["total"].as_u64().unwrap() as u32,
            place: s["place"].as_u64().unwrap() as u8,
        })
        .collect();
    let unplayed = api.started_table(&table_body, &humans).await;

    // One tournament stream per claim about the table's game. These games were opened
    // through `/v1/tables`, not by a tournament's draw: even the one whose standings
    // match proves nothing about this table. (Games a draw opened are checked in
    // `a_game_the_server_recorded_verifies_until_its_result_is_changed` and in the
    // unit tests of `verify/src/tournament/mod.rs`.)
    let claims = [
        (
            format!("table-{played}"),
            standings.clone(),
            Some("game_not_linked"),
        ),
        (
            format!("table-{unplayed}"),
            standings.clone(),
            Some("game_not_linked"),
        ),
        (
            format!("table-{}", unplayed + 100),
            standings.clone(),
            Some("game_not_found"),
        ),
        // Not a game of this server: the officials' word.
        ("club-sheet-7".to_owned(), standings.clone(), None),
    ];
    for (k, (game, standings, failure)) in claims.into_iter().enumerate() {
        let mut tournament = drawn.clone();
        run(
            &mut tournament,
            Command::StartTableGame {
                table: at,
                game: Some(game.clone()),
            },
        );
        run(
            &mut tournament,
            Command::RecordResult {
                reason: Some("entered from the finished game".into()),
                table: at,
                input: ResultInput::Game {
                    game: Some(game.clone()),
                    standings,
                },
            },
        );
        let id = 1_000_000 + k as i64;
        store_stream(&app, id, &tournament, org.id).await;
        let verdict = verify(&api, id, &org.token).await;
        assert_eq!(verdict["domain"]["ok"], true, "{game}: {verdict}");
        let linked = game.starts_with("table-");
        assert_eq!(verdict["games"]["checked"], u64::from(linked), "{verdict}");
        match failure {
            None => assert_clean(&verdict, &json!(tournament.version())),
            Some(code) => {
                assert_eq!(verdict["ok"], false, "{game}: {verdict}");
                assert_eq!(
                    verdict["first_failure"]["check"], "game",
                    "{game}: {verdict}"
                );
                assert_eq!(verdict["first_failure"]["version"], tournament.version());
                assert_eq!(verdict["first_failure"]["code"], code, "{verdict}");
            }
        }
    }
}

#[tokio::test]
async fn a_game_the_server_recorded_verifies_until_its_result_is_changed() {
    let app = spawn_app().await;
    let api = app.api();
    let org = app.new_organizer("olga").await;
    let people = vec![app.new_player("ann").await, app.new_player("bob").await];
    let id = api
        .started_tournament(
            &org,
            &people,
            &json!({"name": "Online cup", "rules": short_israeli(), "capacity": 2,
                    "config": {"qualification_rounds": 1, "table_min": 2, "table_max": 2,
                               "advance_per_table": 1}}),
        )
        .await;
    let drawn = api.draw(id, &org.token, &json!({})).await;
    let game_table = drawn["online_tables"][0]["game_table"]
        .as_i64()
        .expect("an online table");
    play_to_end(&api, game_table, &people, 5_000, 0, |_| async {}).await;

    let version = api.tournament_read(id, "", &org.token).await["version"].clone();
    let verdict = verify(&api, id, &org.token).await;
    assert_clean(&verdict, &version);
    assert_eq!(verdict["games"]["checked"], 1, "{verdict}");

    // The forger changes the recorded standings and the result alike, and rehashes:
    // the rules find nothing wrong, the game does.
    let stream = format!("tournament-{id}");
    let at = version_of(&app, &stream, "result_recorded.v1", |_| true).await;
    tamper(&app, &stream, at, Hashes::Recomputed, |payload| {
        let add_five = |lines: &mut Value| {
            for line in lines.as_array_mut().expect("lines") {
                let total = line["total"].as_u64().unwrap();
                line["total"] = json!(total + 5);
            }
        };
        add_five(&mut payload["result"]);
        add_five(&mut payload["input"]["standings"]);
    })
    .await;
    let verdict = verify(&api, id, &org.token).await;
    assert_eq!(verdict["chain"]["ok"], true, "{verdict}");
    assert_eq!(verdict["domain"]["ok"], true, "{verdict}");
    assert_eq!(verdict["ok"], false);
    assert_eq!(verdict["first_failure"]["check"], "game");
    assert_eq!(verdict["first_failure"]["version"], at);
    assert_eq!(verdict["first_failure"]["code"], "game_result_mismatch");
}

#[tokio::test]
async fn a_tournament_verifies_only_if_its_games_verify_too() {
    let app = spawn_app().await;
    let api = app.api();
    let org = app.new_organizer("olga").await;
    let people = vec![app.new_player("ann").await, app.new_player("bob").await];
    let id = api
        .started_tournament(
            &org,
            &people,
            &json!({"name": "Online cup", "rules": short_israeli(), "capacity": 2,
                    "config": {"qualification_rounds": 1, "table_min": 2, "table_max": 2,
                               "advance_per_table": 1}}),
        )
        .await;
    let drawn = api.draw(id, &org.token, &json!({})).await;
    let game_table = drawn["online_tables"][0]["game_table"]
        .as_i64()
        .expect("an online table");
    play_to_end(&api, game_table, &people, 5_000, 0, |_| async {}).await;
    let version = api.tournament_read(id, "", &org.token).await["version"].clone();
    assert_clean(&verify(&api, id, &org.token).await, &version);

    // A forger edits the game's stream (not the tournament's) without re-chaining it.
    tamper(
        &app,
        &format!("table-{game_table}"),
        1,
        Hashes::Kept,
        |payload| {
            payload["created_by"]["username"] = json!("mallory");
        },
    )
    .await;
    let verdict = verify(&api, id, &org.token).await;
    assert_eq!(verdict["chain"]["ok"], true, "{verdict}");
    assert_eq!(verdict["domain"]["ok"], true, "{verdict}");
    assert_eq!(verdict["ok"], false, "{verdict}");
    assert_eq!(verdict["first_failure"]["check"], "game");
    assert_eq!(verdict["first_failure"]["code"], "game_stream_invalid");
    let reason = verdict["first_failure"]["reason"].as_str().unwrap_or("");
    assert!(reason.contains("hash_mismatch"), "{reason}");
}
