//! An example for every request body that has none of its own schema's, one per
//! action kind, and real answers of a game's main steps (`examples/*.json`, taken from
//! a server: an account, a session, a table, a view, an action's answer, a page of
//! events): Swagger UI fills its "try it out" with them, a generated client's docs
//! show them, and `tests/client/check_client.py` validates each against its schema. A
//! test checks that every body and every action kind has one.

use serde_json::{Value, json};
use utoipa::Modify;
use utoipa::openapi::example::ExampleBuilder;
use utoipa::openapi::{OpenApi, RefOr};

/// `(method, path, [(name, summary, body)])`.
type BodyExamples = (
    &'static str,
    &'static str,
    Vec<(&'static str, &'static str, Value)>,
);

fn examples() -> Vec<BodyExamples> {
    vec![
        (
            "post",
            "/v1/accounts",
            vec![(
                "register",
                "A new account",
                json!({"username": "alice", "password": "correct horse battery"}),
            )],
        ),
        (
            "post",
            "/v1/accounts/setup",
            vec![(
                "setup",
                "A listed player sets their password with the code handed to them",
                json!({"username": "alice", "code": "K7QM-3XWP-9ZTR",
                       "password": "correct horse battery"}),
            )],
        ),
        (
            "put",
            "/v1/accounts/{id}/roles",
            vec![(
                "referee",
                "A player who also referees",
                json!({"roles": ["player", "referee"]}),
            )],
        ),
        (
            "post",
            "/v1/sessions",
            vec![(
                "login",
                "Log in",
                json!({"username": "alice", "password": "correct horse battery"}),
            )],
        ),
        (
            "post",
            "/v1/rules/random",
            vec![
                ("fresh", "New random rules from a fresh seed", json!({})),
                (
                    "again",
                    "The rules a seed drew, again",
                    json!({"seed": "5c1e9a0b7d3f2e4a6b8c0d1e2f3a4b5c6d7e8f9a0b1c2d3e4f5a6b7c8d9e0f1a",
                           "procedure": "yaniv-random-rules/4"}),
                ),
            ],
        ),
        (
            "post",
            "/v1/tables",
            vec![
                (
                    "with_bots",
                    "Three seats under the Israeli rules, two played by bots",
                    json!({"preset": "israeli", "seats": 3,
                           "bots": [{"seat": 1, "kind": "greedy"}, {"seat": 2, "kind": "random"}]}),
                ),
                (
                    "clocked",
                    "Four players, a threshold of 5 and a clock",
                    json!({"preset": "house", "seats": 4, "overrides": {"call_threshold": 5},
                           "clock": {"turn_ms": 30000, "decision_ms": 15000}}),
                ),
            ],
        ),
        (
            "post",
            "/v1/tables/{id}/join",
            vec![
                ("first_free", "The first free seat", json!({})),
                ("seat", "Seat 1", json!({"seat": 1})),
            ],
        ),
        ("post", "/v1/tables/{id}/actions", action_examples()),
        (
            "post",
            "/v1/tournaments/{id}/paper-check",
            vec![(
                "two_rounds",
                "A paper sheet of three seats: a call by seat 0, then seat 2's",
                json!({"seats": 3, "rounds": [
                    {"ending": {"kind": "call", "caller": 0}, "hand_totals": [3, 12, 20]},
                    {"ending": {"kind": "call", "caller": 2}, "hand_totals": [9, 14, 5]}
                ]}),
            )],
        ),
        (
            "post",
            "/v1/tournaments/{id}/tables/{stage}/{round}/{table}/no-show",
            vec![(
                "absent",
                "A player who did not come",
                json!({"player": 42, "reason": "not at the table 15 minutes after the start"}),
            )],
        ),
    ]
}

/// One example per action kind, named by its `type`.
fn action_examples() -> Vec<(&'static str, &'static str, Value)> {
    vec![
        (
            "play",
            "Throw a pair, draw from the stock",
            json!({"type": "play", "throw": ["7H", "7S"], "draw": "stock"}),
        ),
        ("call", "Call Yaniv", json!({"type": "call"})),
        (
            "slap",
            "Slap the card just drawn onto your own throw",
            json!({"type": "slap", "card": "8H"}),
        ),
        (
            "add_on",
            "Lay a queen onto another player's pair of queens",
            json!({"type": "add_on", "cards": ["QC"]}),
        ),
        (
            "go_along",
            "Belgian: go along with the call",
            json!({"type": "go_along", "going": true}),
        ),
        (
            "onderkluft",
            "Kluft: challenge the call",
            json!({"type": "onderkluft", "challenge": true}),
        ),
        (
            "pass",
            "Let the out-of-turn window go",
            json!({"type": "pass"}),
        ),
        (
            "return",
            "Come back after being absent",
            json!({"type": "return"}),
        ),
        (
            "contribute",
            "Player entropy: this seat's 32 bytes for the next deal",
            json!({"type": "contribute",
                   "value": "9f2c4e6a8b0d1f3e5a7c9b1d3f5e7a9c0b2d4f6e8a0c2e4b6d8f0a2c4e6b8d0f"}),
        ),
        (
            "waterfall",
            "Waterfall: pass a run around the table",
            json!({"type": "waterfall", "cards": ["4C", "5C", "6C"]}),
        ),
        (
            "waterfall_pick",
            "Waterfall: keep one of the cards passed to you",
            json!({"type": "waterfall_pick", "card": "5C"}),
        ),
        (
            "kill_pile",
            "Fifths Disease: kill the pile of pairs",
            json!({"type": "kill_pile", "size": 2}),
        ),
    ]
}

/// `(method, path, status, answer)`: the main answers, as a server gave them.
const ANSWERS: [(&str, &str, &str, &str); 6] = [
    (
        "post",
        "/v1/accounts",
        "201",
        include_str!("examples/account.json"),
    ),
    (
        "post",
        "/v1/sessions",
        "201",
        include_str!("examples/session.json"),
    ),
    (
        "post",
        "/v1/tables",
        "201",
        include_str!("examples/table.json"),
    ),
    (
        "get",
        "/v1/tables/{id}/view",
        "200",
        include_str!("examples/view.json"),
    ),
    (
        "post",
        "/v1/tables/{id}/actions",
        "200",
        include_str!("examples/action.json"),
    ),
    (
        "get",
        "/v1/tables/{id}/events",
        "200",
        include_str!("examples/events.json"),
    ),
];

pub struct BodyExamplesPass;

impl Modify for BodyExamplesPass {
    fn modify(&self, openapi: &mut OpenApi) {
        for (method, path, status, answer) in ANSWERS {
            let Ok(value) = serde_json::from_str::<Value>(answer) else {
                continue;
            };
            let Some(item) = openapi.paths.paths.get_mut(path) else {
                continue;
            };
            let op = match method {
                "get" => item.get.as_mut(),
                "post" => item.post.as_mut(),
                _ => None,
            };
            let Some(RefOr::T(response)) = op.and_then(|op| op.responses.responses.get_mut(status))
            else {
                continue;
            };
            if let Some(RefOr::T(content)) = response.content.get_mut("application/json") {
                content.example = Some(value);
            }
        }
        for (method, path, bodies) in examples() {
            let Some(item) = openapi.paths.paths.get_mut(path) else {
                continue;
            };
            let op = match method {
                "post" => item.post.as_mut(),
                "put" => item.put.as_mut(),
                _ => None,
            };
            let Some(RefOr::T(body)) = op.and_then(|op| op.request_body.as_mut()) else {
                continue;
            };
            for content in body.content.values_mut() {
                let RefOr::T(content) = content else {
                    continue;
                };
                for (name, summary, value) in &bodies {
                    content.examples.insert(
                        (*name).to_owned(),
                        RefOr::T(
                            ExampleBuilder::new()
                                .summary(*summary)
                                .value(Some(value.clone()))
                                .build(),
                        ),
                    );
                }
            }
        }
    }
}
