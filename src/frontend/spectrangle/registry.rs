//! The Spectrangle registry: who is connected with which extensions, which names are
//! held, which lobbies are open and who sits in which lobby or game. All of it under
//! one `parking_lot::Mutex`, held only for bookkeeping, never across socket I/O.
//!
//! Every change to a lobby is decided here, under the lock, and sent to that lobby's
//! table as an event, also under the lock (a channel send, which does not block): the
//! table sends the lines (`LOBBY`, `START`, ...) in the order the events were decided.
//! Answers that concern the asking client alone (errors, `AVAILABLE_EXTENSIONS`,
//! `ACTIVE_LOBBIES`) are sent from its own connection thread, after the lock.
//!
//! `parking_lot` locks do not poison: a panic under the lock (none is reachable: the
//! code under it only touches maps) would leave the maps as they were.

use super::event::{BotRefused, Extensions, Member, TableEvent};
use super::protocol::{
    ArgumentError, Command, ErrorCode, Extension, Keyword, LobbyName, PlayerName, Request,
    ServerMessage, Unrecognized,
};
use super::summary::{Status, Summary, TableId};
use super::table::{self, Registrar};
use crate::cards::Mistake;
use crate::engine::spectrangle::MAX_PLAYERS;
use crate::front::Front;
use crate::frontend::{Context, Departure, FINISHED_KEPT, card, names};
use crate::net::{Awaited, CloseReason, ConnId, Connection, Depth, Inbox, Incoming, Ticket};
use crate::workers::Finished;
use parking_lot::Mutex;
use std::collections::{BTreeMap, HashMap, HashSet, VecDeque};
use std::sync::atomic::Ordering;
use std::sync::{Arc, Weak};
use std::time::Instant;

/// The name of the first default lobby; the next ones are `default-2`, `default-3`, ...
const DEFAULT_LOBBY: &str = "default";

/// The bound of a table's inbox. A table hears from at most four members, each with
/// one line in flight at a time (see `net::handoff`), which the registry turns into at
/// most three events (READY: `Ready`, `Start`, `Reached`), and from the console now and
/// then: it never holds more than a few.
pub const TABLE_INBOX_BOUND: usize = 32;

/// One connected client.
struct Client {
    conn: Arc<Connection>,
    extensions: Arc<Extensions>,
    /// The name it holds while it sits in a lobby or a game.
    name: Option<PlayerName>,
    /// The table (lobby or game) it sits at.
    table: Option<TableId>,
    /// When it connected, until it first sits at a table: its JOIN timeout runs from
    /// here. `None` once it has joined: the timeout is for connections that never
    /// identify, and after `EXIT` or `SCORE` closing is the client's (SPECTRANGLE.md,
    /// as the README's Spectrangle choices say).
    unidentified_since: Option<Instant>,
}

/// A lobby, or the game it became.
struct TableEntry {
    /// The table loop's inbox; the registry puts events in under its lock, never
    /// waiting ([`Inbox::post`]).
    inbox: Inbox<TableEvent>,
    /// Published by the table loop after each change.
    summary: Arc<Mutex<Summary>>,
    /// The lobby's name while it is a lobby; `None` once its game has started.
    lobby: Option<LobbyName>,
    /// Whether it was opened by a JOIN without a lobby name.
    default: bool,
    /// The clients that sit there, in join order.
    members: Vec<ConnId>,
    /// Members that said READY.
    ready: HashSet<ConnId>,
    /// The practice bots that sit there (always ready), by their granted names.
    bots: Vec<PlayerName>,
}

impl TableEntry {
    /// Everyone seated: clients and bots.
    fn seated(&self) -> usize {
        self.members.len() + self.bots.len()
    }

    fn is_open_lobby(&self) -> bool {
        self.lobby.is_some() && self.seated() < MAX_PLAYERS
    }
}

/// The name the Spectrangle practice bot asks for (granted as `SpectraBot_2`, ... when
/// taken).
pub const BOT_NAME: &str = "SpectraBot";

#[derive(Default)]
struct State {
    clients: HashMap<ConnId, Client>,
    /// Names held by clients in a lobby or a game.
    names: HashSet<PlayerName>,
    /// Registry and games, oldest first.
    tables: BTreeMap<TableId, TableEntry>,
    finished: VecDeque<Summary>,
    next_id: u32,
    /// The table loops started, waited for at shutdown.
    loops: Vec<Finished>,
}

/// The registry, shared by every connection thread and table loop.
pub struct Registry {
    state: Mutex<State>,
    /// Itself, for the table loops it starts (they hold it as their `Registrar`).
    me: Weak<Registry>,
    /// What the tables it starts share: settings, shutdown, counters.
    pub context: Context,
    /// How deep the tables' inboxes have been.
    pub depth: Arc<Depth>,
}

/// A refusal: the code, the kind of mistake on the client's card, and what was wrong.
type Refusal = (ErrorCode, Mistake, String);

/// A lobby opened under the lock, whose loop is started after it is released.
struct NewTable {
    id: TableId,
    events: crossbeam_channel::Receiver<TableEvent>,
    summary: Arc<Mutex<Summary>>,
}

impl Registry {
    /// An empty registry whose tables share `context`.
    pub fn new(context: Context) -> Arc<Registry> {
        Arc::new_cyclic(|me| Registry {
            state: Mutex::new(State {
                next_id: 1,
                ..State::default()
            }),
            me: me.clone(),
            context,
            depth: Depth::new(TABLE_INBOX_BOUND),
        })
    }

    /// Registers a new connection (in no lobby, no extension enabled).
    pub fn connect(&self, conn: &Arc<Connection>) {
        self.state.lock().clients.insert(
            conn.id,
            Client {
                conn: Arc::clone(conn),
                extensions: Arc::default(),
                name: None,
                table: None,
                unidentified_since: Some(Instant::now()),
            },
        );
    }

    /// When `conn` connected, if it has never sat at a table: it must JOIN within the
    /// handshake timeout of then.
    pub fn unidentified_since(&self, conn: ConnId) -> Option<Instant> {
        let state = self.state.lock();
        state.clients.get(&conn)?.unidentified_since
    }

    /// Handles one line of a client on its own thread: answers it, or hands it to the
    /// client's table. Returns what the answer is awaited by: the client's next line
    /// is handed over only once it has come (see `net::handoff`).
    pub fn dispatch(
        &self,
        conn: &Arc<Connection>,
        line: Incoming,
        parsed: Result<Option<Request>, Unrecognized>,
    ) -> Awaited {
        let (ticket, awaited) = crate::net::ticket();
        self.answer(conn, line, parsed, ticket);
        awaited
    }

    /// Answers one line of a client, or hands it with its ticket to the client's
    /// table; the ticket is dropped once the line has been answered.
    fn answer(
        &self,
        conn: &Arc<Connection>,
        line: Incoming,
        parsed: Result<Option<Request>, Unrecognized>,
        ticket: Ticket,
    ) {
        let answer = match parsed {
            Ok(None) => return,
            Err(unrecognized) => Err((
                ErrorCode::Unrecognized,
                unrecognized.mistake(),
                unrecognized.to_string(),
            )),
            Ok(Some(request)) => self.request(conn, &line, request, ticket),
        };
        let message = match answer {
            Ok(None) => return,
            Ok(Some(message)) => message,
            Err((code, mistake, message)) => {
                let refusal = ServerMessage::error(code, message);
                let max_bytes = self.context.settings.lines.max_line_bytes;
                card::mistake(
                    conn,
                    Front::Spectrangle,
                    mistake,
                    card::offending(&line, max_bytes),
                    &refusal.to_string(),
                );
                refusal
            }
        };
        let _ = conn.send(&message);
    }

    /// Refuses `error` (a line too long) with its code.
    pub fn refuse(&self, conn: &Arc<Connection>, error: &ArgumentError) {
        let max_bytes = self.context.settings.lines.max_line_bytes;
        card::refuse(
            conn,
            Front::Spectrangle,
            error.mistake(),
            card::offending(&Incoming::TooLong, max_bytes),
            &ServerMessage::error(error.code(), error),
        );
    }

    /// Checks a request in the order SPECTRANGLE.md fixes (extension, state,
    /// arguments) and carries it out. Returns the answer for the client, if any; the
    /// ticket goes with an event the request hands to a table.
    fn request(
        &self,
        conn: &Arc<Connection>,
        line: &Incoming,
        request: Request,
        ticket: Ticket,
    ) -> Result<Option<ServerMessage>, Refusal> {
        let Request { keyword, command } = request;
        let (extensions, place) = self.whereabouts(conn.id);
        self.check_extension(keyword, &extensions)?;
        // Before its JOIN a client has no card: its early mistakes join the named one.
        check_state(keyword, place, card::of(conn).is_some())?;
        let command = command.map_err(|e| (e.code(), e.mistake(), e.to_string()))?;
        match command {
            Command::Join { name, lobby } => {
                let lobby = match lobby {
                    Some(lobby) if extensions.has(Extension::Multilobby) => Some(
                        LobbyName::parse(&lobby)
                            .map_err(|e| (e.code(), e.mistake(), e.to_string()))?,
                    ),
                    // Without multilobby the lobby argument is ignored (the spec says so).
                    _ => None,
                };
                self.join(conn, name, lobby, &extensions, ticket)?;
            }
            Command::Ready => {
                if !self.ready(conn.id, ticket) {
                    return Err(not_in_lobby(keyword, true));
                }
            }
            Command::Play { .. } | Command::Swap { .. } | Command::Skip => {
                let sent = self.forward(conn.id, |_| TableEvent::Move {
                    from: Arc::clone(conn),
                    line: line.clone(),
                    command,
                    ticket,
                });
                // The table judges the move and answers; nothing to accept here yet.
                return if sent {
                    Ok(None)
                } else {
                    Err(not_in_lobby(keyword, true))
                };
            }
            Command::Exit => {
                let left = self.leave(conn.id, Departure::Exited, Some(ticket));
                if !left {
                    return Err(not_in_lobby(keyword, true));
                }
            }
            Command::Extensions => {
                conn.accepted();
                return Ok(Some(ServerMessage::available_extensions()));
            }
            Command::EnableExtensions(wanted) => {
                for extension in wanted {
                    extensions.enable(extension);
                }
            }
            Command::Chat { text } => {
                let sent = self.forward(conn.id, |from| TableEvent::Chat { from, text, ticket });
                if !sent {
                    return Err(not_in_lobby(keyword, true));
                }
            }
            Command::Lobbies => {
                conn.accepted();
                return Ok(Some(self.active_lobbies()));
            }
        }
        conn.accepted();
        Ok(None)
    }

    /// A client's extensions and where it sits: no table, a lobby, or a game.
    fn whereabouts(&self, conn: ConnId) -> (Arc<Extensions>, Place) {
        let state = self.state.lock();
        let Some(client) = state.clients.get(&conn) else {
            return (Arc::default(), Place::Nowhere);
        };
        let place = match client.table.and_then(|id| state.tables.get(&id)) {
            None => Place::Nowhere,
            Some(table) => match &table.lobby {
                Some(name) => Place::Lobby(name.to_string()),
                None => Place::Game,
            },
        };
        (Arc::clone(&client.extensions), place)
    }

    /// CHAT and LOBBIES need their extension enabled, whatever the client's state.
    fn check_extension(&self, keyword: Keyword, extensions: &Extensions) -> Result<(), Refusal> {
        let needs = match keyword {
            Keyword::Chat => Extension::Chat,
            Keyword::Lobbies => Extension::Multilobby,
            _ => return Ok(()),
        };
        if extensions.has(needs) {
            return Ok(());
        }
        Err((
            ErrorCode::UnsupportedExtension,
            Mistake::ExtensionOff,
            format!(
                "{} needs the {} extension: send ENABLE_EXTENSION {} first",
                keyword.word(),
                needs.name(),
                needs.name()
            ),
        ))
    }

    /// Seats `conn` as `name`: in the lobby it names (multilobby), else in the oldest
    /// default lobby with room, else in a new default lobby.
    fn join(
        &self,
        conn: &Arc<Connection>,
        name: PlayerName,
        lobby: Option<LobbyName>,
        extensions: &Arc<Extensions>,
        ticket: Ticket,
    ) -> Result<(), Refusal> {
        let new_table = {
            let mut state = self.state.lock();
            if state.names.contains(&name) {
                return Err((
                    ErrorCode::NameTaken,
                    Mistake::NameTaken,
                    format!("The name {name} is taken by another player: choose another name"),
                ));
            }
            let found = match &lobby {
                Some(wanted) => state
                    .tables
                    .iter()
                    .find(|(_, t)| t.lobby.as_ref() == Some(wanted))
                    .map(|(id, t)| (*id, t.seated())),
                None => state
                    .tables
                    .iter()
                    .find(|(_, t)| t.default && t.is_open_lobby())
                    .map(|(id, t)| (*id, t.seated())),
            };
            if let (Some((_, members)), Some(wanted)) = (found, &lobby)
                && members >= MAX_PLAYERS
            {
                return Err((
                    ErrorCode::Generic,
                    Mistake::LobbyFull,
                    format!(
                        "Lobby {wanted} is full ({MAX_PLAYERS} players): join another lobby, or wait until its game starts"
                    ),
                ));
            }
            let (id, new_table) = match found {
                Some((id, _)) => (id, None),
                None => {
                    let (id, new_table) = self.open_lobby(&mut state, lobby);
                    (id, Some(new_table))
                }
            };
            let member = Member {
                conn: Arc::clone(conn),
                name: name.clone(),
                extensions: Arc::clone(extensions),
            };
            state.names.insert(name.clone());
            if let Some(client) = state.clients.get_mut(&conn.id) {
                client.name = Some(name.clone());
                client.table = Some(id);
                client.unidentified_since = None;
            }
            conn.set_name(name.as_str());
            // Before the table can answer (LOBBY): whoever sees that line finds the
            // card. The card registry's lock is a leaf: nothing under it takes ours.
            card::named(&self.context.cards, conn, Front::Spectrangle, name.as_str());
            if let Some(table) = state.tables.get_mut(&id) {
                table.members.push(conn.id);
                // The table's LOBBY line comes before the answer to the client's next
                // line: the ticket travels with the event.
                let _ = table.inbox.post(TableEvent::Joined { member, ticket });
            }
            new_table
        };
        if let Some(new_table) = new_table {
            self.start_thread(new_table);
        }
        Ok(())
    }

    /// Opens a lobby named `name`, or the lowest free default name when `None`.
    fn open_lobby(&self, state: &mut State, name: Option<LobbyName>) -> (TableId, NewTable) {
        // A lobby named like a default one (`JOIN Ann default-2` with multilobby) is
        // one: plain JOINs go there too.
        let default = name.as_ref().is_none_or(|n| is_default_name(n.as_str()));
        let name = name.unwrap_or_else(|| free_default_name(state));
        let id = TableId(state.next_id);
        state.next_id += 1;
        let (inbox, events) = crate::net::inbox(&self.depth, &self.context.shutdown);
        let summary = Arc::new(Mutex::new(Summary::new(id, name.to_string())));
        state.tables.insert(
            id,
            TableEntry {
                inbox,
                summary: Arc::clone(&summary),
                lobby: Some(name),
                default,
                members: Vec::new(),
                ready: HashSet::new(),
                bots: Vec::new(),
            },
        );
        let new_table = NewTable {
            id,
            events,
            summary,
        };
        (id, new_table)
    }

    fn start_thread(&self, new_table: NewTable) {
        let Some(me) = self.me.upgrade() else { return };
        let registrar: Arc<dyn Registrar> = me;
        let NewTable {
            id,
            events,
            summary,
        } = new_table;
        match table::spawn(id, registrar, self.context.clone(), events, summary) {
            Ok(finished) => {
                let mut state = self.state.lock();
                state.loops.retain(|f| !f.is_finished());
                state.loops.push(finished);
            }
            Err(e) => {
                log::error!("could not start a thread for spectrangle table {id}: {e}");
                for conn in self.remove_table(id) {
                    conn.close(CloseReason::Because(
                        "the server could not start a game thread".into(),
                    ));
                }
            }
        }
    }

    /// READY: marks the member ready, and starts the game when every member of a
    /// lobby of two or more is.
    /// False when the client's table has gone since its state was checked.
    /// `ticket` goes behind the events: a START the READY triggered comes before the
    /// answer to the client's next line.
    fn ready(&self, conn: ConnId, ticket: Ticket) -> bool {
        let mut state = self.state.lock();
        let Some(id) = state.clients.get(&conn).and_then(|c| c.table) else {
            return false;
        };
        let Some(table) = state.tables.get_mut(&id) else {
            return false;
        };
        if table.ready.insert(conn) {
            let _ = table.inbox.post(TableEvent::Ready(conn));
            start_if_ready(table);
        }
        let _ = table.inbox.post(TableEvent::Reached(ticket));
        true
    }

    /// A client leaves its table: its name is free again, the table is told; a lobby
    /// left with nobody closes, a lobby left with only ready players starts.
    /// False when the client sat at no table (any more). `reached`, for a client that
    /// leaves by its own line (EXIT), is dropped once the table has handled the
    /// departure: whatever the table said to the client before comes before the answer
    /// to its next line.
    fn leave(&self, conn: ConnId, how: Departure, reached: Option<Ticket>) -> bool {
        let mut state = self.state.lock();
        let Some(client) = state.clients.get_mut(&conn) else {
            return false;
        };
        let Some(id) = client.table.take() else {
            return false;
        };
        if let Some(name) = client.name.take() {
            state.names.remove(&name);
        }
        let Some(table) = state.tables.get_mut(&id) else {
            return true;
        };
        table.members.retain(|member| *member != conn);
        table.ready.remove(&conn);
        let _ = table.inbox.post(TableEvent::Left { conn, how });
        if let Some(reached) = reached {
            let _ = table.inbox.post(TableEvent::Reached(reached));
        }
        if table.lobby.is_some() {
            if table.members.is_empty() {
                // No client left (a bot plays for nobody): dropping the inbox ends the
                // lobby's loop.
                if let Some(table) = state.tables.remove(&id) {
                    for bot in table.bots {
                        state.names.remove(&bot);
                    }
                }
            } else {
                start_if_ready(table);
            }
        }
        true
    }

    /// Seats the practice bot in lobby `id`, ready: the game starts if every client
    /// there is ready too. Returns the name it was granted.
    ///
    /// # Errors
    ///
    /// Why not: no such table, its game has started or ended, the lobby is full, the
    /// server is shutting down.
    pub fn seat_bot(&self, id: TableId) -> Result<String, BotRefused> {
        if self.context.shutdown.is_triggered() {
            return Err(BotRefused::ShuttingDown);
        }
        let mut state = self.state.lock();
        let Some(table) = state.tables.get(&id) else {
            return Err(match state.finished.iter().rev().find(|s| s.id == id) {
                Some(_) => BotRefused::Ended(id),
                None => BotRefused::NoSuchTable(id),
            });
        };
        let Some(lobby) = table.lobby.clone() else {
            return Err(BotRefused::Playing(id));
        };
        if table.seated() >= MAX_PLAYERS {
            return Err(BotRefused::Full(id, lobby));
        }
        let granted = names::grant(BOT_NAME, |name| {
            PlayerName::parse(name).is_ok_and(|name| state.names.contains(&name))
        });
        let name = PlayerName::parse(&granted).map_err(|_| BotRefused::ShuttingDown)?;
        state.names.insert(name.clone());
        let Some(table) = state.tables.get_mut(&id) else {
            return Err(BotRefused::NoSuchTable(id));
        };
        table.bots.push(name.clone());
        let _ = table.inbox.post(TableEvent::SeatBot(name));
        start_if_ready(table);
        Ok(granted)
    }

    /// The practice bots seated at tables: name and table.
    pub fn bots(&self) -> Vec<(String, TableId)> {
        let state = self.state.lock();
        state
            .tables
            .iter()
            .flat_map(|(id, t)| t.bots.iter().map(move |b| (b.to_string(), *id)))
            .collect()
    }

    /// Sends the event `make` builds (given the sender's id) to the sender's table.
    /// False when that table has gone (its game ended) since the state was checked.
    fn forward(&self, conn: ConnId, make: impl FnOnce(ConnId) -> TableEvent) -> bool {
        let state = self.state.lock();
        state
            .clients
            .get(&conn)
            .and_then(|c| c.table)
            .and_then(|id| state.tables.get(&id))
            .is_some_and(|table| table.inbox.post(make(conn)).is_ok())
    }

    /// `ACTIVE_LOBBIES`: lobbies not yet playing, players in join order.
    fn active_lobbies(&self) -> ServerMessage {
        let state = self.state.lock();
        let lobbies = state
            .tables
            .values()
            .filter_map(|table| {
                let name = table.lobby.as_ref()?;
                let players = table
                    .members
                    .iter()
                    .filter_map(|m| state.clients.get(m)?.name.as_ref())
                    .chain(&table.bots)
                    .map(ToString::to_string)
                    .collect();
                Some((name.to_string(), players))
            })
            .collect();
        ServerMessage::ActiveLobbies { lobbies }
    }

    /// Forgets a closed connection: it leaves its table (`how`), its name is free.
    pub fn disconnect(&self, conn: ConnId, how: Departure) {
        self.leave(conn, how, None);
        self.state.lock().clients.remove(&conn);
    }

    /// Removes a table: its members sit nowhere and their names are free; its summary
    /// (marked finished, if it was a game) is kept for the console. Returns the
    /// connections that sat there.
    fn remove_table(&self, id: TableId) -> Vec<Arc<Connection>> {
        let mut state = self.state.lock();
        let Some(table) = state.tables.remove(&id) else {
            return Vec::new();
        };
        if table.lobby.is_none() {
            let mut summary = table.summary.lock().clone();
            summary.status = Status::Finished;
            state.finished.push_back(summary);
            while state.finished.len() > FINISHED_KEPT {
                state.finished.pop_front();
            }
            self.context
                .counters
                .games_finished
                .fetch_add(1, Ordering::Relaxed);
        }
        let mut freed = Vec::new();
        let mut names = Vec::new();
        for conn in table.members {
            if let Some(client) = state.clients.get_mut(&conn) {
                client.table = None;
                names.extend(client.name.take());
                freed.push(Arc::clone(&client.conn));
            }
        }
        for name in names.into_iter().chain(table.bots) {
            state.names.remove(&name);
        }
        freed
    }

    /// Every connected client: connection, name, table.
    pub fn clients(&self) -> Vec<(Arc<Connection>, Option<String>, Option<TableId>)> {
        let state = self.state.lock();
        state
            .clients
            .values()
            .map(|c| {
                (
                    Arc::clone(&c.conn),
                    c.name.as_ref().map(ToString::to_string),
                    c.table,
                )
            })
            .collect()
    }

    /// Summaries of the live tables (by id), then of the finished games kept.
    pub fn tables(&self) -> (Vec<Summary>, Vec<Summary>) {
        let state = self.state.lock();
        let live = state
            .tables
            .values()
            .map(|t| t.summary.lock().clone())
            .collect();
        (live, state.finished.iter().cloned().collect())
    }

    /// The inbox of live table `id`.
    pub fn inbox(&self, id: TableId) -> Option<Inbox<TableEvent>> {
        self.state.lock().tables.get(&id).map(|t| t.inbox.clone())
    }

    /// The connections seated at table `id`.
    pub fn members(&self, id: TableId) -> Vec<Arc<Connection>> {
        let state = self.state.lock();
        state
            .tables
            .get(&id)
            .map(|t| {
                t.members
                    .iter()
                    .filter_map(|m| state.clients.get(m))
                    .map(|c| Arc::clone(&c.conn))
                    .collect()
            })
            .unwrap_or_default()
    }

    /// Takes the table loops started so far, to wait for them.
    pub fn take_loops(&self) -> Vec<Finished> {
        std::mem::take(&mut self.state.lock().loops)
    }

    /// Every connection, to close them at shutdown.
    pub fn connections(&self) -> Vec<Arc<Connection>> {
        let state = self.state.lock();
        state
            .clients
            .values()
            .map(|c| Arc::clone(&c.conn))
            .collect()
    }
}

impl Registrar for Registry {
    fn close_game(&self, id: TableId) -> Vec<Arc<Connection>> {
        self.remove_table(id)
    }

    fn seat_bot(&self, id: TableId) -> Result<String, BotRefused> {
        Registry::seat_bot(self, id)
    }

    fn redispatch(&self, from: &Arc<Connection>, line: Incoming, command: Command, ticket: Ticket) {
        let keyword = match &command {
            Command::Swap { .. } => Keyword::MoveSwap,
            Command::Skip => Keyword::MoveSkip,
            _ => Keyword::MovePlay,
        };
        let command = Ok(command);
        self.answer(from, line, Ok(Some(Request { keyword, command })), ticket);
    }
}

/// Where a client sits, as far as the order of error codes cares.
enum Place {
    Nowhere,
    /// In the lobby of this name.
    Lobby(String),
    Game,
}

/// The state checks of SPECTRANGLE.md: a known keyword in the wrong state is 7 (in no
/// lobby) or 8 (a move in a lobby), except JOIN while seated and READY in a game (0).
/// `named`: whether the client has joined once (else a command before JOIN is a
/// mistake of its own kind on its card).
fn check_state(keyword: Keyword, place: Place, named: bool) -> Result<(), Refusal> {
    match (keyword, place) {
        (Keyword::Extensions | Keyword::EnableExtension | Keyword::Lobbies, _) => Ok(()),
        (Keyword::Join, Place::Nowhere) => Ok(()),
        (Keyword::Join, Place::Lobby(lobby)) => Err((
            ErrorCode::Generic,
            Mistake::SecondHandshake,
            format!("You are already in lobby {lobby}: send EXIT first to join another"),
        )),
        (Keyword::Join, Place::Game) => Err((
            ErrorCode::Generic,
            Mistake::SecondHandshake,
            "You are playing a game: JOIN is possible after its SCORE, or after EXIT".into(),
        )),
        (Keyword::Ready, Place::Game) => Err((
            ErrorCode::Generic,
            Mistake::WrongState,
            "Your game has already started: READY is for lobbies".into(),
        )),
        (Keyword::MovePlay | Keyword::MoveSwap | Keyword::MoveSkip, Place::Lobby(lobby)) => Err((
            ErrorCode::NotInGame,
            Mistake::NotStarted,
            format!("Your lobby {lobby} has not started a game yet: send READY and wait for START"),
        )),
        (_, Place::Nowhere) => Err(not_in_lobby(keyword, named)),
        _ => Ok(()),
    }
}

/// Error 7 for `keyword` sent by a client in no lobby. A command that passed the state
/// check can still get it: its game may have ended (SCORE sent) just before.
fn not_in_lobby(keyword: Keyword, named: bool) -> Refusal {
    let word = keyword.word();
    (
        ErrorCode::NotInLobby,
        if named {
            Mistake::NotInGame
        } else {
            Mistake::BeforeHandshake
        },
        format!("You are not in a lobby, so {word} is not possible: send JOIN <name> first"),
    )
}

/// Starts a lobby of two or more members who are all ready (a bot always is): it stops
/// being a lobby (no more joins) and its table deals.
fn start_if_ready(table: &mut TableEntry) {
    let all_ready = table.members.iter().all(|m| table.ready.contains(m));
    if table.lobby.is_some() && table.seated() >= 2 && all_ready {
        table.lobby = None;
        let _ = table.inbox.post(TableEvent::Start);
    }
}

/// Whether `name` is a default lobby's name: `default`, or `default-<n>` for n ≥ 2.
fn is_default_name(name: &str) -> bool {
    match name.strip_prefix(DEFAULT_LOBBY) {
        Some("") => true,
        Some(rest) => rest
            .strip_prefix('-')
            .and_then(|n| n.parse::<u32>().ok())
            .is_some_and(|n| n >= 2 && !rest.starts_with("-0")),
        None => false,
    }
}

/// The lowest default lobby name (`default`, `default-2`, ...) no open lobby has.
fn free_default_name(state: &State) -> LobbyName {
    let taken = |name: &str| {
        state
            .tables
            .values()
            .any(|t| t.lobby.as_ref().is_some_and(|l| l.as_str() == name))
    };
    let name = std::iter::once(DEFAULT_LOBBY.to_string())
        .chain((2u32..).map(|n| format!("{DEFAULT_LOBBY}-{n}")))
        .find(|name| !taken(name))
        .unwrap_or_else(|| format!("{DEFAULT_LOBBY}-{}", state.next_id));
    LobbyName::server_given(name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frontend::spectrangle::protocol;
    use crate::settings::Settings;
    use crate::shutdown::Shutdown;
    use std::io::{BufRead, BufReader};

    /// A command that passed the state check can find its table gone (the game ended
    /// meanwhile): each of the steps that act on the table says so, for error 7.
    #[test]
    fn a_client_at_no_table_is_told_its_command_found_no_table() {
        let registry = Registry::new(Context::standalone(Settings::default(), Shutdown::new()));
        let (_client, conn) = registry.context.connections.loopback();
        registry.connect(&conn);

        let (ticket, _awaited) = crate::net::ticket();
        assert!(!registry.ready(conn.id, ticket));
        assert!(!registry.leave(conn.id, Departure::Exited, None));
        let text = "hi".to_string();
        let (ticket, _awaited) = crate::net::ticket();
        assert!(!registry.forward(conn.id, |from| TableEvent::Chat { from, text, ticket }));
        let (code, mistake, message) = not_in_lobby(Keyword::Ready, false);
        assert_eq!(code, ErrorCode::NotInLobby);
        assert_eq!(mistake, Mistake::BeforeHandshake);
        assert_eq!(
            message,
            "You are not in a lobby, so READY is not possible: send JOIN <name> first"
        );
    }

    /// A bug in the loop of a game in play ends it as any other ending does: SCORE
    /// with the points so far, the players free to JOIN again, and the game filed
    /// among the results as `error`, not rated.
    #[test]
    fn a_panic_in_a_game_in_play_files_it_as_an_error() {
        let settings = Settings {
            seed: Some(1),
            ..Settings::default()
        };
        let registry = Registry::new(Context::standalone(settings, Shutdown::new()));
        let (mut conns, mut readers) = (Vec::new(), Vec::new());
        for _ in 1..=2 {
            let (client, conn) = registry.context.connections.loopback();
            registry.connect(&conn);
            conns.push(conn);
            readers.push(BufReader::new(client));
        }
        let say = |player: usize, line: &str| {
            let _ = registry
                .dispatch(
                    &conns[player],
                    Incoming::Line(line.into()),
                    protocol::parse(line),
                )
                .wait(&conns[player]);
        };
        say(0, "JOIN Ann");
        say(1, "JOIN Bob");
        say(0, "READY");
        say(1, "READY");
        say(1, "MOVE_PLAY GGG0 0");
        let mut read_to = |player: usize, wanted: &str| -> Vec<String> {
            let mut lines = Vec::new();
            loop {
                let mut line = String::new();
                if let Err(e) = readers[player].read_line(&mut line) {
                    panic!("{wanted:?} was expected after {lines:?}: {e}");
                }
                lines.push(line.trim_end().to_string());
                if line.trim_end() == wanted {
                    return lines;
                }
            }
        };
        for player in 0..2 {
            read_to(player, "TILE Bob GGB0");
        }

        let inbox = registry.inbox(TableId(1)).expect("table 1 is live");
        assert!(inbox.post(TableEvent::Panic).is_ok());
        for player in 0..2 {
            let lines = read_to(player, "SCORE Bob,6 Ann,0");
            assert_eq!(
                lines,
                ["SCORE Bob,6 Ann,0"],
                "nothing but SCORE after the panic"
            );
        }
        let results = registry.context.results.recent(10);
        let [result] = results.as_slice() else {
            panic!("one result was expected: {results:?}");
        };
        assert_eq!(result.ending, crate::results::Ending::Error);
        assert_eq!(result.moves, 1);
        assert!(!result.rated, "an error is never rated");
        // Both are free again: JOIN opens a new lobby.
        say(0, "JOIN Ann");
        assert_eq!(read_to(0, "LOBBY Ann"), ["LOBBY Ann"]);
    }
}
