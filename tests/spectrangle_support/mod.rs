//! The referee of Spectrangle games in the tests (`Watch`): it follows every broadcast
//! line, keeps its own board, hands and bag, plays a legal move when asked, and knows
//! from the rules when SCORE must come and with which points.
#![allow(dead_code)]

use crate::common::Client;
use goserver::engine::spectrangle::{Board, Colour, Letters, Location, Rotation, Spelling, Tile};
use std::collections::HashMap;

/// The tile `text` (`RRY0`, letters as dealt).
pub fn tile(text: &str) -> Tile {
    let letters: Vec<Colour> = text
        .chars()
        .take(3)
        .map(|c| Colour::from_letter(c).expect("a colour letter"))
        .collect();
    Tile::find(Letters::new([letters[0], letters[1], letters[2]])).expect("a tile of the set")
}

/// `letters` with rotation digit `rotation`, as a client writes it.
pub fn spelled(letters: Letters, rotation: u8) -> String {
    format!("{letters}{rotation}")
}

/// Where the referee reads a game's lines: a player's connection, or a record.
pub trait Source {
    fn next_line(&mut self) -> String;
}

impl Source for Client {
    fn next_line(&mut self) -> String {
        self.recv()
    }
}

impl Source for std::str::Lines<'_> {
    fn next_line(&mut self) -> String {
        self.next().expect("another line in the record").to_string()
    }
}

/// The referee's view of one game, from the lines every player receives.
pub struct Watch {
    pub order: Vec<String>,
    pub hands: HashMap<String, Vec<Tile>>,
    pub board: Board,
    pub turn: usize,
    pub idle_turns: usize,
    pub points: HashMap<String, u32>,
}

impl Watch {
    /// Reads `START` and the deal from `c`, checking the deal's shape.
    pub fn start(c: &mut impl Source, players: usize) -> Watch {
        let start = c.next_line();
        let order: Vec<String> = start
            .strip_prefix("START ")
            .unwrap_or_else(|| panic!("expected START, got {start:?}"))
            .split(' ')
            .map(str::to_string)
            .collect();
        assert_eq!(order.len(), players, "{start}");
        let mut hands: HashMap<String, Vec<Tile>> = HashMap::new();
        for name in &order {
            for _ in 0..4 {
                let line = c.next_line();
                let rest = line
                    .strip_prefix(&format!("TILE {name} "))
                    .unwrap_or_else(|| panic!("expected TILE {name} <tile>, got {line:?}"));
                hands.entry(name.clone()).or_default().push(tile(rest));
            }
        }
        Watch {
            points: order.iter().map(|n| (n.clone(), 0)).collect(),
            order,
            hands,
            board: Board::new(),
            turn: 0,
            idle_turns: 0,
        }
    }

    pub fn to_move(&self) -> &str {
        &self.order[self.turn]
    }

    /// Tiles neither placed nor held.
    pub fn bag(&self) -> usize {
        36 - self.board.placed() - self.hands.values().map(Vec::len).sum::<usize>()
    }

    pub fn can_place(&self, name: &str) -> bool {
        self.board.can_place_any(&self.hands[name])
    }

    /// The move the player to move makes: a placement if it has one (spelled from a
    /// rotated reading of the letters, `turn` steps on, with the MOVE alias when
    /// `alias`), else a swap while the bag lasts, else a skip. Also the UPDATE (and
    /// TILE, when it draws) every player must then receive, without the drawn tile.
    pub fn choose(&self, turn: usize, alias: bool) -> (String, String) {
        let name = self.to_move();
        if let Some(p) = self.board.find_placement(&self.hands[name]) {
            let letters = p.tile.tile().letters().turned(turn);
            let digit = (p.tile.rotation().digit() + (turn % 3) as u8) % 3;
            let keyword = if alias { "MOVE" } else { "MOVE_PLAY" };
            let command = format!("{keyword} {} {}", spelled(letters, digit), p.location);
            return (command, format!("UPDATE {name} {} {}", p.tile, p.location));
        }
        if self.bag() > 0 {
            let returned = self.hands[name][0];
            return (
                format!("MOVE_SWAP {returned}"),
                format!("UPDATE {name} {returned}"),
            );
        }
        ("MOVE_SKIP".into(), format!("UPDATE {name}"))
    }

    /// Follows one turn's lines as `c` receives them: UPDATE, then TILE when the
    /// player drew. Returns the UPDATE line.
    pub fn follow_turn(&mut self, c: &mut impl Source) -> String {
        let name = self.to_move().to_string();
        let update = c.next_line();
        let words: Vec<&str> = update.split(' ').collect();
        assert_eq!(&words[..2], ["UPDATE", name.as_str()], "{update}");
        let bag_before = self.bag();
        match words[2..] {
            [placed, location] => {
                let spelling = Spelling {
                    letters: tile(placed).letters(),
                    rotation: Rotation::new(placed.as_bytes()[3] - b'0').expect("a digit"),
                };
                let oriented = spelling.resolve().expect("a tile of the set");
                let location =
                    Location::new(location.parse::<u8>().expect("a number")).expect("a location");
                let hand = self.hands.get_mut(&name).expect("a player");
                let held = hand
                    .iter()
                    .position(|t| *t == oriented.tile())
                    .expect("held");
                hand.remove(held);
                let points = self.board.place(oriented, location).expect("a legal move");
                *self.points.get_mut(&name).expect("a player") += points;
                self.idle_turns = 0;
                if bag_before > 0 {
                    self.drawn(c, &name);
                }
            }
            [returned] => {
                let hand = self.hands.get_mut(&name).expect("a player");
                let held = hand
                    .iter()
                    .position(|t| *t == tile(returned))
                    .expect("held");
                hand.remove(held);
                self.idle_turns += 1;
                self.drawn(c, &name);
            }
            [] => self.idle_turns += 1,
            _ => panic!("not an UPDATE: {update}"),
        }
        self.turn = (self.turn + 1) % self.order.len();
        update
    }

    pub fn drawn(&mut self, c: &mut impl Source, name: &str) {
        let line = c.next_line();
        let rest = line
            .strip_prefix(&format!("TILE {name} "))
            .unwrap_or_else(|| panic!("expected TILE {name} <tile>, got {line:?}"));
        self.hands.get_mut(name).expect("a player").push(tile(rest));
    }

    /// Whether the rules end the game now: the bag is empty and nobody can place, or
    /// three rounds passed without a placement.
    pub fn is_over(&self) -> bool {
        let stuck = self.bag() == 0 && self.order.iter().all(|n| !self.can_place(n));
        stuck || self.idle_turns >= 3 * self.order.len()
    }

    /// The SCORE line these points make, in turn order.
    pub fn score(&self) -> String {
        let scores: Vec<String> = self
            .order
            .iter()
            .map(|n| format!("{n},{}", self.points[n]))
            .collect();
        format!("SCORE {}", scores.join(" "))
    }
}
