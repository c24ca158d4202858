//! Playing on the shared board: `Place` and `Pass` with the engine's verdicts, a move
//! accepted (a client's or the practice bot's), the end of a game and its record,
//! `NewBoard`, a loaded SGF, the room's name.

use super::{Ending, PendingEnd, RESULT_WAIT, Room, label};
use crate::engine::go::{Colour, Game, IllegalMove, Move, Point};
use crate::engine::sgf::{self, RecordInfo, SgfError};
use crate::front::Front;
use crate::frontend::bkgo::protocol::{PlayerId, Refusal, ServerMessage};
use crate::frontend::card;
use crate::live::GoRecord;
use crate::net::Connection;
use crate::records;
use crate::results::{self, GameResult, result::GoGame};
use crossbeam_channel::Receiver;
use std::collections::VecDeque;
use std::sync::Arc;
use std::sync::atomic::Ordering;
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
        let limit = self.settings.moves_per_point.saturating_mul(size * size);
        if !self.game.is_over() && self.game.moves().len() >= limit {
            self.end(&format!(
                "Game over: the limit of {limit} moves was reached"
            ));
        }
    }

    /// The game ends on the board: its record is written, then the room hears the
    /// area score and the winner. The board stays until `NewBoard`.
    fn end(&mut self, why: &str) {
        let score = self.game.score();
        let verdict = match score.winner() {
            Some(colour) => format!(
                "{} wins by {}",
                label(self.members.holder_name(colour).as_deref(), colour),
                score.margin()
            ),
            None => "a draw".to_string(),
        };
        let text = format!(
            "{why}. Area score: black {}, white {} (komi {}): {verdict}",
            score.black_text(),
            score.white_text(),
            self.game.rules().komi
        );
        let code = sgf::score_result(&score);
        self.record(&code);
        let _ = self.web_record.finished.set(self.sgf(&code).into());
        let kind = if self.game.is_over() {
            results::Ending::Passes
        } else {
            results::Ending::Score
        };
        self.counters.games_finished.fetch_add(1, Ordering::Relaxed);
        log::info!("bkgo room: game {} finished: {text}", self.number);
        let ending = Ending {
            text,
            code,
            at: SystemTime::now(),
        };
        match self.record_result(score.winner(), kind) {
            None => self.conclude(ending),
            Some(synced) => {
                self.pending_end = Some(PendingEnd {
                    ending,
                    synced,
                    deadline: Instant::now() + RESULT_WAIT,
                    deferred: VecDeque::new(),
                });
            }
        }
    }

    /// Tells the room how the game ended; then the practice bot, if it played, leaves
    /// its seat: a human comes first for the next game.
    pub(super) fn conclude(&mut self, ending: Ending) {
        self.tell_end(ending);
        self.bot_leaves_after_the_end();
    }

    /// Tells the room how the game ended.
    pub(super) fn tell_end(&mut self, ending: Ending) {
        self.broadcast(&[ServerMessage::Dialog(ending.text.clone())]);
        self.ending = Some(ending);
    }

    /// Files the game among the results (ARENA.md: a Bkgo game is one when it ends
    /// on the board with both seats taken), before the room hears the end. With a
    /// results file, the line is appended and synced on a thread of its own, and the
    /// receiver returned is disconnected once it is on disk: the room, which every
    /// member shares, never waits for the disk.
    fn record_result(
        &self,
        winner: Option<Colour>,
        ending: results::Ending,
    ) -> Option<Receiver<()>> {
        let (Some(black), Some(white)) = (
            self.members.holder_name(Colour::Black),
            self.members.holder_name(Colour::White),
        ) else {
            log::info!(
                "bkgo room: game {} is no result: a seat was empty at its end",
                self.number
            );
            return None;
        };
        let winner = winner.map(|colour| match colour {
            Colour::Black => black.as_str(),
            Colour::White => white.as_str(),
        });
        let game = GoGame {
            front: Front::Bkgo,
            game: u64::from(self.number),
            started: self.started,
            black: &black,
            white: &white,
            position: &self.game,
        };
        let result = GameResult::of_go(&game, winner, ending);
        self.cards.count_result(&result);
        if !self.results.has_file() {
            self.results.record(result);
            return None;
        }
        let (on_disk, synced) = crossbeam_channel::bounded::<()>(0);
        let results = Arc::clone(&self.results);
        let kept = result.clone();
        let spawned = std::thread::Builder::new()
            .name("bkgo-result".into())
            .spawn(move || {
                results.record(result);
                drop(on_disk);
            });
        match spawned {
            Ok(_) => Some(synced),
            Err(e) => {
                log::error!(
                    "bkgo room: no thread to record a result ({e}): the room waits for the disk"
                );
                self.results.record(kept);
                None
            }
        }
    }

    /// Hands the game's record, with result `code`, to the records writer
    /// (`--records`, if set): the room never waits for the disk.
    pub(super) fn record(&self, code: &str) {
        let Some(writer) = &self.records else {
            return;
        };
        let file_name = format!("bkgo-{}-{}.sgf", records::unix_seconds(), self.number);
        writer.save(
            file_name,
            self.sgf(code),
            format!("bkgo game {}", self.number),
        );
    }

    /// The game's SGF, with result `code` (empty while it goes on).
    pub(super) fn sgf(&self, code: &str) -> String {
        let black = self.members.holder_name(Colour::Black).unwrap_or_default();
        let white = self.members.holder_name(Colour::White).unwrap_or_default();
        sgf::write(
            &self.game,
            &RecordInfo {
                black: &black,
                white: &white,
                result: code,
                started: self.started,
            },
        )
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
        self.start(self.empty.clone());
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
        let capacity = super::moves_allowed(&self.settings, &self.game);
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
