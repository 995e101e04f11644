use reqwest::StatusCode;
use serde_json::Value;
use yaniv_e2e_tests::spawn_app;

#[tokio::test]
async fn healthz_and_readyz_answer_ok() {
    let app = spawn_app().await;

    let response = app.get("/healthz", None).await;
    assert_eq!(response.status(), StatusCode::OK);
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["status"], "ok");

    let response = app.get("/readyz", None).await;
    assert_eq!(response.status(), StatusCode::OK);
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["status"], "ready");
}

#[tokio::test]
async fn request_ids_are_propagated_or_generated() {
    let app = spawn_app().await;

    let response = app
        .client
        .get(app.url("/healthz"))
        .header("X-Request-Id", "client-id-123")
        .send()
        .await
        .unwrap();
    assert_eq!(response.headers()["x-request-id"], "client-id-123");

    let response = app.get("/healthz", None).await;
    let generated = response.headers()["x-request-id"].to_str().unwrap();
    assert_eq!(generated.len(), 32);

    // An unsafe client id is replaced, not echoed.
    let response = app
        .client
        .get(app.url("/healthz"))
        .header("X-Request-Id", "bad id; with spaces")
        .send()
        .await
        .unwrap();
    assert_ne!(response.headers()["x-request-id"], "bad id; with spaces");
}

#[tokio::test]
async fn openapi_document_and_swagger_ui_are_served() {
    let app = spawn_app().await;

    let response = app.get("/openapi.json", None).await;
    assert_eq!(response.status(), StatusCode::OK);
    let served: Value = response.json().await.unwrap();
    let generated: Value = serde_json::to_value(yaniv_api::http::openapi::spec()).unwrap();
    assert_eq!(served, generated);
    assert_eq!(served["openapi"], "3.1.0");

    let response = app.get("/docs/", None).await;
    assert_eq!(response.status(), StatusCode::OK);
    let html = response.text().await.unwrap();
    assert!(html.contains("swagger"), "{html}");

    let response = app.get("/docs", None).await;
    assert_eq!(response.status(), StatusCode::PERMANENT_REDIRECT);
}

/// Every operation in the OpenAPI document is routed: calling it without
/// credentials or body never yields the router's 404 or 405.
#[tokio::test]
async fn every_documented_operation_is_routed() {
    let app = spawn_app().await;
    let spec = serde_json::to_value(yaniv_api::http::openapi::spec()).unwrap();
    let mut checked = 0;
    for (path, item) in spec["paths"].as_object().unwrap() {
        // Any path parameter becomes `1`: `/v1/accounts/{id}/roles` -> `/v1/accounts/1/roles`.
        let concrete = path
            .split('/')
            .map(|seg| if seg.starts_with('{') { "1" } else { seg })
            .collect::<Vec<_>>()
            .join("/");
        for method in item.as_object().unwrap().keys() {
            let method = reqwest::Method::from_bytes(method.to_uppercase().as_bytes()).unwrap();
            let response = app
                .client
                .request(method.clone(), app.url(&concrete))
                .send()
                .await
                .unwrap();
            let status = response.status();
            let body: Value = response.json().await.unwrap_or(Value::Null);
            // A public read of a missing resource is a 404 too: only the router's own
            // 404 ("no route for ...") means the path is not routed.
            let unrouted = body["code"] == "not_found"
                && body["detail"]
                    .as_str()
                    .is_some_and(|d| d.starts_with("no route"));
            assert!(
                !unrouted && body["code"] != "method_not_allowed",
                "{method} {path} is documented but not routed: {status} {body}"
            );
            checked += 1;
        }
    }
    assert!(checked >= 7, "only {checked} operations documented");
}
