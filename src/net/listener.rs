//! The accept loop: an OS thread of its own for each connection (a pooled one, see
//! `workers`), a cap on open connections, and a clean stop.

use crate::workers::Workers;
use std::io::Write;
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
