//! The OpenAPI document against what the server does: a session of a player, an
//! organizer and an admin, every answer held up to the checked-in document.
//!
//! For each answer: its status is one the operation lists; a problem's `code` is in
//! `ProblemCode` and named by the description of that status; every header the
//! document declares for that status and that the server always sends (`X-Request-Id`,
//! a versioned read's `ETag`) is there; and every contract header the answer carries is
//! declared. Over the whole session, every header name the document declares on an
//! answer was sent at least once: a declaration the server never honours fails.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use reqwest::{RequestBuilder, StatusCode};
use serde_json::{Value, json};
use yaniv_e2e_tests::tables::{Api, Player};
use yaniv_e2e_tests::{TestApp, spawn_app_with};

/// Headers that make up the API's contract (not HTTP's own plumbing).
const CONTRACT_HEADERS: [&str; 5] = [
    "x-request-id",
    "etag",
    "retry-after",
    "idempotent-replayed",
    "content-disposition",
];

/// Declared headers the server sends on every answer that declares them (the archive's
/// own `ETag`, declared inline, comes only once the tournament is finished).
const ALWAYS_SENT: [&str; 2] = [
    "#/components/headers/X-Request-Id",
    "#/components/headers/ETag",
];

/// One answer, as the checks need it.
struct Seen {
    method: &'static str,
    template: String,
    status: StatusCode,
    headers: BTreeSet<String>,
    code: Option<String>,
}

struct Contract {
    doc: Value,
    seen: Vec<Seen>,
    problems: Vec<String>,
}

impl Contract {
    fn load() -> Self {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../openapi/openapi.json");
        let text = std::fs::read_to_string(path).expect("openapi/openapi.json");
        Self {
            doc: serde_json::from_str(&text).expect("the document is JSON"),
            seen: Vec::new(),
            problems: Vec::new(),
        }
    }

    /// The document's path template that `path` (no query) falls under.
    fn template(&self, path: &str) -> Option<String> {
        let segments: Vec<&str> = path.split('/').collect();
        let paths = self.doc["paths"].as_object()?;
        // A literal segment beats a parameter (`/v1/accounts/me` over `/{id}`).
        paths
            .keys()
            .filter(|template| {
                let parts: Vec<&str> = template.split('/').collect();
                parts.len() == segments.len()
                    && parts
                        .iter()
                        .zip(&segments)
                        .all(|(t, s)| t == s || (t.starts_with('{') && t.ends_with('}')))
            })
            .min_by_key(|template| template.matches('{').count())
            .cloned()
    }

    /// Sends `request`, records what came back and returns the answer's status and body.
    async fn send(&mut self, method: &'static str, request: RequestBuilder) -> (StatusCode, Value) {
        let response = request.send().await.expect("the request is sent");
        let url = response.url().clone();
        let status = response.status();
        let headers: BTreeSet<String> = response
            .headers()
            .keys()
            .map(|name| name.as_str().to_ascii_lowercase())
            .collect();
        let is_problem = response
            .headers()
            .get("content-type")
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.starts_with("application/problem+json"));
        let text = response.text().await.unwrap_or_default();
        let body: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
        let code = is_problem.then(|| body["code"].as_str().unwrap_or_default().to_owned());
        match self.template(url.path()) {
            Some(template) => self.seen.push(Seen {
                method,
                template,
                status,
                headers,
                code,
            }),
            None => self.problems.push(format!(
                "{method} {}: no operation of the document",
                url.path()
            )),
        }
        (status, body)
    }

    /// The problems found in every answer seen, and in the session as a whole.
    fn check(mut self) -> Vec<String> {
        let codes: BTreeSet<&str> = self.doc["components"]["schemas"]["ProblemCode"]["enum"]
            .as_array()
            .expect("ProblemCode's enum")
            .iter()
            .filter_map(Value::as_str)
            .collect();
        // header name → whether some answer that declares it carried it.
        let mut declared_sent: BTreeMap<String, bool> = BTreeMap::new();
        for (_, item) in self.doc["paths"].as_object().into_iter().flatten() {
            for (_, op) in item.as_object().into_iter().flatten() {
                for (_, response) in op["responses"].as_object().into_iter().flatten() {
                    for name in response["headers"]
                        .as_object()
                        .into_iter()
                        .flatten()
                        .map(|h| h.0)
                    {
                        declared_sent.insert(name.to_ascii_lowercase(), false);
                    }
                }
            }
        }
        for seen in &self.seen {
            let at = format!(
                "{} {} → {}",
                seen.method,
                seen.template,
                seen.status.as_u16()
            );
            let op = &self.doc["paths"][&seen.template][seen.method];
            if op.is_null() {
                self.problems.push(format!("{at}: no such operation"));
                continue;
            }
            let response = &op["responses"][seen.status.as_str()];
            if response.is_null() {
                self.problems.push(format!("{at}: status not listed"));
                continue;
            }
            if let Some(code) = &seen.code {
                if !codes.contains(code.as_str()) {
                    self.problems
                        .push(format!("{at}: code `{code}` is not in ProblemCode"));
                }
                let description = response["description"].as_str().unwrap_or_default();
                if !description.contains(&format!("`{code}`")) {
                    self.problems.push(format!(
                        "{at}: code `{code}` is not named by the response's description"
                    ));
                }
            }
            let headers = response["headers"].as_object();
            let declared: BTreeSet<String> = headers
                .into_iter()
                .flatten()
                .map(|(name, _)| name.to_ascii_lowercase())
                .collect();
            for (name, header) in headers.into_iter().flatten() {
                let name = name.to_ascii_lowercase();
                let always = header["$ref"]
                    .as_str()
                    .is_some_and(|r| ALWAYS_SENT.contains(&r));
                if seen.headers.contains(&name) {
                    declared_sent.insert(name, true);
                } else if always {
                    self.problems
                        .push(format!("{at}: declared `{name}` not sent"));
                }
            }
            for name in CONTRACT_HEADERS {
                if seen.headers.contains(name) && !declared.contains(name) {
                    self.problems
                        .push(format!("{at}: sends `{name}`, not declared"));
                }
            }
        }
        for (name, sent) in declared_sent {
            if !sent {
                self.problems.push(format!(
                    "`{name}` is declared but was never sent in the whole session"
                ));
            }
        }
        self.problems
    }
}

fn bearer(request: RequestBuilder, player: &Player) -> RequestBuilder {
    request.bearer_auth(&player.token)
}

#[tokio::test]
async fn every_answer_of_a_session_is_the_documents() {
    // One stream per token, so that a second one meets its 429 at once.
    let app: TestApp = spawn_app_with(|s| s.stream_limits.per_token = 1, Vec::new()).await;
    let api: Api = app.api();
    let client = app.client.clone();
    let url = |path: &str| app.url(path);
    let mut contract = Contract::load();

    let ann = app.new_player("ann").await;
    let org = app.new_organizer("ola").await;
    let (_, admin_token) = app.admin().await;
    let admin = Player {
        name: "admin".into(),
        id: 0,
        token: admin_token,
    };

    // A table: created twice with one key (the second answer is the stored one).
    let body = json!({"preset": "israeli", "seats": 3,
                      "bots": [{"seat": 1, "kind": "greedy"}, {"seat": 2, "kind": "random"}]});
    let mut table = 0;
    for _ in 0..2 {
        let request = bearer(client.post(url("/v1/tables")), &ann)
            .header("Idempotency-Key", "contract-create")
            .json(&body);
        let (status, created) = contract.send("post", request).await;
        assert_eq!(status, StatusCode::CREATED, "{created}");
        table = created["id"].as_i64().expect("table id");
    }
    let t = |suffix: &str| url(&format!("/v1/tables/{table}{suffix}"));
    let (_, summary) = contract.send("get", bearer(client.get(t("")), &ann)).await;
    let version = summary["version"].as_u64().expect("version");
    let tag = format!("\"{version}\"");
    contract
        .send(
            "get",
            bearer(client.get(t("")), &ann).header("If-None-Match", &tag),
        )
        .await;
    let (status, _) = contract
        .send(
            "post",
            bearer(client.post(t("/join")), &ann).header("If-Match", "\"999\""),
        )
        .await;
    assert_eq!(status, StatusCode::PRECONDITION_FAILED);
    contract
        .send(
            "post",
            bearer(client.post(t("/join")), &ann).header("If-Match", &tag),
        )
        .await;
    contract
        .send("post", bearer(client.post(t("/start")), &ann))
        .await;
    let (_, view) = contract
        .send("get", bearer(client.get(t("/view")), &ann))
        .await;
    // A move with a key, sent twice; then one out of turn or malformed.
    let legal = &view["legal"];
    let action = if legal["call"] == true {
        json!({"type": "call"})
    } else {
        json!({"type": "play", "throw": legal["throws"][0], "draw": "stock"})
    };
    for _ in 0..2 {
        contract
            .send(
                "post",
                bearer(client.post(t("/actions")), &ann)
                    .header("Idempotency-Key", "contract-move")
                    .json(&action),
            )
            .await;
    }
    contract
        .send(
            "post",
            bearer(client.post(t("/actions")), &ann)
                .json(&json!({"type": "play", "throw": ["XX"]})),
        )
        .await;
    for suffix in [
        "/view",
        "/rounds",
        "/record",
        "/events?after=0",
        "/diff?from=1",
    ] {
        contract
            .send("get", bearer(client.get(t(suffix)), &ann))
            .await;
    }
    contract
        .send("get", bearer(client.get(t("/audit")), &admin))
        .await;
    contract
        .send("get", bearer(client.get(t("/audit")), &ann))
        .await;
    contract
        .send("get", bearer(client.get(url("/v1/tables/999999")), &ann))
        .await;
    contract.send("get", client.get(t("/view"))).await;
    contract
        .send("get", client.get(t("/view")).bearer_auth("not-a-token"))
        .await;

    // Two streams on one token: the second is refused with a Retry-After.
    let first = bearer(client.get(t("/stream")), &ann)
        .send()
        .await
        .expect("a stream");
    assert_eq!(first.status(), StatusCode::OK);
    let (status, _) = contract
        .send("get", bearer(client.get(t("/stream")), &ann))
        .await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS);
    drop(first);

    // A tournament and its reads, the CSV files among them.
    let created = api
        .create_tournament(
            &org.token,
            &json!({"name": "Contract cup", "rules": {"preset": "belgian"}, "capacity": 8}),
        )
        .await;
    let cup = created["id"].as_i64().expect("tournament id");
    let c = |suffix: &str| url(&format!("/v1/tournaments/{cup}{suffix}"));
    contract
        .send(
            "post",
            bearer(client.post(c("/commands")), &org)
                .header("Idempotency-Key", "contract-open")
                .json(&json!({"command": "open_registration"})),
        )
        .await;
    contract
        .send(
            "post",
            bearer(client.post(c("/commands")), &org).json(&json!({"command": "finish"})),
        )
        .await;
    for suffix in [
        "",
        "/players",
        "/stages",
        "/interventions",
        "/events",
        "/standings",
        "/standings.csv",
        "/results",
        "/results.csv",
        "/ranking",
        "/ranking.csv",
        "/me",
        "/archive",
    ] {
        contract
            .send("get", bearer(client.get(c(suffix)), &org))
            .await;
    }

    // A log-in (its answer holds a token: not to be cached), then wrong passwords until
    // the log-in is refused for a while.
    let (status, _) = contract
        .send(
            "post",
            client
                .post(url("/v1/sessions"))
                .json(&json!({"username": "ann", "password": "password-of-ann"})),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED);
    for _ in 0..30 {
        let (status, _) = contract
            .send(
                "post",
                client
                    .post(url("/v1/sessions"))
                    .json(&json!({"username": "ann", "password": "not the password"})),
            )
            .await;
        if status == StatusCode::TOO_MANY_REQUESTS {
            break;
        }
    }

    let problems = contract.check();
    assert!(
        problems.is_empty(),
        "the server and its document disagree:\n{}",
        problems.join("\n")
    );
}
