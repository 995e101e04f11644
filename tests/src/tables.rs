//! Helpers of the game-table tests: typed requests on `/v1/tables`, setting up a
//! started table, a simple player that picks its moves from the seat view's legal
//! actions, and checks that a player's view and events hide what they must.

use std::collections::BTreeMap;

use reqwest::{Response, StatusCode};
use serde_json::{Value, json};
use yaniv_api::config::Settings;
use yaniv_api::startup::Application;

use crate::{TestApp, test_settings};

/// One server answering on `address` (the test's, or a second one on its database).
#[derive(Debug, Clone)]
pub struct Api {
    pub address: String,
    pub client: reqwest::Client,
}

/// The value of the sample of a `/metrics` text whose line starts with `prefix`.
pub fn metric_sample(text: &str, prefix: &str) -> f64 {
    text.lines()
        .find_map(|line| line.strip_prefix(prefix))
        .and_then(|rest| rest.trim().parse().ok())
        .unwrap_or_else(|| panic!("no sample {prefix} in:\n{text}"))
}

/// A logged-in account.
#[derive(Debug, Clone)]
pub struct Player {
    pub name: String,
    pub id: i64,
    pub token: String,
}

impl TestApp {
    /// The test's server as an [`Api`].
    pub fn api(&self) -> Api {
        Api {
            address: self.address.clone(),
            client: self.client.clone(),
        }
    }

    /// Starts another server on this test's database (a second instance behind a
    /// load balancer, or the same server after a restart).
    pub async fn spawn_instance(&self) -> Api {
        self.spawn_instance_with(|_| {}).await
    }

    /// [`TestApp::spawn_instance`] with `customize`d settings.
    pub async fn spawn_instance_with(&self, customize: impl FnOnce(&mut Settings)) -> Api {
        let mut settings = test_settings(self.database.url.clone(), &self.admin_password);
        customize(&mut settings);
        let app = Application::build(settings)
            .await
            .expect("the second server failed to start");
        let address = format!("http://127.0.0.1:{}", app.port());
        tokio::spawn(app.run_until_stopped());
        Api {
            address,
            client: self.client.clone(),
        }
    }

    /// Registers and logs in `name`.
    pub async fn new_player(&self, name: &str) -> Player {
        let (id, token) = self.player(name).await;
        Player {
            name: name.to_owned(),
            id,
            token,
        }
    }

    /// Registers `name` and makes it a referee (and player).
    pub async fn new_referee(&self, name: &str) -> Player {
        self.new_player_with_role(name, "referee").await
    }

    /// Registers `name` and grants it `role` besides `player`.
    pub async fn new_player_with_role(&self, name: &str, role: &str) -> Player {
        let player = self.new_player(name).await;
        self.set_roles(player.id, &["player", role]).await;
        player
    }

    /// The admin gives `account` exactly `roles` (`PUT /v1/accounts/{id}/roles`).
    pub async fn set_roles(&self, account: i64, roles: &[&str]) {
        let (_, admin) = self.admin().await;
        let response = self
            .client
            .put(self.url(&format!("/v1/accounts/{account}/roles")))
            .bearer_auth(&admin)
            .json(&json!({ "roles": roles }))
            .send()
            .await
            .expect("PUT roles");
        assert_eq!(response.status(), StatusCode::OK, "roles {roles:?}");
    }

    /// `POST /v1/tournaments/{id}/registrations` with a CSV door list.
    pub async fn door_list(&self, id: i64, token: &str, csv: &str) -> reqwest::Response {
        self.client
            .post(self.url(&format!("/v1/tournaments/{id}/registrations")))
            .bearer_auth(token)
            .header("content-type", "text/csv")
            .body(csv.to_owned())
            .send()
            .await
            .expect("POST registrations")
    }
}

impl Api {
    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.address)
    }

    /// The sample of this server's `/metrics` whose line starts with `prefix` (its
    /// name, with its labels if it has any).
    pub async fn metric(&self, prefix: &str) -> f64 {
        let text = self
            .client
            .get(self.url("/metrics"))
            .send()
            .await
            .expect("GET /metrics")
            .text()
            .await
            .expect("the figures");
        metric_sample(&text, prefix)
    }

    pub async fn get(&self, path: &str, token: &str) -> Response {
        self.client
            .get(self.url(path))
            .bearer_auth(token)
            .send()
            .await
            .expect("GET")
    }

    pub async fn post(&self, path: &str, token: &str, body: Option<&Value>) -> Response {
        let mut request = self.client.post(self.url(path)).bearer_auth(token);
        if let Some(body) = body {
            request = request.json(body);
        }
        request.send().await.expect("POST")
    }

    /// `POST /v1/tables/{id}/actions`, optionally with an `Idempotency-Key`.
    pub async fn act(
        &self,
        table: i64,
        token: &str,
        action: &Value,
        key: Option<&str>,
    ) -> Response {
        let mut request = self
            .client
            .post(self.url(&format!("/v1/tables/{table}/actions")))
            .bearer_auth(token)
            .json(action);
        if let Some(key) = key {
            request = request.header("Idempotency-Key", key);
        }
        request.send().await.expect("POST action")
    }

    /// A JSON answer with the expected status.
    pub async fn json_ok(response: Response, status: StatusCode, what: &str) -> Value {
        let got = response.status();
        let body = response.text().await.unwrap_or_default();
        assert_eq!(got, status, "{what}: {body}");
        serde_json::from_str(&body).unwrap_or_else(|e| panic!("{what}: not JSON ({e}): {body}"))
    }

    pub async fn create_table(&self, token: &str, body: &Value) -> Value {
        let response = self.post("/v1/tables", token, Some(body)).await;
        Self::json_ok(response, StatusCode::CREATED, "create table").await
    }

    pub async fn join(&self, table: i64, token: &str) -> Value {
        let response = self
            .post(&format!("/v1/tables/{table}/join"), token, None)
            .await;
        Self::json_ok(response, StatusCode::OK, "join").await
    }

    pub async fn start(&self, table: i64, token: &str) -> Value {
        let response = self
            .post(&format!("/v1/tables/{table}/start"), token, None)
            .await;
        Self::json_ok(response, StatusCode::OK, "start").await
    }

    pub async fn summary(&self, table: i64, token: &str) -> Value {
        let response = self.get(&format!("/v1/tables/{table}"), token).await;
        Self::json_ok(response, StatusCode::OK, "summary").await
    }

    pub async fn view(&self, table: i64, token: &str) -> Value {
        let response = self.get(&format!("/v1/tables/{table}/view"), token).await;
        Self::json_ok(response, StatusCode::OK, "view").await
    }

    /// Every event after `after`, all pages.
    pub async fn events(&self, table: i64, token: &str, after: u64) -> Vec<Value> {
        let mut after = after;
        let mut all = Vec::new();
        loop {
            let response = self
                .get(
                    &format!("/v1/tables/{table}/events?after={after}&limit=1000"),
                    token,
                )
                .await;
            let page = Self::json_ok(response, StatusCode::OK, "events").await;
            all.extend(page["events"].as_array().cloned().unwrap_or_default());
            after = page["next_after"].as_u64().expect("next_after");
            if !page["has_more"].as_bool().expect("has_more") {
                return all;
            }
        }
    }

    /// Creates a table with `body`, seats `humans` in order (seats left after the
    /// bots), and starts it (as the first human, its creator). Returns its id.
    pub async fn started_table(&self, body: &Value, humans: &[Player]) -> i64 {
        let created = self.create_table(&humans[0].token, body).await;
        let id = created["id"].as_i64().expect("table id");
        for player in humans {
            self.join(id, &player.token).await;
        }
        self.start(id, &humans[0].token).await;
        id
    }
}

/// Points of a card in record notation under standard values.
pub fn card_points(card: &str) -> u32 {
    if card == "JK" {
        return 0;
    }
    match &card[..card.len() - 1] {
        "A" => 1,
        "J" | "Q" | "K" => 10,
        rank => rank.parse().unwrap_or(10),
    }
}

fn strings(value: &Value) -> Vec<String> {
    value
        .as_array()
        .map(|items| {
            items
                .iter()
                .filter_map(|v| v.as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default()
}

/// The discard cards a throw of `size` cards may draw: `legal.draw_from_discard`, or
/// under Cell Division the entry of `legal.discard_draws` for that size.
pub fn draws_for(legal: &Value, size: usize) -> Vec<String> {
    match legal["discard_draws"].as_array() {
        Some(by_size) if !by_size.is_empty() => by_size
            .iter()
            .find(|d| d["size"].as_u64() == Some(size as u64))
            .map(|d| strings(&d["cards"]))
            .unwrap_or_default(),
        _ => strings(&legal["draw_from_discard"]),
    }
}

/// A simple, legal strategy from a seat view's `legal` actions: call with a hand of
/// 5 or less (or nothing to throw), go along with 2 or less, challenge with 3 or
/// less; keep the lowest card of a waterfall, and pass any straight one may; else throw the most points and draw a low discard (3 or less, and fewer
/// points than the throw) or from the stock.
pub fn choose(view: &Value) -> Option<Value> {
    let legal = &view["legal"];
    let total = view["hand_total"].as_u64().unwrap_or(u64::MAX);
    if legal["go_along"].as_bool() == Some(true) {
        return Some(json!({"type": "go_along", "going": total <= 2}));
    }
    if legal["onderkluft"].as_bool() == Some(true) {
        return Some(json!({"type": "onderkluft", "challenge": total <= 3}));
    }
    // Waterfall: keep the lowest card passed; pass the first straight there is.
    if let Some(card) = strings(&legal["waterfall_pick"])
        .into_iter()
        .min_by_key(|c| card_points(c))
    {
        return Some(json!({"type": "waterfall_pick", "card": card}));
    }
    if let Some(cards) = legal["waterfalls"].as_array().and_then(|w| w.first()) {
        return Some(json!({"type": "waterfall", "cards": cards}));
    }
    // Fifths disease: the five of diamonds kills the first pile it may.
    if let Some(size) = legal["kill_piles"].as_array().and_then(|k| k.first()) {
        return Some(json!({"type": "kill_pile", "size": size}));
    }
    let nothing_to_throw = legal["throws"].as_array().is_none_or(Vec::is_empty);
    if legal["call"].as_bool() == Some(true) && (total <= 5 || nothing_to_throw) {
        return Some(json!({"type": "call"}));
    }
    let throws: Vec<Vec<String>> = legal["throws"].as_array()?.iter().map(strings).collect();
    let throw = throws
        .iter()
        .max_by_key(|t| (t.iter().map(|c| card_points(c)).sum::<u32>(), t.len()))?;
    let thrown: u32 = throw.iter().map(|c| card_points(c)).sum();
    let discard = draws_for(legal, throw.len())
        .into_iter()
        .filter(|c| !throw.contains(c))
        .min_by_key(|c| card_points(c));
    // A discard is taken only when it leaves the hand lower: two players who each
    // throw a 3 and take the other's 3 back would otherwise do so forever.
    let draw = match discard {
        Some(card) if card_points(&card) <= 3 && card_points(&card) < thrown => {
            json!({"discard": card})
        }
        _ if legal["draw_from_stock"].as_bool() == Some(true) => json!("stock"),
        Some(card) => json!({"discard": card}),
        None => return None,
    };
    let mut play = json!({"type": "play", "throw": throw, "draw": draw});
    // Crazy queens: a throw with a queen passes the highest card left to the first
    // seat it may target.
    let targets = legal["queen_targets"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let queen = throw.iter().any(|c| c.starts_with('Q'));
    let left = strings(&view["hand"])
        .into_iter()
        .filter(|c| !throw.contains(c))
        .max_by_key(|c| card_points(c));
    if let (true, Some(target), Some(give)) = (queen, targets.first(), left) {
        play["queen"] = json!({"target": target, "give": give});
    }
    Some(play)
}

/// A slap of `card`: a slapped queen passes a card as a thrown one does (Crazy queens,
/// where slapped cards play), the highest card left to the first seat it may target.
fn slap(view: &Value, card: &str) -> Value {
    let mut action = json!({"type": "slap", "card": card});
    let mut left = strings(&view["hand"]);
    if let Some(at) = left.iter().position(|c| c == card) {
        left.swap_remove(at);
    }
    let targets = view["legal"]["queen_targets"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let give = left.into_iter().max_by_key(|c| card_points(c));
    if let (true, Some(target), Some(give)) = (card.starts_with('Q'), targets.first(), give) {
        action["queen"] = json!({"target": target, "give": give});
    }
    action
}

/// Every card string anywhere in `value`.
pub fn cards_in(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::String(s) if s.parse::<yaniv_domain::cards::Card>().is_ok() => out.push(s.clone()),
        Value::Array(items) => items.iter().for_each(|v| cards_in(v, out)),
        Value::Object(map) => map.values().for_each(|v| cards_in(v, out)),
        _ => {}
    }
}

/// Checks that `view` (from `viewer`'s token) shows nothing hidden, against the
/// referee's view of the same version: a seated player sees only their own hand and
/// face-up cards; a spectator only face-up cards. Once the game is over, every hand is
/// everyone's.
pub fn check_view_hides(view: &Value, staff: &Value) {
    if view["table"]["status"] == "finished" {
        assert_eq!(
            view["hands"], staff["hands"],
            "a finished game shows its hands"
        );
        return;
    }
    assert!(
        view["hands"].is_null(),
        "only a referee sees every hand: {view}"
    );
    let mut visible: Vec<String> = strings(&view["game"]["top_throw"]);
    match view["seat"].as_u64() {
        Some(seat) => {
            let own = strings(&view["hand"]);
            assert_eq!(
                Some(&json!(own)),
                staff["hands"].get(seat as usize),
                "a player's hand is their hand"
            );
            visible.extend(own);
        }
        None => assert!(view["hand"].is_null() && view["legal"].is_null()),
    }
    let mut mentioned = Vec::new();
    cards_in(view, &mut mentioned);
    for card in mentioned {
        assert!(
            visible.contains(&card),
            "{card} is neither the viewer's nor face up: {view}"
        );
    }
}

/// Checks a viewer's events against the staff's events of the same table: equal
/// except where the viewer's are `null`; and for the round in play, no seed and no
/// stock card drawn by another seat.
pub fn check_events_hide(events: &[Value], staff: &[Value], seat: Option<u64>) {
    assert_eq!(events.len(), staff.len());
    fn same_or_hidden(mine: &Value, full: &Value, path: &str) {
        match (mine, full) {
            (Value::Null, _) => {}
            (Value::Object(a), Value::Object(b)) => {
                assert_eq!(a.len(), b.len(), "{path}");
                for (k, v) in a {
                    same_or_hidden(v, &b[k], &format!("{path}.{k}"));
                }
            }
            (Value::Array(a), Value::Array(b)) => {
                assert_eq!(a.len(), b.len(), "{path}");
                for (i, (x, y)) in a.iter().zip(b).enumerate() {
                    same_or_hidden(x, y, &format!("{path}[{i}]"));
                }
            }
            _ => assert_eq!(mine, full, "{path}"),
        }
    }
    for (mine, full) in events.iter().zip(staff) {
        same_or_hidden(mine, full, "event");
    }
    // The round in play: from its deal to the end, when no round_ended follows.
    let last_deal = events.iter().rposition(|e| e["type"] == "round_dealt.v1");
    let Some(last_deal) = last_deal else { return };
    let round_over = events[last_deal..]
        .iter()
        .any(|e| e["type"] == "round_ended.v1");
    if round_over {
        return;
    }
    let deal = &events[last_deal]["payload"]["deal"];
    assert!(
        deal["seed"].is_null(),
        "the seed of the round in play is hidden"
    );
    assert!(deal["commitment"].is_string(), "its commitment is public");
    for event in &events[last_deal..] {
        if event["type"] == "turn_played.v1" && event["payload"]["draw"].get("stock").is_some() {
            let drawer = event["payload"]["seat"].as_u64();
            let card = &event["payload"]["draw"]["stock"];
            if drawer == seat {
                assert!(card.is_string(), "a player sees their own stock draws");
            } else {
                assert!(
                    card.is_null(),
                    "another seat's stock draw is hidden: {event}"
                );
            }
        }
    }
}

/// Outcome of [`play_to_end`].
#[derive(Debug, Clone)]
pub struct Played {
    pub actions: usize,
    pub summary: Value,
    /// How many times each action type was sent.
    pub kinds: BTreeMap<String, usize>,
}

/// Plays the table to its end with [`choose`] for every human (the bots play
/// themselves), also laying slap-downs and add-ons whenever a human may, and calling
/// `check` every `check_every` actions. Panics after `max_actions`.
pub async fn play_to_end<F, Fut>(
    api: &Api,
    table: i64,
    humans: &[Player],
    max_actions: usize,
    check_every: usize,
    mut check: F,
) -> Played
where
    F: FnMut(usize) -> Fut,
    Fut: std::future::Future<Output = ()>,
{
    let by_name: BTreeMap<&str, &Player> = humans.iter().map(|p| (p.name.as_str(), p)).collect();
    let mut kinds = BTreeMap::new();
    let mut actions = 0;
    loop {
        let summary = api.summary(table, &humans[0].token).await;
        if summary["status"] == "finished" {
            return Played {
                actions,
                summary,
                kinds,
            };
        }
        assert!(
            actions < max_actions,
            "the game did not end in {max_actions} actions"
        );
        // Out of turn first: whoever may slap down or add on does.
        let mut acted = false;
        for player in humans {
            let view = api.view(table, &player.token).await;
            let legal = &view["legal"];
            let action = if legal["contribute"] == true {
                // Player entropy: 32 bytes of this player's own for the next deal.
                let byte = (actions % 251) as u8 ^ player.name.len() as u8;
                Some(json!({"type": "contribute", "value": hex::encode([byte; 32])}))
            } else if let Some(card) = legal["slap"].as_str() {
                Some(slap(&view, card))
            } else {
                legal["add_ons"]
                    .as_array()
                    .and_then(|a| a.first())
                    .map(|cards| json!({"type": "add_on", "cards": cards}))
            };
            if let Some(action) = action {
                let response = api.act(table, &player.token, &action, None).await;
                Api::json_ok(response, StatusCode::OK, &format!("{action}")).await;
                *kinds
                    .entry(action["type"].as_str().unwrap_or("").to_owned())
                    .or_insert(0) += 1;
                actions += 1;
                acted = true;
                break;
            }
        }
        if acted {
            continue;
        }
        let seat = summary["to_act"].as_u64().expect("someone must act") as usize;
        let name = summary["seats"][seat]["name"].as_str().expect("seat name");
        let player = by_name
            .get(name)
            .unwrap_or_else(|| panic!("seat {seat} ({name}) must act but is no human: {summary}"));
        let view = api.view(table, &player.token).await;
        let action = choose(&view).unwrap_or_else(|| panic!("nothing legal for {name}: {view}"));
        let response = api.act(table, &player.token, &action, None).await;
        let answer = Api::json_ok(response, StatusCode::OK, &format!("{name}: {action}")).await;
        assert!(answer["version"].as_u64() > summary["version"].as_u64());
        *kinds
            .entry(action["type"].as_str().unwrap_or("").to_owned())
            .or_insert(0) += 1;
        actions += 1;
        if check_every > 0 && actions % check_every == 0 {
            check(actions).await;
        }
    }
}
