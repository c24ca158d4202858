//! The practice bot at a table: its arrival (by `--spectrangle-bot-after`, or the
//! console's `bot`), and its turns, played on the table's own thread like a client's
//! accepted move.
//!
//! The bot thinks within `--bot-think-ms`, and its search ends sooner by itself (a few
//! thousand simulated games, milliseconds): the table's other members wait no longer
//! for it than for any event. It reads nothing and is sent nothing; the others see its
//! turns as UPDATE and TILE lines like anyone's.

use super::seat::Seat;
use super::{Phase, Table};
use crate::engine::bot::{Budget, spectrangle::Choice};
use crate::frontend::deadline_in;
use crate::frontend::spectrangle::protocol::{Command, PlayerName};
use std::time::{Duration, Instant};

impl Table {
    /// The registry seats the bot (granted `name`) in this lobby, ready.
    pub(super) fn seat_bot(&mut self, name: PlayerName) {
        if self.phase != Phase::Lobby {
            // The registry seats the bot only in a lobby: its name is freed with the
            // table.
            log::warn!("spectrangle {}: no seat for the bot {name}", self.id);
            return;
        }
        log::info!("spectrangle {}: {name} joined (the practice bot)", self.id);
        let seed = self.rng.next_u64();
        self.seats.push(Seat::bot(name, seed));
        self.announce_lobby();
    }

    /// Starts the bot's clock when a lobby's only player is ready (and the server seats
    /// the bot by itself), and stops it when that is no longer so.
    pub(super) fn watch_for_a_lone_player(&mut self) {
        let Some(after) = self.context.settings.spectrangle_bot_after else {
            return;
        };
        let lone_and_ready = self.phase == Phase::Lobby
            && self.seats.len() == 1
            && self.seats[0]
                .conn()
                .is_some_and(|conn| self.ready.contains(&conn.id));
        match (lone_and_ready, self.bot_due) {
            (true, None) => self.bot_due = deadline_in(Some(after)),
            (false, Some(_)) => self.bot_due = None,
            _ => {}
        }
    }

    /// The lone player has waited `--spectrangle-bot-after`: the bot joins.
    pub(super) fn on_bot_due(&mut self) {
        self.bot_due = None;
        // On success the registry sends SeatBot (and Start) to this table's inbox.
        if let Err(refused) = self.registrar.seat_bot(self.id) {
            log::debug!("spectrangle {}: the bot stays out: {refused}", self.id);
        }
    }

    /// Plays the bot's turns while it is to move: after every event, so a game the bot
    /// starts, or a client's move before its turn, is followed at once.
    pub(super) fn play_bots(&mut self) {
        while self.phase == Phase::Playing {
            let Some(player) = self.game.as_ref().map(|g| g.to_move()) else {
                return;
            };
            if !self.seats.get(player).is_some_and(Seat::is_bot) {
                return;
            }
            let command = match self.bot_choice(player) {
                Some(command) => command,
                None => Command::Skip,
            };
            if let Err(refused) = self.take_turn(player, command) {
                // The bot checks its choice with the engine: this is a bug. It skips
                // rather than stall the table (a forced skip is always possible).
                log::error!(
                    "spectrangle {}: the engine refused the bot's move ({refused}): it skips",
                    self.id
                );
                let skipped = self.game.as_mut().map(|g| g.forced_skip());
                if !matches!(skipped, Some(Ok(_))) {
                    return;
                }
            }
        }
    }

    /// The bot's move for `player`, as the command a client would have sent.
    fn bot_choice(&mut self, player: usize) -> Option<Command> {
        let mut budget = Budget::until(Instant::now() + self.bot_think());
        if let Some(playouts) = self.context.settings.bot_playouts {
            budget = budget.with_playouts(playouts);
        }
        let game = self.game.as_ref()?;
        let super::seat::Who::Bot(bot) = &mut self.seats.get_mut(player)?.who else {
            return None;
        };
        let started = Instant::now();
        let choice = match bot.choose(game, player, budget) {
            Ok(choice) => choice,
            Err(no_move) => {
                log::error!("spectrangle {}: the bot found no move: {no_move}", self.id);
                return None;
            }
        };
        log::debug!(
            "spectrangle {}: the bot plays {choice} after {} ms ({})",
            self.id,
            started.elapsed().as_millis(),
            bot.summary()
        );
        Some(match choice {
            Choice::Place(placement) => Command::Play {
                spelling: placement.tile.into(),
                location: placement.location,
            },
            Choice::Swap(tile) => Command::Swap {
                letters: tile.letters(),
            },
            Choice::Skip => Command::Skip,
        })
    }

    /// How long the bot may think: `--bot-think-ms`, but at most half the move timeout.
    fn bot_think(&self) -> Duration {
        let think = self.context.settings.bot_think;
        match self.context.settings.move_timeout {
            Some(timeout) => think.min(timeout / 2),
            None => think,
        }
    }
}
