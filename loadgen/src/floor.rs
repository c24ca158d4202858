//! What the two floors (`echo` and `relay`) share: their flags, the filler lines, the
//! paired ping-pong client that drives them like the two players of a game, and their
//! RESULT line. The floors' servers live in echo.rs and relay.rs; this file knows
//! nothing of how a server answers beyond who gets the answer.

use crate::io::{Behaviour, Io, latency_fields, new_histogram, record, run};
use hdrhistogram::Histogram;
use mio::Poll;
use std::net::SocketAddr;
use std::time::{Duration, Instant};

/// The flags of both floor modes.
#[derive(clap::Args)]
pub(crate) struct FloorArgs {
    /// Connection pairs (each pair has one line in flight, like one game).
    #[arg(long, default_value_t = 1)]
    pub(crate) pairs: usize,
    /// Round trips per pair.
    #[arg(long, default_value_t = 2000)]
    pub(crate) rounds: u64,
    /// Bytes per line including the newline (a MOVE like `MOVE+12+c123+40` is ~20).
    #[arg(long, default_value_t = 20)]
    pub(crate) line_len: usize,
    /// Bytes per reply including the newline; 0 echoes the line itself. Set it to
    /// the size of an ACKNOWLEDGE_MOVE (about 38 + size * size) so the floor moves
    /// the same message sizes as a game.
    #[arg(long, default_value_t = 0)]
    pub(crate) reply_len: usize,
    /// Give up after this many seconds.
    #[arg(long, default_value_t = 60)]
    pub(crate) timeout: u64,
}

impl FloorArgs {
    /// The fixed reply the server sends, or `None` when it sends the line back.
    pub(crate) fn reply(&self) -> Option<Vec<u8>> {
        (self.reply_len > 0).then(|| filler_line(self.reply_len))
    }
}

/// A line of `len` bytes, newline included.
pub(crate) fn filler_line(len: usize) -> Vec<u8> {
    let mut line = vec![b'x'; len.max(2) - 1];
    line.push(b'\n');
    line
}

/// Who receives the server's answer to a line.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Answer {
    /// Only the sender (echo). The partner moves once the sender has its reply.
    ToSender,
    /// Both connections of the pair, the sender first, as ACKNOWLEDGE_MOVE goes to
    /// both players (relay). The partner moves once its own copy is in.
    ToBoth,
}

impl Answer {
    /// Lines the pair receives per line sent.
    fn copies(self) -> u64 {
        match self {
            Answer::ToSender => 1,
            Answer::ToBoth => 2,
        }
    }
}

/// What the client does for one floor: the shape of its traffic.
pub(crate) struct Floor {
    /// The mode's name, for the output (`echo`, `relay`).
    pub(crate) mode: &'static str,
    /// Who receives each answer.
    pub(crate) answer: Answer,
    /// Each connection first sends its pair's number on a line of its own (the relay
    /// server pairs connections by it, as goserver pairs players by HANDSHAKE).
    pub(crate) announce_pair: bool,
}

/// Per pair of connections (ids `2 * pair` and `2 * pair + 1`).
#[derive(Clone, Default)]
struct PairState {
    connected: u8,
    /// Lines sent by either connection.
    moves: u64,
    /// Lines received by either connection.
    received: u64,
}

/// The paired ping-pong: per pair one line in flight, the two connections taking
/// turns like the two players of a game. Latency is a line to its sender's answer.
struct PingPong {
    line: Vec<u8>,
    /// Length of the expected answer, newline included.
    reply_len: usize,
    rounds: u64,
    floor: Floor,
    pairs: Vec<PairState>,
    /// Per connection: when its line in flight was sent.
    sent: Vec<Option<Instant>>,
    hist: Histogram<u64>,
    errors: u64,
    start: Option<Instant>,
    finished_pairs: usize,
}

impl PingPong {
    /// Sends the pair's next line from connection `id`, if the pair has lines left.
    fn move_from(&mut self, id: usize, io: &mut Io) {
        let pair = &mut self.pairs[id / 2];
        if pair.moves < self.rounds {
            pair.moves += 1;
            self.sent[id] = Some(Instant::now());
            io.send(id, &self.line);
        }
    }
}

impl Behaviour for PingPong {
    fn on_connect(&mut self, id: usize, io: &mut Io) {
        let pair = id / 2;
        if self.floor.announce_pair {
            io.send(id, format!("{pair}\n").as_bytes());
        }
        self.pairs[pair].connected += 1;
        if self.pairs[pair].connected == 2 {
            self.start.get_or_insert_with(Instant::now);
            self.move_from(pair * 2, io);
        }
    }

    fn on_line(&mut self, id: usize, line: &str, io: &mut Io) {
        if line.len() + 1 != self.reply_len {
            self.errors += 1;
        }
        // A connection with a line in flight gets its own answer next: it moved only
        // after reading every earlier line the server sent it.
        match (self.sent[id].take(), self.floor.answer) {
            (Some(sent), Answer::ToSender) => {
                record(&mut self.hist, sent);
                self.move_from(id ^ 1, io);
            }
            // The partner moves when its copy arrives, not when this one does.
            (Some(sent), Answer::ToBoth) => record(&mut self.hist, sent),
            // The partner's line, copied here: our turn.
            (None, Answer::ToBoth) => self.move_from(id, io),
            (None, Answer::ToSender) => self.errors += 1,
        }
        let pair = id / 2;
        self.pairs[pair].received += 1;
        if self.pairs[pair].received == self.rounds * self.floor.answer.copies() {
            io.close(pair * 2);
            io.close(pair * 2 + 1);
            self.finished_pairs += 1;
        }
    }

    fn on_close(&mut self, _id: usize, _io: &mut Io) {
        self.errors += 1;
    }

    fn tick(&mut self, _poll: &Poll, _io: &mut Io) -> bool {
        self.finished_pairs == self.pairs.len()
    }
}

/// Drives the floor server at `addr` with `args.pairs` pairs and prints the summary
/// and the `RESULT mode=<floor> ...` line.
pub(crate) fn drive(floor: Floor, addr: SocketAddr, args: &FloorArgs) {
    let line = filler_line(args.line_len);
    let reply_len = args.reply().map_or(line.len(), |reply| reply.len());
    let pairs = args.pairs;
    let mode = floor.mode;
    let mut poll = Poll::new().expect("poll");
    let mut io = Io::default();
    for _ in 0..pairs * 2 {
        io.connect(&poll, addr).expect("connect to the floor");
    }
    let mut b = PingPong {
        line,
        reply_len,
        rounds: args.rounds,
        floor,
        pairs: vec![PairState::default(); pairs],
        sent: vec![None; pairs * 2],
        hist: new_histogram(),
        errors: 0,
        start: None,
        finished_pairs: 0,
    };
    let ok = run(
        &mut poll,
        &mut io,
        &mut b,
        Instant::now() + Duration::from_secs(args.timeout),
    );
    let secs = b.start.map(|s| s.elapsed().as_secs_f64()).unwrap_or(0.0);
    let trips = b.hist.len();
    let errors = b.errors + if ok { 0 } else { 1 };
    println!(
        "{mode} floor: {pairs} pair(s), {trips} round trips in {secs:.3}s = {:.0}/s, errors {errors}",
        trips as f64 / secs
    );
    println!(
        "RESULT mode={mode} pairs={pairs} {} ops_per_s={:.1} secs={secs:.3} errors={errors} timed_out={}",
        latency_fields(&b.hist),
        trips as f64 / secs,
        !ok
    );
}
