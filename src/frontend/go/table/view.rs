//! What the console sees of a game: the published summary and a detailed view.

use super::{Phase, Seat, Table};
use crate::engine::go::{self, Colour, Move};
use crate::frontend::go::summary::{GameStatus, GameView};

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

    /// Publishes the summary the console reads. Runs after every event, so it
    /// allocates only when the seats changed.
    pub(super) fn publish(&self) {
        let colour_of = |seat: &Seat| self.game.as_ref().map(|_| seat.colour);
        let mut summary = self.summary.lock();
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
    }

    pub(super) fn view(&self) -> GameView {
        let summary = self.summary.lock().clone();
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
