//! The end of a game, however it comes (nobody can place, idle rounds, a departure,
//! shutdown): SCORE to the players still there, the record, the log.

use super::{Phase, Table};
use crate::frontend::spectrangle::protocol::ServerMessage;
use crate::net::ConnId;
use crate::records;

impl Table {
    /// Ends the game because of `why`. `leaver`, if any, has left and hears nothing
    /// more; everyone else gets `SCORE` with everyone's points so far, in turn order.
    pub(super) fn end(&mut self, why: &str, leaver: Option<ConnId>) {
        let scores: Vec<(String, u32)> = match &self.game {
            Some(game) => (0..self.seats.len())
                .map(|player| (self.name_of(player), game.scores()[player]))
                .collect(),
            None => Vec::new(),
        };
        let score = ServerMessage::Score { scores };
        let line = score.to_string();
        self.score_line = Some(line.strip_prefix("SCORE ").unwrap_or(&line).to_string());
        self.ended_at = Some(std::time::SystemTime::now());
        self.record.push(line.clone());
        let text = self.record.join("\n") + "\n";
        log::info!("spectrangle {} finished: {why}: {line}", self.id);
        self.deadline = None;
        self.phase = Phase::Over;
        // The summary the console keeps is final before the registry files it away.
        self.publish();
        {
            let mut summary = self.summary.lock();
            summary.result = Some(why.to_string());
            summary.record = Some(text.clone());
        }
        // The players are free before they read SCORE, so they may JOIN at once.
        self.registrar.close_game(self.id);
        if let Some(dir) = &self.context.settings.records {
            let file_name = format!("spectrangle-{}-{}.txt", self.id, records::unix_seconds());
            records::save(dir, &file_name, &text, &format!("spectrangle {}", self.id));
        }
        let players = self.seats.iter().filter_map(|s| s.conn());
        for conn in players.filter(|c| Some(c.id) != leaver) {
            let _ = conn.send_line(&line, false);
        }
    }
}
