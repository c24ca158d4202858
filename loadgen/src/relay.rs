//! `relay`: the second floor, the skeleton of goserver's own design with nothing else
//! in it. A reader thread per connection hands each line over a crossbeam channel to
//! one relay thread per pair of connections, which writes the answer to both, the
//! sender first (as a game loop sends ACKNOWLEDGE_MOVE to both players). The same
//! hops as the server, none of its work (no parsing, rules, locks per line or
//! logging): what this design costs on this machine. Driven by the paired ping-pong
//! of floor.rs.

use crate::floor::{self, Answer, Floor, FloorArgs};
use crossbeam_channel::{Receiver, Sender, unbounded};
use parking_lot::Mutex;
use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::Arc;

/// goserver's connection threads' stack size.
const READER_STACK_BYTES: usize = 128 * 1024;
/// goserver's game loop threads' stack size.
const RELAY_STACK_BYTES: usize = 256 * 1024;

/// The `relay` mode: starts the relay server and drives it.
pub(crate) fn relay(args: &FloorArgs) {
    let addr = relay_server(args.reply());
    let floor = Floor {
        mode: "relay",
        answer: Answer::ToBoth,
        announce_pair: true,
    };
    floor::drive(floor, addr, args);
}

/// A line handed from a reader to its pair's relay thread.
struct Line {
    /// Which connection of the pair sent it: 0 joined first, 1 second.
    seat: usize,
    bytes: Vec<u8>,
}

/// A pair whose first connection has arrived and whose relay thread is not running
/// yet: the relay's inbox and the first connection's writing half.
struct Waiting {
    inbox: Sender<Line>,
    lines: Receiver<Line>,
    first: TcpStream,
}

/// Pairs waiting for their second connection, by pair number. Taken once per
/// connection, never per line (like goserver's lobby at HANDSHAKE).
type Lobby = Mutex<HashMap<u64, Waiting>>;

/// The relay server: answers each line with `reply` (or the line itself when `None`)
/// to both connections of its pair. A connection's first line is its pair's number.
fn relay_server(reply: Option<Vec<u8>>) -> SocketAddr {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind relay server");
    let addr = listener.local_addr().expect("relay address");
    let lobby: Arc<Lobby> = Arc::default();
    std::thread::Builder::new()
        .name("relay-accept".into())
        .spawn(move || {
            for stream in listener.incoming() {
                let Ok(stream) = stream else { continue };
                let _ = stream.set_nodelay(true);
                let lobby = Arc::clone(&lobby);
                let reply = reply.clone();
                let _ = std::thread::Builder::new()
                    .name("relay-conn".into())
                    .stack_size(READER_STACK_BYTES)
                    .spawn(move || read_lines(stream, &lobby, reply));
            }
        })
        .expect("spawn relay accept");
    addr
}

/// One connection's reader: joins its pair on the first line, then hands every
/// further line to the pair's relay thread.
fn read_lines(stream: TcpStream, lobby: &Lobby, reply: Option<Vec<u8>>) {
    let Ok(writer) = stream.try_clone() else {
        return;
    };
    let mut reader = BufReader::new(stream);
    let mut line = Vec::with_capacity(128);
    let Ok(n) = reader.read_until(b'\n', &mut line) else {
        return;
    };
    let Some(pair) = std::str::from_utf8(&line[..n])
        .ok()
        .and_then(|text| text.trim().parse().ok())
    else {
        return;
    };
    let (seat, inbox) = join(lobby, pair, writer, reply);
    loop {
        let mut bytes = Vec::with_capacity(128);
        match reader.read_until(b'\n', &mut bytes) {
            Ok(0) | Err(_) => return,
            Ok(_) => {
                if inbox.send(Line { seat, bytes }).is_err() {
                    return;
                }
            }
        }
    }
}

/// Seats a connection in its pair: the first waits in the lobby, the second starts
/// the pair's relay thread. Returns the seat and the relay's inbox.
fn join(
    lobby: &Lobby,
    pair: u64,
    writer: TcpStream,
    reply: Option<Vec<u8>>,
) -> (usize, Sender<Line>) {
    let mut waiting = lobby.lock();
    let Some(first) = waiting.remove(&pair) else {
        let (inbox, lines) = unbounded();
        waiting.insert(
            pair,
            Waiting {
                inbox: inbox.clone(),
                lines,
                first: writer,
            },
        );
        return (0, inbox);
    };
    drop(waiting);
    let Waiting {
        inbox,
        lines,
        first,
    } = first;
    let _ = std::thread::Builder::new()
        .name(format!("relay-{pair}"))
        .stack_size(RELAY_STACK_BYTES)
        .spawn(move || relay_lines(&lines, [first, writer], reply));
    (1, inbox)
}

/// The relay thread: every line's answer to both seats, the sender first. Ends when
/// both readers have gone (or a write fails).
fn relay_lines(lines: &Receiver<Line>, mut seats: [TcpStream; 2], reply: Option<Vec<u8>>) {
    for Line { seat, bytes } in lines {
        let answer = reply.as_deref().unwrap_or(&bytes);
        for to in [seat, 1 - seat] {
            if seats[to].write_all(answer).is_err() {
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::relay_server;
    use std::io::{BufRead, BufReader, Write};
    use std::net::TcpStream;

    fn read_line(reader: &mut BufReader<TcpStream>) -> String {
        let mut line = String::new();
        reader.read_line(&mut line).unwrap();
        line
    }

    #[test]
    fn each_line_is_answered_to_both_connections_of_its_pair_only() {
        let addr = relay_server(None);
        let connect = || {
            let stream = TcpStream::connect(addr).unwrap();
            let reader = BufReader::new(stream.try_clone().unwrap());
            (stream, reader)
        };
        let (mut a, mut a_in) = connect();
        let (mut b, mut b_in) = connect();
        let (mut c, mut c_in) = connect();
        let (mut d, mut d_in) = connect();
        // Pairs 7 (a, b) and 8 (c, d), joined in crossed order.
        a.write_all(b"7\n").unwrap();
        c.write_all(b"8\n").unwrap();
        d.write_all(b"8\n").unwrap();
        b.write_all(b"7\n").unwrap();
        a.write_all(b"MOVE+1\n").unwrap();
        d.write_all(b"MOVE+2\n").unwrap();
        assert_eq!(read_line(&mut a_in), "MOVE+1\n");
        assert_eq!(read_line(&mut b_in), "MOVE+1\n");
        assert_eq!(read_line(&mut d_in), "MOVE+2\n");
        assert_eq!(read_line(&mut c_in), "MOVE+2\n");
        b.write_all(b"MOVE+3\n").unwrap();
        assert_eq!(read_line(&mut b_in), "MOVE+3\n");
        assert_eq!(read_line(&mut a_in), "MOVE+3\n");
        c.write_all(b"MOVE+4\n").unwrap();
        assert_eq!(read_line(&mut c_in), "MOVE+4\n");
        assert_eq!(read_line(&mut d_in), "MOVE+4\n");
    }
}
