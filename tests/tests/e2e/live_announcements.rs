//! How an append reaches the other processes: the writer announces its stream's head
//! after the commit, the trigger stays out of that stream's way, and a head whose
//! announcement never came is found by reading (api/src/live/heads.rs).

use std::sync::Arc;
use std::time::Duration;

use reqwest::StatusCode;
use serde_json::json;
use sqlx::postgres::PgListener;
use sqlx::{Connection, PgConnection};
use yaniv_api::live::heads::HeadNotifier;
use yaniv_api::live::{CHANNEL, Hub, RECHECK_EVERY, spawn_recheck};
use yaniv_api::store::{EventMetadata, NewEvent};
use yaniv_e2e_tests::tables::{Api, choose};
use yaniv_e2e_tests::{TestApp, spawn_app};

fn probe_events(count: usize) -> Vec<NewEvent> {
    (0..count)
        .map(|n| NewEvent::new("probe.v1", &json!({"n": n})).expect("a probe event"))
        .collect()
}

/// Appends `count` events to `stream` on `conn` in a transaction of its own; with
/// `left_to_caller`, the transaction first names the stream as one its writer
/// announces, as the server's table writes do.
async fn append(
    app: &TestApp,
    conn: &mut PgConnection,
    stream: &str,
    expected: u64,
    count: usize,
    left_to_caller: bool,
) {
    let mut tx = conn.begin().await.expect("begin");
    if left_to_caller {
        sqlx::query("SELECT set_config('yaniv.caller_notifies', $1, true)")
            .bind(stream)
            .execute(&mut *tx)
            .await
            .expect("set_config");
    }
    app.store
        .append_in(
            &mut tx,
            stream,
            expected,
            &probe_events(count),
            &EventMetadata::new("test"),
        )
        .await
        .expect("append");
    tx.commit().await.expect("commit");
}

/// The notifications heard within `wait`, in order.
async fn heard(listener: &mut PgListener, wait: Duration) -> Vec<String> {
    let mut payloads = Vec::new();
    while let Ok(Ok(notification)) = tokio::time::timeout(wait, listener.recv()).await {
        payloads.push(notification.payload().to_owned());
    }
    payloads
}

#[tokio::test]
async fn the_trigger_leaves_alone_only_the_stream_its_writer_announces() {
    let app = spawn_app().await;
    let mut listener = PgListener::connect_with(&app.db).await.expect("listener");
    listener.listen(CHANNEL).await.expect("LISTEN");
    let options = app.db.connect_options();
    let mut conn = PgConnection::connect_with(&options)
        .await
        .expect("a connection");

    // One transaction writes two streams and names one of them.
    let mut tx = conn.begin().await.expect("begin");
    sqlx::query("SELECT set_config('yaniv.caller_notifies', 'probe-a', true)")
        .execute(&mut *tx)
        .await
        .expect("set_config");
    let metadata = EventMetadata::new("test");
    for stream in ["probe-a", "probe-b"] {
        app.store
            .append_in(&mut tx, stream, 0, &probe_events(2), &metadata)
            .await
            .expect("append");
    }
    tx.commit().await.expect("commit");
    assert_eq!(
        heard(&mut listener, Duration::from_secs(1)).await,
        ["probe-b:2"],
        "the named stream is its writer's to announce; the other one is the trigger's"
    );

    // The name does not outlive its transaction on the same connection.
    append(&app, &mut conn, "probe-a", 2, 1, false).await;
    assert_eq!(
        heard(&mut listener, Duration::from_secs(1)).await,
        ["probe-a:3"]
    );
}

#[tokio::test]
async fn a_head_whose_announcement_never_came_wakes_its_followers_by_reading() {
    let app = spawn_app().await;
    // A hub that hears nothing from the database: only the recheck can move it.
    let hub = Arc::new(Hub::new());
    let recheck = spawn_recheck(app.db.clone(), Arc::clone(&hub));
    let mut follower = hub.subscribe("probe-c");
    let options = app.db.connect_options();
    let mut conn = PgConnection::connect_with(&options)
        .await
        .expect("a connection");
    // A writer that died between its commit and its announcement.
    append(&app, &mut conn, "probe-c", 0, 3, true).await;

    let woken = tokio::time::timeout(RECHECK_EVERY * 3, follower.head.changed()).await;
    recheck.abort();
    assert!(woken.is_ok(), "the follower woke within three rechecks");
    assert_eq!(*follower.head.borrow_and_update(), 3);
}

#[tokio::test]
async fn the_server_announces_each_move_once_itself() {
    let app = spawn_app().await;
    let api = app.api();
    let mut listener = PgListener::connect_with(&app.db).await.expect("listener");
    listener.listen(CHANNEL).await.expect("LISTEN");
    let ann = app.new_player("ann").await;
    let body = json!({"preset": "israeli", "seats": 2, "bots": [{"seat": 1, "kind": "greedy"}]});
    let table = api.started_table(&body, std::slice::from_ref(&ann)).await;
    heard(&mut listener, Duration::from_millis(500)).await;

    let announced = api.metric("yaniv_live_heads_announced_total").await;
    let mut moves = 0;
    for _ in 0..4 {
        let view = api.view(table, &ann.token).await;
        let Some(action) = choose(&view) else { break };
        let response = api.act(table, &ann.token, &action, None).await;
        Api::json_ok(response, StatusCode::OK, "a move").await;
        moves += 1;
        let version = api.summary(table, &ann.token).await["version"]
            .as_u64()
            .expect("version");
        // The move's head (after the bot's answer) is heard once it is announced.
        let wanted = format!("table-{table}:{version}");
        let mut heard_now = Vec::new();
        while !heard_now.contains(&wanted) {
            match tokio::time::timeout(Duration::from_secs(5), listener.recv()).await {
                Ok(Ok(notification)) => heard_now.push(notification.payload().to_owned()),
                _ => panic!("{wanted} never heard; heard {heard_now:?}"),
            }
        }
        // Once: had the trigger not left the stream alone, it would be heard twice.
        heard_now.extend(heard(&mut listener, Duration::from_millis(300)).await);
        let times = heard_now.iter().filter(|p| **p == wanted).count();
        assert_eq!(times, 1, "{wanted} heard {times} times: {heard_now:?}");
    }
    assert!(moves > 0, "a move was made");
    let now = api.metric("yaniv_live_heads_announced_total").await;
    assert!(
        now - announced >= f64::from(moves),
        "{announced} then {now}"
    );
}

#[tokio::test]
async fn heads_gathered_meanwhile_share_one_statement() {
    let app = spawn_app().await;
    let mut listener = PgListener::connect_with(&app.db).await.expect("listener");
    listener.listen(CHANNEL).await.expect("LISTEN");
    let heads = HeadNotifier::new();
    heads.announce("probe-d", 2);
    heads.announce("probe-e", 7);
    heads.announce("probe-d", 3);
    heads.flush(&app.db).await.expect("sent");
    assert_eq!((heads.announced(), heads.statements()), (2, 1));
    let mut payloads = heard(&mut listener, Duration::from_secs(1)).await;
    payloads.sort();
    assert_eq!(payloads, ["probe-d:3", "probe-e:7"]);
    // Nothing waits any more.
    heads.flush(&app.db).await.expect("nothing to send");
    assert_eq!(heads.statements(), 1);
}
