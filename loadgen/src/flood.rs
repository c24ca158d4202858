//! `flood`: clients that send valid lines as fast as TCP lets them, for a while, in one
//! front end of a running goserver, while a neighbour plays; measures the neighbour's
//! latency and the server's memory (issue 18).
//!
//! - `bkgo`: six members of the room; three watchers flood `Message:`; black and
//!   white alternate `Place:` every 50 ms (a fresh `NewBoard` when the pattern is
//!   played out). Latency: a `Place:` sent -> every member has it.
//! - `spectrangle`: a table of three with chat on; two players flood `CHAT`; the
//!   game is played (a new one after each SCORE). Latency: the neighbour's move sent
//!   -> its `UPDATE`.
//! - `go`: eight games whose players answer each other at once (valid lines at full
//!   speed) and two clients sending refused lines (paced); a neighbour game moves
//!   every 50 ms. Latency: a neighbour's MOVE -> its ACKNOWLEDGE_MOVE.
//!
//! Plain threads, blocking sockets: a flooder's writes block when the server stops
//! reading, which is the brake being measured. The server's resident memory is read
//! from `/proc/<pid>/status` every 200 ms.

use crate::hold::proc_status;
use crate::io::{latency_fields, new_histogram};
use crate::spectrangle_referee::Referee;
use hdrhistogram::Histogram;
use parking_lot::Mutex;
use std::io::{BufRead, BufReader, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

/// Which front end to flood.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum Front {
    Go,
    Spectrangle,
    Bkgo,
}

/// How long a line may take before the run counts an error and gives up waiting.
const PATIENCE: Duration = Duration::from_secs(20);

/// Time between the neighbour's moves.
const NEIGHBOUR_PACE: Duration = Duration::from_millis(50);

/// What a run found.
struct Outcome {
    flood_lines: u64,
    latency: Histogram<u64>,
    errors: u64,
}

pub(crate) fn flood(front: Front, addr: SocketAddr, seconds: u64, server_pid: Option<u32>) {
    let stop = Arc::new(AtomicBool::new(false));
    let memory = server_pid.map(|pid| Memory::watch(pid, Arc::clone(&stop)));
    let started = Instant::now();
    let length = Duration::from_secs(seconds);
    let outcome = match front {
        Front::Bkgo => bkgo(addr, length, &stop),
        Front::Spectrangle => spectrangle(addr, length, &stop),
        Front::Go => go(addr, length, &stop),
    };
    let elapsed = started.elapsed().as_secs_f64();
    stop.store(true, Ordering::SeqCst);
    let (rss_start, rss_max, rss_end) = memory.map_or((0, 0, 0), Memory::finish);
    let per_s = outcome.flood_lines as f64 / elapsed.max(0.001);
    println!(
        "RESULT mode=flood front={front:?} flood_lines={} flood_per_s={per_s:.0} {} rss_start_kb={rss_start} rss_max_kb={rss_max} rss_end_kb={rss_end} errors={}",
        outcome.flood_lines,
        latency_fields(&outcome.latency),
        outcome.errors
    );
}

/// Samples the server's resident memory until stopped.
struct Memory {
    start: u64,
    max: Arc<AtomicU64>,
    pid: u32,
    thread: JoinHandle<()>,
}

impl Memory {
    fn watch(pid: u32, stop: Arc<AtomicBool>) -> Memory {
        let start = proc_status(pid).0.unwrap_or(0);
        let max = Arc::new(AtomicU64::new(start));
        let seen = Arc::clone(&max);
        let thread = thread::spawn(move || {
            while !stop.load(Ordering::SeqCst) {
                if let Some(rss) = proc_status(pid).0 {
                    seen.fetch_max(rss, Ordering::Relaxed);
                }
                thread::sleep(Duration::from_millis(200));
            }
        });
        Memory {
            start,
            max,
            pid,
            thread,
        }
    }

    /// RSS at the start, the highest seen, and now, in KiB.
    fn finish(self) -> (u64, u64, u64) {
        let _ = self.thread.join();
        let end = proc_status(self.pid).0.unwrap_or(0);
        (self.start, self.max.load(Ordering::Relaxed).max(end), end)
    }
}

/// Where a reader sends a line it read.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Route {
    /// Nowhere: a flood line, only read.
    Skip,
    /// To [`Reader::lines`].
    Lines,
    /// To [`Reader::probes`].
    Probes,
}

/// A connection whose lines a thread reads: each goes where `route` says, with the
/// time it arrived.
struct Reader {
    lines: crossbeam_channel::Receiver<(Instant, String)>,
    probes: crossbeam_channel::Receiver<(Instant, String)>,
    thread: Option<JoinHandle<()>>,
    stream: TcpStream,
}

impl Reader {
    /// A reader that keeps the lines `wanted` accepts.
    fn start(stream: &TcpStream, wanted: fn(&str) -> bool) -> Reader {
        Reader::routing(stream, move |line| {
            if wanted(line) {
                Route::Lines
            } else {
                Route::Skip
            }
        })
    }

    fn routing(stream: &TcpStream, route: impl Fn(&str) -> Route + Send + 'static) -> Reader {
        let (found, lines) = crossbeam_channel::unbounded();
        let (probe, probes) = crossbeam_channel::unbounded();
        let reading = stream.try_clone().expect("clone");
        let thread = thread::spawn(move || {
            let mut reader = BufReader::with_capacity(64 * 1024, reading);
            let mut line = String::new();
            while matches!(reader.read_line(&mut line), Ok(n) if n > 0) {
                let text = line.trim_end_matches(['\r', '\n']);
                let to = match route(text) {
                    Route::Skip => None,
                    Route::Lines => Some(&found),
                    Route::Probes => Some(&probe),
                };
                if let Some(to) = to {
                    let _ = to.send((Instant::now(), text.to_string()));
                }
                line.clear();
            }
        });
        Reader {
            lines,
            probes,
            thread: Some(thread),
            stream: stream.try_clone().expect("clone"),
        }
    }

    /// The next wanted line that `accept` takes, skipping the others, within PATIENCE.
    fn until(&self, accept: impl Fn(&str) -> bool) -> Option<(Instant, String)> {
        let deadline = Instant::now() + PATIENCE;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let (at, line) = self.lines.recv_timeout(left).ok()?;
            if accept(&line) {
                return Some((at, line));
            }
        }
    }
}

impl Drop for Reader {
    fn drop(&mut self) {
        let _ = self.stream.shutdown(std::net::Shutdown::Both);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// Writes numbered lines into a shared socket as fast as TCP takes them, until
/// stopped; returns how many. The socket's own send buffer is made small: the lines
/// it holds are ahead of anything else its client sends (a move), and a real client's
/// would not be megabytes of chat.
fn flooder(
    stream: Arc<Mutex<TcpStream>>,
    stop: Arc<AtomicBool>,
    line: impl Fn(u64) -> String + Send + 'static,
) -> JoinHandle<u64> {
    small_send_buffer(&stream.lock());
    thread::spawn(move || {
        let mut sent = 0;
        while !stop.load(Ordering::SeqCst) {
            let mut batch = String::new();
            for n in sent..sent + 32 {
                batch.push_str(&line(n));
                batch.push('\n');
            }
            if stream.lock().write_all(batch.as_bytes()).is_err() {
                break;
            }
            sent += 32;
        }
        sent
    })
}

/// Asks for a 16 KiB send buffer on `stream`.
fn small_send_buffer(stream: &TcpStream) {
    use std::os::fd::AsRawFd;
    let size: libc::c_int = 16 * 1024;
    // SAFETY: a valid socket descriptor and a c_int option value of the size given.
    unsafe {
        libc::setsockopt(
            stream.as_raw_fd(),
            libc::SOL_SOCKET,
            libc::SO_SNDBUF,
            std::ptr::from_ref(&size).cast(),
            std::mem::size_of::<libc::c_int>() as libc::socklen_t,
        );
    }
}

/// A blocking client with a line reader and a write timeout.
fn connect(addr: SocketAddr) -> (TcpStream, BufReader<TcpStream>) {
    let stream = TcpStream::connect(addr).expect("connect");
    stream.set_nodelay(true).expect("nodelay");
    stream.set_read_timeout(Some(PATIENCE)).expect("timeout");
    let reader = BufReader::new(stream.try_clone().expect("clone"));
    (stream, reader)
}

fn send(stream: &mut TcpStream, line: &str) {
    stream
        .write_all(format!("{line}\n").as_bytes())
        .expect("send");
}

fn recv(reader: &mut BufReader<TcpStream>) -> String {
    let mut line = String::new();
    match reader.read_line(&mut line) {
        Ok(n) if n > 0 => line.trim_end_matches(['\r', '\n']).to_string(),
        _ => panic!("no line within {PATIENCE:?}"),
    }
}

// ----- Bkgo -----

fn bkgo(addr: SocketAddr, length: Duration, stop: &Arc<AtomicBool>) -> Outcome {
    let names = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay"];
    let mut streams = Vec::new();
    let mut readers = Vec::new();
    for name in names {
        let (mut stream, mut reader) = connect(addr);
        assert_eq!(recv(&mut reader), "BKGO-Server-version-0.6");
        send(&mut stream, "BKGO-Client-version-loadgen");
        assert_eq!(recv(&mut reader), "OK");
        send(&mut stream, "join");
        assert_eq!(recv(&mut reader), "GimmeGoPlayer");
        send(&mut stream, &format!("Player: {name}"));
        while recv(&mut reader) != "EOF" {}
        readers.push(Reader::start(&stream, |line| line.starts_with("Place: ")));
        streams.push(stream);
    }
    let flooding = Arc::new(AtomicBool::new(false));
    let flooders: Vec<JoinHandle<u64>> = streams[2..5]
        .iter()
        .map(|s| {
            let shared = Arc::new(Mutex::new(s.try_clone().expect("clone")));
            flooder(shared, Arc::clone(&flooding), |n| {
                format!("Message: flood {n}")
            })
        })
        .collect();
    let mut latency = new_histogram();
    let mut errors = 0;
    let started = Instant::now();
    let mut moves = 0usize;
    while started.elapsed() < length && !stop.load(Ordering::SeqCst) {
        // Black on the even rows 0 to 8, white on the even rows 10 to 18: nothing is
        // captured; 190 moves, then a new board.
        if moves == 190 {
            send(&mut streams[0], "NewBoard");
            moves = 0;
        }
        let (mover, step) = (moves % 2, moves / 2);
        let row = 2 * (step / 19) + 10 * mover;
        let place = format!("Place: {}, {row}", step % 19);
        let sent = Instant::now();
        send(&mut streams[mover], &place);
        let mut slowest = sent;
        for reader in &readers {
            match reader.until(|line| line == place) {
                Some((at, _)) => slowest = slowest.max(at),
                None => errors += 1,
            }
        }
        let us = slowest.duration_since(sent).as_micros().max(1) as u64;
        latency.saturating_record(us);
        moves += 1;
        thread::sleep(NEIGHBOUR_PACE);
    }
    flooding.store(true, Ordering::SeqCst);
    let flood_lines = flooders.into_iter().map(|f| f.join().unwrap_or(0)).sum();
    Outcome {
        flood_lines,
        latency,
        errors,
    }
}

// ----- Spectrangle -----

fn spectrangle(addr: SocketAddr, length: Duration, stop: &Arc<AtomicBool>) -> Outcome {
    let names = ["Ann", "Bob", "Cat"];
    let mut writers = Vec::new();
    let mut readers = Vec::new();
    for name in names {
        let (mut stream, _) = connect(addr);
        send(&mut stream, "ENABLE_EXTENSION chat");
        // Game lines to the referee; Ann's own chat lines (her probes) apart.
        readers.push(Reader::routing(&stream, |line| {
            if line.starts_with("CHAT_MESSAGE Ann ") {
                Route::Probes
            } else if line.starts_with("CHAT_MESSAGE ") || line.starts_with("LOBBY ") {
                Route::Skip
            } else {
                Route::Lines
            }
        }));
        send(&mut stream, &format!("JOIN {name}"));
        writers.push(Arc::new(Mutex::new(stream)));
    }
    // The flooders' own moves wait behind their own chat, in order: the game is slow.
    // Ann, the neighbour, also chats now and then: each of her lines is a probe of
    // how long the table takes to answer her while the others flood.
    let probing = Arc::new(AtomicBool::new(false));
    let prober = {
        let (ann, probing) = (Arc::clone(&writers[0]), Arc::clone(&probing));
        let echoes = readers[0].probes.clone();
        thread::spawn(move || {
            let mut latency = new_histogram();
            let mut errors = 0;
            let mut n = 0;
            while !probing.load(Ordering::SeqCst) {
                let text = base64_of(&format!("probe {n}"));
                let sent = Instant::now();
                let _ = ann.lock().write_all(format!("CHAT {text}\n").as_bytes());
                let echo = format!("CHAT_MESSAGE Ann {text}");
                match echoes.recv_timeout(PATIENCE) {
                    Ok((at, line)) if line == echo => {
                        latency
                            .saturating_record(at.duration_since(sent).as_micros().max(1) as u64);
                    }
                    other => {
                        eprintln!("spectrangle flood: probe {n}: expected {echo:?}, got {other:?}");
                        errors += 1;
                    }
                }
                n += 1;
                thread::sleep(NEIGHBOUR_PACE);
            }
            (latency, errors)
        })
    };
    let flooding = Arc::new(AtomicBool::new(false));
    let flooders: Vec<JoinHandle<u64>> = writers[1..]
        .iter()
        .map(|w| {
            flooder(Arc::clone(w), Arc::clone(&flooding), |n| {
                format!("CHAT {}", base64_of(&format!("flood {n}")))
            })
        })
        .collect();
    let mut latency = new_histogram();
    let mut errors = 0;
    let started = Instant::now();
    'games: while started.elapsed() < length && !stop.load(Ordering::SeqCst) {
        for writer in &writers {
            let _ = writer.lock().write_all(b"READY\n");
        }
        let mut seen: Vec<String> = Vec::new();
        let mut next = || {
            let line = readers[0].until(|_| true).map(|(_, line)| line);
            if let Some(line) = &line {
                seen.push(line.clone());
            }
            line
        };
        let Some(mut referee) = Referee::start(&mut next, &names) else {
            eprintln!(
                "spectrangle flood: the game's START and TILE lines were not as expected: {seen:?}"
            );
            errors += 1;
            break;
        };
        while !referee.is_over() {
            if started.elapsed() >= length {
                break 'games;
            }
            let mover = referee.to_move().to_string();
            let index = names.iter().position(|n| *n == mover).unwrap_or(0);
            let (command, update) = referee.choose();
            let sent = Instant::now();
            let _ = writers[index]
                .lock()
                .write_all(format!("{command}\n").as_bytes());
            match referee.follow_turn(&mut next) {
                Some(line) if line == update => {
                    if mover == "Ann" {
                        latency.saturating_record(sent.elapsed().as_micros().max(1) as u64);
                    }
                }
                other => {
                    eprintln!(
                        "spectrangle flood: after {mover}'s {command:?} expected {update:?}, got {other:?}"
                    );
                    errors += 1;
                    break 'games;
                }
            }
            thread::sleep(NEIGHBOUR_PACE);
        }
        // SCORE: every player is free; they join again.
        let score = next();
        if score
            .as_ref()
            .is_none_or(|line| !line.starts_with("SCORE "))
        {
            eprintln!("spectrangle flood: expected SCORE at the end of a game, got {score:?}");
            errors += 1;
            break;
        }
        for (writer, name) in writers.iter().zip(names) {
            let _ = writer.lock().write_all(format!("JOIN {name}\n").as_bytes());
        }
    }
    flooding.store(true, Ordering::SeqCst);
    probing.store(true, Ordering::SeqCst);
    let flood_lines = flooders.into_iter().map(|f| f.join().unwrap_or(0)).sum();
    if let Ok((probes, probe_errors)) = prober.join() {
        let _ = latency.add(&probes);
        errors += probe_errors;
    }
    Outcome {
        flood_lines,
        latency,
        errors,
    }
}

/// Standard base64 (the chat extension's), without a crate for twenty lines.
fn base64_of(text: &str) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let bytes = text.as_bytes();
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ALPHABET[((n >> (18 - 6 * i)) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

// ----- GO! -----

fn go(addr: SocketAddr, length: Duration, stop: &Arc<AtomicBool>) -> Outcome {
    let playing = Arc::new(AtomicBool::new(false));
    let flood_lines = Arc::new(AtomicU64::new(0));
    let mut fast = Vec::new();
    // The neighbour's game first: it is game 1.
    let (mut ann, mut ann_in, mut bob, mut bob_in) = go_pair(addr, 1, 9, "nAnn", "nBob");
    for game in 2..10 {
        let (black, black_in, white, white_in) =
            go_pair(addr, game, 19, &format!("f{game}b"), &format!("f{game}w"));
        for (stream, reader, colour) in [(black, black_in, 1), (white, white_in, 2)] {
            let (playing, count) = (Arc::clone(&playing), Arc::clone(&flood_lines));
            fast.push(thread::spawn(move || {
                fast_player(stream, reader, game, colour, &playing, &count)
            }));
        }
    }
    // Two clients in no game send lines that are refused: after 20 in a row each is
    // paced to about 100 a second, so a flood of them is mostly waiting in their own
    // sockets; each sends what 30 s of pacing answers, and is closed at the end.
    let refused: Vec<(TcpStream, Reader)> = (0..2)
        .map(|_| {
            let (mut stream, _) = connect(addr);
            let reader = Reader::start(&stream, |_| false);
            let lines: String = (0..3000).map(|n| format!("MOVE+1+nobody+{n}\n")).collect();
            let mut writer = stream.try_clone().expect("clone");
            thread::spawn(move || writer.write_all(lines.as_bytes()));
            stream.flush().expect("flush");
            (stream, reader)
        })
        .collect();
    let mut latency = new_histogram();
    let mut errors = 0;
    let started = Instant::now();
    let mut turn = 0usize;
    while started.elapsed() < length && !stop.load(Ordering::SeqCst) {
        // Ann on rows 0 to 3, Bob on rows 5 to 8 of 9x9; two passes and a rematch
        // when that is played out.
        if turn == 72 {
            send(&mut ann, "PASS+1+nAnn");
            while !recv(&mut bob_in).starts_with("ACKNOWLEDGE_MOVE+1+-1;1") {}
            send(&mut bob, "PASS+1+nBob");
            for (stream, reader) in [(&mut ann, &mut ann_in), (&mut bob, &mut bob_in)] {
                while recv(reader) != "REQUEST_REMATCH" {}
                send(stream, "SET_REMATCH+1");
            }
            while !recv(&mut ann_in).starts_with("ACKNOWLEDGE_CONFIG") {}
            while !recv(&mut bob_in).starts_with("ACKNOWLEDGE_CONFIG") {}
            turn = 0;
        }
        let (stream, reader, other, name, index) = if turn.is_multiple_of(2) {
            (&mut ann, &mut ann_in, &mut bob_in, "nAnn", turn / 2)
        } else {
            (&mut bob, &mut bob_in, &mut ann_in, "nBob", 45 + turn / 2)
        };
        let sent = Instant::now();
        send(stream, &format!("MOVE+1+{name}+{index}"));
        let ack = recv(reader);
        latency.saturating_record(sent.elapsed().as_micros().max(1) as u64);
        if !ack.starts_with(&format!("ACKNOWLEDGE_MOVE+1+{index};")) || recv(other) != ack {
            errors += 1;
            break;
        }
        turn += 1;
        thread::sleep(NEIGHBOUR_PACE);
    }
    playing.store(true, Ordering::SeqCst);
    for player in fast {
        if !player.join().unwrap_or(false) {
            errors += 1;
        }
    }
    for (stream, reader) in refused {
        let _ = stream.shutdown(std::net::Shutdown::Both);
        drop(reader);
    }
    Outcome {
        flood_lines: flood_lines.load(Ordering::Relaxed),
        latency,
        errors,
    }
}

type Pair = (
    TcpStream,
    BufReader<TcpStream>,
    TcpStream,
    BufReader<TcpStream>,
);

/// Two clients in game `game` (`size`x`size`), black the leader.
fn go_pair(addr: SocketAddr, game: u32, size: usize, black: &str, white: &str) -> Pair {
    let (mut b, mut b_in) = connect(addr);
    send(&mut b, &format!("HANDSHAKE+{black}"));
    assert_eq!(recv(&mut b_in), format!("ACKNOWLEDGE_HANDSHAKE+{game}+1"));
    recv(&mut b_in);
    send(&mut b, &format!("SET_CONFIG+{game}+1+{size}"));
    let (mut w, mut w_in) = connect(addr);
    send(&mut w, &format!("HANDSHAKE+{white}"));
    assert_eq!(recv(&mut w_in), format!("ACKNOWLEDGE_HANDSHAKE+{game}+0"));
    assert!(recv(&mut b_in).starts_with("ACKNOWLEDGE_CONFIG"));
    assert!(recv(&mut w_in).starts_with("ACKNOWLEDGE_CONFIG"));
    (b, b_in, w, w_in)
}

/// A player that answers each of its turns at once (black rows 0 to 8, white rows 10
/// to 18 of 19x19, then passes; a rematch after each game) until `stop`, when it
/// exits at its turn. Returns whether every line was one it expected.
fn fast_player(
    mut stream: TcpStream,
    mut reader: BufReader<TcpStream>,
    game: u32,
    colour: u8,
    stop: &AtomicBool,
    count: &AtomicU64,
) -> bool {
    let name = format!("f{game}{}", if colour == 1 { 'b' } else { 'w' });
    let first_row = if colour == 1 { 0 } else { 10 };
    let (mut next, mut to_move) = (0, 1);
    loop {
        if to_move == colour {
            if stop.load(Ordering::SeqCst) {
                send(&mut stream, &format!("EXIT+{game}+{name}"));
                return true;
            }
            let index = if next < 171 {
                first_row * 19 + next
            } else {
                -1
            };
            send(&mut stream, &format!("MOVE+{game}+{name}+{index}"));
            count.fetch_add(1, Ordering::Relaxed);
            next += 1;
        }
        let mut line = String::new();
        if !matches!(reader.read_line(&mut line), Ok(n) if n > 0) {
            return false;
        }
        if line.starts_with(&format!("GAME_FINISHED+{game}+")) {
            return line.contains(" exited: ");
        }
        if !line.starts_with(&format!("ACKNOWLEDGE_MOVE+{game}+")) {
            return false;
        }
        to_move = 3 - to_move;
        if line.contains("+FINISHED;") {
            for expected in ["GAME_FINISHED", "REQUEST_REMATCH"] {
                if !recv(&mut reader).starts_with(expected) {
                    return false;
                }
            }
            send(&mut stream, "SET_REMATCH+1");
            for expected in ["ACKNOWLEDGE_REMATCH+1", "ACKNOWLEDGE_CONFIG"] {
                if !recv(&mut reader).starts_with(expected) {
                    return false;
                }
            }
            (next, to_move) = (0, 1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::base64_of;

    #[test]
    fn base64_as_the_chat_extension_spells_it() {
        assert_eq!(base64_of("flood 17"), "Zmxvb2QgMTc=");
        assert_eq!(base64_of("a"), "YQ==");
        assert_eq!(base64_of("abc"), "YWJj");
    }
}
