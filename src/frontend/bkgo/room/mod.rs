//! The room: one shared board per server, advanced by one loop thread (`bkgo-room`)
//! around a `select!` over its inbox and the shutdown signal.
//!
//! Connection threads send it typed events ([`RoomEvent`]); the console sends it
//! queries. It owns the room's state (the members and seats, the game, the room's
//! name) with no lock around it, and it sends every line a member receives once it
//! has joined: so every member sees every broadcast, in the one order in which the
//! room handled its events. Sending never blocks (each connection's outbox is
//! bounded and non-blocking): a member that stops reading is dropped by the net layer
//! and leaves like any other, it never slows the room.
//!
//! A member is a client, or the practice bot ([`Occupant`]): GoBot takes a free seat
//! opposite a player left alone (`--bkgo-bot-after`, the console's `bot bkgo`) and
//! thinks on a helper thread of its own, whose answers are one more arm of the loop's
//! `select!`; it has no connection, and its moves go through the same steps as a
//! client's accepted `Place` and `Pass`.
//!
//! This file holds the loop, the state, the arrivals and the departures; the
//! submodules add methods to `Room`:
//! - `members`: who sits where (pure bookkeeping);
//! - `play`: `Place`, `Pass`, `NewBoard`, `SendingBoard`, `SetName`, the end of a game
//!   and its record;
//! - `bot`: the practice bot: its arrival, its questions and moves, its leaving;
//! - `view`: what `status` and the console see, and the roster and board lines.

mod bot;
mod members;
mod play;
mod view;

use super::event::{QUIT, RoomEvent};
use super::protocol::{ClientMessage, ParseError, PlayerId, Refusal, ServerMessage};
use super::summary::RoomSummary;
use crate::cards::{Cards, Mistake};
use crate::engine::go::{Colour, Game};
use crate::front::Front;
use crate::frontend::Counters;
use crate::frontend::thinker::{Thinker, Turn};
use crate::frontend::{Departure, card};
use crate::live::{GoRecord, Live};
use crate::net::{Brake, CloseReason, ConnId, Connection, Incoming, Ticket};
use crate::records;
use crate::results::Results;
use crate::settings::Settings;
use crate::shutdown::Shutdown;
use crossbeam_channel::{Receiver, select};
use members::Members;
use parking_lot::Mutex;
use std::collections::VecDeque;
use std::io;
use std::panic::{self, AssertUnwindSafe};
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant, SystemTime};

/// What the room loop is started with.
pub struct RoomParts {
    /// Read-only settings (rules, records, the room's size).
    pub settings: Arc<Settings>,
    /// An empty game of the room's size: every `NewBoard` starts a copy of it.
    pub empty: Game,
    /// The server's shutdown: the room finishes when it fires.
    pub shutdown: Shutdown,
    /// Where the room publishes its summary for the console.
    pub summary: Arc<Mutex<RoomSummary>>,
    /// Counters for the console's `stats`.
    pub counters: Arc<Counters>,
    /// Where finished games' records go (`--records`), on a thread of their own.
    pub records: Option<records::Writer>,
    /// Where the room publishes itself for the web board.
    pub live: Arc<Live>,
    /// Where finished games are recorded, before the room hears the end.
    pub results: Arc<Results>,
    /// Every client's report card.
    pub cards: Arc<Cards>,
}

/// Starts the room loop on its own thread, named `bkgo-room`.
///
/// # Errors
///
/// When the thread cannot be created.
pub fn spawn(parts: RoomParts, events: Receiver<RoomEvent>) -> io::Result<JoinHandle<()>> {
    thread::Builder::new()
        .name("bkgo-room".into())
        .spawn(move || run(parts, &events))
}

/// Runs the room until the shutdown. A panic inside (a bug: none is reachable from
/// the network) closes that room's members and starts an empty room on the same
/// inbox: the server goes on.
fn run(parts: RoomParts, events: &Receiver<RoomEvent>) {
    let shutdown = parts.shutdown.signal();
    let mut room = Room::new(parts);
    loop {
        let outcome = panic::catch_unwind(AssertUnwindSafe(|| room.serve(events, &shutdown)));
        if outcome.is_ok() {
            return;
        }
        log::error!("bkgo room: internal error, the room starts again empty");
        for conn in room.members.iter().filter_map(|m| m.conn.client()) {
            let _ = conn.send(&ServerMessage::Dialog(
                "Internal server error: the room was closed, join again".into(),
            ));
            let _ = conn.send(&ServerMessage::RejectedFatal);
            conn.close(CloseReason::Because("internal error in the room".into()));
        }
        // The practice bot's thread ends with the old room.
        room = room.fresh();
    }
}

/// Who a member is: a client on its connection, or the server's practice bot (GoBot),
/// which has no connection and thinks on its helper thread.
enum Occupant {
    /// A client: the room sends it every line.
    Client(Arc<Connection>),
    /// The practice bot: it is sent nothing, and its moves come from its thread.
    Bot(Thinker),
}

impl Occupant {
    /// The client's connection; none for the bot.
    fn client(&self) -> Option<&Arc<Connection>> {
        match self {
            Occupant::Client(conn) => Some(conn),
            Occupant::Bot(_) => None,
        }
    }

    /// The bot's helper thread; none for a client.
    fn thinker(&self) -> Option<&Thinker> {
        match self {
            Occupant::Client(_) => None,
            Occupant::Bot(thinker) => Some(thinker),
        }
    }
}

/// What the web board last got of the room: the game's number, its moves, whether it
/// ended, how many members, who holds each seat. Chat changes none of it.
type Published = (u32, usize, bool, usize, Option<PlayerId>, Option<PlayerId>);

/// The result of a game that has ended.
#[derive(Clone, Debug)]
struct Ending {
    /// What the room was told (`Dialog:`).
    text: String,
    /// The SGF `RE` value: `B+3`, `W+0.5`, `0`.
    code: String,
    /// When.
    at: SystemTime,
}

/// How long the room waits for a finished game's result to reach the disk before it
/// tells the room anyway (and logs that the result may not be on disk): within the
/// wait of the senders whose lines wait for it (`net::handoff::ANSWER_WAIT`).
const RESULT_WAIT: Duration = Duration::from_secs(10);

/// A game's end waiting for its result to be on disk (`--results`: ARENA.md, the result
/// is synced before the players hear the end). The room does not wait: it goes on
/// answering chat and queries, and the events that could come after the end wait here,
/// in order, their senders with them (each line's ticket is held, as by the brake). At
/// most one event per connection waits (its one line in flight, or its departure).
struct PendingEnd {
    /// The end, to be told.
    ending: Ending,
    /// Disconnected by the thread that records the result, once it is on disk.
    synced: Receiver<()>,
    /// When the room tells the end anyway.
    deadline: Instant,
    /// What came meanwhile that must come after the end.
    deferred: VecDeque<RoomEvent>,
}

/// The room's state, owned by its loop.
struct Room {
    settings: Arc<Settings>,
    /// A fresh game of the room's size.
    empty: Game,
    shutdown: Shutdown,
    summary: Arc<Mutex<RoomSummary>>,
    counters: Arc<Counters>,
    /// Context with the room that replaces this one after a panic.
    records: Option<Arc<records::Writer>>,
    members: Members<Occupant>,
    /// The tickets of lines answered while a member is behind on its output.
    brake: Brake,
    live: Arc<Live>,
    results: Arc<Results>,
    cards: Arc<Cards>,
    /// The line being answered, while a member's line is handled (its card's example
    /// if it is refused).
    answering: Option<Incoming>,
    /// When the player to move was told it was its turn (the last move, the start of
    /// the game, or it sat down): its card's move times.
    turn_began: Instant,
    /// When the room last became playing (both seats taken, a game not over), for the
    /// web board's order, and the status the web board last got.
    playing_since: Option<SystemTime>,
    web_status: Option<crate::live::Status>,
    /// What the web board last got (see `view`).
    published: Option<Published>,
    /// The shared board.
    game: Game,
    /// Its record for the web (the moves as they are played).
    web_record: Arc<GoRecord>,
    /// `Place`s and `Pass`es accepted in this game: `SendingBoard` is accepted while
    /// there are none.
    played_here: usize,
    /// The game's number since the server started (in record file names).
    number: u32,
    /// When the game started (the record's date).
    started: SystemTime,
    /// The room's name (`SetName:`).
    name: Option<String>,
    /// How the game ended, once it has (and the room has been told).
    ending: Option<Ending>,
    /// A game's end that waits for its result to be on disk.
    pending_end: Option<PendingEnd>,
    /// Since when the player to move has been waited for, and the game and move then.
    turn_since: (SystemTime, (u32, usize)),
    /// When the practice bot takes the free seat, while a player sits alone (see
    /// `--bkgo-bot-after`).
    bot_due: Option<Instant>,
    /// The position the bot was last asked about, so it is asked once per turn.
    bot_asked: Option<Turn>,
    /// How many times the bot has sat down: each time its random choices come from
    /// the next seed (`--seed`).
    bots_seated: u64,
}

impl Room {
    fn new(parts: RoomParts) -> Room {
        Room::with_records(parts, None)
    }

    /// An empty room whose records go to `records` (else to the parts' writer).
    fn with_records(parts: RoomParts, records: Option<Arc<records::Writer>>) -> Room {
        let started = SystemTime::now();
        Room {
            web_record: GoRecord::start(
                &parts.empty,
                started,
                moves_allowed(&parts.settings, &parts.empty),
            ),
            game: parts.empty.clone(),
            settings: parts.settings,
            empty: parts.empty,
            shutdown: parts.shutdown,
            summary: parts.summary,
            counters: parts.counters,
            records: records.or_else(|| parts.records.map(Arc::new)),
            members: Members::new(),
            brake: Brake::default(),
            live: parts.live,
            results: parts.results,
            cards: parts.cards,
            answering: None,
            turn_began: Instant::now(),
            playing_since: None,
            web_status: None,
            published: None,
            played_here: 0,
            number: 1,
            started,
            name: None,
            ending: None,
            pending_end: None,
            turn_since: (started, (1, 0)),
            bot_due: None,
            bot_asked: None,
            bots_seated: 0,
        }
    }

    /// An empty room with the same parts, after a panic.
    fn fresh(&self) -> Room {
        let parts = RoomParts {
            settings: Arc::clone(&self.settings),
            empty: self.empty.clone(),
            shutdown: self.shutdown.clone(),
            summary: Arc::clone(&self.summary),
            counters: Arc::clone(&self.counters),
            records: None,
            live: Arc::clone(&self.live),
            results: Arc::clone(&self.results),
            cards: Arc::clone(&self.cards),
        };
        Room::with_records(parts, self.records.clone())
    }

    /// The loop: one event, bot answer or timer at a time, until the shutdown.
    fn serve(&mut self, events: &Receiver<RoomEvent>, shutdown: &Receiver<()>) {
        self.publish();
        loop {
            let bot_due = self
                .bot_due
                .map_or_else(crossbeam_channel::never, crossbeam_channel::at);
            let bot_answers = self.bot_answers();
            select! {
                recv(events) -> event => match event {
                    Ok(event) => self.handle(event),
                    // The front end is gone: nobody can reach the room any more.
                    Err(_) => return,
                },
                recv(shutdown) -> _ => {
                    self.shut_down();
                    return;
                }
                recv(self.brake.timer()) -> _ => {
                    let clients = self.members.iter().filter_map(|m| m.conn.client());
                    self.brake.recheck(clients.map(AsRef::as_ref));
                }
                recv(self.result_synced()) -> _ => self.tell_pending_end(),
                recv(self.result_deadline()) -> _ => {
                    log::error!(
                        "bkgo room: game {}: its result was not on disk within {} s; the room is told the end anyway",
                        self.number,
                        RESULT_WAIT.as_secs()
                    );
                    self.tell_pending_end();
                }
                recv(bot_due) -> _ => self.on_bot_due(),
                recv(bot_answers) -> answer => match answer {
                    Ok(answer) => self.on_bot_answer(answer),
                    Err(_) => self.on_bot_stopped(),
                },
            }
            self.tend_bot();
            self.publish();
        }
    }

    /// Ready (disconnected) once the pending end's result is on disk; never without one.
    fn result_synced(&self) -> Receiver<()> {
        self.pending_end
            .as_ref()
            .map_or_else(crossbeam_channel::never, |p| p.synced.clone())
    }

    /// Fires at the pending end's deadline; never without one.
    fn result_deadline(&self) -> Receiver<Instant> {
        self.pending_end
            .as_ref()
            .map_or_else(crossbeam_channel::never, |p| {
                crossbeam_channel::at(p.deadline)
            })
    }

    /// Tells the room the end that waited for its result (the bot then leaves), then
    /// handles what waited for it, in order.
    fn tell_pending_end(&mut self) {
        let Some(pending) = self.pending_end.take() else {
            return;
        };
        self.conclude(pending.ending);
        for event in pending.deferred {
            self.handle(event);
        }
    }

    fn handle(&mut self, event: RoomEvent) {
        if let Some(pending) = &mut self.pending_end
            && comes_after_the_end(&event)
        {
            pending.deferred.push_back(event);
            return;
        }
        match event {
            // Each line's ticket goes to the brake once its line is answered: the
            // sender's thread reads its next line then, or once every member has
            // caught up with what the room has sent.
            RoomEvent::Join { conn, name, ticket } => {
                self.join(conn, &name);
                self.answered(ticket);
            }
            RoomEvent::Line {
                from,
                line,
                message,
                ticket,
            } => {
                self.answering = Some(line);
                match message {
                    Ok(message) => self.message(from, message),
                    Err(error) => self.garbage(from, &error),
                }
                self.answering = None;
                self.answered(ticket);
            }
            RoomEvent::Board { from, game, ticket } => {
                self.answering = Some(Incoming::Line("SendingBoard".into()));
                self.load(from, game);
                self.answering = None;
                self.answered(ticket);
            }
            RoomEvent::Left { from, how } => self.depart(from, &how),
            RoomEvent::Kick(conn) => self.kick(&conn),
            RoomEvent::KickSeated(reply) => {
                let _ = reply.send(self.kick_seated());
            }
            RoomEvent::SeatBot(level, reply) => {
                let _ = reply.send(self.seat_bot(level, "seated by the operator"));
            }
            RoomEvent::Status(reply) => {
                let _ = reply.send(self.status());
            }
            RoomEvent::Inspect(reply) => {
                let _ = reply.send(self.view());
            }
        }
    }

    /// A line has been answered: its ticket goes, unless a member is behind on what
    /// the room sent it (then the sender waits, see `net::handoff::Brake`).
    fn answered(&mut self, ticket: Ticket) {
        let clients = self.members.iter().filter_map(|m| m.conn.client());
        self.brake.answered(ticket, clients.map(AsRef::as_ref));
    }

    /// A message from member `from` (parsed in the room's state).
    fn message(&mut self, from: ConnId, message: ClientMessage) {
        let Some(member) = self.members.by_conn(from) else {
            // Sent before it was removed (garbage, kick): nobody to answer.
            return;
        };
        let Some(conn) = member.conn.client().map(Arc::clone) else {
            return;
        };
        let (id, name) = (member.id, member.name.clone());
        match message {
            ClientMessage::Place { x, y } => self.place(&conn, id, x, y),
            ClientMessage::Pass => self.pass(&conn, id),
            ClientMessage::Message(text) => {
                conn.accepted();
                self.broadcast(&[ServerMessage::Message { from: name, text }]);
            }
            ClientMessage::NewBoard => self.new_board(&conn, id),
            ClientMessage::SetName(text) => self.set_name(&conn, id, text),
            ClientMessage::Quitting(given) => self.quit(&conn, id, given),
            // Never sent here: the connection thread reads an SGF stream itself and
            // sends it as a Board event; the others are parsed before joining.
            ClientMessage::SendingBoard
            | ClientMessage::Version(_)
            | ClientMessage::Join
            | ClientMessage::Status
            | ClientMessage::Shutdown
            | ClientMessage::Password(_)
            | ClientMessage::Player(_) => {}
        }
    }

    // ----- arrivals and departures -----

    /// A client enters: it gets its ID, the player list, the seats and the board;
    /// the others hear of it, and of the seat it took.
    fn join(&mut self, conn: Arc<Connection>, wanted: &str) {
        if self.members.by_conn(conn.id).is_some() {
            return;
        }
        let (member, seat) =
            self.members
                .join(Some(conn.id), wanted, Occupant::Client(Arc::clone(&conn)));
        let (id, name) = (member.id, member.name.clone());
        conn.set_name(&name);
        conn.accepted();
        card::named(&self.cards, &conn, Front::Bkgo, &name);
        if let Some(colour) = seat {
            self.seat_taken(colour);
        }
        let role = seat.map_or("watching".to_string(), |c| format!("playing {c}"));
        log::info!(
            "bkgo room: {} joined as {name} (ID {id}), {role}",
            conn.peer
        );
        let mut lines = vec![ServerMessage::Id(id)];
        lines.extend(self.roster_and_board());
        send_all(&conn, &lines);
        let mut news = vec![
            ServerMessage::AnnouncePlayer(name.clone()),
            ServerMessage::AddPlayer(name.clone()),
        ];
        if let Some(colour) = seat {
            news.push(ServerMessage::Seat {
                colour,
                player: Some(name),
            });
        }
        self.broadcast_except(conn.id, &news);
    }

    /// Removes the member on `conn_id`, if it is one: the others get `GoodbyePlayer:`
    /// and the seat line of a seat that changed hands or became empty.
    fn remove(&mut self, conn_id: ConnId) -> Option<String> {
        let id = self.members.by_conn(conn_id)?.id;
        self.remove_member(id)
    }

    /// Removes member `id` (a client, or the bot), as [`Room::remove`] does.
    fn remove_member(&mut self, id: PlayerId) -> Option<String> {
        // A seated client that goes in the middle of a game (however it goes) has left
        // a game, on its card.
        if self.members.seat_of(id).is_some() && self.game_in_play() {
            let card = self
                .members
                .iter()
                .find(|m| m.id == id)
                .and_then(|m| m.conn.client())
                .and_then(|conn| card::of(conn));
            if let Some(card) = card {
                card.left_a_game();
            }
        }
        let (member, change) = self.members.leave(id)?;
        let mut news = vec![ServerMessage::GoodbyePlayer(member.name.clone())];
        if let Some(change) = change {
            if change.holder.is_some() {
                self.seat_taken(change.colour);
            }
            news.push(ServerMessage::Seat {
                colour: change.colour,
                player: change.holder,
            });
        }
        self.broadcast(&news);
        Some(member.name)
    }

    /// Someone sat in the `colour` seat: if it is that colour's turn, it was told so
    /// just now (its card's move time starts). The other player's clock goes on.
    fn seat_taken(&mut self, colour: Colour) {
        if self.game.to_move() == colour {
            self.turn_began = Instant::now();
        }
    }

    /// A member's connection ended (it closed it, or the server did).
    fn depart(&mut self, from: ConnId, how: &Departure) {
        if let Some(name) = self.remove(from) {
            log::info!("bkgo room: {}", how.describe(&name));
        }
    }

    /// `Quitting:` with the member's own ID removes it and closes its connection.
    fn quit(&mut self, conn: &Arc<Connection>, id: PlayerId, given: PlayerId) {
        if given != id {
            self.refuse(conn, &Refusal::NotYourId { given, yours: id });
            return;
        }
        conn.accepted();
        if let Some(name) = self.remove(conn.id) {
            log::info!("bkgo room: {name} quit");
        }
        conn.close(QUIT);
    }

    /// Garbage from a member: it is told why, then dropped.
    fn garbage(&mut self, from: ConnId, error: &ParseError) {
        let Some(conn) = self
            .members
            .by_conn(from)
            .and_then(|m| m.conn.client())
            .map(Arc::clone)
        else {
            return;
        };
        let dialog = ServerMessage::Dialog(error.to_string());
        self.count_mistake(&conn, error.mistake(), &dialog);
        send_all(&conn, &[dialog.clone(), ServerMessage::RejectedFatal]);
        conn.close(CloseReason::Because(format!("it sent garbage: {error}")));
        if let Some(name) = self.remove(from) {
            log::info!("bkgo room: {name} was dropped for garbage: {error}");
        }
    }

    /// The operator kicks a client: a member is told, removed, then closed.
    fn kick(&mut self, conn: &Arc<Connection>) {
        if self.members.by_conn(conn.id).is_some() {
            send_all(
                conn,
                &[
                    ServerMessage::Dialog("You were kicked out of the room by the operator".into()),
                    ServerMessage::RejectedFatal,
                ],
            );
            self.remove(conn.id);
        }
        conn.close(CloseReason::Kicked);
    }

    /// The operator kicks both seated players (black first), the practice bot too;
    /// their seats go to the longest-waiting watchers. Returns their names.
    fn kick_seated(&mut self) -> Vec<String> {
        let seated: Vec<(PlayerId, String, Option<Arc<Connection>>)> = self
            .members
            .seated()
            .map(|(_, m)| (m.id, m.name.clone(), m.conn.client().map(Arc::clone)))
            .collect();
        for (id, name, conn) in &seated {
            match conn {
                Some(conn) => {
                    log::info!("bkgo room: operator kicked {name}");
                    self.kick(conn);
                }
                None => self.bot_leaves(*id, "the operator kicked it"),
            }
        }
        seated.into_iter().map(|(_, name, _)| name).collect()
    }

    /// The server shuts down: an end still waiting for the disk is told (its result is
    /// written on), a game in progress is recorded, then every member is told (the
    /// front end closes the connections).
    fn shut_down(&mut self) {
        if let Some(pending) = self.pending_end.take() {
            self.tell_end(pending.ending);
        }
        let in_progress =
            !self.game.is_over() && (!self.game.moves().is_empty() || self.game.setup().is_some());
        if in_progress {
            self.record("Void");
        }
        self.broadcast(&[
            ServerMessage::Dialog("The server is shutting down: the room is closed".into()),
            ServerMessage::RejectedFatal,
        ]);
        log::info!("bkgo room: closed");
    }

    // ----- sending -----

    /// Sends `messages` to every member, each line formatted once.
    fn broadcast(&self, messages: &[ServerMessage]) {
        self.broadcast_to(messages, |_| true);
    }

    /// Sends `messages` to every member but the one on `except`.
    fn broadcast_except(&self, except: ConnId, messages: &[ServerMessage]) {
        self.broadcast_to(messages, |conn| conn != except);
    }

    fn broadcast_to(&self, messages: &[ServerMessage], to: impl Fn(ConnId) -> bool) {
        let lines: Vec<String> = messages.iter().map(ToString::to_string).collect();
        let clients = self.members.iter().filter_map(|m| m.conn.client());
        for conn in clients.filter(|conn| to(conn.id)) {
            for line in &lines {
                // A closed connection is reported by its reader thread as a Left event.
                let _ = conn.send_line(line, false);
            }
        }
    }

    /// Refuses a member's message without dropping it; the line is a mistake on its
    /// card.
    fn refuse(&self, conn: &Connection, refusal: &Refusal) {
        let dialog = ServerMessage::Dialog(refusal.to_string());
        // On the card before the client hears it (see `card::refuse`).
        self.count_mistake(conn, refusal.mistake(), &dialog);
        send_all(conn, &[dialog.clone(), ServerMessage::RejectedNonFatal]);
    }

    /// The line being answered, a mistake of `kind` answered with `dialog`.
    fn count_mistake(&self, conn: &Connection, kind: Mistake, dialog: &ServerMessage) {
        let Some(line) = &self.answering else { return };
        let max_bytes = self.settings.lines.max_line_bytes;
        card::mistake(
            conn,
            Front::Bkgo,
            kind,
            card::offending(line, max_bytes),
            &dialog.to_string(),
        );
    }

    /// Whether a game is being played on the board (not over, a move or a loaded
    /// position on it): leaving now is leaving a game.
    fn game_in_play(&self) -> bool {
        !self.game.is_over() && (self.played_here > 0 || self.game.setup().is_some())
    }

    fn count_move(&self) {
        self.counters.moves.fetch_add(1, Ordering::Relaxed);
    }
}

/// The most moves a game of the room may have: the move limit of its board.
fn moves_allowed(settings: &Settings, game: &Game) -> usize {
    settings
        .moves_per_point
        .saturating_mul(game.size() * game.size())
}

/// Whether `event` must wait for a game's end to be told: everything but chat, which
/// changes nothing of the game, and the questions of `status` and the console.
fn comes_after_the_end(event: &RoomEvent) -> bool {
    !matches!(
        event,
        RoomEvent::Line {
            message: Ok(ClientMessage::Message(_)),
            ..
        } | RoomEvent::Status(_)
            | RoomEvent::Inspect(_)
    )
}

/// Sends `messages` to one client, in order.
fn send_all(conn: &Connection, messages: &[ServerMessage]) {
    for message in messages {
        // A closed connection is reported by its reader thread as a Left event.
        let _ = conn.send(message);
    }
}

/// `"Ann (black)"`, or `"black"` when the seat is free.
fn label(name: Option<&str>, colour: Colour) -> String {
    match name {
        Some(name) => format!("{name} ({colour})"),
        None => colour.to_string(),
    }
}
