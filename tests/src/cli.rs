//! The `yaniv` command-line tool as a user runs it: the binary built from `cli/`,
//! beside the test binaries in the same target directory.

use std::path::PathBuf;
use std::process::{Command, Output};
use std::sync::OnceLock;

/// The `yaniv` binary, built once per test process (a no-op when it is up to date).
pub fn yaniv_binary() -> PathBuf {
    static BUILT: OnceLock<PathBuf> = OnceLock::new();
    BUILT
        .get_or_init(|| {
            // A test binary lives in <target>/<profile>/deps/.
            let exe = std::env::current_exe().expect("the test binary's path");
            let profile_dir = exe
                .parent()
                .and_then(|deps| deps.parent())
                .expect("<target>/<profile>/deps");
            let target_dir = profile_dir.parent().expect("<target>");
            let mut build = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
            build
                .args([
                    "build",
                    "--quiet",
                    "--package",
                    "yaniv-cli",
                    "--bin",
                    "yaniv",
                ])
                .env("CARGO_TARGET_DIR", target_dir);
            if profile_dir
                .file_name()
                .is_some_and(|name| name == "release")
            {
                build.arg("--release");
            }
            let status = build.status().expect("run cargo build for the yaniv tool");
            assert!(status.success(), "building the yaniv tool failed");
            profile_dir.join("yaniv")
        })
        .clone()
}

/// Runs `yaniv replay` on `record` (a `yaniv-record/1` document), as a file.
pub fn yaniv_replay(record: &serde_json::Value) -> Output {
    let dir = std::env::temp_dir().join(format!("yaniv-record-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let path = dir.join(format!("{}.json", crate::random_hex(8)));
    std::fs::write(&path, record.to_string()).expect("write the record");
    let output = Command::new(yaniv_binary())
        .arg("replay")
        .arg(&path)
        .output()
        .expect("run yaniv replay");
    let _ = std::fs::remove_file(&path);
    output
}
