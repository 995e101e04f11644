//! Issue #27's property: random tournaments played through the API, read by random
//! actors over every surface after every move, and no read reveals a live secret,
//! judged against what the database holds (the truth the test knows), not against what
//! the server says about itself.
//!
//! The actors: the players of each table, the organizer (who plays when the cup lets
//! officials play), a referee who does not play, a referee who does (when allowed), an
//! admin, an account holding the organizer and referee roles that the cup never named,
//! and an anonymous caller. The surfaces: a table's events, view, pushed stream,
//! record, audit, diff and verification; the tournament's events and archive.
//!
//! What must hold, for every read: no seed of a round in play (the deal's, or the
//! server's committed for it) appears anywhere; a stock draw of a round in play shows
//! its card only to the seat that drew it and the table's referees; every hand only to
//! those referees; an audit, diff or verification of a round in play only to them; an
//! archive holds nothing of a round in play, nor a checkpoint head past it.
//!
//! `TRUST_SEED=<n>` replays one run; the seed is printed with every failure.

use std::collections::BTreeMap;
use std::time::Duration;

use reqwest::StatusCode;
use serde_json::{Value, json};
use yaniv_api::checkpoints;
use yaniv_domain::sim::SplitMix64;
use yaniv_e2e_tests::tables::{Player, play_to_end};
use yaniv_e2e_tests::tournaments::tables_of;
use yaniv_e2e_tests::{TestApp, spawn_app};

/// Someone who reads: their token (none: anonymous) and account.
#[derive(Debug, Clone)]
struct Reader {
    name: String,
    token: Option<String>,
    account: Option<i64>,
}

/// The tournament as the test set it up: who officiates without playing, who plays.
struct Cup {
    id: i64,
    /// The officials who play nowhere in it (named, holding their role).
    neutral: Vec<i64>,
    /// Each online table: its game table id and the accounts seated at it.
    tables: Vec<(i64, Vec<i64>)>,
}

impl Cup {
    /// Whether `reader` is entitled to see every hand at game table `game`.
    fn referees(&self, reader: &Reader, _game: i64) -> bool {
        reader.account.is_some_and(|a| self.neutral.contains(&a))
    }

    fn seat(&self, reader: &Reader, game: i64) -> Option<u64> {
        let (_, seated) = self.tables.iter().find(|(g, _)| *g == game)?;
        let account = reader.account?;
        seated.iter().position(|a| *a == account).map(|s| s as u64)
    }
}

/// A table's stream as stored.
async fn stored(app: &TestApp, game: i64) -> Vec<(u64, String, Value, Vec<u8>)> {
    let rows: Vec<(i64, String, String, Vec<u8>)> = sqlx::query_as(
        "SELECT version, event_type, payload, hash FROM events WHERE stream_id = $1 \
         ORDER BY version",
    )
    .bind(format!("table-{game}"))
    .fetch_all(&app.db)
    .await
    .expect("the stored stream");
    rows.into_iter()
        .map(|(v, t, p, h)| (v as u64, t, serde_json::from_str(&p).expect("JSON"), h))
        .collect()
}

/// The truth of one table: where its round in play begins, that round's seeds, and
/// the hash of the last event before it.
#[derive(Debug, Clone, Default)]
struct Truth {
    live_from: Option<u64>,
    seeds: Vec<String>,
    head_before_live: Option<String>,
}

async fn truth(app: &TestApp, game: i64) -> Truth {
    let events = stored(app, game).await;
    let ended = events
        .iter()
        .rposition(|(_, t, _, _)| t == "round_ended.v1")
        .map_or(0, |i| i + 1);
    let mut truth = Truth::default();
    for (version, kind, payload, _) in &events[ended..] {
        let seed = match kind.as_str() {
            "deal_seed_committed.v1" => payload["seed"].as_str(),
            "round_dealt.v1" => payload["deal"]["seed"].as_str(),
            _ => continue,
        };
        truth.live_from.get_or_insert(*version);
        truth.seeds.extend(seed.map(str::to_owned));
    }
    if let Some(from) = truth.live_from {
        truth.head_before_live = events
            .iter()
            .rfind(|(v, ..)| *v < from)
            .map(|(.., h)| hex::encode(h));
    }
    truth
}

/// Every event a table's NDJSON stream sends from the start, up to its first view.
async fn stream_snapshot(app: &TestApp, game: i64, token: &str) -> (Vec<Value>, Value) {
    // A stream this check dropped holds its slot of the token's cap until the server
    // notices the closed connection; a 429 is then waited out as its Retry-After says,
    // as a client would.
    let mut waited = Duration::ZERO;
    let mut response = loop {
        let response = app
            .client
            .get(app.url(&format!("/v1/tables/{game}/stream?after=0")))
            .bearer_auth(token)
            .header("accept", "application/x-ndjson")
            .send()
            .await
            .expect("GET stream");
        if response.status() != StatusCode::TOO_MANY_REQUESTS || waited > Duration::from_secs(60) {
            break response;
        }
        let retry_after = response
            .headers()
            .get("retry-after")
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.parse::<u64>().ok())
            .unwrap_or(1);
        let pause = Duration::from_secs(retry_after.clamp(1, 10));
        tokio::time::sleep(pause).await;
        waited += pause;
    };
    assert_eq!(response.status(), StatusCode::OK);
    let mut pending = String::new();
    let mut events = Vec::new();
    loop {
        while let Some(end) = pending.find('\n') {
            let line: String = pending.drain(..=end).collect();
            let line = line.trim();
            if line.is_empty() {
                continue;
            }
            let message: Value = serde_json::from_str(line).expect("an NDJSON line");
            match message["kind"].as_str() {
                Some("event") => events.push(message["data"].clone()),
                Some("view") => return (events, message["data"].clone()),
                _ => {}
            }
        }
        let chunk = tokio::time::timeout(Duration::from_secs(10), response.chunk())
            .await
            .expect("the stream sends its view")
            .expect("read the stream")
            .expect("the stream stays open");
        pending.push_str(std::str::from_utf8(&chunk).expect("UTF-8"));
    }
}

/// The surfaces a read can go to.
#[derive(Debug, Clone, Copy)]
enum Surface {
    Events,
    View,
    Stream,
    Record,
    Audit,
    Diff,
    Verify,
    TournamentEvents,
    Archive,
}

const SURFACES: [Surface; 9] = [
    Surface::Events,
    Surface::View,
    Surface::Stream,
    Surface::Record,
    Surface::Audit,
    Surface::Diff,
    Surface::Verify,
    Surface::TournamentEvents,
    Surface::Archive,
];

/// The checks of one read, with what went wrong named by `context`.
struct Check<'a> {
    app: &'a TestApp,
    cup: &'a Cup,
    truths: BTreeMap<i64, Truth>,
    context: String,
}

impl Check<'_> {
    /// No live seed of any table anywhere in `text`.
    fn no_live_seed(&self, text: &str) {
        for (game, truth) in &self.truths {
            for seed in &truth.seeds {
                assert!(
                    !text.contains(seed.as_str()),
                    "{}: the live seed of table {game} is in the answer",
                    self.context
                );
            }
        }
    }

    /// A table's events as `reader` got them: the round in play hides other seats'
    /// stock draws from all but the table's referees.
    fn events(&self, reader: &Reader, game: i64, events: &[Value]) {
        let truth = &self.truths[&game];
        let Some(from) = truth.live_from else {
            return;
        };
        let own = self.cup.seat(reader, game);
        let referee = self.cup.referees(reader, game);
        for event in events {
            if event["version"].as_u64() < Some(from) || event["type"] != "turn_played.v1" {
                continue;
            }
            let draw = &event["payload"]["draw"];
            if draw.get("stock").is_none() {
                continue;
            }
            let drawer = event["payload"]["seat"].as_u64();
            let sees = referee || (own.is_some() && own == drawer);
            assert_eq!(
                draw["stock"].is_string(),
                sees,
                "{}: a stock draw of the round in play: {event}",
                self.context
            );
        }
    }

    /// A table's view as `reader` got it.
    fn view(&self, reader: &Reader, game: i64, view: &Value) {
        let truth = &self.truths[&game];
        let referee = self.cup.referees(reader, game);
        let hands_public = truth.live_from.is_none();
        assert_eq!(
            view["hands"].is_array(),
            view["table"]["status"] != "open" && (referee || hands_public),
            "{}: every hand: {view}",
            self.context
        );
        let seat = self.cup.seat(reader, game);
        assert_eq!(view["seat"].as_u64(), seat, "{}", self.context);
    }

    /// Whether `status` is what a read of a round in play allows `reader`: an audit,
    /// a diff or a verification is for referees of the table (verification for the
    /// operator too, sealed); otherwise 403.
    fn inspection(&self, reader: &Reader, game: i64, surface: Surface, status: StatusCode) {
        let Some(_) = reader.token else {
            assert_eq!(status, StatusCode::UNAUTHORIZED, "{}", self.context);
            return;
        };
        let referee = self.cup.referees(reader, game);
        let live = self.truths[&game].live_from.is_some();
        let admin = reader.name == "admin" && self.cup.seat(reader, game).is_none();
        let allowed = match surface {
            Surface::Verify => referee || admin,
            _ => referee || (admin && !live),
        };
        assert_eq!(
            status == StatusCode::OK,
            allowed,
            "{}: {status}",
            self.context
        );
    }

    /// An archive of the running tournament: nothing of a round in play.
    fn archive(&self, archive: &Value) {
        for stream in archive["streams"].as_array().expect("streams") {
            let Some(game) = stream["stream_id"]
                .as_str()
                .and_then(|s| s.strip_prefix("table-"))
                .and_then(|s| s.parse::<i64>().ok())
            else {
                continue;
            };
            let Some(truth) = self.truths.get(&game) else {
                continue;
            };
            let Some(from) = truth.live_from else {
                continue;
            };
            assert_eq!(stream["sealed_from"], from, "{}", self.context);
            for event in stream["events"].as_array().expect("events") {
                assert!(event["version"].as_u64() < Some(from), "{}", self.context);
            }
            for checkpoint in archive["checkpoints"].as_array().expect("checkpoints") {
                for head in checkpoint["heads"].as_array().expect("heads") {
                    if head["stream_id"] == stream["stream_id"] {
                        assert!(head["version"].as_u64() < Some(from), "{}", self.context);
                    }
                }
            }
        }
    }
}

/// One read of `surface` by `reader` (of game table `game` where it is a table's),
/// checked against the truth.
async fn read(app: &TestApp, cup: &Cup, reader: &Reader, surface: Surface, game: i64, seed: u64) {
    let mut truths = BTreeMap::new();
    for (g, _) in &cup.tables {
        truths.insert(*g, truth(app, *g).await);
    }
    let check = Check {
        app,
        cup,
        truths,
        context: format!(
            "TRUST_SEED={seed}: {} reads {surface:?} of table {game}",
            reader.name
        ),
    };
    let token = reader.token.as_deref();
    let id = cup.id;
    let response = match surface {
        Surface::Stream => {
            let Some(token) = token else { return };
            let (events, view) = stream_snapshot(check.app, game, token).await;
            let text = json!([events, view]).to_string();
            check.no_live_seed(&text);
            check.events(reader, game, &events);
            check.view(reader, game, &view);
            return;
        }
        Surface::Events => {
            app.get(&format!("/v1/tables/{game}/events?limit=1000"), token)
                .await
        }
        Surface::View => app.get(&format!("/v1/tables/{game}/view"), token).await,
        Surface::Record => app.get(&format!("/v1/tables/{game}/record"), token).await,
        Surface::Audit => app.get(&format!("/v1/tables/{game}/audit"), token).await,
        Surface::Diff => {
            app.get(&format!("/v1/tables/{game}/diff?from=1"), token)
                .await
        }
        Surface::Verify => {
            let mut request = app
                .client
                .post(app.url(&format!("/v1/tables/{game}/verify")));
            if let Some(token) = token {
                request = request.bearer_auth(token);
            }
            request.send().await.expect("POST verify")
        }
        Surface::TournamentEvents => {
            app.get(&format!("/v1/tournaments/{id}/events?limit=1000"), token)
                .await
        }
        Surface::Archive => {
            app.get(&format!("/v1/tournaments/{id}/archive"), token)
                .await
        }
    };
    let status = response.status();
    let text = response.text().await.expect("a body");
    check.no_live_seed(&text);
    if matches!(surface, Surface::Audit | Surface::Diff | Surface::Verify) {
        check.inspection(reader, game, surface, status);
    }
    if status != StatusCode::OK {
        return;
    }
    let body: Value = serde_json::from_str(&text).expect("JSON");
    match surface {
        Surface::Events => check.events(reader, game, body["events"].as_array().unwrap()),
        Surface::View => check.view(reader, game, &body),
        Surface::Audit if check.truths[&game].live_from.is_some() => {
            assert!(body["seed"].is_null(), "{}: {body}", check.context);
        }
        Surface::Verify => {
            let truth = &check.truths[&game];
            if truth.live_from.is_some() {
                assert_eq!(
                    body["head_hash"].as_str(),
                    truth.head_before_live.as_deref(),
                    "{}",
                    check.context
                );
            }
        }
        Surface::Archive => check.archive(&body),
        _ => {}
    }
}

/// Every reader reads every surface of game table `game`.
async fn sweep(app: &TestApp, cup: &Cup, readers: &[Reader], game: i64, seed: u64) {
    for reader in readers {
        for surface in SURFACES {
            read(app, cup, reader, surface, game, seed).await;
        }
    }
}

/// A random tournament of eight at two online tables, played to the end of its round
/// while random actors read random surfaces after every move, and everyone reads
/// everything every few moves.
#[tokio::test]
async fn no_read_by_any_actor_reveals_a_live_secret() {
    let seed = std::env::var("TRUST_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| u64::from_str_radix(&yaniv_e2e_tests::random_hex(8), 16).expect("hex"));
    let mut rng = SplitMix64::new(seed);
    let app = spawn_app().await;
    let api = app.api();
    let officials_play = rng.next_u64().is_multiple_of(2);
    let player_entropy = rng.next_u64().is_multiple_of(2);

    let org = app.new_organizer("olga").await;
    let rita = app.new_referee("rita").await;
    let stranger = app.new_player_with_role("otto", "organizer").await;
    let (_, admin) = app.admin().await;
    let mut entrants: Vec<Player> = Vec::new();
    if officials_play {
        entrants.push(org.clone());
    }
    for i in entrants.len()..8 {
        entrants.push(app.new_player(&format!("tp{i}")).await);
    }
    let body = json!({
        "name": "Trust cup", "capacity": 8,
        "rules": {"preset": "belgian", "overrides": {"game_end": {"lowest_wins": {"limit": 30, "at_limit": false}}}},
        "config": {"qualification_rounds": 1, "table_min": 4, "table_max": 4,
                   "officials_may_play": officials_play, "player_entropy": player_entropy},
    });
    let id = api
        .started_tournament_refereed(&org, &[&rita], &entrants, &body)
        .await;
    // A player of the cup named referee too, where officials may play.
    let playing_referee = entrants[1].clone();
    if officials_play {
        let add = json!({"command": "add_referee", "referee": playing_referee.id});
        app.set_roles(playing_referee.id, &["player", "referee"])
            .await;
        api.accepted(id, &org.token, &add).await;
    }
    let drawn = api.draw(id, &org.token, &json!({})).await;
    let seating = tables_of(&api.tournament_read(id, "/stages", &org.token).await, 1, 1);
    let tables: Vec<(i64, Vec<i64>)> = seating
        .iter()
        .enumerate()
        .map(|(k, (_, seated))| {
            let game = drawn["online_tables"][k]["game_table"].as_i64().unwrap();
            (game, seated.clone())
        })
        .collect();
    let neutral = if officials_play {
        vec![rita.id]
    } else {
        vec![rita.id, org.id]
    };
    let cup = Cup {
        id,
        neutral,
        tables: tables.clone(),
    };
    let reader = |p: &Player| Reader {
        name: p.name.clone(),
        token: Some(p.token.clone()),
        account: Some(p.id),
    };
    let mut readers = vec![
        reader(&org),
        reader(&rita),
        reader(&stranger),
        Reader {
            name: "admin".into(),
            token: Some(admin.clone()),
            account: Some(1),
        },
        Reader {
            name: "anonymous".into(),
            token: None,
            account: None,
        },
    ];
    for (_, seated) in &tables {
        let at = entrants.iter().find(|p| p.id == seated[0]).unwrap();
        readers.push(reader(at));
    }
    if officials_play {
        readers.push(reader(&playing_referee));
    }
    checkpoints::write(&app.db).await.expect("a checkpoint");

    sweep(&app, &cup, &readers, tables[0].0, seed).await;
    let mut reads = 0usize;
    for (game, seated) in &tables {
        let humans: Vec<Player> = seated
            .iter()
            .map(|a| entrants.iter().find(|p| p.id == *a).cloned().unwrap())
            .collect();
        let (readers, cup, app) = (&readers, &cup, &app);
        let rng = &mut rng;
        let reads = &mut reads;
        play_to_end(&api, *game, &humans, 3_000, 1, |action| {
            let who = rng.next_u64() as usize % readers.len();
            let what = rng.next_u64() as usize % SURFACES.len();
            let which = rng.next_u64() as usize % cup.tables.len();
            *reads += 1;
            async move {
                let table = cup.tables[which].0;
                read(app, cup, &readers[who], SURFACES[what], table, seed).await;
                if action.is_multiple_of(25) {
                    sweep(app, cup, readers, table, seed).await;
                }
            }
        })
        .await;
        checkpoints::write(&app.db).await.expect("a checkpoint");
        sweep(app, cup, readers, *game, seed).await;
    }
    assert!(
        reads > 20,
        "TRUST_SEED={seed}: only {reads} moves were read after"
    );
}
