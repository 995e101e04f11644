//! A PostgreSQL primary with a streaming standby, made for one test: `initdb` into a
//! temporary folder, `pg_basebackup -R` of it into another, both started on free
//! loopback ports, both stopped and removed when the [`StreamingPair`] goes away. The
//! binaries are the ones `deploy/pg-local.sh` uses (the highest version under
//! `/usr/lib/postgresql/*/bin`, or `PG_LOCAL_LIBDIR`); as root, they run as the
//! `postgres` user, as that script runs them.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use sqlx::{Connection, Executor, PgConnection};

/// The two servers of one test.
#[derive(Debug)]
pub struct StreamingPair {
    bin: PathBuf,
    root: PathBuf,
    /// `postgres://postgres@127.0.0.1:<port>/postgres` of the primary.
    pub primary_url: String,
    /// The same on the standby.
    pub standby_url: String,
    standby_running: bool,
}

impl StreamingPair {
    /// Makes and starts both; panics (the test fails) when PostgreSQL is not installed.
    pub fn start() -> Self {
        let bin = postgres_bin();
        let root = std::env::temp_dir().join(format!("yaniv-standby-{}", crate::random_hex(6)));
        std::fs::create_dir_all(&root).expect("a temporary folder");
        if as_root() {
            run(Command::new("chown").arg("postgres:").arg(&root));
        }
        let mut pair = Self {
            primary_url: String::new(),
            standby_url: String::new(),
            bin,
            root,
            standby_running: false,
        };
        let (primary_port, standby_port) = (free_port(), free_port());
        pair.as_owner(
            "initdb",
            &[
                "-D",
                &pair.dir("primary"),
                "-U",
                "postgres",
                "--auth=trust",
                "--encoding=UTF8",
                "--no-sync",
            ],
        );
        pair.start_server("primary", primary_port);
        pair.primary_url = format!("postgres://postgres@127.0.0.1:{primary_port}/postgres");
        // -R: `standby.signal` and the primary's connection, so that it starts streaming.
        pair.as_owner(
            "pg_basebackup",
            &[
                "-h",
                "127.0.0.1",
                "-p",
                &primary_port.to_string(),
                "-U",
                "postgres",
                "-D",
                &pair.dir("standby"),
                "-R",
                "-X",
                "stream",
                "--no-sync",
            ],
        );
        pair.start_server("standby", standby_port);
        pair.standby_running = true;
        pair.standby_url = format!("postgres://postgres@127.0.0.1:{standby_port}/postgres");
        pair
    }

    fn dir(&self, name: &str) -> String {
        self.root.join(name).display().to_string()
    }

    fn start_server(&self, name: &str, port: u16) {
        let options = format!(
            "-p {port} -c listen_addresses=127.0.0.1 -c unix_socket_directories={root} \
             -c fsync=off -c max_connections=60 -c wal_level=replica -c max_wal_senders=4 \
             -c hot_standby=on -c hot_standby_feedback=on",
            root = self.root.display()
        );
        self.as_owner(
            "pg_ctl",
            &[
                "-D",
                &self.dir(name),
                "-l",
                &self.dir(&format!("{name}.log")),
                "-w",
                "-t",
                "60",
                "-o",
                &options,
                "start",
            ],
        );
    }

    /// Stops the standby at once (`immediate`), as a crash would.
    pub fn stop_standby(&mut self) {
        if self.standby_running {
            self.as_owner(
                "pg_ctl",
                &["-D", &self.dir("standby"), "-m", "immediate", "-w", "stop"],
            );
            self.standby_running = false;
        }
    }

    /// Waits until `database` exists on the standby (its creation replayed).
    pub async fn wait_for_database_on_standby(&self, database: &str) {
        let url = crate::with_database(&self.standby_url, database);
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            match PgConnection::connect(&url).await {
                Ok(connection) => {
                    connection.close().await.ok();
                    return;
                }
                Err(error) if Instant::now() > deadline => {
                    panic!("{database} never reached the standby: {error}")
                }
                Err(_) => tokio::time::sleep(Duration::from_millis(100)).await,
            }
        }
    }

    /// Runs `sql` on the standby (e.g. `SELECT pg_wal_replay_pause()`).
    pub async fn on_standby(&self, sql: &str) {
        let mut connection = PgConnection::connect(&self.standby_url)
            .await
            .expect("connect to the standby");
        connection
            .execute(sqlx::AssertSqlSafe(sql.to_owned()))
            .await
            .unwrap_or_else(|e| panic!("{sql} on the standby: {e}"));
        connection.close().await.ok();
    }

    fn as_owner(&self, program: &str, args: &[&str]) {
        let program = self.bin.join(program);
        let mut command = if as_root() {
            let mut command = Command::new("runuser");
            command.args(["-u", "postgres", "--"]).arg(&program);
            command
        } else {
            Command::new(&program)
        };
        command.args(args).current_dir("/");
        run(&mut command);
    }
}

impl Drop for StreamingPair {
    fn drop(&mut self) {
        for name in ["standby", "primary"] {
            if name == "standby" && !self.standby_running {
                continue;
            }
            let program = self.bin.join("pg_ctl");
            let dir = self.dir(name);
            let args = ["-D", dir.as_str(), "-m", "immediate", "-w", "stop"];
            let status = if as_root() {
                Command::new("runuser")
                    .args(["-u", "postgres", "--"])
                    .arg(&program)
                    .args(args)
                    .current_dir("/")
                    .output()
            } else {
                Command::new(&program).args(args).output()
            };
            if !status.is_ok_and(|out| out.status.success()) {
                eprintln!("could not stop the test's {name} in {dir}");
            }
        }
        if std::env::var_os("KEEP_TEST_DATABASES").is_none() {
            let _ = std::fs::remove_dir_all(&self.root);
        }
    }
}

fn as_root() -> bool {
    // `id -u` rather than a libc call: the tests take no dependency for this.
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|out| out.stdout.trim_ascii() == b"0")
}

fn run(command: &mut Command) {
    let output = command
        .output()
        .unwrap_or_else(|e| panic!("{command:?}: {e}"));
    assert!(
        output.status.success(),
        "{command:?} failed: {}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}

/// A port nothing listens on now.
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .expect("a free port")
        .port()
}

/// The folder of PostgreSQL's server binaries, as `deploy/pg-local.sh` finds it.
fn postgres_bin() -> PathBuf {
    let libdir = std::env::var("PG_LOCAL_LIBDIR").unwrap_or_else(|_| "/usr/lib/postgresql".into());
    let mut found: Vec<(u32, PathBuf)> = std::fs::read_dir(&libdir)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|entry| {
            let version: u32 = entry.file_name().to_str()?.parse().ok()?;
            let bin = entry.path().join("bin");
            has_server(&bin).then_some((version, bin))
        })
        .collect();
    found.sort();
    found.pop().map(|(_, bin)| bin).unwrap_or_else(|| {
        panic!(
            "no PostgreSQL server binaries under {libdir}/*/bin (deploy/pg-local.sh installs them)"
        )
    })
}

fn has_server(bin: &Path) -> bool {
    ["initdb", "pg_ctl", "pg_basebackup", "postgres"]
        .iter()
        .all(|program| bin.join(program).is_file())
}
