//! Playing on the shared board: `Place` and `Pass` with the engine's verdicts, a move
//! accepted (a client's or the practice bot's), `NewBoard`, a loaded SGF, the room's
//! name. A move that ends the game hands over to `ending`.

use super::Room;
use crate::engine::go::{Colour, Game, IllegalMove, Move, Point};
use crate::engine::sgf::SgfError;
use crate::frontend::bkgo::protocol::{PlayerId, Refusal, ServerMessage};
use crate::frontend::card;
use crate::live::GoRecord;
use crate::net::Connection;
use std::sync::Arc;
use std::time::{Instant, SystemTime};

impl Room {
    /// `Place: x, y` from member `id`: seated, its turn, on the board, legal.
    pub(super) fn place(&mut self, conn: &Arc<Connection>, id: PlayerId, x: i64, y: i64) {
        let Some(colour) = self.mover(conn, id, "Place") else {
            return;
        };
        let size = self.game.size();
        let on_board = |n: i64| u8::try_from(n).ok().filter(|&n| usize::from(n) < size);
        let (Some(col), Some(row)) = (on_board(x), on_board(y)) else {
            self.refuse(conn, &Refusal::OffBoard { x, y, size });
            return;
        };
        let mv = Move::Play(Point::new(row, col));
        match self.game.play(colour, mv) {
            Ok(report) => {
                conn.accepted();
                self.moved(conn);
                self.accepted(colour, mv, report.game_over);
            }
            Err(reason) => {
                let refusal = match reason {
                    IllegalMove::GameOver => Refusal::GameOver,
                    IllegalMove::NotYourTurn { to_move } => self.not_your_turn(to_move),
                    reason => Refusal::Illegal {
                        x: usize::from(col),
                        y: usize::from(row),
                        reason,
                    },
                };
                self.refuse(conn, &refusal);
            }
        }
    }

    /// `Pass` from member `id`: seated and its turn. The second pass in a row ends
    /// the game.
    pub(super) fn pass(&mut self, conn: &Arc<Connection>, id: PlayerId) {
        let Some(colour) = self.mover(conn, id, "Pass") else {
            return;
        };
        match self.game.play(colour, Move::Pass) {
            Ok(report) => {
                conn.accepted();
                self.moved(conn);
                self.accepted(colour, Move::Pass, report.game_over);
            }
            Err(IllegalMove::NotYourTurn { to_move }) => {
                let refusal = self.not_your_turn(to_move);
                self.refuse(conn, &refusal);
            }
            Err(_) => self.refuse(conn, &Refusal::GameOver),
        }
    }

    /// A move the engine has just played for `colour` (a client's `Place` or `Pass`,
    /// or the bot's): it goes to the web record and the counters, the room gets it as
    /// `Place: x, y` or `Pass`, and the game ends on a second pass (`game_over`) or
    /// at the move limit.
    pub(super) fn accepted(&mut self, colour: Colour, mv: Move, game_over: bool) {
        self.turn_began = Instant::now();
        self.web_record.log.push(colour, mv, self.game.size());
        self.played_here += 1;
        self.count_move();
        let line = match mv {
            Move::Play(point) => ServerMessage::Place {
                x: usize::from(point.col()),
                y: usize::from(point.row()),
            },
            Move::Pass => ServerMessage::Pass,
        };
        self.broadcast(&[line]);
        if game_over {
            self.end("Game over: both players passed");
        } else {
            self.check_move_limit();
        }
    }

    /// A client's move was accepted: its card counts it, and how long it took since
    /// the client was told it was its turn.
    fn moved(&self, conn: &Connection) {
        if let Some(card) = card::of(conn) {
            card.moved(self.turn_began.elapsed());
        }
    }

    /// The colour member `id` may move for now, or the refusal sent (a watcher, the
    /// game over, not its turn).
    fn mover(&self, conn: &Connection, id: PlayerId, command: &'static str) -> Option<Colour> {
        let refusal = match self.members.seat_of(id) {
            None => Refusal::WatcherMove { command },
            Some(_) if self.game.is_over() => Refusal::GameOver,
            Some(colour) if colour != self.game.to_move() => {
                self.not_your_turn(self.game.to_move())
            }
            Some(colour) => return Some(colour),
        };
        self.refuse(conn, &refusal);
        None
    }

    fn not_your_turn(&self, to_move: Colour) -> Refusal {
        Refusal::NotYourTurn {
            to_move,
            player: self.members.holder_name(to_move),
        }
    }

    /// A game that reaches the move limit (`Settings::moves_per_point` moves per
    /// point) ends and is scored: it bounds the memory of a game that never ends.
    fn check_move_limit(&mut self) {
        let size = self.game.size();
        let limit = self
            .parts
            .settings
            .moves_per_point
            .saturating_mul(size * size);
        if !self.game.is_over() && self.game.moves().len() >= limit {
            self.end(&format!(
                "Game over: the limit of {limit} moves was reached"
            ));
        }
    }

    /// `NewBoard` from a seated member: a new empty game of the room's size; the room
    /// gets the player list, the seats and the board again.
    pub(super) fn new_board(&mut self, conn: &Arc<Connection>, id: PlayerId) {
        if self.members.seat_of(id).is_none() {
            self.refuse(
                conn,
                &Refusal::SeatedOnly {
                    command: "NewBoard",
                },
            );
            return;
        }
        conn.accepted();
        self.start(self.parts.empty.clone());
        log::info!("bkgo room: game {} started by NewBoard", self.number);
        let lines = self.roster_and_board();
        self.broadcast(&lines);
    }

    /// An SGF stream (`SendingBoard` ... `EOF`) from member `from`: from a seated
    /// member before the game's first `Place` or `Pass`, a readable record becomes
    /// the board and the room gets it.
    pub(super) fn load(&mut self, from: crate::net::ConnId, game: Result<Box<Game>, SgfError>) {
        let Some(member) = self.members.by_conn(from) else {
            return;
        };
        let Some(conn) = member.conn.client().map(Arc::clone) else {
            return;
        };
        let id = member.id;
        let refusal = if self.members.seat_of(id).is_none() {
            Refusal::SeatedOnly {
                command: "SendingBoard",
            }
        } else if self.played_here > 0 {
            Refusal::BoardAfterFirstMove
        } else {
            match game {
                Ok(game) => {
                    conn.accepted();
                    self.start(*game);
                    log::info!(
                        "bkgo room: game {} loaded from SGF ({} moves)",
                        self.number,
                        self.game.moves().len()
                    );
                    let lines = self.board_lines();
                    self.broadcast(&lines);
                    // A record that ends the game ends it here too: the room hears
                    // the result, as after two passes played in the room.
                    if self.game.is_over() {
                        self.end("Game over: the loaded board ends with two passes");
                    } else {
                        self.check_move_limit();
                    }
                    return;
                }
                Err(error) => Refusal::Sgf(error),
            }
        };
        self.refuse(&conn, &refusal);
    }

    /// `game` becomes the room's game: a new game number, nothing played here yet.
    fn start(&mut self, game: Game) {
        self.game = game;
        self.played_here = 0;
        self.ending = None;
        self.number += 1;
        self.started = SystemTime::now();
        self.turn_began = Instant::now();
        let capacity = super::moves_allowed(&self.parts.settings, &self.game);
        self.web_record = GoRecord::start(&self.game, self.started, capacity);
    }

    /// `SetName:` from a seated member names the room (shown by `status` and the
    /// console); any text will do, and an empty one unnames it. Nothing is broadcast.
    pub(super) fn set_name(&mut self, conn: &Arc<Connection>, id: PlayerId, text: String) {
        if self.members.seat_of(id).is_none() {
            self.refuse(conn, &Refusal::SeatedOnly { command: "SetName" });
            return;
        }
        conn.accepted();
        log::info!("bkgo room: named {text:?}");
        self.name = (!text.is_empty()).then_some(text);
    }
}
