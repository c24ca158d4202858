//! One game's loop: the GO! flow from the leader's arrival (the lobby has answered its
//! HANDSHAKE) to the last rematch answer, driven by a `select!` over the game's inbox, the shutdown signal and the
//! game's one clock (config, move or rematch deadline, whichever applies).
//!
//! This file holds the loop, the game's state and the dispatch of commands; the steps
//! of the flow are in the submodules, each adding methods to [`Table`]:
//! - `gathering`: the players' arrival, the configuration, the start of each round;
//! - `playing`: moves and passes, EXIT, rematch answers;
//! - `ending`: how a game ends (passes, the move limit, departures, clocks, shutdown);
//! - `bot`: the practice bot in a seat: seating it, asking it, playing its answers;
//! - `view`: what the console sees.
//!
//! A seat holds a client (with its connection) or the practice bot (with its helper
//! thread, see `thinker`). The bot never sends or receives lines: its moves and its
//! rematch answer go through the same steps as a client's accepted commands, and the
//! lines for its seat are simply not sent.

use super::event::{BotRefused, GameEvent, Player};
use super::protocol::{ClientCommand, GameId, GameState, ParseError, ServerMessage};
use super::route::Route;
use super::summary::GameSummary;
use super::thinker::{Answer, Thinker, Turn};
use crate::engine::bot::Level;
use crate::engine::go::{self, Colour};
use crate::engine::rng::Rng;
use crate::frontend::{Departure, KICK_REASON, Shared, deadline_in};
use crate::net::{ConnId, Connection};
use crate::workers::Finished;
use crossbeam_channel::{Receiver, at, never, select};
use parking_lot::Mutex;
use std::io;
use std::panic::{self, AssertUnwindSafe};
use std::sync::Arc;
use std::time::{Instant, SystemTime};

mod bot;
mod ending;
mod gathering;
mod playing;
mod view;

/// What a game loop asks of matchmaking. The lobby implements it; a game loop knows
/// the lobby only through this trait, so the lobby can start game loops without the
/// loops depending on it.
pub trait Seating: Send + Sync {
    /// Seats again a player whose game broke up before it started: it joins the
    /// oldest waiting game, or leads a new one, and is told so with a fresh
    /// ACKNOWLEDGE_HANDSHAKE (and REQUEST_CONFIG as a leader). Nobody is stranded.
    fn reseat(&self, player: Player);

    /// A leader whose partner left before the start: true when it joined another
    /// waiting game (its own game ends; it gets that game's ACKNOWLEDGE_HANDSHAKE),
    /// false when its game waits again (nothing is sent).
    fn requeue(&self, game: GameId, leader: &Player) -> bool;

    /// Frees `conn`'s seat in `game`, e.g. a partner who left before the start.
    fn unseat(&self, game: GameId, conn: ConnId);

    /// Takes `game` off the queue of games waiting for a partner.
    fn stop_waiting(&self, game: GameId);

    /// Seats the practice bot of `level` in `game` if it waits for a partner: takes it
    /// off the queue, grants the bot a name and sends the game [`GameEvent::SeatBot`].
    /// Returns the name.
    ///
    /// # Errors
    ///
    /// Why not: no such game, ended, both seats taken, shutting down.
    fn seat_bot(&self, game: GameId, level: Level) -> Result<String, BotRefused>;

    /// Removes an ended game: no new player or event is sent to it, and its players
    /// are free. Returns the connections that sat in it with their routes, which
    /// still lead here until released (see `route`).
    fn close_game(&self, game: GameId) -> Vec<(Arc<Connection>, Arc<Route>)>;

    /// Handles a line that reached the game after it ended, where its client is now.
    fn redispatch(&self, from: &Arc<Connection>, command: Result<ClientCommand, ParseError>);
}

/// Starts the loop of game `id` on a thread of its own (from `shared.threads`).
///
/// # Errors
///
/// When no thread can be had.
pub fn spawn(
    id: GameId,
    seating: Arc<dyn Seating>,
    shared: Shared,
    events: Receiver<GameEvent>,
    summary: Arc<Mutex<GameSummary>>,
) -> io::Result<Finished> {
    let threads = Arc::clone(&shared.threads);
    threads.run(move || run(id, &seating, shared, &events, summary))
}

/// Runs game `id` until it is over, then answers what is left in its inbox, and the
/// players' lines that follow until their routes are released (see `route`). A panic
/// inside ends this game only: its players are told and freed.
fn run(
    id: GameId,
    seating: &Arc<dyn Seating>,
    shared: Shared,
    events: &Receiver<GameEvent>,
    summary: Arc<Mutex<GameSummary>>,
) {
    let outcome = panic::catch_unwind(AssertUnwindSafe(|| {
        Table::new(id, Arc::clone(seating), shared, summary).serve(events);
    }));
    let players = seating.close_game(id);
    if outcome.is_err() {
        log::error!("game {id}: internal error, game stopped");
        for (conn, _) in &players {
            let _ = conn.send(&ServerMessage::GameFinished {
                game_id: id,
                winner: None,
                black_score: "0".into(),
                white_score: "0".into(),
                message: "Internal server error: the game was stopped".into(),
            });
        }
    }
    // Events already queued still get an answer, and the players' lines sent meanwhile
    // follow them here (in order), until every route is released with nothing queued.
    loop {
        answer_leftovers(seating, events);
        if players
            .iter()
            .all(|(_, route)| route.release(id, || events.is_empty()))
        {
            return;
        }
    }
}

/// Answers the events left in an ended game's inbox: each where it belongs now.
fn answer_leftovers(seating: &Arc<dyn Seating>, events: &Receiver<GameEvent>) {
    while let Ok(event) = events.try_recv() {
        match event {
            GameEvent::Join(player) => seating.reseat(player),
            // Its name was freed when the game was closed.
            GameEvent::SeatBot(..) => {}
            // Sent while the game was ending: handled where the client now is.
            GameEvent::Line { from, command } => seating.redispatch(&from, command),
            GameEvent::Kick(conn) => conn.close(KICK_REASON),
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

/// Who sits in a seat.
enum Occupant {
    /// A client, with its connection.
    Client(Player),
    /// The server's practice bot, which thinks on its helper thread.
    Bot { name: String, thinker: Thinker },
}

/// A seated player and its colour once the game starts.
struct Seat {
    occupant: Occupant,
    colour: Colour,
}

impl Seat {
    /// The granted name.
    fn name(&self) -> &str {
        match &self.occupant {
            Occupant::Client(player) => &player.name,
            Occupant::Bot { name, .. } => name,
        }
    }

    /// The connection of a client; `None` for the bot.
    fn conn(&self) -> Option<&Arc<Connection>> {
        match &self.occupant {
            Occupant::Client(player) => Some(&player.conn),
            Occupant::Bot { .. } => None,
        }
    }
}

/// The state of one game, owned by its loop.
struct Table {
    id: GameId,
    seating: Arc<dyn Seating>,
    shared: Shared,
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
    /// The source of the game's random colours.
    rng: Rng,
    /// The seed of the bot's choices, should it sit here. Drawn when the game opens,
    /// so that the colours and the bot's play follow from `--seed` whichever comes
    /// first, the bot or a default configuration.
    bot_seed: u64,
    /// When the practice bot takes the free seat, while the leader waits (see
    /// `--bot-after`).
    bot_due: Option<Instant>,
    /// The position the bot was last asked about, so it is asked once per turn.
    bot_asked: Option<Turn>,
}

impl Table {
    fn new(
        id: GameId,
        seating: Arc<dyn Seating>,
        shared: Shared,
        summary: Arc<Mutex<GameSummary>>,
    ) -> Table {
        let mut rng = shared.settings.game_rng("go", u64::from(id.0));
        Table {
            id,
            seating,
            summary,
            seats: Vec::with_capacity(2),
            config: None,
            game: None,
            phase: Phase::Gathering,
            deadline: None,
            rematch: [None, None],
            started: SystemTime::now(),
            round: 0,
            bot_seed: rng.next_u64(),
            rng,
            bot_due: None,
            bot_asked: None,
            shared,
        }
    }

    /// The loop: one event, timer, bot answer or shutdown at a time, until the game
    /// is over.
    fn serve(mut self, events: &Receiver<GameEvent>) {
        let shutdown = self.shared.shutdown.signal();
        while self.phase != Phase::Over {
            let timer = self.deadline.map(at).unwrap_or_else(never);
            let bot_timer = self.bot_due.map(at).unwrap_or_else(never);
            let bot_answers = self.bot_answers();
            select! {
                recv(events) -> event => match event {
                    Ok(event) => self.handle(event),
                    // Cannot happen while the lobby lists the game; stop quietly if it does.
                    Err(_) => self.phase = Phase::Over,
                },
                recv(shutdown) -> _ => self.shut_down(),
                recv(timer) -> _ => self.on_deadline(),
                recv(bot_timer) -> _ => self.on_bot_due(),
                recv(bot_answers) -> answer => match answer {
                    Ok(answer) => self.on_bot_answer(answer),
                    Err(_) => self.on_bot_stopped(),
                },
            }
            self.prompt_bot();
            self.publish();
        }
    }

    /// Where the bot's answers come, if it sits here.
    fn bot_answers(&self) -> Receiver<Answer> {
        self.seats
            .iter()
            .find_map(|seat| match &seat.occupant {
                Occupant::Bot { thinker, .. } => Some(thinker.answers().clone()),
                Occupant::Client(_) => None,
            })
            .unwrap_or_else(never)
    }

    fn handle(&mut self, event: GameEvent) {
        match event {
            GameEvent::Join(player) => self.join(player),
            GameEvent::SeatBot(name, level) => self.seat_bot(name, level),
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
                    self.leave(seat, &Departure::Kicked);
                }
                conn.close(KICK_REASON);
            }
            GameEvent::Inspect(reply) => {
                let _ = reply.send(self.view());
            }
            #[cfg(test)]
            GameEvent::Panic => panic!("a bug in game {}", self.id),
        }
    }

    fn seat_of(&self, conn: ConnId) -> Option<usize> {
        self.seats
            .iter()
            .position(|s| s.conn().is_some_and(|c| c.id == conn))
    }

    /// The connection of the client in `seat`; `None` for the bot.
    fn conn(&self, seat: usize) -> Option<&Arc<Connection>> {
        self.seats.get(seat).and_then(Seat::conn)
    }

    /// The name of whoever sits in `seat`.
    fn name(&self, seat: usize) -> &str {
        self.seats.get(seat).map_or("", Seat::name)
    }

    /// Records that a line of the client in `seat` was accepted (ends its pacing).
    fn accepted(&self, seat: usize) {
        if let Some(conn) = self.conn(seat) {
            conn.accepted();
        }
    }

    fn send(&self, seat: usize, message: &ServerMessage) {
        // A closed connection is reported by its reader thread as a Left event; the
        // bot reads no lines.
        if let Some(conn) = self.conn(seat) {
            let _ = conn.send(message);
        }
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
            if let Some(conn) = self.conn(seat) {
                let _ = conn.send_line(&line, message.is_rejection());
            }
        }
    }

    // ----- commands -----

    fn command(&mut self, seat: usize, command: Result<ClientCommand, ParseError>) {
        match command {
            Err(error) => self.reject(seat, error.to_string()),
            Ok(ClientCommand::Handshake { .. }) => {
                let reason = format!(
                    "You are already {} in game {}: HANDSHAKE is accepted only when you are not in a game",
                    self.name(seat),
                    self.id
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
}

/// The protocol's State of `game`, `FINISHED` once it has ended.
fn state_of(game: &go::Game, finished: bool) -> GameState {
    GameState {
        status: if finished {
            super::protocol::GameStatus::Finished
        } else {
            super::protocol::GameStatus::Playing
        },
        to_move: game.to_move(),
        board: game.board().to_protocol_string(),
    }
}

/// A fair coin between the colours, from the game's generator (`--seed`).
fn random_colour(rng: &mut Rng) -> Colour {
    if rng.coin() {
        Colour::Black
    } else {
        Colour::White
    }
}
