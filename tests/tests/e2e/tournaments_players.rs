//! `GET /v1/tournaments/{id}/players`: the players in registration order, the referees
//! and the organizer, each with the username of its account, for anyone and at any
//! version (`?as_of=N`).

use reqwest::StatusCode;
use serde_json::{Value, json};
use yaniv_e2e_tests::tables::Api;
use yaniv_e2e_tests::{TestApp, expect_problem, spawn_app};

/// `GET /v1/tournaments/{id}/players{query}` without a token, expecting 200.
async fn players(app: &TestApp, id: i64, query: &str) -> Value {
    let path = format!("/v1/tournaments/{id}/players{query}");
    Api::json_ok(app.get(&path, None).await, StatusCode::OK, &path).await
}

/// A player's line of the answer.
fn line(id: i64, username: Value, registration: u32, flags: [bool; 3]) -> Value {
    let [checked_in, withdrawn, disqualified] = flags;
    json!({"player": id, "username": username, "registration": registration,
           "checked_in": checked_in, "withdrawn": withdrawn, "disqualified": disqualified})
}

/// The versions of the stream's `player_registered.v1` events.
async fn registrations(api: &Api, id: i64, token: &str) -> Vec<u64> {
    let page = api.tournament_read(id, "/events", token).await;
    page["events"]
        .as_array()
        .expect("events")
        .iter()
        .filter(|e| e["type"] == "player_registered.v1")
        .map(|e| e["version"].as_u64().expect("a version"))
        .collect()
}

#[tokio::test]
async fn players_and_officials_are_named_in_registration_order_at_any_version() {
    let app = spawn_app().await;
    let api = app.api();
    let org = app.new_organizer("olga").await;
    let rita = app.new_referee("rita").await;
    let mut entrants = Vec::new();
    for name in ["zoe", "adam", "mia", "ben"] {
        entrants.push(app.new_player(name).await);
    }
    let body = json!({"name": "Named cup", "rules": {"preset": "belgian"}, "capacity": 8,
                      "config": {"qualification_rounds": 1, "table_min": 4, "table_max": 4}});
    let id = api.started_tournament(&org, &entrants, &body).await;
    let before_referee = api.tournament_read(id, "", &org.token).await["version"]
        .as_u64()
        .expect("a version");
    api.accepted(
        id,
        &org.token,
        &json!({"command": "add_referee", "referee": rita.id}),
    )
    .await;
    // Mia withdraws; the referee disqualifies Ben.
    api.accepted(
        id,
        &entrants[2].token,
        &json!({"command": "withdraw", "player": entrants[2].id}),
    )
    .await;
    let last = api
        .accepted(
            id,
            &rita.token,
            &json!({"command": "disqualify", "player": entrants[3].id,
                    "reason": "left the venue"}),
        )
        .await;

    // Anyone may read it, without a token; a token changes nothing.
    let path = format!("/v1/tournaments/{id}/players");
    let response = app.get(&path, None).await;
    assert_eq!(
        response.headers()["etag"],
        format!("\"{}\"", last["version"]).as_str()
    );
    let now = Api::json_ok(response, StatusCode::OK, "players").await;
    assert_eq!(now, api.tournament_read(id, "/players", &org.token).await);
    let names: Vec<Value> = entrants.iter().map(|p| json!(p.name)).collect();
    assert_eq!(
        now,
        json!({
            "id": id,
            "version": last["version"],
            "players": [
                line(entrants[0].id, names[0].clone(), 1, [true, false, false]),
                line(entrants[1].id, names[1].clone(), 2, [true, false, false]),
                line(entrants[2].id, names[2].clone(), 3, [true, true, false]),
                line(entrants[3].id, names[3].clone(), 4, [true, false, true]),
            ],
            "referees": [{"referee": rita.id, "username": "rita"}],
            "organizer": {"organizer": org.id, "username": "olga"},
        })
    );

    // Before the second registration: one player, no referee yet.
    let registered = registrations(&api, id, &org.token).await;
    assert_eq!(registered.len(), 4);
    let then = players(&app, id, &format!("?as_of={}", registered[1] - 1)).await;
    assert_eq!(then["version"], registered[1] - 1);
    assert_eq!(
        then["players"],
        json!([line(
            entrants[0].id,
            names[0].clone(),
            1,
            [false, false, false]
        )])
    );
    assert_eq!(then["referees"], json!([]));
    assert_eq!(then["organizer"], now["organizer"]);
    let two = players(&app, id, &format!("?as_of={}", registered[1])).await;
    assert_eq!(two["players"].as_array().expect("players").len(), 2);
    let started = players(&app, id, &format!("?as_of={before_referee}")).await;
    assert_eq!(started["referees"], json!([]));
    assert_eq!(started["players"][3]["disqualified"], false);

    // An account that no longer exists is named `null`; the read still answers.
    sqlx::query("DELETE FROM accounts WHERE id = $1")
        .bind(entrants[1].id)
        .execute(&app.db)
        .await
        .expect("delete an account");
    let after = players(&app, id, "").await;
    assert_eq!(after["players"][1]["player"], entrants[1].id);
    assert!(after["players"][1]["username"].is_null(), "{after}");
    assert_eq!(after["players"][0]["username"], "zoe");
}

#[tokio::test]
async fn an_unknown_tournament_or_version_is_refused() {
    let app = spawn_app().await;
    let api = app.api();
    let org = app.new_organizer("olga").await;
    let created = api
        .create_tournament(
            &org.token,
            &json!({"name": "Empty cup", "rules": {"preset": "belgian"}, "capacity": 8}),
        )
        .await;
    let id = created["id"].as_i64().expect("an id");
    let empty = players(&app, id, "").await;
    assert_eq!(empty["players"], json!([]));
    assert_eq!(
        empty["organizer"],
        json!({"organizer": org.id, "username": "olga"})
    );

    for query in ["", "?as_of=1"] {
        let missing = format!("/v1/tournaments/{}/players{query}", id + 1);
        expect_problem(
            app.get(&missing, None).await,
            StatusCode::NOT_FOUND,
            "not_found",
        )
        .await;
    }
    let beyond = format!(
        "/v1/tournaments/{id}/players?as_of={}",
        created["version"].as_u64().unwrap() + 1
    );
    let problem = expect_problem(
        app.get(&beyond, None).await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "validation_failed",
    )
    .await;
    assert_eq!(problem.errors[0].field, "as_of");
    let response = app
        .get(&format!("/v1/tournaments/{id}/players?at=1"), None)
        .await;
    expect_problem(response, StatusCode::BAD_REQUEST, "invalid_query").await;
}
