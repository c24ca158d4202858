//! The client side of every mode: non-blocking connections in one mio event loop,
//! line framing, and the latency histograms.

use hdrhistogram::Histogram;
use mio::net::TcpStream;
use mio::{Events, Interest, Poll, Token};
use std::io::{ErrorKind, Read, Write};
use std::net::SocketAddr;
use std::time::{Duration, Instant};

// The event loop: many non-blocking connections in one thread.

pub(crate) struct Conn {
    pub(crate) stream: TcpStream,
    pub(crate) connected: bool,
    pub(crate) rbuf: Vec<u8>,
    pub(crate) wbuf: Vec<u8>,
}

#[derive(Default)]
pub(crate) struct Io {
    pub(crate) conns: Vec<Option<Conn>>,
    /// Connections that failed or were closed by the peer, reported to the behaviour.
    pub(crate) closed: Vec<usize>,
}

impl Io {
    pub(crate) fn connect(&mut self, poll: &Poll, addr: SocketAddr) -> std::io::Result<usize> {
        let mut stream = TcpStream::connect(addr)?;
        let id = self.conns.len();
        poll.registry().register(
            &mut stream,
            Token(id),
            Interest::READABLE | Interest::WRITABLE,
        )?;
        self.conns.push(Some(Conn {
            stream,
            connected: false,
            rbuf: Vec::with_capacity(256),
            wbuf: Vec::new(),
        }));
        Ok(id)
    }

    pub(crate) fn send(&mut self, id: usize, line: &[u8]) {
        let Some(conn) = self.conns[id].as_mut() else {
            return;
        };
        conn.wbuf.extend_from_slice(line);
        if conn.connected && !flush(conn) {
            self.close(id);
            self.closed.push(id);
        }
    }

    /// Closes without reporting (the behaviour asked for it).
    pub(crate) fn close(&mut self, id: usize) {
        self.conns[id] = None;
    }

    pub(crate) fn open(&self) -> usize {
        self.conns.iter().filter(|c| c.is_some()).count()
    }
}

/// Writes what can be written; false on a fatal error.
pub(crate) fn flush(conn: &mut Conn) -> bool {
    while !conn.wbuf.is_empty() {
        match conn.stream.write(&conn.wbuf) {
            Ok(0) => return false,
            Ok(n) => {
                conn.wbuf.drain(..n);
            }
            Err(e) if e.kind() == ErrorKind::WouldBlock => return true,
            Err(e) if e.kind() == ErrorKind::Interrupted => {}
            Err(_) => return false,
        }
    }
    true
}

pub(crate) trait Behaviour {
    fn on_connect(&mut self, id: usize, io: &mut Io);
    fn on_line(&mut self, id: usize, line: &str, io: &mut Io);
    fn on_close(&mut self, id: usize, io: &mut Io);
    /// Called after every poll round; may open connections. Returns true when finished.
    fn tick(&mut self, poll: &Poll, io: &mut Io) -> bool;
}

/// Runs until the behaviour says it is done or the deadline passes; true if done.
pub(crate) fn run<B: Behaviour>(
    poll: &mut Poll,
    io: &mut Io,
    b: &mut B,
    deadline: Instant,
) -> bool {
    let mut events = Events::with_capacity(4096);
    let mut scratch = [0u8; 16 * 1024];
    loop {
        if b.tick(poll, io) {
            return true;
        }
        let now = Instant::now();
        if now >= deadline {
            return false;
        }
        let wait = (deadline - now).min(Duration::from_millis(50));
        if let Err(e) = poll.poll(&mut events, Some(wait)) {
            if e.kind() == ErrorKind::Interrupted {
                continue;
            }
            panic!("poll: {e}");
        }
        for event in events.iter() {
            let id = event.token().0;
            let mut lines: Vec<String> = Vec::new();
            let mut dead = false;
            let mut just_connected = false;
            {
                let Some(conn) = io.conns.get_mut(id).and_then(|c| c.as_mut()) else {
                    continue;
                };
                if !conn.connected
                    && (event.is_writable() || event.is_readable() || event.is_error())
                {
                    match conn.stream.take_error() {
                        Ok(None) => {}
                        _ => dead = true,
                    }
                    if !dead {
                        match conn.stream.peer_addr() {
                            Ok(_) => {
                                conn.connected = true;
                                just_connected = true;
                                let _ = conn.stream.set_nodelay(true);
                            }
                            Err(e) if e.kind() == ErrorKind::NotConnected => {}
                            Err(_) => dead = true,
                        }
                    }
                }
                if !dead && conn.connected && event.is_readable() {
                    loop {
                        match conn.stream.read(&mut scratch) {
                            Ok(0) => {
                                dead = true;
                                break;
                            }
                            Ok(n) => conn.rbuf.extend_from_slice(&scratch[..n]),
                            Err(e) if e.kind() == ErrorKind::WouldBlock => break,
                            Err(e) if e.kind() == ErrorKind::Interrupted => {}
                            Err(_) => {
                                dead = true;
                                break;
                            }
                        }
                    }
                    let mut start = 0;
                    while let Some(pos) = conn.rbuf[start..].iter().position(|&c| c == b'\n') {
                        let end = start + pos;
                        let line = &conn.rbuf[start..end];
                        let line = line.strip_suffix(b"\r").unwrap_or(line);
                        lines.push(String::from_utf8_lossy(line).into_owned());
                        start = end + 1;
                    }
                    conn.rbuf.drain(..start);
                }
                if !dead && conn.connected && event.is_writable() && !flush(conn) {
                    dead = true;
                }
            }
            if just_connected {
                b.on_connect(id, io);
            }
            for line in &lines {
                if io.conns[id].is_none() {
                    break;
                }
                b.on_line(id, line, io);
            }
            if dead && io.conns[id].is_some() {
                io.close(id);
                b.on_close(id, io);
            }
            while let Some(c) = io.closed.pop() {
                b.on_close(c, io);
            }
        }
    }
}

pub(crate) fn trace_clock() -> Duration {
    static START: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    START.get_or_init(Instant::now).elapsed()
}

pub(crate) fn new_histogram() -> Histogram<u64> {
    Histogram::new_with_bounds(1, 60_000_000, 3).expect("histogram bounds")
}

pub(crate) fn record(h: &mut Histogram<u64>, since: Instant) {
    let us = since.elapsed().as_micros().max(1) as u64;
    h.saturating_record(us);
}

pub(crate) fn latency_fields(h: &Histogram<u64>) -> String {
    format!(
        "n={} p50={} p90={} p99={} p999={} max={} mean={:.1}",
        h.len(),
        h.value_at_quantile(0.5),
        h.value_at_quantile(0.9),
        h.value_at_quantile(0.99),
        h.value_at_quantile(0.999),
        h.max(),
        h.mean()
    )
}
