//! Whole games played through HTTP to their end, for several presets: humans
//! driven by the test from their seat view's legal actions, bots by the server.
//! Every finished table verifies (hash chain and replay) and exports a record that
//! replays to the same totals.

use reqwest::StatusCode;
use serde_json::{Value, json};
use yaniv_e2e_tests::spawn_app;
use yaniv_e2e_tests::tables::{Api, Player, play_to_end};

/// Plays a table to its end and checks what a finished table must satisfy.
async fn finish(api: &Api, table: i64, humans: &[Player], referee: &Player) -> Value {
    let played = play_to_end(api, table, humans, 5_000, 0, |_| async {}).await;
    let summary = played.summary;
    eprintln!(
        "table {table}: {} actions by the test ({:?}), {} events, {} rounds",
        played.actions, played.kinds, summary["version"], summary["round"]
    );
    assert_eq!(summary["status"], "finished");
    assert!(summary["to_act"].is_null());
    let standings = summary["standings"].as_array().expect("standings");
    assert_eq!(
        standings.len(),
        summary["seats"].as_array().map_or(0, Vec::len)
    );
    assert_eq!(standings[0]["place"], 1);

    // The stored history checks out.
    let response = api
        .post(&format!("/v1/tables/{table}/verify"), &referee.token, None)
        .await;
    let verdict = Api::json_ok(response, StatusCode::OK, "verify").await;
    assert_eq!(verdict["ok"], true, "{verdict}");
    assert_eq!(verdict["events"], summary["version"]);

    // The record replays to the table's totals.
    let response = api
        .get(&format!("/v1/tables/{table}/record"), &humans[0].token)
        .await;
    let record = Api::json_ok(response, StatusCode::OK, "record").await;
    let replayed = yaniv_domain::record::replay_json(record.to_string().as_bytes())
        .unwrap_or_else(|e| panic!("the record replays: {e:?}"));
    let result = serde_json::to_value(&replayed.result).expect("result JSON");
    assert_eq!(result["finished"], true, "{result}");
    let last_totals = result["rounds"]
        .as_array()
        .and_then(|r| r.last())
        .map(|r| r["totals"].clone())
        .expect("rounds");
    let names: Vec<&str> = summary["seats"]
        .as_array()
        .expect("seats")
        .iter()
        .map(|s| s["name"].as_str().expect("name"))
        .collect();
    let totals: Vec<Value> = names.iter().map(|n| last_totals[n].clone()).collect();
    assert_eq!(json!(totals), summary["totals"]);
    summary
}

#[tokio::test]
async fn israeli_three_humans_play_to_the_end() {
    let app = spawn_app().await;
    let api = app.api();
    let humans = vec![
        app.new_player("ann").await,
        app.new_player("bob").await,
        app.new_player("cid").await,
    ];
    let referee = app.new_referee("rita").await;
    // A shorter game: eliminated above 60 instead of 200.
    let body = json!({
        "preset": "israeli",
        "overrides": {"game_end": {"elimination": {"limit": 60, "at_limit": false}}},
        "seats": 3,
    });
    let table = api.started_table(&body, &humans).await;
    finish(&api, table, &humans, &referee).await;
}

#[tokio::test]
async fn belgian_one_human_and_bots_play_to_the_end() {
    let app = spawn_app().await;
    let api = app.api();
    let humans = vec![app.new_player("ann").await];
    let referee = app.new_referee("rita").await;
    let body = json!({
        "preset": "belgian",
        "seats": 4,
        "bots": [
            {"seat": 1, "kind": "greedy"},
            {"seat": 2, "kind": "random"},
            {"seat": 3, "kind": "greedy"},
        ],
    });
    let table = api.started_table(&body, &humans).await;
    let summary = finish(&api, table, &humans, &referee).await;
    assert_eq!(summary["seats"][1]["kind"], "bot");
    assert_eq!(summary["seats"][1]["bot"], "greedy");
}

#[tokio::test]
async fn kluft_two_humans_and_a_bot_play_to_the_end() {
    let app = spawn_app().await;
    let api = app.api();
    let humans = vec![app.new_player("ann").await, app.new_player("bob").await];
    let referee = app.new_referee("rita").await;
    let body = json!({
        "preset": "kluft",
        "overrides": {"game_end": {"elimination": {"limit": 50, "at_limit": false}}},
        "seats": 3,
        "bots": [{"seat": 2, "kind": "greedy"}],
    });
    let table = api.started_table(&body, &humans).await;
    finish(&api, table, &humans, &referee).await;
}

#[tokio::test]
async fn house_rules_with_add_ons_play_to_the_end() {
    let app = spawn_app().await;
    let api = app.api();
    let humans = vec![app.new_player("ann").await, app.new_player("bob").await];
    let referee = app.new_referee("rita").await;
    let body = json!({
        "preset": "house",
        "overrides": {"game_end": {"elimination": {"limit": 60, "at_limit": false}}},
        "seats": 3,
        "bots": [{"seat": 0, "kind": "random"}],
    });
    let table = api.started_table(&body, &humans).await;
    finish(&api, table, &humans, &referee).await;
}
