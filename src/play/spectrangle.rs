//! `goserver play spectrangle`: a correct Spectrangle client. It joins, says READY,
//! follows the game from the lines every player hears (START, TILE, UPDATE), keeps the
//! board, the hands and the points on the rules engine, and on its turn asks
//! SpectraBot, the practice bot, on the game as it sees it (the bag's order unknown:
//! see `Game::observed`). A move the server refused is not sent again in that turn:
//! then the placement worth the most points, else a swap (while the bag has tiles),
//! else a skip, as the rules allow. With `--human`, the person types the move line
//! itself (`MOVE_PLAY RRY0 4`, `MOVE_SKIP`).
//!
//! Lines go through the protocol module the server uses (it formats [`Command`]s and
//! parses [`ServerMessage`]s); every wait is bounded as in the GO! client.

use super::link::{Heard, Link};
use super::{Outcome, PlayOptions, Say};
use crate::engine::bot::spectrangle::Choice;
use crate::engine::bot::{Budget, SpectrangleBot};
use crate::engine::spectrangle::{Board, Game, Location, OrientedTile, Spelling, Tile};
use crate::frontend::spectrangle::protocol::{self, Command, PlayerName, ServerMessage};
use crossbeam_channel::{Receiver, after, select};
use std::collections::HashSet;
use std::time::{Duration, Instant};

/// Tiles in the game, all told: what is in no hand and on no field is in the bag.
const TILES: usize = 36;

/// Tiles in a full hand: four each are dealt at the start.
const HAND: usize = 4;

/// How long the client waits for SCORE when, by the rules, the game is over (nobody can
/// place and the bag is empty, or three rounds passed without a placement) before it
/// moves anyway (a server that ends games otherwise).
const SCORE_WAIT: Duration = Duration::from_secs(5);

/// Refused moves in a row after which the client gives up.
const REFUSALS_BEFORE_GIVING_UP: usize = 12;

/// One game as the client sees it.
#[derive(Default)]
struct Table {
    /// The players in turn order (START), and each one's hand.
    players: Vec<String>,
    hands: Vec<Vec<Tile>>,
    board: Board,
    /// Whose turn it is, by index in `players`.
    to_move: usize,
    /// Moves the server refused in this turn, as sent.
    refused: HashSet<String>,
    refusals_in_a_row: usize,
    /// A move of the client's is on its way: no other is sent before its answer (the
    /// UPDATE that ends the turn, or an ERROR).
    pending: bool,
    /// Turns in a row without a placement.
    idle_turns: usize,
    /// SCORE was waited for in this turn and did not come.
    score_waited: bool,
    /// TILE lines heard since START: the deal is done at four per player.
    tiles_heard: usize,
    /// Each player's points so far, by the rules engine.
    scores: Vec<u32>,
}

impl Table {
    fn seat(&self, name: &str) -> Option<usize> {
        self.players.iter().position(|p| p == name)
    }

    /// Whether the game is over by the rules: nobody can place a tile and the bag is
    /// empty, or three whole rounds passed without a placement. SCORE comes next.
    fn over(&self) -> bool {
        let nobody_can_place = self.in_bag() == 0
            && self.hands.iter().all(|hand| {
                !Location::all().any(|location| {
                    hand.iter().any(|&tile| {
                        tile.distinct_rotations().iter().any(|&rotation| {
                            self.board
                                .check(OrientedTile::new(tile, rotation), location)
                                .is_ok()
                        })
                    })
                })
            });
        nobody_can_place || (!self.players.is_empty() && self.idle_turns >= 3 * self.players.len())
    }

    /// Whether every tile drawn so far has been heard: the deal is out, and every hand
    /// is full unless the bag is empty.
    fn draws_heard(&self) -> bool {
        let dealt = self.tiles_heard >= HAND * self.players.len();
        dealt && (self.hands.iter().all(|hand| hand.len() >= HAND) || self.in_bag() == 0)
    }

    fn in_bag(&self) -> usize {
        TILES.saturating_sub(self.board.placed() + self.hands.iter().map(Vec::len).sum::<usize>())
    }

    /// The next turn.
    fn next_turn(&mut self) {
        self.refused.clear();
        self.refusals_in_a_row = 0;
        self.pending = false;
        self.score_waited = false;
        if !self.players.is_empty() {
            self.to_move = (self.to_move + 1) % self.players.len();
        }
    }

    /// SpectraBot's move for `seat` on the game as seen (`think` long at most), unless
    /// the server refused it in this turn: then [`Table::greedy`].
    fn choose(&self, seat: usize, bot: &mut SpectrangleBot, think: Duration) -> Command {
        let seen = Game::observed(
            self.board.clone(),
            self.hands.clone(),
            self.to_move,
            self.scores.clone(),
            self.idle_turns,
            u64::try_from(self.board.placed()).unwrap_or(0),
        );
        let chosen = seen.ok().and_then(|game| {
            let budget = Budget::until(Instant::now() + think);
            bot.choose(&game, seat, budget).ok()
        });
        let command = match chosen {
            Some(Choice::Place(placement)) => Command::Play {
                spelling: Spelling::from(placement.tile),
                location: placement.location,
            },
            Some(Choice::Swap(tile)) => Command::Swap {
                letters: tile.letters(),
            },
            Some(Choice::Skip) => Command::Skip,
            None => return self.greedy(seat),
        };
        if self.refused.contains(&command.to_string()) {
            return self.greedy(seat);
        }
        command
    }

    /// The placement worth the most points that was not refused, else a swap of its
    /// first tile while the bag has tiles, else a skip.
    fn greedy(&self, seat: usize) -> Command {
        let hand = self.hands.get(seat).map_or(&[][..], Vec::as_slice);
        let mut best: Option<(u32, Command)> = None;
        for location in Location::all() {
            for &tile in hand {
                for &rotation in tile.distinct_rotations() {
                    let oriented = OrientedTile::new(tile, rotation);
                    let Ok(points) = self.board.check(oriented, location) else {
                        continue;
                    };
                    let command = Command::Play {
                        spelling: Spelling::from(oriented),
                        location,
                    };
                    if self.refused.contains(&command.to_string()) {
                        continue;
                    }
                    if best.as_ref().is_none_or(|(most, _)| points > *most) {
                        best = Some((points, command));
                    }
                }
            }
        }
        if let Some((_, command)) = best {
            return command;
        }
        match hand.first() {
            Some(tile) if self.in_bag() > 0 => Command::Swap {
                letters: tile.letters(),
            },
            _ => Command::Skip,
        }
    }
}

/// The client.
struct Client<'a> {
    /// By the rules the game is over, and SCORE is waited for (see [`SCORE_WAIT`]).
    expecting_score: bool,
    /// SpectraBot, which chooses the moves unless a person does.
    bot: SpectrangleBot,
    options: &'a PlayOptions,
    link: Link,
    say: &'a Say,
    keyboard: Option<Receiver<String>>,
    table: Option<Table>,
    games_played: u32,
}

/// Plays `options.games` games on the Spectrangle server at `options.address`.
pub fn play(options: &PlayOptions, link: Link, say: &Say) -> Outcome {
    let keyboard = options.human.then(super::keyboard);
    let mut client = Client {
        expecting_score: false,
        bot: SpectrangleBot::new(options.seed()),
        options,
        link,
        say,
        keyboard,
        table: None,
        games_played: 0,
    };
    client.run()
}

impl Client<'_> {
    fn run(&mut self) -> Outcome {
        if let Err(outcome) = self.join() {
            return outcome;
        }
        loop {
            let wait = if self.expecting_score {
                SCORE_WAIT
            } else {
                self.options.patience
            };
            let Ok(heard) = self.link.heard.recv_timeout(wait) else {
                if self.expecting_score {
                    // No SCORE: the server plays on; so does the client.
                    self.expecting_score = false;
                    if let Some(table) = self.table.as_mut() {
                        table.score_waited = true;
                    }
                    if let Err(outcome) = self.move_if_mine() {
                        return outcome;
                    }
                    continue;
                }
                return Outcome::Failed(format!(
                    "the server sent nothing for {} s",
                    self.options.patience.as_secs()
                ));
            };
            let line = match heard {
                Heard::Line(line) => line,
                Heard::Closed(why) => {
                    return Outcome::Failed(format!(
                        "the server closed the connection ({why}) after {} of {} games",
                        self.games_played, self.options.games
                    ));
                }
                Heard::TooLong | Heard::NotText => {
                    self.say
                        .problem("the server sent a line too long, or not text: skipped");
                    continue;
                }
            };
            let message = match ServerMessage::parse(&line) {
                Ok(message) => message,
                Err(why) => {
                    self.say.problem(&format!(
                        "the server sent '{line}', which is no Spectrangle message ({why}): ignored"
                    ));
                    continue;
                }
            };
            match self.handle(message) {
                Ok(true) => {}
                Ok(false) => return Outcome::Done,
                Err(outcome) => return outcome,
            }
        }
    }

    fn send(&mut self, command: &Command) -> Result<(), Outcome> {
        self.link
            .send(&command.to_string())
            .map_err(|e| Outcome::Failed(format!("cannot send '{command}': {e}")))
    }

    fn join(&mut self) -> Result<(), Outcome> {
        let name = PlayerName::parse(&self.options.name).map_err(|e| {
            Outcome::Failed(format!(
                "'{}' is no Spectrangle name: {e}",
                self.options.name
            ))
        })?;
        self.table = None;
        self.send(&Command::Join { name, lobby: None })
    }

    /// Handles one message; `Ok(false)` when the run is over.
    fn handle(&mut self, message: ServerMessage) -> Result<bool, Outcome> {
        match message {
            ServerMessage::Lobby { players } => {
                if self.table.is_none() && players.contains(&self.options.name) {
                    self.say
                        .line(&format!("in a lobby with {}", players.join(" ")));
                    self.table = Some(Table::default());
                    self.send(&Command::Ready)?;
                }
            }
            ServerMessage::Start { players } => {
                self.say
                    .line(&format!("the game starts: {}", players.join(" ")));
                let hands = vec![Vec::new(); players.len()];
                let scores = vec![0; players.len()];
                self.table = Some(Table {
                    players,
                    hands,
                    scores,
                    ..Table::default()
                });
            }
            ServerMessage::Tile { player, tile } => {
                if let Some(table) = self.table.as_mut()
                    && let Some(seat) = table.seat(&player)
                {
                    table.hands[seat].push(tile);
                    table.tiles_heard += 1;
                }
                self.move_if_mine()?;
            }
            ServerMessage::Played {
                player,
                tile,
                location,
            } => {
                self.expecting_score = false;
                if let Some(table) = self.table.as_mut() {
                    table.idle_turns = 0;
                    let points = table.board.place(tile, location).unwrap_or(0);
                    if let Some(seat) = table.seat(&player) {
                        remove(&mut table.hands[seat], tile.tile());
                        if let Some(score) = table.scores.get_mut(seat) {
                            *score += points;
                        }
                    }
                    table.next_turn();
                }
                self.move_if_mine()?;
            }
            ServerMessage::Swapped { player, returned } => {
                if let Some(table) = self.table.as_mut() {
                    table.idle_turns += 1;
                    if let Some(seat) = table.seat(&player) {
                        remove(&mut table.hands[seat], returned);
                    }
                    table.next_turn();
                }
                // The TILE drawn comes next: the move waits for it.
            }
            ServerMessage::Skipped { .. } => {
                if let Some(table) = self.table.as_mut() {
                    table.idle_turns += 1;
                    table.next_turn();
                }
                self.move_if_mine()?;
            }
            ServerMessage::Score { scores } => {
                self.expecting_score = false;
                self.games_played += 1;
                let shown: Vec<String> = scores.iter().map(|(n, p)| format!("{n} {p}")).collect();
                self.say.line(&format!(
                    "game {} of {}: {}",
                    self.games_played,
                    self.options.games,
                    shown.join(", ")
                ));
                if self.games_played >= self.options.games {
                    return Ok(false);
                }
                self.join()?;
            }
            ServerMessage::Error { code, message } => {
                self.say.problem(&format!(
                    "the server refused a line: ERROR {code} {message}"
                ));
                let Some(table) = self.table.as_mut() else {
                    return Ok(true);
                };
                if !table.pending {
                    return Ok(true);
                }
                table.pending = false;
                table.refusals_in_a_row += 1;
                if table.refusals_in_a_row >= REFUSALS_BEFORE_GIVING_UP {
                    return Err(Outcome::Failed(format!(
                        "the server refused {REFUSALS_BEFORE_GIVING_UP} moves in a row"
                    )));
                }
                self.move_if_mine()?;
            }
            ServerMessage::AvailableExtensions { .. }
            | ServerMessage::ChatMessage { .. }
            | ServerMessage::ActiveLobbies { .. } => {}
        }
        Ok(true)
    }

    /// Moves if the game is on, it is the client's turn, and every tile drawn has been
    /// heard: every hand is full unless the bag is empty. The server sends a player's
    /// TILE after the UPDATE of its placement or swap, so the turn passes before the
    /// draw is heard; a move chosen then would count the drawn tile as still in the
    /// bag (and swap from an empty bag).
    fn move_if_mine(&mut self) -> Result<(), Outcome> {
        let name = self.options.name.clone();
        let Some(table) = &self.table else {
            return Ok(());
        };
        let Some(seat) = table.seat(&name) else {
            return Ok(());
        };
        if table.to_move != seat || !table.draws_heard() || table.pending {
            return Ok(());
        }
        if table.over() && !table.score_waited {
            // SCORE is next, by the rules: a move now would answer nothing.
            self.expecting_score = true;
            return Ok(());
        }
        let command = match &self.keyboard {
            Some(keyboard) => self.ask_person(keyboard.clone(), seat)?,
            None => table.choose(seat, &mut self.bot, self.options.think),
        };
        if let Some(table) = self.table.as_mut() {
            table.refused.insert(command.to_string());
            table.pending = true;
        }
        self.send(&command)
    }

    /// The person types the move line (its hand and the board's placements shown).
    fn ask_person(&self, keyboard: Receiver<String>, seat: usize) -> Result<Command, Outcome> {
        let Some(table) = &self.table else {
            return Ok(Command::Skip);
        };
        let hand: Vec<String> = table.hands[seat]
            .iter()
            .map(|tile| Spelling::from(tile.dealt()).to_string())
            .collect();
        self.say.line(&format!(
            "your tiles: {}; suggested: {}",
            hand.join(" "),
            table.greedy(seat)
        ));
        loop {
            self.say
                .prompt("your move (MOVE_PLAY <tile> <field>, MOVE_SWAP <tile>, MOVE_SKIP): ");
            select! {
                recv(keyboard) -> typed => {
                    let Ok(typed) = typed else {
                        return Err(Outcome::Failed("the keyboard's input ended".into()));
                    };
                    match protocol::parse(&typed).map(|r| r.map(|r| r.command)) {
                        Ok(Some(Ok(command @ (Command::Play { .. } | Command::Swap { .. } | Command::Skip)))) => {
                            return Ok(command);
                        }
                        Ok(Some(Err(why))) => self.say.line(&why.to_string()),
                        Err(why) => self.say.line(&why.to_string()),
                        Ok(_) => self.say.line("a move, please: MOVE_PLAY, MOVE_SWAP or MOVE_SKIP"),
                    }
                }
                recv(after(self.options.patience)) -> _ => {
                    return Err(Outcome::Failed(format!(
                        "no move typed within {} s", self.options.patience.as_secs()
                    )));
                }
            }
        }
    }
}

/// Takes one `tile` out of `hand`.
fn remove(hand: &mut Vec<Tile>, tile: Tile) {
    if let Some(at) = hand.iter().position(|t| *t == tile) {
        hand.remove(at);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::spectrangle::Rotation;

    fn tile(letters: &str) -> Tile {
        Tile::ALL
            .into_iter()
            .find(|t| t.letters().to_string() == letters)
            .expect("a set tile")
    }

    /// With the bag's tiles still to come, the turn passes to the client on the
    /// UPDATE of a placement, before the placer's TILE: the client waits for it. (That
    /// the last placements, with the bag empty, are not waited for is shown by every
    /// game of `tests/play.rs` reaching SCORE.)
    #[test]
    fn the_draw_after_a_placement_is_waited_for() {
        let hand = |letters: [&str; 4]| letters.map(tile).to_vec();
        let mut table = Table {
            players: vec!["Dan".into(), "Eve".into()],
            hands: vec![
                hand(["RRY", "RRB", "RRP", "RRG"]),
                hand(["YYR", "YYB", "YYP", "YYG"]),
            ],
            tiles_heard: 8,
            ..Table::default()
        };
        assert!(table.draws_heard(), "the deal is out");
        let first = Location::all()
            .find_map(|location| {
                let oriented = OrientedTile::new(tile("RRY"), Rotation::ZERO);
                table
                    .board
                    .check(oriented, location)
                    .is_ok()
                    .then_some((oriented, location))
            })
            .expect("a field for the first tile");
        table.board.place(first.0, first.1).expect("placed");
        remove(&mut table.hands[0], tile("RRY"));
        table.next_turn();
        assert!(!table.draws_heard(), "Dan's TILE is still to come");
        table.hands[0].push(tile("GGG"));
        assert!(table.draws_heard());
    }
}
