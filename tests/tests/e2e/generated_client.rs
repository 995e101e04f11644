//! A client generated from the checked-in OpenAPI document works against the real
//! server: `deploy/client-test.sh` generates it with openapi-python-client, checks its
//! models and every example of the document, and plays a game and a tournament's
//! first draw through it (`tests/client/check_client.py`).

use std::path::Path;
use std::process::Command;

use yaniv_e2e_tests::{ADMIN_USERNAME, spawn_app};

#[tokio::test]
async fn a_generated_python_client_plays_a_game() {
    let app = spawn_app().await;
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../deploy/client-test.sh");
    let address = app.address.clone();
    let password = app.admin_password.clone();
    // The server runs on this test's runtime: the script waits on the blocking pool.
    let output = tokio::task::spawn_blocking(move || {
        Command::new("bash")
            .arg(&script)
            .arg(&address)
            .args([
                "--admin-username",
                ADMIN_USERNAME,
                "--admin-password",
                &password,
            ])
            .output()
    })
    .await
    .expect("the script's thread")
    .expect("bash runs deploy/client-test.sh");
    // What the client did (its moves by kind, among them the bonus rules'), for whoever
    // runs the test with its output shown.
    println!("{}", String::from_utf8_lossy(&output.stdout));
    println!("{}", String::from_utf8_lossy(&output.stderr));
    assert!(
        output.status.success(),
        "deploy/client-test.sh failed ({}):\n--- stdout ---\n{}\n--- stderr ---\n{}",
        output.status,
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr),
    );
}
