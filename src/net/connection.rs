//! The shared handle on one client: what its reader thread, its game and the console
//! all hold. Sending through it is non-blocking; closing it wakes the reader. What a
//! front end keeps per client beyond lines (a report card) it attaches to it
//! ([`Attachments`]), unseen by this layer.

use super::CloseReason;
use super::attachments::Attachments;
use super::outbox::{Closed, Outbox, OutboxHold, OutboxLimits};
use super::{flusher::Flusher, pacer::Pacer};
use parking_lot::Mutex;
use std::fmt;
use std::io;
use std::net::{SocketAddr, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// Output waiting in a client's outbox beyond which it is behind (see
/// [`Connection::is_behind`]): a few hundred lines, on top of what its kernel buffers
/// hold. A loop that broadcasts holds back the sender of the next line while a reader
/// is this far behind (see `net::handoff::Brake`).
pub const BEHIND_BYTES: usize = 16 * 1024;

/// How long a client behind on its output may take nothing before others stop waiting
/// for it: a reader that is slow is waited for, one that has stopped is not (it is
/// dropped by the outbox's stall rule, [`super::OUTPUT_STALL_TIMEOUT`]).
pub const STALLED_AFTER: Duration = Duration::from_secs(1);

/// The log target of traced protocol lines (the console's `trace` command).
pub const TRACE_TARGET: &str = "trace";

/// A connection's number, unique for the life of the server.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ConnId(pub u64);

impl fmt::Display for ConnId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{}", self.0)
    }
}

/// A line the server sends: anything with a one-line `Display`, that knows whether it
/// rejects what the client sent (rejections count towards pacing).
pub trait Message: fmt::Display {
    /// True when this line answers a client line with "no".
    fn is_rejection(&self) -> bool;
}

/// A connection's output held by one caller (see `Connection::hold_output`).
pub struct OutputHold<'a> {
    conn: &'a Connection,
    /// `None` only while the hold is being dropped.
    outbox: Option<OutboxHold<'a>>,
    /// The lines sent, logged once the hold is released (logging takes the logger's lock).
    sent: Vec<String>,
}

impl OutputHold<'_> {
    /// [`Connection::send`], for the holder.
    ///
    /// # Errors
    ///
    /// [`Closed`] when the connection is closed.
    pub fn send(&mut self, message: &impl Message) -> Result<(), Closed> {
        let line = message.to_string();
        self.conn.count_sent(message.is_rejection());
        let result = match self.outbox.as_mut() {
            Some(outbox) => outbox.send_line(&line),
            None => Err(Closed),
        };
        self.sent.push(line);
        result
    }
}

impl Drop for OutputHold<'_> {
    fn drop(&mut self) {
        drop(self.outbox.take());
        for line in &self.sent {
            self.conn.log_line("->", line);
        }
    }
}

/// One connected client.
pub struct Connection {
    /// Unique id, for maps and logs.
    pub id: ConnId,
    /// The client's address.
    pub peer: SocketAddr,
    /// When the connection was accepted.
    pub connected_at: Instant,
    /// The socket; read only by the connection's own thread.
    stream: Arc<TcpStream>,
    outbox: Arc<Outbox>,
    pacer: Pacer,
    lines_in: AtomicU64,
    lines_out: AtomicU64,
    traced: AtomicBool,
    /// How logs name this client: its peer address, and its name once known.
    label: Mutex<String>,
    /// What front ends attach to this client (its report card: `frontend::card`).
    /// A lock of its own, taken for one lookup: never shared with other clients.
    attachments: Mutex<Attachments>,
}

impl Connection {
    /// Wraps an accepted stream: the reader thread reads from it through
    /// [`Connection::stream`], the outbox writes to it.
    ///
    /// # Errors
    ///
    /// When the socket option cannot be set (the peer is already gone).
    pub fn new(
        id: ConnId,
        stream: TcpStream,
        peer: SocketAddr,
        limits: OutboxLimits,
        flusher: Arc<Flusher>,
    ) -> io::Result<Arc<Connection>> {
        // Lines are small and latency matters: without this, Nagle's algorithm holds a
        // reply back until the client's delayed ACK (about 40 ms) arrives.
        stream.set_nodelay(true)?;
        let stream = Arc::new(stream);
        let outbox = Outbox::new(Arc::clone(&stream), limits, flusher)?;
        Ok(Arc::new(Connection {
            id,
            stream,
            peer,
            connected_at: Instant::now(),
            outbox,
            pacer: Pacer::default(),
            lines_in: AtomicU64::new(0),
            lines_out: AtomicU64::new(0),
            traced: AtomicBool::new(false),
            label: Mutex::new(format!("{id} {peer}")),
            attachments: Mutex::new(Attachments::default()),
        }))
    }

    /// The socket, for the connection's reader thread (reads and read timeouts).
    pub fn stream(&self) -> &TcpStream {
        &self.stream
    }

    /// Whether the client has closed its end (or reset it), seen without waiting and
    /// without reading: for a connection nobody reads any more, such as a web event
    /// stream, which would otherwise learn it only from its next write. Bytes the
    /// client sent meanwhile are left where they are.
    pub fn peer_has_left(&self) -> bool {
        let mut byte = [0u8; 1];
        // SAFETY: `byte` is a valid writable buffer of its length and the file
        // descriptor belongs to `self.stream`, which outlives the call.
        let got = unsafe {
            libc::recv(
                std::os::fd::AsRawFd::as_raw_fd(&self.stream),
                byte.as_mut_ptr().cast(),
                byte.len(),
                libc::MSG_PEEK | libc::MSG_DONTWAIT,
            )
        };
        match got {
            0 => true,
            n if n > 0 => false,
            _ => !matches!(
                io::Error::last_os_error().kind(),
                io::ErrorKind::WouldBlock | io::ErrorKind::Interrupted
            ),
        }
    }

    /// Sends one message. Never blocks; a closed connection drops it (its reader
    /// reports the disconnect), so callers need not handle the error.
    pub fn send(&self, message: &impl Message) -> Result<(), Closed> {
        self.send_line(&message.to_string(), message.is_rejection())
    }

    /// Sends a message already formatted (one formatting for several receivers).
    /// `rejection` says whether it refuses a line of this client.
    pub fn send_line(&self, line: &str, rejection: bool) -> Result<(), Closed> {
        self.count_sent(rejection);
        let result = self.outbox.send_line(line);
        // Logged after the send, outside the outbox's lock (logging takes the logger's lock).
        self.log_line("->", line);
        result
    }

    /// Sends bytes that are not a line (an HTTP response), as they are. Never blocks;
    /// not logged line by line.
    ///
    /// # Errors
    ///
    /// [`Closed`] when the connection is closed.
    pub fn send_bytes(&self, bytes: &[u8]) -> Result<(), Closed> {
        self.lines_out.fetch_add(1, Ordering::Relaxed);
        self.outbox.send_bytes(bytes)
    }

    /// Holds this client's output until the hold is dropped: what is sent through it
    /// goes out before any line another thread sends meanwhile (that thread waits).
    /// For a caller that decides what to send under a lock of its own but sends after
    /// releasing it (no lock is held across socket I/O) and must not be overtaken: the
    /// GO! lobby answering a HANDSHAKE before the game it seats the client in says
    /// anything.
    ///
    /// The hold is this connection's output lock: take it after that other lock,
    /// never before (or a game sending to the client while waiting for that lock would
    /// deadlock), and while holding it call nothing else on this connection that
    /// sends or closes (the lock is not re-entrant: the thread would wait for itself).
    pub(crate) fn hold_output(&self) -> OutputHold<'_> {
        OutputHold {
            conn: self,
            outbox: Some(self.outbox.hold()),
            sent: Vec::new(),
        }
    }

    /// Records a line received from the client (counters and logs).
    pub fn received(&self, line: &str) {
        self.lines_in.fetch_add(1, Ordering::Relaxed);
        self.log_line("<-", line);
    }

    /// Records that a line of this client was accepted (ends pacing).
    pub fn accepted(&self) {
        self.pacer.accepted();
    }

    /// Records that the line whose hash is `line` was refused; returns how many times
    /// in a row the same line has been refused now (1 the first time; see
    /// [`Pacer::refused_line`] for `None`).
    pub fn refused_line(&self, line: Option<u64>) -> u64 {
        self.pacer.refused_line(line)
    }

    /// Runs `f` on what front ends attached to this client (see [`Attachments`]), under
    /// the attachments' lock, and returns its result. `f` is for a lookup or a change:
    /// it must not wait, and must not reach this connection's attachments again (the
    /// lock is not re-entrant: the thread would wait for itself).
    pub fn with_attachments<R>(&self, f: impl FnOnce(&mut Attachments) -> R) -> R {
        f(&mut self.attachments.lock())
    }

    /// How long to wait before reading this client's next line, if it is being paced.
    pub fn pace(&self) -> Option<Duration> {
        self.pacer.delay()
    }

    /// Closes the connection, remembering why; its reader thread wakes up.
    pub fn close(&self, reason: CloseReason) {
        self.outbox.close(reason);
    }

    /// Why the server closed this connection, if it did.
    pub fn close_reason(&self) -> Option<CloseReason> {
        self.outbox.close_reason()
    }

    /// Whether the server has closed this connection.
    pub fn is_closed(&self) -> bool {
        self.outbox.is_closed()
    }

    /// Whether the client is behind on its output but still reading: more than
    /// [`BEHIND_BYTES`] wait in its outbox (its kernel buffers are full), and it took
    /// some of them within [`STALLED_AFTER`]. One that took nothing for longer has
    /// stalled: nobody waits for it, and the outbox's stall rule drops it. Cheap: no
    /// lock.
    pub fn is_behind(&self) -> bool {
        self.outbox.queued_bytes() > BEHIND_BYTES && self.outbox.since_progress() < STALLED_AFTER
    }

    /// Whether output waits in its outbox (the kernel has not taken it all yet).
    pub fn has_queued_output(&self) -> bool {
        self.outbox.queued_bytes() > 0
    }

    /// Sends what of its queued output the kernel takes now, without waiting (the
    /// flusher does it every 50 ms; a loop waiting for this client to catch up does it
    /// sooner). Whether it is still behind.
    pub fn catch_up(&self) -> bool {
        if self.is_behind() {
            self.outbox.flush(std::time::Instant::now());
        }
        self.is_behind()
    }

    /// Sets how logs name this client (after its handshake).
    pub fn set_name(&self, name: &str) {
        *self.label.lock() = format!("{} {name}@{}", self.id, self.peer);
    }

    /// How logs name this client.
    pub fn label(&self) -> String {
        self.label.lock().clone()
    }

    /// Turns live tracing of this client's lines on or off.
    pub fn set_traced(&self, on: bool) {
        self.traced.store(on, Ordering::Relaxed);
    }

    /// Whether this client's lines are traced.
    pub fn is_traced(&self) -> bool {
        self.traced.load(Ordering::Relaxed)
    }

    /// Lines received and sent so far.
    pub fn line_counts(&self) -> (u64, u64) {
        (
            self.lines_in.load(Ordering::Relaxed),
            self.lines_out.load(Ordering::Relaxed),
        )
    }

    /// Counts a line sent (a rejection also counts towards pacing).
    fn count_sent(&self, rejection: bool) {
        self.lines_out.fetch_add(1, Ordering::Relaxed);
        if rejection {
            self.pacer.rejected();
        }
    }

    fn log_line(&self, direction: &str, line: &str) {
        if self.is_traced() {
            log::info!(target: TRACE_TARGET, "{} {direction} {line}", self.label());
        }
        log::debug!("{} {direction} {line}", self.label());
    }
}
