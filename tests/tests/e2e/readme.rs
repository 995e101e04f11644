//! The README's examples, copied out of the file and run as a reader would paste them
//! into bash, against a server that already holds other accounts, tables and a
//! tournament: ids come from the answers, keys are fresh, and the admin is the one
//! `deploy/run.sh` would have made (here the test server's).

use std::path::Path;
use std::process::Command;

use serde_json::json;
use yaniv_e2e_tests::{ADMIN_USERNAME, spawn_app};

/// The `sh` blocks of the README between two headings, in order.
fn shell_blocks(readme: &str, from: &str, to: &str) -> Vec<String> {
    let start = readme.find(from).expect("the first heading");
    let end = start + readme[start..].find(to).expect("the closing heading");
    let mut blocks = Vec::new();
    let mut current: Option<String> = None;
    for line in readme[start..end].lines() {
        match (&mut current, line.trim_end()) {
            (None, "```sh") => current = Some(String::new()),
            (Some(_), "```") => blocks.extend(current.take()),
            (Some(block), line) => {
                block.push_str(line);
                block.push('\n');
            }
            (None, _) => {}
        }
    }
    blocks
}

#[tokio::test]
async fn the_readme_examples_run_as_written_on_a_server_that_holds_data() {
    let app = spawn_app().await;
    // Someone else was here first: accounts, tables and a tournament with low ids.
    let api = app.api();
    let other = app.new_player("early-bird").await;
    for _ in 0..3 {
        api.create_table(&other.token, &json!({"preset": "israeli", "seats": 2}))
            .await;
    }
    let organizer = app.new_organizer("early-org").await;
    api.create_tournament(
        &organizer.token,
        &json!({"name": "Another cup", "rules": {"preset": "israeli"}, "capacity": 4}),
    )
    .await;

    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let readme = std::fs::read_to_string(root.join("README.md")).expect("README.md");
    let blocks = shell_blocks(
        &readme,
        "## A first game through the API",
        "## Configuration",
    );
    assert!(
        blocks.len() >= 4,
        "the game, the stream, the championship and the door: {blocks:?}"
    );
    // Every block in one shell, as a reader pastes them one after the other; the
    // stream left in the background is ended at the close.
    let script = format!(
        "set -euo pipefail\n{}\nkill $(jobs -p) 2>/dev/null || true\n",
        blocks.join("\n")
    );
    let address = app.address.clone();
    let password = app.admin_password.clone();
    let output = tokio::task::spawn_blocking(move || {
        Command::new("bash")
            .arg("-c")
            .arg(script)
            .current_dir(root)
            .env("B", address)
            .env("ADMIN_USER", ADMIN_USERNAME)
            .env("ADMIN_PASSWORD", password)
            .output()
    })
    .await
    .expect("the script's thread")
    .expect("bash runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "the README's commands failed ({}):\n--- stdout ---\n{stdout}\n--- stderr ---\n{stderr}",
        output.status
    );
    // What a reader should see: the move accepted, the stream's events, every
    // tournament command answered 200, the draw's game table, the standings, the door
    // list's set-up codes.
    for expected in [
        "\"appended\":",
        "event: ",
        "{\"command\":\"open_registration\"} -> 200",
        "{\"command\":\"start_qualification\"} -> 200",
        "\"standings\":",
        "\"setup_code\":",
    ] {
        assert!(stdout.contains(expected), "no {expected:?} in:\n{stdout}");
    }
    assert!(
        !stdout.contains("-> 4") && !stdout.contains("-> 5"),
        "a tournament command was refused:\n{stdout}"
    );
    assert!(
        !stdout.contains("\"status\":4"),
        "a problem document:\n{stdout}"
    );
}
