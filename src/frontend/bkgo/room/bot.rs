//! The practice bot in the room: GoBot takes the free seat opposite a player left
//! alone (`--bkgo-bot-after`, or the console's `bot bkgo`), is asked for a move on its
//! helper thread whenever it is to play, plays its answers like a client's accepted
//! `Place` or `Pass`, and leaves its seat when the game ends or nobody is left to play.
//!
//! The bot reads and receives no lines: the members see it arrive, play and leave
//! exactly as they would see a client. A human always comes first: the bot sits only
//! in a seat nobody else wants (no watcher waits while a seat is free), and leaves it
//! once its game is over, so the next game's seat goes to a watcher or a new joiner.
//! An answer that arrives for a position that is no longer current is dropped.

use super::members::Member;
use super::{Occupant, Room};
use crate::engine::bot::{Budget, Level};
use crate::engine::go::{Colour, Move};
use crate::frontend::bkgo::event::{BotRefused, BotSeated};
use crate::frontend::bkgo::protocol::{PlayerId, ServerMessage};
use crate::frontend::thinker::{Answer, Question, Thinker, Turn};
use crate::frontend::{deadline_in, names};
use crossbeam_channel::Receiver;
use std::time::Instant;

/// The name of the bot's helper thread (one room, so one bot at a time).
const THREAD_NAME: &str = "bkgo-bot";

impl Room {
    /// Seats the bot of `level` in the free seat opposite the player seated alone,
    /// while a game goes on; `why` says who called it, for the log. The room sees it
    /// arrive as any joiner: `AnnouncePlayer:`, `AddPlayer:`, its seat line.
    ///
    /// # Errors
    ///
    /// Why it cannot sit: see [`BotRefused`].
    pub(super) fn seat_bot(&mut self, level: Level, why: &str) -> Result<BotSeated, BotRefused> {
        let colour = self.free_seat_for_bot()?;
        self.bots_seated += 1;
        let seed = self
            .parts
            .settings
            .game_rng("bkgo", self.bots_seated)
            .next_u64();
        let thinker = Thinker::spawn(THREAD_NAME.into(), seed, level).map_err(|e| {
            log::error!("bkgo room: cannot start the practice bot's thread: {e}");
            BotRefused::NoThread(e.to_string())
        })?;
        let wanted = names::bot_name(level);
        let (member, seat) = self.members.join(None, &wanted, Occupant::Bot(thinker));
        // The one free seat, which `free_seat_for_bot` found.
        debug_assert_eq!(seat, Some(colour));
        let name = member.name.clone();
        log::info!(
            "bkgo room: {name} takes the {colour} seat (the practice bot, level {level}): {why}"
        );
        self.bot_due = None;
        self.bot_asked = None;
        self.broadcast(&[
            ServerMessage::AnnouncePlayer(name.clone()),
            ServerMessage::AddPlayer(name.clone()),
            ServerMessage::Seat {
                colour,
                player: Some(name.clone()),
            },
        ]);
        Ok(BotSeated { name, colour })
    }

    /// The seat the bot may take: the free one, opposite a seated player, while a
    /// game goes on (and no end waits to be told).
    fn free_seat_for_bot(&self) -> Result<Colour, BotRefused> {
        let black = self.members.holder_name(Colour::Black);
        let white = self.members.holder_name(Colour::White);
        let free = match (black, white) {
            (Some(black), Some(white)) => return Err(BotRefused::SeatsTaken { black, white }),
            (None, None) => return Err(BotRefused::NobodySeated),
            (Some(_), None) => Colour::White,
            (None, Some(_)) => Colour::Black,
        };
        if self.game.is_over() || self.pending_end.is_some() {
            return Err(BotRefused::GameOver);
        }
        Ok(free)
    }

    /// `--bkgo-bot-after` has run out while a player sits alone: the bot takes the
    /// free seat at `--bot-level`.
    pub(super) fn on_bot_due(&mut self) {
        self.bot_due = None;
        let (level, after) = (
            self.parts.settings.bot_level,
            self.parts.settings.bkgo.bot_after,
        );
        let why = format!(
            "a player sat alone for {} s",
            after.unwrap_or_default().as_secs_f64()
        );
        if let Err(refused) = self.seat_bot(level, &why) {
            log::debug!("bkgo room: the practice bot stays out: {refused}");
        }
    }

    /// After every event: the bot leaves a seat with nobody opposite it; the clock of
    /// its arrival starts or stops; it is asked for a move if it is to play.
    pub(super) fn tend_bot(&mut self) {
        if let Some((colour, bot)) = self.bot()
            && self.members.holder(colour.opponent()).is_none()
        {
            let id = bot.id;
            self.bot_leaves(id, "nobody is seated opposite it");
        }
        self.time_bot_arrival();
        self.prompt_bot();
    }

    /// Starts the clock of the bot's arrival when a player has come to sit alone (a
    /// join, a departure, the bot leaving, a new game), and stops it when that is no
    /// longer so (someone took the free seat, the player left, the game ended).
    fn time_bot_arrival(&mut self) {
        let wait = self
            .parts
            .settings
            .bkgo
            .bot_after
            .filter(|_| self.free_seat_for_bot().is_ok());
        match (wait, self.bot_due) {
            (Some(wait), None) => self.bot_due = deadline_in(Some(wait)),
            (None, Some(_)) => self.bot_due = None,
            _ => {}
        }
    }

    /// Asks the bot for a move if it is to play and was not asked about this position
    /// already. It thinks within `--bot-think-ms` (and `Settings::bot_playouts`).
    fn prompt_bot(&mut self) {
        let turn = self.turn();
        if self.bot_asked == Some(turn) || self.game.is_over() || self.pending_end.is_some() {
            return;
        }
        let Some((colour, bot)) = self.bot() else {
            return;
        };
        let Some(thinker) = bot.conn.thinker() else {
            return;
        };
        if self.game.to_move() != colour {
            return;
        }
        let mut budget = Budget::until(Instant::now() + self.parts.settings.bot_think);
        if let Some(playouts) = self.parts.settings.bot_playouts {
            budget = budget.with_playouts(playouts);
        }
        thinker.ask(Question {
            turn,
            game: self.game.clone(),
            colour,
            budget,
        });
        self.bot_asked = Some(turn);
    }

    /// The bot's move arrives: played like a client's accepted `Place` or `Pass` if
    /// it is still about the current position, else dropped.
    pub(super) fn on_bot_answer(&mut self, answer: Answer) {
        let Some((colour, bot)) = self.bot() else {
            return;
        };
        let name = bot.name.clone();
        let current = answer.turn == self.turn()
            && self.game.to_move() == colour
            && !self.game.is_over()
            && self.pending_end.is_none();
        if !current {
            log::debug!("bkgo room: dropped a stale answer of {name}");
            return;
        }
        let mv = answer.chosen.unwrap_or_else(|no_move| {
            log::error!("bkgo room: {name} found no move ({no_move}): it passes");
            Move::Pass
        });
        let summary = answer.summary;
        log::debug!(
            "bkgo room: game {}: {name} plays {} after {} playouts ({} kept from earlier moves) in {} ms (estimated value {})",
            self.number,
            match mv {
                Move::Pass => "a pass".to_string(),
                Move::Play(point) => format!(
                    "{} (Place: {}, {})",
                    point.vertex(self.game.size()),
                    point.col(),
                    point.row()
                ),
            },
            summary.playouts,
            summary.reused,
            answer.took.as_millis(),
            summary
                .value
                .map_or("-".to_string(), |value| format!("{value:.2}"))
        );
        match self.game.play(colour, mv) {
            Ok(report) => self.accepted(colour, mv, report.game_over),
            // The search checks its choice against the game: this is a bug.
            Err(refused) => {
                log::error!("bkgo room: the engine refused {name}'s move ({refused}): it passes");
                match self.game.play(colour, Move::Pass) {
                    Ok(report) => self.accepted(colour, Move::Pass, report.game_over),
                    Err(refused) => log::error!("bkgo room: {name} cannot even pass: {refused}"),
                }
            }
        }
    }

    /// The bot's helper thread has stopped (a bug in the search): the bot leaves its
    /// seat, as a client whose connection broke.
    pub(super) fn on_bot_stopped(&mut self) {
        let Some((_, bot)) = self.bot() else {
            return;
        };
        let id = bot.id;
        log::error!("bkgo room: the practice bot's thread stopped");
        self.bot_leaves(id, "its thread stopped (internal error)");
    }

    /// The game has ended and the room has been told: the bot, if it played, leaves
    /// its seat to a watcher, or frees it for the next joiner.
    pub(super) fn bot_leaves_after_the_end(&mut self) {
        if let Some((_, bot)) = self.bot() {
            let id = bot.id;
            self.bot_leaves(id, "its game is over, and a human comes first");
        }
    }

    /// The bot (member `id`) leaves: the room gets `GoodbyePlayer:` and the seat line,
    /// its seat goes to the longest-waiting watcher, and its thread ends (after its
    /// current think, if any).
    pub(super) fn bot_leaves(&mut self, id: PlayerId, why: &str) {
        if let Some(name) = self.remove_member(id) {
            log::info!("bkgo room: {name} leaves its seat: {why}");
        }
        self.bot_asked = None;
    }

    /// Where the bot's answers come, while it sits here.
    pub(super) fn bot_answers(&self) -> Receiver<Answer> {
        self.members
            .iter()
            .find_map(|m| m.conn.thinker())
            .map_or_else(crossbeam_channel::never, |t| t.answers().clone())
    }

    /// The bot's seat and its member, if it sits here.
    fn bot(&self) -> Option<(Colour, &Member<Occupant>)> {
        self.members
            .seated()
            .find(|(_, m)| m.conn.thinker().is_some())
    }

    /// The current position: the game's number and its moves so far.
    fn turn(&self) -> Turn {
        Turn {
            round: self.number,
            ply: self.game.moves().len(),
        }
    }
}
