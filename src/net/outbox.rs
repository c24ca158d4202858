//! Output to one client that never blocks the caller.
//!
//! A game loop must not wait for a client that stopped reading, so every write is a
//! non-blocking `send` (`MSG_DONTWAIT`). What the kernel does not take at once waits in
//! a bounded queue that the [`super::flusher::Flusher`] retries. A client that
//! leaves a line untaken for [`OutboxLimits::stall_timeout`], or lets more than
//! [`OutboxLimits::max_pending_bytes`] pile up, is disconnected: its socket is shut
//! down, which wakes its reader thread, which reports the disconnect like any other.
//!
//! The clock runs per line, not per byte: a client that stopped reading still lets a
//! trickle through now and then (its kernel compacts its full receive queue), and a
//! trickle must not keep it alive while its answers pile up.

use super::CloseReason;
use super::flusher::{FlushState, Flusher, Retry};
use parking_lot::{Mutex, MutexGuard};
use std::collections::VecDeque;
use std::io;
use std::net::{Shutdown, TcpStream};
use std::os::fd::AsRawFd;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Weak};
use std::time::{Duration, Instant};

/// Bounds on output a client has not taken yet.
#[derive(Clone, Copy, Debug)]
pub struct OutboxLimits {
    /// Disconnect when queued output makes no progress for this long.
    pub stall_timeout: Duration,
    /// Disconnect when more than this is queued.
    pub max_pending_bytes: usize,
    /// The kernel send buffer asked for each socket (the kernel doubles it): small, so
    /// that a client that stops reading fills it, and then its queue, within seconds.
    pub send_buffer_bytes: usize,
}

impl Default for OutboxLimits {
    fn default() -> Self {
        OutboxLimits {
            stall_timeout: super::OUTPUT_STALL_TIMEOUT,
            // A burst of answers to a client that reads them is never cut off: 2,000
            // board lines of 19x19 are 800 KB.
            max_pending_bytes: 1024 * 1024,
            send_buffer_bytes: 8 * 1024,
        }
    }
}

/// The connection is closed; nothing more can be sent on it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Closed;

struct State {
    /// Bytes accepted from the caller that the kernel has not taken yet (a ring, so
    /// that taking a few kilobytes off the front of a long queue costs only those).
    pending: VecDeque<u8>,
    /// Bytes the kernel has taken since the connection opened.
    taken: u64,
    /// Each line not wholly taken yet, oldest first: where it ends (counted like
    /// `taken`) and when it was queued.
    waiting: VecDeque<(u64, Instant)>,
    /// Why the connection was closed, once it is.
    closed: Option<CloseReason>,
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
    /// Set once the connection is closed, readable without the lock (the reader
    /// thread asks before every line).
    closed: AtomicBool,
    /// How many bytes wait in `pending`, readable without the lock (a broadcasting
    /// loop asks whether its readers keep up).
    queued: AtomicUsize,
    /// When the kernel last took bytes of `pending`, in microseconds since `opened`,
    /// readable without the lock.
    progressed: AtomicU64,
    opened: Instant,
}

impl Outbox {
    /// Writes to `socket`, which the connection's reader reads from: one file
    /// descriptor per client.
    ///
    /// # Errors
    ///
    /// When the socket's send buffer cannot be bounded (the peer is already gone).
    pub fn new(
        socket: Arc<TcpStream>,
        limits: OutboxLimits,
        flusher: Arc<Flusher>,
    ) -> io::Result<Arc<Outbox>> {
        bound_buffer(&socket, libc::SO_SNDBUF, limits.send_buffer_bytes)?;
        Ok(Arc::new_cyclic(|me| Outbox {
            socket,
            limits,
            flusher,
            me: me.clone(),
            state: Mutex::new(State {
                pending: VecDeque::new(),
                taken: 0,
                waiting: VecDeque::new(),
                closed: None,
                watched: false,
            }),
            closed: AtomicBool::new(false),
            queued: AtomicUsize::new(0),
            progressed: AtomicU64::new(0),
            opened: Instant::now(),
        }))
    }

    /// Queues `line` and a `\n`, and sends what the kernel takes now. Never blocks.
    ///
    /// # Errors
    ///
    /// [`Closed`] when the connection is closed, or is closed by this call because its
    /// queue overflowed.
    pub fn send_line(&self, line: &str) -> Result<(), Closed> {
        self.hold().send_line(line)
    }

    /// Queues `bytes` as they are (no line end added), and sends what the kernel takes
    /// now; for output that is not lines (an HTTP response). Never blocks.
    ///
    /// # Errors
    ///
    /// As [`Outbox::send_line`].
    pub fn send_bytes(&self, bytes: &[u8]) -> Result<(), Closed> {
        self.hold().queue(bytes, None)
    }

    /// Holds this outbox for the caller until the hold is dropped: lines sent through
    /// the hold go out before any line another thread sends meanwhile (that thread
    /// waits). Never held across a blocking call: the hold's sends do not block.
    pub(crate) fn hold(&self) -> OutboxHold<'_> {
        OutboxHold {
            outbox: self,
            state: self.state.lock(),
        }
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
        let oldest = state.waiting.front().map_or(now, |&(_, queued)| queued);
        if now.duration_since(oldest) >= self.limits.stall_timeout {
            let reason = CloseReason::OutputStalled(self.limits.stall_timeout);
            self.close_locked(&mut state, reason);
            state.watched = false;
            return FlushState::Done;
        }
        FlushState::Pending
    }

    /// Closes the connection (both directions), remembering why. The reader thread
    /// wakes up with end of input. Closing twice keeps the first reason.
    pub fn close(&self, reason: CloseReason) {
        let mut state = self.state.lock();
        self.close_locked(&mut state, reason);
    }

    /// Why the connection was closed by the server, if it was.
    pub fn close_reason(&self) -> Option<CloseReason> {
        self.state.lock().closed.clone()
    }

    /// Whether the connection is closed (cheap: no lock).
    pub fn is_closed(&self) -> bool {
        self.closed.load(Ordering::Acquire)
    }

    /// Bytes queued and not yet taken by the client's kernel (cheap: no lock).
    pub fn queued_bytes(&self) -> usize {
        self.queued.load(Ordering::Relaxed)
    }

    /// How long since the kernel last took queued bytes (cheap: no lock); since the
    /// outbox opened if it never did.
    pub fn since_progress(&self) -> Duration {
        let progressed = Duration::from_micros(self.progressed.load(Ordering::Relaxed));
        self.opened.elapsed().saturating_sub(progressed)
    }

    /// Bytes queued, read under the lock (for tests).
    #[cfg(test)]
    fn pending_bytes(&self) -> usize {
        self.state.lock().pending.len()
    }

    fn close_locked(&self, state: &mut State, reason: CloseReason) {
        if state.closed.is_none() {
            state.closed = Some(reason);
            self.closed.store(true, Ordering::Release);
            state.pending = VecDeque::new();
            state.waiting = VecDeque::new();
            self.queued.store(0, Ordering::Relaxed);
            // Already-closed sockets report an error here; there is nothing to undo.
            let _ = self.socket.shutdown(Shutdown::Both);
        }
    }

    /// Sends as much of the queue as the kernel takes without blocking.
    fn write_pending(&self, state: &mut State) {
        while !state.pending.is_empty() {
            let (front, _) = state.pending.as_slices();
            match send_now(&self.socket, front) {
                Ok(0) => break,
                Ok(sent) => {
                    state.pending.drain(..sent);
                    let now = u64::try_from(self.opened.elapsed().as_micros()).unwrap_or(u64::MAX);
                    self.progressed.store(now, Ordering::Relaxed);
                    state.taken += sent as u64;
                    while state
                        .waiting
                        .front()
                        .is_some_and(|&(end, _)| end <= state.taken)
                    {
                        state.waiting.pop_front();
                    }
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => break,
                Err(e) => {
                    self.close_locked(state, CloseReason::WriteFailed(e.to_string()));
                    break;
                }
            }
        }
        if state.pending.capacity() > 4096 && state.pending.is_empty() {
            state.pending = VecDeque::new();
        }
        self.queued.store(state.pending.len(), Ordering::Relaxed);
    }
}

/// An outbox held by one caller (see `Outbox::hold`).
pub struct OutboxHold<'a> {
    outbox: &'a Outbox,
    state: MutexGuard<'a, State>,
}

impl OutboxHold<'_> {
    /// [`Outbox::send_line`], for the holder.
    ///
    /// # Errors
    ///
    /// As [`Outbox::send_line`].
    pub fn send_line(&mut self, line: &str) -> Result<(), Closed> {
        self.queue(line.as_bytes(), Some(b'\n'))
    }

    /// Queues `bytes` and `end` (a line's `\n`), and sends what the kernel takes now.
    fn queue(&mut self, bytes: &[u8], end: Option<u8>) -> Result<(), Closed> {
        let outbox = self.outbox;
        // The lock is held across `send`, which cannot block (MSG_DONTWAIT); it keeps
        // lines whole and in order when a game and a reader write at the same time.
        let state = &mut *self.state;
        if state.closed.is_some() {
            return Err(Closed);
        }
        state.pending.extend(bytes);
        state.pending.extend(end);
        let end = state.taken + state.pending.len() as u64;
        outbox.write_pending(state);
        if state.closed.is_some() {
            return Err(Closed);
        }
        if end > state.taken {
            state.waiting.push_back((end, Instant::now()));
        }
        if state.pending.len() > outbox.limits.max_pending_bytes {
            outbox.close_locked(state, CloseReason::OutputQueueFull);
            return Err(Closed);
        }
        if !state.pending.is_empty() && !state.watched {
            state.watched = true;
            let me: Weak<dyn Retry> = outbox.me.clone();
            outbox.flusher.watch(me);
        }
        Ok(())
    }
}

impl Retry for Outbox {
    fn retry(&self, now: Instant) -> FlushState {
        self.flush(now)
    }
}

/// Bounds one of the kernel's buffers of `stream`, `option` being `SO_SNDBUF` or
/// `SO_RCVBUF` (Linux doubles the value asked for).
///
/// The send buffer: the kernel would otherwise grow it to megabytes, and a client that
/// stops reading would then swallow minutes of small, paced answers before anything
/// waits in its outbox, so the outbox's stall timeout would never see it; bounded, the
/// buffer fills within seconds of the client's receive window filling, and the client
/// is dropped.
///
/// The receive buffer is left to the kernel's autotuning (bounded by its `tcp_rmem`):
/// locked small, on loopback with its 64 KiB segments, the segments of a flooding
/// client that carried its acknowledgements of the server's output were dropped, and
/// that output stalled in retransmission back-off for seconds (measured with
/// `loadgen flood`).
pub(super) fn bound_buffer(
    stream: &TcpStream,
    option: libc::c_int,
    bytes: usize,
) -> io::Result<()> {
    let size = libc::c_int::try_from(bytes).unwrap_or(libc::c_int::MAX);
    // SAFETY: the descriptor belongs to `stream`, which outlives the call; the option
    // value is a valid `c_int` whose size is passed alongside.
    let status = unsafe {
        libc::setsockopt(
            stream.as_raw_fd(),
            libc::SOL_SOCKET,
            option,
            std::ptr::from_ref(&size).cast(),
            std::mem::size_of::<libc::c_int>() as libc::socklen_t,
        )
    };
    if status == 0 {
        Ok(())
    } else {
        Err(io::Error::last_os_error())
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
            send_buffer_bytes: 8 * 1024,
        };
        let outbox = Outbox::new(Arc::new(near), limits, Arc::clone(&flusher)).expect("outbox");
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
            outbox.close_reason(),
            Some(CloseReason::OutputStalled(Duration::from_millis(200)))
        );
        assert_eq!(outbox.send_line("late"), Err(Closed));
    }

    #[test]
    fn a_trickle_does_not_keep_a_peer_that_falls_behind_alive() {
        let (near, far) = pair();
        // A fixed receive buffer (no autotuning): the peer's window cannot grow to
        // megabytes while it reads.
        let size: libc::c_int = 4096;
        // SAFETY: a valid socket descriptor and a c_int option value of the size given.
        let status = unsafe {
            libc::setsockopt(
                far.as_raw_fd(),
                libc::SOL_SOCKET,
                libc::SO_RCVBUF,
                std::ptr::from_ref(&size).cast(),
                std::mem::size_of::<libc::c_int>() as libc::socklen_t,
            )
        };
        assert_eq!(status, 0);
        // The peer takes 64 bytes every 20 ms: progress, but far slower than the output.
        let done = Arc::new(AtomicBool::new(false));
        let trickle = {
            let done = Arc::clone(&done);
            std::thread::spawn(move || {
                use std::io::Read;
                let mut far = far;
                let mut chunk = [0u8; 64];
                while !done.load(Ordering::Relaxed) && far.read(&mut chunk).is_ok_and(|n| n > 0) {
                    std::thread::sleep(Duration::from_millis(20));
                }
            })
        };
        let limits = OutboxLimits {
            stall_timeout: Duration::from_millis(300),
            max_pending_bytes: usize::MAX,
            send_buffer_bytes: 8 * 1024,
        };
        let outbox =
            Outbox::new(Arc::new(near), limits, Arc::new(Flusher::default())).expect("outbox");
        let line = "z".repeat(100);
        let deadline = Instant::now() + Duration::from_secs(20);
        while outbox.send_line(&line).is_ok() && Instant::now() < deadline {
            outbox.flush(Instant::now());
            std::thread::sleep(Duration::from_millis(1));
        }
        assert_eq!(
            outbox.close_reason(),
            Some(CloseReason::OutputStalled(Duration::from_millis(300)))
        );
        done.store(true, Ordering::Relaxed);
        trickle.join().expect("the trickle ends");
    }

    #[test]
    fn an_overflowing_queue_closes_the_connection() {
        let (near, _far) = pair();
        let limits = OutboxLimits {
            stall_timeout: Duration::from_secs(60),
            max_pending_bytes: 10_000,
            send_buffer_bytes: 8 * 1024,
        };
        let outbox =
            Outbox::new(Arc::new(near), limits, Arc::new(Flusher::default())).expect("outbox");
        let line = "y".repeat(1000);
        let closed = (0..100_000).any(|_| outbox.send_line(&line).is_err());
        assert!(closed);
        assert_eq!(outbox.close_reason(), Some(CloseReason::OutputQueueFull));
    }

    #[test]
    fn a_drain_sends_the_queue_to_a_peer_that_reads_late() {
        let (near, far) = pair();
        let flusher = Arc::new(Flusher::default());
        let limits = OutboxLimits {
            stall_timeout: Duration::from_secs(60),
            max_pending_bytes: usize::MAX,
            send_buffer_bytes: 8 * 1024,
        };
        let outbox = Outbox::new(Arc::new(near), limits, Arc::clone(&flusher)).expect("outbox");
        let line = "w".repeat(999);
        let mut sent = 0;
        while outbox.pending_bytes() == 0 && sent < 100_000 {
            outbox.send_line(&line).expect("queued");
            sent += 1;
        }
        assert!(outbox.pending_bytes() > 0, "nothing queued");
        // The peer starts reading only once the drain has begun.
        let reader = std::thread::spawn(move || {
            use std::io::Read;
            std::thread::sleep(Duration::from_millis(200));
            let mut far = far;
            let mut got = vec![0u8; sent * 1000];
            far.read_exact(&mut got).map(|()| got)
        });
        flusher.drain(Instant::now() + Duration::from_secs(60));
        assert_eq!(outbox.pending_bytes(), 0);
        let got = reader.join().expect("reader").expect("every byte arrives");
        assert!(
            got.chunks(1000)
                .all(|l| l[..999] == *line.as_bytes() && l[999] == b'\n')
        );
    }
}
