//! The accept loop: an OS thread of its own for each connection (a pooled one, see
//! `workers`), a cap on open connections, and a clean stop ([`AcceptThread`]).

use crate::workers::Workers;
use std::io::{self, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::os::fd::{AsRawFd, RawFd};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

/// How long a stop waits for an accept loop to notice it must stop.
pub const ACCEPT_STOP_WAIT: Duration = Duration::from_secs(2);

/// An accept loop running on a thread of its own, and what it takes to stop it.
pub struct AcceptThread {
    thread: JoinHandle<()>,
    /// The address it listens on.
    address: SocketAddr,
    /// Its listening socket, owned by the thread (kept open as long as it runs).
    listening: RawFd,
    stopping: Arc<AtomicBool>,
}

impl AcceptThread {
    /// Runs [`accept_loop`] on `listener` on a thread named `name`, each connection
    /// served by `serve` on a thread of `workers`; `open` counts them.
    ///
    /// # Errors
    ///
    /// When the listener's address cannot be read or the thread cannot start.
    pub fn spawn<F>(
        name: &str,
        listener: TcpListener,
        limits: AcceptLimits,
        open: Arc<AtomicUsize>,
        workers: Arc<Workers>,
        serve: F,
    ) -> io::Result<AcceptThread>
    where
        F: Fn(TcpStream, SocketAddr) + Send + Sync + 'static,
    {
        let address = listener.local_addr()?;
        let listening = listener.as_raw_fd();
        let stopping = Arc::new(AtomicBool::new(false));
        let stop = Arc::clone(&stopping);
        let thread = thread::Builder::new().name(name.into()).spawn(move || {
            accept_loop(&listener, &limits, &stop, open, &workers, serve);
        })?;
        Ok(AcceptThread {
            thread,
            address,
            listening,
            stopping,
        })
    }

    /// Stops the loop and waits for it until `deadline` (and at most
    /// [`ACCEPT_STOP_WAIT`]): one connection to ourselves wakes the blocked `accept`;
    /// should that fail, shutting the listening socket down wakes it on Linux; should
    /// both fail, the loop is left behind (said in the log) and ends with the process.
    pub fn stop(self, deadline: Instant) {
        self.stopping.store(true, Ordering::SeqCst);
        let deadline = deadline.min(Instant::now() + ACCEPT_STOP_WAIT);
        let address = wake_address(self.address);
        let wake_wait = deadline
            .saturating_duration_since(Instant::now())
            .clamp(Duration::from_millis(1), Duration::from_secs(1));
        if let Err(e) = TcpStream::connect_timeout(&address, wake_wait) {
            log::warn!(
                "cannot wake the accept loop on {address} by connecting ({e}): shutting its socket down"
            );
            // SAFETY: the descriptor is the listener's, which the accept thread keeps
            // open until it returns; shutdown only changes the socket's state.
            unsafe {
                libc::shutdown(self.listening, libc::SHUT_RDWR);
            }
        }
        crate::shutdown::join_by(
            self.thread,
            deadline,
            &format!("the accept loop on {}", self.address),
        );
    }
}

/// Where to connect to wake our own accept: the listening address, or loopback when
/// listening on every address.
fn wake_address(listening: SocketAddr) -> SocketAddr {
    let mut address = listening;
    if address.ip().is_unspecified() {
        address.set_ip(match address {
            SocketAddr::V4(_) => std::net::Ipv4Addr::LOCALHOST.into(),
            SocketAddr::V6(_) => std::net::Ipv6Addr::LOCALHOST.into(),
        });
    }
    address
}

/// Stack size of a connection thread: it parses lines and formats messages, no deep
/// recursion, so a small stack keeps ten thousand clients cheap.
pub const CONNECTION_STACK_BYTES: usize = 128 * 1024;

/// Limits the listener enforces.
#[derive(Clone, Debug)]
pub struct AcceptLimits {
    /// Connections open at once; the next one gets `refusal` and is closed.
    pub max_clients: usize,
    /// The line sent to a client refused because the server is full.
    pub refusal: String,
}

/// Counts open connections; a connection's slot is freed when its guard drops.
struct Slot(Arc<AtomicUsize>);

impl Drop for Slot {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Accepts connections until `stopping` is set (the caller then makes one connection
/// to the listener to wake it). Each accepted stream is handed to `serve` on a thread
/// of `workers`, which it has to itself until `serve` returns.
/// `open` counts the connections being served; it is back to its start value when
/// they have all ended.
pub fn accept_loop<F>(
    listener: &TcpListener,
    limits: &AcceptLimits,
    stopping: &AtomicBool,
    open: Arc<AtomicUsize>,
    workers: &Workers,
    serve: F,
) where
    F: Fn(TcpStream, SocketAddr) + Send + Sync + 'static,
{
    let serve = Arc::new(serve);
    loop {
        let accepted = listener.accept();
        if stopping.load(Ordering::SeqCst) {
            return;
        }
        let (stream, peer) = match accepted {
            Ok(pair) => pair,
            Err(e) => {
                // Out of file descriptors and the like: wait a little, keep serving.
                log::warn!("accept failed: {e}");
                thread::sleep(Duration::from_millis(50));
                continue;
            }
        };
        if open.fetch_add(1, Ordering::SeqCst) >= limits.max_clients {
            let slot = Slot(Arc::clone(&open));
            log::warn!(
                "refused {peer}: {} clients already connected",
                limits.max_clients
            );
            refuse(stream, &limits.refusal);
            drop(slot);
            continue;
        }
        let slot = Slot(Arc::clone(&open));
        let serve = Arc::clone(&serve);
        let started = workers.run(move || {
            let _slot = slot;
            serve(stream, peer);
        });
        if let Err(e) = started {
            log::error!("could not start a thread for {peer}: {e}");
        }
    }
}

/// Tells a refused client why, without waiting on it for long, and closes.
fn refuse(mut stream: TcpStream, refusal: &str) {
    // A refused client gets one short write at most; failures just mean it is gone.
    let _ = stream.set_write_timeout(Some(Duration::from_secs(1)));
    let _ = stream.write_all(format!("{refusal}\n").as_bytes());
    let _ = stream.shutdown(std::net::Shutdown::Both);
}
