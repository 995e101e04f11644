//! Findings of the integrity review (issue #9), each reproduced: text that PostgreSQL
//! cannot store or that would display as something else, and refusals that told any
//! account more than its place allows.

use reqwest::StatusCode;
use serde_json::json;
use yaniv_e2e_tests::{expect_database_unavailable, expect_problem, retry_after, spawn_app};

/// #9.5: a NUL byte in a username at log-in was a 500 (PostgreSQL refuses byte 0).
#[tokio::test]
async fn logging_in_with_a_name_no_account_can_have_is_401() {
    let app = spawn_app().await;
    app.new_player("ann").await;
    for username in ["ann\u{0}", "ann\u{202E}", "a", "x".repeat(200).as_str()] {
        let response = app
            .post_json(
                "/v1/sessions",
                &json!({"username": username, "password": "long enough password"}),
                None,
            )
            .await;
        expect_problem(response, StatusCode::UNAUTHORIZED, "invalid_credentials").await;
    }
    // The answer that carries a token is never cached (#9.6).
    let response = app
        .post_json(
            "/v1/sessions",
            &json!({"username": "ann", "password": "password-of-ann"}),
            None,
        )
        .await;
    assert_eq!(response.status(), StatusCode::CREATED);
    assert_eq!(response.headers()["cache-control"], "no-store");
}

/// #9.5: a NUL byte in a tournament name was a 500; control characters and bidi
/// overrides were stored and displayed (a name could spoof another).
#[tokio::test]
async fn tournament_names_refuse_control_and_bidi_characters() {
    let app = spawn_app().await;
    let api = app.api();
    let org = app.new_organizer("org").await;
    for name in [
        "Cup\u{0}",
        "Cup\u{1b}[31m",
        "Spring\nCup",
        "Cup \u{202E}puC",
        "\u{2067}Cup",
    ] {
        let body = json!({"name": name, "rules": {"preset": "israeli"}, "capacity": 4});
        let response = api.post("/v1/tournaments", &org.token, Some(&body)).await;
        expect_problem(response, StatusCode::UNPROCESSABLE_ENTITY, "bad_name").await;
    }
    let listed = app.get("/v1/tournaments", None).await;
    let listed: serde_json::Value = listed.json().await.expect("JSON");
    assert_eq!(listed["tournaments"], json!([]), "nothing was created");
    let fine = json!({"name": "Ramat Gan – אביב", "rules": {"preset": "israeli"}, "capacity": 4});
    api.create_tournament(&org.token, &fine).await;
}

/// #9.3: account checks ran before the permission check, so any account learned
/// whether an id exists and whether it holds the referee role.
#[tokio::test]
async fn an_outsider_learns_nothing_about_accounts_from_a_refusal() {
    let app = spawn_app().await;
    let api = app.api();
    let org = app.new_organizer("org").await;
    let outsider = app.new_player("mallory").await;
    let referee = app.new_referee("rita").await;
    let created = api
        .create_tournament(
            &org.token,
            &json!({"name": "Quiet", "rules": {"preset": "israeli"}, "capacity": 4}),
        )
        .await;
    let id = created["id"].as_i64().expect("id");
    api.accepted(id, &org.token, &json!({"command": "open_registration"}))
        .await;
    // Whatever the id names, the outsider gets the same refusal.
    for referee_id in [987_654, outsider.id, referee.id] {
        let probe = json!({"command": "add_referee", "referee": referee_id});
        let response = api
            .tournament_command(id, &outsider.token, &probe, None)
            .await;
        expect_problem(response, StatusCode::FORBIDDEN, "forbidden").await;
    }
    for player in [987_654, referee.id] {
        let probe = json!({"command": "register", "player": player});
        let response = api
            .tournament_command(id, &outsider.token, &probe, None)
            .await;
        expect_problem(response, StatusCode::FORBIDDEN, "forbidden").await;
    }
    // The organizer, who may add referees, still learns why an id cannot be one.
    let ghost = json!({"command": "add_referee", "referee": 987_654});
    let response = api.tournament_command(id, &org.token, &ghost, None).await;
    expect_problem(
        response,
        StatusCode::UNPROCESSABLE_ENTITY,
        "unknown_account",
    )
    .await;
}

/// #9.6: no security headers, `HEAD` was 405 and `If-None-Match` never gave 304.
#[tokio::test]
async fn answers_carry_security_headers_and_reads_are_conditional() {
    let app = spawn_app().await;
    let api = app.api();
    let org = app.new_organizer("org").await;
    let created = api
        .create_tournament(
            &org.token,
            &json!({"name": "Polled", "rules": {"preset": "israeli"}, "capacity": 4}),
        )
        .await;
    let path = format!("/v1/tournaments/{}", created["id"]);

    let read = app.get(&path, None).await;
    assert_eq!(read.status(), StatusCode::OK);
    let headers = read.headers().clone();
    assert_eq!(headers["x-content-type-options"], "nosniff");
    assert_eq!(headers["x-frame-options"], "DENY");
    assert_eq!(headers["referrer-policy"], "no-referrer");
    let etag = headers["etag"].to_str().expect("an ETag").to_owned();

    // The same version: 304 with no body; a list or a weak tag naming it too.
    for asked in [etag.clone(), format!("\"0\", {etag}"), format!("W/{etag}")] {
        let again = app
            .client
            .get(app.url(&path))
            .header("If-None-Match", &asked)
            .send()
            .await
            .expect("GET");
        assert_eq!(again.status(), StatusCode::NOT_MODIFIED, "{asked}");
        assert_eq!(again.headers()["etag"], etag.as_str());
        assert!(again.bytes().await.expect("body").is_empty());
    }
    // After a change, the new version is sent in full.
    api.accepted(
        created["id"].as_i64().expect("id"),
        &org.token,
        &json!({"command": "open_registration"}),
    )
    .await;
    let changed = app
        .client
        .get(app.url(&path))
        .header("If-None-Match", &etag)
        .send()
        .await
        .expect("GET");
    assert_eq!(changed.status(), StatusCode::OK);
    assert_ne!(changed.headers()["etag"], etag.as_str());

    // HEAD: the headers of a GET, no body; and listed in Allow.
    let head = app.client.head(app.url(&path)).send().await.expect("HEAD");
    assert_eq!(head.status(), StatusCode::OK);
    assert!(head.headers().contains_key("etag"));
    assert!(head.bytes().await.expect("body").is_empty());
    let wrong = app
        .client
        .delete(app.url(&path))
        .send()
        .await
        .expect("DELETE");
    assert_eq!(wrong.status(), StatusCode::METHOD_NOT_ALLOWED);
    assert_eq!(wrong.headers()["allow"], "GET, HEAD");

    // The API documentation page may not be framed and loads only this server's files.
    let docs = app.get("/docs/", None).await;
    assert_eq!(docs.status(), StatusCode::OK);
    let policy = docs.headers()["content-security-policy"]
        .to_str()
        .expect("CSP");
    assert!(policy.contains("default-src 'self'") && policy.contains("frame-ancestors 'none'"));
}

/// #9.1: an organizer (or a referee) could register as a player of their own
/// tournament, then void their own game or enter its result by hand.
#[tokio::test]
async fn officials_cannot_play_in_their_own_tournament() {
    let app = spawn_app().await;
    let api = app.api();
    let org = app.new_organizer("org").await;
    let referee = app.new_referee("rita").await;
    let player = app.new_player("pia").await;
    let created = api
        .create_tournament(
            &org.token,
            &json!({"name": "Fair", "rules": {"preset": "israeli"}, "capacity": 4}),
        )
        .await;
    let id = created["id"].as_i64().expect("id");
    api.accepted(
        id,
        &org.token,
        &json!({"command": "add_referee", "referee": referee.id}),
    )
    .await;
    api.accepted(id, &org.token, &json!({"command": "open_registration"}))
        .await;
    for (by, official) in [(&org, org.id), (&referee, referee.id), (&org, referee.id)] {
        let register = json!({"command": "register", "player": official});
        let response = api.tournament_command(id, &by.token, &register, None).await;
        expect_problem(response, StatusCode::CONFLICT, "official_cannot_play").await;
    }
    api.accepted(
        id,
        &player.token,
        &json!({"command": "register", "player": player.id}),
    )
    .await;
    let promote = json!({"command": "add_referee", "referee": player.id});
    let response = api.tournament_command(id, &org.token, &promote, None).await;
    expect_problem(response, StatusCode::CONFLICT, "player_cannot_officiate").await;
}

/// #9.1, when an organizer allows officials to play (at creation only): the organizer
/// plays, but cannot void or enter the result of their own table (403, and #27: of any
/// table); the referee who does not play must, and a result typed in for a table with
/// an online game needs a reason; the interventions list shows it with who and why.
#[tokio::test]
async fn officials_who_play_cannot_act_on_their_own_table() {
    let app = spawn_app().await;
    let api = app.api();
    let org = app.new_organizer("org").await;
    let referee = app.new_referee("rita").await;
    let mut players = vec![org.clone()];
    for name in ["pia", "pete", "paula"] {
        players.push(app.new_player(name).await);
    }
    // The organizer registers and checks in like the others, once a referee who does
    // not play is named.
    let id = api
        .started_tournament_refereed(
            &org,
            &[&referee],
            &players,
            &json!({"name": "Club night", "rules": {"preset": "israeli"}, "capacity": 4,
                    "config": {"officials_may_play": true}}),
        )
        .await;
    let drawn = api.draw(id, &org.token, &json!({})).await;
    let table = drawn["online_tables"][0]["table"].clone();
    let stages = api.tournament_read(id, "/stages", &org.token).await;
    let seated = &yaniv_e2e_tests::tournaments::tables_of(&stages, 1, 1)[0].1;
    assert!(
        seated.contains(&org.id),
        "one table of four: the organizer sits at it"
    );

    let void = json!({"command": "void_game", "table": table, "reason": "I lost"});
    let response = api.tournament_command(id, &org.token, &void, None).await;
    expect_problem(response, StatusCode::FORBIDDEN, "official_plays").await;

    let standings: Vec<serde_json::Value> = seated
        .iter()
        .enumerate()
        .map(|(i, p)| json!({"player": p, "total": 20 * i + 10, "place": i + 1}))
        .collect();
    let input = json!({"source": "game", "standings": standings});
    let by_hand = json!({"command": "record_result", "table": table, "input": input});
    let response = api.tournament_command(id, &org.token, &by_hand, None).await;
    expect_problem(response, StatusCode::FORBIDDEN, "official_plays").await;
    let response = api
        .tournament_command(id, &referee.token, &by_hand, None)
        .await;
    expect_problem(
        response,
        StatusCode::UNPROCESSABLE_ENTITY,
        "reason_required",
    )
    .await;
    let mut with_reason = by_hand.clone();
    with_reason["reason"] = json!("the table's tablet died; sheet signed by all four");
    api.accepted(id, &referee.token, &with_reason).await;

    let player_token = players[1].token.clone();
    let listed = api
        .tournament_read(id, "/interventions", &player_token)
        .await;
    let entries = listed["interventions"].as_array().expect("a list");
    assert_eq!(entries.len(), 1, "{listed}");
    assert_eq!(entries[0]["kind"], "result_entered");
    assert_eq!(entries[0]["online"], true);
    assert_eq!(entries[0]["by"], json!({"account": referee.id}));
    assert_eq!(
        entries[0]["reason"],
        "the table's tablet died; sheet signed by all four"
    );
    assert_eq!(entries[0]["version"], listed["version"]);
}

/// #9.4: 60 wrong passwords in 2 s were all answered 401, then the right one worked.
/// (#30: the wait is the failing client's, here the address; see `abuse.rs`.)
#[tokio::test]
async fn wrong_passwords_make_their_client_wait_for_a_while() {
    let app = spawn_app().await;
    app.new_player("ann").await;
    app.new_player("bob").await;
    let login = |username: &'static str, password: &'static str| {
        let app = &app;
        async move {
            app.post_json(
                "/v1/sessions",
                &json!({"username": username, "password": password}),
                None,
            )
            .await
        }
    };
    // Five free failures, then the sixth locks the account.
    for _ in 0..6 {
        let response = login("ann", "not her password").await;
        expect_problem(response, StatusCode::UNAUTHORIZED, "invalid_credentials").await;
    }
    let locked = login("ann", "password-of-ann").await;
    let wait = retry_after(&locked);
    assert!((1..=3).contains(&wait), "{wait}");
    expect_problem(locked, StatusCode::TOO_MANY_REQUESTS, "too_many_attempts").await;
    // Another account from the same address is not locked by ann's failures.
    assert_eq!(
        login("bob", "password-of-bob").await.status(),
        StatusCode::CREATED
    );
    // Once the lock is over, the right password works again.
    tokio::time::sleep(std::time::Duration::from_secs(wait)).await;
    assert_eq!(
        login("ann", "password-of-ann").await.status(),
        StatusCode::CREATED
    );
}

/// #9.4: `password`, `12345678`, eight spaces or the username were accepted.
#[tokio::test]
async fn guessable_passwords_are_refused_at_registration() {
    let app = spawn_app().await;
    for password in [
        "password",
        "12345678",
        "        ",
        "Password1",
        "aaaaaaaaaa",
        "carol-the-player",
    ] {
        let response = app.register("carol-the-player", password).await;
        let problem = expect_problem(
            response,
            StatusCode::UNPROCESSABLE_ENTITY,
            "validation_failed",
        )
        .await;
        assert_eq!(problem.errors[0].field, "password", "{password:?}");
    }
    let fine = app
        .register("carol-the-player", "a fine long password")
        .await;
    assert_eq!(fine.status(), StatusCode::CREATED);
}

/// A tournament `org` created on `app`, and the command that opens its registration.
async fn frozen_cup(app: &yaniv_e2e_tests::TestApp) -> (i64, String, u64) {
    let api = app.api();
    let org = app.new_organizer("org").await;
    let created = api
        .create_tournament(
            &org.token,
            &json!({"name": "Frozen", "rules": {"preset": "israeli"}, "capacity": 4}),
        )
        .await;
    let version = created["version"].as_u64().expect("version");
    (created["id"].as_i64().expect("id"), org.token, version)
}

/// Another session that holds every tournament row until it is dropped or rolled back.
async fn freeze_tournaments(
    app: &yaniv_e2e_tests::TestApp,
) -> sqlx::Transaction<'static, sqlx::Postgres> {
    let mut freezer = app.db.begin().await.expect("begin");
    sqlx::query("LOCK TABLE tournaments IN ACCESS EXCLUSIVE MODE")
        .execute(&mut *freezer)
        .await
        .expect("lock");
    freezer
}

/// #9.9: a frozen database held requests as long as it lasted (20 s and more); now the
/// statement timeout cancels the wait and the request answers 503, and nothing of it is
/// kept.
#[tokio::test]
async fn a_frozen_database_answers_503_within_the_statement_timeout() {
    use std::time::{Duration, Instant};

    let timeout = Duration::from_millis(500);
    let app = yaniv_e2e_tests::spawn_app_with(|s| s.db_statement_timeout = timeout, vec![]).await;
    let (id, token, version) = frozen_cup(&app).await;
    let api = app.api();
    let open = json!({"command": "open_registration"});
    let freezer = freeze_tournaments(&app).await;
    let started = Instant::now();
    let response = api.tournament_command(id, &token, &open, None).await;
    expect_database_unavailable(response).await;
    assert!(started.elapsed() < timeout * 10, "{:?}", started.elapsed());
    freezer.rollback().await.expect("rollback");
    let accepted = api.accepted(id, &token, &open).await;
    assert_eq!(
        accepted["version"],
        version + 1,
        "the refused attempt left nothing"
    );
}

/// #9.8: a backend terminated mid-query (a failover, `pg_ctl stop -m fast`,
/// `pg_terminate_backend`) was a 500; it is a 503, and a retry goes through once the
/// database is back.
#[tokio::test]
async fn a_backend_terminated_mid_query_answers_503() {
    use std::time::{Duration, Instant};

    let app = spawn_app().await;
    let (id, token, version) = frozen_cup(&app).await;
    let open = json!({"command": "open_registration"});
    let freezer = freeze_tournaments(&app).await;
    let waiting = {
        let url = app.url(&format!("/v1/tournaments/{id}/commands"));
        let (client, token, body) = (app.client.clone(), token.clone(), open.clone());
        tokio::spawn(async move {
            client
                .post(url)
                .bearer_auth(token)
                .json(&body)
                .send()
                .await
                .expect("POST")
        })
    };
    // The default statement timeout (10 s) leaves time to find the waiting backend.
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let terminated: Vec<bool> = sqlx::query_scalar(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity \
             WHERE datname = current_database() AND wait_event_type = 'Lock' \
               AND pid <> pg_backend_pid()",
        )
        .fetch_all(&app.db)
        .await
        .expect("terminate");
        if !terminated.is_empty() {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "the command never waited on the lock"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let response = waiting.await.expect("the request finished");
    expect_database_unavailable(response).await;
    freezer.rollback().await.expect("rollback");
    let accepted = app.api().accepted(id, &token, &open).await;
    assert_eq!(
        accepted["version"],
        version + 1,
        "the lost attempt left nothing"
    );
}
