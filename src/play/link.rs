//! The client's one connection to the server it plays on: lines out (each on the wire
//! log, if one is kept), lines in through a reader thread and a bounded channel, so that
//! the player's loop can wait for the server, the keyboard and a clock at once.
//!
//! Every wait has a bound: the connect and each write by [`WRITE_WAIT`], a line in by
//! its length ([`MAX_LINE_BYTES`]: a server that sends megabytes without a newline is
//! one event, not a memory leak), and the player's loop waits for a line with the
//! patience it was given.

use crate::net::{Incoming, LineLimits, LineReader, Overlong, ReadError};
use crossbeam_channel::{Receiver, bounded};
use parking_lot::Mutex;
use std::fs::File;
use std::io::{self, Write};
use std::net::{Shutdown, SocketAddr, TcpStream, ToSocketAddrs};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The longest line read from the server; a longer one is reported once and skipped.
pub const MAX_LINE_BYTES: usize = 64 * 1024;

/// How long a connect, or a write, may take.
pub const WRITE_WAIT: Duration = Duration::from_secs(10);

/// Lines read ahead of the player's loop. A server that sends faster than the player
/// reads waits in TCP, as the server's own clients do.
const READ_AHEAD: usize = 256;

/// What came from the server.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Heard {
    /// A line, without its `\n` (and a `\r` before it).
    Line(String),
    /// A line longer than [`MAX_LINE_BYTES`] (skipped).
    TooLong,
    /// A line that is not UTF-8 text.
    NotText,
    /// The server closed the connection, or it broke (why).
    Closed(String),
}

/// The wire log: every line in and out, with the time since the start, when `--log`
/// names a file.
#[derive(Clone)]
pub struct WireLog {
    file: Option<Arc<Mutex<File>>>,
    started: Instant,
}

impl WireLog {
    /// A log written to `path`, or none.
    ///
    /// # Errors
    ///
    /// The file cannot be created.
    pub fn to(path: Option<&std::path::Path>) -> io::Result<WireLog> {
        let file = match path {
            Some(path) => Some(Arc::new(Mutex::new(File::create(path)?))),
            None => None,
        };
        Ok(WireLog {
            file,
            started: Instant::now(),
        })
    }

    /// Writes `text` with its direction (`>` sent, `<` received, `#` a note).
    pub fn record(&self, direction: char, text: &str) {
        let Some(file) = &self.file else { return };
        let ms = self.started.elapsed().as_millis();
        // A log that cannot be written must not stop the game.
        let _ = writeln!(file.lock(), "{ms:>8} {direction} {text}");
    }
}

/// The connection.
pub struct Link {
    writer: TcpStream,
    /// The lines read by the reader thread.
    pub heard: Receiver<Heard>,
    log: WireLog,
}

impl Link {
    /// Connects to `address` (`host:port`) and starts reading.
    ///
    /// # Errors
    ///
    /// The address does not resolve, or no connection is made within [`WRITE_WAIT`].
    pub fn connect(address: &str, log: WireLog) -> io::Result<Link> {
        let addrs: Vec<SocketAddr> = address.to_socket_addrs()?.collect();
        let mut last = io::Error::new(io::ErrorKind::NotFound, "the address resolves to nothing");
        for addr in addrs {
            match TcpStream::connect_timeout(&addr, WRITE_WAIT) {
                Ok(stream) => return Link::over(stream, log),
                Err(e) => last = e,
            }
        }
        Err(last)
    }

    /// A link over a connected stream.
    fn over(stream: TcpStream, log: WireLog) -> io::Result<Link> {
        stream.set_nodelay(true)?;
        stream.set_write_timeout(Some(WRITE_WAIT))?;
        let reading = stream.try_clone()?;
        let (lines, heard) = bounded(READ_AHEAD);
        let reader_log = log.clone();
        std::thread::Builder::new()
            .name("play-reader".into())
            .spawn(move || {
                let limits = LineLimits {
                    max_line_bytes: MAX_LINE_BYTES,
                    overlong: Overlong::ReportAtOnce,
                };
                let mut reader = LineReader::new(reading, limits);
                loop {
                    let heard = match reader.next_line() {
                        Ok(Incoming::Line(line)) => {
                            reader_log.record('<', &line);
                            Heard::Line(line)
                        }
                        Ok(Incoming::TooLong) => Heard::TooLong,
                        Ok(Incoming::NotUtf8) => Heard::NotText,
                        Err(ReadError::TimedOut) => continue,
                        Err(ReadError::Closed) => Heard::Closed("closed by the server".into()),
                        Err(ReadError::Io(e)) => Heard::Closed(e.to_string()),
                        Err(ReadError::Flood { limit }) => {
                            Heard::Closed(format!("more than {limit} bytes without a newline"))
                        }
                    };
                    let last = matches!(heard, Heard::Closed(_));
                    if lines.send(heard).is_err() || last {
                        return;
                    }
                }
            })?;
        Ok(Link {
            writer: stream,
            heard,
            log,
        })
    }

    /// Sends `line` and a newline.
    ///
    /// # Errors
    ///
    /// The write failed or took longer than [`WRITE_WAIT`]: the server is gone or
    /// stopped reading.
    pub fn send(&mut self, line: &str) -> io::Result<()> {
        self.log.record('>', line);
        self.writer.write_all(format!("{line}\n").as_bytes())
    }

    /// Notes `text` in the wire log.
    pub fn note(&self, text: &str) {
        self.log.record('#', text);
    }

    /// Closes the connection (the reader thread then ends).
    pub fn close(&self) {
        let _ = self.writer.shutdown(Shutdown::Both);
    }
}

impl Drop for Link {
    fn drop(&mut self) {
        self.close();
    }
}
