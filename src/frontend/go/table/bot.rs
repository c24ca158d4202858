//! The practice bot in a seat: its arrival (by `--bot-after` or the console's `bot`),
//! the questions to its helper thread, its answers played like a client's MOVE, and
//! its yes to every rematch.
//!
//! The bot's side of the flow has no lines: the client opposite it sees exactly what
//! a client opposite another client sees, in the same order and under the same
//! clocks. An answer that arrives for a position that is no longer current (the game
//! ended, or moved on) is dropped.

use super::{Occupant, Phase, Seat, Table};
use crate::engine::bot::{Budget, Level};
use crate::engine::go::{Colour, Move};
use crate::engine::rng::Rng;
use crate::frontend::Departure;
use crate::frontend::thinker::{Answer, Question, Thinker, Turn};
use std::time::{Duration, Instant};

/// The practice bot's plans for this game, whether or not it sits here yet.
pub(super) struct BotState {
    /// The seed of its choices, should it sit here. Drawn when the game opens, so
    /// that the colours and the bot's play follow from `--seed` whichever comes
    /// first, the bot or a default configuration.
    pub(super) seed: u64,
    /// When it takes the free seat, while the leader waits (see `--bot-after`).
    pub(super) due: Option<Instant>,
    /// The position it was last asked about, so it is asked once per turn.
    pub(super) asked: Option<Turn>,
}

impl BotState {
    /// Not due, asked nothing; its seed drawn from the game's generator.
    pub(super) fn new(rng: &mut Rng) -> BotState {
        BotState {
            seed: rng.next_u64(),
            due: None,
            asked: None,
        }
    }
}

impl Table {
    /// The registry seats the bot of `level` (granted `name`) as the partner of the
    /// waiting leader.
    pub(super) fn seat_bot(&mut self, name: String, level: Level) {
        if self.seats.len() != 1 || self.phase != Phase::Gathering {
            // The registry seats the bot only in a game on its waiting queue, which has
            // exactly one seat taken; its name is freed when this game ends.
            log::warn!("game {}: no free seat for the bot {name}", self.id);
            return;
        }
        let thinker = match Thinker::spawn(format!("bot-{}", self.id), self.bot.seed, level) {
            Ok(thinker) => thinker,
            Err(e) => {
                log::error!("game {}: cannot start the bot's thread: {e}", self.id);
                self.wait_again();
                return;
            }
        };
        log::info!(
            "game {}: {name} joined as partner (the practice bot, level {level})",
            self.id
        );
        self.seats.push(Seat {
            occupant: Occupant::Bot { name, thinker },
            colour: Colour::White,
        });
        self.partner_seated();
    }

    /// `--bot-after` has run out while the leader waits: the bot takes the free seat,
    /// unless a client has just been sent to it (then that client's Join is already
    /// in the inbox and the bot stays out).
    pub(super) fn on_bot_due(&mut self) {
        self.bot.due = None;
        if self.phase != Phase::Gathering || self.seats.len() != 1 {
            return;
        }
        // On success the registry sends SeatBot to this game's inbox.
        let level = self.context.settings.bot_level;
        if let Err(refused) = self.matchmaker.seat_bot(self.id, level) {
            log::debug!("game {}: the bot stays out: {refused}", self.id);
        }
    }

    /// After every event: if a rematch is asked, answers yes for the bot; if the bot
    /// is to move (in a new round too), asks it, once per position.
    pub(super) fn prompt_bot(&mut self) {
        let Some(seat) = self.bot_seat() else { return };
        if self.phase == Phase::RematchPending && self.round.rematch[seat].is_none() {
            log::info!("game {}: {} accepts a rematch", self.id, self.name(seat));
            self.answer_rematch(seat, true);
        }
        if self.phase == Phase::Playing {
            self.ask_bot(seat);
        }
    }

    /// Asks the bot in `seat` for a move if it is to play and was not asked already.
    fn ask_bot(&mut self, seat: usize) {
        let (Some(game), Some(turn)) = (&self.game, self.turn()) else {
            return;
        };
        let colour = self.seats[seat].colour;
        if game.to_move() != colour || self.bot.asked == Some(turn) {
            return;
        }
        let Occupant::Bot { thinker, .. } = &self.seats[seat].occupant else {
            return;
        };
        let mut budget = Budget::until(Instant::now() + self.bot_think());
        if let Some(playouts) = self.context.settings.bot_playouts {
            budget = budget.with_playouts(playouts);
        }
        thinker.ask(Question {
            turn,
            game: game.clone(),
            colour,
            budget,
        });
        self.bot.asked = Some(turn);
    }

    /// How long the bot may think: `--bot-think-ms`, but at most half the move
    /// timeout, so the bot never loses on time.
    fn bot_think(&self) -> Duration {
        let think = self.context.settings.bot_think;
        match self.move_timeout() {
            Some(timeout) => think.min(timeout / 2),
            None => think,
        }
    }

    /// The bot's move arrives: played like a client's accepted MOVE if it is still
    /// about the current position, else dropped.
    pub(super) fn on_bot_answer(&mut self, answer: Answer) {
        let Some(seat) = self.bot_seat() else { return };
        let current = self.phase == Phase::Playing && self.turn() == Some(answer.turn);
        if !current {
            log::debug!("game {}: dropped a stale answer of the bot", self.id);
            return;
        }
        let size = self.config.map_or(0, |c| c.size);
        let summary = answer.summary;
        let mv = match answer.chosen {
            Ok(mv) => mv,
            Err(no_move) => {
                log::error!("game {}: the bot found no move: {no_move}", self.id);
                Move::Pass
            }
        };
        log::debug!(
            "game {}: {} plays {} after {} playouts ({} kept from earlier moves) in {} ms (estimated value {})",
            self.id,
            self.name(seat),
            match mv {
                Move::Pass => "a pass".to_string(),
                Move::Play(point) => point.vertex(size),
            },
            summary.playouts,
            summary.reused,
            answer.took.as_millis(),
            summary
                .value
                .map_or("-".to_string(), |value| format!("{value:.2}"))
        );
        if let Err(refused) = self.place(seat, mv) {
            // The search checks its choice against the game: this is a bug.
            log::error!(
                "game {}: the engine refused the bot's move ({refused}): it passes",
                self.id
            );
            if let Err(refused) = self.place(seat, Move::Pass) {
                log::error!("game {}: the bot cannot even pass: {refused}", self.id);
            }
        }
    }

    /// The bot's helper thread has stopped (a bug in the search): the bot leaves the
    /// game like a client whose connection broke.
    pub(super) fn on_bot_stopped(&mut self) {
        let Some(seat) = self.bot_seat() else { return };
        log::error!("game {}: the bot's thread stopped", self.id);
        self.leave(
            seat,
            &Departure::Failed("the bot stopped thinking (internal error)".into()),
        );
    }

    /// The seat of the bot, if it sits here.
    fn bot_seat(&self) -> Option<usize> {
        self.seats
            .iter()
            .position(|s| matches!(s.occupant, Occupant::Bot { .. }))
    }

    /// The current position, while a round is on.
    fn turn(&self) -> Option<Turn> {
        let game = self.game.as_ref()?;
        Some(Turn {
            round: self.round.number,
            ply: game.moves().len(),
        })
    }
}
