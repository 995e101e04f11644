//! A TCP proxy between a test server and PostgreSQL that breaks the link on demand,
//! the way a network or a failover does: after forwarding a commit (so the database
//! commits) it drops the database's answer and closes the connection, leaving the
//! server unsure of the outcome; or it stops forwarding anything at all (a dead
//! network: no error, no answer, ever).
//!
//! A write reaches the database in one of two shapes, and the proxy knows both: a
//! transaction (`BEGIN` ... `COMMIT`, simple-protocol queries), or a table's write in
//! one autocommitted statement (`append_table_write...`, a prepared statement: the proxy
//! follows the client's messages to see which statement each `Bind` runs).

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;

/// The body of the simple-protocol `Query` message sqlx sends to commit.
const COMMIT_QUERY: &[u8] = b"COMMIT\0";
/// And the one that opens a transaction.
const BEGIN_QUERY: &[u8] = b"BEGIN\0";
/// The start of the name of the functions of a write in one statement
/// (`append_table_write`, `append_table_write_caller_notifies`).
const ONE_STATEMENT_WRITE: &[u8] = b"append_table_write";

#[derive(Debug, Default)]
struct Faults {
    /// Drop the answer to the next `COMMIT` and close that connection.
    cut_next_commit: AtomicBool,
    /// `COMMIT`s whose answer was dropped so far.
    commits_cut: AtomicUsize,
    /// Freeze everything when the next `BEGIN` arrives (before forwarding it).
    freeze_at_next_begin: AtomicBool,
}

/// A running proxy; it lives until the test ends.
#[derive(Debug)]
pub struct PgProxy {
    /// Where the server connects instead of the database.
    pub address: SocketAddr,
    faults: Arc<Faults>,
    frozen: watch::Sender<bool>,
}

impl PgProxy {
    /// Listens on a free local port and forwards every connection to `upstream`.
    pub async fn start(upstream: SocketAddr) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind the proxy");
        let address = listener.local_addr().expect("the proxy's address");
        let faults = Arc::new(Faults::default());
        let (frozen, _) = watch::channel(false);
        let proxy = Self {
            address,
            faults: Arc::clone(&faults),
            frozen: frozen.clone(),
        };
        tokio::spawn(async move {
            while let Ok((client, _)) = listener.accept().await {
                let Ok(server) = TcpStream::connect(upstream).await else {
                    continue;
                };
                tokio::spawn(relay(client, server, Arc::clone(&faults), frozen.clone()));
            }
        });
        proxy
    }

    /// The next `COMMIT` any connection sends reaches the database, but its answer
    /// never reaches the server: the connection closes instead.
    pub fn cut_after_next_commit(&self) {
        self.faults.cut_next_commit.store(true, Ordering::SeqCst);
    }

    /// How many commits had their answer dropped.
    pub fn commits_cut(&self) -> usize {
        self.faults.commits_cut.load(Ordering::SeqCst)
    }

    /// Freezes the link (see [`PgProxy::freeze`]) as the next transaction begins: the
    /// server has its connection and sends `BEGIN`, which never arrives.
    pub fn freeze_at_next_begin(&self) {
        self.faults
            .freeze_at_next_begin
            .store(true, Ordering::SeqCst);
    }

    /// Stops forwarding in both directions (`true`) or resumes (`false`). Bytes sent
    /// meanwhile wait in the proxy, as they would in a network that lost its route.
    pub fn freeze(&self, frozen: bool) {
        self.frozen.send_replace(frozen);
    }
}

async fn wait_thawed(frozen: &mut watch::Receiver<bool>) {
    // A closed channel means the proxy is gone: nothing to wait for.
    let _ = frozen.wait_for(|frozen| !frozen).await;
}

/// Forwards both directions of one connection until either side closes.
async fn relay(
    client: TcpStream,
    server: TcpStream,
    faults: Arc<Faults>,
    freeze: watch::Sender<bool>,
) {
    let frozen = freeze.subscribe();
    let (mut client_rx, mut client_tx) = client.into_split();
    let (mut server_rx, mut server_tx) = server.into_split();
    // Set by the upstream direction when it forwarded a commit it must cut.
    let cutting = Arc::new(AtomicBool::new(false));
    let mut messages = ClientMessages::default();

    let upstream = {
        let cutting = Arc::clone(&cutting);
        let faults = Arc::clone(&faults);
        let mut frozen = frozen.clone();
        async move {
            let mut buf = vec![0u8; 64 * 1024];
            loop {
                let n = match client_rx.read(&mut buf).await {
                    Ok(0) | Err(_) => return,
                    Ok(n) => n,
                };
                let chunk = &buf[..n];
                let seen = messages.read(chunk);
                if seen.begins && faults.freeze_at_next_begin.swap(false, Ordering::SeqCst) {
                    freeze.send_replace(true);
                }
                wait_thawed(&mut frozen).await;
                // sqlx waits for each answer before it sends the next message, so the
                // next answer after a commit is the commit's.
                if seen.commits && faults.cut_next_commit.swap(false, Ordering::SeqCst) {
                    cutting.store(true, Ordering::SeqCst);
                }
                if server_tx.write_all(chunk).await.is_err() {
                    return;
                }
            }
        }
    };
    let downstream = {
        let mut frozen = frozen.clone();
        async move {
            let mut buf = vec![0u8; 64 * 1024];
            loop {
                let n = match server_rx.read(&mut buf).await {
                    Ok(0) | Err(_) => return,
                    Ok(n) => n,
                };
                wait_thawed(&mut frozen).await;
                if cutting.load(Ordering::SeqCst) {
                    // The database committed and answered; the server never hears it.
                    faults.commits_cut.fetch_add(1, Ordering::SeqCst);
                    let _ = client_tx.shutdown().await;
                    return;
                }
                if client_tx.write_all(&buf[..n]).await.is_err() {
                    return;
                }
            }
        }
    };
    // Whichever direction ends first ends the connection (both halves are dropped).
    tokio::select! {
        () = upstream => {}
        () = downstream => {}
    }
}

/// What a read of the client's bytes held.
#[derive(Debug, Default)]
struct Seen {
    /// A transaction begins, or a write in one statement runs.
    begins: bool,
    /// A transaction commits, or a write in one statement runs.
    commits: bool,
}

/// Follows the messages a client sends (the protocol's framing: a type byte and a
/// length, after an untyped start-up) across reads.
#[derive(Debug, Default)]
struct ClientMessages {
    pending: Vec<u8>,
    started: bool,
    /// Prepared statements (by name) that run a write in one statement.
    one_statement_writes: std::collections::HashSet<Vec<u8>>,
}

impl ClientMessages {
    fn read(&mut self, chunk: &[u8]) -> Seen {
        let mut pending = std::mem::take(&mut self.pending);
        pending.extend_from_slice(chunk);
        let mut seen = Seen::default();
        let mut at = 0;
        loop {
            let rest = &pending[at..];
            let header = if self.started { 5 } else { 4 };
            if rest.len() < header {
                break;
            }
            let length_at = header - 4;
            let length = u32::from_be_bytes(
                rest[length_at..header]
                    .try_into()
                    .expect("four bytes of length"),
            ) as usize;
            let total = length_at + length;
            if length < 4 || rest.len() < total {
                break;
            }
            if self.started {
                self.message(rest[0], &rest[header..total], &mut seen);
            } else {
                // SSL and GSS requests come before the start-up message proper.
                let code = rest
                    .get(4..8)
                    .map(|c| u32::from_be_bytes([c[0], c[1], c[2], c[3]]));
                self.started = !matches!(code, Some(80_877_103 | 80_877_104));
            }
            at += total;
        }
        pending.drain(..at);
        self.pending = pending;
        seen
    }

    fn message(&mut self, kind: u8, body: &[u8], seen: &mut Seen) {
        let mut fields = body.split(|&b| b == 0);
        match kind {
            b'Q' => {
                seen.begins |= body == BEGIN_QUERY;
                seen.commits |= body == COMMIT_QUERY;
            }
            b'P' => {
                let name = fields.next().unwrap_or_default();
                let query = fields.next().unwrap_or_default();
                if query
                    .windows(ONE_STATEMENT_WRITE.len())
                    .any(|w| w == ONE_STATEMENT_WRITE)
                {
                    self.one_statement_writes.insert(name.to_vec());
                }
            }
            b'B' => {
                let _portal = fields.next();
                let statement = fields.next().unwrap_or_default();
                if self.one_statement_writes.contains(statement) {
                    seen.begins = true;
                    seen.commits = true;
                }
            }
            _ => {}
        }
    }
}
