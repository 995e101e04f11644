//! Reads from a replica (issue 33): with `YANIV_DATABASE_REPLICA_URL` naming a real
//! streaming standby, made for this test (`initdb`, `pg_basebackup -R`), the public
//! listing, the landing page and a finished tournament's kept archive are read from
//! it while it keeps up, and say so in `Replica-Lag-Ms`; with its replay paused past
//! the bound, or the standby stopped, the same reads come from the primary and stay
//! correct; commands never read it.

use std::time::{Duration, Instant};

use reqwest::StatusCode;
use reqwest::header::HeaderMap;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use yaniv_api::checkpoints;
use yaniv_e2e_tests::standby::StreamingPair;
use yaniv_e2e_tests::tables::{Api, Player};
use yaniv_e2e_tests::tournaments::{cup_with_a_finished_online_game_and, short_belgian_rules};
use yaniv_e2e_tests::{TestApp, TestDatabase, spawn_app_on, with_database};

/// The bound the server is given: short, so that the test sees it passed soon.
const MAX_LAG: Duration = Duration::from_millis(1500);
/// How long a read may take to reach the replica again once it keeps up.
const CATCH_UP: Duration = Duration::from_secs(15);

const LAG_HEADER: &str = "replica-lag-ms";

struct Answer {
    status: StatusCode,
    headers: HeaderMap,
    body: Vec<u8>,
}

impl Answer {
    /// The lag it says it was read at, if a replica answered.
    fn lag_ms(&self) -> Option<u64> {
        let value = self.headers.get(LAG_HEADER)?;
        Some(
            value
                .to_str()
                .ok()
                .and_then(|v| v.parse().ok())
                .unwrap_or_else(|| panic!("{LAG_HEADER}: {value:?} is not milliseconds")),
        )
    }

    fn json(&self) -> Value {
        serde_json::from_slice(&self.body).expect("JSON")
    }
}

async fn get(api: &Api, path: &str) -> Answer {
    let response = api
        .client
        .get(api.url(path))
        .send()
        .await
        .unwrap_or_else(|e| panic!("GET {path}: {e}"));
    let status = response.status();
    let headers = response.headers().clone();
    let body = response.bytes().await.expect("the body").to_vec();
    Answer {
        status,
        headers,
        body,
    }
}

/// Asks `path` until a replica answers it and `accept` holds of the answer.
async fn until_the_replica_answers(
    api: &Api,
    path: &str,
    accept: impl Fn(&Answer) -> bool,
) -> Answer {
    let deadline = Instant::now() + CATCH_UP;
    loop {
        let answer = get(api, path).await;
        assert_eq!(answer.status, StatusCode::OK, "{path}");
        if answer.lag_ms().is_some() && accept(&answer) {
            return answer;
        }
        assert!(
            Instant::now() < deadline,
            "{path} was never answered by the replica"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

fn listed(answer: &Answer, id: i64) -> bool {
    answer.json()["tournaments"]
        .as_array()
        .expect("a page")
        .iter()
        .any(|t| t["id"] == id)
}

/// The kept archive of `id` as the primary stores it.
async fn kept_on_primary(app: &TestApp, id: i64) -> Vec<u8> {
    sqlx::query_scalar("SELECT body FROM tournament_archives WHERE tournament_id = $1")
        .bind(id)
        .fetch_one(&app.db)
        .await
        .expect("the kept archive")
}

fn etag_of(body: &[u8]) -> String {
    format!("\"{}\"", hex::encode(Sha256::digest(body)))
}

async fn readyz_replica(api: &Api) -> Value {
    let answer = get(api, "/readyz").await;
    assert_eq!(answer.status, StatusCode::OK, "ready whatever the replica");
    answer.json()["replica"].clone()
}

async fn replica_reads(api: &Api) -> (f64, f64) {
    (
        api.metric("yaniv_replica_reads_total{served_by=\"replica\"}")
            .await,
        api.metric("yaniv_replica_reads_total{served_by=\"primary\"}")
            .await,
    )
}

/// A tournament created, opened, filled, closed, checked into and started: each step a
/// command that reads what the one before wrote.
async fn tournament_built_by_commands(api: &Api, org: &Player, players: &[Player]) -> i64 {
    let body = json!({
        "name": "Built while the replica stood still",
        "rules": short_belgian_rules(),
        "capacity": 4,
        "config": {"qualification_rounds": 1, "table_min": 4, "table_max": 4},
    });
    api.started_tournament(org, players, &body).await
}

#[tokio::test]
async fn public_reads_go_to_the_replica_within_its_bound_and_to_the_primary_otherwise() {
    // Declared first: dropped last, after the server and its database.
    let mut pair = StreamingPair::start();
    let database = TestDatabase::create_on(pair.primary_url.clone()).await;
    pair.wait_for_database_on_standby(&database.name).await;
    let replica_url = with_database(&pair.standby_url, &database.name);
    let app = spawn_app_on(
        database,
        |settings| {
            settings.replica_url = Some(replica_url.into());
            settings.replica_max_lag = MAX_LAG;
        },
        Vec::new(),
    )
    .await;
    let (api, id, org, _game) =
        cup_with_a_finished_online_game_and(&app, &short_belgian_rules(), false).await;
    api.finish_with_a_paper_final(id, &org.token).await;
    checkpoints::write(&app.db).await.expect("a checkpoint");
    let archive = format!("/v1/tournaments/{id}/archive");

    // (a) The first read builds the archive on the primary and keeps it; once the
    // standby has replayed the kept copy, it sends the same bytes.
    let built = get(&api, &archive).await;
    assert_eq!(built.status, StatusCode::OK);
    let from_replica = until_the_replica_answers(&api, &archive, |_| true).await;
    assert_eq!(from_replica.body, built.body, "byte for byte the primary's");
    assert_eq!(from_replica.body, kept_on_primary(&app, id).await);
    assert_eq!(from_replica.headers["etag"], built.headers["etag"]);
    assert!(
        from_replica
            .lag_ms()
            .is_some_and(|ms| ms <= MAX_LAG.as_millis() as u64)
    );
    // The listing and the landing page too, with the finished cup in them.
    let page = until_the_replica_answers(&api, "/v1/tournaments", |a| listed(a, id)).await;
    assert!(
        page.lag_ms()
            .is_some_and(|ms| ms <= MAX_LAG.as_millis() as u64)
    );
    until_the_replica_answers(&api, "/", |a| {
        String::from_utf8_lossy(&a.body).contains(&format!("href=\"/t/{id}\""))
    })
    .await;
    assert_eq!(readyz_replica(&api).await["state"], "in_use");
    assert_eq!(api.metric("yaniv_replica_up ").await, 1.0);
    assert!(api.metric("yaniv_replica_lag_seconds ").await < MAX_LAG.as_secs_f64());

    // An idle primary does not make a replica that holds everything look stale: with
    // nothing written for twice the bound, the listing still comes from the replica.
    tokio::time::sleep(2 * MAX_LAG).await;
    let idle = get(&api, "/v1/tournaments").await;
    assert!(
        idle.lag_ms()
            .is_some_and(|ms| ms <= MAX_LAG.as_millis() as u64),
        "an idle primary: {:?}",
        idle.headers
    );

    // (d) With the standby's replay paused, commands that each read what the one before
    // wrote still work: none reads the replica (which never sees the new tournament),
    // and none counts as a lag-tolerant read.
    let mut players = Vec::new();
    for i in 1..=4 {
        players.push(app.new_player(&format!("rp{i}")).await);
    }
    pair.on_standby("SELECT pg_wal_replay_pause()").await;
    let reads_before = replica_reads(&api).await;
    let paused_at = Instant::now();
    let newer = tournament_built_by_commands(&api, &org, &players).await;
    assert_eq!(replica_reads(&api).await, reads_before, "no command read");
    let on_standby: i64 = {
        let standby = sqlx::PgPool::connect(&with_database(&pair.standby_url, &app.database.name))
            .await
            .expect("the standby");
        sqlx::query_scalar("SELECT count(*) FROM tournaments WHERE id = $1")
            .bind(newer)
            .fetch_one(&standby)
            .await
            .expect("read the standby")
    };
    assert_eq!(
        on_standby, 0,
        "the paused standby lacks what the commands wrote"
    );

    // (b) Past the bound, the listing comes from the primary, and holds the new one.
    let past_bound = (paused_at + MAX_LAG + Duration::from_millis(700))
        .saturating_duration_since(Instant::now());
    tokio::time::sleep(past_bound).await;
    let lagging = get(&api, "/v1/tournaments").await;
    assert_eq!(lagging.status, StatusCode::OK);
    assert_eq!(lagging.lag_ms(), None, "read from the primary");
    assert!(listed(&lagging, newer), "the primary's page is current");
    let landing = get(&api, "/").await;
    assert_eq!(landing.lag_ms(), None);
    assert!(String::from_utf8_lossy(&landing.body).contains(&format!("href=\"/t/{newer}\"")));
    let status = readyz_replica(&api).await;
    assert_eq!(status["state"], "lagging", "{status}");
    assert!(api.metric("yaniv_replica_lag_seconds ").await > MAX_LAG.as_secs_f64());
    // A new checkpoint makes the finished cup's archive built again on the primary: the
    // paused replica lacks that copy, so the primary sends it, whatever the lag says.
    checkpoints::write(&app.db).await.expect("a checkpoint");
    let rebuilt = get(&api, &archive).await;
    assert_eq!(rebuilt.status, StatusCode::OK);
    assert_eq!(rebuilt.lag_ms(), None, "behind the kept copy: the primary");
    assert_eq!(rebuilt.body, kept_on_primary(&app, id).await);
    assert_ne!(rebuilt.body, built.body, "cut at the newer checkpoint");
    assert_eq!(rebuilt.headers["etag"], etag_of(&rebuilt.body).as_str());

    // Replay resumed, the replica serves again, with what it missed.
    pair.on_standby("SELECT pg_wal_replay_resume()").await;
    until_the_replica_answers(&api, "/v1/tournaments", |a| listed(a, newer)).await;
    let again = until_the_replica_answers(&api, &archive, |_| true).await;
    assert_eq!(again.body, rebuilt.body);

    // (c) The standby stopped: every read is answered, by the primary.
    pair.stop_standby();
    let page = get(&api, "/v1/tournaments").await;
    assert_eq!(page.status, StatusCode::OK);
    assert_eq!(page.lag_ms(), None);
    assert!(listed(&page, newer) && listed(&page, id));
    let kept = get(&api, &archive).await;
    assert_eq!(kept.status, StatusCode::OK);
    assert_eq!(kept.lag_ms(), None);
    assert_eq!(kept.body, rebuilt.body);
    assert_eq!(get(&api, "/").await.status, StatusCode::OK);
    // The probe notices within its interval; readiness stays.
    tokio::time::sleep(Duration::from_secs(2)).await;
    assert_eq!(readyz_replica(&api).await["state"], "unreachable");
    assert_eq!(api.metric("yaniv_replica_up ").await, 0.0);
    let reads = replica_reads(&api).await;
    assert!(reads.0 >= 5.0 && reads.1 >= 5.0, "{reads:?}");
}
