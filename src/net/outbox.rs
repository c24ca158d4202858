//! Output to one client that never blocks the caller.
//!
//! A game loop must not wait for a client that stopped reading, so every write is a
//! non-blocking `send` (`MSG_DONTWAIT`). What the kernel does not take at once waits in
//! a bounded queue that the [`Flusher`](super::flusher::Flusher) retries. A client that
//! takes none of it for [`OutboxLimits::stall_timeout`], or lets more than
//! [`OutboxLimits::max_pending_bytes`] pile up, is disconnected: its socket is shut
//! down, which wakes its reader thread, which reports the disconnect like any other.

use super::flusher::{FlushState, Flusher, Retry};
use parking_lot::Mutex;
use std::io;
use std::net::{Shutdown, TcpStream};
use std::os::fd::AsRawFd;
use std::sync::{Arc, Weak};
use std::time::{Duration, Instant};

/// Bounds on output a client has not taken yet.
#[derive(Clone, Copy, Debug)]
pub struct OutboxLimits {
    /// Disconnect when queued output makes no progress for this long.
    pub stall_timeout: Duration,
    /// Disconnect when more than this is queued.
    pub max_pending_bytes: usize,
}

impl Default for OutboxLimits {
    fn default() -> Self {
        OutboxLimits {
            stall_timeout: super::OUTPUT_STALL_TIMEOUT,
            max_pending_bytes: 256 * 1024,
        }
    }
}

/// The connection is closed; nothing more can be sent on it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Closed;

struct State {
    /// Bytes accepted from the caller that the kernel has not taken yet.
    pending: Vec<u8>,
    /// When the queue last shrank (or became non-empty).
    last_progress: Instant,
    /// Why the connection was closed, once it is.
    closed: Option<String>,
    /// Whether the flusher already watches this outbox.
    watched: bool,
}

/// The output side of one connection.
pub struct Outbox {
    /// The connection's one socket, shared with its reader thread.
    socket: Arc<TcpStream>,
    limits: OutboxLimits,
    flusher: Arc<Flusher>,
    me: Weak<Outbox>,
    state: Mutex<State>,
}

impl Outbox {
    /// Writes to `socket`, which the connection's reader reads from: one file
    /// descriptor per client.
    pub fn new(socket: Arc<TcpStream>, limits: OutboxLimits, flusher: Arc<Flusher>) -> Arc<Outbox> {
        Arc::new_cyclic(|me| Outbox {
            socket,
            limits,
            flusher,
            me: me.clone(),
            state: Mutex::new(State {
                pending: Vec::new(),
                last_progress: Instant::now(),
                closed: None,
                watched: false,
            }),
        })
    }

    /// Queues `line` and a `\n`, and sends what the kernel takes now. Never blocks.
    ///
    /// # Errors
    ///
    /// [`Closed`] when the connection is closed, or is closed by this call because its
    /// queue overflowed.
    pub fn send_line(&self, line: &str) -> Result<(), Closed> {
        // The lock is held across `send`, which cannot block (MSG_DONTWAIT); it keeps
        // lines whole and in order when a game and a reader write at the same time.
        let mut state = self.state.lock();
        if state.closed.is_some() {
            return Err(Closed);
        }
        if state.pending.is_empty() {
            state.last_progress = Instant::now();
        }
        state.pending.extend_from_slice(line.as_bytes());
        state.pending.push(b'\n');
        self.write_pending(&mut state);
        if state.closed.is_some() {
            return Err(Closed);
        }
        if state.pending.len() > self.limits.max_pending_bytes {
            self.close_locked(&mut state, "it did not read its output (queue full)");
            return Err(Closed);
        }
        if !state.pending.is_empty() && !state.watched {
            state.watched = true;
            let me: Weak<dyn Retry> = self.me.clone();
            self.flusher.watch(me);
        }
        Ok(())
    }

    /// Retries queued output; closes the connection if it has stalled too long.
    pub fn flush(&self, now: Instant) -> FlushState {
        let mut state = self.state.lock();
        if state.closed.is_none() {
            self.write_pending(&mut state);
        }
        if state.closed.is_some() || state.pending.is_empty() {
            state.watched = false;
            return FlushState::Done;
        }
        if now.duration_since(state.last_progress) >= self.limits.stall_timeout {
            let stall = self.limits.stall_timeout;
            let reason = if stall.subsec_millis() == 0 {
                format!("it did not read its output for {} s", stall.as_secs())
            } else {
                format!("it did not read its output for {} ms", stall.as_millis())
            };
            self.close_locked(&mut state, &reason);
            state.watched = false;
            return FlushState::Done;
        }
        FlushState::Pending
    }

    /// Closes the connection (both directions), remembering why. The reader thread
    /// wakes up with end of input. Closing twice keeps the first reason.
    pub fn close(&self, reason: &str) {
        let mut state = self.state.lock();
        self.close_locked(&mut state, reason);
    }

    /// Why the connection was closed by the server, if it was.
    pub fn close_reason(&self) -> Option<String> {
        self.state.lock().closed.clone()
    }

    /// Bytes queued and not yet taken by the client.
    #[cfg(test)]
    fn pending_bytes(&self) -> usize {
        self.state.lock().pending.len()
    }

    fn close_locked(&self, state: &mut State, reason: &str) {
        if state.closed.is_none() {
            state.closed = Some(reason.to_string());
            state.pending = Vec::new();
            // Already-closed sockets report an error here; there is nothing to undo.
            let _ = self.socket.shutdown(Shutdown::Both);
        }
    }

    /// Sends as much of the queue as the kernel takes without blocking.
    fn write_pending(&self, state: &mut State) {
        while !state.pending.is_empty() {
            match send_now(&self.socket, &state.pending) {
                Ok(0) => break,
                Ok(sent) => {
                    state.pending.drain(..sent);
                    state.last_progress = Instant::now();
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => break,
                Err(e) => {
                    self.close_locked(state, &format!("write failed: {e}"));
                    break;
                }
            }
        }
        if state.pending.capacity() > 4096 && state.pending.is_empty() {
            state.pending = Vec::new();
        }
    }
}

impl Retry for Outbox {
    fn retry(&self, now: Instant) -> FlushState {
        self.flush(now)
    }
}

/// One non-blocking `send`: returns what the kernel took, or `WouldBlock`.
fn send_now(socket: &TcpStream, bytes: &[u8]) -> io::Result<usize> {
    // SAFETY: `bytes` is a valid readable slice for its whole length and the file
    // descriptor belongs to `socket`, which outlives the call.
    let sent = unsafe {
        libc::send(
            socket.as_raw_fd(),
            bytes.as_ptr().cast(),
            bytes.len(),
            libc::MSG_DONTWAIT | libc::MSG_NOSIGNAL,
        )
    };
    if sent < 0 {
        Err(io::Error::last_os_error())
    } else {
        Ok(sent.unsigned_abs())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::TcpListener;

    /// A connected pair whose far end never reads.
    fn pair() -> (TcpStream, TcpStream) {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
        let near = TcpStream::connect(listener.local_addr().expect("addr")).expect("connect");
        let (far, _) = listener.accept().expect("accept");
        (near, far)
    }

    #[test]
    fn a_peer_that_never_reads_never_blocks_the_sender_and_is_cut_off() {
        let (near, _far) = pair();
        let flusher = Arc::new(Flusher::default());
        let limits = OutboxLimits {
            stall_timeout: Duration::from_millis(200),
            max_pending_bytes: usize::MAX,
        };
        let outbox = Outbox::new(Arc::new(near), limits, Arc::clone(&flusher));
        let line = "x".repeat(1000);
        let started = Instant::now();
        // Far more than any kernel buffer: the rest queues up, nothing blocks.
        for _ in 0..20_000 {
            if outbox.send_line(&line).is_err() {
                break;
            }
        }
        assert!(outbox.pending_bytes() > 0, "the kernel took 20 MB unread?");
        assert!(started.elapsed() < Duration::from_secs(10));
        // The far kernel may still take a little (window growth); then it stalls.
        let deadline = Instant::now() + Duration::from_secs(20);
        while outbox.flush(Instant::now()) == FlushState::Pending && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(50));
        }
        assert_eq!(
            outbox.close_reason().as_deref(),
            Some("it did not read its output for 200 ms")
        );
        assert_eq!(outbox.send_line("late"), Err(Closed));
    }

    #[test]
    fn an_overflowing_queue_closes_the_connection() {
        let (near, _far) = pair();
        let limits = OutboxLimits {
            stall_timeout: Duration::from_secs(60),
            max_pending_bytes: 10_000,
        };
        let outbox = Outbox::new(Arc::new(near), limits, Arc::new(Flusher::default()));
        let line = "y".repeat(1000);
        let closed = (0..100_000).any(|_| outbox.send_line(&line).is_err());
        assert!(closed);
        assert_eq!(
            outbox.close_reason().as_deref(),
            Some("it did not read its output (queue full)")
        );
    }
}
