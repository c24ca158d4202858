//! What the console and the web board see of a table: the summary and the snapshot
//! published after every change, and a detailed view on request.

use super::{Phase, Table};
use crate::engine::spectrangle::{Game, Location, Tile};
use crate::frontend::spectrangle::summary::{TableStatus, TableView};
use crate::live::{
    self, Bonus, Detail, Front, GameKey, Snapshot, SpectrangleBoard, SpectranglePlayer,
};

impl Table {
    /// Publishes the summary the console reads, and the snapshot the web board shows;
    /// runs after every event, and builds the snapshot only after a change.
    pub(super) fn publish(&mut self) {
        let moves = self.game.as_ref().map_or(0, |g| g.history().len());
        // A turn taken (or the game started): the next player is waited for from now.
        if moves != self.turn_since.1 || self.published.is_some_and(|p| p.0 != self.phase) {
            self.turn_since = (std::time::SystemTime::now(), moves);
        }
        self.publish_summary();
        let mark = (self.phase, self.seats.len(), self.ready.len(), moves);
        if self.published == Some(mark) {
            return;
        }
        self.published = Some(mark);
        let key = GameKey {
            front: Front::Spectrangle,
            id: self.id.0,
        };
        if self.phase == Phase::Over && self.game.is_none() {
            // A lobby that emptied was never a game: it leaves the board.
            self.context.live.remove(key);
            return;
        }
        self.context.live.publish(self.snapshot());
    }

    /// The table as the web board shows it (`WEB.md`).
    fn snapshot(&self) -> Snapshot {
        let status = match self.phase {
            Phase::Lobby => live::Status::Waiting,
            Phase::Playing => live::Status::Playing,
            Phase::Over => live::Status::Finished,
        };
        // The seat, 1 to 4: in the lobby the order of arrival, from START the turn
        // order (the seats are put in it when the game starts).
        let seat = |index: usize| u8::try_from(index + 1).ok();
        let players: Vec<SpectranglePlayer> = self
            .seats
            .iter()
            .enumerate()
            .map(|(index, member)| {
                let hand = self.game.as_ref().map_or(&[][..], |g| g.hand(index));
                SpectranglePlayer {
                    name: member.name.to_string(),
                    colour: seat(index),
                    score: self.game.as_ref().map_or(0, |g| g.scores()[index]),
                    tiles: hand.len(),
                    hand: hand.iter().map(ToString::to_string).collect(),
                }
            })
            .collect();
        let summary = live::Summary {
            front: Front::Spectrangle,
            id: self.id.0,
            status,
            players: players
                .iter()
                .map(|p| live::Seat {
                    name: p.name.clone(),
                    colour: p.colour,
                })
                .collect(),
            size: None,
            moves: self.game.as_ref().map_or(0, |g| g.history().len()),
            turn: match (self.phase, &self.game) {
                (Phase::Playing, Some(game)) => Some(self.name_of(game.to_move())),
                _ => None,
            },
            turn_since: (self.phase == Phase::Playing)
                .then(|| crate::results::result::at(self.turn_since.0)),
            result: self.score_line.clone(),
            watchers: None,
        };
        let board = SpectrangleBoard {
            fields: Location::all()
                .map(|l| {
                    self.game
                        .as_ref()
                        .and_then(|g| g.board().get(l))
                        .map(|t| t.to_string())
                })
                .collect(),
            bonus: Location::all()
                .filter(|l| l.is_bonus())
                .map(|l| Bonus {
                    field: l.index(),
                    factor: l.bonus(),
                })
                .collect(),
            players,
            // Before the deal every tile is in the bag.
            bag: self.game.as_ref().map_or(Tile::ALL.len(), Game::bag_len),
        };
        let ended = (status == live::Status::Finished)
            .then_some(self.ended_at)
            .flatten();
        Snapshot::new(summary, Detail::Spectrangle(board), self.started_at, ended)
    }

    /// Updates the summary the console reads.
    fn publish_summary(&self) {
        let players = match &self.game {
            Some(game) => self
                .seats
                .iter()
                .zip(game.scores())
                .map(|(m, points)| format!("{} {points}", m.name))
                .collect(),
            None => self
                .seats
                .iter()
                .map(|m| {
                    if m.is_bot() || m.conn().is_some_and(|c| self.ready.contains(&c.id)) {
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
            Phase::Playing => summary.status = TableStatus::Playing,
            Phase::Over => summary.status = TableStatus::Finished,
        }
        summary.players = players;
        summary.moves = self.game.as_ref().map_or(0, |g| g.history().len());
        summary.to_move = match self.phase {
            Phase::Playing => self.game.as_ref().map(|g| self.name_of(g.to_move())),
            _ => None,
        };
        summary.turn_since = (self.phase == Phase::Playing).then_some(self.turn_since.0);
    }

    pub(super) fn view(&self) -> TableView {
        let summary = self.summary.lock().clone();
        let hands = match &self.game {
            Some(game) => (0..self.seats.len())
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
