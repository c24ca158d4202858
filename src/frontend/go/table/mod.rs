//! One game's loop: the GO! flow from the leader's arrival (the registry has answered its
//! HANDSHAKE) to the last rematch answer, driven by a `select!` over the game's inbox, the shutdown signal and the
//! game's one clock (config, move or rematch deadline, whichever applies).
//!
//! This file holds the loop, the game's state (`Table`, a short list of concerns) and
//! the dispatch of commands; the steps of the flow are in the submodules, each adding
//! methods to `Table` and keeping the state of its concern:
//! - `seat`: who sits in a seat, a client or the practice bot;
//! - `gathering`: the players' arrival, the configuration, the start of each round
//!   (`Round`: its number, times and rematch answers);
//! - `playing`: moves and passes, EXIT, rematch answers;
//! - `ending`: how a game ends (passes, the move limit, departures, clocks, shutdown;
//!   `Ended`: what the last ending was);
//! - `bot`: the practice bot in a seat: seating it, asking it, playing its answers
//!   (`BotState`: its seed, when it is due, what it was asked);
//! - `view`: what the console and the web board see (`Published`: what they got).
//!
//! A seat holds a client (with its connection) or the practice bot (with its helper
//! thread, see `thinker`). The bot never sends or receives lines: its moves and its
//! rematch answer go through the same steps as a client's accepted commands, and the
//! lines for its seat are simply not sent.

use super::event::{BotRefused, GameEvent, Player};
use super::protocol::{
    ClientCommand, GameId, GameState, Keyword, ParseError, Progress, ServerMessage,
};
use super::summary::GameSummary;
use crate::cards::Mistake;
use crate::engine::bot::Level;
use crate::engine::go::{self, Colour};
use crate::engine::rng::Rng;
use crate::front::Front;
use crate::frontend::thinker::Answer;
use crate::frontend::{Context, Departure, card, deadline_in};
use crate::net::{CloseReason, ConnId, Connection, Incoming, Ticket};
use crate::workers::Finished;
use crossbeam_channel::{Receiver, RecvTimeoutError, at, never, select};
use parking_lot::Mutex;
use std::io;
use std::panic::{self, AssertUnwindSafe};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// What the players of a game stopped by a bug in its loop are told.
const INTERNAL_ERROR: &str = "Internal server error: the game was stopped";

mod bot;
mod ending;
mod gathering;
mod playing;
mod seat;
mod view;

use bot::BotState;
use ending::Ended;
use gathering::Round;
use seat::{Occupant, Seat};
use view::Published;

/// What a game loop asks of matchmaking. The registry implements it; a game loop knows
/// the registry only through this trait, so the registry can start game loops without the
/// loops depending on it.
pub trait Matchmaker: Send + Sync {
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
    /// are free. Returns the connections that sat in it.
    fn close_game(&self, game: GameId) -> Vec<Arc<Connection>>;

    /// Handles a line that reached the game after it ended, where its client is now;
    /// the ticket goes with it.
    fn redispatch(
        &self,
        from: &Arc<Connection>,
        line: Incoming,
        command: Result<ClientCommand, ParseError>,
        ticket: Ticket,
    );
}

/// The longest an ended game waits for a connection thread still handing it a line
/// (one that read the client's route just before the game ended). A hand-over takes
/// microseconds; past this, something holds the inbox that should not, and the
/// leftovers are no longer answered (logged).
const LEFTOVER_WAIT: Duration = Duration::from_secs(10);

/// A game the arena arranged (ARENA.md): nobody leads or configures it; its board is
/// the arena's, and its first seat (the first player it seats) has this colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Arranged {
    /// The board size.
    pub size: usize,
    /// The colour of the first seat; the second has the other.
    pub first_seat: Colour,
}

/// Starts the loop of game `id` on a thread of its own (from `context.game_threads`):
/// a game its leader configures, or one the arena `arranged`.
///
/// # Errors
///
/// When no thread can be had.
pub fn spawn(
    id: GameId,
    matchmaker: Arc<dyn Matchmaker>,
    context: Context,
    (events, summary): (Receiver<GameEvent>, Arc<Mutex<GameSummary>>),
    arranged: Option<Arranged>,
) -> io::Result<Finished> {
    let threads = Arc::clone(&context.game_threads);
    threads.run(move || run(id, &matchmaker, context, &events, summary, arranged))
}

/// Runs game `id` until it is over, then answers what is left in its inbox where each
/// event belongs now. A panic inside ends this game only: a round in play is filed
/// among the results as `error`, and its players are told and freed.
fn run(
    id: GameId,
    matchmaker: &Arc<dyn Matchmaker>,
    context: Context,
    events: &Receiver<GameEvent>,
    summary: Arc<Mutex<GameSummary>>,
    arranged: Option<Arranged>,
) {
    let mut table = Table::new(id, Arc::clone(matchmaker), context, summary);
    let outcome = panic::catch_unwind(AssertUnwindSafe(|| {
        if let Some(arranged) = arranged {
            table.arrange(arranged);
        }
        table.serve(events);
    }));
    let mut players_told = false;
    if outcome.is_err() {
        log::error!("game {id}: internal error, game stopped");
        // The table's state may be half-changed by the panic: ending the round from
        // it is tried once, and the players are told below if that fails too.
        match panic::catch_unwind(AssertUnwindSafe(|| table.stop_after_internal_error())) {
            Ok(told) => players_told = told,
            Err(_) => log::error!("game {id}: its round could not be ended and filed either"),
        }
    }
    drop(table);
    let players = matchmaker.close_game(id);
    if outcome.is_err() && !players_told {
        for conn in &players {
            let _ = conn.send(&ServerMessage::GameFinished {
                game_id: id,
                winner: None,
                black_score: "0".into(),
                white_score: "0".into(),
                message: INTERNAL_ERROR.into(),
            });
        }
    }
    // No route leads here any more. Events already queued, and lines a connection
    // thread is still handing over (it read the route just before it changed), are
    // answered where they belong now; the loop ends when the last sender is gone.
    drop(players);
    loop {
        match events.recv_timeout(LEFTOVER_WAIT) {
            Ok(event) => answer_leftover(matchmaker, event),
            Err(RecvTimeoutError::Disconnected) => return,
            Err(RecvTimeoutError::Timeout) => {
                log::warn!(
                    "game {id}: its inbox is still held {} s after its end: leftovers are no longer answered",
                    LEFTOVER_WAIT.as_secs()
                );
                return;
            }
        }
    }
}

/// Answers an event that reached a game after it ended, where it belongs now.
fn answer_leftover(matchmaker: &Arc<dyn Matchmaker>, event: GameEvent) {
    match event {
        GameEvent::Join(player) => matchmaker.reseat(player),
        // Its name was freed when the game was closed.
        GameEvent::SeatBot(..) => {}
        GameEvent::Line {
            from,
            line,
            command,
            ticket,
        } => matchmaker.redispatch(&from, line, command, ticket),
        GameEvent::Kick(conn) => conn.close(CloseReason::Kicked),
        GameEvent::Left { .. } | GameEvent::Inspect(_) => {}
        #[cfg(test)]
        GameEvent::Panic => {}
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

/// The state of one game, owned by its loop: a short list of concerns. The fields of
/// each larger concern are a struct of their own, kept in the file that changes them.
struct Table {
    /// The game's id.
    id: GameId,
    /// The registry, as far as a game loop knows it.
    matchmaker: Arc<dyn Matchmaker>,
    /// What every game shares: settings, shutdown, results, cards, the live board.
    context: Context,
    /// Who sits here: the leader first, then the partner (see [`Seat`]).
    seats: Vec<Seat>,
    /// Where the game is in its flow.
    phase: Phase,
    /// The board size and colours, once the leader, the config clock or the arena has
    /// set them.
    config: Option<GameConfig>,
    /// Set when the arena arranged the game: nobody configures it, and a rematch
    /// swaps the colours.
    arranged: Option<Arranged>,
    /// The rules engine's game, once started.
    game: Option<go::Game>,
    /// The one clock: config, move or rematch deadline, by phase.
    deadline: Option<Instant>,
    /// The round in play: its number, its times, the rematch answers (`gathering`).
    round: Round,
    /// The practice bot's plans: its seed, when it takes the free seat, what it was
    /// last asked (`bot`).
    bot: BotState,
    /// What the console and the web board were given (`view`).
    published: Published,
    /// How the last round ended, shown until a rematch starts the next (`ending`).
    ended: Ended,
    /// The line being answered, while a client's line is handled (its card's example
    /// if it is refused).
    answering: Option<Incoming>,
    /// The source of the game's random colours (`--seed`).
    rng: Rng,
}

impl Table {
    fn new(
        id: GameId,
        matchmaker: Arc<dyn Matchmaker>,
        context: Context,
        summary: Arc<Mutex<GameSummary>>,
    ) -> Table {
        let mut rng = context.settings.game_rng("go", u64::from(id.0));
        Table {
            id,
            matchmaker,
            seats: Vec::with_capacity(2),
            phase: Phase::Gathering,
            config: None,
            arranged: None,
            game: None,
            deadline: None,
            round: Round::new(),
            bot: BotState::new(&mut rng),
            published: Published::new(summary),
            ended: Ended::default(),
            answering: None,
            rng,
            context,
        }
    }

    /// The arena arranged this game: its configuration is set before anyone joins.
    fn arrange(&mut self, arranged: Arranged) {
        self.arranged = Some(arranged);
        self.config = Some(GameConfig {
            size: arranged.size,
            leader_colour: arranged.first_seat,
            defaulted: false,
        });
    }

    /// The loop: one event, timer, bot answer or shutdown at a time, until the game
    /// is over.
    fn serve(&mut self, events: &Receiver<GameEvent>) {
        let shutdown = self.context.shutdown.signal_for(u64::from(self.id.0));
        while self.phase != Phase::Over {
            let timer = self.deadline.map(at).unwrap_or_else(never);
            let bot_timer = self.bot.due.map(at).unwrap_or_else(never);
            let bot_answers = self.bot_answers();
            select! {
                recv(events) -> event => match event {
                    Ok(event) => self.handle(event),
                    // Cannot happen while the registry lists the game; stop quietly if it does.
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
            // The ticket is dropped once the line is answered: its client's next line
            // is read then.
            GameEvent::Line {
                from,
                line,
                command,
                ticket: _answered,
            } => match self.seat_of(from.id) {
                Some(seat) => {
                    self.answering = Some(line);
                    self.command(seat, command);
                    self.answering = None;
                }
                None => {
                    let max_bytes = self.context.settings.lines.max_line_bytes;
                    card::refuse(
                        &from,
                        Front::Go,
                        Mistake::Other,
                        card::offending(&line, max_bytes),
                        &ServerMessage::UnknownCommand {
                            reason: format!("You are not in game {}", self.id),
                        },
                    );
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
                conn.close(CloseReason::Kicked);
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
            Err(error) => {
                // A malformed SET_CONFIG still answers a REQUEST_CONFIG (and earns a
                // fresh one with its refusal).
                if error.keyword() == Some(Keyword::SetConfig)
                    && let Some(questions) = self.seats[seat].questions()
                {
                    questions.answer_config();
                }
                self.reject(seat, error.mistake(), error.to_string());
            }
            Ok(ClientCommand::Handshake { .. }) => {
                let reason = format!(
                    "You are already {} in game {}: HANDSHAKE is accepted only when you are not in a game",
                    self.name(seat),
                    self.id
                );
                self.reject(seat, Mistake::SecondHandshake, reason);
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
            }) => self.play(seat, Keyword::Move, game_id, &player, index),
            Ok(ClientCommand::Pass { game_id, player }) => {
                self.play(seat, Keyword::Pass, game_id, &player, -1);
            }
            Ok(ClientCommand::SetRematch { rematch }) => self.answer_rematch(seat, rematch),
            Ok(ClientCommand::Exit { game_id, player }) => self.exit(seat, game_id, &player),
        }
    }

    /// UNKNOWN_COMMAND, and a fresh REQUEST_CONFIG if the leader still owes one; the
    /// line is a `mistake` on the client's card.
    fn reject(&self, seat: usize, mistake: Mistake, reason: String) {
        self.refuse(seat, mistake, &ServerMessage::UnknownCommand { reason });
    }

    /// INVALID_MOVE, and a fresh REQUEST_CONFIG if the leader still owes one; the line
    /// is a `mistake` on the client's card.
    fn refuse_move(&self, seat: usize, mistake: Mistake, reason: String) {
        self.refuse(seat, mistake, &ServerMessage::InvalidMove { reason });
    }

    fn refuse(&self, seat: usize, mistake: Mistake, answer: &ServerMessage) {
        match (self.conn(seat), &self.answering) {
            (Some(conn), Some(line)) => {
                let max_bytes = self.context.settings.lines.max_line_bytes;
                let line = card::offending(line, max_bytes);
                card::refuse(conn, Front::Go, mistake, line, answer);
            }
            _ => self.send(seat, answer),
        }
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
            Progress::Finished
        } else {
            Progress::Playing
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
