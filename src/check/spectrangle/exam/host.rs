//! The checker as a Spectrangle server, for the exam of a client: it accepts the
//! client's connection, takes its JOIN and READY, starts a game with one to three
//! scripted opponents, deals from a bag the case controls, plays the opponents' moves
//! on the project's rules engine, and judges every line the client sends against the
//! documents (one of its own tiles, a legal field with matching edges, a swap or a skip
//! only when nothing fits, on its turn only). Lines are formatted and parsed with the
//! protocol module the server uses.

use super::super::super::case::{Failure, Step};
use super::super::super::probe::Probe;
use super::super::super::wire::{Heard, Wire};
use crate::engine::rng::Rng;
use crate::engine::spectrangle::{
    Board, Colour, Letters, Location, OrientedTile, Placement, Rotation, Spelling, Tile,
};
use crate::frontend::spectrangle::protocol::{self, Command, ErrorCode, ServerMessage};
use std::collections::VecDeque;
use std::time::{Duration, Instant};

/// Tiles in a hand.
pub const HAND: usize = 4;

/// Turns a game may take before the checker gives up on its end (a client that swaps
/// for ever is stopped by the rule of three idle rounds long before).
const MAX_TURNS: usize = 400;

/// The opponents' names, the first that differ from the client's.
const NAMES: [&str; 6] = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay"];

/// How long the check for a line out of turn waits: a line the client sent before
/// the server's last line is there by then; one it is still writing is found by the
/// next read.
const POLL: Duration = Duration::from_millis(2);

/// How a case deals: players, the client's seat, fixed hands, the first draws.
#[derive(Clone, Debug)]
pub struct Deal {
    /// Players in the game, the client included: 2 to 4.
    pub players: usize,
    /// The client's place in START (0 moves first).
    pub seat: usize,
    /// Tiles given to a seat (letters as the rules list them, `RRY`); a hand is filled
    /// up to four from the shuffled rest.
    pub hands: Vec<(usize, Vec<&'static str>)>,
    /// The first tiles drawn from the bag, in order; then the shuffled rest.
    pub draws: Vec<&'static str>,
    /// The shuffle of the rest.
    pub seed: u64,
}

impl Deal {
    /// A game of `players`, the client at `seat`, everything shuffled.
    pub fn new(players: usize, seat: usize) -> Deal {
        Deal {
            players,
            seat,
            hands: Vec::new(),
            draws: Vec::new(),
            seed: 1,
        }
    }

    /// The same, with `tiles` in the hand of `seat`.
    #[must_use]
    pub fn hand(mut self, seat: usize, tiles: &[&'static str]) -> Deal {
        self.hands.push((seat, tiles.to_vec()));
        self
    }

    /// The same, with `tiles` drawn first.
    #[must_use]
    pub fn draws(mut self, tiles: &[&'static str]) -> Deal {
        self.draws = tiles.to_vec();
        self
    }

    /// The same, shuffled with `seed`.
    #[must_use]
    pub fn seed(mut self, seed: u64) -> Deal {
        self.seed = seed;
        self
    }
}

/// A move, as the client sent it or the checker plays it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Move {
    /// A tile placed (the set tile turned as it lies), `MOVE_PLAY`.
    Play(Placement),
    /// A tile given back to the bag, `MOVE_SWAP`.
    Swap(Tile),
    /// `MOVE_SKIP`.
    Skip,
}

/// A move as reports show it: `RRY2 at 12`, `a swap of GGB0`, `a skip`.
pub fn describe(mv: Move) -> String {
    match mv {
        Move::Play(placement) => placement.to_string(),
        Move::Swap(tile) => format!("a swap of {tile}"),
        Move::Skip => "a skip".to_string(),
    }
}

/// The set tile with these letters (as the rules list them).
///
/// # Errors
///
/// No tile has them: a mistake of the case's, reported as the checker's fault.
pub fn set_tile(letters: &str) -> Step<Tile> {
    let colours: Vec<Colour> = letters.chars().filter_map(Colour::from_letter).collect();
    let found = match colours[..] {
        [a, b, c] => Tile::find(Letters::new([a, b, c])),
        _ => None,
    };
    found.ok_or_else(|| {
        Failure::new(
            "a tile of the set in the case's deal (the checker's fault: please report it)",
            letters.to_string(),
        )
    })
}

/// A field by number.
///
/// # Errors
///
/// Past 35: a mistake of the case's.
pub fn field(index: u8) -> Step<Location> {
    Location::new(index).ok_or_else(|| {
        Failure::new(
            "a field from 0 to 35 (the checker's fault: please report it)",
            index.to_string(),
        )
    })
}

/// The client's first line, which must be a JOIN with a name of the protocol's
/// characters: its connection and the name.
///
/// # Errors
///
/// It did not connect, sent nothing, or something else first.
pub fn joined(probe: &mut Probe) -> Step<(Wire, String)> {
    let mut wire = probe.accept()?;
    let expected = "JOIN <name> (letters, digits, _ and -), the client's first line";
    let line = wire.line(expected)?;
    let words: Vec<&str> = line.split_whitespace().collect();
    match words[..] {
        ["JOIN", name] | ["JOIN", name, _] if valid_name(name) => {
            let name = name.to_string();
            Ok((wire, name))
        }
        _ => Err(Failure::new(expected, line)),
    }
}

/// Whether `name` is a player name of the protocol: `[A-Za-z0-9_-]`, at least one.
fn valid_name(name: &str) -> bool {
    !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

/// The game the checker hosts for the client under test.
pub struct Host {
    /// The connection.
    pub wire: Wire,
    /// The name the client joined with.
    pub name: String,
    /// The players in turn order, the client among them.
    pub players: Vec<String>,
    /// The client's seat.
    pub seat: usize,
    /// Each seat's hand.
    pub hands: Vec<Vec<Tile>>,
    /// The bag: drawn from the front, a swapped tile goes to the back.
    pub bag: VecDeque<Tile>,
    /// The board, refereed by the rules engine.
    pub board: Board,
    /// Each seat's points.
    pub points: Vec<u32>,
    /// Whose turn it is.
    pub turn: usize,
    /// Turns in a row without a placement.
    pub idle: usize,
    /// The points of the client's last placement.
    pub last_points: u32,
    /// Before an opponent's move that follows another opponent's, wait the quiet window
    /// for a line out of turn (else a short look only).
    pub watchful: bool,
    /// The quiet window.
    pub quiet: Duration,
    /// Lines end in CR LF instead of LF.
    pub crlf: bool,
    /// Fields are separated by runs of three blanks.
    pub wide: bool,
    /// UPDATE spells a placed tile in another rotation of its letters (`YRR2` for
    /// `RRY0`), as a server that echoes a client's spelling would.
    pub respell: bool,
    /// How long each of the client's moves took, from the line that gave it the turn.
    pub move_times: Vec<Duration>,
    /// The client's moves made, each with the tiles in the bag when it made it.
    pub made: Vec<(Move, usize)>,
    /// When the client was given the turn.
    turn_given: Instant,
    /// Who moved last.
    last_mover: Option<usize>,
}

impl Host {
    /// Greets the client the usual way: its JOIN, a LOBBY that lists the opponents
    /// (there first, and ready) and the client, its READY; then START and the deal.
    ///
    /// # Errors
    ///
    /// A line of the client's is not what the documents say it sends.
    pub fn start(probe: &mut Probe, deal: &Deal) -> Step<Host> {
        Host::start_with(probe, deal, |_| {})
    }

    /// [`Host::start`], with the way the host writes its lines (`crlf`, `wide`) set by
    /// `style` before its first line.
    ///
    /// # Errors
    ///
    /// As [`Host::start`].
    pub fn start_with(probe: &mut Probe, deal: &Deal, style: impl FnOnce(&mut Host)) -> Step<Host> {
        let (wire, name) = joined(probe)?;
        let mut host = Host::seated(wire, name, deal, probe.quiet())?;
        style(&mut host);
        let mut lobby = host.opponents();
        lobby.push(host.name.clone());
        host.lobby(&lobby)?;
        host.ready()?;
        host.start_game()?;
        Ok(host)
    }

    /// The game of a client that has joined as `name`, dealt as `deal` says; nothing
    /// is sent yet.
    ///
    /// # Errors
    ///
    /// The deal is not one of the set (a mistake of the case's).
    pub fn seated(wire: Wire, name: String, deal: &Deal, quiet: Duration) -> Step<Host> {
        let mut host = Host {
            wire,
            name,
            players: Vec::new(),
            seat: 0,
            hands: Vec::new(),
            bag: VecDeque::new(),
            board: Board::new(),
            points: Vec::new(),
            turn: 0,
            idle: 0,
            last_points: 0,
            watchful: false,
            quiet,
            crlf: false,
            wide: false,
            respell: false,
            move_times: Vec::new(),
            made: Vec::new(),
            turn_given: Instant::now(),
            last_mover: None,
        };
        host.redeal(deal)?;
        Ok(host)
    }

    /// A new game on the same connection, dealt as `deal` says: new players, hands,
    /// bag and board; nothing is sent.
    ///
    /// # Errors
    ///
    /// The deal is not one of the set (a mistake of the case's).
    pub fn redeal(&mut self, deal: &Deal) -> Step<()> {
        let players = deal.players.clamp(2, 4);
        let seat = deal.seat.min(players - 1);
        let mut others = NAMES.iter().filter(|n| **n != self.name);
        self.players = (0..players)
            .map(|s| {
                if s == seat {
                    self.name.clone()
                } else {
                    others.next().map(|n| (*n).to_string()).unwrap_or_default()
                }
            })
            .collect();
        self.seat = seat;
        let mut hands: Vec<Vec<Tile>> = vec![Vec::new(); players];
        let mut taken = [false; 36];
        for (at, tiles) in &deal.hands {
            for letters in tiles {
                let tile = set_tile(letters)?;
                hands[(*at).min(players - 1)].push(tile);
                taken[tile.index()] = true;
            }
        }
        let mut draws = Vec::new();
        for letters in &deal.draws {
            let tile = set_tile(letters)?;
            draws.push(tile);
            taken[tile.index()] = true;
        }
        let mut rest: Vec<Tile> = Tile::ALL
            .into_iter()
            .filter(|t| !taken[t.index()])
            .collect();
        Rng::new(deal.seed).shuffle(&mut rest);
        let mut rest = rest.into_iter();
        for hand in &mut hands {
            while hand.len() < HAND {
                match rest.next() {
                    Some(tile) => hand.push(tile),
                    None => break,
                }
            }
        }
        self.hands = hands;
        self.bag = draws.into_iter().chain(rest).collect();
        self.board = Board::new();
        self.points = vec![0; players];
        self.turn = 0;
        self.idle = 0;
        self.last_mover = None;
        Ok(())
    }

    /// The opponents' names in turn order.
    pub fn opponents(&self) -> Vec<String> {
        self.players
            .iter()
            .enumerate()
            .filter(|(s, _)| *s != self.seat)
            .map(|(_, n)| n.clone())
            .collect()
    }

    /// Sends `message`.
    ///
    /// # Errors
    ///
    /// The write failed.
    pub fn send(&mut self, message: &ServerMessage) -> Step<()> {
        self.send_line(&message.to_string())
    }

    /// Sends `line` as the host's lines go: CR LF or LF, blanks as they are or wide.
    ///
    /// # Errors
    ///
    /// The write failed.
    pub fn send_line(&mut self, line: &str) -> Step<()> {
        let line = if self.wide {
            line.replace(' ', "   ")
        } else {
            line.to_string()
        };
        if self.crlf {
            self.wire
                .send_bytes(format!("{line}\r\n").as_bytes(), &format!("{line}\\r"))
        } else {
            self.wire.send(&line)
        }
    }

    /// `LOBBY <players>`.
    ///
    /// # Errors
    ///
    /// The write failed.
    pub fn lobby(&mut self, players: &[String]) -> Step<()> {
        self.send(&ServerMessage::Lobby {
            players: players.to_vec(),
        })
    }

    /// The client's READY, its answer to the LOBBY that lists it.
    ///
    /// # Errors
    ///
    /// Any other line, or none.
    pub fn ready(&mut self) -> Step<()> {
        let expected = "READY, once the LOBBY lists it";
        let line = self.wire.line(expected)?;
        match protocol::parse(&line) {
            Ok(Some(request)) if request.command == Ok(Command::Ready) => Ok(()),
            _ => Err(Failure::new(expected, line)),
        }
    }

    /// START and the deal (four TILE lines per player, in turn order, to the client:
    /// hands are public); then, if the client does not move first, nothing from it
    /// for the quiet window.
    ///
    /// # Errors
    ///
    /// A write failed, or the client sent a line before its turn.
    pub fn start_game(&mut self) -> Step<()> {
        self.send(&ServerMessage::Start {
            players: self.players.clone(),
        })?;
        self.deal_out()?;
        self.after_deal()
    }

    /// The deal's TILE lines.
    ///
    /// # Errors
    ///
    /// A write failed.
    pub fn deal_out(&mut self) -> Step<()> {
        for seat in 0..self.players.len() {
            for at in 0..self.hands[seat].len() {
                let message = ServerMessage::Tile {
                    player: self.players[seat].clone(),
                    tile: self.hands[seat][at],
                };
                self.send(&message)?;
            }
        }
        Ok(())
    }

    /// The deal is out: the first player's turn. A client that is not first must wait.
    ///
    /// # Errors
    ///
    /// The client sent a line before its turn.
    pub fn after_deal(&mut self) -> Step<()> {
        self.turn = 0;
        self.turn_given = Instant::now();
        if self.seat != 0 {
            let why = format!(
                "START lists it in place {} of {}: {} moves first",
                self.seat + 1,
                self.players.len(),
                self.players[0]
            );
            self.nothing_for(self.quiet, &why)?;
        }
        Ok(())
    }

    /// The client's next line, which must be a move: the move as sent, and the line.
    ///
    /// # Errors
    ///
    /// Any other line, or a tile that is in no set.
    pub fn next_move(&mut self) -> Step<(Move, String)> {
        let expected = format!(
            "its move as {} (MOVE_PLAY <tile> <location>, MOVE_SWAP <tile> or MOVE_SKIP)",
            self.name
        );
        let line = self.wire.line(&expected)?;
        self.move_times.push(self.turn_given.elapsed());
        let mv = read_move(&line, &expected)?;
        Ok((mv, line))
    }

    /// Whether `mv` is a move the client may make now, by the rules, on the board and
    /// with the hand the server sent it; `line` is how it was sent.
    ///
    /// # Errors
    ///
    /// It may not: the failure says which rule and what it could have done.
    pub fn judge(&self, mv: Move, line: &str) -> Step<()> {
        let hand = &self.hands[self.seat];
        let held = |tile: Tile| hand.contains(&tile);
        let whose = |tile: Tile| {
            self.hands
                .iter()
                .position(|h| h.contains(&tile))
                .map(|s| format!(", a tile of {}'s", self.players[s]))
                .unwrap_or_default()
        };
        let own = format!("one of its own tiles ({})", hand_text(hand));
        match mv {
            Move::Play(placement) => {
                let tile = placement.tile.tile();
                if !held(tile) {
                    return Err(Failure::new(
                        own,
                        format!("{line}: {tile} is not in its hand{}", whose(tile)),
                    ));
                }
                self.board
                    .check(placement.tile, placement.location)
                    .map_err(|why| {
                        Failure::new(
                            "a legal placement on the board the server sent",
                            format!("{line}: {why}"),
                        )
                    })?;
            }
            Move::Swap(tile) => {
                if !held(tile) {
                    return Err(Failure::new(
                        own,
                        format!("{line}: {tile} is not in its hand{}", whose(tile)),
                    ));
                }
                if self.bag.is_empty() {
                    return Err(Failure::new(
                        "no MOVE_SWAP with the bag empty (no tile to swap with): MOVE_SKIP",
                        line.to_string(),
                    ));
                }
                self.cannot_place(line, "MOVE_SWAP")?;
            }
            Move::Skip => self.cannot_place(line, "MOVE_SKIP")?,
        }
        Ok(())
    }

    /// A failure when the client could place a tile.
    fn cannot_place(&self, line: &str, what: &str) -> Step<()> {
        match self.board.find_placement(&self.hands[self.seat]) {
            Some(placement) => Err(Failure::new(
                format!("a placement ({what} only when none of its tiles fits: {placement} does)"),
                line.to_string(),
            )),
            None => Ok(()),
        }
    }

    /// The client's move, which must be one it may make now: judged, made, announced.
    ///
    /// # Errors
    ///
    /// See [`Host::next_move`] and [`Host::judge`].
    pub fn client_moves(&mut self) -> Step<Move> {
        let (mv, line) = self.next_move()?;
        self.judge(mv, &line)?;
        self.made.push((mv, self.bag.len()));
        self.make(mv)?;
        Ok(mv)
    }

    /// Makes `mv` for the player to move (judged already) and announces it as the
    /// server does: UPDATE, then TILE for a tile drawn; the turn passes.
    ///
    /// # Errors
    ///
    /// The engine refuses a placement (the case's mistake), or a write failed.
    pub fn make(&mut self, mv: Move) -> Step<()> {
        let seat = self.turn;
        let player = self.players[seat].clone();
        match mv {
            Move::Play(placement) => {
                let points = self
                    .board
                    .place(placement.tile, placement.location)
                    .map_err(|why| {
                        Failure::new(
                            "a placement the checker may make (the checker's fault: please report it)",
                            format!("{placement}: {why}"),
                        )
                    })?;
                self.points[seat] += points;
                if seat == self.seat {
                    self.last_points = points;
                }
                take(&mut self.hands[seat], placement.tile.tile());
                self.idle = 0;
                if self.respell {
                    let spelled = other_spelling(placement.tile);
                    self.send_line(&format!("UPDATE {player} {spelled} {}", placement.location))?;
                } else {
                    self.send(&ServerMessage::Played {
                        player: player.clone(),
                        tile: placement.tile,
                        location: placement.location,
                    })?;
                }
                if let Some(drawn) = self.bag.pop_front() {
                    self.hands[seat].push(drawn);
                    self.send(&ServerMessage::Tile {
                        player,
                        tile: drawn,
                    })?;
                }
            }
            Move::Swap(tile) => {
                let drawn = self.bag.pop_front().ok_or_else(|| {
                    Failure::new(
                        "a tile in the bag to swap with (the checker's fault: please report it)",
                        "an empty bag",
                    )
                })?;
                take(&mut self.hands[seat], tile);
                self.bag.push_back(tile);
                self.hands[seat].push(drawn);
                self.idle += 1;
                self.send(&ServerMessage::Swapped {
                    player: player.clone(),
                    returned: tile,
                })?;
                self.send(&ServerMessage::Tile {
                    player,
                    tile: drawn,
                })?;
            }
            Move::Skip => {
                self.idle += 1;
                self.send(&ServerMessage::Skipped { player })?;
            }
        }
        self.last_mover = Some(seat);
        self.turn = (self.turn + 1) % self.players.len();
        if self.turn == self.seat {
            self.turn_given = Instant::now();
        }
        Ok(())
    }

    /// The client's move is refused with `ERROR <code> <message>`: still its turn.
    ///
    /// # Errors
    ///
    /// The write failed.
    pub fn refuse(&mut self, code: ErrorCode, message: &str) -> Step<()> {
        self.send(&ServerMessage::error(code, message))?;
        self.turn_given = Instant::now();
        Ok(())
    }

    /// The opponent to move makes `mv`, which the rules allow it: first, nothing may
    /// have come from the client (it is not its turn).
    ///
    /// # Errors
    ///
    /// The client sent a line out of turn, the rules refuse `mv` (a mistake of the
    /// case's), or a write failed.
    pub fn opponent(&mut self, mv: Move) -> Step<()> {
        let seat = self.turn;
        let fault = |why: String| {
            Failure::new(
                "a move the checker's opponent may make (the checker's fault: please report it)",
                format!("{} by {}: {why}", describe(mv), self.players[seat]),
            )
        };
        let hand = &self.hands[seat];
        match mv {
            Move::Play(placement) => {
                if !hand.contains(&placement.tile.tile()) {
                    return Err(fault("not in its hand".into()));
                }
                self.board
                    .check(placement.tile, placement.location)
                    .map_err(|why| fault(why.to_string()))?;
            }
            Move::Swap(tile) if !hand.contains(&tile) || self.bag.is_empty() => {
                return Err(fault("not in its hand, or the bag is empty".into()));
            }
            Move::Swap(_) | Move::Skip if self.board.can_place_any(hand) => {
                return Err(fault("it can place a tile".into()));
            }
            Move::Swap(_) | Move::Skip => {}
        }
        let why = format!("it is {}'s turn", self.players[seat]);
        let follows_opponent = self.last_mover.is_some_and(|s| s != self.seat);
        if self.watchful && follows_opponent {
            self.nothing_for(self.quiet, &why)?;
        } else {
            self.nothing_for(POLL, &why)?;
        }
        self.make(mv)
    }

    /// The opponent's move: the first placement the engine finds (the lowest field),
    /// else a swap of its first tile while the bag has tiles, else a skip.
    pub fn opponent_choice(&self) -> Move {
        let hand = &self.hands[self.turn];
        match self.board.find_placement(hand) {
            Some(placement) => Move::Play(placement),
            None => match hand.first() {
                Some(&tile) if !self.bag.is_empty() => Move::Swap(tile),
                _ => Move::Skip,
            },
        }
    }

    /// Plays until the client has made `moves` moves (or the game is over by the
    /// rules): the client on its turns, the opponents ([`Host::opponent_choice`]) on
    /// theirs. Returns right after the client's last move.
    ///
    /// # Errors
    ///
    /// A move of the client's is not as the documents say.
    pub fn play(&mut self, moves: usize) -> Step<()> {
        let mut made = 0;
        let mut turns = 0;
        while made < moves && !self.is_over() && turns < MAX_TURNS {
            if self.turn == self.seat {
                self.client_moves()?;
                made += 1;
            } else {
                let mv = self.opponent_choice();
                self.opponent(mv)?;
            }
            turns += 1;
        }
        Ok(())
    }

    /// Plays the game to its end by the rules, then sends SCORE.
    ///
    /// # Errors
    ///
    /// A move of the client's is not as the documents say, or the game does not end.
    pub fn play_to_end(&mut self) -> Step<()> {
        self.play(MAX_TURNS)?;
        if !self.is_over() {
            return Err(Failure::new(
                format!("the game to end within {MAX_TURNS} turns"),
                "it went on",
            ));
        }
        self.score()
    }

    /// Whether the game is over by the rules: the bag is empty and nobody can place,
    /// or three whole rounds passed without a placement.
    pub fn is_over(&self) -> bool {
        let stuck = self.bag.is_empty() && (0..self.players.len()).all(|s| !self.can_place(s));
        stuck || self.idle >= 3 * self.players.len()
    }

    /// Whether the player at `seat` can place a tile.
    pub fn can_place(&self, seat: usize) -> bool {
        self.board.can_place_any(&self.hands[seat])
    }

    /// The most points any placement of the client's would score now, if it can place.
    pub fn best_points(&self) -> Option<u32> {
        Location::all()
            .flat_map(|location| {
                self.hands[self.seat].iter().flat_map(move |&tile| {
                    tile.distinct_rotations()
                        .iter()
                        .map(move |&rotation| (OrientedTile::new(tile, rotation), location))
                })
            })
            .filter_map(|(tile, location)| self.board.check(tile, location).ok())
            .max()
    }

    /// `SCORE` with everyone's points, in turn order.
    ///
    /// # Errors
    ///
    /// The write failed.
    pub fn score(&mut self) -> Step<()> {
        let scores = self
            .players
            .iter()
            .cloned()
            .zip(self.points.iter().copied())
            .collect();
        self.send(&ServerMessage::Score { scores })
    }

    /// Nothing from the client for `wait` (a line it must not send).
    ///
    /// # Errors
    ///
    /// A line came: `why` says why none may.
    pub fn nothing_for(&mut self, wait: Duration, why: &str) -> Step<()> {
        match self.wire.hear(wait) {
            Heard::Line(line) => Err(Failure::new(format!("nothing ({why})"), line)),
            _ => Ok(()),
        }
    }

    /// The board as the report shows it: each field's tile, or its number.
    pub fn rows(&self) -> Vec<String> {
        (0..6u8)
            .map(|row| {
                let first = row * row;
                let fields: Vec<String> = (first..first + 2 * row + 1)
                    .filter_map(Location::new)
                    .map(|location| match self.board.get(location) {
                        Some(tile) => tile.to_string(),
                        None => format!("{:>4}", location.index()),
                    })
                    .collect();
                format!(
                    "{}{}",
                    " ".repeat(5 * (5 - usize::from(row))),
                    fields.join(" ")
                )
            })
            .collect()
    }

    /// Shows the board in the case's report.
    pub fn show(&self, probe: &mut Probe, caption: &str) {
        probe.show(caption, self.rows());
    }
}

/// Reads a client's move line; `expected` names what was waited for.
///
/// # Errors
///
/// Not a move, or a tile in no set.
pub fn read_move(line: &str, expected: &str) -> Step<Move> {
    let command = match protocol::parse(line) {
        Ok(Some(request)) => request.command,
        _ => return Err(Failure::new(expected, line)),
    };
    match command {
        Ok(Command::Play { spelling, location }) => {
            let tile = spelling.resolve().ok_or_else(|| {
                Failure::new(
                    "a tile of the set, in any rotation of its letters",
                    format!("{line}: {spelling} is no tile of the set"),
                )
            })?;
            Ok(Move::Play(Placement { tile, location }))
        }
        Ok(Command::Swap { letters }) => Tile::find(letters).map(Move::Swap).ok_or_else(|| {
            Failure::new(
                "a tile of the set, in any rotation of its letters",
                format!("{line}: {letters} is no tile of the set"),
            )
        }),
        Ok(Command::Skip) => Ok(Move::Skip),
        Ok(_) => Err(Failure::new(expected, line)),
        Err(why) => Err(Failure::new(expected, format!("{line} ({why})"))),
    }
}

/// Another spelling of `tile` as it lies: its letters read from another start, with
/// the digit that puts the same colours on the same edges (`YRR2` for `RRY0`); for a
/// uniform tile, another digit (`RRR1`).
pub fn other_spelling(tile: OrientedTile) -> Spelling {
    let dealt = Spelling::from(tile);
    (0..3)
        .flat_map(|shift| {
            Rotation::ALL.into_iter().map(move |rotation| Spelling {
                letters: tile.tile().letters().turned(shift),
                rotation,
            })
        })
        .find(|s| *s != dealt && s.resolve() == Some(tile))
        .unwrap_or(dealt)
}

/// Takes one `tile` out of `hand`.
fn take(hand: &mut Vec<Tile>, tile: Tile) {
    if let Some(at) = hand.iter().position(|t| *t == tile) {
        hand.remove(at);
    }
}

/// `RRY0 GGB0 ...`.
pub fn hand_text(hand: &[Tile]) -> String {
    hand.iter()
        .map(Tile::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}
