//! A table's move stored in one statement from the fold this instance cached
//! (`api/src/streams/one_statement.rs`): it is taken only when the stream is exactly
//! as the fold has it, and everything else goes back to the usual transaction.

use reqwest::StatusCode;
use serde_json::{Value, json};
use yaniv_e2e_tests::tables::{Api, Player, choose};
use yaniv_e2e_tests::tamper::delete_tail;
use yaniv_e2e_tests::{TestApp, expect_problem, spawn_app};

/// A figure of `api`'s `/metrics` for tables: the sample `name{stream="table"}`.
async fn table_figure(api: &Api, name: &str) -> f64 {
    api.metric(&format!(r#"{name}{{stream="table"}}"#)).await
}

/// A started two-player Israeli table between new players `ann` and `bob`.
async fn two_players(app: &TestApp, api: &Api) -> (i64, Vec<Player>) {
    let players = vec![app.new_player("ann").await, app.new_player("bob").await];
    let id = api
        .started_table(&json!({"preset": "israeli", "seats": 2}), &players)
        .await;
    (id, players)
}

/// Whose turn it is at table `id`, as `api` serves it, and the move they would make.
async fn next_move(api: &Api, id: i64, players: &[Player]) -> (Player, Value) {
    let summary = api.summary(id, &players[0].token).await;
    let seat = summary["to_act"].as_u64().expect("someone to act") as usize;
    let player = players[seat].clone();
    let view = api.view(id, &player.token).await;
    (player.clone(), choose(&view).expect("a legal move"))
}

async fn make_move(api: &Api, id: i64, players: &[Player]) {
    let (player, action) = next_move(api, id, players).await;
    let response = api.act(id, &player.token, &action, None).await;
    Api::json_ok(response, StatusCode::OK, "a move").await;
}

async fn verified(app: &TestApp, id: i64) -> Value {
    let (_, admin) = app.admin().await;
    let response = app
        .api()
        .post(&format!("/v1/tables/{id}/verify"), &admin, None)
        .await;
    Api::json_ok(response, StatusCode::OK, "verify").await
}

#[tokio::test]
async fn moves_after_this_instances_own_write_take_one_statement() {
    let app = spawn_app().await;
    let api = app.api();
    let (id, players) = two_players(&app, &api).await;
    let before = table_figure(&api, "yaniv_one_statement_writes_total").await;
    for _ in 0..4 {
        make_move(&api, id, &players).await;
    }
    assert_eq!(
        table_figure(&api, "yaniv_one_statement_writes_total").await - before,
        4.0,
        "the start was a transaction; every move after it knew its head"
    );
    assert_eq!(
        table_figure(&api, "yaniv_one_statement_handed_back_total").await,
        0.0
    );
    let verdict = verified(&app, id).await;
    assert_eq!(verdict["ok"], true, "{verdict}");
}

#[tokio::test]
async fn a_move_decided_on_a_table_another_instance_moved_is_decided_again() {
    let app = spawn_app().await;
    let (a, b) = (app.api(), app.spawn_instance().await);
    let (id, players) = two_players(&app, &a).await;
    make_move(&a, id, &players).await;

    // The next player chooses a move, makes it through B, and sends it again through
    // A, whose fold is one move behind: there it is legal, and its version is taken.
    let (player, action) = next_move(&a, id, &players).await;
    let response = b.act(id, &player.token, &action, None).await;
    Api::json_ok(response, StatusCode::OK, "the move through B").await;
    let stored = app
        .store
        .stream_version(&format!("table-{id}"))
        .await
        .expect("version");

    let again = a.act(id, &player.token, &action, None).await;
    expect_problem(again, StatusCode::CONFLICT, "not_your_turn").await;
    assert_eq!(
        app.store
            .stream_version(&format!("table-{id}"))
            .await
            .expect("version"),
        stored,
        "nothing was appended"
    );
    assert_eq!(
        table_figure(&a, "yaniv_one_statement_handed_back_total").await,
        1.0
    );
    assert_eq!(table_figure(&a, "yaniv_append_conflicts_total").await, 1.0);

    // A caught up in the usual transaction; its next moves take one statement again.
    let before = table_figure(&a, "yaniv_one_statement_writes_total").await;
    make_move(&a, id, &players).await;
    make_move(&a, id, &players).await;
    assert_eq!(
        table_figure(&a, "yaniv_one_statement_writes_total").await - before,
        1.0,
        "the first move after the lost race is a transaction, the second one statement"
    );
    let verdict = verified(&app, id).await;
    assert_eq!(verdict["ok"], true, "{verdict}");
}

#[tokio::test]
async fn a_retried_move_is_answered_from_its_record_not_stored_twice() {
    let app = spawn_app().await;
    let api = app.api();
    let (id, players) = two_players(&app, &api).await;
    make_move(&api, id, &players).await;
    let (player, action) = next_move(&api, id, &players).await;
    let first = api
        .act(id, &player.token, &action, Some("one-statement-1"))
        .await;
    let first = Api::json_ok(first, StatusCode::OK, "the move").await;
    let retried = api
        .act(id, &player.token, &action, Some("one-statement-1"))
        .await;
    assert_eq!(retried.headers()["idempotent-replayed"], "true");
    assert_eq!(
        Api::json_ok(retried, StatusCode::OK, "the retry").await,
        first
    );
    assert_eq!(
        app.store
            .stream_version(&format!("table-{id}"))
            .await
            .expect("version"),
        first["version"].as_u64().expect("a version"),
        "stored once"
    );
}

#[tokio::test]
async fn a_cached_head_that_is_no_longer_stored_is_never_appended_to() {
    let app = spawn_app().await;
    let api = app.api();
    let (id, players) = two_players(&app, &api).await;
    make_move(&api, id, &players).await;
    let (player, action) = next_move(&api, id, &players).await;
    let stream = format!("table-{id}");
    let head = app.store.stream_version(&stream).await.expect("version");
    delete_tail(&app, &stream, head).await;

    let refused = api.act(id, &player.token, &action, None).await;
    assert_eq!(refused.status(), StatusCode::INTERNAL_SERVER_ERROR);
    assert_eq!(
        table_figure(&api, "yaniv_one_statement_handed_back_total").await,
        1.0
    );
    assert_eq!(
        app.store.stream_version(&stream).await.expect("version"),
        head - 1,
        "nothing was appended after the gap"
    );
}
