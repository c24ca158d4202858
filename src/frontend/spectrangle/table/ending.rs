//! The end of a game, however it comes (nobody can place, idle rounds, a departure,
//! shutdown): SCORE to the players still there, the record, the log.

use super::{Phase, Table};
use crate::front::Front;
use crate::frontend::spectrangle::protocol::ServerMessage;
use crate::net::ConnId;
use crate::records;
use crate::results::{self, Ending, GameResult, Player, Score};

impl Table {
    /// Ends the game because of `why` (filed as `ending`). `leaver`, if any, has left
    /// and hears nothing more; everyone else gets `SCORE` with everyone's points so
    /// far, in turn order, once the result is recorded.
    pub(super) fn end(&mut self, why: &str, ending: Ending, leaver: Option<ConnId>) {
        let scores: Vec<(String, u32)> = match &self.game {
            Some(game) => (0..self.seats.len())
                .map(|player| (self.name_of(player), game.scores()[player]))
                .collect(),
            None => Vec::new(),
        };
        self.record_result(&scores, ending);
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

    /// After a panic in the loop (caught by `run`): a game in play ends as any other
    /// ending does (SCORE to its players, who are free to JOIN again), filed among
    /// the results as `error`, never rated; a lobby just closes.
    pub(super) fn stop_after_internal_error(&mut self) {
        match self.phase {
            Phase::Playing => self.end("internal server error", Ending::Error, None),
            Phase::Lobby | Phase::Over => self.phase = Phase::Over,
        }
    }

    /// Files the game among the results: the seats in turn order with their points,
    /// the places, every turn taken (placements, swaps, skips) as a move.
    fn record_result(&self, scores: &[(String, u32)], ending: Ending) {
        let players: Vec<Player> = scores
            .iter()
            .zip(1u8..)
            .map(|((name, points), seat)| Player {
                name: name.clone(),
                colour: seat,
                score: Score(f64::from(*points)),
            })
            .collect();
        let placed = GameResult::places_by_score(&players);
        let shared_first = placed.iter().filter(|(_, place)| *place == 1).count() > 1;
        let winner = match placed.first() {
            Some((name, _)) if !shared_first => Some(name.clone()),
            _ => None,
        };
        let moves = self.game.as_ref().map_or(0, |g| g.history().len());
        let ended = results::result::now();
        let result = GameResult {
            front: Front::Spectrangle,
            game: u64::from(self.id.0),
            started: self.started_at.map_or(ended, results::result::at),
            ended,
            players,
            winner,
            places: Some(placed.into_iter().map(|(name, _)| name).collect()),
            ending,
            moves: u32::try_from(moves).unwrap_or(u32::MAX),
            size: None,
            rated: false,
        };
        self.context.cards.count_result(&result);
        self.context.results.record(result);
    }
}
