//! Hidden information: at many points of a game, from every seat and from a
//! spectator, the view and the events show nothing that seat may not see (another
//! hand, another seat's stock draw, the seed of the round in play), compared with
//! what a referee sees at the same moment; the record never holds the round in play.

use reqwest::StatusCode;
use serde_json::{Value, json};
use yaniv_e2e_tests::spawn_app;
use yaniv_e2e_tests::tables::{Api, Player, check_events_hide, check_view_hides, play_to_end};

async fn check_everyone(
    api: &Api,
    table: i64,
    humans: &[Player],
    spectator: &Player,
    referee: &Player,
) {
    let staff_view = api.view(table, &referee.token).await;
    assert_eq!(staff_view["viewer"], "referee");
    let hands = staff_view["hands"]
        .as_array()
        .expect("a referee sees every hand");
    assert_eq!(hands.len(), 3);
    let staff_events = api.events(table, &referee.token, 0).await;
    assert_eq!(
        staff_events.len() as u64,
        staff_view["table"]["version"].as_u64().expect("version")
    );
    // A referee sees a round's seed once the round is over, like everyone (#27).
    let ended: Vec<&Value> = staff_events
        .iter()
        .filter(|e| e["type"] == "round_ended.v1")
        .map(|e| &e["payload"]["round"])
        .collect();
    for event in staff_events
        .iter()
        .filter(|e| e["type"] == "round_dealt.v1")
    {
        let over = ended.contains(&&event["payload"]["round"]);
        assert_eq!(
            event["payload"]["deal"]["seed"].is_string(),
            over,
            "{event}"
        );
    }

    for player in humans.iter().chain([spectator]) {
        let view = api.view(table, &player.token).await;
        assert_eq!(view["table"]["version"], staff_view["table"]["version"]);
        check_view_hides(&view, &staff_view);
        let events = api.events(table, &player.token, 0).await;
        let seat = view["seat"].as_u64();
        assert_eq!(
            view["viewer"],
            if seat.is_some() { "seat" } else { "spectator" }
        );
        check_events_hide(&events, &staff_events, seat);
        // A later page reads the same as the same events in a whole read.
        let half = events.len() as u64 / 2;
        let tail = api.events(table, &player.token, half).await;
        assert_eq!(tail.as_slice(), &events[half as usize..]);
    }

    // The record holds the finished rounds only: never the round in play's seed.
    let finished_rounds = staff_events
        .iter()
        .filter(|e| e["type"] == "round_ended.v1")
        .count();
    let response = api
        .get(&format!("/v1/tables/{table}/record"), &humans[0].token)
        .await;
    if finished_rounds == 0 {
        assert_eq!(response.status(), StatusCode::CONFLICT);
        return;
    }
    let record = Api::json_ok(response, StatusCode::OK, "record").await;
    let rounds = record["rounds"].as_array().expect("rounds");
    assert_eq!(rounds.len(), finished_rounds);
    if let Some(commitment) = staff_view["game"]["commitment"].as_str() {
        let in_play = staff_view["game"]["stage"] != "finished";
        for round in rounds {
            if in_play {
                assert_ne!(round["shuffle"]["commitment"], commitment);
            }
        }
    }
}

#[tokio::test]
async fn no_seat_ever_sees_what_it_must_not() {
    let app = spawn_app().await;
    let api = app.api();
    let humans = vec![
        app.new_player("ann").await,
        app.new_player("bob").await,
        app.new_player("cid").await,
    ];
    let spectator = app.new_player("sam").await;
    let referee = app.new_referee("rita").await;
    let body = json!({
        "preset": "house",
        "overrides": {"game_end": {"elimination": {"limit": 40, "at_limit": false}}},
        "seats": 3,
    });
    let table = api.started_table(&body, &humans).await;
    check_everyone(&api, table, &humans, &spectator, &referee).await;

    let played = play_to_end(&api, table, &humans, 3_000, 5, |_| {
        let (api, humans, spectator, referee) = (
            api.clone(),
            humans.clone(),
            spectator.clone(),
            referee.clone(),
        );
        async move { check_everyone(&api, table, &humans, &spectator, &referee).await }
    })
    .await;
    assert!(played.actions > 10);

    // Once the game is over everything is revealed to everyone.
    let staff_events = api.events(table, &referee.token, 0).await;
    let events = api.events(table, &humans[0].token, 0).await;
    assert_eq!(events, staff_events);
}

#[tokio::test]
async fn a_referee_playing_at_a_table_sees_only_their_seat() {
    let app = spawn_app().await;
    let api = app.api();
    let referee = app.new_referee("rita").await;
    let other = app.new_player("bob").await;
    let body = json!({"preset": "israeli", "seats": 2});
    let table = api
        .started_table(&body, &[referee.clone(), other.clone()])
        .await;

    let view = api.view(table, &referee.token).await;
    assert_eq!(view["viewer"], "seat");
    assert!(view["hands"].is_null());
    let response = api
        .get(&format!("/v1/tables/{table}/audit"), &referee.token)
        .await;
    assert_eq!(response.status(), StatusCode::FORBIDDEN);
    let response = api
        .post(&format!("/v1/tables/{table}/verify"), &referee.token, None)
        .await;
    assert_eq!(response.status(), StatusCode::FORBIDDEN);
    let events = api.events(table, &referee.token, 0).await;
    let dealt = events
        .iter()
        .find(|e| e["type"] == "round_dealt.v1")
        .expect("a deal");
    assert_eq!(dealt["payload"]["deal"]["seed"], Value::Null);
}
