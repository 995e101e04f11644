//! Audits: a table's full state at any version, and the verification of its stored
//! history, including history changed behind the server's back.

use reqwest::StatusCode;
use serde_json::{Value, json};
use yaniv_e2e_tests::tables::{Api, Player, choose};
use yaniv_e2e_tests::tamper::{Hashes, tamper};
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

async fn audit(api: &Api, id: i64, token: &str, as_of: u64) -> Value {
    let response = api
        .get(&format!("/v1/tables/{id}/audit?as_of={as_of}"), token)
        .await;
    Api::json_ok(response, StatusCode::OK, "audit").await
}

async fn verify(api: &Api, id: i64, token: &str) -> Value {
    let response = api
        .post(&format!("/v1/tables/{id}/verify"), token, None)
        .await;
    Api::json_ok(response, StatusCode::OK, "verify").await
}

#[tokio::test]
async fn an_audit_shows_every_hand_at_any_version() {
    let app = spawn_app().await;
    let (api, id, players, referee) = played_table(&app, 6).await;
    let version = api.summary(id, &referee.token).await["version"]
        .as_u64()
        .unwrap();
    let events = api.events(id, &referee.token, 0).await;

    // Before the start: seats only.
    let early = audit(&api, id, &referee.token, 2).await;
    assert_eq!(early["as_of"], 2);
    assert_eq!(early["version"], version);
    assert_eq!(early["last_event"], "seat_taken.v1");
    assert_eq!(early["view"]["table"]["status"], "open");
    assert!(early["view"]["hands"].is_null());

    // Right after the first deal: the hands it dealt.
    let dealt_at = events
        .iter()
        .position(|e| e["type"] == "round_dealt.v1")
        .unwrap() as u64
        + 1;
    let at_deal = audit(&api, id, &referee.token, dealt_at).await;
    assert_eq!(at_deal["last_event"], "round_dealt.v1");
    let hands = at_deal["view"]["hands"].as_array().unwrap();
    assert!(hands.iter().all(|h| h.as_array().unwrap().len() == 5));
    assert_eq!(at_deal["view"]["game"]["stock_size"], 54 - 11);
    // A round's seed waits for its end, the referee's eyes included.
    let dealt = &events[dealt_at as usize - 1]["payload"]["deal"];
    let round_over = events.iter().any(|e| e["type"] == "round_ended.v1");
    assert_eq!(at_deal["seed"].is_string(), round_over, "{at_deal}");
    assert_eq!(at_deal["seed"], dealt["seed"]);
    assert_eq!(at_deal["view"]["game"]["commitment"], dealt["commitment"]);

    // Now: the same hands as the players see.
    let now = audit(&api, id, &referee.token, version).await;
    for player in &players {
        let view = api.view(id, &player.token).await;
        let seat = view["seat"].as_u64().unwrap() as usize;
        assert_eq!(now["view"]["hands"][seat], view["hand"]);
        assert_eq!(now["hand_totals"][seat], view["hand_total"]);
    }
    let default = Api::json_ok(
        api.get(&format!("/v1/tables/{id}/audit"), &referee.token)
            .await,
        StatusCode::OK,
        "audit now",
    )
    .await;
    assert_eq!(default, now);

    for as_of in [0, version + 1] {
        let response = api
            .get(
                &format!("/v1/tables/{id}/audit?as_of={as_of}"),
                &referee.token,
            )
            .await;
        let problem = expect_problem(
            response,
            StatusCode::UNPROCESSABLE_ENTITY,
            "validation_failed",
        )
        .await;
        assert_eq!(problem.errors[0].field, "as_of");
    }
    let response = api
        .get(&format!("/v1/tables/{id}/audit?as_of=-1"), &referee.token)
        .await;
    expect_problem(response, StatusCode::BAD_REQUEST, "invalid_query").await;

    // An admin audits what no round in play hides, and verifies; while a round is
    // played, the head hash it gets stops before that round's first secret.
    let (_, admin) = app.admin().await;
    audit(&api, id, &admin, 3).await;
    let verdict = verify(&api, id, &admin).await;
    assert_eq!(verdict["ok"], true, "{verdict}");
    assert_eq!(verdict["events"], version);
    assert!(verdict["first_failure"].is_null());
    assert_eq!(verdict["chain"]["ok"], true);
    assert_eq!(verdict["replay"]["ok"], true);
    assert_eq!(verdict["head_hash"].as_str().unwrap().len(), 64);
    let sealed_from = verdict["sealed_from"].as_u64().expect("a round is in play");
    let stored: Vec<(i64, Vec<u8>)> =
        sqlx::query_as("SELECT version, hash FROM events WHERE stream_id = $1 ORDER BY version")
            .bind(format!("table-{id}"))
            .fetch_all(&app.db)
            .await
            .unwrap();
    let before_seal = stored
        .iter()
        .rfind(|(v, _)| (*v as u64) < sealed_from)
        .expect("events before the round");
    assert_eq!(verdict["head_hash"], hex::encode(&before_seal.1));
    // The admin may not look into the round in play: its hands are its referees'.
    let response = api
        .get(&format!("/v1/tables/{id}/audit?as_of={version}"), &admin)
        .await;
    expect_problem(response, StatusCode::FORBIDDEN, "forbidden").await;
}

/// The version of a `turn_played.v1` and its payload with the first thrown card
/// replaced by a card the thrower did not hold: one the other seat was dealt and still
/// holds. No other single turn of the round could have put that card in the thrower's
/// hand (it was never in the stock or a pile), so the replay can blame no earlier turn
/// than the forged one, whatever the deal. The latest turn with such a card is forged
/// (a round's first turn always has one).
async fn forged_turn(app: &TestApp, api: &Api, id: i64, referee: &Player) -> (u64, Value) {
    let stored = app
        .store
        .read_stream(&format!("table-{id}"), 1, 1000)
        .await
        .unwrap();
    for turn in stored
        .iter()
        .rev()
        .filter(|e| e.event_type == "turn_played.v1")
    {
        let version = turn.version as u64;
        let dealt_at = stored
            .iter()
            .rev()
            .find(|e| e.event_type == "round_dealt.v1" && (e.version as u64) < version)
            .expect("the turn's round was dealt")
            .version as u64;
        let mut payload: Value = serde_json::from_str(&turn.payload).unwrap();
        let seat = payload["seat"].as_u64().unwrap() as usize;
        let dealt = audit(api, id, &referee.token, dealt_at).await;
        let before = audit(api, id, &referee.token, version - 1).await;
        let dealt_to_other = dealt["view"]["hands"][1 - seat].as_array().unwrap();
        let other_hand = before["view"]["hands"][1 - seat].as_array().unwrap();
        let own_hand = before["view"]["hands"][seat].as_array().unwrap();
        if let Some(forged) = other_hand
            .iter()
            .find(|c| dealt_to_other.contains(c) && !own_hand.contains(c))
        {
            payload["thrown"][0] = forged.clone();
            return (version, payload);
        }
    }
    panic!("no turn of {id} was played while the other seat kept a dealt card")
}

#[tokio::test]
async fn a_changed_event_breaks_the_chain_and_the_replay_at_that_version() {
    let app = spawn_app().await;
    let (api, id, _players, referee) = played_table(&app, 5).await;
    assert_eq!(verify(&api, id, &referee.token).await["ok"], true);
    let (version, forged) = forged_turn(&app, &api, id, &referee).await;

    let stream = format!("table-{id}");
    tamper(&app, &stream, version, Hashes::Kept, |payload| {
        *payload = forged
    })
    .await;

    let verdict = verify(&api, id, &referee.token).await;
    assert_eq!(verdict["ok"], false, "{verdict}");
    assert_eq!(verdict["first_failure"]["version"], version, "{verdict}");
    assert_eq!(verdict["chain"]["first_failure"]["version"], version);
    assert_eq!(verdict["chain"]["first_failure"]["code"], "hash_mismatch");
    assert_eq!(verdict["replay"]["first_failure"]["version"], version);
    assert_eq!(
        verdict["replay"]["first_failure"]["code"],
        "card_not_in_hand"
    );
    assert!(verdict["head_hash"].is_null());
}

#[tokio::test]
async fn a_changed_event_with_a_recomputed_chain_is_caught_by_the_replay() {
    let app = spawn_app().await;
    let (api, id, _players, referee) = played_table(&app, 5).await;
    let (version, forged) = forged_turn(&app, &api, id, &referee).await;

    // The forger rewrites the event and every later hash, so the chain holds.
    let stream = format!("table-{id}");
    tamper(&app, &stream, version, Hashes::Recomputed, |payload| {
        *payload = forged
    })
    .await;

    let verdict = verify(&api, id, &referee.token).await;
    assert_eq!(
        verdict["chain"]["ok"], true,
        "the forger kept the chain: {verdict}"
    );
    assert_eq!(verdict["ok"], false);
    assert_eq!(
        verdict["replay"]["first_failure"]["version"], version,
        "{verdict}"
    );
    assert_eq!(verdict["first_failure"]["version"], version);
    assert_eq!(verdict["first_failure"]["code"], "card_not_in_hand");
    // The chain's head moved: a head hash published before the forgery exposes it.
    assert!(verdict["head_hash"].is_string());
}
