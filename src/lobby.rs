//! Matchmaking: who is connected under which granted name, which games wait for a
//! partner, and which game each client sits in. All of it under one
//! `parking_lot::Mutex`, held only for bookkeeping: never across socket I/O or a
//! blocking call. Messages to clients are sent by the game loops, in the order their
//! inboxes receive events; the lobby only puts events into those inboxes.
//!
//! `parking_lot` locks do not poison: a panic while the lock is held (none is
//! reachable: the code under it only touches maps) would leave the maps as they were
//! at the panic, which is still consistent enough for the other games to go on.

use crate::game::{self, EXIT_REASON, GameEvent, GameStatus, GameSummary, Player};
use crate::net::{ConnId, Connection};
use crate::protocol::GameId;
use crate::protocol::{ClientCommand, ParseError, ServerMessage};
use crate::settings::Settings;
use crossbeam_channel::Sender;
use parking_lot::Mutex;
use std::collections::{BTreeMap, HashMap, HashSet, VecDeque};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::thread::JoinHandle;
use std::time::Instant;

use crate::shutdown::Shutdown;

/// How many finished games the console can still list.
const FINISHED_KEPT: usize = 200;

/// One connected client, as the lobby knows it.
pub struct ClientEntry {
    /// The connection itself.
    pub conn: Arc<Connection>,
    /// The name granted at its last handshake, if any.
    pub name: Option<String>,
    /// The game it sits in, if any.
    pub game: Option<GameId>,
    /// When it last left a game (or connected): its handshake timeout runs from here.
    pub free_since: Instant,
}

/// A live game: where to send its events and what the console may read of it.
pub struct GameEntry {
    /// The game loop's inbox.
    pub inbox: Sender<GameEvent>,
    /// Published by the game loop after each change.
    pub summary: Arc<Mutex<GameSummary>>,
}

#[derive(Default)]
struct LobbyState {
    clients: HashMap<ConnId, ClientEntry>,
    /// Names granted to connected clients.
    taken_names: HashSet<String>,
    games: BTreeMap<GameId, GameEntry>,
    /// Games with a leader and a free seat, oldest first.
    waiting: VecDeque<GameId>,
    finished: VecDeque<GameSummary>,
    next_game_id: u32,
    /// Game loop threads, joined at shutdown.
    threads: Vec<JoinHandle<()>>,
}

/// Live counters for the console's `stats`.
#[derive(Default)]
pub struct Counters {
    /// Moves (passes included) accepted since start.
    pub moves: AtomicU64,
    /// Games that have ended since start.
    pub games_finished: AtomicU64,
}

/// The matchmaking registry. Shared by every connection thread and game loop.
pub struct Lobby {
    state: Mutex<LobbyState>,
    /// The server's settings, for the games it starts.
    pub settings: Arc<Settings>,
    /// The server's shutdown, for the games it starts.
    pub shutdown: Shutdown,
    /// Counters for the console.
    pub counters: Counters,
}

/// Why a HANDSHAKE was refused.
#[derive(Debug, PartialEq, Eq)]
pub enum HandshakeRefused {
    /// The client already sits in a game.
    AlreadyInGame { game: GameId, name: String },
    /// The server is shutting down.
    ShuttingDown,
}

impl std::fmt::Display for HandshakeRefused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            HandshakeRefused::AlreadyInGame { game, name } => write!(
                f,
                "You are already {name} in game {game}: HANDSHAKE is accepted only when you are not in a game"
            ),
            HandshakeRefused::ShuttingDown => write!(f, "The server is shutting down"),
        }
    }
}

impl Lobby {
    /// An empty lobby.
    pub fn new(settings: Arc<Settings>, shutdown: Shutdown) -> Arc<Lobby> {
        Arc::new(Lobby {
            state: Mutex::new(LobbyState {
                next_game_id: 1,
                ..LobbyState::default()
            }),
            settings,
            shutdown,
            counters: Counters::default(),
        })
    }

    /// Registers a new connection (not yet identified).
    pub fn connect(&self, conn: &Arc<Connection>) {
        let mut state = self.state.lock();
        state.clients.insert(
            conn.id,
            ClientEntry {
                conn: Arc::clone(conn),
                name: None,
                game: None,
                free_since: Instant::now(),
            },
        );
    }

    /// Grants `wanted` (or `wanted_2`, `wanted_3`, ... if it is taken) and seats the
    /// client: in the oldest waiting game, or as the leader of a new one. The game
    /// loop then sends ACKNOWLEDGE_HANDSHAKE.
    ///
    /// # Errors
    ///
    /// When the client already sits in a game, or the server is stopping.
    pub fn handshake(
        self: &Arc<Self>,
        conn: &Arc<Connection>,
        wanted: &str,
    ) -> Result<(), HandshakeRefused> {
        if self.shutdown.is_triggered() {
            return Err(HandshakeRefused::ShuttingDown);
        }
        let new_game = {
            let mut state = self.state.lock();
            if let Some(entry) = state.clients.get(&conn.id)
                && let (Some(game), Some(name)) = (entry.game, &entry.name)
            {
                return Err(HandshakeRefused::AlreadyInGame {
                    game,
                    name: name.clone(),
                });
            }
            let name = grant_name(&mut state, conn, wanted);
            conn.set_name(&name);
            let player = Player {
                conn: Arc::clone(conn),
                name,
            };
            self.seat_locked(&mut state, player)
        };
        self.start_thread(new_game);
        Ok(())
    }

    /// Has a client's line handled: by its game if it sits in one, else here.
    pub fn dispatch(
        self: &Arc<Self>,
        conn: &Arc<Connection>,
        command: Result<ClientCommand, ParseError>,
    ) {
        let line = GameEvent::Line {
            from: Arc::clone(conn),
            command,
        };
        if let Err(GameEvent::Line { command, .. }) = self.forward(conn.id, line) {
            self.answer_unseated(conn, command);
        }
    }

    /// Puts `event` into the inbox of the game `conn` sits in; gives it back when the
    /// client sits in no game. The send happens under the lock, so once
    /// [`Lobby::close_game`] has run no event can reach that game any more: the game
    /// answers everything it was sent before it ends.
    fn forward(&self, conn: ConnId, event: GameEvent) -> Result<(), GameEvent> {
        let state = self.state.lock();
        let inbox = state
            .clients
            .get(&conn)
            .and_then(|entry| entry.game)
            .and_then(|game| state.games.get(&game));
        match inbox {
            // An unbounded channel: the send does not block.
            Some(entry) => entry.inbox.send(event).map_err(|e| e.0),
            None => Err(event),
        }
    }

    /// Answers a line from a client that sits in no game: HANDSHAKE seats it, EXIT
    /// closes its connection, anything else is refused with what to do instead.
    pub fn answer_unseated(
        self: &Arc<Self>,
        conn: &Arc<Connection>,
        command: Result<ClientCommand, ParseError>,
    ) {
        let reason = match command {
            Err(error) => error.to_string(),
            Ok(ClientCommand::Handshake { name }) => match self.handshake(conn, &name) {
                Ok(()) => return,
                Err(refused) => refused.to_string(),
            },
            Ok(ClientCommand::Exit { .. }) => {
                conn.accepted();
                conn.close(EXIT_REASON);
                return;
            }
            Ok(other) => format!(
                "You are not in a game, so {} is not possible: send HANDSHAKE with your name first",
                other.keyword()
            ),
        };
        let _ = conn.send(&ServerMessage::UnknownCommand { reason });
    }

    /// Kicks a client: a seated player loses its game (and is told so) before its
    /// connection is closed; any other client is just disconnected.
    pub fn kick(&self, conn: &Arc<Connection>) {
        if self
            .forward(conn.id, GameEvent::Kick(Arc::clone(conn)))
            .is_err()
        {
            conn.close(game::KICK_REASON);
        }
    }

    /// Seats again a player (who keeps its name) whose game broke up before it
    /// started, e.g. because its leader left: like a handshake, it joins the oldest
    /// waiting game, or leads a new one when none waits. Nobody is stranded.
    pub fn reseat(self: &Arc<Self>, player: Player) {
        let new_game = {
            let mut state = self.state.lock();
            self.seat_locked(&mut state, player)
        };
        self.start_thread(new_game);
    }

    /// A leader whose partner left before the start: if another game waits for a
    /// partner, the leader joins it (its own game ends: returns true); else its game
    /// goes back to the head of the queue (returns false).
    pub fn requeue(&self, id: GameId, leader: &Player) -> bool {
        let mut state = self.state.lock();
        state.waiting.retain(|g| *g != id);
        while let Some(other) = state.waiting.pop_front() {
            let joined = state
                .games
                .get(&other)
                .is_some_and(|entry| entry.inbox.send(GameEvent::Join(leader.clone())).is_ok());
            if joined {
                set_game(&mut state, leader.conn.id, Some(other));
                return true;
            }
        }
        state.waiting.push_front(id);
        set_game(&mut state, leader.conn.id, Some(id));
        false
    }

    /// Seats a player: joins the oldest waiting game, or (when none waits) opens a
    /// new game with it as leader. Returns the new game's loop to start, if one was
    /// opened.
    fn seat_locked(&self, state: &mut LobbyState, player: Player) -> Option<NewGame> {
        let conn_id = player.conn.id;
        let mut player = player;
        while let Some(id) = state.waiting.pop_front() {
            let Some(entry) = state.games.get(&id) else {
                continue;
            };
            match entry.inbox.send(GameEvent::Join(player)) {
                Ok(()) => {
                    set_game(state, conn_id, Some(id));
                    return None;
                }
                // The loop has ended: try the next waiting game.
                Err(crossbeam_channel::SendError(event)) => match event {
                    GameEvent::Join(back) => player = back,
                    _ => return None,
                },
            }
        }
        let id = GameId(state.next_game_id);
        state.next_game_id += 1;
        let (inbox, events) = crossbeam_channel::unbounded();
        let summary = Arc::new(Mutex::new(GameSummary::new(id)));
        // The loop is not running yet; the event waits in its inbox.
        let _ = inbox.send(GameEvent::Join(player));
        state.games.insert(
            id,
            GameEntry {
                inbox,
                summary: Arc::clone(&summary),
            },
        );
        state.waiting.push_back(id);
        set_game(state, conn_id, Some(id));
        Some(NewGame {
            id,
            events,
            summary,
        })
    }

    fn start_thread(self: &Arc<Self>, new_game: Option<NewGame>) {
        let Some(NewGame {
            id,
            events,
            summary,
        }) = new_game
        else {
            return;
        };
        match game::spawn(id, Arc::clone(self), events, summary) {
            Ok(handle) => {
                let mut state = self.state.lock();
                state.threads.retain(|t| !t.is_finished());
                state.threads.push(handle);
            }
            Err(e) => {
                log::error!("could not start a thread for game {id}: {e}");
                for conn in self.abandon(id) {
                    conn.close("the server could not start a game thread");
                }
            }
        }
    }

    /// When `conn` left its last game (or connected), if it sits in no game now.
    pub fn free_since(&self, conn: ConnId) -> Option<Instant> {
        let state = self.state.lock();
        let entry = state.clients.get(&conn)?;
        entry.game.is_none().then_some(entry.free_since)
    }

    /// Takes a game that has not started off the waiting queue (its partner has
    /// arrived, or it is ending).
    pub fn stop_waiting(&self, id: GameId) {
        self.state.lock().waiting.retain(|g| *g != id);
    }

    /// Frees `conn`'s seat in game `id` (if it still sits there), e.g. a partner who
    /// left before the start.
    pub fn unseat(&self, id: GameId, conn: ConnId) {
        let mut state = self.state.lock();
        if state.clients.get(&conn).and_then(|c| c.game) == Some(id) {
            set_game(&mut state, conn, None);
        }
    }

    /// Removes an ended game: nobody sits in it any more, and its summary is kept
    /// for the console. After this no event can reach its inbox.
    pub fn close_game(&self, id: GameId) {
        self.remove_game(id);
    }

    /// Removes a game whose loop died, returning the connections that sat in it.
    pub fn abandon(&self, id: GameId) -> Vec<Arc<Connection>> {
        self.remove_game(id)
    }

    /// The one way a game leaves the lobby: off the queue and the registry, its
    /// players free, its summary (marked finished) among the finished games kept.
    fn remove_game(&self, id: GameId) -> Vec<Arc<Connection>> {
        let mut state = self.state.lock();
        state.waiting.retain(|g| *g != id);
        if let Some(entry) = state.games.remove(&id) {
            let mut summary = entry.summary.lock().clone();
            summary.status = GameStatus::Finished;
            state.finished.push_back(summary);
            while state.finished.len() > FINISHED_KEPT {
                state.finished.pop_front();
            }
            self.counters.games_finished.fetch_add(1, Ordering::Relaxed);
        }
        let now = Instant::now();
        state
            .clients
            .values_mut()
            .filter(|entry| entry.game == Some(id))
            .map(|entry| {
                entry.game = None;
                entry.free_since = now;
                Arc::clone(&entry.conn)
            })
            .collect()
    }

    /// Forgets a closed connection and frees its name. Returns its game's inbox, so
    /// the caller can tell the game it left.
    pub fn disconnect(&self, conn: ConnId) -> Option<Sender<GameEvent>> {
        let mut state = self.state.lock();
        let entry = state.clients.remove(&conn)?;
        if let Some(name) = &entry.name {
            state.taken_names.remove(name);
        }
        let game = entry.game?;
        Some(state.games.get(&game)?.inbox.clone())
    }

    /// Every connected client: connection, granted name, game.
    pub fn clients(&self) -> Vec<(Arc<Connection>, Option<String>, Option<GameId>)> {
        let state = self.state.lock();
        let mut clients: Vec<_> = state
            .clients
            .values()
            .map(|e| (Arc::clone(&e.conn), e.name.clone(), e.game))
            .collect();
        clients.sort_by_key(|(conn, _, _)| conn.id);
        clients
    }

    /// Summaries of live games (by id), then of the finished ones kept.
    pub fn games(&self) -> (Vec<GameSummary>, Vec<GameSummary>) {
        let state = self.state.lock();
        let live = state
            .games
            .values()
            .map(|g| g.summary.lock().clone())
            .collect();
        let finished = state.finished.iter().cloned().collect();
        (live, finished)
    }

    /// The inbox of live game `id`.
    pub fn game_inbox(&self, id: GameId) -> Option<Sender<GameEvent>> {
        self.state.lock().games.get(&id).map(|g| g.inbox.clone())
    }

    /// Takes the game loop threads started so far, to join them.
    pub fn take_game_threads(&self) -> Vec<JoinHandle<()>> {
        std::mem::take(&mut self.state.lock().threads)
    }

    /// Every connection, to close them at shutdown.
    pub fn connections(&self) -> Vec<Arc<Connection>> {
        self.state
            .lock()
            .clients
            .values()
            .map(|e| Arc::clone(&e.conn))
            .collect()
    }
}

/// A game opened under the lock, whose loop is started after it is released.
struct NewGame {
    id: GameId,
    events: crossbeam_channel::Receiver<GameEvent>,
    summary: Arc<Mutex<GameSummary>>,
}

fn set_game(state: &mut LobbyState, conn: ConnId, game: Option<GameId>) {
    if let Some(entry) = state.clients.get_mut(&conn) {
        if game.is_none() && entry.game.is_some() {
            entry.free_since = Instant::now();
        }
        entry.game = game;
    }
}

/// Grants `wanted` if no other client holds it, else the first free `wanted_N`.
fn grant_name(state: &mut LobbyState, conn: &Connection, wanted: &str) -> String {
    let previous = state.clients.get_mut(&conn.id).and_then(|e| e.name.take());
    if let Some(previous) = previous {
        state.taken_names.remove(&previous);
    }
    let granted = if state.taken_names.contains(wanted) {
        (2u64..)
            .map(|n| format!("{wanted}_{n}"))
            .find(|candidate| !state.taken_names.contains(candidate))
            .unwrap_or_else(|| format!("{wanted}_{}", conn.id.0))
    } else {
        wanted.to_string()
    };
    state.taken_names.insert(granted.clone());
    if let Some(entry) = state.clients.get_mut(&conn.id) {
        entry.name = Some(granted.clone());
    }
    granted
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::OutboxLimits;
    use crate::net::flusher::Flusher;
    use std::net::{TcpListener, TcpStream};

    #[test]
    fn a_handshake_during_shutdown_is_refused_with_a_reason() {
        let shutdown = Shutdown::new();
        let lobby = Lobby::new(Arc::new(Settings::default()), shutdown.clone());
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
        let _client = TcpStream::connect(listener.local_addr().expect("addr")).expect("connect");
        let (socket, peer) = listener.accept().expect("accept");
        let conn = Connection::new(
            ConnId(1),
            socket,
            peer,
            OutboxLimits::default(),
            Arc::new(Flusher::default()),
        )
        .expect("connection");
        lobby.connect(&conn);
        shutdown.trigger();
        let refused = lobby.handshake(&conn, "Ann").expect_err("refused");
        assert_eq!(refused, HandshakeRefused::ShuttingDown);
        assert_eq!(refused.to_string(), "The server is shutting down");
        assert_eq!(lobby.games().0.len(), 0, "no game was opened");
    }
}
