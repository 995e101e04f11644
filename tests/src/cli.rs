//! The `yaniv` command-line tool as a user runs it: the binary built from `cli/`,
//! beside the test binaries in the same target directory.

use std::path::PathBuf;
use std::process::{Command, Output};
use std::sync::OnceLock;

use serde_json::Value;

/// The `yaniv` binary: the one `deploy/test.sh` built with the test binaries
/// (`YANIV_BIN`), or else built once per test process (a no-op when it is up to date).
pub fn yaniv_binary() -> PathBuf {
    static BUILT: OnceLock<PathBuf> = OnceLock::new();
    BUILT
        .get_or_init(|| {
            if let Some(built) = std::env::var_os("YANIV_BIN").map(PathBuf::from)
                && built.is_file()
            {
                return built;
            }
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
            // What cargo sets for a running test (CARGO_MANIFEST_DIR, CARGO_PKG_NAME, ...)
            // is not part of a build's inputs, but some build scripts watch it (ring
            // reruns when CARGO_MANIFEST_DIR changes): left in, this build would redo
            // the server's whole TLS and database stack that the suite just built.
            for (name, _) in std::env::vars_os() {
                let name = name.to_string_lossy();
                let set_for_tests = [
                    "CARGO_PKG_",
                    "CARGO_MANIFEST_",
                    "CARGO_BIN_",
                    "CARGO_CRATE_",
                ]
                .iter()
                .any(|prefix| name.starts_with(prefix))
                    || name == "CARGO_TARGET_TMPDIR"
                    || name == "CARGO_PRIMARY_PACKAGE";
                if set_for_tests {
                    build.env_remove(name.as_ref());
                }
            }
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
    yaniv_on_file("replay", record)
}

/// Runs `yaniv verify` on `archive` (a `yaniv-archive/1` document), as a file.
pub fn yaniv_verify(archive: &serde_json::Value) -> Output {
    yaniv_on_file("verify", archive)
}

/// Runs `yaniv SUBCOMMAND FILE` with `document` written to FILE.
fn yaniv_on_file(subcommand: &str, document: &serde_json::Value) -> Output {
    let dir = std::env::temp_dir().join(format!("yaniv-{subcommand}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let path = dir.join(format!("{}.json", crate::random_hex(8)));
    std::fs::write(&path, document.to_string()).expect("write the document");
    let output = Command::new(yaniv_binary())
        .arg(subcommand)
        .arg(&path)
        .output()
        .unwrap_or_else(|e| panic!("run yaniv {subcommand}: {e}"));
    let _ = std::fs::remove_file(&path);
    output
}

/// Runs the independent reference verifier (`tools/reference-verifier/`, Python,
/// written from `docs/verification.md` alone) on `archive`, given on standard input.
pub fn reference_verify(archive: &serde_json::Value) -> Output {
    use std::io::Write;
    use std::process::Stdio;
    let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tools/reference-verifier/verify_archive.py");
    let mut child = Command::new("python3")
        .arg(&script)
        .arg("-")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run python3 (deploy/test.sh installs it)");
    let mut stdin = child.stdin.take().expect("a pipe");
    let text = archive.to_string();
    // Written from another thread: the verifier may print before it has read it all.
    let writer = std::thread::spawn(move || stdin.write_all(text.as_bytes()));
    let output = child.wait_with_output().expect("the verifier's output");
    writer
        .join()
        .expect("the writer thread")
        .expect("write the archive to the verifier");
    output
}

/// `yaniv verify` on `archive`: its exit status and the verdict it printed. The
/// independent reference verifier must agree: the same exit status and, on a
/// failure, the same stream and version.
pub fn verify_offline(archive: &Value) -> (i32, Value) {
    let (status, verdict) = exit_and_verdict("yaniv verify", yaniv_verify(archive));
    let (reference_status, reference) =
        exit_and_verdict("the reference verifier", reference_verify(archive));
    assert_eq!(
        reference_status, status,
        "the two verifiers disagree: {verdict:#}\nreference: {reference:#}"
    );
    if status == 1 {
        let place = |v: &Value| {
            (
                v["first_failure"]["stream"].clone(),
                v["first_failure"]["version"].clone(),
            )
        };
        assert_eq!(
            place(&reference),
            place(&verdict),
            "the two verifiers name different first failures: {verdict:#}\nreference: {reference:#}"
        );
    }
    (status, verdict)
}

fn exit_and_verdict(who: &str, output: Output) -> (i32, Value) {
    let Output {
        status,
        stdout,
        stderr,
    } = output;
    let verdict = serde_json::from_slice(&stdout).unwrap_or_else(|e| {
        panic!(
            "{who}'s verdict is JSON ({e}): {}\n{}",
            String::from_utf8_lossy(&stdout),
            String::from_utf8_lossy(&stderr)
        )
    });
    (status.code().expect("an exit status"), verdict)
}

/// Keeps `archive` beside the screenshots (`target/archives/NAME`), for whoever checks
/// it with a verifier of their own or times one (BENCHMARKS.md).
pub fn keep_archive(archive: &Value, name: &str) {
    let Ok(exe) = std::env::current_exe() else {
        return;
    };
    let Some(target) = exe.ancestors().nth(3) else {
        return;
    };
    let dir = target.join("archives");
    if std::fs::create_dir_all(&dir).is_ok() {
        let _ = std::fs::write(dir.join(name), archive.to_string());
    }
}
