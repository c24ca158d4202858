//! What the room shows: the summary it publishes for the console, the console's
//! detailed view, the `status` line, and the lines that send the roster and the board.

use super::Room;
use crate::engine::go::{Colour, Move};
use crate::frontend::bkgo::protocol::{RoomStatus, ServerMessage};
use crate::frontend::bkgo::summary::RoomView;
use crate::live::{self, Detail, Front, GoBoard, Snapshot};
use std::time::SystemTime;

impl Room {
    /// Publishes the summary the console reads, and the snapshot the web board shows
    /// (`bkgo/1`: the room is always listed), after every event.
    pub(super) fn publish(&mut self) {
        // A move made (or a new game): the next player is waited for from now.
        let turns = (self.number, self.game.moves().len());
        if turns != self.turn_since.1 {
            self.turn_since = (SystemTime::now(), turns);
        }
        self.publish_summary();
        // Chat changes nothing the board shows: nothing is built for it.
        let mark = (
            self.number,
            self.game.moves().len(),
            self.ending.is_some(),
            self.members.len(),
            self.members.holder(Colour::Black).map(|m| m.id),
            self.members.holder(Colour::White).map(|m| m.id),
        );
        if self.published == Some(mark) {
            return;
        }
        self.published = Some(mark);
        let status = self.web_status();
        // WEB.md: the room starts when it last became playing: when both seats are
        // taken, and again at a NewBoard after a finished game. A seat that changes
        // hands mid-game changes nothing.
        if status == live::Status::Playing && self.web_status != Some(live::Status::Playing) {
            self.playing_since = Some(SystemTime::now());
        } else if status == live::Status::Waiting {
            self.playing_since = None;
        }
        self.web_status = Some(status);
        let players: Vec<live::Seat> = [Colour::Black, Colour::White]
            .into_iter()
            .filter_map(|colour| {
                Some(live::Seat {
                    name: self.members.holder_name(colour)?,
                    colour: Some(live::colour_digit(colour)),
                })
            })
            .collect();
        let watchers = self.members.len() - players.len();
        let summary = live::Summary {
            front: Front::Bkgo,
            id: 1,
            status,
            players,
            size: Some(self.game.size()),
            moves: self.game.moves().len(),
            turn: (status == live::Status::Playing)
                .then(|| self.members.holder_name(self.game.to_move()))
                .flatten(),
            turn_since: (status == live::Status::Playing)
                .then(|| crate::results::result::at(self.turn_since.0)),
            result: self.ending.as_ref().map(|e| e.text.clone()),
            watchers: Some(watchers),
        };
        let ended = self.ending.as_ref().map(|e| e.at);
        self.parts.live.publish(Snapshot::new(
            summary,
            Detail::Go(GoBoard::of(Some(&self.game), Some(&self.web_record))),
            self.playing_since,
            ended,
        ));
    }

    /// Waiting until both seats are taken, playing while they are, finished after two
    /// passes until `NewBoard`.
    fn web_status(&self) -> live::Status {
        let seated = [Colour::Black, Colour::White]
            .into_iter()
            .all(|colour| self.members.holder(colour).is_some());
        if self.ending.is_some() {
            live::Status::Finished
        } else if seated {
            live::Status::Playing
        } else {
            live::Status::Waiting
        }
    }

    /// Publishes the summary the console reads.
    fn publish_summary(&self) {
        let members = self.members.rows();
        let mut summary = self.parts.summary.lock();
        summary.name.clone_from(&self.name);
        summary.members = members;
        summary.size = self.game.size();
        summary.moves = self.game.moves().len();
        summary.to_move = (!self.game.is_over()).then(|| self.game.to_move());
        summary.turn_since = summary.to_move.map(|_| self.turn_since.0);
        summary.result = self.ending.as_ref().map(|e| e.text.clone());
    }

    /// The room in detail, for the console.
    pub(super) fn view(&self) -> RoomView {
        let last_move = self.game.last_move();
        let last_stone = last_move.and_then(|m| match m.mv {
            Move::Play(point) => Some(point),
            Move::Pass => None,
        });
        let score = self.game.score();
        RoomView {
            summary: self.parts.summary.lock().clone(),
            board: self.game.board().render(last_stone),
            last_move,
            captures: (
                self.game.captures(Colour::Black),
                self.game.captures(Colour::White),
            ),
            score: (score.black_text(), score.white_text()),
            sgf: self.sgf(self.result_code()),
        }
    }

    /// The `status` line's numbers: moves, the area score of the board, players.
    pub(super) fn status(&self) -> RoomStatus {
        let score = self.game.score();
        RoomStatus {
            moves: self.game.moves().len(),
            black: score.black_text(),
            white: score.white_text(),
            players: self.members.len(),
            name: self.name.clone(),
        }
    }

    /// `ClearPlayers`, an `AddPlayer:` per member in join order, the two seats, then
    /// the board: what a joiner gets after its ID, and the room after `NewBoard`.
    pub(super) fn roster_and_board(&self) -> Vec<ServerMessage> {
        let mut lines = vec![ServerMessage::ClearPlayers];
        lines.extend(
            self.members
                .iter()
                .map(|m| ServerMessage::AddPlayer(m.name.clone())),
        );
        for colour in [Colour::Black, Colour::White] {
            lines.push(ServerMessage::Seat {
                colour,
                player: self.members.holder_name(colour),
            });
        }
        lines.extend(self.board_lines());
        lines
    }

    /// `Board:`, the game's SGF line by line, `EOF`.
    pub(super) fn board_lines(&self) -> Vec<ServerMessage> {
        let sgf = self.sgf(self.result_code());
        let mut lines = vec![ServerMessage::Board];
        lines.extend(
            sgf.lines()
                .map(|line| ServerMessage::SgfLine(line.to_string())),
        );
        lines.push(ServerMessage::Eof);
        lines
    }

    /// The SGF `RE` value of the game: its result once it has ended, else empty.
    fn result_code(&self) -> &str {
        self.ending.as_ref().map_or("", |e| e.code.as_str())
    }
}
