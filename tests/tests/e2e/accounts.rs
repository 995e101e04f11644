use reqwest::StatusCode;
use serde_json::{Value, json};
use yaniv_e2e_tests::{ADMIN_USERNAME, expect_problem, spawn_app};

#[tokio::test]
async fn register_login_me_logout() {
    let app = spawn_app().await;

    let response = app.register("alice", "correct horse battery").await;
    assert_eq!(response.status(), StatusCode::CREATED);
    let account: Value = response.json().await.unwrap();
    assert_eq!(account["username"], "alice");
    assert_eq!(account["roles"], json!(["player"]));
    assert!(account.get("password").is_none() && account.get("password_hash").is_none());

    let response = app.login("alice", "correct horse battery").await;
    assert_eq!(response.status(), StatusCode::CREATED);
    let session: Value = response.json().await.unwrap();
    let token = session["token"].as_str().unwrap().to_owned();
    assert_eq!(token.len(), 43);
    assert_eq!(session["token_type"], "Bearer");
    assert_eq!(session["account"]["id"], account["id"]);

    let response = app.get("/v1/accounts/me", Some(&token)).await;
    assert_eq!(response.status(), StatusCode::OK);
    let me: Value = response.json().await.unwrap();
    assert_eq!(me["username"], "alice");

    // Only the token's hash is stored.
    let stored: i64 = sqlx::query_scalar("SELECT count(*) FROM sessions WHERE token_hash = $1")
        .bind(token.as_bytes())
        .fetch_one(&app.db)
        .await
        .unwrap();
    assert_eq!(stored, 0);

    let response = app
        .client
        .delete(app.url("/v1/sessions/current"))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::NO_CONTENT);

    let response = app.get("/v1/accounts/me", Some(&token)).await;
    expect_problem(response, StatusCode::UNAUTHORIZED, "invalid_token").await;
}

#[tokio::test]
async fn usernames_are_unique_in_any_case() {
    let app = spawn_app().await;
    assert_eq!(
        app.register("Alice", "correct horse battery")
            .await
            .status(),
        StatusCode::CREATED
    );
    let response = app.register("alice", "another password").await;
    expect_problem(response, StatusCode::CONFLICT, "username_taken").await;
}

#[tokio::test]
async fn invalid_registrations_name_their_fields() {
    let app = spawn_app().await;
    let response = app.register("a b", "short").await;
    let problem = expect_problem(
        response,
        StatusCode::UNPROCESSABLE_ENTITY,
        "validation_failed",
    )
    .await;
    let fields: Vec<&str> = problem.errors.iter().map(|e| e.field.as_str()).collect();
    assert_eq!(fields, ["username", "password"]);
}

#[tokio::test]
async fn wrong_password_and_unknown_user_are_the_same_401() {
    let app = spawn_app().await;
    app.register("alice", "correct horse battery").await;

    let wrong = app.login("alice", "not the password").await;
    let wrong = expect_problem(wrong, StatusCode::UNAUTHORIZED, "invalid_credentials").await;
    let unknown = app.login("bob", "not the password").await;
    let unknown = expect_problem(unknown, StatusCode::UNAUTHORIZED, "invalid_credentials").await;
    assert_eq!(wrong, unknown);
}

#[tokio::test]
async fn missing_invalid_and_expired_tokens_are_401() {
    let app = spawn_app().await;

    let response = app.get("/v1/accounts/me", None).await;
    assert!(
        response.headers()["www-authenticate"]
            .to_str()
            .unwrap()
            .starts_with("Bearer")
    );
    expect_problem(response, StatusCode::UNAUTHORIZED, "unauthenticated").await;

    let response = app.get("/v1/accounts/me", Some("garbage")).await;
    expect_problem(response, StatusCode::UNAUTHORIZED, "invalid_token").await;

    let well_formed_but_unknown = "A".repeat(43);
    let response = app
        .get("/v1/accounts/me", Some(&well_formed_but_unknown))
        .await;
    expect_problem(response, StatusCode::UNAUTHORIZED, "invalid_token").await;

    let response = app
        .client
        .get(app.url("/v1/accounts/me"))
        .basic_auth("alice", Some("pw"))
        .send()
        .await
        .unwrap();
    expect_problem(response, StatusCode::UNAUTHORIZED, "unauthenticated").await;

    // A token past its expiry is refused.
    let (id, token) = app.player("alice").await;
    assert_eq!(
        app.get("/v1/accounts/me", Some(&token)).await.status(),
        StatusCode::OK
    );
    sqlx::query(
        "UPDATE sessions SET expires_at = now() - interval '1 second' WHERE account_id = $1",
    )
    .bind(id)
    .execute(&app.db)
    .await
    .unwrap();
    // The server cached the session; the change reaches it as a notification from
    // the database (migration 0012), within milliseconds.
    let started = std::time::Instant::now();
    let response = loop {
        let response = app.get("/v1/accounts/me", Some(&token)).await;
        if response.status() != StatusCode::OK {
            break response;
        }
        assert!(started.elapsed() < std::time::Duration::from_secs(2));
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    };
    expect_problem(response, StatusCode::UNAUTHORIZED, "invalid_token").await;
}

#[tokio::test]
async fn tokens_expire_after_the_configured_ttl() {
    let app = yaniv_e2e_tests::spawn_app_with(
        |s| s.token_ttl = std::time::Duration::from_secs(1),
        Vec::new(),
    )
    .await;
    let (_, token) = app.player("alice").await;
    assert_eq!(
        app.get("/v1/accounts/me", Some(&token)).await.status(),
        StatusCode::OK
    );
    tokio::time::sleep(std::time::Duration::from_millis(1100)).await;
    let response = app.get("/v1/accounts/me", Some(&token)).await;
    expect_problem(response, StatusCode::UNAUTHORIZED, "invalid_token").await;
}

async fn put_roles(
    app: &yaniv_e2e_tests::TestApp,
    id: i64,
    roles: Value,
    token: &str,
) -> reqwest::Response {
    app.client
        .put(app.url(&format!("/v1/accounts/{id}/roles")))
        .bearer_auth(token)
        .json(&json!({ "roles": roles }))
        .send()
        .await
        .unwrap()
}

#[tokio::test]
async fn only_admins_grant_roles() {
    let app = spawn_app().await;
    let (alice, alice_token) = app.player("alice").await;
    let (bob, _) = app.player("bob").await;

    // A player may not grant roles, not even to themself.
    let response = put_roles(&app, alice, json!(["admin"]), &alice_token).await;
    let problem = expect_problem(response, StatusCode::FORBIDDEN, "forbidden").await;
    assert!(problem.detail.contains("admin"));
    let response = put_roles(&app, bob, json!(["referee"]), &alice_token).await;
    expect_problem(response, StatusCode::FORBIDDEN, "forbidden").await;

    // The bootstrap admin can.
    let (admin, admin_token) = app.admin().await;
    let response = put_roles(
        &app,
        bob,
        json!(["referee", "player", "referee"]),
        &admin_token,
    )
    .await;
    assert_eq!(response.status(), StatusCode::OK);
    let account: Value = response.json().await.unwrap();
    assert_eq!(account["roles"], json!(["referee", "player"]));

    // The change applies to existing sessions at once.
    let response = put_roles(&app, alice, json!(["organizer"]), &admin_token).await;
    assert_eq!(response.status(), StatusCode::OK);
    let me: Value = app
        .get("/v1/accounts/me", Some(&alice_token))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(me["roles"], json!(["organizer"]));

    // Unknown roles and accounts, and self-demotion, are refused.
    let response = put_roles(&app, bob, json!(["player", "root"]), &admin_token).await;
    let problem = expect_problem(
        response,
        StatusCode::UNPROCESSABLE_ENTITY,
        "validation_failed",
    )
    .await;
    assert_eq!(problem.errors[0].field, "roles[1]");
    let response = put_roles(&app, 999_999, json!(["player"]), &admin_token).await;
    expect_problem(response, StatusCode::NOT_FOUND, "not_found").await;
    let response = put_roles(&app, admin, json!(["player"]), &admin_token).await;
    let problem = expect_problem(
        response,
        StatusCode::UNPROCESSABLE_ENTITY,
        "validation_failed",
    )
    .await;
    assert_eq!(problem.errors[0].field, "roles");
}

#[tokio::test]
async fn the_bootstrap_admin_is_never_granted_to_an_existing_player() {
    let app = spawn_app().await;
    let me: Value = app
        .get("/v1/accounts/me", Some(&app.admin().await.1))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(me["username"], ADMIN_USERNAME);
    assert_eq!(me["roles"], json!(["admin"]));

    // Someone registered the configured name before the admin existed: starting a
    // server configured with that name must fail rather than promote them.
    app.register("late-admin", "squatter password").await;
    let mut settings =
        yaniv_e2e_tests::test_settings(app.database.url.clone(), "the real password");
    settings.bootstrap_admin.as_mut().unwrap().username = "late-admin".into();
    let err = yaniv_api::startup::Application::build(settings)
        .await
        .unwrap_err();
    assert!(
        matches!(err, yaniv_api::startup::StartupError::Bootstrap(_)),
        "{err:?}"
    );
}

/// Password hashing is bounded: when every slot stays busy past the wait, the
/// answer is a 503 problem with Retry-After, not an unbounded queue.
#[tokio::test]
async fn a_flood_of_logins_is_refused_with_503() {
    let app = yaniv_e2e_tests::spawn_app_with(
        |s| {
            s.argon2_concurrency = 1;
            s.argon2_max_wait = std::time::Duration::ZERO;
        },
        Vec::new(),
    )
    .await;
    let attempts = (0..8).map(|i| {
        let app = &app;
        async move { app.login(&format!("nobody-{i}"), "some password").await }
    });
    let mut busy = 0;
    let mut answered = 0;
    for response in yaniv_e2e_tests::join_all(attempts).await {
        match response.status() {
            StatusCode::SERVICE_UNAVAILABLE => {
                assert_eq!(response.headers()["retry-after"], "1");
                expect_problem(response, StatusCode::SERVICE_UNAVAILABLE, "server_busy").await;
                busy += 1;
            }
            StatusCode::UNAUTHORIZED => answered += 1,
            other => panic!("unexpected status {other}"),
        }
    }
    assert!(busy > 0 && answered > 0, "busy {busy}, answered {answered}");
}

/// `GET /v1/accounts?username=` or `?prefix=`: an official finds a player's account by
/// name (registering players at the door needs their ids).
#[tokio::test]
async fn officials_find_accounts_by_name_or_its_start() {
    let app = spawn_app().await;
    let (_, admin_token) = app.admin().await;
    let (referee, referee_token) = app.player("ref_one").await;
    let response = put_roles(&app, referee, json!(["referee"]), &admin_token).await;
    assert_eq!(response.status(), StatusCode::OK);
    for name in ["Anna_B", "annab", "anna.c", "bob"] {
        app.player(name).await;
    }
    let search = |query: &str, token: Option<&str>| {
        let app = &app;
        let path = format!("/v1/accounts?{query}");
        let token = token.map(str::to_owned);
        async move { app.get(&path, token.as_deref()).await }
    };
    let names = |body: &Value| -> Vec<String> {
        body["accounts"]
            .as_array()
            .expect("accounts")
            .iter()
            .map(|a| a["username"].as_str().expect("a name").to_owned())
            .collect()
    };

    // The whole name, in any case: the account as registered.
    let found: Value = search("username=ANNA_b", Some(&referee_token))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(names(&found), ["Anna_B"]);
    assert!(found["accounts"][0]["id"].as_i64().is_some());
    let none: Value = search("username=ann", Some(&referee_token))
        .await
        .json()
        .await
        .unwrap();
    assert!(names(&none).is_empty(), "exact means exact");

    // The start of a name, alphabetically; `_` is a character here, not a wildcard.
    let found: Value = search("prefix=ANN", Some(&admin_token))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(names(&found), ["anna.c", "Anna_B", "annab"]);
    let found: Value = search("prefix=anna_", Some(&admin_token))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(names(&found), ["Anna_B"]);
    let found: Value = search("prefix=ann&limit=1", Some(&admin_token))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(names(&found), ["anna.c"]);

    // Players may not look others up; a search needs exactly one of the two.
    let (_, player_token) = app.player("carl").await;
    expect_problem(
        search("prefix=a", Some(&player_token)).await,
        StatusCode::FORBIDDEN,
        "forbidden",
    )
    .await;
    assert_eq!(
        search("prefix=a", None).await.status(),
        StatusCode::UNAUTHORIZED
    );
    for bad in [
        "",
        "username=a&prefix=a",
        "prefix=",
        "prefix=a&limit=0",
        "prefix=a&limit=101",
    ] {
        expect_problem(
            search(bad, Some(&admin_token)).await,
            StatusCode::UNPROCESSABLE_ENTITY,
            "validation_failed",
        )
        .await;
    }
}
