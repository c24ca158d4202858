//! One Spectrangle table: a lobby, then the game it becomes, driven by a `select!` over
//! the table's inbox, the shutdown signal and the game's one clock (the move timeout).
//!
//! The registry decides who joins, leaves and when the game starts; the table sends
//! every line about it (`LOBBY`, `START`, `TILE`, `UPDATE`, `SCORE`, chat) in the order
//! of its inbox, and owns the game alone (no lock around it).
//!
//! This file holds the loop, the state and the lobby phase; the rest is in:
//! - `playing`: the deal, moves, the move clock;
//! - `ending`: SCORE, the record, how a game ends;
//! - `view`: what the console sees.

mod bot;
mod ending;
mod playing;
mod seat;
mod view;

use super::event::{BotRefused, TableEvent};
use super::protocol::{Command, ServerMessage};
use super::summary::{TableId, TableSummary};
use crate::engine::rng::Rng;
use crate::engine::spectrangle::Game;
use crate::frontend::{Context, Departure, card, deadline_in};
use crate::net::{Brake, ConnId, Connection, Incoming, Ticket};
use crate::results::Ending;
use crate::workers::Finished;
use crossbeam_channel::{Receiver, at, never, select};
use parking_lot::Mutex;
use seat::Seat;
use std::collections::HashSet;
use std::io;
use std::panic::{self, AssertUnwindSafe};
use std::sync::Arc;
use std::time::{Instant, SystemTime};

/// What a table asks of the registry. The registry implements it; a table knows the
/// registry only through this trait.
pub trait Registrar: Send + Sync {
    /// The game is over: its players sit nowhere and their names are free, so they may
    /// JOIN again the moment they read SCORE. Returns the connections that sat there.
    fn close_game(&self, game: TableId) -> Vec<Arc<Connection>>;

    /// Handles a move that reached the table after its game ended, where its client
    /// is now; the ticket goes with it.
    fn redispatch(&self, from: &Arc<Connection>, line: Incoming, command: Command, ticket: Ticket);

    /// Seats the practice bot in lobby `table`, ready: the registry sends the table
    /// [`TableEvent::SeatBot`] (and the start, if everyone is ready). Returns its name.
    ///
    /// # Errors
    ///
    /// Why not (see [`BotRefused`]).
    fn seat_bot(&self, table: TableId) -> Result<String, BotRefused>;
}

/// Starts the loop of table `id` on a thread of its own (from `context.game_threads`).
///
/// # Errors
///
/// When no thread can be had.
pub fn spawn(
    id: TableId,
    registrar: Arc<dyn Registrar>,
    context: Context,
    events: Receiver<TableEvent>,
    summary: Arc<Mutex<TableSummary>>,
) -> io::Result<Finished> {
    let threads = Arc::clone(&context.game_threads);
    threads.run(move || run(id, &registrar, context, &events, summary))
}

/// Runs table `id` until its lobby empties or its game is over, then answers what is
/// left in its inbox. A panic inside ends this table only: a game in play is filed
/// among the results as `error`, and its players are told.
fn run(
    id: TableId,
    registrar: &Arc<dyn Registrar>,
    context: Context,
    events: &Receiver<TableEvent>,
    summary: Arc<Mutex<TableSummary>>,
) {
    let mut table = Table::new(id, Arc::clone(registrar), context, summary);
    let outcome = panic::catch_unwind(AssertUnwindSafe(|| table.serve(events)));
    if outcome.is_err() {
        log::error!("spectrangle table {id}: internal error, table stopped");
        // The table's state may be half-changed by the panic: ending the game from it
        // is tried once; whoever it did not free is told below.
        if panic::catch_unwind(AssertUnwindSafe(|| table.stop_after_internal_error())).is_err() {
            log::error!("spectrangle table {id}: its game could not be ended and filed either");
        }
    }
    drop(table);
    let players = registrar.close_game(id);
    if outcome.is_err() {
        let message = ServerMessage::error(
            super::protocol::ErrorCode::Generic,
            "Internal server error: your game was stopped; JOIN to play again",
        );
        for conn in players {
            let _ = conn.send(&message);
        }
    }
    // The registry no longer routes to this table (it puts events in under its lock,
    // only for tables it lists); moves already queued get an answer.
    while let Ok(event) = events.try_recv() {
        // Every other event (and its ticket: the line is answered) is dropped here.
        if let TableEvent::Move {
            from,
            line,
            command,
            ticket,
        } = event
        {
            registrar.redispatch(&from, line, command, ticket);
        }
    }
}

/// Where the table is in its life.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// Players gather and say READY.
    Lobby,
    /// The game is played.
    Playing,
    /// Done: the loop stops.
    Over,
}

/// The state of one table, owned by its loop.
struct Table {
    id: TableId,
    registrar: Arc<dyn Registrar>,
    context: Context,
    summary: Arc<Mutex<TableSummary>>,
    /// In join order in the lobby, in turn order once the game starts: player `i` of
    /// the game is `seats[i]`.
    seats: Vec<Seat>,
    /// Members that said READY (for the console; the registry decides the start).
    ready: HashSet<ConnId>,
    phase: Phase,
    /// The rules engine's game, once started.
    game: Option<Game>,
    /// This table's random numbers: the turn order and the bag.
    rng: Rng,
    /// The move clock of the player to move.
    deadline: Option<Instant>,
    /// Turns in a row each player let the clock run out.
    timeouts: Vec<u32>,
    /// The game's protocol lines so far: its record.
    record: Vec<String>,
    /// The tickets of lines answered while a member is behind on its output.
    brake: Brake,
    /// When the practice bot joins a lone player who is ready (`--spectrangle-bot-after`).
    bot_due: Option<Instant>,
    /// What the web board last got: phase, members, ready, moves (see `view`).
    published: Option<(Phase, usize, usize, usize)>,
    /// Since when the player to move has been waited for, and the turns taken then.
    turn_since: (std::time::SystemTime, usize),
    /// When the player to move was told it was its turn (its card's move times).
    turn_began: Instant,
    /// When the game started (START) and ended, and its SCORE line without the
    /// keyword, for the web board.
    started_at: Option<SystemTime>,
    ended_at: Option<SystemTime>,
    score_line: Option<String>,
}

impl Table {
    fn new(
        id: TableId,
        registrar: Arc<dyn Registrar>,
        context: Context,
        summary: Arc<Mutex<TableSummary>>,
    ) -> Table {
        let rng = context.settings.game_rng("spectrangle", u64::from(id.0));
        Table {
            id,
            registrar,
            context,
            summary,
            seats: Vec::new(),
            ready: HashSet::new(),
            phase: Phase::Lobby,
            game: None,
            rng,
            deadline: None,
            timeouts: Vec::new(),
            record: Vec::new(),
            brake: Brake::default(),
            bot_due: None,
            published: None,
            turn_since: (std::time::SystemTime::now(), 0),
            turn_began: Instant::now(),
            started_at: None,
            ended_at: None,
            score_line: None,
        }
    }

    /// The loop: one event, timer or shutdown at a time, until the table is done.
    fn serve(&mut self, events: &Receiver<TableEvent>) {
        let shutdown = self.context.shutdown.signal_for(u64::from(self.id.0));
        while self.phase != Phase::Over {
            let timer = self.deadline.map(at).unwrap_or_else(never);
            let bot_timer = self.bot_due.map(at).unwrap_or_else(never);
            select! {
                recv(events) -> event => match event {
                    Ok(event) => self.handle(event),
                    // The registry dropped the inbox: the lobby emptied.
                    Err(_) => self.phase = Phase::Over,
                },
                recv(shutdown) -> _ => self.shut_down(),
                recv(timer) -> _ => self.on_deadline(),
                recv(self.brake.timer()) -> _ => {
                    self.brake.recheck(self.seats.iter().filter_map(|s| s.conn()).map(Arc::as_ref));
                }
                recv(bot_timer) -> _ => self.on_bot_due(),
            }
            self.play_bots();
            self.watch_for_a_lone_player();
            self.publish();
        }
    }

    fn handle(&mut self, event: TableEvent) {
        match event {
            // Each line's ticket goes to the brake once its line is answered: the
            // sender's thread reads its next line then, or once every member has
            // caught up with what the table has sent (see `net::handoff::Brake`).
            TableEvent::Joined { member, ticket } => {
                log::info!("spectrangle {}: {} joined", self.id, member.name);
                self.seats.push(Seat::client(member));
                self.announce_lobby();
                self.answered(ticket);
            }
            TableEvent::SeatBot(name) => self.seat_bot(name),
            #[cfg(test)]
            TableEvent::Panic => panic!("a bug in table {}", self.id),
            TableEvent::Ready(conn) => {
                self.ready.insert(conn);
            }
            TableEvent::Left { conn, how } => self.left(conn, &how),
            TableEvent::Start => self.start(),
            TableEvent::Move {
                from,
                line,
                command,
                ticket,
            } => {
                self.play(&from, &line, command);
                self.answered(ticket);
            }
            TableEvent::Chat { from, text, ticket } => {
                self.chat(from, text);
                self.answered(ticket);
            }
            TableEvent::Inspect(reply) => {
                let _ = reply.send(self.view());
            }
            TableEvent::Reached(ticket) => self.answered(ticket),
        }
    }

    /// A line has been answered: its ticket goes, unless a member is behind on what
    /// the table sent it (then the sender waits).
    fn answered(&mut self, ticket: Ticket) {
        self.brake.answered(
            ticket,
            self.seats.iter().filter_map(|s| s.conn()).map(Arc::as_ref),
        );
    }

    /// `LOBBY <names>` to everyone in the lobby.
    fn announce_lobby(&self) {
        let players = self.seats.iter().map(|s| s.name.to_string()).collect();
        self.broadcast(&ServerMessage::Lobby { players });
    }

    /// A member left: in the lobby the others hear `LOBBY`; in a game, the game ends.
    fn left(&mut self, conn: ConnId, how: &Departure) {
        let Some(index) = self.seats.iter().position(|s| s.is(conn)) else {
            return;
        };
        let what = how.describe(self.seats[index].name.as_str());
        log::info!("spectrangle {}: {what}", self.id);
        match self.phase {
            Phase::Lobby => {
                self.seats.remove(index);
                self.ready.remove(&conn);
                if !self.seats.is_empty() {
                    self.announce_lobby();
                }
            }
            Phase::Playing => {
                if let Some(card) = self.seats[index].conn().and_then(|c| card::of(c)) {
                    card.left_a_game();
                }
                self.end(&what, how.ending(), Some(conn));
            }
            Phase::Over => {}
        }
    }

    /// `CHAT_MESSAGE` to every member with chat enabled.
    fn chat(&self, from: ConnId, text: String) {
        let Some(sender) = self.seats.iter().find(|s| s.is(from)) else {
            return;
        };
        let line = ServerMessage::ChatMessage {
            player: sender.name.to_string(),
            text,
        }
        .to_string();
        for seat in self.seats.iter().filter(|s| s.takes_chat()) {
            if let Some(conn) = seat.conn() {
                let _ = conn.send_line(&line, false);
            }
        }
    }

    /// Sends `message` to every member, formatting it once; returns the line.
    fn broadcast(&self, message: &ServerMessage) -> String {
        let line = message.to_string();
        // The bot reads no lines. A closed connection is reported by its reader thread
        // as a departure.
        for conn in self.seats.iter().filter_map(Seat::conn) {
            let _ = conn.send_line(&line, false);
        }
        line
    }

    /// Sends a game event to every member and keeps it for the record.
    fn announce(&mut self, message: &ServerMessage) {
        let line = self.broadcast(message);
        self.record.push(line);
    }

    fn shut_down(&mut self) {
        match self.phase {
            Phase::Playing => self.end("server shutting down", Ending::Shutdown, None),
            Phase::Lobby | Phase::Over => self.phase = Phase::Over,
        }
    }
}
