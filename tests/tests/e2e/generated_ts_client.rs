//! A TypeScript client generated from the checked-in OpenAPI document works against the
//! real server: `deploy/ts-client-test.sh` generates its types with openapi-typescript,
//! type-checks `tests/ts-client/check_client.ts` against them under `tsc --strict`, and
//! runs it: through openapi-fetch it plays games (following the table's live stream,
//! replaying a move, meeting refusals and a 304) and a tournament's first draw.

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use yaniv_e2e_tests::{ADMIN_USERNAME, spawn_app_with};

#[tokio::test]
async fn a_generated_typescript_client_plays_a_game() {
    // The client reads two streams on to the heartbeat after their last message: one a
    // second, not the default 15.
    let app = spawn_app_with(|s| s.stream_heartbeat = Duration::from_secs(1), Vec::new()).await;
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../deploy/ts-client-test.sh");
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
    .expect("bash runs deploy/ts-client-test.sh");
    // What the client did (its moves by kind, the stream messages it read), for whoever
    // runs the test with its output shown.
    println!("{}", String::from_utf8_lossy(&output.stdout));
    println!("{}", String::from_utf8_lossy(&output.stderr));
    assert!(
        output.status.success(),
        "deploy/ts-client-test.sh failed ({}):\n--- stdout ---\n{}\n--- stderr ---\n{}",
        output.status,
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr),
    );
}
