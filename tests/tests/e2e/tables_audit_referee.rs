//! Referee tools: the record's actions carry their event version, the audit takes a
//! record position (`round`, `action`) and shows the round's discard pile, and the
//! diff of two versions.

use reqwest::StatusCode;
use serde_json::{Value, json};
use yaniv_e2e_tests::cli::yaniv_replay;
use yaniv_e2e_tests::tables::{Api, Player, choose};
use yaniv_e2e_tests::{TestApp, expect_problem, spawn_app};

const ACTIONS: [&str; 6] = [
    "turn_played.v1",
    "slapped_down.v1",
    "added_on.v1",
    "called.v1",
    "went_along.v1",
    "onderkluft_declared.v1",
];

/// A two-player Israeli table played until `done` holds for its events (as a referee
/// reads them) or the game is over; its id, players and referee.
async fn played_table(
    app: &TestApp,
    done: impl Fn(&[Value]) -> bool,
) -> (Api, i64, Vec<Player>, Player) {
    let api = app.api();
    let players = vec![app.new_player("ann").await, app.new_player("bob").await];
    let referee = app.new_referee("rita").await;
    let id = api
        .started_table(&json!({"preset": "israeli", "seats": 2}), &players)
        .await;
    for _ in 0..400 {
        let summary = api.summary(id, &players[0].token).await;
        if summary["status"] == "finished" || done(&api.events(id, &referee.token, 0).await) {
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

fn is_action(event: &Value) -> bool {
    ACTIONS.contains(&event["type"].as_str().unwrap_or(""))
}

/// Rounds ended among `events`, and actions since the last deal.
fn progress(events: &[Value]) -> (usize, usize) {
    let ended = events
        .iter()
        .filter(|e| e["type"] == "round_ended.v1")
        .count();
    let since_deal = events
        .iter()
        .rev()
        .take_while(|e| e["type"] != "round_dealt.v1")
        .filter(|e| is_action(e))
        .count();
    (ended, since_deal)
}

async fn get_ok(api: &Api, path: &str, token: &str) -> Value {
    Api::json_ok(api.get(path, token).await, StatusCode::OK, path).await
}

/// The field named first by a 422 `validation_failed` answer to `path`.
async fn invalid_field(api: &Api, path: &str, token: &str) -> String {
    let response = api.get(path, token).await;
    let problem = expect_problem(
        response,
        StatusCode::UNPROCESSABLE_ENTITY,
        "validation_failed",
    )
    .await;
    problem.errors[0].field.clone()
}

fn sorted(value: &Value) -> Vec<String> {
    let mut cards: Vec<String> = value
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap().to_owned())
        .collect();
    cards.sort();
    cards
}

/// `a` less `b`, as multisets of cards.
fn minus(a: &Value, b: &Value) -> Vec<String> {
    let mut left = sorted(a);
    for card in sorted(b) {
        if let Some(at) = left.iter().position(|c| *c == card) {
            left.remove(at);
        }
    }
    left
}

#[tokio::test]
async fn record_actions_name_their_event_and_the_audit_finds_them() {
    let app = spawn_app().await;
    let (api, id, players, referee) = played_table(&app, |events| {
        let (ended, since_deal) = progress(events);
        ended >= 1 && since_deal >= 3
    })
    .await;
    let events = api.events(id, &referee.token, 0).await;
    let record = get_ok(&api, &format!("/v1/tables/{id}/record"), &players[0].token).await;
    let rounds = record["rounds"].as_array().unwrap();
    assert!(!rounds.is_empty());
    let names: Vec<&str> = record["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_str().unwrap())
        .collect();

    let mut checked = 0;
    for (r, round) in rounds.iter().enumerate() {
        let actions = round["actions"].as_array().unwrap();
        assert!(!actions.is_empty());
        for (a, action) in actions.iter().enumerate() {
            let version = action["event_version"].as_u64().expect("event_version");
            let event = &events[version as usize - 1];
            assert_eq!(event["version"], version);
            assert!(is_action(event), "{event}");
            let seat = event["payload"]["seat"].as_u64().unwrap() as usize;
            assert_eq!(action["player"], names[seat]);
            if let Some(throw) = action.get("throw") {
                assert_eq!(*throw, event["payload"]["thrown"]);
            }
            // The first and the last action of each round, and one in between.
            if a == 0 || a + 1 == actions.len() || a == actions.len() / 2 {
                let (round_no, action_no) = (r + 1, a + 1);
                let by_position = get_ok(
                    &api,
                    &format!("/v1/tables/{id}/audit?round={round_no}&action={action_no}"),
                    &referee.token,
                )
                .await;
                assert_eq!(by_position["as_of"], version);
                assert_eq!(
                    by_position["record_position"],
                    json!({"round": round_no, "action": action_no})
                );
                let by_version = get_ok(
                    &api,
                    &format!("/v1/tables/{id}/audit?as_of={version}"),
                    &referee.token,
                )
                .await;
                assert_eq!(by_position, by_version);
                assert_eq!(by_position["last_event"], event["type"]);
                checked += 1;
            }
        }
    }
    assert!(checked >= 2);

    // The record replays with and without the versions, to the same result.
    let replayed = yaniv_replay(&record);
    let stdout = String::from_utf8_lossy(&replayed.stdout).into_owned();
    assert!(replayed.status.success(), "yaniv replay: {stdout}");
    let mut stripped = record.clone();
    for round in stripped["rounds"].as_array_mut().unwrap() {
        for action in round["actions"].as_array_mut().unwrap() {
            action.as_object_mut().unwrap().remove("event_version");
        }
    }
    assert_ne!(stripped, record);
    let plain = yaniv_replay(&stripped);
    assert!(plain.status.success());
    assert_eq!(String::from_utf8_lossy(&plain.stdout), stdout);
    let response = api
        .client
        .post(api.url("/v1/records/replay"))
        .json(&record)
        .send()
        .await
        .unwrap();
    let over_http = Api::json_ok(response, StatusCode::OK, "replay").await;
    let result: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(over_http, result);

    // The round in play counts too (the record leaves it out until it is over).
    let in_play = rounds.len() + 1;
    let dealt = events
        .iter()
        .filter(|e| e["type"] == "round_dealt.v1")
        .count();
    if dealt == in_play {
        let last_deal = events
            .iter()
            .rposition(|e| e["type"] == "round_dealt.v1")
            .unwrap();
        let first = events[last_deal..]
            .iter()
            .find(|e| is_action(e))
            .expect("an action after the last deal");
        let audit = get_ok(
            &api,
            &format!("/v1/tables/{id}/audit?round={in_play}&action=1"),
            &referee.token,
        )
        .await;
        assert_eq!(audit["as_of"], first["version"]);
    }

    // Out of range, half given, or mixed with as_of: 422 naming the field.
    let t = &referee.token;
    let last_actions = rounds[0]["actions"].as_array().unwrap().len();
    let audit = |query: String| format!("/v1/tables/{id}/audit?{query}");
    for (query, field) in [
        ("round=0&action=1".to_owned(), "round"),
        (format!("round={}&action=1", dealt + 1), "round"),
        ("round=1&action=0".to_owned(), "action"),
        (format!("round=1&action={}", last_actions + 1), "action"),
        ("round=1".to_owned(), "action"),
        ("action=1".to_owned(), "round"),
        ("as_of=3&round=1&action=1".to_owned(), "as_of"),
        ("as_of=3&action=1".to_owned(), "as_of"),
    ] {
        assert_eq!(
            invalid_field(&api, &audit(query.clone()), t).await,
            field,
            "{query}"
        );
    }
    let response = api.get(&audit("round=x&action=1".into()), t).await;
    expect_problem(response, StatusCode::BAD_REQUEST, "invalid_query").await;
    // A player may not audit their own table while it runs.
    assert_eq!(api.summary(id, t).await["status"], "playing");
    let response = api
        .get(&audit("round=1&action=1".into()), &players[0].token)
        .await;
    expect_problem(response, StatusCode::FORBIDDEN, "forbidden").await;
}

#[tokio::test]
async fn the_audit_shows_the_discard_pile_of_the_round() {
    let app = spawn_app().await;
    let (api, id, _players, referee) = played_table(&app, |events| progress(events).1 >= 6).await;
    let events = api.events(id, &referee.token, 0).await;
    let version = events.last().unwrap()["version"].as_u64().unwrap();
    let audit = get_ok(&api, &format!("/v1/tables/{id}/audit"), &referee.token).await;
    let pile = &audit["discard_pile"];
    let last_deal = events
        .iter()
        .rposition(|e| e["type"] == "round_dealt.v1")
        .unwrap();
    assert_eq!(pile["dealt_at"], events[last_deal]["version"]);
    assert_eq!(pile["round"], events[last_deal]["payload"]["round"]);
    let turns: Vec<&Value> = events[last_deal..]
        .iter()
        .filter(|e| e["type"] == "turn_played.v1")
        .collect();
    assert!(!turns.is_empty());
    let throws = pile["throws"].as_array().unwrap();
    assert_eq!(throws.len(), turns.len() + 1, "{pile}");
    assert!(throws[0]["seat"].is_null() && throws[0]["draw"].is_null());
    for (throw, turn) in throws[1..].iter().zip(&turns) {
        assert_eq!(throw["version"], turn["version"]);
        assert_eq!(throw["seat"], turn["payload"]["seat"]);
        assert_eq!(throw["cards"], turn["payload"]["thrown"]);
        assert_eq!(throw["draw"], turn["payload"]["draw"]);
    }
    // A card taken from a throw is the next turn's draw from the pile.
    for (throw, next) in throws.iter().zip(&throws[1..]) {
        match next["draw"].get("discard") {
            Some(card) => {
                assert_eq!(throw["taken"]["card"], *card);
                assert_eq!(throw["taken"]["seat"], next["seat"]);
                assert_eq!(throw["taken"]["version"], next["version"]);
            }
            None => assert!(throw["taken"].is_null(), "{throw}"),
        }
    }
    // The top of the history is the top throw the table shows.
    let top = throws.last().unwrap();
    if top["laid_on"].as_array().unwrap().is_empty() && top["taken"].is_null() {
        assert_eq!(top["cards"], audit["view"]["game"]["top_throw"]);
    }

    // At an earlier version the pile is as it was then.
    let earlier = turns[0]["version"].as_u64().unwrap();
    assert!(earlier < version);
    let then = get_ok(
        &api,
        &format!("/v1/tables/{id}/audit?as_of={earlier}"),
        &referee.token,
    )
    .await;
    let then_throws = then["discard_pile"]["throws"].as_array().unwrap();
    assert_eq!(then_throws.len(), 2);
    assert_eq!(then_throws[1]["version"], earlier);
    // Before the first deal there is no pile.
    let before = get_ok(
        &api,
        &format!("/v1/tables/{id}/audit?as_of=2"),
        &referee.token,
    )
    .await;
    assert!(before["discard_pile"].is_null());
    assert!(before["record_position"].is_null());
}

#[tokio::test]
async fn a_diff_says_what_changed_between_two_versions() {
    let app = spawn_app().await;
    let (api, id, players, referee) = played_table(&app, |events| {
        let (ended, since_deal) = progress(events);
        ended >= 1 && since_deal >= 3
    })
    .await;
    let t = &referee.token;
    let events = api.events(id, t, 0).await;
    let version = events.last().unwrap()["version"].as_u64().unwrap();

    // One turn: the thrower lost the cards thrown and gained the card drawn.
    let turn = events
        .iter()
        .rev()
        .find(|e| e["type"] == "turn_played.v1")
        .unwrap();
    let at = turn["version"].as_u64().unwrap();
    let seat = turn["payload"]["seat"].as_u64().unwrap() as usize;
    let one = get_ok(
        &api,
        &format!("/v1/tables/{id}/diff?from={}&to={at}", at - 1),
        t,
    )
    .await;
    assert_eq!(
        (one["from"].as_u64(), one["to"].as_u64()),
        (Some(at - 1), Some(at))
    );
    assert_eq!(one["version"], version);
    let drawn = turn["payload"]["draw"]
        .as_object()
        .unwrap()
        .values()
        .next()
        .unwrap()
        .clone();
    let thrown: Vec<&str> = turn["payload"]["thrown"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap())
        .collect();
    let from_stock = turn["payload"]["draw"].get("stock").is_some();
    let drew = if from_stock {
        format!("drew {} from the stock", drawn.as_str().unwrap())
    } else {
        format!("took {} from the previous throw", drawn.as_str().unwrap())
    };
    let summary = format!(
        "{} threw {} and {drew}",
        players[seat].name,
        thrown.join(" ")
    );
    assert_eq!(
        one["events"],
        json!([{"version": at, "type": "turn_played.v1", "seat": seat,
                "player": players[seat].name, "summary": summary}])
    );
    let game = &one["game"];
    let mover = &game["seats"][seat];
    if !turn["payload"]["thrown"]
        .as_array()
        .unwrap()
        .contains(&drawn)
    {
        assert_eq!(mover["gained"], json!([drawn]));
        assert_eq!(sorted(&mover["lost"]), sorted(&turn["payload"]["thrown"]));
    }
    assert_eq!(mover["changed"], true);
    assert_eq!(game["seats"][1 - seat]["changed"], false);
    assert_eq!(game["to_act_before"], seat);
    assert_eq!(game["top_throw_after"], turn["payload"]["thrown"]);
    assert_eq!(game["stock_change"], if from_stock { -1 } else { 0 });

    // Across a round's end: the hands, stock and scores agree with the two audits.
    let ended = events
        .iter()
        .position(|e| e["type"] == "round_ended.v1")
        .unwrap();
    let from = events[ended - 2]["version"].as_u64().unwrap();
    let to = version;
    let diff = get_ok(
        &api,
        &format!("/v1/tables/{id}/diff?from={from}&to={to}"),
        t,
    )
    .await;
    let before = get_ok(&api, &format!("/v1/tables/{id}/audit?as_of={from}"), t).await;
    let after = get_ok(&api, &format!("/v1/tables/{id}/audit?as_of={to}"), t).await;
    let listed: Vec<(u64, String)> = diff["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["version"].as_u64().unwrap(),
                e["type"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    let expected: Vec<(u64, String)> = events
        .iter()
        .filter(|e| e["version"].as_u64().unwrap() > from)
        .map(|e| {
            (
                e["version"].as_u64().unwrap(),
                e["type"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    assert_eq!(listed, expected);
    assert!(listed.iter().any(|(_, kind)| kind == "round_ended.v1"));
    // Game events come in words; each round's end with its number and the totals. The
    // play may have ended a later round before `to` as well: its number follows.
    let mut round = before["view"]["game"]["round"].as_u64().unwrap();
    for event in diff["events"].as_array().unwrap() {
        let summary = event["summary"].as_str().expect("a game event in words");
        if event["type"] == "round_dealt.v1" {
            round += 1;
        }
        if event["type"] == "round_ended.v1" {
            assert!(
                summary.starts_with(&format!("round {round} over")),
                "{summary}"
            );
            assert!(summary.contains(&players[0].name), "{summary}");
        }
    }
    let game = &diff["game"];
    assert_eq!(game["round_before"], before["view"]["game"]["round"]);
    assert_eq!(game["round_after"], after["view"]["game"]["round"]);
    let stock = |audit: &Value| audit["view"]["game"]["stock_size"].as_i64().unwrap();
    assert_eq!(game["stock_before"], stock(&before));
    assert_eq!(game["stock_change"], stock(&after) - stock(&before));
    assert_eq!(game["to_act_before"], before["view"]["game"]["to_act"]);
    assert_eq!(game["to_act_after"], after["view"]["game"]["to_act"]);
    let mut score_changed = false;
    for (s, seat_diff) in game["seats"].as_array().unwrap().iter().enumerate() {
        let hand = |audit: &Value| audit["view"]["hands"][s].clone();
        assert_eq!(
            sorted(&seat_diff["gained"]),
            minus(&hand(&after), &hand(&before))
        );
        assert_eq!(
            sorted(&seat_diff["lost"]),
            minus(&hand(&before), &hand(&after))
        );
        assert_eq!(seat_diff["hand_total_after"], after["hand_totals"][s]);
        let total = |audit: &Value| audit["view"]["game"]["totals"][s].as_i64().unwrap();
        assert_eq!(seat_diff["total_before"], total(&before));
        assert_eq!(seat_diff["total_after"], total(&after));
        assert_eq!(seat_diff["total_change"], total(&after) - total(&before));
        score_changed |= total(&after) != total(&before);
    }
    assert!(score_changed, "a round ended in between: {diff}");
    assert_eq!(diff["record_position_to"], after["record_position"]);
    assert_eq!(diff["record_position_from"], before["record_position"]);

    // `to` defaults to the version now.
    let open_ended = get_ok(&api, &format!("/v1/tables/{id}/diff?from={from}"), t).await;
    assert_eq!(open_ended, diff);

    // Wrong ranges are 422 naming the field; `from` is required.
    let path = |query: &str| format!("/v1/tables/{id}/diff?{query}");
    for (query, field) in [
        (format!("from={at}&to={at}"), "from"),
        (format!("from={at}&to={}", at - 1), "from"),
        ("from=0&to=5".to_owned(), "from"),
        (format!("from=1&to={}", version + 1), "to"),
    ] {
        assert_eq!(
            invalid_field(&api, &path(&query), t).await,
            field,
            "{query}"
        );
    }
    let response = api.get(&path("to=5"), t).await;
    expect_problem(response, StatusCode::BAD_REQUEST, "invalid_query").await;

    // Staff only, as the audit: not a player, not while the game runs.
    assert_eq!(api.summary(id, t).await["status"], "playing");
    let response = api.get(&path("from=1&to=5"), &players[0].token).await;
    expect_problem(response, StatusCode::FORBIDDEN, "forbidden").await;
    let outsider = app.new_player("olga").await;
    let response = api.get(&path("from=1&to=5"), &outsider.token).await;
    expect_problem(response, StatusCode::FORBIDDEN, "forbidden").await;
}
