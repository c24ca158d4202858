//! GO! players for the `games` and `hold` modes: the protocol state of each client.

use crate::io::{Behaviour, Io, new_histogram, record, trace_clock};
use hdrhistogram::Histogram;
use mio::Poll;
use std::time::Instant;

// games and hold: GO! players

#[derive(Default, Clone)]
pub(crate) struct Player {
    pub(crate) name: String,
    pub(crate) granted: String,
    pub(crate) game_id: String,
    pub(crate) colour: u8,
    pub(crate) board: Vec<u8>,
    /// Points refused by INVALID_MOVE in this game.
    pub(crate) refused: Vec<usize>,
    pub(crate) playing: bool,
    pub(crate) my_turn: bool,
    pub(crate) acks: u32,
    pub(crate) sent: Option<(Instant, i64)>,
    pub(crate) games_left: u64,
    pub(crate) done: bool,
    pub(crate) live: bool,
}

#[derive(Default)]
pub(crate) struct Errors {
    pub(crate) invalid: u64,
    pub(crate) unexpected: u64,
    pub(crate) disconnects: u64,
    pub(crate) connect_failures: u64,
}

impl Errors {
    pub(crate) fn total(&self) -> u64 {
        self.invalid + self.unexpected + self.disconnects + self.connect_failures
    }

    /// For people: `(invalid 0, unexpected 0, disconnects 0, connect 0)`.
    pub(crate) fn breakdown(&self) -> String {
        format!(
            "(invalid {}, unexpected {}, disconnects {}, connect {})",
            self.invalid, self.unexpected, self.disconnects, self.connect_failures
        )
    }

    /// For the RESULT line: `invalid=0 unexpected=0 disconnects=0 connect_failures=0`.
    pub(crate) fn fields(&self) -> String {
        format!(
            "invalid={} unexpected={} disconnects={} connect_failures={}",
            self.invalid, self.unexpected, self.disconnects, self.connect_failures
        )
    }
}

pub(crate) struct Players {
    pub(crate) players: Vec<Player>,
    pub(crate) size: usize,
    /// Stone moves per game before passing.
    pub(crate) moves: u32,
    /// Hold mode: stop after `moves` and do not pass.
    pub(crate) hold: bool,
    pub(crate) hist: Histogram<u64>,
    pub(crate) errors: Errors,
    pub(crate) finished_reports: u64,
    pub(crate) done_clients: usize,
    pub(crate) live_clients: usize,
    pub(crate) configured_clients: usize,
    pub(crate) shown: u32,
    pub(crate) trace: bool,
}

impl Players {
    pub(crate) fn unexpected(&mut self, id: usize, line: &str) {
        self.errors.unexpected += 1;
        if self.shown < 10 {
            self.shown += 1;
            eprintln!("loadgen: client {id}: unexpected line: {line}");
        }
    }

    pub(crate) fn apply_state(&mut self, id: usize, state: &str) -> bool {
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

    pub(crate) fn maybe_move(&mut self, id: usize, io: &mut Io) {
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

    pub(crate) fn handshake(&mut self, id: usize, io: &mut Io) {
        let line = format!("HANDSHAKE+{}\n", self.players[id].name);
        io.send(id, line.as_bytes());
    }

    pub(crate) fn finish_client(&mut self, id: usize, io: &mut Io) {
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

pub(crate) fn new_players(
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
