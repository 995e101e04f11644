//! Issue #27, "No one can see or steer a live deal": each of its findings, tried again
//! as the dishonest player, official and operator who found it would, and refused now.
//!
//! 1. The archive of a running tournament held live deals.
//! 2. Player entropy did not hold against any staff account.
//! 3. An organizer could take over another organizer's door-list accounts.
//! 4. Seatings could be shopped with redraws.
//! 5. A playing official could act on rivals' tables.
//! 6. Powers outlived the role.
//! 7. The log-in page could send the browser to another origin.
//!
//! And the smaller ones: CSV cells a spreadsheet would compute, names that do not show
//! as written. `trust_property.rs` plays whole tournaments read by every kind of actor.

use reqwest::StatusCode;
use serde_json::{Value, json};
use yaniv_api::checkpoints;
use yaniv_e2e_tests::browser::Browser;
use yaniv_e2e_tests::cli::verify_offline;
use yaniv_e2e_tests::tables::{Api, Player};
use yaniv_e2e_tests::tournaments::tables_of;
use yaniv_e2e_tests::{TestApp, expect_problem, spawn_app};

/// Belgian rules, games to 40: short games.
fn short_rules() -> Value {
    json!({"preset": "belgian", "overrides": {"game_end": {"lowest_wins": {"limit": 40, "at_limit": false}}}})
}

/// A cup at tables of four, one qualification round.
fn cup(name: &str, capacity: usize, config: Value) -> Value {
    let mut body = json!({
        "name": name, "rules": short_rules(), "capacity": capacity,
        "config": {"qualification_rounds": 1, "table_min": 4, "table_max": 4},
    });
    if let (Some(base), Some(extra)) = (body["config"].as_object_mut(), config.as_object()) {
        base.extend(extra.clone());
    }
    body
}

/// Tournament `body` organized by `org` with `rita` named referee before anyone
/// registers, `entrants` registered and checked in, its first round drawn with the
/// draw `draw` asks for: the tournament, the draw's answer and the seating by table.
async fn drawn_cup(
    api: &Api,
    (org, rita): (&Player, &Player),
    entrants: &[Player],
    body: &Value,
    draw: &Value,
) -> (i64, Value, Vec<(Value, Vec<i64>)>) {
    let id = api
        .started_tournament_refereed(org, &[rita], entrants, body)
        .await;
    let drawn = api.draw(id, &org.token, draw).await;
    let seating = tables_of(&api.tournament_read(id, "/stages", &org.token).await, 1, 1);
    (id, drawn, seating)
}

async fn players(app: &TestApp, prefix: &str, n: usize) -> Vec<Player> {
    let mut all = Vec::new();
    for i in 1..=n {
        all.push(app.new_player(&format!("{prefix}{i}")).await);
    }
    all
}

async fn archive(api: &Api, id: i64, token: &str) -> reqwest::Response {
    api.get(&format!("/v1/tournaments/{id}/archive"), token)
        .await
}

/// What the database holds of a table's stream: each row's version, type and payload.
async fn stored(app: &TestApp, table: i64) -> Vec<(u64, String, Value)> {
    let rows: Vec<(i64, String, String)> = sqlx::query_as(
        "SELECT version, event_type, payload FROM events WHERE stream_id = $1 ORDER BY version",
    )
    .bind(format!("table-{table}"))
    .fetch_all(&app.db)
    .await
    .expect("the stored stream");
    rows.into_iter()
        .map(|(v, t, p)| (v as u64, t, serde_json::from_str(&p).expect("JSON")))
        .collect()
}

/// The secrets of the round in play of a stored stream, as the test reads them: where
/// they begin (the server's committed seed for the deal, or the deal), and every seed
/// among them, hex.
fn live_secrets(events: &[(u64, String, Value)]) -> Option<(u64, Vec<String>)> {
    let ended = events
        .iter()
        .rposition(|(_, t, _)| t == "round_ended.v1")
        .map_or(0, |i| i + 1);
    let mut from = None;
    let mut seeds = Vec::new();
    for (version, kind, payload) in &events[ended..] {
        let seed = match kind.as_str() {
            "deal_seed_committed.v1" => payload["seed"].as_str(),
            "round_dealt.v1" => payload["deal"]["seed"].as_str(),
            _ => continue,
        };
        from.get_or_insert(*version);
        seeds.extend(seed.map(str::to_owned));
    }
    from.map(|from| (from, seeds))
}

/// Checks an archive of a running tournament against what the database holds: every
/// game stream stops where its round in play begins and says so, no live seed is in
/// it, no checkpoint head past the cut; and both verifiers accept it.
async fn check_sealed_archive(app: &TestApp, archive: &Value) {
    let text = archive.to_string();
    let mut sealed = 0;
    for stream in archive["streams"].as_array().expect("streams") {
        let Some(table) = stream["stream_id"]
            .as_str()
            .and_then(|s| s.strip_prefix("table-"))
        else {
            continue;
        };
        let table: i64 = table.parse().expect("a table id");
        let truth = stored(app, table).await;
        let events = stream["events"].as_array().expect("events");
        match live_secrets(&truth) {
            Some((from, seeds)) => {
                sealed += 1;
                assert_eq!(stream["sealed_from"], from, "table {table}");
                assert_eq!(events.len() as u64, from - 1, "table {table}");
                for seed in seeds {
                    assert!(
                        !text.contains(&seed),
                        "table {table}: a live seed is archived"
                    );
                }
                for checkpoint in archive["checkpoints"].as_array().expect("checkpoints") {
                    for head in checkpoint["heads"].as_array().expect("heads") {
                        if head["stream_id"] == stream["stream_id"] {
                            assert!(head["version"].as_u64() < Some(from), "{head}");
                        }
                    }
                }
            }
            None => {
                assert!(stream.get("sealed_from").is_none());
                assert_eq!(events.len(), truth.len());
            }
        }
    }
    assert!(sealed > 0, "a round is in play at some table");
    let (status, verdict) = verify_offline(archive);
    assert_eq!(status, 0, "{verdict:#}");
    assert_eq!(
        verdict["sealed"].as_array().map(Vec::len),
        Some(sealed),
        "{verdict:#}"
    );
}

/// Finding 1: an account holding player + organizer (or referee) registered in another
/// organizer's cup read the live seeds from its archive; so did a playing official and
/// a seated admin. Now the archive of a running tournament is for its officials and
/// admins, and holds no round in play for anyone.
#[tokio::test]
async fn the_archive_of_a_running_tournament_holds_no_live_deal() {
    let app = spawn_app().await;
    let api = app.api();
    let org = app.new_organizer("olga").await;
    let rita = app.new_referee("rita").await;
    // A competitor with the organizer role, and an admin who plays.
    let otto = app.new_organizer("otto").await;
    let (admin_id, admin) = app.admin().await;
    let admin_player = Player {
        name: "admin".into(),
        id: admin_id,
        token: admin.clone(),
    };
    let mut entrants = vec![otto.clone(), admin_player];
    entrants.extend(players(&app, "ap", 6).await);
    let body = cup("Live cup", 8, json!({}));
    let (id, drawn, seating) = drawn_cup(&api, (&org, &rita), &entrants, &body, &json!({})).await;
    let not_otto = seating
        .iter()
        .position(|(_, seated)| !seated.contains(&otto.id))
        .expect("a table without otto");
    let game = drawn["online_tables"][not_otto]["game_table"]
        .as_i64()
        .expect("an online table");
    checkpoints::write(&app.db).await.expect("a checkpoint");

    // Otto may not audit a rival's table, nor read the archive before the finish.
    let audit = api
        .get(&format!("/v1/tables/{game}/audit"), &otto.token)
        .await;
    expect_problem(audit, StatusCode::FORBIDDEN, "forbidden").await;
    expect_problem(
        archive(&api, id, &otto.token).await,
        StatusCode::FORBIDDEN,
        "forbidden",
    )
    .await;
    // Its officials and the admin (who plays here) may, and find no live deal in it.
    for token in [&org.token, &rita.token, &admin] {
        let response = archive(&api, id, token).await;
        let body = Api::json_ok(response, StatusCode::OK, "the archive").await;
        check_sealed_archive(&app, &body).await;
    }
    // Nor does any of them see a live seed in a table's events.
    for token in [&org.token, &rita.token, &admin, &otto.token] {
        for event in api.events(game, token, 0).await {
            if event["type"] == "round_dealt.v1" {
                assert!(event["payload"]["deal"]["seed"].is_null(), "{event}");
            }
        }
    }
}

/// Finding 2: the server's seed of a table with player entropy reached staff before the
/// seats contributed, so a seat contributing last could choose its deal. Now nobody
/// sees it until its round is over, through any read; what everyone sees is its
/// SHA-256, which the database's seed matches.
#[tokio::test]
async fn the_servers_entropy_seed_is_sealed_for_everyone_until_its_round_ends() {
    let app = spawn_app().await;
    let api = app.api();
    let org = app.new_organizer("olga").await;
    let rita = app.new_referee("rita").await;
    let (_, admin) = app.admin().await;
    let seated = players(&app, "ep", 4).await;
    let body = cup("Entropy cup", 4, json!({"player_entropy": true}));
    let (id, drawn, _) = drawn_cup(&api, (&org, &rita), &seated, &body, &json!({})).await;
    let game = drawn["online_tables"][0]["game_table"].as_i64().unwrap();
    let truth = stored(&app, game).await;
    let (from, seeds) = live_secrets(&truth).expect("the commitment waits for contributions");
    let committed = truth
        .iter()
        .find(|(_, t, _)| t == "deal_seed_committed.v1")
        .expect("a commitment");
    assert_eq!(committed.0, from);
    assert_eq!(
        committed.2["commitment"],
        yaniv_e2e_tests::tournaments::sha256_hex(&seeds[0])
    );
    for token in [&org.token, &rita.token, &admin, &seated[0].token] {
        let seen = api.events(game, token, 0).await;
        let commitment = seen
            .iter()
            .find(|e| e["type"] == "deal_seed_committed.v1")
            .expect("the commitment is public");
        assert!(commitment["payload"]["seed"].is_null(), "{commitment}");
        assert_eq!(
            commitment["payload"]["commitment"],
            committed.2["commitment"]
        );
        let view = api.view(game, token).await;
        assert!(!view.to_string().contains(&seeds[0]));
    }
    for token in [&org.token, &admin] {
        let response = archive(&api, id, token).await;
        let body = Api::json_ok(response, StatusCode::OK, "the archive").await;
        assert!(!body.to_string().contains(&seeds[0]));
        check_sealed_archive(&app, &body).await;
    }
}

async fn set_up(app: &TestApp, username: &str, code: &str) -> reqwest::Response {
    app.post_json(
        "/v1/accounts/setup",
        &json!({"username": username, "code": code, "password": "vic's own password"}),
        None,
    )
    .await
}

async fn reissue(app: &TestApp, id: i64, account: i64, token: &str) -> reqwest::Response {
    app.client
        .post(app.url(&format!(
            "/v1/tournaments/{id}/players/{account}/setup-code"
        )))
        .bearer_auth(token)
        .send()
        .await
        .expect("POST setup-code")
}

fn no_store(response: &reqwest::Response) -> bool {
    response
        .headers()
        .get("cache-control")
        .is_some_and(|v| v == "no-store")
}

/// Finding 3: organizer B registered `VIC` by CSV in its own cup and got a fresh
/// set-up code for organizer A's pending `vic`, then logged in as vic. Now a door list
/// never issues a code for an account that exists; only the organizer of the
/// tournament that created it (or an admin) reissues one, and the reissue is recorded.
#[tokio::test]
async fn an_organizer_cannot_take_over_another_cups_door_accounts() {
    let app = spawn_app().await;
    let api = app.api();
    let anna = app.new_organizer("anna").await;
    let bert = app.new_organizer("bert").await;
    let mut ids = Vec::new();
    for (org, name) in [(&anna, "Cup A"), (&bert, "Cup B")] {
        let created = api
            .create_tournament(&org.token, &cup(name, 8, json!({})))
            .await;
        ids.push(created["id"].as_i64().unwrap());
    }
    let (a, b) = (ids[0], ids[1]);

    let response = app.door_list(a, &anna.token, "username\nvic\n").await;
    assert!(no_store(&response), "a door list's answer carries codes");
    let rows = Api::json_ok(response, StatusCode::OK, "A's list").await;
    let vic = rows["rows"][0]["account"].as_i64().unwrap();
    let first_code = rows["rows"][0]["setup_code"].as_str().unwrap().to_owned();

    // B lists the same name in any case: the account is found, no code comes with it.
    let response = app.door_list(b, &bert.token, "username\nVIC\n").await;
    let rows = Api::json_ok(response, StatusCode::OK, "B's list").await;
    let row = &rows["rows"][0];
    assert_eq!(row["account"], vic);
    assert_eq!(row["username"], "vic", "the account's own name");
    assert_eq!(row["account_created"], false);
    assert!(row.get("setup_code").is_none(), "{row}");
    // Nor may B ask for one, from its cup or from A's.
    for cup in [b, a] {
        expect_problem(
            reissue(&app, cup, vic, &bert.token).await,
            StatusCode::FORBIDDEN,
            "forbidden",
        )
        .await;
    }

    // A reissues (the player lost the slip): the old code stops working, the new one
    // works, and the reissue is on record.
    let response = reissue(&app, a, vic, &anna.token).await;
    assert!(no_store(&response));
    let issued = Api::json_ok(response, StatusCode::OK, "A reissues").await;
    let second_code = issued["setup_code"].as_str().unwrap().to_owned();
    assert_ne!(second_code, first_code);
    expect_problem(
        set_up(&app, "vic", &first_code).await,
        StatusCode::FORBIDDEN,
        "invalid_setup_code",
    )
    .await;
    let done = set_up(&app, "VIC", &second_code).await;
    assert_eq!(done.status(), StatusCode::OK);
    let log: Vec<(i64, Option<i64>, Option<i64>, bool)> = sqlx::query_as(
        "SELECT account_id, issued_by, tournament_id, reissue FROM account_setup_code_issues \
         ORDER BY id",
    )
    .fetch_all(&app.db)
    .await
    .unwrap();
    assert_eq!(
        log,
        [
            (vic, Some(anna.id), Some(a), false),
            (vic, Some(anna.id), Some(a), true)
        ]
    );
    // Set up, the account takes no more codes, from anyone.
    let (_, admin) = app.admin().await;
    expect_problem(
        reissue(&app, a, vic, &admin).await,
        StatusCode::CONFLICT,
        "account_active",
    )
    .await;
    let login = app.login("vic", "vic's own password").await;
    assert_eq!(login.status(), StatusCode::CREATED);
}

/// Finding 4: a round drawn all on paper could be redrawn again and again, each time
/// from a new seed, until the seating suited; redraws were not listed. Now a round is
/// redrawn at most `redraws_per_round` times (1 by default), and every redraw is an
/// intervention with who, why and the seating it replaced.
#[tokio::test]
async fn a_round_is_redrawn_at_most_once_and_every_redraw_is_listed() {
    let app = spawn_app().await;
    let api = app.api();
    let org = app.new_organizer("olga").await;
    let entrants = players(&app, "rp", 8).await;
    let id = api
        .started_tournament(&org, &entrants, &cup("Paper cup", 8, json!({})))
        .await;
    api.draw(id, &org.token, &json!({"paper_tables": [1, 2]}))
        .await;
    let before = tables_of(&api.tournament_read(id, "/stages", &org.token).await, 1, 1);
    let redraw = json!({"redraw": {"stage": 1, "round": 1, "reason": "two players swapped seats"},
                        "paper_tables": [1, 2]});
    api.draw(id, &org.token, &redraw).await;
    let response = api
        .post(
            &format!("/v1/tournaments/{id}/draws"),
            &org.token,
            Some(&redraw),
        )
        .await;
    expect_problem(response, StatusCode::CONFLICT, "redraw_limit_reached").await;

    let listed = api.tournament_read(id, "/interventions", &org.token).await;
    let redraws: Vec<&Value> = listed["interventions"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["kind"] == "round_redrawn")
        .collect();
    assert_eq!(redraws.len(), 1, "{listed}");
    assert_eq!(redraws[0]["by"], json!({"account": org.id}));
    assert_eq!(redraws[0]["reason"], "two players swapped seats");
    assert_eq!(redraws[0]["round"], json!({"stage": 1, "round": 1}));
    let replaced: Vec<Vec<i64>> = before.iter().map(|(_, seated)| seated.clone()).collect();
    assert_eq!(redraws[0]["replaced"]["tables"], json!(replaced));

    // The public page of the stages says it too: who, why, the seating replaced.
    let browser = Browser::launch(1280, 900).await;
    browser
        .goto(&app.url(&format!("/t/{id}/stages?lang=en")))
        .await;
    let note = browser
        .eval("document.querySelector('.redraw') && document.querySelector('.redraw').innerText")
        .await;
    let note = note.as_str().expect("a redraw note");
    assert!(
        note.contains("Redrawn by olga: two players swapped seats"),
        "{note}"
    );
    let first = entrants.iter().find(|p| p.id == replaced[0][0]).unwrap();
    assert!(note.contains(&first.name), "{note}");
    browser.check_page("stages-redrawn").await;
}

/// A cup of 8 at two online tables whose organizer plays, with rita as the referee who
/// does not: the organizer, a rival of the organizer's table and that rival's table.
async fn cup_whose_organizer_plays(
    app: &TestApp,
) -> (Api, i64, Player, Player, Player, Value, i64) {
    let api = app.api();
    let org = app.new_organizer("olga").await;
    let rita = app.new_referee("rita").await;
    let mut entrants = vec![org.clone()];
    entrants.extend(players(app, "pp", 7).await);
    let body = cup("Club night", 8, json!({"officials_may_play": true}));
    let (id, drawn, seating) = drawn_cup(&api, (&org, &rita), &entrants, &body, &json!({})).await;
    let rival_table = seating
        .iter()
        .position(|(_, seated)| !seated.contains(&org.id))
        .expect("a table without the organizer");
    let (at, seated) = seating[rival_table].clone();
    let rival = entrants
        .iter()
        .find(|p| p.id == seated[0])
        .cloned()
        .expect("a rival");
    let game = drawn["online_tables"][rival_table]["game_table"]
        .as_i64()
        .unwrap();
    (api, id, org, rita, rival, at, game)
}

/// Finding 5: an official who plays could not touch its own table but could hit its
/// rivals': withdraw a rival, record a no-show at a rival's running table, void, record
/// or correct its result. Now none of it, at any table; the referee who does not play
/// acts instead.
#[tokio::test]
async fn an_official_who_plays_has_no_power_over_a_rivals_table() {
    let app = spawn_app().await;
    let (api, id, org, rita, rival, at, _game) = cup_whose_organizer_plays(&app).await;
    let seated: Vec<i64> = tables_of(&api.tournament_read(id, "/stages", &org.token).await, 1, 1)
        .into_iter()
        .find(|(table, _)| *table == at)
        .map(|(_, s)| s)
        .unwrap();
    let standings: Vec<Value> = seated
        .iter()
        .enumerate()
        .map(|(i, p)| json!({"player": p, "total": 10 * i + 5, "place": i + 1}))
        .collect();
    let input = json!({"source": "game", "standings": standings});
    let refused = [
        json!({"command": "withdraw", "player": rival.id}),
        json!({"command": "void_game", "table": at, "reason": "misdeal"}),
        json!({"command": "record_result", "table": at, "input": input, "reason": "sheet"}),
        json!({"command": "disqualify", "player": rival.id, "reason": "rude"}),
    ];
    for command in &refused {
        let response = api.tournament_command(id, &org.token, command, None).await;
        expect_problem(response, StatusCode::FORBIDDEN, "official_plays").await;
    }
    let no_show = api
        .post(
            &format!(
                "/v1/tournaments/{id}/tables/{}/{}/{}/no-show",
                at["stage"], at["round"], at["table"]
            ),
            &org.token,
            Some(&json!({"player": rival.id, "reason": "did not come"})),
        )
        .await;
    expect_problem(no_show, StatusCode::FORBIDDEN, "official_plays").await;
    let redraw = json!({"redraw": {"stage": 1, "round": 1, "reason": "mine"}});
    let response = api
        .post(
            &format!("/v1/tournaments/{id}/draws"),
            &org.token,
            Some(&redraw),
        )
        .await;
    expect_problem(response, StatusCode::FORBIDDEN, "official_plays").await;

    // Rita, who plays nowhere, may: she enters the result by hand, and a correction of
    // it is refused to the organizer again.
    api.accepted(id, &rita.token, &refused[2]).await;
    let correct = json!({"command": "correct_result", "table": at, "input": refused[2]["input"],
                         "reason": "typo"});
    let response = api.tournament_command(id, &org.token, &correct, None).await;
    expect_problem(response, StatusCode::FORBIDDEN, "official_plays").await;
    api.accepted(id, &rita.token, &correct).await;
    // The organizer withdrawing a rival would have been listed too; rita's acts are.
    let listed = api.tournament_read(id, "/interventions", &org.token).await;
    let kinds: Vec<&Value> = listed["interventions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| &e["kind"])
        .collect();
    assert_eq!(
        kinds,
        [&json!("result_entered"), &json!("result_corrected")]
    );
}

/// Finding 6: after the admin removed its referee role, a referee still voided games,
/// disqualified, recorded no-shows, started online tables and read the live archive of
/// the cup that named it. Now its powers end with the role.
#[tokio::test]
async fn a_referee_whose_role_is_removed_loses_its_powers_at_once() {
    let app = spawn_app().await;
    let api = app.api();
    let org = app.new_organizer("olga").await;
    let rita = app.new_referee("rita").await;
    let entrants = players(&app, "vp", 8).await;
    let body = cup("Cup", 8, json!({}));
    let paper = json!({"paper_tables": [1]});
    let (id, _, seating) = drawn_cup(&api, (&org, &rita), &entrants, &body, &paper).await;
    let (paper, paper_players) = seating[0].clone();
    assert_eq!(
        archive(&api, id, &rita.token).await.status(),
        StatusCode::OK,
        "named and holding the role, rita reads the archive"
    );

    app.set_roles(rita.id, &["player"]).await;

    for command in [
        json!({"command": "void_game", "table": seating[1].0, "reason": "misdeal"}),
        json!({"command": "disqualify", "player": paper_players[0], "reason": "rude"}),
    ] {
        let response = api
            .tournament_command(id, &rita.token, &command, None)
            .await;
        expect_problem(response, StatusCode::FORBIDDEN, "forbidden").await;
    }
    let table_path = format!(
        "/v1/tournaments/{id}/tables/{}/{}/{}",
        paper["stage"], paper["round"], paper["table"]
    );
    let no_show = api
        .post(
            &format!("{table_path}/no-show"),
            &rita.token,
            Some(&json!({"player": paper_players[0], "reason": "did not come"})),
        )
        .await;
    expect_problem(no_show, StatusCode::FORBIDDEN, "forbidden").await;
    let online = api
        .post(&format!("{table_path}/online"), &rita.token, None)
        .await;
    expect_problem(online, StatusCode::FORBIDDEN, "forbidden").await;
    expect_problem(
        archive(&api, id, &rita.token).await,
        StatusCode::FORBIDDEN,
        "forbidden",
    )
    .await;
}

/// Finding 7: after logging in at `/desk/login?next=/%09/127.0.0.1:PORT/x` the browser
/// landed on another origin. Now the server checks `next` and writes into the form only
/// a path of its own pages; anything else becomes the desk's home.
#[tokio::test]
async fn the_log_in_form_sends_nowhere_but_this_servers_own_pages() {
    let app = spawn_app().await;
    let port = app.port;
    let target = |next: &str| {
        let app = &app;
        let url = format!(
            "/desk/login?lang=en&next={}",
            next.replace('%', "%25")
                .replace('\t', "%09")
                .replace('?', "%3F")
        );
        async move {
            let response = app.get(&url, None).await;
            assert_eq!(response.status(), StatusCode::OK);
            let html = response.text().await.unwrap();
            let at = html
                .find("data-next=\"")
                .expect("the form names where it goes")
                + 11;
            html[at..at + html[at..].find('"').unwrap()].to_owned()
        }
    };
    for (next, lands) in [
        (format!("/\t/127.0.0.1:{port}/x"), "/desk"),
        (format!("/%09/127.0.0.1:{port}/x"), "/desk"),
        ("//example.org/x".to_owned(), "/desk"),
        ("/\\example.org".to_owned(), "/desk"),
        ("https://example.org/".to_owned(), "/desk"),
        ("/v1/tables".to_owned(), "/desk"),
        ("/desk/login".to_owned(), "/desk"),
        ("/t/1/../../v1".to_owned(), "/desk"),
        ("/desk/t/%2e%2e/tables/%2e%2E/x".to_owned(), "/desk"),
        ("/desk/t/.%2e".to_owned(), "/desk"),
        ("/desk/t/7".to_owned(), "/desk/t/7"),
        (
            "/t/3/standings?lang=nl".to_owned(),
            "/t/3/standings?lang=nl",
        ),
    ] {
        assert_eq!(target(&next).await, lands, "{next:?}");
    }
}

/// "CSV cells that start with =, +, - or @ are neutralised the way spreadsheets expect
/// (usernames like -2-3 and -A1 appear raw today)."
#[tokio::test]
async fn csv_exports_write_formula_like_names_as_text() {
    let app = spawn_app().await;
    let api = app.api();
    let org = app.new_organizer("olga").await;
    let mut entrants = vec![app.new_player("-2-3").await, app.new_player("-A1").await];
    entrants.extend(players(&app, "cp", 2).await);
    let id = api
        .started_tournament(&org, &entrants, &cup("CSV cup", 4, json!({})))
        .await;
    let response = app
        .get(&format!("/v1/tournaments/{id}/standings?format=csv"), None)
        .await;
    let csv = response.text().await.unwrap();
    assert!(csv.contains("\"'-2-3\""), "{csv}");
    assert!(csv.contains("\"'-A1\""), "{csv}");
    assert!(!csv.contains(",-2-3"), "{csv}");
}

/// "Names refuse invisible and direction characters beyond U+202E."
#[tokio::test]
async fn names_and_reasons_refuse_invisible_and_direction_characters() {
    let app = spawn_app().await;
    let api = app.api();
    let org = app.new_organizer("olga").await;
    for name in [
        "Cup\u{200F}2026",
        "Cup\u{061C}2026",
        "Cup\u{200B}2026",
        "Cup\u{2028}2026",
        "Cup\u{E0041}2026",
        "Z\u{301}\u{302}\u{303}\u{304}",
    ] {
        let response = app
            .post_json(
                "/v1/tournaments",
                &json!({"name": name, "rules": {"preset": "belgian"}, "capacity": 8}),
                Some(&org.token),
            )
            .await;
        expect_problem(response, StatusCode::UNPROCESSABLE_ENTITY, "bad_name").await;
    }
    let created = api
        .create_tournament(&org.token, &cup("Fair cup", 8, json!({})))
        .await;
    let id = created["id"].as_i64().unwrap();
    let player = app.new_player("pia").await;
    api.accepted(
        id,
        &org.token,
        &json!({"command": "register", "player": player.id}),
    )
    .await;
    let disqualify =
        |reason: &str| json!({"command": "disqualify", "player": player.id, "reason": reason});
    let response = api
        .tournament_command(id, &org.token, &disqualify("late\u{2028}again"), None)
        .await;
    expect_problem(response, StatusCode::UNPROCESSABLE_ENTITY, "bad_reason").await;
    api.accepted(id, &org.token, &disqualify("late\nagain"))
        .await;
}
