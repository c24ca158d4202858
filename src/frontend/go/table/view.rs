//! What the console and the web board see of a game: the summary and the snapshot
//! published after every change, and a detailed view on request.

use super::{Phase, Seat, Table};
use crate::engine::go::{self, Colour, Move};
use crate::frontend::go::summary::{GameStatus, GameSummary, GameView};
use crate::live::{self, Detail, Front, GoBoard, GoRecord, Snapshot};
use parking_lot::Mutex;
use std::sync::Arc;

/// What the console and the web board were given of the game.
pub(super) struct Published {
    /// The summary the console reads, updated after every event (shared with the
    /// registry).
    pub(super) summary: Arc<Mutex<GameSummary>>,
    /// The round's record for the web board (the moves as they are played), once a
    /// round has started.
    pub(super) record: Option<Arc<GoRecord>>,
    /// What the web board last got: phase, seats, moves, round. A new snapshot is
    /// made only when it changes.
    pub(super) mark: Option<(Phase, usize, usize, u32)>,
}

impl Published {
    /// Nothing published yet; the console reads `summary`.
    pub(super) fn new(summary: Arc<Mutex<GameSummary>>) -> Published {
        Published {
            summary,
            record: None,
            mark: None,
        }
    }
}

impl Table {
    pub(super) fn status(&self) -> GameStatus {
        match self.phase {
            Phase::Gathering if self.seats.len() < 2 => GameStatus::WaitingForPartner,
            Phase::Gathering => GameStatus::WaitingForConfig,
            Phase::Playing => GameStatus::Playing,
            Phase::RematchPending => GameStatus::RematchPending,
            Phase::Over => GameStatus::Finished,
        }
    }

    /// Publishes the summary the console reads, and the snapshot the web board shows.
    /// Runs after every event, so it allocates only when something changed.
    pub(super) fn publish(&mut self) {
        self.publish_summary();
        let mark = (
            self.phase,
            self.seats.len(),
            self.moves_played(),
            self.round.number,
        );
        if self.published.mark != Some(mark) {
            self.published.mark = Some(mark);
            self.context.live.publish(self.snapshot());
        }
    }

    fn moves_played(&self) -> usize {
        self.game.as_ref().map_or(0, |g| g.moves().len())
    }

    /// The game as the web board shows it (`WEB.md`).
    fn snapshot(&self) -> Snapshot {
        let status = match self.phase {
            Phase::Gathering => live::Status::Waiting,
            Phase::Playing => live::Status::Playing,
            Phase::RematchPending | Phase::Over => live::Status::Finished,
        };
        // Colours once the game has its configuration.
        let colour = |seat: &Seat| self.game.as_ref().map(|_| live::colour_digit(seat.colour));
        let players = self
            .seats
            .iter()
            .map(|seat| live::Seat {
                name: seat.name().to_string(),
                colour: colour(seat),
            })
            .collect();
        let game = self.game.as_ref().filter(|_| self.config.is_some());
        let result = match (status, &self.ended.message) {
            (live::Status::Finished, Some(message)) => Some(message.clone()),
            (live::Status::Finished, None) => self
                .ended
                .left_before_start
                .as_ref()
                .map(|name| format!("{name} left before the start")),
            _ => None,
        };
        let summary = live::Summary {
            front: Front::Go,
            id: self.id.0,
            status,
            players,
            size: game.map(go::Game::size),
            moves: self.moves_played(),
            turn: match (status, game) {
                (live::Status::Playing, Some(game)) => {
                    Some(self.name_of(game.to_move()).to_string())
                }
                _ => None,
            },
            turn_since: (status == live::Status::Playing)
                .then(|| crate::results::result::at(self.round.turn_since)),
            result,
            watchers: None,
        };
        let ended = (status == live::Status::Finished)
            .then_some(self.ended.at)
            .flatten();
        let started = game.map(|_| self.round.started);
        Snapshot::new(
            summary,
            Detail::Go(GoBoard::of(game, self.published.record.as_ref())),
            started,
            ended,
        )
    }

    /// Updates the summary the console reads.
    fn publish_summary(&self) {
        let colour_of = |seat: &Seat| self.game.as_ref().map(|_| seat.colour);
        let mut summary = self.published.summary.lock();
        let seats_changed = summary.players.len() != self.seats.len()
            || summary
                .players
                .iter()
                .zip(&self.seats)
                .any(|((name, colour), seat)| name != seat.name() || *colour != colour_of(seat));
        if seats_changed {
            summary.players = self
                .seats
                .iter()
                .map(|seat| (seat.name().to_string(), colour_of(seat)))
                .collect();
        }
        summary.status = self.status();
        summary.size = self.config.map(|c| c.size);
        summary.moves = self.game.as_ref().map_or(0, |g| g.moves().len());
        summary.to_move = match self.phase {
            Phase::Playing => self.game.as_ref().map(go::Game::to_move),
            _ => None,
        };
        summary.turn_since = (self.phase == Phase::Playing).then_some(self.round.turn_since);
    }

    pub(super) fn view(&self) -> GameView {
        let summary = self.published.summary.lock().clone();
        let Some(game) = &self.game else {
            return GameView {
                summary,
                board: None,
                last_move: None,
                captures: (0, 0),
                score: None,
                sgf: None,
            };
        };
        let last_move = game.last_move();
        let last = last_move.and_then(|m| match m.mv {
            Move::Play(point) => Some(point),
            Move::Pass => None,
        });
        let score = game.score();
        GameView {
            summary,
            board: Some(game.board().render(last)),
            last_move,
            captures: (game.captures(Colour::Black), game.captures(Colour::White)),
            score: Some((score.black_text(), score.white_text())),
            sgf: Some(crate::engine::sgf::write(game, &self.record_info(""))),
        }
    }
}
