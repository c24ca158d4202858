//! `loadgen`: load generator and benchmarks for goserver (issue 6).
//!
//! Modes:
//! - `echo`: the floor. Starts an in-process thread-per-connection line echo server
//!   (same 128 KiB stacks as the real server) on 127.0.0.1:0 and drives it with pairs
//!   of connections that take turns, exactly like the two players of a game: one line
//!   outstanding per pair, lines the size of a MOVE.
//! - `games`: G games, C at once, two clients each, real GO! protocol; latency is
//!   MOVE -> own ACKNOWLEDGE_MOVE.
//! - `hold`: N clients in N/2 configured games, each game plays one move, then the
//!   server's memory is read from /proc and the clients are held and closed.
//!
//! All clients live in ONE thread with non-blocking sockets (mio), so 10,000 clients
//! cost 10,000 file descriptors and no threads. Every mode ends with one line
//! `RESULT key=value ...` that scripts/bench.sh parses.

use clap::{Parser, Subcommand};
use hdrhistogram::Histogram;
use mio::net::TcpStream;
use mio::{Events, Interest, Poll, Token};
use std::io::{BufRead, BufReader, ErrorKind, Read, Write};
use std::net::{SocketAddr, TcpListener};
use std::time::{Duration, Instant};

#[derive(Parser)]
#[command(name = "loadgen", about = "Load generator and benchmarks for goserver")]
struct Cli {
    #[command(subcommand)]
    mode: Mode,
}

#[derive(Subcommand)]
enum Mode {
    /// Floor: in-process thread-per-connection echo server + paired ping-pong clients.
    Echo {
        /// Connection pairs (each pair has one line in flight, like one game).
        #[arg(long, default_value_t = 1)]
        pairs: usize,
        /// Round trips per pair.
        #[arg(long, default_value_t = 2000)]
        rounds: u64,
        /// Bytes per line including the newline (a MOVE like `MOVE+12+c123+40` is ~20).
        #[arg(long, default_value_t = 20)]
        line_len: usize,
        /// Bytes per reply including the newline; 0 echoes the line itself. Set it to
        /// the size of an ACKNOWLEDGE_MOVE (about 38 + size * size) so the floor moves
        /// the same message sizes as a game.
        #[arg(long, default_value_t = 0)]
        reply_len: usize,
        /// Give up after this many seconds.
        #[arg(long, default_value_t = 60)]
        timeout: u64,
    },
    /// Real games against a running goserver.
    Games {
        /// Server address.
        #[arg(long, default_value = "127.0.0.1:8000")]
        addr: SocketAddr,
        /// Games in total.
        #[arg(long, default_value_t = 100)]
        games: u64,
        /// Games at once (2 clients each).
        #[arg(long, default_value_t = 1)]
        concurrent: usize,
        /// Stone moves per game before both players pass.
        #[arg(long, default_value_t = 60)]
        moves: u32,
        /// Board size.
        #[arg(long, default_value_t = 19)]
        size: usize,
        /// Give up after this many seconds.
        #[arg(long, default_value_t = 120)]
        timeout: u64,
        /// Prefix of the client names (names are <prefix><n>).
        #[arg(long, default_value = "g")]
        prefix: String,
    },
    /// Print a free loopback TCP port (for scripts).
    FreePort,
    /// N clients connected at once in N/2 live games.
    Hold {
        #[arg(long, default_value = "127.0.0.1:8000")]
        addr: SocketAddr,
        /// Clients (even).
        #[arg(long, default_value_t = 10_000)]
        clients: usize,
        /// Server process id, for VmRSS / Threads from /proc/<pid>/status.
        #[arg(long)]
        server_pid: Option<u32>,
        /// Seconds to hold everyone once all games are live.
        #[arg(long, default_value_t = 5)]
        hold_secs: u64,
        /// Connections opened but not yet in a configured game, at most.
        #[arg(long, default_value_t = 256)]
        max_pending: usize,
        /// Board size.
        #[arg(long, default_value_t = 9)]
        size: usize,
        /// Give up the ramp-up after this many seconds.
        #[arg(long, default_value_t = 120)]
        timeout: u64,
        #[arg(long, default_value = "h")]
        prefix: String,
    },
}

fn main() {
    raise_file_limit();
    let cli = Cli::parse();
    match cli.mode {
        Mode::Echo {
            pairs,
            rounds,
            line_len,
            reply_len,
            timeout,
        } => echo(pairs, rounds, line_len, reply_len, timeout),
        Mode::Games {
            addr,
            games,
            concurrent,
            moves,
            size,
            timeout,
            prefix,
        } => games_mode(addr, games, concurrent, moves, size, timeout, &prefix),
        Mode::FreePort => {
            let l = TcpListener::bind("127.0.0.1:0").expect("bind");
            println!("{}", l.local_addr().expect("address").port());
        }
        Mode::Hold {
            addr,
            clients,
            server_pid,
            hold_secs,
            max_pending,
            size,
            timeout,
            prefix,
        } => hold(
            addr,
            clients,
            server_pid,
            hold_secs,
            max_pending,
            size,
            timeout,
            &prefix,
        ),
    }
}

fn raise_file_limit() {
    // SAFETY: plain getrlimit/setrlimit on a local struct.
    unsafe {
        let mut limit = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) == 0 && limit.rlim_cur < limit.rlim_max
        {
            limit.rlim_cur = limit.rlim_max;
            libc::setrlimit(libc::RLIMIT_NOFILE, &limit);
        }
    }
}

// ---------------------------------------------------------------------------------
// The event loop: many non-blocking connections in one thread.

struct Conn {
    stream: TcpStream,
    connected: bool,
    rbuf: Vec<u8>,
    wbuf: Vec<u8>,
}

#[derive(Default)]
struct Io {
    conns: Vec<Option<Conn>>,
    /// Connections that failed or were closed by the peer, reported to the behaviour.
    closed: Vec<usize>,
}

impl Io {
    fn connect(&mut self, poll: &Poll, addr: SocketAddr) -> std::io::Result<usize> {
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

    fn send(&mut self, id: usize, line: &[u8]) {
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
    fn close(&mut self, id: usize) {
        self.conns[id] = None;
    }

    fn open(&self) -> usize {
        self.conns.iter().filter(|c| c.is_some()).count()
    }
}

/// Writes what can be written; false on a fatal error.
fn flush(conn: &mut Conn) -> bool {
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

trait Behaviour {
    fn on_connect(&mut self, id: usize, io: &mut Io);
    fn on_line(&mut self, id: usize, line: &str, io: &mut Io);
    fn on_close(&mut self, id: usize, io: &mut Io);
    /// Called after every poll round; may open connections. Returns true when finished.
    fn tick(&mut self, poll: &Poll, io: &mut Io) -> bool;
}

/// Runs until the behaviour says it is done or the deadline passes; true if done.
fn run<B: Behaviour>(poll: &mut Poll, io: &mut Io, b: &mut B, deadline: Instant) -> bool {
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

fn trace_clock() -> Duration {
    static START: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    START.get_or_init(Instant::now).elapsed()
}

fn new_histogram() -> Histogram<u64> {
    Histogram::new_with_bounds(1, 60_000_000, 3).expect("histogram bounds")
}

fn record(h: &mut Histogram<u64>, since: Instant) {
    let us = since.elapsed().as_micros().max(1) as u64;
    h.saturating_record(us);
}

fn latency_fields(h: &Histogram<u64>) -> String {
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

// ---------------------------------------------------------------------------------
// echo: the floor

/// A line of `len` bytes, newline included.
fn filler_line(len: usize) -> Vec<u8> {
    let mut line = vec![b'x'; len.max(2) - 1];
    line.push(b'\n');
    line
}

/// The floor's server: one thread per connection answers each line with `reply`, or
/// with the line itself when `reply` is `None`.
fn echo_server(reply: Option<Vec<u8>>) -> SocketAddr {
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

struct Echo {
    line: Vec<u8>,
    /// Length of the expected reply, newline included.
    reply_len: usize,
    rounds: u64,
    /// Per pair: round trips done, connected count, send time.
    done: Vec<u64>,
    connected: Vec<u8>,
    sent: Vec<Option<Instant>>,
    hist: Histogram<u64>,
    errors: u64,
    start: Option<Instant>,
    finished_pairs: usize,
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

fn echo(pairs: usize, rounds: u64, line_len: usize, reply_len: usize, timeout: u64) {
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

// ---------------------------------------------------------------------------------
// games and hold: GO! players

#[derive(Default, Clone)]
struct Player {
    name: String,
    granted: String,
    game_id: String,
    colour: u8,
    board: Vec<u8>,
    /// Points refused by INVALID_MOVE in this game.
    refused: Vec<usize>,
    playing: bool,
    my_turn: bool,
    acks: u32,
    sent: Option<(Instant, i64)>,
    games_left: u64,
    done: bool,
    live: bool,
}

#[derive(Default)]
struct Errors {
    invalid: u64,
    unexpected: u64,
    disconnects: u64,
    connect_failures: u64,
}

impl Errors {
    fn total(&self) -> u64 {
        self.invalid + self.unexpected + self.disconnects + self.connect_failures
    }
}

struct Players {
    players: Vec<Player>,
    size: usize,
    /// Stone moves per game before passing.
    moves: u32,
    /// Hold mode: stop after `moves` and do not pass.
    hold: bool,
    hist: Histogram<u64>,
    errors: Errors,
    finished_reports: u64,
    done_clients: usize,
    live_clients: usize,
    configured_clients: usize,
    shown: u32,
    trace: bool,
}

impl Players {
    fn unexpected(&mut self, id: usize, line: &str) {
        self.errors.unexpected += 1;
        if self.shown < 10 {
            self.shown += 1;
            eprintln!("loadgen: client {id}: unexpected line: {line}");
        }
    }

    fn apply_state(&mut self, id: usize, state: &str) -> bool {
        let p = &mut self.players[id];
        let mut parts = state.split(';');
        let status = parts.next().unwrap_or("");
        let current = parts.next().unwrap_or("");
        let board = parts.next().unwrap_or("");
        if board.len() != self.size * self.size {
            return false;
        }
        p.board.clear();
        p.board.extend_from_slice(board.as_bytes());
        p.playing = status == "PLAYING";
        p.my_turn = p.playing && current.parse::<u8>().ok() == Some(p.colour);
        true
    }

    fn maybe_move(&mut self, id: usize, io: &mut Io) {
        let limit = self.moves;
        let hold = self.hold;
        let p = &mut self.players[id];
        if !p.my_turn || p.sent.is_some() {
            return;
        }
        let index: i64 = if p.acks < limit {
            // Black fills from the top-left corner, white from the bottom-right: two
            // solid groups that never touch within a short game, so no captures, no
            // suicide, no ko: every move is legal.
            let free = |&(i, &c): &(usize, &u8)| c == b'0' && !p.refused.contains(&i);
            let found = if p.colour == 1 {
                p.board.iter().enumerate().find(free)
            } else {
                p.board.iter().enumerate().rev().find(free)
            };
            found.map_or(-1, |(i, _)| i as i64)
        } else if hold {
            return;
        } else {
            -1
        };
        p.sent = Some((Instant::now(), index));
        let line = format!("MOVE+{}+{}+{}\n", p.game_id, p.granted, index);
        if self.trace {
            eprint!("{:?} [{id}] -> {line}", trace_clock());
        }
        io.send(id, line.as_bytes());
    }

    fn handshake(&mut self, id: usize, io: &mut Io) {
        let line = format!("HANDSHAKE+{}\n", self.players[id].name);
        io.send(id, line.as_bytes());
    }

    fn finish_client(&mut self, id: usize, io: &mut Io) {
        let p = &mut self.players[id];
        if !p.done {
            p.done = true;
            self.done_clients += 1;
        }
        io.close(id);
    }
}

impl Behaviour for Players {
    fn on_connect(&mut self, id: usize, io: &mut Io) {
        self.handshake(id, io);
    }

    fn on_line(&mut self, id: usize, line: &str, io: &mut Io) {
        if self.trace {
            eprintln!("{:?} [{id}] <- {line}", trace_clock());
        }
        let mut f = line.split('+');
        let command = f.next().unwrap_or("");
        match command {
            "ACKNOWLEDGE_HANDSHAKE" => {
                let game = f.next().unwrap_or("").to_string();
                let leader = f.next() == Some("1");
                self.players[id].game_id = game.clone();
                if leader {
                    let line = format!("SET_CONFIG+{game}+1+{}\n", self.size);
                    io.send(id, line.as_bytes());
                }
            }
            "REQUEST_CONFIG" => {}
            "ACKNOWLEDGE_CONFIG" => {
                let name = f.next().unwrap_or("").to_string();
                let colour = f.next().and_then(|c| c.parse().ok()).unwrap_or(0);
                let _size = f.next();
                let state = f.next().unwrap_or("").to_string();
                {
                    let p = &mut self.players[id];
                    p.granted = name;
                    p.colour = colour;
                    p.acks = 0;
                    p.refused.clear();
                    p.sent = None;
                }
                self.configured_clients += 1;
                if !self.apply_state(id, &state) {
                    self.unexpected(id, line);
                    return;
                }
                self.maybe_move(id, io);
            }
            "ACKNOWLEDGE_MOVE" => {
                let _game = f.next();
                let mv = f.next().unwrap_or("");
                let state = f.next().unwrap_or("").to_string();
                let mut mp = mv.split(';');
                let index: i64 = mp.next().and_then(|v| v.parse().ok()).unwrap_or(i64::MIN);
                let colour: u8 = mp.next().and_then(|v| v.parse().ok()).unwrap_or(0);
                let p = &mut self.players[id];
                p.acks += 1;
                if colour == p.colour {
                    match p.sent.take() {
                        Some((t, sent_index)) if sent_index == index => record(&mut self.hist, t),
                        _ => {
                            self.unexpected(id, line);
                            return;
                        }
                    }
                }
                if !self.apply_state(id, &state) {
                    self.unexpected(id, line);
                    return;
                }
                let p = &mut self.players[id];
                if self.hold && p.acks >= self.moves && !p.live {
                    p.live = true;
                    self.live_clients += 1;
                }
                self.maybe_move(id, io);
            }
            "INVALID_MOVE" => {
                self.errors.invalid += 1;
                let p = &mut self.players[id];
                if let Some((_, index)) = p.sent.take()
                    && index >= 0
                {
                    p.refused.push(index as usize);
                }
                self.maybe_move(id, io);
            }
            "GAME_FINISHED" => {
                self.finished_reports += 1;
                self.players[id].playing = false;
                self.players[id].my_turn = false;
            }
            "REQUEST_REMATCH" => {
                // Only black answers: the first "no" ends the game for both, and a
                // second answer would arrive after the game is gone.
                if self.players[id].colour == 1 {
                    io.send(id, b"SET_REMATCH+0\n");
                }
            }
            "ACKNOWLEDGE_REMATCH" => {
                let p = &mut self.players[id];
                p.games_left = p.games_left.saturating_sub(1);
                if p.games_left > 0 {
                    self.handshake(id, io);
                } else {
                    self.finish_client(id, io);
                }
            }
            _ => self.unexpected(id, line),
        }
    }

    fn on_close(&mut self, id: usize, _io: &mut Io) {
        let p = &mut self.players[id];
        if !p.done {
            p.done = true;
            self.done_clients += 1;
            if p.granted.is_empty() && p.game_id.is_empty() {
                self.errors.connect_failures += 1;
            } else {
                self.errors.disconnects += 1;
            }
            if self.errors.disconnects + self.errors.connect_failures <= 5 {
                eprintln!("loadgen: client {id} ({}) disconnected", p.name);
            }
        }
    }

    fn tick(&mut self, _poll: &Poll, _io: &mut Io) -> bool {
        self.done_clients == self.players.len()
    }
}

fn new_players(
    n: usize,
    prefix: &str,
    games_each: u64,
    size: usize,
    moves: u32,
    hold: bool,
) -> Players {
    Players {
        players: (0..n)
            .map(|i| Player {
                name: format!("{prefix}{i}"),
                games_left: games_each,
                ..Player::default()
            })
            .collect(),
        size,
        moves,
        hold,
        hist: new_histogram(),
        errors: Errors::default(),
        finished_reports: 0,
        done_clients: 0,
        live_clients: 0,
        configured_clients: 0,
        shown: 0,
        trace: std::env::var_os("LOADGEN_TRACE").is_some(),
    }
}

fn games_mode(
    addr: SocketAddr,
    games: u64,
    concurrent: usize,
    moves: u32,
    size: usize,
    timeout: u64,
    prefix: &str,
) {
    let concurrent = concurrent.max(1);
    let each = games.div_ceil(concurrent as u64).max(1);
    let total_games = each * concurrent as u64;
    let mut poll = Poll::new().expect("poll");
    let mut io = Io::default();
    let mut b = new_players(concurrent * 2, prefix, each, size, moves, false);
    let start = Instant::now();
    for i in 0..concurrent * 2 {
        if io.connect(&poll, addr).is_err() {
            b.errors.connect_failures += 1;
            b.players[i].done = true;
            b.done_clients += 1;
            io.conns.push(None);
        }
    }
    let ok = run(
        &mut poll,
        &mut io,
        &mut b,
        start + Duration::from_secs(timeout),
    );
    let secs = start.elapsed().as_secs_f64();
    let finished = b.finished_reports / 2;
    let moves_done = b.hist.len();
    let errors = b.errors.total() + if ok { 0 } else { 1 };
    println!(
        "games: {finished}/{total_games} games ({concurrent} at once, {moves} stones + 2 passes each, {size}x{size}) in {secs:.3}s; \
         {moves_done} moves = {:.0} moves/s, {:.1} games/s; errors {errors} (invalid {}, unexpected {}, disconnects {}, connect {}){}",
        moves_done as f64 / secs,
        finished as f64 / secs,
        b.errors.invalid,
        b.errors.unexpected,
        b.errors.disconnects,
        b.errors.connect_failures,
        if ok { "" } else { " TIMED OUT" }
    );
    println!(
        "RESULT mode=games concurrent={concurrent} games={finished} {} ops_per_s={:.1} games_per_s={:.2} secs={secs:.3} \
         errors={errors} invalid={} unexpected={} disconnects={} connect_failures={} timed_out={}",
        latency_fields(&b.hist),
        moves_done as f64 / secs,
        finished as f64 / secs,
        b.errors.invalid,
        b.errors.unexpected,
        b.errors.disconnects,
        b.errors.connect_failures,
        !ok
    );
}

/// Wraps `Players` for the hold ramp: opens connections at a bounded rate and stops
/// once every client's game is live.
struct Ramp {
    players: Players,
    addr: SocketAddr,
    opened: usize,
    max_pending: usize,
}

impl Behaviour for Ramp {
    fn on_connect(&mut self, id: usize, io: &mut Io) {
        self.players.on_connect(id, io)
    }
    fn on_line(&mut self, id: usize, line: &str, io: &mut Io) {
        self.players.on_line(id, line, io)
    }
    fn on_close(&mut self, id: usize, io: &mut Io) {
        self.players.on_close(id, io)
    }
    fn tick(&mut self, poll: &Poll, io: &mut Io) -> bool {
        let n = self.players.players.len();
        // Pending = opened, not yet configured, not failed. Open in pairs.
        while self.opened < n {
            let settled = self.players.configured_clients + self.players.done_clients;
            if self.opened.saturating_sub(settled) >= self.max_pending {
                break;
            }
            match io.connect(poll, self.addr) {
                Ok(_) => {}
                Err(e) => {
                    if self.players.errors.connect_failures < 5 {
                        eprintln!("loadgen: connect: {e}");
                    }
                    self.players.errors.connect_failures += 1;
                    self.players.players[self.opened].done = true;
                    self.players.done_clients += 1;
                    io.conns.push(None);
                }
            }
            self.opened += 1;
        }
        self.players.live_clients + self.players.done_clients >= n
    }
}

fn proc_status(pid: u32) -> (Option<u64>, Option<u64>, Option<u64>) {
    let Ok(text) = std::fs::read_to_string(format!("/proc/{pid}/status")) else {
        return (None, None, None);
    };
    let field = |key: &str| {
        text.lines()
            .find(|l| l.starts_with(key))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|v| v.parse::<u64>().ok())
    };
    (field("VmRSS:"), field("VmHWM:"), field("Threads:"))
}

#[allow(clippy::too_many_arguments)]
fn hold(
    addr: SocketAddr,
    clients: usize,
    server_pid: Option<u32>,
    hold_secs: u64,
    max_pending: usize,
    size: usize,
    timeout: u64,
    prefix: &str,
) {
    let clients = clients + clients % 2;
    let mut poll = Poll::new().expect("poll");
    let mut io = Io::default();
    let before = server_pid.map(proc_status);
    let mut ramp = Ramp {
        players: new_players(clients, prefix, 1, size, 1, true),
        addr,
        opened: 0,
        max_pending: max_pending.max(2),
    };
    let start = Instant::now();
    let ok = run(
        &mut poll,
        &mut io,
        &mut ramp,
        start + Duration::from_secs(timeout),
    );
    let ramp_secs = start.elapsed().as_secs_f64();
    let live = ramp.players.live_clients;
    let open_now = io.open();
    let during = server_pid.map(proc_status);
    let (fds, maps) = server_pid.map_or((None, None), |pid| {
        let fds = std::fs::read_dir(format!("/proc/{pid}/fd"))
            .ok()
            .map(|d| d.count());
        let maps = std::fs::read_to_string(format!("/proc/{pid}/maps"))
            .ok()
            .map(|m| m.lines().count());
        (fds, maps)
    });
    let opt = |v: Option<usize>| v.map_or("na".to_string(), |x| x.to_string());
    println!(
        "hold: server open fds {} (RLIMIT_NOFILE {}), memory mappings {} (vm.max_map_count {})",
        opt(fds),
        server_pid.map_or("na".to_string(), |pid| std::fs::read_to_string(format!(
            "/proc/{pid}/limits"
        ))
        .ok()
        .and_then(|l| l
            .lines()
            .find(|l| l.starts_with("Max open files"))
            .map(|l| l.split_whitespace().nth(3).unwrap_or("?").to_string()))
        .unwrap_or_default()),
        opt(maps),
        std::fs::read_to_string("/proc/sys/vm/max_map_count")
            .unwrap_or_default()
            .trim()
    );
    println!(
        "hold: {live}/{clients} clients live ({} games) after {ramp_secs:.2}s, {open_now} connections open{}",
        live / 2,
        if ok { "" } else { " RAMP TIMED OUT" }
    );
    // Hold: keep polling so that any disconnect is noticed.
    struct Idle<'a>(&'a mut Players);
    impl Behaviour for Idle<'_> {
        fn on_connect(&mut self, _: usize, _: &mut Io) {}
        fn on_line(&mut self, id: usize, line: &str, _: &mut Io) {
            self.0.unexpected(id, line);
        }
        fn on_close(&mut self, id: usize, io: &mut Io) {
            self.0.on_close(id, io);
        }
        fn tick(&mut self, _: &Poll, _: &mut Io) -> bool {
            false
        }
    }
    run(
        &mut poll,
        &mut io,
        &mut Idle(&mut ramp.players),
        Instant::now() + Duration::from_secs(hold_secs),
    );
    let after_hold = server_pid.map(proc_status);
    let still_open = io.open();
    for c in io.conns.iter_mut() {
        *c = None;
    }
    let p = &ramp.players;
    let errors = p.errors.total() + (clients - live) as u64;
    let fmt = |v: Option<(Option<u64>, Option<u64>, Option<u64>)>, i: usize| {
        v.and_then(|t| [t.0, t.1, t.2][i])
            .map_or("na".to_string(), |x| x.to_string())
    };
    println!(
        "hold: server VmRSS before {} kB, with all live {} kB, after {hold_secs}s hold {} kB (VmHWM {} kB); threads {}; \
         {still_open} still open after hold; errors {errors} (invalid {}, unexpected {}, disconnects {}, connect {}, not live {})",
        fmt(before, 0),
        fmt(during, 0),
        fmt(after_hold, 0),
        fmt(after_hold, 1),
        fmt(during, 2),
        p.errors.invalid,
        p.errors.unexpected,
        p.errors.disconnects,
        p.errors.connect_failures,
        clients - live
    );
    println!(
        "RESULT mode=hold clients={clients} live={live} games={} ramp_secs={ramp_secs:.2} still_open={still_open} \
         fds={} maps={} rss_before_kb={} rss_kb={} rss_after_hold_kb={} hwm_kb={} threads={} errors={errors} invalid={} unexpected={} \
         disconnects={} connect_failures={} timed_out={}",
        live / 2,
        opt(fds),
        opt(maps),
        fmt(before, 0),
        fmt(during, 0),
        fmt(after_hold, 0),
        fmt(after_hold, 1),
        fmt(during, 2),
        p.errors.invalid,
        p.errors.unexpected,
        p.errors.disconnects,
        p.errors.connect_failures,
        !ok
    );
}
