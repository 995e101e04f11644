//! `GET /metrics`: the figures follow what the server did, and a token guards them
//! when one is set.

use reqwest::StatusCode;
use serde_json::json;
use yaniv_e2e_tests::tables::{Api, choose, metric_sample as sample};
use yaniv_e2e_tests::{spawn_app, spawn_app_with};

#[tokio::test]
async fn the_figures_count_requests_appends_and_the_cache() {
    let app = spawn_app().await;
    let api = app.api();
    let ann = app.new_player("ann").await;
    let body = json!({"preset": "israeli", "seats": 2, "bots": [{"seat": 1, "kind": "greedy"}]});
    let table = api.started_table(&body, std::slice::from_ref(&ann)).await;
    let mut moves = 0;
    for _ in 0..5 {
        let view = api.view(table, &ann.token).await;
        let Some(action) = choose(&view) else { break };
        let response = api.act(table, &ann.token, &action, None).await;
        Api::json_ok(response, StatusCode::OK, "a move").await;
        moves += 1;
    }
    let refused = api
        .act(
            table,
            &ann.token,
            &json!({"type": "slap", "card": "JK"}),
            None,
        )
        .await;
    assert!(refused.status().is_client_error());

    let response = app
        .client
        .get(app.url("/metrics"))
        .send()
        .await
        .expect("GET");
    assert_eq!(response.status(), StatusCode::OK);
    assert!(
        response.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/plain; version=0.0.4")
    );
    let text = response.text().await.expect("body");
    let actions =
        r#"yaniv_http_requests_total{method="POST",route="/v1/tables/{id}/actions",status="200"}"#;
    assert_eq!(sample(&text, actions), f64::from(moves));
    assert!(
        text.contains(r#"route="/v1/tables/{id}/actions",status="4"#),
        "{text}"
    );
    assert_eq!(
        sample(
            &text,
            r#"yaniv_http_request_duration_seconds_count{method="POST",route="/v1/tables/{id}/actions"}"#
        ),
        f64::from(moves + 1)
    );
    // Creating, joining, starting and every move appended events; the table is
    // cached, and read from the cache.
    let table_events = app
        .store
        .read_stream(&format!("table-{table}"), 1, 100_000)
        .await
        .expect("the stream")
        .len() as f64;
    assert_eq!(
        sample(&text, r#"yaniv_events_appended_total{stream="table"}"#),
        table_events
    );
    assert!(sample(&text, r#"yaniv_fold_cache_entries{stream="table"}"#) >= 1.0);
    assert!(sample(&text, r#"yaniv_fold_cache_bytes{stream="table"}"#) > 1000.0);
    assert!(sample(&text, r#"yaniv_fold_cache_hits_total{stream="table"}"#) >= 1.0);
    assert!(sample(&text, "yaniv_db_pool_max_connections") >= 1.0);
    assert_eq!(sample(&text, "yaniv_live_subscribers"), 0.0);
    assert!(sample(&text, "process_resident_memory_bytes") > 0.0);
}

#[tokio::test]
async fn a_metrics_token_keeps_other_scrapers_out() {
    let token = "scrape-token-0123456789";
    let app = spawn_app_with(|s| s.metrics_token = Some(token.to_owned().into()), vec![]).await;
    let anonymous = app
        .client
        .get(app.url("/metrics"))
        .send()
        .await
        .expect("GET");
    assert_eq!(anonymous.status(), StatusCode::UNAUTHORIZED);
    let wrong = app
        .client
        .get(app.url("/metrics"))
        .bearer_auth("scrape-token-0123456780")
        .send()
        .await
        .expect("GET");
    assert_eq!(wrong.status(), StatusCode::UNAUTHORIZED);
    let right = app
        .client
        .get(app.url("/metrics"))
        .bearer_auth(token)
        .send()
        .await
        .expect("GET");
    assert_eq!(right.status(), StatusCode::OK);
}

/// Issue #27: "`/metrics` needs its token by default outside a loopback bind".
#[tokio::test]
async fn metrics_are_closed_beyond_loopback_without_a_token() {
    let beyond = spawn_app_with(|s| s.bind_address = "0.0.0.0:0".into(), vec![]).await;
    let closed = beyond
        .client
        .get(beyond.url("/metrics"))
        .send()
        .await
        .expect("GET");
    assert_eq!(closed.status(), StatusCode::FORBIDDEN);
    let problem: serde_json::Value = closed.json().await.expect("a problem");
    assert_eq!(problem["code"], "metrics_closed");
    // Chosen open, on a private network, it answers.
    let open = spawn_app_with(
        |s| {
            s.bind_address = "0.0.0.0:0".into();
            s.metrics_open = true;
        },
        vec![],
    )
    .await;
    let answered = open
        .client
        .get(open.url("/metrics"))
        .send()
        .await
        .expect("GET");
    assert_eq!(answered.status(), StatusCode::OK);
}
