//! Web board viewers (issue 20, WEB.md's performance figures).
//!
//! - `viewers`: one GO! game moving every 50 ms while V viewers follow its event
//!   stream; latency: the mover reads its ACKNOWLEDGE_MOVE -> a viewer has the state
//!   with that move, for every viewer and move.
//! - `watch`: V viewers spread over G slots for a while: the viewer of slot k follows
//!   game k to its end, then game k + G, and so on (each waits for its game to
//!   exist); run beside `games` to see what viewers cost the games.
//!
//! Plain threads and blocking sockets: a viewer is a thread reading its stream.

use crate::io::{latency_fields, new_histogram};
use parking_lot::Mutex;
use std::io::{BufRead, BufReader, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::thread;
use std::time::{Duration, Instant};

/// Time between the game's moves.
const PACE: Duration = Duration::from_millis(50);

/// How long anything may take before the run counts an error.
const PATIENCE: Duration = Duration::from_secs(20);

/// The `"moves":N` of a state or summary, if the line has one.
fn moves_of(data: &str) -> Option<u64> {
    let at = data.find("\"moves\":")? + "\"moves\":".len();
    let digits: String = data[at..]
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    digits.parse().ok()
}

/// Opens `path` as an event stream; `None` while it is not there (404) or on error.
fn open_stream(web: SocketAddr, path: &str) -> Option<BufReader<TcpStream>> {
    let mut stream = TcpStream::connect(web).ok()?;
    stream.set_read_timeout(Some(PATIENCE)).ok()?;
    write!(stream, "GET {path} HTTP/1.1\r\nHost: bench\r\n\r\n").ok()?;
    let mut reader = BufReader::new(stream);
    let mut line = String::new();
    reader.read_line(&mut line).ok()?;
    if !line.starts_with("HTTP/1.1 200") {
        return None;
    }
    loop {
        line.clear();
        reader.read_line(&mut line).ok()?;
        if line.trim_end().is_empty() {
            return Some(reader);
        }
    }
}

pub(crate) fn viewers(addr: SocketAddr, web: SocketAddr, count: usize, moves: u64) {
    let (mut black, mut black_in, mut white, mut white_in) = pair(addr);
    // Each viewer records when it saw each move (by its number).
    let seen: Arc<Mutex<Vec<Vec<Option<Instant>>>>> =
        Arc::new(Mutex::new(vec![vec![None; moves as usize + 1]; count]));
    let ready = Arc::new(AtomicU64::new(0));
    let mut threads = Vec::new();
    for viewer in 0..count {
        let (seen, ready) = (Arc::clone(&seen), Arc::clone(&ready));
        threads.push(thread::spawn(move || {
            let Some(mut stream) = open_stream(web, "/events/go/1") else {
                return false;
            };
            ready.fetch_add(1, Ordering::SeqCst);
            let mut line = String::new();
            loop {
                line.clear();
                match stream.read_line(&mut line) {
                    Ok(n) if n > 0 => {}
                    _ => return true,
                }
                let Some(data) = line.strip_prefix("data: ") else {
                    continue;
                };
                if let Some(n) = moves_of(data) {
                    let at = Instant::now();
                    if let Some(slot) = seen.lock()[viewer].get_mut(n as usize) {
                        slot.get_or_insert(at);
                    }
                    if n >= moves {
                        return true;
                    }
                }
            }
        }));
    }
    let deadline = Instant::now() + PATIENCE;
    while (ready.load(Ordering::SeqCst) as usize) < count && Instant::now() < deadline {
        thread::sleep(Duration::from_millis(10));
    }
    let mut acked = vec![None; moves as usize + 1];
    let mut errors = count - ready.load(Ordering::SeqCst) as usize;
    for turn in 0..moves {
        // Black on rows 0 to 8, white on rows 10 to 18 of 19x19: no captures.
        let (stream, reader, other, name, index) = if turn.is_multiple_of(2) {
            (&mut black, &mut black_in, &mut white_in, "vb", turn / 2)
        } else {
            (
                &mut white,
                &mut white_in,
                &mut black_in,
                "vw",
                190 + turn / 2,
            )
        };
        send(stream, &format!("MOVE+1+{name}+{index}"));
        let ack = recv(reader);
        acked[turn as usize + 1] = Some(Instant::now());
        if !ack.starts_with(&format!("ACKNOWLEDGE_MOVE+1+{index};")) || recv(other) != ack {
            errors += 1;
            break;
        }
        thread::sleep(PACE);
    }
    // Let the viewers see the last state, then end the game (their streams stay
    // open: a finished game's stream does), and close them.
    thread::sleep(Duration::from_millis(500));
    send(&mut black, "EXIT+1+vb");
    drop((black, white));
    let mut latency = new_histogram();
    let seen = seen.lock().clone();
    for viewer in &seen {
        for (n, at) in acked.iter().enumerate().skip(1) {
            match (at, viewer.get(n).copied().flatten()) {
                (Some(acked), Some(seen)) => {
                    let us = seen.saturating_duration_since(*acked).as_micros().max(1);
                    latency.saturating_record(u64::try_from(us).unwrap_or(u64::MAX));
                }
                (Some(_), None) => errors += 1,
                _ => {}
            }
        }
    }
    for thread in threads {
        let _ = thread.join();
    }
    println!(
        "RESULT mode=viewers viewers={count} moves={moves} {} errors={errors}",
        latency_fields(&latency)
    );
}

pub(crate) fn watch(web: SocketAddr, count: usize, games: u32, seconds: u64) {
    let stop = Arc::new(AtomicBool::new(false));
    let events = Arc::new(AtomicU64::new(0));
    let connected = Arc::new(AtomicU64::new(0));
    let threads: Vec<_> = (0..count)
        .map(|viewer| {
            let (stop, events, connected) = (
                Arc::clone(&stop),
                Arc::clone(&events),
                Arc::clone(&connected),
            );
            // A slot of its own: games k, k + G, k + 2G, ..., each followed to its end,
            // so that the viewers stay on live games however many waves the run plays.
            let slots = games.max(1);
            let mut game = viewer as u32 % slots + 1;
            thread::spawn(move || {
                // Until its game exists, a viewer asks again after a pause that doubles
                // up to half a second: a browser's page does not reconnect faster, and
                // 100 viewers asking 20 times a second would measure the cost of
                // refused requests rather than of watching.
                let mut pause = Duration::from_millis(50);
                while !stop.load(Ordering::SeqCst) {
                    let Some(mut stream) = open_stream(web, &format!("/events/go/{game}")) else {
                        thread::sleep(pause);
                        pause = (pause * 2).min(Duration::from_millis(500));
                        continue;
                    };
                    pause = Duration::from_millis(50);
                    connected.fetch_add(1, Ordering::SeqCst);
                    let _ = stream
                        .get_ref()
                        .set_read_timeout(Some(Duration::from_millis(200)));
                    let mut line = String::new();
                    while !stop.load(Ordering::SeqCst) {
                        line.clear();
                        match stream.read_line(&mut line) {
                            Ok(0) => break,
                            Ok(_) if line.starts_with("event: ") => {
                                events.fetch_add(1, Ordering::Relaxed);
                            }
                            Ok(_) if line.contains("\"status\":\"finished\"") => break,
                            _ => {}
                        }
                    }
                    game += slots;
                }
            })
        })
        .collect();
    thread::sleep(Duration::from_secs(seconds));
    stop.store(true, Ordering::SeqCst);
    for thread in threads {
        let _ = thread.join();
    }
    println!(
        "RESULT mode=watch viewers={count} connected={} events={}",
        connected.load(Ordering::SeqCst),
        events.load(Ordering::SeqCst)
    );
}

type Pair = (
    TcpStream,
    BufReader<TcpStream>,
    TcpStream,
    BufReader<TcpStream>,
);

/// Two clients in GO! game 1 on 19x19, black the leader (`vb`, `vw`).
fn pair(addr: SocketAddr) -> Pair {
    let connect = || {
        let stream = TcpStream::connect(addr).expect("connect");
        stream.set_nodelay(true).expect("nodelay");
        stream.set_read_timeout(Some(PATIENCE)).expect("timeout");
        let reader = BufReader::new(stream.try_clone().expect("clone"));
        (stream, reader)
    };
    let (mut b, mut b_in) = connect();
    send(&mut b, "HANDSHAKE+vb");
    assert_eq!(recv(&mut b_in), "ACKNOWLEDGE_HANDSHAKE+1+1");
    recv(&mut b_in);
    send(&mut b, "SET_CONFIG+1+1+19");
    let (mut w, mut w_in) = connect();
    send(&mut w, "HANDSHAKE+vw");
    assert_eq!(recv(&mut w_in), "ACKNOWLEDGE_HANDSHAKE+1+0");
    assert!(recv(&mut b_in).starts_with("ACKNOWLEDGE_CONFIG"));
    assert!(recv(&mut w_in).starts_with("ACKNOWLEDGE_CONFIG"));
    (b, b_in, w, w_in)
}

fn send(stream: &mut TcpStream, line: &str) {
    let _ = stream.write_all(format!("{line}\n").as_bytes());
}

fn recv(reader: &mut BufReader<TcpStream>) -> String {
    let mut line = String::new();
    let _ = reader.read_line(&mut line);
    line.trim_end().to_string()
}

#[cfg(test)]
mod tests {
    use super::moves_of;

    #[test]
    fn the_move_count_of_a_state() {
        assert_eq!(
            moves_of(r#"{"front":"go","id":1,"moves":12,"turn":"x"}"#),
            Some(12)
        );
        assert_eq!(moves_of(r#"{"front":"go"}"#), None);
    }
}
