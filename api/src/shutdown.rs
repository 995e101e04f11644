//! A graceful stop that answers every request the server accepted.
//!
//! actix's own graceful stop closes the listening socket at once, which resets the
//! connections the kernel had already queued, and it ends each worker's runtime as
//! soon as that worker's own connections are done. The second breaks the pooled
//! database connections that runtime opened while the other workers still use them
//! (they fail with "a Tokio 1.x context was found, but it is being shutdown", a 503).
//! So [`GracefulStop::stop`] runs in steps:
//!
//! 1. **Draining.** `/readyz` answers 503 `shutting_down`, so balancers take the
//!    instance out; every answer carries `Connection: close`, so a keep-alive client
//!    leaves after its current request; live streams end (their clients resume
//!    elsewhere with `Last-Event-ID`). New connections are still served.
//! 2. After `YANIV_SHUTDOWN_DELAY_MS` (the time a balancer needs to notice), **the door
//!    closes**: on Linux a socket filter on the listener drops new handshakes (their
//!    clients retry the handshake, then are refused once the socket is closed), while
//!    what the kernel had already queued is still accepted and served.
//! 3. When no connection is open (or after the shutdown timeout), actix stops. Every
//!    worker is idle by then, so no worker's runtime ends under another's request.

use std::any::Any;
use std::net::TcpListener;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use actix_web::body::MessageBody;
use actix_web::dev::{Extensions, ServerHandle, ServiceRequest, ServiceResponse};
use actix_web::http::ConnectionType;
use actix_web::middleware::Next;

use crate::live::Hub;

/// How long the accept loop gets to take what the kernel queued before the door
/// closed. It takes a queued connection within microseconds; this is slack for a
/// machine whose cores are saturated.
const QUEUE_SETTLE: Duration = Duration::from_millis(250);

/// How often the stop checks whether the last connection has closed.
const IDLE_POLL: Duration = Duration::from_millis(20);

/// The state a graceful stop shares with the connections and the middleware.
#[derive(Debug, Default)]
pub struct Drain {
    stopping: AtomicBool,
    open: Arc<AtomicUsize>,
    /// A second handle on the listening socket, to filter it; dropped at the stop so
    /// that actix's own close really closes the socket.
    listener: Mutex<Option<socket2::Socket>>,
}

impl Drain {
    /// The drain of a server listening on `listener`. Without a second handle on the
    /// socket (the system refused to duplicate it), the stop skips its filter.
    pub fn new(listener: &TcpListener) -> Self {
        let listener = match listener.try_clone() {
            Ok(clone) => Some(socket2::Socket::from(clone)),
            Err(err) => {
                tracing::warn!(error = %err, "shutdown: cannot keep a handle on the listener");
                None
            }
        };
        Self {
            listener: Mutex::new(listener),
            ..Self::default()
        }
    }

    /// Whether the stop has begun: `/readyz` refuses and connections close after
    /// their answer.
    pub fn is_stopping(&self) -> bool {
        self.stopping.load(Ordering::Relaxed)
    }

    /// Client connections open now.
    pub fn open_connections(&self) -> usize {
        self.open.load(Ordering::Relaxed)
    }

    /// Counts a new connection until `extensions` (the connection's own) are dropped.
    pub fn on_connect(&self, _stream: &dyn Any, extensions: &mut Extensions) {
        self.open.fetch_add(1, Ordering::Relaxed);
        extensions.insert(OpenConnection(Arc::clone(&self.open)));
    }

    fn listener(&self) -> std::sync::MutexGuard<'_, Option<socket2::Socket>> {
        self.listener.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Stops new handshakes on the listening socket; queued connections stay.
    fn close_door(&self) {
        let listener = self.listener();
        let Some(socket) = listener.as_ref() else {
            return;
        };
        if let Err(err) = drop_new_handshakes(socket) {
            tracing::warn!(error = %err, "shutdown: new connections cannot be held off");
        }
    }

    async fn wait_until_idle(&self, timeout: Duration) -> bool {
        let started = Instant::now();
        while self.open_connections() > 0 {
            if started.elapsed() >= timeout {
                return false;
            }
            tokio::time::sleep(IDLE_POLL).await;
        }
        true
    }
}

/// Lives in a connection's extensions: its drop is the connection's end.
struct OpenConnection(Arc<AtomicUsize>);

impl Drop for OpenConnection {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::Relaxed);
    }
}

/// A classic BPF program of one instruction, "accept 0 bytes": the kernel drops every
/// packet that reaches the listening socket itself (SYNs and handshake ends), not the
/// packets of connections it has already established.
#[cfg(target_os = "linux")]
fn drop_new_handshakes(socket: &socket2::Socket) -> std::io::Result<()> {
    const BPF_RET_K: u16 = 0x06;
    socket.attach_filter(&[socket2::SockFilter::new(BPF_RET_K, 0, 0, 0)])
}

#[cfg(not(target_os = "linux"))]
fn drop_new_handshakes(_socket: &socket2::Socket) -> std::io::Result<()> {
    Ok(())
}

/// Adds `Connection: close` to every answer once the stop has begun.
pub async fn middleware(
    drain: Arc<Drain>,
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let mut res = next.call(req).await?;
    if drain.is_stopping() {
        res.response_mut()
            .head_mut()
            .set_connection_type(ConnectionType::Close);
    }
    Ok(res)
}

/// What SIGTERM runs (see the module docs); cheap to clone.
#[derive(Clone)]
pub struct GracefulStop {
    pub(crate) drain: Arc<Drain>,
    pub(crate) server: ServerHandle,
    pub(crate) live: Arc<Hub>,
    /// How long the instance keeps serving new connections once `/readyz` refuses.
    pub(crate) delay: Duration,
    /// How long it waits for open connections to finish.
    pub(crate) timeout: Duration,
}

impl std::fmt::Debug for GracefulStop {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GracefulStop")
            .field("delay", &self.delay)
            .field("timeout", &self.timeout)
            .finish_non_exhaustive()
    }
}

impl GracefulStop {
    /// Drains, closes the door, waits for the open connections, then stops the server
    /// (whose `run_until_stopped` then stops the background tasks).
    pub async fn stop(&self) {
        self.drain.stopping.store(true, Ordering::Relaxed);
        self.live.close();
        tracing::info!(
            delay_ms = self.delay.as_millis(),
            open = self.drain.open_connections(),
            "stopping: /readyz refuses and connections close after their answer"
        );
        tokio::time::sleep(self.delay).await;
        self.drain.close_door();
        tokio::time::sleep(QUEUE_SETTLE).await;
        let idle = self.drain.wait_until_idle(self.timeout).await;
        if idle {
            tracing::info!("stopping: every accepted connection has been served");
        } else {
            tracing::warn!(
                open = self.drain.open_connections(),
                "stopping: connections still open after the shutdown timeout are closed"
            );
        }
        let stopped = self.server.stop(idle);
        // actix closes its own handle on the socket; this one must not keep it open.
        self.drain.listener().take();
        stopped.await;
    }
}
