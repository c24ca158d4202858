//! What the console sees of a table: the published summary and a detailed view.

use super::{Phase, Table};
use crate::engine::spectrangle::Game;
use crate::frontend::spectrangle::summary::{Status, TableView};

impl Table {
    /// Publishes the summary the console reads; runs after every event.
    pub(super) fn publish(&self) {
        let players = match &self.game {
            Some(game) => self
                .members
                .iter()
                .zip(game.scores())
                .map(|(m, points)| format!("{} {points}", m.name))
                .collect(),
            None => self
                .members
                .iter()
                .map(|m| {
                    if self.ready.contains(&m.conn.id) {
                        format!("{} (ready)", m.name)
                    } else {
                        m.name.to_string()
                    }
                })
                .collect(),
        };
        let mut summary = self.summary.lock();
        match self.phase {
            Phase::Lobby => {}
            Phase::Playing => summary.status = Status::Playing,
            Phase::Over => summary.status = Status::Finished,
        }
        summary.players = players;
        summary.moves = self.game.as_ref().map_or(0, |g| g.history().len());
        summary.to_move = match self.phase {
            Phase::Playing => self.game.as_ref().map(|g| self.name_of(g.to_move())),
            _ => None,
        };
    }

    pub(super) fn view(&self) -> TableView {
        let summary = self.summary.lock().clone();
        let hands = match &self.game {
            Some(game) => (0..self.members.len())
                .map(|p| (self.name_of(p), game.hand(p).to_vec()))
                .collect(),
            None => Vec::new(),
        };
        TableView {
            summary,
            board: self.game.as_ref().map(|g| g.board().render()),
            hands,
            bag: self.game.as_ref().map_or(0, Game::bag_len),
            record: self.record.join("\n"),
        }
    }
}
