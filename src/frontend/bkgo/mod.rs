//! The Bkgo 0.6 front end: one shared Go room per server, two seated players,
//! everyone else watching and chatting, every event broadcast to the whole room.
//!
//! - [`protocol`]: Bkgo lines to typed messages, typed messages to lines (pure).
//! - [`session`]: one client's connection thread: greeting, version, request, then
//!   its lines handed to the room.
//! - [`room`]: the room loop, one thread that owns the room and sends every broadcast.
//! - [`event`]: what the room loop receives.
//! - [`password`]: the remote shutdown's password check and its server-wide pace.
//! - [`upload`]: an SGF stream a client sends, bounded, read through `crate::engine::sgf`.
//! - [`summary`]: what the room publishes for the console; [`report`]: how it reads
//!   there.
//!
//! [`BkgoFrontEnd`] is what the server and the console see of it. The flow and its
//! decisions are `BKGO.md`'s; the rules engine is `crate::engine::go`, as for GO!.

pub mod event;
pub mod password;
pub mod protocol;
pub mod report;
pub mod room;
pub mod session;
pub mod summary;
pub mod upload;

use super::{BotRow, ClientRow, Context, FrontEnd, GameRow, QueueRow, Record, Tally, Unanswered};
use crate::engine::bot::Level;
use crate::engine::go::Game;
use crate::net::{CloseReason, ConnId, Connection, Depth, Inbox, Refused};
use crate::records;
use crate::shutdown::join_by;
use crossbeam_channel::Sender;
use event::RoomEvent;
use parking_lot::Mutex;
use password::PasswordGate;
use protocol::{RoomStatus, ServerMessage};
use report::ROOM_ID;
use std::collections::HashMap;
use std::io;
use std::net::{SocketAddr, TcpStream};
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::thread::JoinHandle;
use std::time::Instant;
use summary::{RoomSummary, RoomView};

/// The net layer sends anything that is a `Message`. The impl lives here, where the
/// front end joins its layers, so that `protocol` (pure) need not know `net`.
impl crate::net::Message for ServerMessage {
    fn is_rejection(&self) -> bool {
        ServerMessage::is_rejection(self)
    }
}

/// The bound of the room's inbox. Each member has at most one line in flight at a
/// time (see `net::handoff`), so the room holds at most one event per member: past
/// this many members sending at once, the others' connection threads wait their
/// turn, and TCP slows their clients down.
pub const ROOM_INBOX_BOUND: usize = 1024;

/// The Bkgo front end: the room's inbox and summary, the password gate, and every
/// connection (joined or not).
pub struct BkgoFrontEnd {
    context: Context,
    /// The room loop's inbox.
    room: Inbox<RoomEvent>,
    /// How deep the room's inbox has been.
    depth: Arc<Depth>,
    /// The room loop's thread, and the thread writing its records, joined at
    /// shutdown.
    room_thread: Mutex<Option<JoinHandle<()>>>,
    records_thread: Mutex<Option<JoinHandle<()>>>,
    /// Published by the room after each event.
    summary: Arc<Mutex<RoomSummary>>,
    gate: PasswordGate,
    /// Every open connection, to list and close them (the room knows only members).
    clients: Mutex<HashMap<ConnId, Arc<Connection>>>,
}

impl BkgoFrontEnd {
    /// The front end with its room loop started, empty.
    ///
    /// # Errors
    ///
    /// When the room's board size (`--bkgo-size`) cannot be played, or its thread
    /// cannot start.
    pub fn new(context: Context) -> io::Result<BkgoFrontEnd> {
        let settings = &context.settings;
        let empty = Game::new(settings.bkgo.size, settings.rules)
            .map_err(|e| io::Error::other(format!("--bkgo-size: {e}")))?;
        let summary = Arc::new(Mutex::new(RoomSummary::new(settings.bkgo.size)));
        let depth = Depth::new(ROOM_INBOX_BOUND);
        let (inbox, events) = crate::net::inbox(&depth, &context.shutdown);
        // The room hands its records to a writer: a slow disk must not stall it.
        let (records, records_thread) = match &settings.records {
            Some(dir) => {
                let (writer, thread) = records::Writer::start(dir.clone())?;
                (Some(writer), Some(thread))
            }
            None => (None, None),
        };
        let parts = room::RoomParts {
            settings: Arc::clone(settings),
            empty,
            shutdown: context.shutdown.clone(),
            summary: Arc::clone(&summary),
            counters: Arc::clone(&context.counters),
            records: records.map(Arc::new),
            live: Arc::clone(&context.live),
            results: Arc::clone(&context.results),
            cards: Arc::clone(&context.cards),
        };
        let thread = room::spawn(parts, events)?;
        Ok(BkgoFrontEnd {
            gate: PasswordGate::new(settings.bkgo.password.clone()),
            context,
            room: inbox,
            depth,
            room_thread: Mutex::new(Some(thread)),
            records_thread: Mutex::new(records_thread),
            summary,
            clients: Mutex::new(HashMap::new()),
        })
    }

    fn register(&self, conn: &Arc<Connection>) {
        self.clients.lock().insert(conn.id, Arc::clone(conn));
    }

    fn unregister(&self, conn: ConnId) {
        self.clients.lock().remove(&conn);
    }

    /// Asks the room a question (the reply comes on its `Sender`).
    fn ask<T>(&self, question: impl FnOnce(Sender<T>) -> RoomEvent) -> Result<T, String> {
        super::ask(&self.room, question).map_err(|e| match e {
            Unanswered::Gone => closed(),
            Unanswered::TooSlow => format!("the Bkgo room {e}"),
        })
    }

    /// The `status` line's numbers.
    ///
    /// # Errors
    ///
    /// Why the room cannot answer (closed, or too slow), one line.
    fn status(&self) -> Result<RoomStatus, String> {
        self.ask(RoomEvent::Status)
    }

    fn inspect(&self, id: &str) -> Result<RoomView, String> {
        if id != ROOM_ID {
            return Err(format!("no game {id}"));
        }
        self.ask(RoomEvent::Inspect)
    }
}

/// Why the room cannot answer.
fn closed() -> String {
    "the Bkgo room is closed: the server is shutting down".to_string()
}

impl FrontEnd for BkgoFrontEnd {
    fn name(&self) -> &'static str {
        "bkgo"
    }

    fn refusal(&self, max_clients: usize) -> String {
        [
            ServerMessage::Greeting,
            ServerMessage::Dialog(format!(
                "The server is full ({max_clients} clients connected): try again later"
            )),
            ServerMessage::RejectedFatal,
        ]
        .map(|m| m.to_string())
        .join("\n")
    }

    fn serve(&self, stream: TcpStream, peer: SocketAddr) {
        session::serve(stream, peer, self);
    }

    fn games(&self, now: Instant) -> Vec<GameRow> {
        let summary = self.summary.lock();
        if report::is_in_use(&summary) {
            vec![report::row(&summary, now)]
        } else {
            Vec::new()
        }
    }

    fn clients(&self) -> Vec<ClientRow> {
        let members = self.summary.lock().members.clone();
        let mut clients: Vec<ClientRow> = self
            .clients
            .lock()
            .values()
            .map(|conn| {
                let member = members.iter().find(|m| m.conn == Some(conn.id));
                ClientRow {
                    conn: Arc::clone(conn),
                    name: member.map(|m| m.name.clone()),
                    state: report::player_state(member.map(|m| m.role)),
                    game: member.map(|_| ROOM_ID.to_string()),
                }
            })
            .collect();
        clients.sort_by_key(|c| c.conn.id);
        clients
    }

    fn bots(&self) -> Vec<BotRow> {
        // The members without a connection: the practice bot.
        self.summary
            .lock()
            .members
            .iter()
            .filter(|m| m.conn.is_none())
            .map(|m| BotRow {
                name: m.name.clone(),
                state: report::player_state(Some(m.role)),
                game: ROOM_ID.to_string(),
            })
            .collect()
    }

    fn owns(&self, id: &str) -> bool {
        id == ROOM_ID
    }

    fn board(&self, id: &str) -> Result<String, String> {
        self.inspect(id).map(|view| report::board(&view))
    }

    fn record(&self, id: &str) -> Result<Record, String> {
        self.inspect(id).map(|view| Record {
            text: view.sgf,
            moves: view.summary.moves,
        })
    }

    fn kick(&self, conn: &Arc<Connection>) {
        // The room removes a member first (the others hear GoodbyePlayer); anyone
        // else it just closes.
        let refused = self
            .room
            .post_within(RoomEvent::Kick(Arc::clone(conn)), super::QUERY_TIMEOUT);
        if let Err(RoomEvent::Kick(conn)) = refused.map_err(Refused::into_inner) {
            conn.close(CloseReason::Kicked);
        }
    }

    fn kick_game(&self, id: &str) -> String {
        if id != ROOM_ID {
            return format!("no game {id}");
        }
        match self.ask(RoomEvent::KickSeated) {
            Ok(names) if names.is_empty() => "the Bkgo room has nobody seated to kick".to_string(),
            Ok(names) => format!(
                "kicked {} from the Bkgo room: the seats go to the longest-waiting watchers",
                names.join(" and ")
            ),
            Err(e) => e,
        }
    }

    fn seat_bot(&self, id: &str, level: Option<Level>) -> Result<String, String> {
        if id != ROOM_ID {
            return Err(format!("no game {id}"));
        }
        let level = level.unwrap_or(self.context.settings.bot_level);
        let seated = self
            .ask(|reply| RoomEvent::SeatBot(level, reply))?
            .map_err(|refused| refused.to_string())?;
        Ok(format!(
            "the practice bot {} takes the {} seat of the Bkgo room",
            seated.name, seated.colour
        ))
    }

    fn tally(&self) -> Tally {
        let summary = self.summary.lock();
        let playing = report::is_playing(&summary);
        let in_use = report::is_in_use(&summary);
        Tally {
            waiting: usize::from(in_use && !playing),
            playing: usize::from(playing),
            finished: self.context.counters.games_finished.load(Ordering::Relaxed),
        }
    }

    fn queues(&self) -> Vec<QueueRow> {
        vec![QueueRow {
            what: "the Bkgo room's inbox",
            depth: Arc::clone(&self.depth),
        }]
    }

    fn moves_played(&self) -> u64 {
        self.context.counters.moves.load(Ordering::Relaxed)
    }

    fn finish(&self, deadline: Instant) {
        // The room ends itself on the shutdown signal (recording a game in progress).
        let room = self.room_thread.lock().take();
        if let Some(room) = room {
            join_by(room, deadline, "the Bkgo room");
        }
        // The room dropped its records writer when it ended: what it queued is written.
        let records = self.records_thread.lock().take();
        if let Some(records) = records {
            join_by(records, deadline, "the Bkgo records writer");
        }
        let open: Vec<Arc<Connection>> = self.clients.lock().values().cloned().collect();
        self.context.close_all(open, deadline);
    }
}
