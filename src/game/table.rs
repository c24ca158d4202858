//! One game's loop: the GO! flow from the leader's handshake to the last rematch
//! answer, driven by a `select!` over the game's inbox, the shutdown signal and the
//! game's one clock (config, move or rematch deadline, whichever applies).

use super::record::{self, RecordInfo};
use super::{Departure, GameEvent, GameStatus, GameSummary, GameView, Player};
use crate::go::{self, Colour, Move, Point};
use crate::lobby::Lobby;
use crate::net::{ConnId, Connection};
use crate::protocol::{ClientCommand, ColourChoice, GameId, GameState, ServerMessage};
use crate::settings::Settings;
use crossbeam_channel::{Receiver, at, never, select};
use parking_lot::Mutex;
use std::panic::{self, AssertUnwindSafe};
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant, SystemTime};

/// Runs game `id` until it is over, then answers what is left in its inbox. A panic
/// inside ends this game only: its players are told and freed.
pub fn run(
    id: GameId,
    lobby: Arc<Lobby>,
    events: Receiver<GameEvent>,
    summary: Arc<Mutex<GameSummary>>,
) {
    let outcome = panic::catch_unwind(AssertUnwindSafe(|| {
        Table::new(id, Arc::clone(&lobby), summary).serve(&events);
    }));
    if outcome.is_err() {
        log::error!("game {id}: internal error, game stopped");
        for conn in lobby.abandon(id) {
            let _ = conn.send(&ServerMessage::GameFinished {
                game_id: id,
                winner: None,
                black_score: "0".into(),
                white_score: "0".into(),
                message: "Internal server error: the game was stopped".into(),
            });
        }
    }
    // The lobby no longer routes to this game; events already queued still get an answer.
    while let Ok(event) = events.try_recv() {
        match event {
            GameEvent::Join(player) => lobby.reseat(player),
            // Sent while the game was ending: handled where the client now is.
            GameEvent::Line { from, command } => lobby.dispatch(&from, command),
            GameEvent::Kick(conn) => conn.close(super::KICK_REASON),
            GameEvent::Left { .. } | GameEvent::Inspect(_) => {}
            #[cfg(test)]
            GameEvent::Panic => {}
        }
    }
}

/// Where the game is in its flow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// Waiting for the partner and/or the leader's configuration.
    Gathering,
    /// Moves are being played.
    Playing,
    /// Ended by two passes; waiting for both rematch answers.
    RematchPending,
    /// Done: the loop stops.
    Over,
}

/// The leader's configuration.
#[derive(Clone, Copy, Debug)]
struct GameConfig {
    size: usize,
    leader_colour: Colour,
    /// Applied by the config timeout rather than sent.
    defaulted: bool,
}

/// A seated player and its colour once the game starts.
struct Seat {
    player: Player,
    colour: Colour,
}

/// The state of one game, owned by its loop.
struct Table {
    id: GameId,
    lobby: Arc<Lobby>,
    settings: Arc<Settings>,
    summary: Arc<Mutex<GameSummary>>,
    /// The leader first, then the partner.
    seats: Vec<Seat>,
    config: Option<GameConfig>,
    /// The rules engine's game, once started.
    game: Option<go::Game>,
    phase: Phase,
    /// The one clock: config, move or rematch deadline, by phase.
    deadline: Option<Instant>,
    /// Rematch answers by seat.
    rematch: [Option<bool>; 2],
    /// When the current round started, and which round it is (rematches count up).
    started: SystemTime,
    round: u32,
}

impl Table {
    fn new(id: GameId, lobby: Arc<Lobby>, summary: Arc<Mutex<GameSummary>>) -> Table {
        Table {
            id,
            settings: Arc::clone(&lobby.settings),
            lobby,
            summary,
            seats: Vec::with_capacity(2),
            config: None,
            game: None,
            phase: Phase::Gathering,
            deadline: None,
            rematch: [None, None],
            started: SystemTime::now(),
            round: 0,
        }
    }

    /// The loop: one event, timer or shutdown at a time, until the game is over.
    fn serve(mut self, events: &Receiver<GameEvent>) {
        let shutdown = self.lobby.shutdown.signal();
        while self.phase != Phase::Over {
            let timer = self.deadline.map(at).unwrap_or_else(never);
            select! {
                recv(events) -> event => match event {
                    Ok(event) => self.handle(event),
                    // Cannot happen while the lobby lists the game; stop quietly if it does.
                    Err(_) => self.phase = Phase::Over,
                },
                recv(shutdown) -> _ => self.shut_down(),
                recv(timer) -> _ => self.on_deadline(),
            }
            self.publish();
        }
        let summary = self.summary.lock().clone();
        self.lobby.close_game(self.id, summary);
    }

    fn handle(&mut self, event: GameEvent) {
        match event {
            GameEvent::Join(player) => self.join(player),
            GameEvent::Line { from, command } => match self.seat_of(from.id) {
                Some(seat) => self.command(seat, command),
                None => {
                    let _ = from.send(&ServerMessage::UnknownCommand {
                        reason: format!("You are not in game {}", self.id),
                    });
                }
            },
            GameEvent::Left { from, how } => {
                if let Some(seat) = self.seat_of(from.id) {
                    self.leave(seat, &how);
                }
            }
            GameEvent::Kick(conn) => {
                if let Some(seat) = self.seat_of(conn.id) {
                    if self.phase == Phase::Gathering {
                        // No game to lose yet, but the kicked client is still told.
                        let _ = conn.send(&ServerMessage::GameFinished {
                            game_id: self.id,
                            winner: None,
                            black_score: "0".into(),
                            white_score: "0".into(),
                            message: format!(
                                "{} was kicked by operator",
                                self.seats[seat].player.name
                            ),
                        });
                    }
                    self.leave(seat, &Departure::Kicked);
                }
                conn.close(super::KICK_REASON);
            }
            GameEvent::Inspect(reply) => {
                let _ = reply.send(self.view());
            }
            #[cfg(test)]
            GameEvent::Panic => panic!("a bug in game {}", self.id),
        }
    }

    fn seat_of(&self, conn: ConnId) -> Option<usize> {
        self.seats.iter().position(|s| s.player.conn.id == conn)
    }

    fn conn(&self, seat: usize) -> &Arc<Connection> {
        &self.seats[seat].player.conn
    }

    fn send(&self, seat: usize, message: &ServerMessage) {
        // A closed connection is reported by its reader thread as a Left event.
        let _ = self.conn(seat).send(message);
    }

    fn send_all(&self, message: &ServerMessage) {
        self.send_all_from(0, message);
    }

    /// Sends one message to every seat, `first` first (the mover, whose reply is what
    /// its client waits for), formatting it once.
    fn send_all_from(&self, first: usize, message: &ServerMessage) {
        let line = message.to_string();
        let order = (first..self.seats.len()).chain(0..first.min(self.seats.len()));
        for seat in order {
            let _ = self.conn(seat).send_line(&line, message.is_rejection());
        }
    }

    // ----- gathering: handshake and configuration -----

    fn join(&mut self, player: Player) {
        let is_leader = self.seats.is_empty();
        if self.seats.len() >= 2 || self.phase != Phase::Gathering {
            // The lobby seats two players at most; should it ever seat a third, that
            // player gets a game of its own rather than being stranded.
            log::warn!("game {}: no free seat for {}", self.id, player.name);
            self.lobby.reseat(player);
            return;
        }
        let _ = player.conn.send(&ServerMessage::AcknowledgeHandshake {
            game_id: self.id,
            is_leader,
        });
        player.conn.accepted();
        log::info!(
            "game {}: {} joined as {}",
            self.id,
            player.name,
            if is_leader { "leader" } else { "partner" }
        );
        self.seats.push(Seat {
            player,
            colour: Colour::Black,
        });
        if is_leader {
            self.deadline = deadline_in(self.settings.config_timeout);
            self.request_config();
        } else if self.config.is_some() {
            self.start();
        }
    }

    fn request_config(&self) {
        let message = format!(
            "Game {id}: please send SET_CONFIG, game id {id}, colour (0 random, 1 black, 2 white), board size (2 to {max}), joined by plus signs",
            id = self.id,
            max = self.settings.max_board_size
        );
        self.send(0, &ServerMessage::RequestConfig { message });
    }

    fn configure(&mut self, seat: usize, game_id: GameId, colour: ColourChoice, size: u32) {
        let max = self.settings.max_board_size;
        let refusal = if seat != 0 {
            Some(format!(
                "Only the leader of game {}, {}, sends SET_CONFIG",
                self.id, self.seats[0].player.name
            ))
        } else if let Some(config) = self.config {
            Some(format!(
                "Game {} is already configured ({n}x{n}{})",
                self.id,
                if config.defaulted {
                    ": no SET_CONFIG came in time, so the defaults apply"
                } else {
                    ""
                },
                n = config.size
            ))
        } else if game_id != self.id {
            Some(format!(
                "SET_CONFIG: wrong game id: you are in game {}, got {game_id}",
                self.id
            ))
        } else if !(go::MIN_SIZE..=max).contains(&(size as usize)) {
            Some(format!(
                "SET_CONFIG: board size must be from {} to {max}, got {size}",
                go::MIN_SIZE
            ))
        } else {
            None
        };
        if let Some(reason) = refusal {
            self.reject(seat, reason);
            return;
        }
        let leader_colour = match colour {
            ColourChoice::Black => Colour::Black,
            ColourChoice::White => Colour::White,
            ColourChoice::Random => random_colour(),
        };
        self.config = Some(GameConfig {
            size: size as usize,
            leader_colour,
            defaulted: false,
        });
        self.conn(seat).accepted();
        log::info!(
            "game {}: configured {size}x{size}, leader plays {leader_colour}",
            self.id
        );
        self.deadline = None;
        if self.seats.len() == 2 {
            self.start();
        }
    }

    /// Both players are here and the configuration is set: colours, then
    /// ACKNOWLEDGE_CONFIG to each.
    fn start(&mut self) {
        let Some(config) = self.config else { return };
        let game = match go::Game::new(config.size, self.settings.rules) {
            Ok(game) => game,
            Err(e) => {
                log::error!("game {}: cannot start: {e}", self.id);
                self.phase = Phase::Over;
                return;
            }
        };
        self.seats[0].colour = config.leader_colour;
        self.seats[1].colour = config.leader_colour.opponent();
        self.game = Some(game);
        self.lobby.stop_waiting(self.id);
        self.begin_round();
        log::info!(
            "game {} started: {} ({}) vs {} ({}), {n}x{n}",
            self.id,
            self.seats[0].player.name,
            self.seats[0].colour,
            self.seats[1].player.name,
            self.seats[1].colour,
            n = config.size
        );
    }

    /// Sends ACKNOWLEDGE_CONFIG to both and starts the move clock.
    fn begin_round(&mut self) {
        let (Some(game), Some(config)) = (&self.game, self.config) else {
            return;
        };
        for seat in 0..2 {
            let opponent = &self.seats[1 - seat].player.name;
            self.send(
                seat,
                &ServerMessage::AcknowledgeConfig {
                    name: self.seats[seat].player.name.clone(),
                    colour: self.seats[seat].colour,
                    size: config.size,
                    state: state_of(game, false),
                    opponent: opponent.clone(),
                },
            );
        }
        self.phase = Phase::Playing;
        self.rematch = [None, None];
        self.started = SystemTime::now();
        self.round += 1;
        self.deadline = self.move_deadline();
    }

    fn move_deadline(&self) -> Option<Instant> {
        deadline_in(self.settings.move_timeout)
    }

    // ----- commands -----

    fn command(
        &mut self,
        seat: usize,
        command: Result<ClientCommand, crate::protocol::ParseError>,
    ) {
        match command {
            Err(error) => self.reject(seat, error.to_string()),
            Ok(ClientCommand::Handshake { .. }) => {
                let reason = format!(
                    "You are already {} in game {}: HANDSHAKE is accepted only when you are not in a game",
                    self.seats[seat].player.name, self.id
                );
                self.reject(seat, reason);
            }
            Ok(ClientCommand::SetConfig {
                game_id,
                colour,
                size,
            }) => self.configure(seat, game_id, colour, size),
            Ok(ClientCommand::Move {
                game_id,
                player,
                index,
            }) => self.play(seat, "MOVE", game_id, &player, index),
            Ok(ClientCommand::Pass { game_id, player }) => {
                self.play(seat, "PASS", game_id, &player, -1);
            }
            Ok(ClientCommand::SetRematch { rematch }) => self.answer_rematch(seat, rematch),
            Ok(ClientCommand::Exit { game_id, player }) => self.exit(seat, game_id, &player),
        }
    }

    /// UNKNOWN_COMMAND, and a fresh REQUEST_CONFIG if the leader still owes one.
    fn reject(&self, seat: usize, reason: String) {
        self.send(seat, &ServerMessage::UnknownCommand { reason });
        self.remind_config(seat);
    }

    /// INVALID_MOVE, and a fresh REQUEST_CONFIG if the leader still owes one.
    fn refuse_move(&self, seat: usize, reason: String) {
        self.send(seat, &ServerMessage::InvalidMove { reason });
        self.remind_config(seat);
    }

    /// Every refused line from a leader that still owes its configuration is followed
    /// by REQUEST_CONFIG again.
    fn remind_config(&self, seat: usize) {
        if seat == 0 && self.phase == Phase::Gathering && self.config.is_none() {
            self.request_config();
        }
    }

    /// Checks a MOVE or PASS (index -1) in the order DESIGN.md fixes: game id, name,
    /// game in progress, turn, index range, then the rules engine.
    fn play(&mut self, seat: usize, keyword: &str, game_id: GameId, name: &str, index: i64) {
        if let Some(reason) = self.identity_error(seat, keyword, game_id, name) {
            return self.refuse_move(seat, reason);
        }
        if let Some(reason) = self.not_playing_reason() {
            return self.refuse_move(seat, reason);
        }
        let colour = self.seats[seat].colour;
        let Some(game) = self.game.as_mut() else {
            return;
        };
        if game.to_move() != colour {
            let reason = format!("Not your turn: {} is to move", game.to_move());
            return self.refuse_move(seat, reason);
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
            return self.refuse_move(seat, reason);
        };
        match game.play(colour, mv) {
            Err(illegal) => self.refuse_move(seat, illegal.to_string()),
            Ok(report) => {
                let limit = self.settings.moves_per_point * size * size;
                let at_limit = game.moves().len() >= limit;
                let message = ServerMessage::AcknowledgeMove {
                    game_id: self.id,
                    index,
                    colour,
                    state: state_of(game, report.game_over || at_limit),
                };
                self.conn(seat).accepted();
                self.lobby.counters.moves.fetch_add(1, Ordering::Relaxed);
                self.send_all_from(seat, &message);
                if report.game_over {
                    self.finish_by_score("Both players passed");
                } else if at_limit {
                    self.finish_by_score(&format!("The move limit of {limit} moves was reached"));
                } else {
                    self.deadline = self.move_deadline();
                }
            }
        }
    }

    /// Why a command naming `game_id` and `name` does not come from this seat.
    fn identity_error(
        &self,
        seat: usize,
        keyword: &str,
        game_id: GameId,
        name: &str,
    ) -> Option<String> {
        let granted = &self.seats[seat].player.name;
        if game_id != self.id {
            Some(format!(
                "{keyword}: wrong game id: you are in game {}, got {game_id}",
                self.id
            ))
        } else if name != granted {
            Some(format!(
                "{keyword}: wrong player name: you are {granted}, got {name}"
            ))
        } else {
            None
        }
    }

    fn not_playing_reason(&self) -> Option<String> {
        match self.phase {
            Phase::Playing => None,
            Phase::Gathering if self.seats.len() < 2 => Some(format!(
                "Game {} has not started yet: waiting for an opponent",
                self.id
            )),
            Phase::Gathering => Some(format!(
                "Game {} has not started yet: waiting for the leader's SET_CONFIG",
                self.id
            )),
            Phase::RematchPending | Phase::Over => Some(format!(
                "Game {} is finished: answer REQUEST_REMATCH with SET_REMATCH, 1 or 0",
                self.id
            )),
        }
    }

    fn exit(&mut self, seat: usize, game_id: GameId, name: &str) {
        if let Some(reason) = self.identity_error(seat, "EXIT", game_id, name) {
            return self.reject(seat, reason);
        }
        let conn = Arc::clone(self.conn(seat));
        conn.accepted();
        self.leave(seat, &Departure::Exited);
        conn.close(super::EXIT_REASON);
    }

    fn answer_rematch(&mut self, seat: usize, yes: bool) {
        if self.phase != Phase::RematchPending {
            return self.reject(
                seat,
                "SET_REMATCH answers REQUEST_REMATCH, which comes only after a game ends by two passes".into(),
            );
        }
        if self.rematch[seat].is_some() {
            return self.reject(seat, "You already answered the rematch request".into());
        }
        self.rematch[seat] = Some(yes);
        self.conn(seat).accepted();
        if !yes {
            log::info!(
                "game {}: {} declined a rematch",
                self.id,
                self.seats[seat].player.name
            );
            self.end_rematch();
        } else if self.rematch == [Some(true), Some(true)] {
            log::info!("game {}: rematch", self.id);
            self.send_all(&ServerMessage::AcknowledgeRematch { rematch: true });
            if let Some(game) = self.game.as_mut() {
                game.restart();
            }
            self.begin_round();
        }
    }

    /// ACKNOWLEDGE_REMATCH+0 to both: the game is over for good.
    fn end_rematch(&mut self) {
        self.send_all(&ServerMessage::AcknowledgeRematch { rematch: false });
        self.phase = Phase::Over;
    }

    // ----- endings -----

    /// The game ends on the board: area score, GAME_FINISHED, REQUEST_REMATCH.
    /// `why` opens the message ("Both players passed").
    fn finish_by_score(&mut self, why: &str) {
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
        let result = match score.winner() {
            Some(colour) => format!(
                "{}+{}",
                sgf_colour(colour),
                go::Komi::from_halves(
                    i32::try_from((score.black_halves() - score.white_halves()).abs()).unwrap_or(0)
                )
            ),
            None => "0".to_string(),
        };
        let winner = score.winner().map(|c| self.name_of(c).to_string());
        self.announce_end(winner, message, &result);
        self.send_all(&ServerMessage::RequestRematch);
        self.phase = Phase::RematchPending;
        self.deadline = deadline_in(self.settings.rematch_timeout);
    }

    /// A player left: in play the other wins; before the start the game re-forms.
    fn leave(&mut self, seat: usize, how: &Departure) {
        let name = self.seats[seat].player.name.clone();
        let what = match how {
            Departure::Exited => format!("{name} exited"),
            Departure::Disconnected => format!("{name} disconnected"),
            Departure::Kicked => format!("{name} was kicked by operator"),
            Departure::Dropped(reason) => format!("{name} was disconnected: {reason}"),
        };
        log::info!("game {}: {what}", self.id);
        match self.phase {
            Phase::Gathering => {
                self.summary.lock().result = Some(format!("{what} before the start"));
                let departed = self.seats.remove(seat);
                self.lobby.unseat(self.id, departed.player.conn.id);
                if seat == 0 {
                    // The leader is gone before the start: its partner, if any, is
                    // matched anew (a waiting game, or a new one it leads).
                    if let Some(partner) = self.seats.pop() {
                        self.lobby.reseat(partner.player);
                    }
                    self.phase = Phase::Over;
                } else if self.lobby.requeue(self.id, &self.seats[0].player) {
                    // The leader joined another game waiting for a partner.
                    self.seats.clear();
                    self.phase = Phase::Over;
                }
            }
            Phase::Playing => {
                let winner = &self.seats[1 - seat].player.name;
                let message = format!("{what}: {winner} wins");
                let code = match how {
                    Departure::Exited => "R",
                    _ => "F",
                };
                let result = format!("{}+{code}", sgf_colour(self.seats[1 - seat].colour));
                self.announce_end(Some(winner.clone()), message, &result);
                self.phase = Phase::Over;
            }
            Phase::RematchPending => self.end_rematch(),
            Phase::Over => {}
        }
    }

    fn on_deadline(&mut self) {
        self.deadline = None;
        match self.phase {
            Phase::Gathering => {
                let random = random_colour();
                self.config = Some(GameConfig {
                    size: self.settings.default_board_size(),
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
                let seconds = self.settings.move_timeout.map_or(0, |t| t.as_secs());
                let message = format!(
                    "{} did not move within {seconds} s: {} wins",
                    self.name_of(late),
                    self.name_of(late.opponent())
                );
                let result = format!("{}+T", sgf_colour(late.opponent()));
                let winner = Some(self.name_of(late.opponent()).to_string());
                self.announce_end(winner, message, &result);
                self.phase = Phase::Over;
            }
            Phase::RematchPending => {
                log::info!("game {}: no rematch answer in time", self.id);
                self.end_rematch();
            }
            Phase::Over => {}
        }
    }

    fn shut_down(&mut self) {
        match self.phase {
            Phase::Playing => {
                self.announce_end(None, "server shutting down".into(), "Void");
            }
            Phase::RematchPending => {
                self.send_all(&ServerMessage::AcknowledgeRematch { rematch: false });
            }
            Phase::Gathering | Phase::Over => {}
        }
        self.phase = Phase::Over;
    }

    /// GAME_FINISHED to both with the board's area score, a log line and a record.
    fn announce_end(&mut self, winner: Option<String>, message: String, result: &str) {
        let Some(game) = &self.game else { return };
        let score = game.score();
        log::info!("game {} finished: {message}", self.id);
        let text = record::sgf(game, &self.record_info(result));
        // The record is on disk before the players hear the game has ended.
        if let Some(dir) = &self.settings.records {
            match record::write(dir, self.id.0, self.round, &text) {
                Ok(path) => log::info!("game {}: record written to {}", self.id, path.display()),
                Err(e) => log::warn!(
                    "game {}: cannot write record in {}: {e}",
                    self.id,
                    dir.display()
                ),
            }
        }
        self.send_all(&ServerMessage::GameFinished {
            game_id: self.id,
            winner,
            black_score: score.black_text(),
            white_score: score.white_text(),
            message: message.clone(),
        });
        let mut summary = self.summary.lock();
        summary.result = Some(message);
        summary.record = Some(text);
    }

    fn record_info<'a>(&'a self, result: &'a str) -> RecordInfo<'a> {
        RecordInfo {
            black: self.name_of(Colour::Black),
            white: self.name_of(Colour::White),
            result,
            started: self.started,
        }
    }

    fn name_of(&self, colour: Colour) -> &str {
        self.seats
            .iter()
            .find(|s| s.colour == colour)
            .map_or("", |s| s.player.name.as_str())
    }

    // ----- what the console sees -----

    fn status(&self) -> GameStatus {
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
    fn publish(&self) {
        let colour_of = |seat: &Seat| self.game.as_ref().map(|_| seat.colour);
        let mut summary = self.summary.lock();
        let seats_changed = summary.players.len() != self.seats.len()
            || summary
                .players
                .iter()
                .zip(&self.seats)
                .any(|((name, colour), seat)| {
                    *name != seat.player.name || *colour != colour_of(seat)
                });
        if seats_changed {
            summary.players = self
                .seats
                .iter()
                .map(|seat| (seat.player.name.clone(), colour_of(seat)))
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

    fn view(&self) -> GameView {
        let summary = self.summary.lock().clone();
        let Some(game) = &self.game else {
            return GameView {
                summary,
                board: None,
                captures: (0, 0),
                score: None,
                sgf: None,
            };
        };
        let last = game.last_move().and_then(|m| match m.mv {
            Move::Play(point) => Some(point),
            Move::Pass => None,
        });
        let score = game.score();
        GameView {
            summary,
            board: Some(game.board().render(last)),
            captures: (game.captures(Colour::Black), game.captures(Colour::White)),
            score: Some((score.black_text(), score.white_text())),
            sgf: Some(record::sgf(game, &self.record_info(""))),
        }
    }
}

/// `timeout` from now; none when there is no timeout (or it is beyond any clock).
fn deadline_in(timeout: Option<Duration>) -> Option<Instant> {
    timeout.and_then(|t| Instant::now().checked_add(t))
}

/// The protocol's State of `game`, `FINISHED` once it has ended.
fn state_of(game: &go::Game, finished: bool) -> GameState {
    GameState {
        status: if finished {
            crate::protocol::GameStatus::Finished
        } else {
            crate::protocol::GameStatus::Playing
        },
        to_move: game.to_move(),
        board: game.board().to_protocol_string(),
    }
}

fn sgf_colour(colour: Colour) -> char {
    match colour {
        Colour::Black => 'B',
        Colour::White => 'W',
    }
}

/// A fair coin from the standard library's per-process random hash keys.
fn random_colour() -> Colour {
    use std::hash::{BuildHasher, RandomState};
    let draw = RandomState::new().hash_one(Instant::now());
    if draw & 1 == 0 {
        Colour::Black
    } else {
        Colour::White
    }
}

/// How long the server waits for a console query to be answered by a game loop.
pub const INSPECT_TIMEOUT: Duration = Duration::from_secs(2);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::flusher::Flusher;
    use crate::net::{ConnId, OutboxLimits};
    use crate::shutdown::Shutdown;
    use std::io::{BufRead, BufReader};
    use std::net::{TcpListener, TcpStream};

    /// A client socket and the server side of it, registered in the lobby.
    fn client(
        lobby: &Arc<Lobby>,
        listener: &TcpListener,
        id: u64,
    ) -> (BufReader<TcpStream>, Arc<Connection>) {
        let socket = TcpStream::connect(listener.local_addr().expect("addr")).expect("connect");
        socket
            .set_read_timeout(Some(Duration::from_secs(20)))
            .expect("timeout");
        let (server_side, peer) = listener.accept().expect("accept");
        let conn = Connection::new(
            ConnId(id),
            server_side,
            peer,
            OutboxLimits::default(),
            Arc::new(Flusher::default()),
        )
        .expect("connection");
        lobby.connect(&conn);
        (BufReader::new(socket), conn)
    }

    fn line(reader: &mut BufReader<TcpStream>) -> String {
        let mut line = String::new();
        reader.read_line(&mut line).expect("a line");
        line.trim_end().to_string()
    }

    #[test]
    fn a_panic_in_a_game_loop_ends_that_game_only() {
        let lobby = Lobby::new(Arc::new(Settings::default()), Shutdown::new());
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
        let (mut ann, ann_conn) = client(&lobby, &listener, 1);
        let (mut bob, bob_conn) = client(&lobby, &listener, 2);
        assert!(lobby.handshake(&ann_conn, "Ann").is_ok());
        assert_eq!(line(&mut ann), "ACKNOWLEDGE_HANDSHAKE+1+1");
        assert!(line(&mut ann).starts_with("REQUEST_CONFIG+"));
        assert!(lobby.handshake(&bob_conn, "Bob").is_ok());
        assert_eq!(line(&mut bob), "ACKNOWLEDGE_HANDSHAKE+1+0");

        let inbox = lobby.game_inbox(GameId(1)).expect("game 1 is live");
        assert!(inbox.send(GameEvent::Panic).is_ok());
        let told = "GAME_FINISHED+1++0;0+Internal server error: the game was stopped";
        assert_eq!(line(&mut ann), told);
        assert_eq!(line(&mut bob), told);
        // Both are free again, and the lobby still matches players.
        assert!(lobby.free_since(ann_conn.id).is_some());
        assert!(lobby.handshake(&ann_conn, "Ann").is_ok());
        assert_eq!(line(&mut ann), "ACKNOWLEDGE_HANDSHAKE+2+1");
    }
}
