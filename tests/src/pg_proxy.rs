//! A TCP proxy between a test server and PostgreSQL that breaks the link on demand,
//! the way a network or a failover does: after forwarding a `COMMIT` (so the database
//! commits) it drops the database's answer and closes the connection, leaving the
//! server unsure of the outcome; or it stops forwarding anything at all (a dead
//! network: no error, no answer, ever).

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;

/// The simple-protocol `Query` message sqlx sends to commit: `Q`, the length
/// (4 + "COMMIT\0"), the text.
const COMMIT_MESSAGE: &[u8] = b"Q\0\0\0\x0bCOMMIT\0";
/// And the one that opens a transaction.
const BEGIN_MESSAGE: &[u8] = b"Q\0\0\0\x0aBEGIN\0";

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
    // Set by the upstream direction when it forwarded a COMMIT it must cut.
    let cutting = Arc::new(AtomicBool::new(false));

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
                if chunk.ends_with(BEGIN_MESSAGE)
                    && faults.freeze_at_next_begin.swap(false, Ordering::SeqCst)
                {
                    freeze.send_replace(true);
                }
                wait_thawed(&mut frozen).await;
                // sqlx waits for each answer before it sends the next message, so a
                // COMMIT arrives alone at the end of a read.
                if chunk.ends_with(COMMIT_MESSAGE)
                    && faults.cut_next_commit.swap(false, Ordering::SeqCst)
                {
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
