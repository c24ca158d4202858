//! The listener: an OS thread of its own for each connection (a pooled one, see
//! `workers`), a cap on open connections, and a clean stop.
//!
//! The threads take turns at the listener (the Leader/Followers pattern): the thread
//! whose turn it is blocks in `accept`; when a client arrives, it hands the next turn
//! to another thread of the pool and serves that client itself. So a new client is
//! read by the very thread that woke up for it: no second hand-off (another thread's
//! wake-up) stands between its connect and its first answer, which is the costliest
//! step of a pairing on a busy machine. The next turn's hand-off happens while this
//! client is being served.

use crate::workers::Workers;
use crossbeam_channel::{Receiver, RecvTimeoutError, Sender, bounded};
use std::io::{self, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::thread;
use std::time::Duration;

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

/// What the turns share: the listener and what accepting needs.
struct Listening<F> {
    listener: TcpListener,
    limits: AcceptLimits,
    stopping: Arc<AtomicBool>,
    open: Arc<AtomicUsize>,
    workers: Arc<Workers>,
    serve: Arc<F>,
    /// Never sent on: dropped with the last turn, which tells [`Accepting::wait`].
    _stopped: Sender<()>,
}

/// A listener being served (see [`accept`]).
pub struct Accepting {
    stopped: Receiver<()>,
}

impl Accepting {
    /// Waits until the listener's last turn has ended (after `stopping` was set and
    /// the listener woken), at most `timeout`; returns whether it has.
    pub fn wait(&self, timeout: Duration) -> bool {
        matches!(
            self.stopped.recv_timeout(timeout),
            Err(RecvTimeoutError::Disconnected)
        )
    }
}

/// Accepts connections on `listener`, the threads of `workers` taking turns, until
/// `stopping` is set (the caller then makes one connection to the listener to wake the
/// turn in progress, and [`Accepting::wait`]s). Each accepted stream is served by
/// `serve` on the thread that accepted it. `open` counts the connections being
/// served; it is back to its start value when they have all ended.
///
/// # Errors
///
/// When no thread can be had for the first turn.
pub fn accept<F>(
    listener: TcpListener,
    limits: AcceptLimits,
    stopping: Arc<AtomicBool>,
    open: Arc<AtomicUsize>,
    workers: Arc<Workers>,
    serve: F,
) -> io::Result<Accepting>
where
    F: Fn(TcpStream, SocketAddr) + Send + Sync + 'static,
{
    let (stopped_sender, stopped) = bounded(0);
    let listening = Arc::new(Listening {
        listener,
        limits,
        stopping,
        open,
        workers: Arc::clone(&workers),
        serve: Arc::new(serve),
        _stopped: stopped_sender,
    });
    workers.run(move || take_turn(listening))?;
    Ok(Accepting { stopped })
}

/// One thread's turn at the listener: accepts until a client is let in, hands the
/// listener to the next turn and serves that client; or returns once stopping.
fn take_turn<F>(listening: Arc<Listening<F>>)
where
    F: Fn(TcpStream, SocketAddr) + Send + Sync + 'static,
{
    loop {
        let accepted = listening.listener.accept();
        if listening.stopping.load(Ordering::SeqCst) {
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
        let open = Arc::clone(&listening.open);
        if open.fetch_add(1, Ordering::SeqCst) >= listening.limits.max_clients {
            let slot = Slot(open);
            let max = listening.limits.max_clients;
            log::warn!("refused {peer}: {max} clients already connected");
            refuse(stream, &listening.limits.refusal);
            drop(slot);
            continue;
        }
        let slot = Slot(open);
        let next = Arc::clone(&listening);
        if let Err(e) = listening.workers.run(move || take_turn(next)) {
            // No thread for the next turn: this one keeps the listener.
            log::error!("could not start a thread for {peer}: {e}");
            continue;
        }
        // Only the turns hold the listener: its last one ends the listening.
        let serve = Arc::clone(&listening.serve);
        drop(listening);
        serve(stream, peer);
        drop(slot);
        return;
    }
}

/// Tells a refused client why, without waiting on it for long, and closes.
fn refuse(mut stream: TcpStream, refusal: &str) {
    // A refused client gets one short write at most; failures just mean it is gone.
    let _ = stream.set_write_timeout(Some(Duration::from_secs(1)));
    let _ = stream.write_all(format!("{refusal}\n").as_bytes());
    let _ = stream.shutdown(std::net::Shutdown::Both);
}
