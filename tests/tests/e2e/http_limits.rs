//! The HTTP edge (issue #9): request bodies that never finish, and calls from browser
//! pages on other origins (CORS).

use std::time::Duration;

use reqwest::StatusCode;
use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use yaniv_api::config::CorsOrigins;
use yaniv_e2e_tests::{TestApp, spawn_app, spawn_app_with};

/// Opens a connection that sends a request head announcing a 100-byte body, then the
/// body one byte every 300 ms (a full body would take 30 s).
async fn trickling_client(app: &TestApp) -> TcpStream {
    let mut stream = TcpStream::connect(("127.0.0.1", app.port))
        .await
        .expect("connect");
    stream
        .write_all(
            b"POST /v1/sessions HTTP/1.1\r\nHost: yaniv\r\nContent-Type: application/json\r\n\
              Content-Length: 100\r\n\r\n{",
        )
        .await
        .expect("send the head");
    stream
}

/// Trickles the body and reads what the server answers, up to `limit`.
async fn answer_to_trickle(mut stream: TcpStream, limit: Duration) -> String {
    let (mut rx, mut tx) = stream.split();
    let trickle = async {
        for _ in 0..99 {
            tokio::time::sleep(Duration::from_millis(300)).await;
            if tx.write_all(b" ").await.is_err() {
                break;
            }
        }
        std::future::pending::<()>().await;
    };
    let read_all = async {
        let mut answer = Vec::new();
        // Until the server closes the connection.
        let _ = rx.read_to_end(&mut answer).await;
        String::from_utf8_lossy(&answer).into_owned()
    };
    tokio::select! {
        answer = tokio::time::timeout(limit, read_all) => {
            answer.expect("the server answered the slow body in time and closed")
        }
        () = trickle => unreachable!("the trickle never ends"),
    }
}

/// #9.7: a body sent one byte every 2 s was held forever (the head has a timeout, the
/// body had none); 1,100 such connections exhausted the file handles. A body must now
/// arrive within the body timeout: past it the answer is `408 body_timeout`, as a
/// problem document, and the connection is closed.
#[tokio::test]
async fn a_trickled_body_is_cut_off_with_408() {
    let app = spawn_app_with(|s| s.http_body_timeout = Duration::from_secs(1), vec![]).await;
    let answer = answer_to_trickle(trickling_client(&app).await, Duration::from_secs(10)).await;
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(
        answer
            .to_lowercase()
            .contains("content-type: application/problem+json"),
        "{answer}"
    );
    assert!(answer.contains("\"code\":\"body_timeout\""), "{answer}");
}

/// Slow clients beyond the connection limit wait in the backlog and are cut off by the
/// body timeout, so a normal request is still answered while they keep coming.
#[tokio::test]
async fn slow_clients_over_the_connection_limit_do_not_starve_the_others() {
    let app = spawn_app_with(
        |s| {
            s.http_body_timeout = Duration::from_secs(1);
            s.http_max_connections = 4;
        },
        vec![],
    )
    .await;
    let mut slow = Vec::new();
    for _ in 0..12 {
        let client = trickling_client(&app).await;
        slow.push(tokio::spawn(answer_to_trickle(
            client,
            Duration::from_secs(30),
        )));
    }
    let health = tokio::time::timeout(
        Duration::from_secs(20),
        app.client.get(app.url("/healthz")).send(),
    )
    .await
    .expect("answered while slow clients keep coming")
    .expect("GET /healthz");
    assert_eq!(health.status(), StatusCode::OK);
    for answer in slow {
        let answer = answer.await.expect("slow client task");
        assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    }
}

async fn get_from(app: &TestApp, path: &str, origin: &str) -> reqwest::Response {
    app.client
        .get(app.url(path))
        .header("Origin", origin)
        .send()
        .await
        .expect("GET")
}

fn header<'r>(response: &'r reqwest::Response, name: &str) -> Option<&'r str> {
    response.headers().get(name).and_then(|v| v.to_str().ok())
}

/// #9.6 (CORS): `OPTIONS` was a 405, so no page on another origin could read even the
/// public lists. By default any origin may call (the API takes bearer tokens, never
/// cookies), and a preflight names what a page may send and read.
#[tokio::test]
async fn pages_on_other_origins_may_call_the_api() {
    let app = spawn_app().await;
    let preflight = app
        .client
        .request(reqwest::Method::OPTIONS, app.url("/v1/tournaments"))
        .header("Origin", "https://club.example")
        .header("Access-Control-Request-Method", "POST")
        .header(
            "Access-Control-Request-Headers",
            "authorization, content-type, idempotency-key, last-event-id",
        )
        .send()
        .await
        .expect("OPTIONS");
    assert!(preflight.status().is_success(), "{}", preflight.status());
    assert_eq!(header(&preflight, "access-control-allow-origin"), Some("*"));
    let allowed = header(&preflight, "access-control-allow-headers")
        .unwrap_or_default()
        .to_lowercase();
    for name in [
        "authorization",
        "content-type",
        "idempotency-key",
        "last-event-id",
    ] {
        assert!(allowed.contains(name), "{allowed}");
    }
    assert!(
        header(&preflight, "access-control-allow-credentials").is_none(),
        "cookies are never allowed"
    );

    let read = get_from(&app, "/v1/tournaments", "https://club.example").await;
    assert_eq!(read.status(), StatusCode::OK);
    assert_eq!(header(&read, "access-control-allow-origin"), Some("*"));
    let exposed = header(&read, "access-control-expose-headers")
        .unwrap_or_default()
        .to_lowercase();
    assert!(exposed.contains("etag"), "{exposed}");
}

/// With a list of origins, only those get the CORS headers; any other still gets its
/// answer (a plain client may send an Origin too), which the browser then hides.
#[tokio::test]
async fn only_the_configured_origins_are_allowed() {
    let app = spawn_app_with(
        |s| s.cors_origins = CorsOrigins::List(vec!["https://club.example".into()]),
        vec![],
    )
    .await;
    let club = get_from(&app, "/v1/tournaments", "https://club.example").await;
    assert_eq!(
        header(&club, "access-control-allow-origin"),
        Some("https://club.example")
    );
    let other = get_from(&app, "/v1/tournaments", "https://elsewhere.example").await;
    assert_eq!(other.status(), StatusCode::OK);
    assert_eq!(header(&other, "access-control-allow-origin"), None);
    let body: Value = other.json().await.expect("JSON");
    assert!(body.is_object() || body.is_array(), "{body}");
}
