//! Helpers for the Bkgo tests with the practice bot: a room's settings, members that
//! join and read their welcome, the bot's lines read loosely (its moves depend on its
//! search) but checked against the board.
#![allow(dead_code)]

use crate::common::{Client, TestServer};
use goserver::console::{Console, Outcome};
use goserver::server::Protocol;
use goserver::settings::{BkgoSettings, Settings};
use std::time::{Duration, Instant};

/// Settings for a room with a `size` board whose bot comes after `bot_after` (none:
/// only from the console), searching at most `playouts` a move (none: its think time
/// alone), with every random choice seeded.
pub fn settings(size: usize, bot_after: Option<Duration>, playouts: Option<u32>) -> Settings {
    Settings {
        bkgo: BkgoSettings {
            size,
            bot_after,
            ..BkgoSettings::default()
        },
        bot_playouts: playouts,
        seed: Some(7),
        ..Settings::default()
    }
}

/// A server serving Bkgo alone.
pub fn room(settings: Settings) -> TestServer {
    TestServer::serving(settings, &[Protocol::Bkgo])
}

/// A client that joins as `name`: returns it and its welcome from `ID:` to the seat
/// lines (the board after them is read, not returned).
pub fn join(server: &TestServer, name: &str) -> (Client, Vec<String>) {
    let mut client = Client::connect(server.addr_of(Protocol::Bkgo));
    client.expect("BKGO-Server-version-0.6");
    client.send("BKGO-Client-version-1.0");
    client.expect("OK");
    client.send("join");
    client.expect("GimmeGoPlayer");
    client.send(&format!("Player: {name}"));
    let mut welcome = Vec::new();
    loop {
        let line = client.recv();
        if line == "Board:" {
            break;
        }
        welcome.push(line);
    }
    while client.recv() != "EOF" {}
    (client, welcome)
}

/// Every client in `clients` receives `line`.
pub fn all(clients: &mut [&mut Client], line: &str) {
    for client in clients.iter_mut() {
        client.expect(line);
    }
}

/// The board as the tests follow it: who holds each point, to check that the bot
/// places on an empty one.
pub struct Board {
    size: usize,
    stones: Vec<bool>,
}

impl Board {
    pub fn new(size: usize) -> Board {
        Board {
            size,
            stones: vec![false; size * size],
        }
    }

    /// Marks `(x, y)` as taken (the tests' games capture nothing).
    pub fn place(&mut self, x: usize, y: usize) {
        self.stones[y * self.size + x] = true;
    }

    /// Whether `(x, y)` is on the board and empty.
    pub fn is_free(&self, x: usize, y: usize) -> bool {
        x < self.size && y < self.size && !self.stones[y * self.size + x]
    }
}

/// `Place: x, y` as its two numbers, or none for another line.
pub fn placed(line: &str) -> Option<(usize, usize)> {
    let (x, y) = line.strip_prefix("Place: ")?.split_once(", ")?;
    Some((x.parse().ok()?, y.parse().ok()?))
}

/// The bot's move, as the first of `clients` reads it, and every other the same line:
/// a `Pass`, or a `Place:` on an empty point of `board` (then marked).
pub fn bot_move(clients: &mut [&mut Client], board: &mut Board) -> String {
    let line = clients[0].recv();
    for other in clients[1..].iter_mut() {
        other.expect(&line);
    }
    if line != "Pass" {
        let (x, y) =
            placed(&line).unwrap_or_else(|| panic!("expected the bot's move, got {line:?}"));
        assert!(
            board.is_free(x, y),
            "the bot placed on a taken point: {line}"
        );
        board.place(x, y);
    }
    line
}

/// The human `player` (first of `clients`) places at `(x, y)` once and passes from
/// then on, the bot answering each move, until two passes in a row end the game.
/// Returns the bot's lines.
pub fn play_to_two_passes(
    clients: &mut [&mut Client],
    board: &mut Board,
    (x, y): (usize, usize),
) -> Vec<String> {
    clients[0].send(&format!("Place: {x}, {y}"));
    all(clients, &format!("Place: {x}, {y}"));
    board.place(x, y);
    let mut bot_lines = Vec::new();
    let mut passes = 0;
    for _ in 0..50 {
        let line = bot_move(clients, board);
        passes = if line == "Pass" { passes + 1 } else { 0 };
        bot_lines.push(line);
        if passes == 2 {
            return bot_lines;
        }
        clients[0].send("Pass");
        all(clients, "Pass");
        passes += 1;
        if passes == 2 {
            return bot_lines;
        }
    }
    panic!("no end after 50 moves of the bot: {bot_lines:?}");
}

/// Runs a console command against the server.
pub fn console(console: &Console, command: &str) -> String {
    match console.execute(command) {
        Outcome::Answer(text) | Outcome::Shutdown(text) => text,
    }
}

/// Repeats a console command until its answer satisfies `wanted` (the console reads
/// what the room publishes after each event, which may lag a moment).
pub fn console_until(console: &Console, command: &str, wanted: impl Fn(&str) -> bool) -> String {
    let deadline = Instant::now() + crate::common::PATIENCE;
    loop {
        let answer = self::console(console, command);
        if wanted(&answer) || Instant::now() > deadline {
            return answer;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}
