//! Playing: moves and passes checked in order, EXIT, answers to REQUEST_REMATCH.

use super::{Phase, Table, state_of};
use crate::cards::Mistake;
use crate::engine::go::{IllegalMove, Move, Point};
use crate::frontend::go::protocol::{GameId, Keyword, ServerMessage};
use crate::frontend::go::registry::EXIT;
use crate::frontend::{Departure, card};
use crate::results::Ending;
use std::sync::Arc;
use std::sync::atomic::Ordering;

impl Table {
    /// Checks a MOVE or PASS (index -1) in the order the README's GO! choices fix: game id, name,
    /// game in progress, turn, index range, then the rules engine ([`Table::place`]).
    pub(super) fn play(
        &mut self,
        seat: usize,
        keyword: Keyword,
        game_id: GameId,
        name: &str,
        index: i64,
    ) {
        if let Some((mistake, reason)) = self.identity_error(seat, keyword, game_id, name) {
            return self.refuse_move(seat, mistake, reason);
        }
        if let Some((mistake, reason)) = self.not_playing_reason() {
            return self.refuse_move(seat, mistake, reason);
        }
        let colour = self.seats[seat].colour;
        let Some(game) = &self.game else {
            return;
        };
        if game.to_move() != colour {
            let reason = format!("Not your turn: {} is to move", game.to_move());
            return self.refuse_move(seat, Mistake::NotYourTurn, reason);
        }
        let size = game.size();
        let mv = if index == -1 {
            Move::Pass
        } else if let Some(point) = Point::from_index(index, size) {
            Move::Play(point)
        } else {
            let reason = format!(
                "Tile index {index} is off the board: a {size}x{size} board has tiles 0 to {}, or -1 to pass",
                size * size - 1
            );
            return self.refuse_move(seat, Mistake::OffBoard, reason);
        };
        if let Err(illegal) = self.place(seat, mv) {
            self.refuse_move(seat, Mistake::from(&illegal), illegal.to_string());
        }
    }

    /// Plays `mv` for `seat` through the rules engine. When the engine accepts it:
    /// ACKNOWLEDGE_MOVE to both (the mover first), the move counted, then the end of
    /// the game or the next move's clock. A client's MOVE and the bot's answer both
    /// end here.
    ///
    /// # Errors
    ///
    /// The engine's refusal; nothing was sent.
    pub(super) fn place(&mut self, seat: usize, mv: Move) -> Result<(), IllegalMove> {
        let colour = self.seats[seat].colour;
        let Some(game) = self.game.as_mut() else {
            return Err(IllegalMove::GameOver);
        };
        let report = game.play(colour, mv)?;
        let size = game.size();
        if let Some(record) = &self.published.record {
            record.log.push(colour, mv, size);
        }
        if let Some(card) = self.seats[seat].conn().and_then(|conn| card::of(conn)) {
            card.moved(self.round.turn_began.elapsed());
        }
        self.round.turn_passed();
        let index = match mv {
            Move::Pass => -1,
            Move::Play(point) => i64::try_from(point.index(size)).unwrap_or(-1),
        };
        let limit = self.context.settings.moves_per_point * size * size;
        let at_limit = game.moves().len() >= limit;
        let message = ServerMessage::AcknowledgeMove {
            game_id: self.id,
            index,
            colour,
            state: state_of(game, report.game_over || at_limit),
        };
        self.accepted(seat);
        self.context.counters.moves.fetch_add(1, Ordering::Relaxed);
        self.send_all_from(seat, &message);
        if report.game_over {
            self.finish_by_score("Both players passed", Ending::Passes);
        } else if at_limit {
            self.finish_by_score(
                &format!("The move limit of {limit} moves was reached"),
                Ending::Score,
            );
        } else {
            self.deadline = self.move_deadline();
        }
        Ok(())
    }

    /// Why a command naming `game_id` and `name` does not come from this seat.
    pub(super) fn identity_error(
        &self,
        seat: usize,
        keyword: Keyword,
        game_id: GameId,
        name: &str,
    ) -> Option<(Mistake, String)> {
        let granted = self.name(seat);
        if game_id != self.id {
            Some((
                Mistake::WrongGameId,
                format!(
                    "{keyword}: wrong game id: you are in game {}, got {game_id}",
                    self.id
                ),
            ))
        } else if name != granted {
            Some((
                Mistake::WrongName,
                format!("{keyword}: wrong player name: you are {granted}, got {name}"),
            ))
        } else {
            None
        }
    }

    pub(super) fn not_playing_reason(&self) -> Option<(Mistake, String)> {
        match self.phase {
            Phase::Playing => None,
            Phase::Gathering if self.seats.len() < 2 => Some((
                Mistake::NotStarted,
                format!(
                    "Game {} has not started yet: waiting for an opponent",
                    self.id
                ),
            )),
            Phase::Gathering => Some((
                Mistake::NotStarted,
                format!(
                    "Game {} has not started yet: waiting for the leader's SET_CONFIG",
                    self.id
                ),
            )),
            Phase::RematchPending | Phase::Over => Some((
                Mistake::AfterTheEnd,
                format!(
                    "Game {} is finished: answer REQUEST_REMATCH with SET_REMATCH, 1 or 0",
                    self.id
                ),
            )),
        }
    }

    pub(super) fn exit(&mut self, seat: usize, game_id: GameId, name: &str) {
        if let Some((mistake, reason)) = self.identity_error(seat, Keyword::Exit, game_id, name) {
            return self.reject(seat, mistake, reason);
        }
        let Some(conn) = self.conn(seat).map(Arc::clone) else {
            return;
        };
        conn.accepted();
        self.leave(seat, &Departure::Exited);
        conn.close(EXIT);
    }

    pub(super) fn answer_rematch(&mut self, seat: usize, yes: bool) {
        if self.phase != Phase::RematchPending {
            return self.reject(
                seat,
                Mistake::RematchNotAsked,
                "SET_REMATCH answers REQUEST_REMATCH, which comes only after a game ends by two passes".into(),
            );
        }
        if self.round.rematch[seat].is_some() {
            return self.reject(
                seat,
                Mistake::RematchTwice,
                "You already answered the rematch request".into(),
            );
        }
        self.round.rematch[seat] = Some(yes);
        if let Some(questions) = self.seats[seat].questions() {
            questions.answer_rematch();
        }
        self.accepted(seat);
        if !yes {
            log::info!("game {}: {} declined a rematch", self.id, self.name(seat));
            self.end_rematch();
        } else if self.round.rematch == [Some(true), Some(true)] {
            log::info!("game {}: rematch", self.id);
            self.send_all(&ServerMessage::AcknowledgeRematch { rematch: true });
            if let Some(game) = self.game.as_mut() {
                game.restart();
            }
            // The arena's one departure from "a rematch keeps the config" (ARENA.md):
            // the same two play again with the colours swapped.
            if self.arranged.is_some() {
                for seat in &mut self.seats {
                    seat.colour = seat.colour.opponent();
                }
            }
            self.begin_round();
        }
    }

    /// ACKNOWLEDGE_REMATCH+0 to both: the game is over for good.
    pub(super) fn end_rematch(&mut self) {
        self.send_all(&ServerMessage::AcknowledgeRematch { rematch: false });
        self.phase = Phase::Over;
    }
}
