//! The organizer's door, over HTTP: a club's list of 12 players registered from a CSV
//! (some with accounts, some without: those get set-up codes), two late entries
//! admitted into round 2, no-shows decided by a referee at a paper table and at an
//! online one, and every export (standings, results) saying what the JSON says.

use reqwest::StatusCode;
use serde_json::{Value, json};
use yaniv_e2e_tests::tables::{Api, Player};
use yaniv_e2e_tests::tournaments::{standings_csv_matches, tables_of};
use yaniv_e2e_tests::{TestApp, expect_problem, spawn_app};

async fn list_ok(app: &TestApp, id: i64, token: &str, csv: &str) -> Vec<Value> {
    let response = app.door_list(id, token, csv).await;
    let body = Api::json_ok(response, StatusCode::OK, "door list").await;
    body["rows"].as_array().expect("rows").clone()
}

/// new_eve's set-up with `code`.
async fn setup(app: &TestApp, code: &str) -> reqwest::Response {
    app.post_json(
        "/v1/accounts/setup",
        &json!({"username": "NEW_EVE", "code": code, "password": "a door password"}),
        None,
    )
    .await
}

/// Final standings of a table where the players finish in the order given.
fn game_result(order: &[i64]) -> Value {
    let standings: Vec<Value> = order
        .iter()
        .enumerate()
        .map(|(i, p)| json!({"player": p, "total": 15 * i + 5, "place": i + 1}))
        .collect();
    json!({"source": "game", "standings": standings})
}

/// Records every table of `round` as finished in account order, without the players
/// `absent` names; a reason when the table has an online game.
async fn record_round(api: &Api, id: i64, token: &str, round: usize, absent: &[i64]) {
    let stages = api.tournament_read(id, "/stages", token).await;
    for (table, players) in tables_of(&stages, 1, round) {
        let mut present: Vec<i64> = players
            .into_iter()
            .filter(|p| !absent.contains(p))
            .collect();
        present.sort_unstable();
        api.accepted(
            id,
            token,
            &json!({
                "command": "record_result",
                "table": table,
                "input": game_result(&present),
                "reason": "entered from the paper sheet the table kept",
            }),
        )
        .await;
    }
}

async fn standings(api: &Api, id: i64, token: &str) -> Vec<Value> {
    api.tournament_read(id, "/standings", token).await["standings"]
        .as_array()
        .expect("standings")
        .clone()
}

fn row_of(rows: &[Value], player: i64) -> &Value {
    rows.iter()
        .find(|r| r["player"] == player)
        .unwrap_or_else(|| panic!("{player} is not in the standings"))
}

#[tokio::test]
async fn the_door_a_csv_of_twelve_late_entries_and_no_shows() {
    let app = spawn_app().await;
    let api = app.api();
    let org = app.new_organizer("door_org").await;
    let referee = app.new_referee("door_ref").await;
    let outsider = app.new_player("door_outsider").await;
    let mut known: Vec<Player> = Vec::new();
    for name in ["club_ann", "club_bob", "club_cas", "club_dee"] {
        known.push(app.new_player(name).await);
    }
    let created = api
        .create_tournament(
            &org.token,
            &json!({
                "name": "Door cup",
                "rules": {"preset": "belgian"},
                "capacity": 20,
                "config": {"qualification_rounds": 2, "table_min": 4, "table_max": 6},
            }),
        )
        .await;
    let id = created["id"].as_i64().unwrap();
    api.accepted(
        id,
        &org.token,
        &json!({"command": "add_referee", "referee": referee.id}),
    )
    .await;

    // The club's list, as a spreadsheet exports it: extra columns, a byte order mark,
    // mixed case. Four have accounts; eight do not; one (new_hal) has not arrived.
    let new_names: Vec<String> = ["eve", "fay", "gus", "hal", "ida", "jon", "kim", "lou"]
        .iter()
        .map(|n| format!("new_{n}"))
        .collect();
    let mut csv = String::from("\u{feff}Full name,Username,Check_in\r\n");
    for (i, p) in known.iter().enumerate() {
        csv.push_str(&format!("\"Known, {i}\",{},yes\r\n", p.name.to_uppercase()));
    }
    for name in &new_names {
        let arrived = if name == "new_hal" { "no" } else { "yes" };
        csv.push_str(&format!("New player,{name},{arrived}\r\n"));
    }

    // Only the organizer sends it, and a refused list creates no account.
    let refused = app.door_list(id, &outsider.token, &csv).await;
    expect_problem(refused, StatusCode::FORBIDDEN, "forbidden").await;
    let search = app
        .get("/v1/accounts?username=new_eve", Some(&org.token))
        .await
        .json::<Value>()
        .await
        .unwrap();
    assert_eq!(
        search["accounts"],
        json!([]),
        "nothing created by a refused list"
    );
    // A bad row refuses the whole list, naming its line.
    let bad = app
        .door_list(id, &org.token, "username\nok_name\nx\n")
        .await;
    let problem = expect_problem(bad, StatusCode::UNPROCESSABLE_ENTITY, "validation_failed").await;
    assert_eq!(problem.errors[0].field, "line 3");
    let as_xml = app
        .client
        .post(app.url(&format!("/v1/tournaments/{id}/registrations")))
        .bearer_auth(&org.token)
        .header("content-type", "application/xml")
        .body("<players/>")
        .send()
        .await
        .unwrap();
    expect_problem(
        as_xml,
        StatusCode::UNSUPPORTED_MEDIA_TYPE,
        "unsupported_media_type",
    )
    .await;

    let rows = list_ok(&app, id, &org.token, &csv).await;
    assert_eq!(rows.len(), 12);
    for (row, p) in rows[..4].iter().zip(&known) {
        assert_eq!(row["account"], p.id, "{row}");
        assert_eq!(row["outcome"], "registered");
        assert_eq!(row["account_created"], false);
        assert!(row.get("setup_code").is_none(), "{row}");
        assert_eq!(row["checked_in"], true);
    }
    for (row, name) in rows[4..].iter().zip(&new_names) {
        assert_eq!(row["username"], name.as_str());
        assert_eq!(row["account_created"], true);
        assert_eq!(row["checked_in"], name != "new_hal");
        let code = row["setup_code"].as_str().expect("a set-up code");
        assert_eq!(code.len(), 14, "{code}");
    }
    let codes: std::collections::BTreeSet<&str> = rows[4..]
        .iter()
        .map(|r| r["setup_code"].as_str().unwrap())
        .collect();
    assert_eq!(codes.len(), 8, "every code differs");

    // new_eve sets her password with her code, typed loosely; it works once.
    let eve = &rows[4];
    let eve_code = eve["setup_code"].as_str().unwrap();
    let login = app.login("new_eve", "a door password").await;
    assert_eq!(login.status(), StatusCode::UNAUTHORIZED, "no password yet");
    let typed = eve_code.to_lowercase().replace('-', " ");
    let done = setup(&app, &typed).await;
    assert_eq!(done.status(), StatusCode::OK);
    assert_eq!(done.json::<Value>().await.unwrap()["id"], eve["account"]);
    let again = setup(&app, &typed).await;
    expect_problem(again, StatusCode::FORBIDDEN, "invalid_setup_code").await;
    let login = app.login("new_eve", "a door password").await;
    assert_eq!(login.status(), StatusCode::CREATED);
    let wrong = setup(&app, "0000-0000-0000").await;
    expect_problem(wrong, StatusCode::FORBIDDEN, "invalid_setup_code").await;

    // The same list again changes nobody, and hands out no code: a code is given once,
    // when the list creates the account (#27); a new one is asked for on its own.
    let again = list_ok(&app, id, &org.token, &csv).await;
    assert!(again.iter().all(|r| r["outcome"] == "already_registered"));
    assert!(again.iter().all(|r| r.get("setup_code").is_none()));

    // The organizer registers at the door without opening self-registration.
    let started = api
        .accepted(id, &org.token, &json!({"command": "start_qualification"}))
        .await;
    let hal = rows[7]["account"].as_i64().unwrap();
    assert_eq!(started["events"][0]["payload"]["dropped"], json!([hal]));

    // Round 1 on paper: 11 players at two tables. A player of table 1 does not come.
    let drawn = api
        .draw(id, &org.token, &json!({"paper_tables": [1, 2]}))
        .await;
    assert!(drawn["online_tables"].as_array().unwrap().is_empty());
    let stages = api.tournament_read(id, "/stages", &org.token).await;
    let round1 = tables_of(&stages, 1, 1);
    assert_eq!(round1.iter().map(|(_, p)| p.len()).sum::<usize>(), 11);
    let (table1, seated1) = round1[0].clone();
    let absent1 = seated1[0];
    let no_show_path = |t: &Value| {
        format!(
            "/v1/tournaments/{id}/tables/{}/{}/{}/no-show",
            t["stage"], t["round"], t["table"]
        )
    };
    let body = json!({"player": absent1, "reason": "not at the table at the start"});
    let by_outsider = api
        .post(&no_show_path(&table1), &outsider.token, Some(&body))
        .await;
    expect_problem(by_outsider, StatusCode::FORBIDDEN, "forbidden").await;
    let decided = api
        .post(&no_show_path(&table1), &referee.token, Some(&body))
        .await;
    let decided = Api::json_ok(decided, StatusCode::OK, "no-show").await;
    let types: Vec<&str> = decided["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["type"].as_str().unwrap())
        .collect();
    assert_eq!(
        types,
        ["no_show_recorded.v1"],
        "a paper table: nothing to void"
    );
    assert!(decided["online_table"].is_null());
    record_round(&api, id, &referee.token, 1, &[absent1]).await;

    // Two late entries into round 2, by the door list: new_hal, who arrived after the
    // start, and a walk-in with no account.
    // This list comes as JSON, as a client generated from the OpenAPI document sends it.
    let late = api
        .post(
            &format!("/v1/tournaments/{id}/registrations"),
            &org.token,
            Some(&json!({"players": [{"username": "new_hal"}, {"username": "walk_in_max"}]})),
        )
        .await;
    let late = Api::json_ok(late, StatusCode::OK, "a JSON list").await["rows"]
        .as_array()
        .unwrap()
        .clone();
    assert!(
        late.iter().all(|r| r["outcome"] == "entered_late"),
        "{late:?}"
    );
    assert_eq!(late[0]["account"], hal);
    assert_eq!(late[1]["account_created"], true, "{late:?}");
    let max = late[1]["account"].as_i64().unwrap();
    let players = api.tournament_read(id, "/players", &org.token).await;
    let max_view = players["players"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["player"] == max)
        .expect("the walk-in is registered")
        .clone();
    assert_eq!(max_view["username"], "walk_in_max");
    assert_eq!(max_view["checked_in"], true);

    // Round 2 online: 13 players. A player of table 1 does not come; the game dealt
    // for them is voided and a new one dealt to the others.
    let drawn = api.draw(id, &org.token, &json!({})).await;
    let online = drawn["online_tables"].as_array().unwrap().clone();
    assert!(!online.is_empty());
    let stages = api.tournament_read(id, "/stages", &org.token).await;
    let round2 = tables_of(&stages, 1, 2);
    let seated2: Vec<i64> = round2.iter().flat_map(|(_, p)| p.clone()).collect();
    assert_eq!(seated2.len(), 13);
    assert!(seated2.contains(&hal) && seated2.contains(&max));
    let (table2, at_table2) = round2[0].clone();
    // Someone who has missed nothing yet, so each missed round below has one cause.
    let absent2 = *at_table2
        .iter()
        .find(|p| ![hal, max, absent1].contains(p))
        .expect("a player with no missed round");
    let old_game = online[0]["game_table"].as_i64().unwrap();
    let decided = api
        .post(
            &no_show_path(&table2),
            &referee.token,
            Some(&json!({"player": absent2, "reason": "phoned: stuck in traffic"})),
        )
        .await;
    let decided = Api::json_ok(decided, StatusCode::OK, "online no-show").await;
    let types: Vec<&str> = decided["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["type"].as_str().unwrap())
        .collect();
    assert_eq!(
        types,
        [
            "game_voided.v1",
            "no_show_recorded.v1",
            "table_game_started.v1"
        ]
    );
    let new_game = decided["online_table"]["game_table"].as_i64().unwrap();
    assert_ne!(new_game, old_game);
    let summary = api.summary(new_game, &referee.token).await;
    let seats: Vec<i64> = summary["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["account_id"].as_i64().unwrap())
        .collect();
    let expected: Vec<i64> = at_table2
        .iter()
        .copied()
        .filter(|&p| p != absent2)
        .collect();
    assert_eq!(seats, expected, "the players who came, in the drawn order");
    // One game table per online table, and one for the replay: a draw decided on a
    // cached tournament leaves no stray table behind.
    let listed = app
        .get(
            &format!("/v1/tables?tournament={id}&limit=100"),
            Some(&org.token),
        )
        .await
        .json::<Value>()
        .await
        .unwrap();
    let mut game_tables: Vec<i64> = listed["tables"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["id"].as_i64().unwrap())
        .collect();
    game_tables.sort_unstable();
    let mut expected_tables: Vec<i64> = online
        .iter()
        .map(|t| t["game_table"].as_i64().unwrap())
        .chain([new_game])
        .collect();
    expected_tables.sort_unstable();
    assert_eq!(game_tables, expected_tables);
    record_round(&api, id, &referee.token, 2, &[absent2]).await;

    // The standings count each missed round as a game with an absence.
    let rows = standings(&api, id, &org.token).await;
    assert_eq!(rows.len(), 13);
    for (player, games, absences) in [(hal, 2, 1), (max, 2, 1), (absent1, 2, 1), (absent2, 2, 1)] {
        let row = row_of(&rows, player);
        assert_eq!(
            (row["games"].clone(), row["absences"].clone()),
            (json!(games), json!(absences)),
            "{row}"
        );
    }
    assert_eq!(row_of(&rows, max)["username"], "walk_in_max");
    assert_eq!(row_of(&rows, max)["table_points"], 0);
    standings_csv_matches(&app, id, &rows).await;

    // The results per round: JSON and CSV agree, the no-show has its line.
    let results = api
        .tournament_read(id, "/results?stage=1&round=1", &org.token)
        .await;
    let lines = results["results"].as_array().unwrap();
    assert_eq!(lines.len(), 11);
    let absent_line = lines.iter().find(|l| l["player"] == absent1).unwrap();
    assert_eq!(absent_line["absent"], true);
    assert!(absent_line["place"].is_null() && absent_line["table_points_decimal"].is_null());
    let csv = app
        .get(
            &format!("/v1/tournaments/{id}/results?stage=1&round=1&format=csv"),
            None,
        )
        .await
        .text()
        .await
        .unwrap();
    let csv_lines: Vec<&str> = csv.lines().collect();
    assert_eq!(csv_lines.len(), 12);
    for (line, l) in csv_lines[1..].iter().zip(lines) {
        let text = |v: &Value| match v {
            Value::Null => String::new(),
            Value::String(s) => s.clone(),
            other => other.to_string(),
        };
        let expected = [
            text(&l["table"]["stage"]),
            text(&l["table"]["round"]),
            text(&l["table"]["table"]),
            text(&l["seat"]),
            text(&l["player"]),
            text(&l["username"]),
            text(&l["absent"]),
            text(&l["place"]),
            text(&l["total"]),
            text(&l["table_points_decimal"]),
            text(&l["score_difference_decimal"]),
            text(&l["table_points"]),
            text(&l["score_difference"]),
            text(&results["version"]),
        ]
        .join(",");
        assert_eq!(*line, expected);
    }
    let half = app
        .get(&format!("/v1/tournaments/{id}/results?stage=1"), None)
        .await;
    expect_problem(half, StatusCode::UNPROCESSABLE_ENTITY, "validation_failed").await;

    // The bracket names every player it lists.
    let stages = api.tournament_read(id, "/stages", &org.token).await;
    for player in seated2.iter().chain(&seated1) {
        assert!(
            stages["usernames"][player.to_string()].is_string(),
            "{player} unnamed"
        );
    }
    assert_eq!(
        stages["stages"][0]["rounds"][1]["tables"][0]["absent"],
        json!([absent2])
    );
}
