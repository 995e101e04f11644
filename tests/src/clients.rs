//! The generated-client tests run a deploy script against a server of the test, as a
//! client developer would run it against theirs: `deploy/<script> URL --admin-username
//! U --admin-password P`, its output shown, its exit status the verdict.

use std::path::Path;
use std::process::Command;

use crate::{ADMIN_USERNAME, TestApp};

/// Runs `deploy/<script>` against `app` with the bootstrap admin's credentials and
/// fails the test, with the script's whole output, unless it exits 0.
pub async fn run_client_script(app: &TestApp, script: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../deploy")
        .join(script);
    let address = app.address.clone();
    let password = app.admin_password.clone();
    // The server runs on the test's runtime: the script waits on the blocking pool.
    let output = tokio::task::spawn_blocking(move || {
        Command::new("bash")
            .arg(&path)
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
    .unwrap_or_else(|e| panic!("bash runs deploy/{script}: {e}"));
    // What the client did (moves by kind, stream messages), for whoever runs the test
    // with its output shown.
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    println!("{stdout}");
    println!("{stderr}");
    assert!(
        output.status.success(),
        "deploy/{script} failed ({}):\n--- stdout ---\n{stdout}\n--- stderr ---\n{stderr}",
        output.status,
    );
}
