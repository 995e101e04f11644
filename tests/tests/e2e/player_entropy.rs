//! Player entropy at an online table (issue 15, part 4), through the API: the server
//! commits to its seed, the players see the commitment and contribute, the deal comes
//! with the last contribution, and the server's seed stays hidden from the players
//! until the round is over; the stream verifies.

use reqwest::StatusCode;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use yaniv_e2e_tests::tables::Api;
use yaniv_e2e_tests::{expect_problem, spawn_app};

fn of_type<'a>(events: &'a [Value], event_type: &str) -> Vec<&'a Value> {
    events.iter().filter(|e| e["type"] == event_type).collect()
}

#[tokio::test]
async fn players_contribute_to_every_deal_and_the_server_seed_stays_hidden_until_the_round_ends() {
    let app = spawn_app().await;
    let api = app.api();
    let (_, admin) = app.admin().await;
    let referee = app.new_referee("rita").await;
    let ann = app.new_player("ann").await;
    let bob = app.new_player("bob").await;
    let body = json!({
        "preset": "israeli", "seats": 3, "player_entropy": true,
        "bots": [{"seat": 2, "kind": "greedy"}],
    });
    let table = api.started_table(&body, &[ann.clone(), bob.clone()]).await;

    // Started, not dealt: the commitment is public, the deal waits for both humans.
    let view = api.view(table, &ann.token).await;
    assert_eq!(view["table"]["player_entropy"], true, "{view:#}");
    assert!(
        view["hand"].is_null() || view["hand"] == json!([]),
        "{view:#}"
    );
    let entropy = &view["entropy"];
    assert_eq!(entropy["round"], 1, "{view:#}");
    assert_eq!(entropy["awaiting"], json!([0, 1]));
    assert_eq!(view["legal"]["contribute"], true);
    let commitment = entropy["commitment"]
        .as_str()
        .expect("a commitment")
        .to_owned();
    let events = api.events(table, &ann.token, 0).await;
    let committed = of_type(&events, "deal_seed_committed.v1");
    assert_eq!(committed.len(), 1);
    assert_eq!(committed[0]["payload"]["commitment"], commitment.as_str());
    assert!(
        committed[0]["payload"]["seed"].is_null(),
        "a player never sees the server's seed in play: {:#}",
        committed[0]
    );
    // Nobody who reaches the server sees the server's seed before the round is over,
    // an admin and a referee included (#27: a seat that contributes last could
    // otherwise choose its deal with the help of any staff account).
    for token in [&admin, &referee.token] {
        let seen = api.events(table, token, 0).await;
        assert!(of_type(&seen, "deal_seed_committed.v1")[0]["payload"]["seed"].is_null());
    }
    // The test knows the truth from the database.
    let stored = |kind: &'static str| {
        let db = app.db.clone();
        async move {
            let payload: String = sqlx::query_scalar(
                "SELECT payload FROM events WHERE stream_id = $1 AND event_type = $2 \
                 ORDER BY version LIMIT 1",
            )
            .bind(format!("table-{table}"))
            .bind(kind)
            .fetch_one(&db)
            .await
            .expect("a stored event");
            serde_json::from_str::<Value>(&payload).expect("JSON")
        }
    };
    let seed = stored("deal_seed_committed.v1").await["seed"]
        .as_str()
        .expect("the stored seed")
        .to_owned();
    assert_eq!(
        hex::encode(Sha256::digest(hex::decode(&seed).unwrap())),
        commitment
    );

    // A value that is not 32 bytes of hex is refused, naming the field; nothing moves.
    let bad = json!({"type": "contribute", "value": "abc"});
    let problem = expect_problem(
        api.act(table, &ann.token, &bad, None).await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "validation_failed",
    )
    .await;
    assert_eq!(problem.errors[0].field, "value");

    let mine = |byte: u8| json!({"type": "contribute", "value": hex::encode([byte; 32])});
    let answer = Api::json_ok(
        api.act(table, &ann.token, &mine(0xa0), None).await,
        StatusCode::OK,
        "ann contributes",
    )
    .await;
    assert_eq!(answer["view"]["entropy"]["awaiting"], json!([1]));
    expect_problem(
        api.act(table, &ann.token, &mine(0xa1), None).await,
        StatusCode::CONFLICT,
        "nothing_to_contribute",
    )
    .await;
    Api::json_ok(
        api.act(table, &bob.token, &mine(0xb1), None).await,
        StatusCode::OK,
        "bob contributes",
    )
    .await;

    // Dealt from the mix of the server's seed and both contributions (seat order,
    // zeros for the bot), as docs/verification.md says.
    let view = api.view(table, &ann.token).await;
    assert!(view["entropy"].is_null(), "{view:#}");
    assert_eq!(view["hand"].as_array().map(Vec::len), Some(5), "{view:#}");
    let dealt = stored("round_dealt.v1").await;
    let seen = api.events(table, &referee.token, 0).await;
    assert!(of_type(&seen, "round_dealt.v1")[0]["payload"]["deal"]["seed"].is_null());
    let mut input = b"yaniv-player-entropy/1\0".to_vec();
    input.extend(hex::decode(&seed).unwrap());
    input.extend([0xa0; 32]);
    input.extend([0xb1; 32]);
    input.extend([0; 32]);
    assert_eq!(
        dealt["deal"]["seed"],
        hex::encode(Sha256::digest(&input)),
        "{dealt:#}"
    );
    let contributions = of_type(&seen, "entropy_contributed.v1");
    assert_eq!(contributions.len(), 2);
    assert_eq!(contributions[0]["payload"]["seat"], 0);

    // The referee's history reads it in words.
    let verdict = Api::json_ok(
        api.post(&format!("/v1/tables/{table}/verify"), &admin, None)
            .await,
        StatusCode::OK,
        "verify",
    )
    .await;
    assert_eq!(verdict["ok"], true, "{verdict:#}");
    let diff = Api::json_ok(
        api.get(&format!("/v1/tables/{table}/diff?from=1"), &referee.token)
            .await,
        StatusCode::OK,
        "diff",
    )
    .await;
    let words: Vec<&str> = diff["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|e| e["summary"].as_str())
        .collect();
    assert!(
        words
            .iter()
            .any(|w| w.starts_with("the server commits to its seed for round 1")),
        "{words:#?}"
    );
    assert!(
        words.iter().any(|w| w.starts_with("ann contributes a0a0")),
        "{words:#?}"
    );
}
