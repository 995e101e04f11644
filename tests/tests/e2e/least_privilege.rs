//! The server under a least-privilege database role (issue #9): the grants of
//! `deploy/least-privilege.sql` let it play a game, and its role can neither change
//! history nor the schema.

use serde_json::json;
use sqlx::{Connection, Executor, PgConnection};
use yaniv_api::config::Migrations;
use yaniv_api::startup::{Application, StartupError};
use yaniv_e2e_tests::tables::Api;
use yaniv_e2e_tests::{spawn_app, test_settings};

const GRANTS: &str = include_str!("../../../deploy/least-privilege.sql");

/// `url` logged in as `role` instead (trust authentication: no password).
fn as_role(url: &str, role: &str) -> String {
    let start = url.find("://").map_or(0, |i| i + 3);
    let rest = &url[start..];
    let host = rest.rfind('@').map_or(rest, |at| &rest[at + 1..]);
    format!("{}{role}@{host}", &url[..start])
}

#[tokio::test]
async fn the_server_plays_under_a_role_that_cannot_change_history_or_schema() {
    let owner = spawn_app().await; // applies the migrations as the owner
    let role = format!(
        "yaniv_app_{}",
        owner.database.name.trim_start_matches("test_")
    );
    let mut admin = PgConnection::connect(&owner.database.url)
        .await
        .expect("connect as the owner");
    admin
        .execute(sqlx::AssertSqlSafe(format!(
            r#"CREATE ROLE "{role}" LOGIN"#
        )))
        .await
        .expect("create the role");
    admin
        .execute(sqlx::AssertSqlSafe(
            GRANTS.replace("yaniv_app", &format!("\"{role}\"")),
        ))
        .await
        .expect("the grants script runs");

    let url = as_role(&owner.database.url, &role);
    let mut settings = test_settings(url.clone(), &owner.admin_password);
    settings.migrations = Migrations::Check;
    let app = Application::build(settings)
        .await
        .expect("the server starts under the restricted role");
    let api = Api {
        address: format!("http://127.0.0.1:{}", app.port()),
        client: owner.client.clone(),
    };
    tokio::spawn(app.run_until_stopped());

    // A whole start of a game through the restricted server.
    let players = [owner.new_player("ann").await, owner.new_player("bob").await];
    let table = api
        .started_table(&json!({"preset": "israeli", "seats": 2}), &players)
        .await;
    let view = api.view(table, &players[0].token).await;
    assert_eq!(view["table"]["status"], "playing", "{view}");

    let mut restricted = PgConnection::connect(&url)
        .await
        .expect("connect as the role");
    for statement in [
        "UPDATE events SET payload = payload",
        "DELETE FROM events",
        "DELETE FROM checkpoint_heads",
        "TRUNCATE events",
        "CREATE TABLE intruder (id int)",
        "DROP TABLE sessions",
    ] {
        let err = restricted.execute(statement).await.expect_err(statement);
        let code = err
            .as_database_error()
            .and_then(|e| e.code())
            .map(|c| c.into_owned());
        assert!(
            matches!(code.as_deref(), Some("42501")),
            "{statement}: {err}"
        );
    }
    restricted.close().await.ok();

    // A pending migration stops such a server with a message that says what to run.
    sqlx::query(
        "DELETE FROM _sqlx_migrations WHERE version = (SELECT max(version) FROM _sqlx_migrations)",
    )
    .execute(&mut admin)
    .await
    .expect("forget the last migration");
    let mut settings = test_settings(url, &owner.admin_password);
    settings.migrations = Migrations::Check;
    let refused = Application::build(settings)
        .await
        .expect_err("a migration is pending");
    assert!(
        matches!(refused, StartupError::MigrationsPending { .. }),
        "{refused}"
    );
    assert!(
        refused.to_string().contains("yaniv-server migrate"),
        "{refused}"
    );

    // The role is global to the cluster: drop it with what it owns.
    let maintenance = yaniv_e2e_tests::database_url();
    drop(admin);
    let mut cleanup = PgConnection::connect(&owner.database.url)
        .await
        .expect("connect");
    cleanup
        .execute(sqlx::AssertSqlSafe(format!(r#"DROP OWNED BY "{role}""#)))
        .await
        .ok();
    cleanup.close().await.ok();
    drop(owner);
    let mut cleanup = PgConnection::connect(&maintenance).await.expect("connect");
    cleanup
        .execute(sqlx::AssertSqlSafe(format!(
            r#"DROP ROLE IF EXISTS "{role}""#
        )))
        .await
        .ok();
}
