//! Endings: by score (two passes or the move limit), by departure, by a clock, by
//! shutdown; and what every ending does (GAME_FINISHED, the record, the log).

use super::{GameConfig, INTERNAL_ERROR, Occupant, Phase, Table, deadline_in, random_colour};
use crate::engine::go::Colour;
use crate::engine::sgf::{self, RecordInfo};
use crate::front::Front;
use crate::frontend::go::protocol::ServerMessage;
use crate::frontend::{Departure, card};
use crate::records;
use crate::results::{Ending, GameResult, GoGame};
use std::time::SystemTime;

/// How the last round ended, for the console and the web board, until a rematch
/// starts the next one.
#[derive(Default)]
pub(super) struct Ended {
    /// The message of the GAME_FINISHED that ended it.
    pub(super) message: Option<String>,
    /// When it ended (or when a player left before the start).
    pub(super) at: Option<SystemTime>,
    /// Who left before the game started, when that ended it.
    pub(super) left_before_start: Option<String>,
}

impl Table {
    /// The game ends on the board: area score, GAME_FINISHED, REQUEST_REMATCH.
    /// `why` opens the message ("Both players passed"); `ending` files it.
    pub(super) fn finish_by_score(&mut self, why: &str, ending: Ending) {
        let Some(game) = &self.game else { return };
        let score = game.score();
        let verdict = match score.winner() {
            Some(colour) => format!("{} wins", self.name_of(colour)),
            None => "a draw".to_string(),
        };
        let message = format!(
            "{why}. Area score: black {}, white {} (komi {}): {verdict}",
            score.black_text(),
            score.white_text(),
            game.rules().komi
        );
        let result = sgf::score_result(&score);
        let winner = score.winner().map(|c| self.name_of(c).to_string());
        self.announce_end(winner, message, &result, ending);
        self.ask_rematch();
    }

    /// REQUEST_REMATCH to both, after a round that ended with both players still
    /// seated (two passes, the move limit, the move clock), as the protocol says:
    /// "When the game is finished the server asks the players if they want to play a
    /// rematch".
    fn ask_rematch(&mut self) {
        for seat in &self.seats {
            if let Some(questions) = seat.questions() {
                questions.ask_rematch();
            }
        }
        self.send_all(&ServerMessage::RequestRematch);
        self.phase = Phase::RematchPending;
        self.deadline = deadline_in(self.context.settings.rematch_timeout);
    }

    /// A player left: in play the other wins; before the start the game re-forms.
    pub(super) fn leave(&mut self, seat: usize, how: &Departure) {
        let name = self.name(seat).to_string();
        let what = how.describe(&name);
        log::info!("game {}: {what}", self.id);
        match self.phase {
            Phase::Gathering => {
                self.published.summary.lock().result = Some(format!("{what} before the start"));
                self.ended.left_before_start = Some(name.clone());
                self.ended.at = Some(SystemTime::now());
                if *how == Departure::Kicked {
                    // No game to lose yet, but a kicked client is still told; the
                    // others that leave are gone already or asked to go.
                    self.send(
                        seat,
                        &ServerMessage::GameFinished {
                            game_id: self.id,
                            winner: None,
                            black_score: "0".into(),
                            white_score: "0".into(),
                            message: what.clone(),
                        },
                    );
                }
                let departed = self.seats.remove(seat);
                if let Some(conn) = departed.conn() {
                    self.matchmaker.unseat(self.id, conn.id);
                }
                if seat == 0 {
                    // The leader is gone before the start: its partner, if any, is
                    // matched anew (a waiting game, or a new one it leads); the bot
                    // just goes, and its helper thread with it.
                    if let Some(Occupant::Client(partner)) = self.seats.pop().map(|s| s.occupant) {
                        self.matchmaker.reseat(partner);
                    }
                    self.phase = Phase::Over;
                } else {
                    self.wait_again();
                }
            }
            Phase::Playing => {
                if let Some(card) = self.conn(seat).and_then(|conn| card::of(conn)) {
                    card.left_a_game();
                }
                let winner = self.name(1 - seat);
                let message = format!("{what}: {winner} wins");
                let winner = winner.to_string();
                let code = match how {
                    Departure::Exited => "R",
                    _ => "F",
                };
                let result = sgf::win_result(self.seats[1 - seat].colour, code);
                self.announce_end(Some(winner), message, &result, how.ending());
                self.phase = Phase::Over;
            }
            Phase::RematchPending => self.end_rematch(),
            Phase::Over => {}
        }
    }

    /// The leader's partner left before the start: the leader joins another game
    /// waiting for a partner if there is one (this game ends), else this game waits
    /// again, and the bot's clock starts again.
    pub(super) fn wait_again(&mut self) {
        let joined = match self.seats.first().map(|s| &s.occupant) {
            Some(Occupant::Client(leader)) => self.matchmaker.requeue(self.id, leader),
            // The leader is always a client; should a game ever lack one, it ends.
            _ => true,
        };
        if joined {
            self.seats.clear();
            self.phase = Phase::Over;
        } else {
            self.bot.due = deadline_in(self.context.settings.bot_after);
        }
    }

    pub(super) fn on_deadline(&mut self) {
        self.deadline = None;
        match self.phase {
            Phase::Gathering => {
                let random = random_colour(&mut self.rng);
                self.config = Some(GameConfig {
                    size: self.context.settings.default_board_size(),
                    leader_colour: random,
                    defaulted: true,
                });
                log::info!("game {}: no SET_CONFIG in time, defaults apply", self.id);
                if self.seats.len() == 2 {
                    self.start();
                }
            }
            Phase::Playing => {
                let Some(game) = &self.game else { return };
                let late = game.to_move();
                let late_seat = self.seats.iter().position(|s| s.colour == late);
                if let Some(card) = late_seat
                    .and_then(|seat| self.conn(seat))
                    .and_then(|conn| card::of(conn))
                {
                    card.late();
                }
                let seconds = self.move_timeout().map_or(0, |t| t.as_secs());
                let message = format!(
                    "{} did not move within {seconds} s: {} wins",
                    self.name_of(late),
                    self.name_of(late.opponent())
                );
                let result = sgf::win_result(late.opponent(), "T");
                let winner = Some(self.name_of(late.opponent()).to_string());
                self.announce_end(winner, message, &result, Ending::Timeout);
                self.ask_rematch();
            }
            Phase::RematchPending => {
                log::info!("game {}: no rematch answer in time", self.id);
                self.end_rematch();
            }
            Phase::Over => {}
        }
    }

    pub(super) fn shut_down(&mut self) {
        match self.phase {
            Phase::Playing => {
                self.announce_end(
                    None,
                    "server shutting down".into(),
                    "Void",
                    Ending::Shutdown,
                );
            }
            Phase::RematchPending => {
                self.send_all(&ServerMessage::AcknowledgeRematch { rematch: false });
            }
            Phase::Gathering | Phase::Over => {}
        }
        self.phase = Phase::Over;
    }

    /// After a panic in the loop (caught by `run`): a round in play ends void, filed
    /// among the results as `error` (never rated) and recorded, and its players get
    /// GAME_FINISHED with the board's score, as for any other ending; the console and
    /// the web board show the game stopped, not playing for ever. True when the
    /// players were told.
    pub(super) fn stop_after_internal_error(&mut self) -> bool {
        let in_play = self.phase == Phase::Playing && self.game.is_some();
        if in_play {
            self.announce_end(None, INTERNAL_ERROR.into(), "Void", Ending::Error);
        } else {
            self.ended.message = Some(INTERNAL_ERROR.into());
            self.published.summary.lock().result = Some(INTERNAL_ERROR.into());
        }
        self.phase = Phase::Over;
        self.publish();
        in_play
    }

    /// GAME_FINISHED to both with the board's area score, after a log line, the
    /// record and the result (filed as `ending`).
    pub(super) fn announce_end(
        &mut self,
        winner: Option<String>,
        message: String,
        result: &str,
        ending: Ending,
    ) {
        let Some(game) = &self.game else { return };
        let score = game.score();
        log::info!("game {} finished: {message}", self.id);
        let played = GoGame {
            front: Front::Go,
            game: u64::from(self.id.0),
            started: self.round.started,
            black: self.name_of(Colour::Black),
            white: self.name_of(Colour::White),
            position: game,
        };
        let filed = GameResult::of_go(&played, winner.as_deref(), ending);
        self.context.cards.count_result(&filed);
        self.context.results.record(filed);
        let text = sgf::write(game, &self.record_info(result));
        // The record is on disk before the players hear the game has ended.
        if let Some(dir) = &self.context.settings.records {
            let seconds = records::unix_seconds();
            let file_name = format!("game-{}-{seconds}-{}.sgf", self.id, self.round.number);
            records::save(dir, &file_name, &text, &format!("game {}", self.id));
        }
        self.send_all(&ServerMessage::GameFinished {
            game_id: self.id,
            winner,
            black_score: score.black_text(),
            white_score: score.white_text(),
            message: message.clone(),
        });
        self.ended.message = Some(message.clone());
        self.ended.at = Some(SystemTime::now());
        if let Some(record) = &self.published.record {
            let _ = record.finished.set(text.as_str().into());
        }
        let mut summary = self.published.summary.lock();
        summary.result = Some(message);
        summary.record = Some(text);
    }

    pub(super) fn record_info<'a>(&'a self, result: &'a str) -> RecordInfo<'a> {
        RecordInfo {
            black: self.name_of(Colour::Black),
            white: self.name_of(Colour::White),
            result,
            started: self.round.started,
        }
    }

    pub(super) fn name_of(&self, colour: Colour) -> &str {
        self.seats
            .iter()
            .find(|s| s.colour == colour)
            .map_or("", |s| s.name())
    }
}
