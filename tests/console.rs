//! The operator console in piped mode, against the real binary: commands written to
//! its stdin, answers read from its stdout, while two TCP clients play a game.

use std::io::{BufRead, BufReader, Write};
use std::net::TcpStream;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::thread;
use std::time::{Duration, Instant};

/// Generous: the machine may be slow. No test waits this long when all is well.
const WAIT: Duration = Duration::from_secs(30);

/// Lines of a child's output stream, read on a thread.
fn lines_of(stream: impl std::io::Read + Send + 'static) -> Receiver<String> {
    let (sender, receiver) = channel();
    thread::spawn(move || {
        for line in BufReader::new(stream).lines() {
            let Ok(line) = line else { break };
            if sender.send(line).is_err() {
                break;
            }
        }
    });
    receiver
}

/// The port of a `listening on 127.0.0.1:<port> (<protocol>)` line.
fn port_of(line: &str) -> u16 {
    let port = line.rsplit(':').next().expect("a port");
    let digits: String = port.chars().take_while(char::is_ascii_digit).collect();
    digits.parse().expect("a port number")
}

/// The server started with the console on a pipe.
struct Server {
    child: Child,
    stdin: Option<ChildStdin>,
    stdout: Receiver<String>,
    stderr: Receiver<String>,
    port: u16,
    spectrangle_port: u16,
}

impl Server {
    fn start() -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_goserver"))
            .args(["--port", "0", "--log-level", "info", "--host", "127.0.0.1"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start goserver");
        let stdin = child.stdin.take();
        let stdout = lines_of(child.stdout.take().expect("stdout"));
        let stderr = lines_of(child.stderr.take().expect("stderr"));
        let mut server = Server {
            child,
            stdin,
            stdout,
            stderr,
            port: 0,
            spectrangle_port: 0,
        };
        let line = server.stderr_until(|l| l.contains("listening on "));
        server.port = port_of(&line);
        let line = server.stderr_until(|l| l.contains("(Spectrangle)"));
        server.spectrangle_port = port_of(&line);
        server
    }

    /// Writes one console line and returns the next `n` lines of stdout.
    fn ask(&mut self, command: &str, n: usize) -> Vec<String> {
        let stdin = self.stdin.as_mut().expect("console input open");
        writeln!(stdin, "{command}").expect("write a console line");
        stdin.flush().expect("flush the console");
        (0..n)
            .map(|i| {
                self.stdout
                    .recv_timeout(WAIT)
                    .unwrap_or_else(|_| panic!("answer line {i} to {command:?} did not come"))
            })
            .collect()
    }

    fn ask_one(&mut self, command: &str) -> String {
        self.ask(command, 1).remove(0)
    }

    /// Reads stderr until a line matches.
    fn stderr_until(&mut self, wanted: impl Fn(&str) -> bool) -> String {
        let deadline = Instant::now() + WAIT;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.stderr.recv_timeout(left) {
                Ok(line) if wanted(&line) => return line,
                Ok(_) => {}
                Err(_) => panic!("the expected log line did not come"),
            }
        }
    }

    /// A GO! client.
    fn client(&self) -> Client {
        self.client_on(self.port)
    }

    fn client_on(&self, port: u16) -> Client {
        let stream = TcpStream::connect(("127.0.0.1", port)).expect("connect");
        stream.set_read_timeout(Some(WAIT)).expect("read timeout");
        Client {
            reader: BufReader::new(stream.try_clone().expect("clone")),
            stream,
        }
    }

    /// Waits for the process to exit, killing it after `WAIT`.
    fn wait_exit(&mut self) -> Option<i32> {
        let deadline = Instant::now() + WAIT;
        while Instant::now() < deadline {
            if let Some(status) = self.child.try_wait().expect("try_wait") {
                return status.code();
            }
            thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
        None
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

struct Client {
    stream: TcpStream,
    reader: BufReader<TcpStream>,
}

impl Client {
    fn send(&mut self, line: &str) {
        writeln!(self.stream, "{line}").expect("send");
    }

    fn line(&mut self) -> String {
        let mut line = String::new();
        self.reader.read_line(&mut line).expect("read a line");
        line.trim_end().to_string()
    }

    fn port(&self) -> u16 {
        self.stream.local_addr().expect("local address").port()
    }
}

/// The cells of a console table row (columns are separated by two spaces or more).
fn cells(row: &str) -> Vec<&str> {
    row.split("  ")
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .collect()
}

/// Area score (stones plus empty regions touching one colour only) of a protocol
/// board string of `size`x`size`, komi 0.
fn area_score(board: &str, size: usize) -> (usize, usize) {
    let points: Vec<u8> = board.bytes().collect();
    let mut score = [0usize; 3];
    let mut seen = vec![false; points.len()];
    for start in 0..points.len() {
        match points[start] {
            b'1' => score[1] += 1,
            b'2' => score[2] += 1,
            _ if !seen[start] => {
                let (mut region, mut touches, mut stack) = (0, [false; 3], vec![start]);
                seen[start] = true;
                while let Some(p) = stack.pop() {
                    region += 1;
                    let (r, c) = (p / size, p % size);
                    let mut near = Vec::new();
                    if r > 0 {
                        near.push(p - size);
                    }
                    if r + 1 < size {
                        near.push(p + size);
                    }
                    if c > 0 {
                        near.push(p - 1);
                    }
                    if c + 1 < size {
                        near.push(p + 1);
                    }
                    for q in near {
                        match points[q] {
                            b'1' => touches[1] = true,
                            b'2' => touches[2] = true,
                            _ if !seen[q] => {
                                seen[q] = true;
                                stack.push(q);
                            }
                            _ => {}
                        }
                    }
                }
                if touches[1] != touches[2] {
                    score[if touches[1] { 1 } else { 2 }] += region;
                }
            }
            _ => {}
        }
    }
    (score[1], score[2])
}

#[test]
fn console_commands_over_a_real_game() {
    let mut server = Server::start();
    let mut ann = server.client();
    let mut bob = server.client();
    ann.send("HANDSHAKE+Ann");
    assert_eq!(ann.line(), "ACKNOWLEDGE_HANDSHAKE+1+1");
    assert!(ann.line().starts_with("REQUEST_CONFIG+"));
    bob.send("HANDSHAKE+Bob");
    assert_eq!(bob.line(), "ACKNOWLEDGE_HANDSHAKE+1+0");
    ann.send("SET_CONFIG+1+1+5");
    let empty = "0".repeat(25);
    assert_eq!(
        ann.line(),
        format!("ACKNOWLEDGE_CONFIG+Ann+1+5+PLAYING;1;{empty}+Bob")
    );
    assert_eq!(
        bob.line(),
        format!("ACKNOWLEDGE_CONFIG+Bob+2+5+PLAYING;1;{empty}+Ann")
    );
    ann.send("MOVE+1+Ann+12");
    let after_12 = "0000000000001000000000000";
    for client in [&mut ann, &mut bob] {
        assert_eq!(
            client.line(),
            format!("ACKNOWLEDGE_MOVE+1+12;1+PLAYING;2;{after_12}")
        );
    }
    bob.send("MOVE+1+Bob+7");
    let after_7 = "0000000200001000000000000";
    for client in [&mut ann, &mut bob] {
        assert_eq!(
            client.line(),
            format!("ACKNOWLEDGE_MOVE+1+7;2+PLAYING;1;{after_7}")
        );
    }

    // Games publish their summary right after they send the acknowledgement: ask
    // until the console shows the second move.
    let deadline = Instant::now() + Duration::from_secs(30);
    let games = loop {
        let games = server.ask("games", 2);
        if cells(&games[1]).get(5) == Some(&"2") || Instant::now() > deadline {
            break games;
        }
        thread::sleep(Duration::from_millis(20));
    };
    assert_eq!(
        cells(&games[0]),
        [
            "ID",
            "FRONT END",
            "STATUS",
            "PLAYERS",
            "SIZE",
            "MOVES",
            "TURN",
            "WAITED",
            "AGE",
            "RESULT"
        ]
    );
    let row = cells(&games[1]);
    assert_eq!(
        row[..7],
        [
            "1",
            "go",
            "playing",
            "Ann (black) vs Bob (white)",
            "5x5",
            "2",
            "Ann (black)"
        ]
    );
    assert!(
        row[7].ends_with('s'),
        "how long Ann was waited for: {}",
        row[7]
    );
    assert!(row[8].ends_with('s'), "an age: {}", row[8]);
    assert_eq!(row[9], "-");

    let players = server.ask("players", 3);
    assert_eq!(
        cells(&players[0]),
        [
            "NAME",
            "FRONT END",
            "PEER",
            "STATE",
            "GAME",
            "CONNECTED",
            "IN",
            "OUT"
        ]
    );
    // Rows are in connection order, which the accept threads may decide either way.
    let row_of = |name: &str| {
        players[1..]
            .iter()
            .map(|row| cells(row))
            .find(|cells| cells[0] == name)
            .unwrap_or_else(|| panic!("no row for {name}: {players:?}"))
    };
    let ann_row = row_of("Ann");
    let ann_peer = format!("127.0.0.1:{}", ann.port());
    assert_eq!(
        ann_row[..5],
        ["Ann", "go", ann_peer.as_str(), "playing", "1"]
    );
    assert_eq!(ann_row[6..], ["3", "5"]);
    let bob_row = row_of("Bob");
    let bob_peer = format!("127.0.0.1:{}", bob.port());
    assert_eq!(
        bob_row[..5],
        ["Bob", "go", bob_peer.as_str(), "playing", "1"]
    );
    assert_eq!(bob_row[6..], ["2", "4"]);

    assert_eq!(
        server.ask("board 1", 12),
        [
            "game 1: Ann (black) vs Bob (white), 5x5, playing, 2 moves",
            "   A B C D E",
            " 5 . . . . .  5  [idx 0]",
            " 4 . .(O). .  4  [idx 5]",
            " 3 . . X . .  3  [idx 10]",
            " 2 . . . . .  2  [idx 15]",
            " 1 . . . . .  1  [idx 20]",
            "   A B C D E",
            "last move: white C4 (index 7), shown in ( )",
            "to move: Ann (black)",
            "captures: black 0, white 0",
            "area score so far: black 1, white 1 (komi included)",
        ]
    );

    let sgf = server.ask("sgf 1", 3);
    assert!(sgf[0].starts_with("(;FF[4]GM[1]"), "{}", sgf[0]);
    assert!(sgf[0].contains("SZ[5]") && sgf[0].contains("PB[Ann]PW[Bob]"));
    assert_eq!(sgf[1..], [";B[cc]", ";W[cb])"]);

    let stats = server.ask("stats", 8);
    assert_eq!(stats[0], "clients connected: 2");
    assert_eq!(stats[1], "web viewers: 0");
    let stats = &stats[1..];
    assert_eq!(stats[1], "games: 0 waiting, 1 playing, 0 finished");
    assert!(stats[2].starts_with("moves per second: "), "{}", stats[2]);
    let threads: usize = stats[3]
        .strip_prefix("threads: ")
        .and_then(|n| n.parse().ok())
        .expect("a thread count");
    assert!(threads > 3, "{}", stats[3]);
    // Each kind of inbox, the deepest it has been and its bound: never past it.
    let queues = stats[4]
        .strip_prefix("deepest inboxes: ")
        .expect("the inboxes' depths");
    assert!(queues.starts_with("GO! game inboxes "), "{queues}");
    for queue in queues.split(", ") {
        let numbers: Vec<usize> = queue
            .split_whitespace()
            .filter_map(|word| word.parse().ok())
            .collect();
        assert!(
            matches!(numbers[..], [deepest, bound] if deepest <= bound),
            "{queue}"
        );
    }
    assert_eq!(
        stats[5],
        "report cards: 2, bound 2000 (0 forgotten, the idlest not connected first)"
    );
    assert!(stats[6].starts_with("uptime: "), "{}", stats[6]);

    assert_eq!(
        server.ask_one("trace Ann"),
        "tracing Ann: its lines in (<-) and out (->) are logged"
    );
    ann.send("MOVE+1+Ann+13");
    let after_13 = "0000000200001100000000000";
    for client in [&mut ann, &mut bob] {
        assert_eq!(
            client.line(),
            format!("ACKNOWLEDGE_MOVE+1+13;1+PLAYING;2;{after_13}")
        );
    }
    server.stderr_until(|l| l.ends_with(&format!("Ann@{ann_peer} <- MOVE+1+Ann+13")));
    server.stderr_until(|l| {
        l.ends_with(&format!(
            "Ann@{ann_peer} -> ACKNOWLEDGE_MOVE+1+13;1+PLAYING;2;{after_13}"
        ))
    });
    assert_eq!(server.ask_one("untrace Ann"), "no longer tracing Ann");

    assert_eq!(
        server.ask_one("frobnicate"),
        "unknown command 'frobnicate': type 'help' for the list of commands"
    );
    assert_eq!(
        server.ask_one("board"),
        "board needs a game id: usage: board <game id>"
    );
    assert_eq!(
        server.ask_one("board 99"),
        "no game 99: type 'games' to list them"
    );
    assert_eq!(
        server.ask_one("board x"),
        "'x' is not a game id (such as 1, s1 or bkgo, see 'games'): usage: board <game id>"
    );
    assert_eq!(
        server.ask_one("kick Nobody"),
        "no player named 'Nobody': type 'players' to list them"
    );

    assert_eq!(
        server.ask_one("kick Bob"),
        format!("kicked Bob ({bob_peer})")
    );
    let (black, white) = area_score(after_13, 5);
    // Both are told, the kicked player too, before its connection closes.
    let finished =
        format!("GAME_FINISHED+1+Ann+{black};{white}+Bob was kicked by operator: Ann wins");
    assert_eq!(ann.line(), finished);
    assert_eq!(bob.line(), finished);

    // The game has ended: the console says so (the lobby closes it right after the
    // GAME_FINISHED above, so ask until it has).
    let deadline = Instant::now() + WAIT;
    let ended = loop {
        let answer = server.ask_one("board 1");
        if answer.starts_with("game 1 has ended") || Instant::now() > deadline {
            break answer;
        }
        // The answer was the live board's first line: skip the rest of it.
        server.ask("", 11);
        thread::sleep(Duration::from_millis(50));
    };
    assert_eq!(
        ended,
        "game 1 has ended (Bob was kicked by operator: Ann wins): only live games can be shown"
    );
    // A finished game keeps its record, with the result.
    let sgf = server.ask("sgf 1", 4);
    assert!(sgf[0].contains("RE[B+F]"), "{}", sgf[0]);
    assert_eq!(sgf[1..], [";B[cc]", ";W[cb]", ";B[dc])"]);

    assert_eq!(
        server.ask_one("shutdown"),
        "shutting down: finishing games and closing connections"
    );
    assert_eq!(
        server.wait_exit(),
        Some(0),
        "goserver exits 0 after shutdown"
    );
}

#[test]
fn end_of_console_input_keeps_the_server_serving() {
    let mut server = Server::start();
    let help = server.ask("help", 19);
    assert_eq!(cells(&help[0]), ["COMMAND", "WHAT IT DOES"]);
    assert!(help[18].starts_with("Web board: http://"), "{}", help[18]);
    assert_eq!(cells(&help[14])[0], "report [name]");
    assert_eq!(cells(&help[10])[0], "standings [go|spectrangle|bkgo]");
    assert_eq!(cells(&help[13])[0], "arena [pause|resume]");
    assert_eq!(cells(&help[4])[0], "board <game id>");
    assert_eq!(cells(&help[8])[0], "sgf <game id> [file]");
    drop(server.stdin.take());
    server.stderr_until(|l| l.contains("console input ended; the server keeps serving"));
    let mut ann = server.client();
    ann.send("HANDSHAKE+Ann");
    assert_eq!(ann.line(), "ACKNOWLEDGE_HANDSHAKE+1+1");
}

#[test]
fn the_console_shows_spectrangle_tables_too() {
    let mut server = Server::start();
    let mut ann = server.client_on(server.spectrangle_port);
    let mut bob = server.client_on(server.spectrangle_port);
    ann.send("JOIN Ann");
    assert_eq!(ann.line(), "LOBBY Ann");
    bob.send("JOIN Bob");
    assert_eq!(bob.line(), "LOBBY Ann Bob");
    assert_eq!(ann.line(), "LOBBY Ann Bob");
    ann.send("READY");
    // The lobby, as its table publishes it: ask until Ann shows as ready.
    let deadline = Instant::now() + WAIT;
    let lobby = loop {
        let games = server.ask("games", 2);
        let row = cells(&games[1]).join("|");
        if row.contains("Ann (ready)") || Instant::now() > deadline {
            break row;
        }
        thread::sleep(Duration::from_millis(20));
    };
    assert!(
        lobby.starts_with("s1|spectrangle|lobby default|Ann (ready), Bob|-|0|-|"),
        "{lobby}"
    );
    bob.send("READY");
    let mut start = Vec::new();
    for client in [&mut ann, &mut bob] {
        start = (0..9).map(|_| client.line()).collect::<Vec<_>>();
    }
    assert!(start[0].starts_with("START "), "{start:?}");
    let first = start[0]
        .split(' ')
        .nth(1)
        .expect("a first player")
        .to_string();

    let board = server.ask("board s1", 11);
    assert!(
        board[0].starts_with("game s1 (spectrangle): ") && board[0].ends_with(", playing, 0 turns"),
        "{}",
        board[0]
    );
    assert!(
        board[1].ends_with("/  0   \\"),
        "the top field: {}",
        board[1]
    );
    assert!(board[2].contains("2x3"), "a bonus field: {}", board[2]);
    assert!(board[7].starts_with("hand of "), "{}", board[7]);
    assert_eq!(board[9], "bag: 28 tiles");
    assert_eq!(board[10], format!("to move: {first}"));

    let players = server.ask("players", 3);
    for row in &players[1..] {
        let row = cells(row);
        assert_eq!(row[1..2], ["spectrangle"]);
        assert_eq!(row[3..5], ["playing", "s1"], "{row:?}");
    }
    // The record so far: the protocol lines of the game.
    let record = server.ask("sgf s1", 9);
    assert_eq!(record, start);

    assert_eq!(server.ask_one("kick s1"), "kicked 2 players of game s1");
    for client in [&mut ann, &mut bob] {
        let mut rest = String::new();
        let _ = client.reader.read_line(&mut rest);
        assert_eq!(rest, "", "a kicked player hears nothing more");
    }
    let deadline = Instant::now() + WAIT;
    let ended = loop {
        let answer = server.ask_one("board s1");
        if answer.starts_with("game s1 has ended") || Instant::now() > deadline {
            break answer;
        }
        // The answer was the live board's first line: skip the rest of it.
        server.ask("", 10);
        thread::sleep(Duration::from_millis(50));
    };
    assert!(
        ended.starts_with("game s1 has ended (Ann was kicked by operator)")
            || ended.starts_with("game s1 has ended (Bob was kicked by operator)"),
        "{ended}"
    );
    assert_eq!(
        server.ask_one("board s9"),
        "no game s9: type 'games' to list them"
    );
}
