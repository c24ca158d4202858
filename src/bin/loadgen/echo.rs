//! `echo`: the floor, an in-process thread-per-connection line server driven like
//! games (one line in flight per pair of connections).

use crate::io::{Behaviour, Io, latency_fields, new_histogram, record, run};
use hdrhistogram::Histogram;
use mio::Poll;
use std::io::{BufRead, BufReader, Write};
use std::net::{SocketAddr, TcpListener};
use std::time::{Duration, Instant};

// echo: the floor

/// A line of `len` bytes, newline included.
pub(crate) fn filler_line(len: usize) -> Vec<u8> {
    let mut line = vec![b'x'; len.max(2) - 1];
    line.push(b'\n');
    line
}

/// The floor's server: one thread per connection answers each line with `reply`, or
/// with the line itself when `reply` is `None`.
pub(crate) fn echo_server(reply: Option<Vec<u8>>) -> SocketAddr {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind echo server");
    let addr = listener.local_addr().expect("echo address");
    std::thread::Builder::new()
        .name("echo-accept".into())
        .spawn(move || {
            for stream in listener.incoming() {
                let Ok(stream) = stream else { continue };
                let reply = reply.clone();
                let _ = stream.set_nodelay(true);
                // Same stack size as goserver's connection threads.
                let _ = std::thread::Builder::new()
                    .stack_size(128 * 1024)
                    .spawn(move || {
                        let Ok(mut writer) = stream.try_clone() else {
                            return;
                        };
                        let mut reader = BufReader::new(stream);
                        let mut line = Vec::with_capacity(128);
                        loop {
                            line.clear();
                            match reader.read_until(b'\n', &mut line) {
                                Ok(0) | Err(_) => return,
                                Ok(_) => {
                                    let answer = reply.as_deref().unwrap_or(&line);
                                    if writer.write_all(answer).is_err() {
                                        return;
                                    }
                                }
                            }
                        }
                    });
            }
        })
        .expect("spawn echo accept");
    addr
}

pub(crate) struct Echo {
    pub(crate) line: Vec<u8>,
    /// Length of the expected reply, newline included.
    pub(crate) reply_len: usize,
    pub(crate) rounds: u64,
    /// Per pair: round trips done, connected count, send time.
    pub(crate) done: Vec<u64>,
    pub(crate) connected: Vec<u8>,
    pub(crate) sent: Vec<Option<Instant>>,
    pub(crate) hist: Histogram<u64>,
    pub(crate) errors: u64,
    pub(crate) start: Option<Instant>,
    pub(crate) finished_pairs: usize,
}

impl Behaviour for Echo {
    fn on_connect(&mut self, id: usize, io: &mut Io) {
        let pair = id / 2;
        self.connected[pair] += 1;
        if self.connected[pair] == 2 {
            self.start.get_or_insert_with(Instant::now);
            self.sent[pair] = Some(Instant::now());
            io.send(pair * 2, &self.line);
        }
    }
    fn on_line(&mut self, id: usize, line: &str, io: &mut Io) {
        let pair = id / 2;
        if line.len() + 1 != self.reply_len {
            self.errors += 1;
        }
        if let Some(t) = self.sent[pair].take() {
            record(&mut self.hist, t);
        } else {
            self.errors += 1;
        }
        self.done[pair] += 1;
        if self.done[pair] < self.rounds {
            // The partner answers, like the other player of a game.
            let next = pair * 2 + (1 - id % 2);
            self.sent[pair] = Some(Instant::now());
            io.send(next, &self.line);
        } else {
            io.close(pair * 2);
            io.close(pair * 2 + 1);
            self.finished_pairs += 1;
        }
    }
    fn on_close(&mut self, _id: usize, _io: &mut Io) {
        self.errors += 1;
    }
    fn tick(&mut self, _poll: &Poll, _io: &mut Io) -> bool {
        self.finished_pairs == self.done.len()
    }
}

pub(crate) fn echo(pairs: usize, rounds: u64, line_len: usize, reply_len: usize, timeout: u64) {
    let line = filler_line(line_len);
    let reply = (reply_len > 0).then(|| filler_line(reply_len));
    let reply_len = reply.as_ref().map_or(line.len(), Vec::len);
    let addr = echo_server(reply);
    let mut poll = Poll::new().expect("poll");
    let mut io = Io::default();
    for _ in 0..pairs * 2 {
        io.connect(&poll, addr).expect("connect echo");
    }
    let mut b = Echo {
        line,
        reply_len,
        rounds,
        done: vec![0; pairs],
        connected: vec![0; pairs],
        sent: vec![None; pairs],
        hist: new_histogram(),
        errors: 0,
        start: None,
        finished_pairs: 0,
    };
    let ok = run(
        &mut poll,
        &mut io,
        &mut b,
        Instant::now() + Duration::from_secs(timeout),
    );
    let secs = b.start.map(|s| s.elapsed().as_secs_f64()).unwrap_or(0.0);
    let trips = b.hist.len();
    let errors = b.errors + if ok { 0 } else { 1 };
    println!(
        "echo floor: {pairs} pair(s), {trips} round trips in {secs:.3}s = {:.0}/s, errors {errors}",
        trips as f64 / secs
    );
    println!(
        "RESULT mode=echo pairs={pairs} {} ops_per_s={:.1} secs={secs:.3} errors={errors} timed_out={}",
        latency_fields(&b.hist),
        trips as f64 / secs,
        !ok
    );
}
