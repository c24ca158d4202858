//! The read loop every front end's connection thread runs: pacing, read timeouts, line
//! bounds, the line in flight and the ways a connection ends are handled here once;
//! what a line means is the front end's business ([`Lines`]).
//!
//! One line of a client is in flight at a time (see `net::handoff`), but the thread
//! does not sit waiting for its answer: it goes back to reading at once, and waits for
//! the answer only when the next line is there (or the connection ends). A client that
//! sends a line and waits for its answer, as almost every client does, then costs its
//! thread no wake-up for the answer, only the one for its next line.

use super::{Awaited, CloseReason, Connection, Incoming, LineLimits, LineReader, ReadError};
use std::borrow::Cow;
use std::ops::ControlFlow;
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

/// What a front end did with a line: `Break` closes the connection for the reason
/// given; `Continue` goes on reading, with the line's answer still to come when it
/// was handed over (its [`Awaited`]), or given already (`None`).
pub type Handled = ControlFlow<String, Option<Awaited>>;

/// A front end's side of the read loop.
pub trait Lines {
    /// How long the next read may wait for a byte, or why the connection must close
    /// now (e.g. a client that never identified). Asked before every read.
    ///
    /// # Errors
    ///
    /// The reason to close; the front end has already told the client, if it wanted to.
    fn next_wait(&mut self, conn: &Arc<Connection>) -> Result<Duration, String>;

    /// Handles one line (or a line that was too long, or not UTF-8): answers it, or
    /// hands it over and returns what its answer is awaited by (see [`Handled`]). The
    /// read loop calls it only once the line before has been answered.
    fn line(&mut self, conn: &Arc<Connection>, line: Incoming) -> Handled;

    /// How a line appears in the logs and traces: as it came, unless the front end
    /// hides a secret in it (a password is never logged).
    fn logged<'a>(&self, line: &'a str) -> Cow<'a, str> {
        Cow::Borrowed(line)
    }

    /// A line that is not UTF-8 text, with its bytes: a front end that recognises a
    /// binary message in them handles it here and says what follows; the bytes read
    /// after it and not yet a line are dropped with it, while complete lines read with
    /// it are handed over as usual (a binary message may hold newline bytes: the front
    /// end tells its pieces from the lines after it). `None` (the default) hands it to
    /// [`Lines::line`] as
    /// [`Incoming::NotUtf8`].
    fn binary_line(&mut self, _conn: &Arc<Connection>, _bytes: &[u8]) -> Option<Handled> {
        None
    }

    /// The start of a line that has waited a whole read wait (see [`Lines::next_wait`])
    /// for its `\n`: a front end that recognises a message sent without a line end (a
    /// binary object) handles it here, and its bytes are dropped. `None` (the default)
    /// keeps waiting for the rest of the line.
    fn unfinished_line(&mut self, _conn: &Arc<Connection>, _bytes: &[u8]) -> Option<Handled> {
        None
    }
}

/// Reads and hands over lines until the connection ends; returns why it ended. Every
/// ending but the peer's own end of input closes the connection here, which wakes
/// whoever else holds it. The last line in flight has been answered when it returns:
/// the client's departure comes after it.
pub fn read_lines(conn: &Arc<Connection>, limits: LineLimits, lines: &mut impl Lines) -> String {
    let mut in_flight = InFlight(None);
    let why = read_until_the_end(conn, limits, lines, &mut in_flight);
    in_flight.answered(conn);
    why
}

/// The answer of the line handed over last, if it has not come yet.
struct InFlight(Option<Awaited>);

impl InFlight {
    /// Waits until the line in flight, if any, has been answered (at most
    /// `ANSWER_WAIT`; a wait that gives up has closed the connection and said why).
    fn answered(&mut self, conn: &Connection) {
        if let Some(awaited) = self.0.take() {
            let _ = awaited.wait(conn);
        }
    }

    /// Whether a line is in flight, its answer not come yet (one that has come is
    /// forgotten).
    fn pending(&mut self) -> bool {
        if self.0.as_ref().is_some_and(Awaited::is_answered) {
            self.0 = None;
        }
        self.0.is_some()
    }

    /// The line just handled: `Continue(Some)` is in flight now.
    fn handled(&mut self, handled: Handled) -> ControlFlow<String> {
        match handled {
            ControlFlow::Continue(awaited) => {
                self.0 = awaited;
                ControlFlow::Continue(())
            }
            ControlFlow::Break(reason) => ControlFlow::Break(reason),
        }
    }
}

fn read_until_the_end(
    conn: &Arc<Connection>,
    limits: LineLimits,
    lines: &mut impl Lines,
    in_flight: &mut InFlight,
) -> String {
    let stream = conn.stream();
    let mut reader = LineReader::new(stream, limits);
    // The read timeout in force, so the socket option is set only when it changes.
    let mut read_timeout = None;
    loop {
        // Closed by the server (kicked, output stalled, EXIT): lines the client sent
        // before are not read any more; its kernel may hold many of them.
        if conn.is_closed() {
            return conn
                .close_reason()
                .map(|reason| reason.to_string())
                .unwrap_or_default();
        }
        if let Some(pause) = conn.pace() {
            thread::sleep(pause);
        }
        // While a line is in flight its answer may change how long the client may
        // wait (a HANDSHAKE that seats it, a move that ends its game): the front end
        // is asked after it has come, and meanwhile the last wait holds (no wait
        // before the first line, whose answer comes before the first read).
        let wait = match read_timeout {
            Some(last) if in_flight.pending() => last,
            _ => match lines.next_wait(conn) {
                Ok(wait) => wait,
                Err(reason) => return closed(conn, reason),
            },
        };
        if read_timeout != Some(wait) {
            if let Err(e) = stream.set_read_timeout(Some(wait)) {
                return closed(conn, format!("socket error: {e}"));
            }
            read_timeout = Some(wait);
        }
        let incoming = match reader.next_line() {
            Ok(incoming) => incoming,
            Err(ReadError::TimedOut) => {
                if reader.unfinished().is_empty() {
                    continue;
                }
                in_flight.answered(conn);
                match lines
                    .unfinished_line(conn, reader.unfinished())
                    .map(|h| in_flight.handled(h))
                {
                    None => continue,
                    Some(ControlFlow::Continue(())) => {
                        reader.drop_unfinished();
                        continue;
                    }
                    Some(ControlFlow::Break(reason)) => return closed(conn, reason),
                }
            }
            Err(ReadError::Closed) => return "connection closed".into(),
            Err(ReadError::Flood { limit }) => {
                let reason = format!("it sent more than {limit} bytes without a newline");
                return closed(conn, reason);
            }
            Err(ReadError::Io(e)) => return closed(conn, format!("socket error: {e}")),
        };
        // The next line is here: the last one's answer comes first.
        in_flight.answered(conn);
        match &incoming {
            Incoming::Line(text) => conn.received(&lines.logged(text)),
            Incoming::TooLong => conn.received("<line too long>"),
            Incoming::NotUtf8 => conn.received("<not UTF-8>"),
        }
        let handled = match incoming {
            Incoming::NotUtf8 => match lines.binary_line(conn, reader.not_text()) {
                Some(handled) => {
                    reader.drop_unfinished();
                    handled
                }
                None => lines.line(conn, Incoming::NotUtf8),
            },
            incoming => lines.line(conn, incoming),
        };
        if let ControlFlow::Break(reason) = in_flight.handled(handled) {
            return closed(conn, reason);
        }
    }
}

/// Closes the connection for `reason` and returns it.
fn closed(conn: &Connection, reason: String) -> String {
    conn.close(CloseReason::Because(reason.clone()));
    reason
}

/// The longest a read waits while the client has nothing it must do soon: the thread
/// still wakes this often to look at its client's state.
pub const IDLE_READ_BOUND: Duration = Duration::from_secs(60);

/// How long the next read may wait for a client that must identify itself (GO!'s
/// HANDSHAKE, Spectrangle's JOIN, ...) within `timeout` of `free_since`: the moment it
/// connected or left its last game; `None` while it sits in a game, which wakes the
/// read at least once per `timeout` so the clock starts when that game ends.
///
/// # Errors
///
/// The timeout in whole seconds, once it has run out.
pub fn identify_wait(
    free_since: Option<Instant>,
    timeout: Option<Duration>,
) -> Result<Duration, u64> {
    let Some(timeout) = timeout else {
        return Ok(IDLE_READ_BOUND);
    };
    let Some(since) = free_since else {
        return Ok(timeout.min(IDLE_READ_BOUND));
    };
    let left = since
        .checked_add(timeout)
        .map_or(IDLE_READ_BOUND, |deadline| {
            deadline.saturating_duration_since(Instant::now())
        });
    if left.is_zero() {
        return Err(timeout.as_secs());
    }
    Ok(left.min(IDLE_READ_BOUND))
}
