//! One connection of a case to the server under test: lines out, lines in, each one in
//! the case's wire log. Every wait is bounded: a connect, a write and a wait for a line
//! by the answer timeout (one deadline for the whole line, so a server that trickles
//! bytes cannot stretch it), a line by [`MAX_LINE_BYTES`], so that a server sending
//! megabytes without a newline is one event, not a memory leak.

use super::log::{Direction, WireLog};
use super::step::{Failure, Step};
use crate::net::{DeadlineReader, Incoming, LineLimits, LineReader, ReadError};
use std::io::Write;
use std::net::{Shutdown, SocketAddr, TcpStream};
use std::time::{Duration, Instant};

/// The longest line read from a server; a longer one is reported once and skipped.
pub const MAX_LINE_BYTES: usize = 64 * 1024;

/// What a wait for the next line found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Heard {
    /// A line, without its `\n` (and a `\r` before it: [`Wire::line_ends`] counts
    /// those).
    Line(String),
    /// The other end (the server; the client in the exam of a client) closed the
    /// connection (or reset it).
    Closed,
    /// Nothing within the wait.
    Silent(Duration),
    /// A line longer than [`MAX_LINE_BYTES`] (skipped).
    TooLong,
    /// A line that is not UTF-8 text.
    NotText,
}

impl Heard {
    /// How a report says what came, e.g. `nothing within 5 s`.
    pub fn describe(&self) -> String {
        match self {
            Heard::Line(line) => super::log::shown(line),
            Heard::Closed => "the server closed the connection".to_string(),
            Heard::Silent(wait) => format!("nothing within {}", seconds(*wait)),
            Heard::TooLong => format!("a line longer than {} KiB", MAX_LINE_BYTES / 1024),
            Heard::NotText => "a line that is not UTF-8 text".to_string(),
        }
    }
}

/// `1.5 s`, `5 s`, `300 ms`: a wait as reports show it.
pub fn seconds(wait: Duration) -> String {
    if wait < Duration::from_secs(1) {
        format!("{} ms", wait.as_millis())
    } else if wait.subsec_millis() == 0 {
        format!("{} s", wait.as_secs())
    } else {
        format!("{:.1} s", wait.as_secs_f64())
    }
}

/// How the lines a wire has heard ended: the server's line ends, which [`Heard::Line`]
/// does not show (a `\r` before the `\n` is taken off).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LineEnds {
    /// Lines that ended in `\n` alone.
    pub lf: usize,
    /// Lines that ended in `\r\n`.
    pub crlf: usize,
}

/// Two wires' counts, added.
impl std::ops::Add for LineEnds {
    type Output = LineEnds;

    fn add(self, other: LineEnds) -> LineEnds {
        LineEnds {
            lf: self.lf + other.lf,
            crlf: self.crlf + other.crlf,
        }
    }
}

impl LineEnds {
    /// How a report says them: `LF`, `CR LF`, `mixed: 3 of 12 lines end in CR LF`, or
    /// `no lines` when none came.
    pub fn describe(self) -> String {
        match (self.lf, self.crlf) {
            (0, 0) => "no lines".to_string(),
            (_, 0) => "LF".to_string(),
            (0, _) => "CR LF".to_string(),
            (lf, crlf) => format!("mixed: {crlf} of {} lines end in CR LF", lf + crlf),
        }
    }
}

/// One client connection of a case.
pub struct Wire {
    who: String,
    /// Who is at the other end, for reports: `server`, or `client` in the exam of a
    /// client (the checker's end of a connection the client made).
    peer: &'static str,
    writer: TcpStream,
    reader: LineReader<DeadlineReader>,
    log: WireLog,
    answer: Duration,
    closed: bool,
    line_ends: LineEnds,
}

impl Wire {
    /// Connects to `addr` as client `who` of the case logged in `log`; waits for
    /// answers at most `answer`.
    ///
    /// # Errors
    ///
    /// The connection cannot be made within `answer`.
    pub fn connect(addr: SocketAddr, who: &str, log: &WireLog, answer: Duration) -> Step<Wire> {
        let stream = TcpStream::connect_timeout(&addr, answer).map_err(|e| {
            log.record(who, Direction::Note, &format!("cannot connect: {e}"));
            Failure::new(format!("a connection to {addr}"), format!("{e}"))
        })?;
        Wire::over(stream, who, log, answer, "connected", "server")
    }

    /// The checker's end of a connection a client under test made to it (`who` is the
    /// checker's side: `S`, the server it plays).
    ///
    /// # Errors
    ///
    /// The socket cannot be set up.
    pub fn accepted(stream: TcpStream, who: &str, log: &WireLog, answer: Duration) -> Step<Wire> {
        Wire::over(stream, who, log, answer, "the client connected", "client")
    }

    fn over(
        stream: TcpStream,
        who: &str,
        log: &WireLog,
        answer: Duration,
        note: &str,
        peer: &'static str,
    ) -> Step<Wire> {
        let setup = |stream: &TcpStream| -> std::io::Result<TcpStream> {
            stream.set_nodelay(true)?;
            stream.set_write_timeout(Some(answer))?;
            stream.try_clone()
        };
        let reading =
            setup(&stream).map_err(|e| Failure::new("a usable connection", e.to_string()))?;
        log.record(who, Direction::Note, note);
        Ok(Wire {
            who: who.to_string(),
            peer,
            writer: stream,
            reader: LineReader::new(
                DeadlineReader::new(reading),
                LineLimits {
                    max_line_bytes: MAX_LINE_BYTES,
                    overlong: crate::net::Overlong::ReportAtOnce,
                },
            ),
            log: log.clone(),
            answer,
            closed: false,
            line_ends: LineEnds::default(),
        })
    }

    /// The client's label in the log: `A`, `B`, ...
    pub fn who(&self) -> &str {
        &self.who
    }

    /// How the lines heard so far ended.
    pub fn line_ends(&self) -> LineEnds {
        self.line_ends
    }

    /// The answer timeout this wire waits for a line.
    pub fn answer_timeout(&self) -> Duration {
        self.answer
    }

    /// A handle on the socket, to shut it down from another thread.
    ///
    /// # Errors
    ///
    /// The socket cannot be cloned.
    pub fn handle(&self) -> std::io::Result<TcpStream> {
        self.writer.try_clone()
    }

    /// Sends `line` and its `\n`.
    ///
    /// # Errors
    ///
    /// The write failed or did not finish within the answer timeout.
    pub fn send(&mut self, line: &str) -> Step<()> {
        self.log.record(&self.who, Direction::Sent, line);
        let mut bytes = Vec::with_capacity(line.len() + 1);
        bytes.extend_from_slice(line.as_bytes());
        bytes.push(b'\n');
        self.write(&bytes, line)
    }

    /// Sends raw `bytes` (a line of garbage, a megabyte line...), logged as `what`.
    ///
    /// # Errors
    ///
    /// The write failed or did not finish within the answer timeout.
    pub fn send_bytes(&mut self, bytes: &[u8], what: &str) -> Step<()> {
        self.log
            .record(&self.who, Direction::Sent, &format!("[{what}]"));
        self.write(bytes, what)
    }

    /// Sends `bytes` without logging them (a flood logs a summary instead).
    ///
    /// # Errors
    ///
    /// The write failed or did not finish within the answer timeout.
    pub fn send_unlogged(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        self.writer.write_all(bytes)
    }

    fn write(&mut self, bytes: &[u8], what: &str) -> Step<()> {
        self.writer.write_all(bytes).map_err(|e| {
            let got = if matches!(
                e.kind(),
                std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
            ) {
                format!(
                    "the {} took nothing for {}: the write did not finish",
                    self.peer,
                    seconds(self.answer)
                )
            } else {
                format!("the write failed: {e}")
            };
            self.log.record(&self.who, Direction::Note, &got);
            Failure::new(format!("to send {}", super::log::shown(what)), got)
        })
    }

    /// Waits at most `wait` for the next line, and logs what came.
    pub fn hear(&mut self, wait: Duration) -> Heard {
        let heard = self.hear_unlogged(wait);
        match &heard {
            Heard::Line(line) => self.log.record(&self.who, Direction::Received, line),
            Heard::Silent(_) => {}
            other => self
                .log
                .record(&self.who, Direction::Note, &self.describe(other)),
        }
        heard
    }

    /// How a report says what a wait on this wire found: [`Heard::describe`], with the
    /// peer named (`the client closed the connection` in the exam of a client).
    pub fn describe(&self, heard: &Heard) -> String {
        match heard {
            Heard::Closed => format!("the {} closed the connection", self.peer),
            other => other.describe(),
        }
    }

    /// [`Wire::hear`] without logging a line that comes (a flood's answers).
    pub fn hear_unlogged(&mut self, wait: Duration) -> Heard {
        if self.closed {
            return Heard::Closed;
        }
        self.reader
            .source_mut()
            .set_deadline(Instant::now().checked_add(wait));
        match self.reader.next_line() {
            Ok(Incoming::Line(line)) => {
                if self.reader.ended_in_cr() {
                    self.line_ends.crlf += 1;
                } else {
                    self.line_ends.lf += 1;
                }
                Heard::Line(line)
            }
            Ok(Incoming::TooLong) => Heard::TooLong,
            Ok(Incoming::NotUtf8) => Heard::NotText,
            Err(ReadError::TimedOut) => Heard::Silent(wait),
            Err(ReadError::Closed | ReadError::Flood { .. } | ReadError::Io(_)) => {
                self.closed = true;
                Heard::Closed
            }
        }
    }

    /// The next line, within the answer timeout.
    ///
    /// # Errors
    ///
    /// No line came (silence, a close, a line too long or not text): the failure says
    /// `expected` and what came instead.
    pub fn line(&mut self, expected: &str) -> Step<String> {
        match self.hear(self.answer) {
            Heard::Line(line) => Ok(line),
            other => Err(Failure::new(
                format!("{}: {expected}", self.who),
                self.describe(&other),
            )),
        }
    }

    /// Expects no line for `quiet`.
    ///
    /// # Errors
    ///
    /// A line came: the failure says why none was expected.
    pub fn nothing_for(&mut self, quiet: Duration, why: &str) -> Step<()> {
        match self.hear(quiet) {
            Heard::Silent(_) | Heard::Closed => Ok(()),
            other => Err(Failure::new(
                format!("{}: nothing ({why})", self.who),
                self.describe(&other),
            )),
        }
    }

    /// Whether the server closes the connection within `wait` (lines before the close
    /// are read and logged).
    pub fn closed_within(&mut self, wait: Duration) -> bool {
        let deadline = Instant::now() + wait;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.hear(left) {
                Heard::Closed => return true,
                Heard::Silent(_) => return false,
                _ if left.is_zero() => return false,
                _ => {}
            }
        }
    }

    /// Closes the sending side only: the server sees the end of input, and may still
    /// answer.
    pub fn finish_sending(&mut self) {
        self.log
            .record(&self.who, Direction::Note, "closed its sending side");
        let _ = self.writer.shutdown(Shutdown::Write);
    }

    /// Closes the connection (a client that leaves), keeping the wire: it then hears
    /// only [`Heard::Closed`].
    pub fn disconnect(&mut self) {
        self.log
            .record(&self.who, Direction::Note, "closed the connection");
        let _ = self.writer.shutdown(Shutdown::Both);
        self.closed = true;
    }

    /// Closes the connection (a client that leaves).
    pub fn close(self) {
        self.log
            .record(&self.who, Direction::Note, "closed the connection");
        let _ = self.writer.shutdown(Shutdown::Both);
    }
}
