//! Matchmaking for GO!: who is connected under which granted name, which games wait
//! for a partner, and which game each client sits in. All of it under one
//! `parking_lot::Mutex`, held only for bookkeeping: never across socket I/O or a
//! blocking call.
//!
//! The registry answers a HANDSHAKE itself (ACKNOWLEDGE_HANDSHAKE, and REQUEST_CONFIG to
//! the leader of a new game): that answer would otherwise wait for a hand-off to the
//! game's thread, the costliest step of pairing. Every later message is sent by the
//! game loops, in the order their inboxes receive events. So that no line of the game
//! overtakes the answer, the client's output is held (`Connection::hold_output`)
//! from before the game hears of the player until the answer is sent, after the
//! registry's lock is released.
//!
//! The registry starts game loops and serves them as their [`Matchmaker`]: the loops know it
//! only through that trait. The practice bot is matched here too: it takes the free
//! seat of a waiting game under a name from the same registry as the clients'.
//!
//! `parking_lot` locks do not poison: a panic while the lock is held (none is
//! reachable: the code under it only touches maps) would leave the maps as they were
//! at the panic, which is still consistent enough for the other games to go on.

use super::event::{BotRefused, GameEvent, Player};
use super::protocol::{ClientCommand, GameId, ParseError, ServerMessage};
use super::questions::Questions;
use super::report;
use super::route::Route;
use super::summary::{GameStatus, GameSummary};
use super::table::{self, Arranged, Matchmaker};
use crate::cards::Mistake;
use crate::engine::bot::Level;
use crate::front::Front;
use crate::frontend::{Context, FINISHED_KEPT, card, names};
use crate::net::{
    Awaited, CloseReason, ConnId, Connection, Depth, Inbox, Incoming, OutputHold, Refused, Ticket,
};
use crate::workers::Finished;
use parking_lot::Mutex;
use std::collections::{BTreeMap, HashMap, HashSet, VecDeque};
use std::sync::atomic::Ordering;
use std::sync::{Arc, Weak};

pub mod arena;

/// One connected client, as the registry knows it.
pub struct ClientEntry {
    /// Its connection: what a kick closes and a HANDSHAKE's answer is sent on.
    pub conn: Arc<Connection>,
    /// The name granted at its last handshake, if any.
    pub name: Option<String>,
    /// The game it sits in, shared with its connection thread.
    pub route: Arc<Route>,
    /// What it has been asked and not answered, shared with the game it sits in.
    pub questions: Arc<Questions>,
}

/// The bound of a game's inbox. A game hears from its two players, each with at most
/// one line (or its departure) in flight at a time (see `net::handoff`), and from the
/// registry and the console now and then: it never holds more than a handful.
pub const GAME_INBOX_BOUND: usize = 16;

/// The close reason of a client that sent EXIT.
pub const EXIT: CloseReason = CloseReason::LeftWith("EXIT");

/// A live game: where to send its events and what the console may read of it.
pub struct GameEntry {
    /// The game loop's inbox.
    pub inbox: Inbox<GameEvent>,
    /// Published by the game loop after each change.
    pub summary: Arc<Mutex<GameSummary>>,
}

#[derive(Default)]
struct RegistryState {
    clients: HashMap<ConnId, ClientEntry>,
    /// Names granted to connected clients and to the bots in games.
    taken_names: HashSet<String>,
    /// The name of the practice bot seated in each game that has one.
    bots: HashMap<GameId, String>,
    games: BTreeMap<GameId, GameEntry>,
    /// Games with a leader and a free seat, oldest first.
    waiting: VecDeque<GameId>,
    finished: VecDeque<GameSummary>,
    next_game_id: u32,
    /// The game loops started, waited for at shutdown.
    loops: Vec<Finished>,
    /// The arena (`--arena`): the players waiting for a round; `None` without it.
    arena: Option<arena::Arena>,
}

/// The matchmaking registry, shared by every connection thread and game loop.
pub struct Registry {
    state: Mutex<RegistryState>,
    /// Itself, for the game loops it starts (they hold it as their `Matchmaker`).
    me: Weak<Registry>,
    /// What the games it starts share: settings, shutdown, counters.
    pub context: Context,
    /// How deep the games' inboxes have been.
    pub depth: Arc<Depth>,
}

/// Why a HANDSHAKE was refused.
#[derive(Debug, PartialEq, Eq)]
pub enum HandshakeRefused {
    /// The client already sits in a game.
    AlreadyInGame { game: GameId, name: String },
    /// The client already waits in the arena.
    AlreadyWaiting { name: String },
    /// The server is shutting down.
    ShuttingDown,
    /// The connection is closed (a line it sent before its EXIT, or before it went):
    /// there is nobody to seat.
    Gone,
}

impl std::fmt::Display for HandshakeRefused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            HandshakeRefused::AlreadyInGame { game, name } => write!(
                f,
                "You are already {name} in game {game}: HANDSHAKE is accepted only when you are not in a game"
            ),
            HandshakeRefused::AlreadyWaiting { name } => write!(
                f,
                "You are already {name}, waiting in the arena: the next round pairs you (ACKNOWLEDGE_HANDSHAKE, then ACKNOWLEDGE_CONFIG)"
            ),
            HandshakeRefused::ShuttingDown => write!(f, "The server is shutting down"),
            HandshakeRefused::Gone => write!(f, "The connection is closed"),
        }
    }
}

impl HandshakeRefused {
    /// The kind of mistake it is on the client's card; `None` when it is not the
    /// client's doing.
    pub fn mistake(&self) -> Option<Mistake> {
        match self {
            HandshakeRefused::AlreadyInGame { .. } | HandshakeRefused::AlreadyWaiting { .. } => {
                Some(Mistake::SecondHandshake)
            }
            HandshakeRefused::ShuttingDown | HandshakeRefused::Gone => None,
        }
    }
}

impl Registry {
    /// An empty registry whose games share `context`.
    pub fn new(context: Context) -> Arc<Registry> {
        Arc::new_cyclic(|me| Registry {
            state: Mutex::new(RegistryState {
                next_game_id: 1,
                arena: context.settings.arena.map(|settings| {
                    arena::Arena::new(settings, context.settings.game_rng("arena", 0))
                }),
                ..RegistryState::default()
            }),
            me: me.clone(),
            context,
            depth: Depth::new(GAME_INBOX_BOUND),
        })
    }

    /// Registers a new connection (not yet identified). Returns its route, which its
    /// connection thread keeps: every line goes through it.
    pub fn connect(&self, conn: &Arc<Connection>) -> Arc<Route> {
        let route = Arc::new(Route::new());
        let mut state = self.state.lock();
        state.clients.insert(
            conn.id,
            ClientEntry {
                conn: Arc::clone(conn),
                name: None,
                route: Arc::clone(&route),
                questions: Arc::new(Questions::new()),
            },
        );
        route
    }

    /// Grants `wanted` (or `wanted_2`, `wanted_3`, ... if it is taken) and seats the
    /// client: in the oldest waiting game, or as the leader of a new one; then tells
    /// it where (see `Registry::announce`).
    ///
    /// # Errors
    ///
    /// When the client already sits in a game, or the server is stopping.
    pub fn handshake(&self, conn: &Arc<Connection>, wanted: &str) -> Result<(), HandshakeRefused> {
        let output;
        let (player, seated) = {
            let mut state = self.state.lock();
            // Under the lock: a shutdown is either seen here or sees this client seated.
            if self.context.shutdown.is_triggered() {
                return Err(HandshakeRefused::ShuttingDown);
            }
            // Under the lock, so a disconnect is either wholly before (then nothing is
            // seated) or wholly after (then its Left reaches the game seated here).
            let Some(entry) = state.clients.get(&conn.id) else {
                return Err(HandshakeRefused::Gone);
            };
            if conn.is_closed() {
                return Err(HandshakeRefused::Gone);
            }
            if let (Some(game), Some(name)) = (entry.route.game(), &entry.name) {
                return Err(HandshakeRefused::AlreadyInGame {
                    game,
                    name: name.clone(),
                });
            }
            if let (true, Some(name)) = (entry.route.is_waiting(), &entry.name) {
                return Err(HandshakeRefused::AlreadyWaiting { name: name.clone() });
            }
            let questions = Arc::clone(&entry.questions);
            // A HANDSHAKE moves the client on: no earlier question is waited for.
            questions.forget();
            let name = grant_name(&mut state, conn, wanted);
            conn.set_name(&name);
            let player = Player {
                conn: Arc::clone(conn),
                name,
                questions,
            };
            output = conn.hold_output();
            let seated = self.seat_locked(&mut state, player.clone());
            (player, seated)
        };
        // Before the answer: whoever sees ACKNOWLEDGE_HANDSHAKE finds the card, and
        // the client's next line (read on this thread only after this) counts there.
        card::named(&self.context.cards, conn, Front::Go, &player.name);
        self.announce(output, &player, seated);
        Ok(())
    }

    /// Tells a player where [`Registry::seat_locked`] seated it: ACKNOWLEDGE_HANDSHAKE,
    /// and REQUEST_CONFIG to the leader of a new game, whose loop is then started.
    /// `output` was taken before the game could hear of the player, so these lines
    /// come before anything the game sends it.
    fn announce(&self, mut output: OutputHold<'_>, player: &Player, seated: Option<Seated>) {
        let Some(Seated { game, new_game }) = seated else {
            return;
        };
        let is_leader = new_game.is_some();
        let _ = output.send(&ServerMessage::AcknowledgeHandshake {
            game_id: game,
            is_leader,
        });
        if is_leader {
            let max = self.context.settings.max_board_size;
            player.questions.ask_config();
            let _ = output.send(&ServerMessage::request_config(game, max));
        }
        drop(output);
        player.conn.accepted();
        self.start_thread(new_game);
    }

    /// Has a line of the client on `route` answered: by its game if it sits in one,
    /// else here, on the client's own thread. Returns what the answer is awaited by:
    /// the client's next line is handed over only once it has come (see
    /// `net::handoff`).
    pub fn dispatch_on(
        &self,
        route: &Route,
        conn: &Arc<Connection>,
        line: Incoming,
        command: Result<ClientCommand, ParseError>,
    ) -> Awaited {
        let (ticket, awaited) = crate::net::ticket();
        self.deliver(route, conn, line, command, ticket);
        awaited
    }

    /// Hands a line, with its ticket, to the game the client sits in, or answers it
    /// here when it sits in none.
    fn deliver(
        &self,
        route: &Route,
        conn: &Arc<Connection>,
        line: Incoming,
        command: Result<ClientCommand, ParseError>,
        ticket: Ticket,
    ) {
        if let Ok(ClientCommand::Exit { game_id, player }) = &command {
            self.exiting(conn, *game_id, player);
        }
        let event = GameEvent::Line {
            from: Arc::clone(conn),
            line,
            command,
            ticket,
        };
        match route.hand_over(event) {
            Ok(()) => {}
            Err(Refused::Gone(GameEvent::Line {
                line,
                command,
                ticket: _answered_here,
                ..
            })) => self.answer_unseated(conn, &line, command),
            // Its game took nothing for the whole bound (logged): stuck. The line
            // cannot be answered in order any more.
            Err(_) => conn.close(CloseReason::NotAnswered(crate::net::handoff::ANSWER_WAIT)),
        }
    }

    /// The route of connection `conn`, while it is connected.
    fn route(&self, conn: ConnId) -> Option<Arc<Route>> {
        let state = self.state.lock();
        state
            .clients
            .get(&conn)
            .map(|entry| Arc::clone(&entry.route))
    }

    /// Whether `command` answers a question the client was asked in a game that has
    /// ended or that it has left since (see `questions`): such an answer is taken
    /// quietly.
    fn answers_a_question(
        &self,
        conn: ConnId,
        command: &Result<ClientCommand, ParseError>,
    ) -> bool {
        let questions = {
            let state = self.state.lock();
            match state.clients.get(&conn) {
                Some(entry) => Arc::clone(&entry.questions),
                None => return false,
            }
        };
        match command {
            Ok(ClientCommand::SetConfig { .. }) => questions.answer_config(),
            Ok(ClientCommand::SetRematch { .. }) => questions.answer_rematch(),
            _ => false,
        }
    }

    /// Answers a line from a client that sits in no game: HANDSHAKE seats it, EXIT
    /// closes its connection, an answer to a question its last game asked is taken
    /// quietly, anything else is refused with what to do instead.
    pub fn answer_unseated(
        &self,
        conn: &Arc<Connection>,
        line: &Incoming,
        command: Result<ClientCommand, ParseError>,
    ) {
        if self.answers_a_question(conn.id, &command) {
            log::debug!(
                "{}: its answer crossed the end of the question: taken quietly",
                conn.label()
            );
            conn.accepted();
            return;
        }
        let (mistake, reason) = match command {
            Err(error) => (error.mistake(), error.to_string()),
            Ok(ClientCommand::SetConfig { .. }) if self.context.settings.arena.is_some() => (
                Mistake::ArenaSetsTheGame,
                arena::sets_the_game(&self.context.settings),
            ),
            Ok(ClientCommand::Handshake { name }) => match self.handshake(conn, &name) {
                Ok(()) => return,
                Err(refused) => match refused.mistake() {
                    Some(mistake) => (mistake, refused.to_string()),
                    // Not the client's doing: said, not counted.
                    None => {
                        let _ = conn.send(&ServerMessage::UnknownCommand {
                            reason: refused.to_string(),
                        });
                        return;
                    }
                },
            },
            Ok(ClientCommand::Exit { .. }) => {
                conn.accepted();
                conn.close(EXIT);
                return;
            }
            Ok(other) if self.route(conn.id).is_some_and(|r| r.is_waiting()) => (
                Mistake::WaitingForRound,
                format!(
                    "You are waiting in the arena for the next round, so {} is not possible yet: the round that pairs you sends ACKNOWLEDGE_HANDSHAKE, then ACKNOWLEDGE_CONFIG",
                    other.keyword()
                ),
            ),
            Ok(other) => (
                // After a game the client has a name: it is between games, not early.
                if card::of(conn).is_some() {
                    Mistake::NotInGame
                } else {
                    Mistake::BeforeHandshake
                },
                format!(
                    "You are not in a game, so {} is not possible: send HANDSHAKE with your name first",
                    other.keyword()
                ),
            ),
        };
        let max_bytes = self.context.settings.lines.max_line_bytes;
        card::refuse(
            conn,
            Front::Go,
            mistake,
            card::offending(line, max_bytes),
            &ServerMessage::UnknownCommand { reason },
        );
    }

    /// Seats the practice bot of `level` in game `id` if it waits for a partner; see
    /// [`Matchmaker::seat_bot`].
    ///
    /// # Errors
    ///
    /// Why not: no such game, ended, both seats taken, shutting down.
    pub fn seat_bot(&self, id: GameId, level: Level) -> Result<String, BotRefused> {
        if self.context.shutdown.is_triggered() {
            return Err(BotRefused::ShuttingDown);
        }
        let mut state = self.state.lock();
        let Some(entry) = state.games.get(&id) else {
            return Err(match state.finished.iter().rev().find(|g| g.id == id) {
                Some(g) => BotRefused::Ended {
                    game: id,
                    result: g.result.clone().unwrap_or_else(|| g.status.to_string()),
                },
                None => BotRefused::NoSuchGame(id),
            });
        };
        // Only a game on the queue has a free seat: whoever takes it off the queue
        // (a client's handshake or the bot) is the one seated there.
        if !state.waiting.contains(&id) {
            let players = report::players_of(&entry.summary.lock());
            return Err(BotRefused::Full { game: id, players });
        }
        let inbox = entry.inbox.clone();
        let name = names::grant(&names::bot_name(level), |name| {
            state.taken_names.contains(name)
        });
        if inbox.post(GameEvent::SeatBot(name.clone(), level)).is_err() {
            // Its loop has just ended; it is about to leave the registry.
            return Err(BotRefused::Ended {
                game: id,
                result: "just now".into(),
            });
        }
        state.waiting.retain(|g| *g != id);
        state.taken_names.insert(name.clone());
        state.bots.insert(id, name.clone());
        Ok(name)
    }

    /// The practice bots seated in games: name and game.
    pub fn bots(&self) -> Vec<(String, GameId)> {
        let state = self.state.lock();
        let mut bots: Vec<(String, GameId)> = state
            .bots
            .iter()
            .map(|(game, name)| (name.clone(), *game))
            .collect();
        bots.sort_by_key(|(_, game)| *game);
        bots
    }

    /// An EXIT that its game will accept (its own game id and name) is about to reach
    /// that game: if the game waits for a partner, nobody more is matched to it. A
    /// partner matched before is seated first and then matched anew when the leader
    /// leaves, with a fresh ACKNOWLEDGE_HANDSHAKE, as the README's GO! choices say.
    fn exiting(&self, conn: &Connection, game: GameId, name: &str) {
        let mut state = self.state.lock();
        let Some(entry) = state.clients.get(&conn.id) else {
            return;
        };
        if entry.route.game() == Some(game) && entry.name.as_deref() == Some(name) {
            state.waiting.retain(|g| *g != game);
        }
    }

    /// Kicks a client: a seated player loses its game (and is told so) before its
    /// connection is closed; any other client is just disconnected. A game it leads
    /// while waiting for a partner is matched to nobody more.
    pub fn kick(&self, conn: &Arc<Connection>) {
        let route = {
            let mut state = self.state.lock();
            let route = state.clients.get(&conn.id).map(|e| Arc::clone(&e.route));
            if let Some(game) = route.as_ref().and_then(|r| r.game()) {
                state.waiting.retain(|g| *g != game);
            }
            route
        };
        let kicked =
            route.is_some_and(|route| route.post(GameEvent::Kick(Arc::clone(conn))).is_ok());
        if !kicked {
            conn.close(CloseReason::Kicked);
        }
    }

    /// Seats a player: joins the oldest waiting game, or (when none waits) opens a
    /// new game with it as leader. Returns where, with the new game's loop to start
    /// if one was opened. A player whose connection is gone is seated nowhere: its
    /// disconnect has been (or is being) told to the game it left.
    /// During shutdown nobody is seated: every connection is about to be closed.
    fn seat_locked(&self, state: &mut RegistryState, player: Player) -> Option<Seated> {
        let conn_id = player.conn.id;
        if !is_connected(state, &player.conn) || self.context.shutdown.is_triggered() {
            return None;
        }
        // In the arena nobody leads: the player waits for a round to pair it.
        if state.arena.is_some() {
            arena::wait(state, player);
            return None;
        }
        if let Some(id) = join_oldest_waiting(state, &player) {
            set_game(state, conn_id, Some(id));
            return Some(Seated {
                game: id,
                new_game: None,
            });
        }
        let id = GameId(state.next_game_id);
        state.next_game_id += 1;
        let (inbox, events) = crate::net::inbox(&self.depth, &self.context.shutdown);
        let summary = Arc::new(Mutex::new(GameSummary::new(id)));
        // The loop is not running yet; the event waits in its (empty) inbox.
        let _ = inbox.post(GameEvent::Join(player));
        state.games.insert(
            id,
            GameEntry {
                inbox,
                summary: Arc::clone(&summary),
            },
        );
        state.waiting.push_back(id);
        set_game(state, conn_id, Some(id));
        Some(Seated {
            game: id,
            new_game: Some(NewGame {
                id,
                events,
                summary,
                arranged: None,
            }),
        })
    }

    fn start_thread(&self, new_game: Option<NewGame>) {
        let Some(NewGame {
            id,
            events,
            summary,
            arranged,
        }) = new_game
        else {
            return;
        };
        let Some(me) = self.me.upgrade() else { return };
        let matchmaker: Arc<dyn Matchmaker> = me;
        let context = self.context.clone();
        match table::spawn(id, matchmaker, context, (events, summary), arranged) {
            Ok(handle) => {
                let mut state = self.state.lock();
                state.loops.retain(|f| !f.is_finished());
                state.loops.push(handle);
            }
            Err(e) => {
                log::error!("could not start a thread for game {id}: {e}");
                for conn in self.remove_game(id) {
                    conn.close(CloseReason::Because(
                        "the server could not start a game thread".into(),
                    ));
                }
            }
        }
    }

    /// The one way a game leaves the registry: off the queue and the registry, its
    /// players free, its summary (marked finished) among the finished games kept.
    /// Returns the connections that sat there.
    fn remove_game(&self, id: GameId) -> Vec<Arc<Connection>> {
        let mut state = self.state.lock();
        state.waiting.retain(|g| *g != id);
        free_bot(&mut state, id);
        if let Some(entry) = state.games.remove(&id) {
            let mut summary = entry.summary.lock().clone();
            summary.status = GameStatus::Finished;
            state.finished.push_back(summary);
            while state.finished.len() > FINISHED_KEPT {
                state.finished.pop_front();
            }
            self.context
                .counters
                .games_finished
                .fetch_add(1, Ordering::Relaxed);
        }
        state
            .clients
            .values()
            .filter(|entry| entry.route.game() == Some(id))
            .map(|entry| {
                entry.route.set(None);
                Arc::clone(&entry.conn)
            })
            .collect()
    }

    /// Forgets a closed connection and frees its name. Returns its game's inbox, so
    /// the caller can tell the game it left.
    pub fn disconnect(&self, conn: ConnId) -> Option<Inbox<GameEvent>> {
        let mut state = self.state.lock();
        let entry = state.clients.remove(&conn)?;
        if let Some(name) = &entry.name {
            state.taken_names.remove(name);
        }
        if let Some(arena) = state.arena.as_mut() {
            arena.leave(conn);
        }
        let game = entry.route.game()?;
        // A waiting game's one client is its leader: with it gone, nobody is matched
        // to that game any more (the game ends when it hears of the departure).
        state.waiting.retain(|g| *g != game);
        Some(state.games.get(&game)?.inbox.clone())
    }

    /// Every connected client: connection, granted name, game.
    pub fn clients(&self) -> Vec<(Arc<Connection>, Option<String>, Option<GameId>)> {
        let state = self.state.lock();
        let mut clients: Vec<_> = state
            .clients
            .values()
            .map(|e| (Arc::clone(&e.conn), e.name.clone(), e.route.game()))
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
    pub fn game_inbox(&self, id: GameId) -> Option<Inbox<GameEvent>> {
        self.state.lock().games.get(&id).map(|g| g.inbox.clone())
    }

    /// Takes the game loops started so far, to wait for them.
    pub fn take_loops(&self) -> Vec<Finished> {
        std::mem::take(&mut self.state.lock().loops)
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

impl Matchmaker for Registry {
    /// Seats again a player (who keeps its name) whose game broke up before it
    /// started, e.g. because its leader left: like a handshake, it joins the oldest
    /// waiting game, or leads a new one when none waits. Nobody is stranded.
    fn reseat(&self, player: Player) {
        let output;
        let seated = {
            let mut state = self.state.lock();
            output = player.conn.hold_output();
            self.seat_locked(&mut state, player.clone())
        };
        self.announce(output, &player, seated);
    }

    /// A leader whose partner left before the start: if another game waits for a
    /// partner, the leader joins it (its own game ends: returns true); else its game
    /// goes back to the head of the queue (returns false).
    fn requeue(&self, id: GameId, leader: &Player) -> bool {
        let output;
        let joined = {
            let mut state = self.state.lock();
            state.waiting.retain(|g| *g != id);
            // The partner that left may have been the bot.
            free_bot(&mut state, id);
            if !is_connected(&state, &leader.conn) {
                // The leader is gone too: this game ends, and nobody waits in it.
                return true;
            }
            if state.arena.is_some() {
                // In the arena the player waits for the next round; this game ends.
                set_game(&mut state, leader.conn.id, None);
                arena::wait(&mut state, leader.clone());
                return true;
            }
            output = leader.conn.hold_output();
            // During shutdown the leader stays where it is: every game is ending.
            let joined = if self.context.shutdown.is_triggered() {
                None
            } else {
                join_oldest_waiting(&mut state, leader)
            };
            if joined.is_none() {
                state.waiting.push_front(id);
            }
            set_game(&mut state, leader.conn.id, Some(joined.unwrap_or(id)));
            joined
        };
        let Some(other) = joined else {
            return false;
        };
        let seated = Seated {
            game: other,
            new_game: None,
        };
        self.announce(output, leader, Some(seated));
        true
    }

    /// Takes a game that has not started off the waiting queue (its partner has
    /// arrived, or it is ending).
    fn stop_waiting(&self, id: GameId) {
        self.state.lock().waiting.retain(|g| *g != id);
    }

    fn seat_bot(&self, id: GameId, level: Level) -> Result<String, BotRefused> {
        Registry::seat_bot(self, id, level)
    }

    /// Frees `conn`'s seat in game `id` (if it still sits there), e.g. a partner who
    /// left before the start.
    fn unseat(&self, id: GameId, conn: ConnId) {
        let mut state = self.state.lock();
        if state.clients.get(&conn).and_then(|c| c.route.game()) == Some(id) {
            set_game(&mut state, conn, None);
        }
    }

    /// Removes an ended game: nobody sits in it any more, and its summary is kept
    /// for the console. No route leads to it any more: its players' next lines go
    /// where they are now.
    fn close_game(&self, id: GameId) -> Vec<Arc<Connection>> {
        self.remove_game(id)
    }

    /// A line that reached a game after it ended: handled where its client is now, by
    /// the game it sits in now or here (never back into the ended game). Its ticket
    /// goes with it: the client still waits for this line's answer.
    fn redispatch(
        &self,
        from: &Arc<Connection>,
        line: Incoming,
        command: Result<ClientCommand, ParseError>,
        ticket: Ticket,
    ) {
        match self.route(from.id) {
            Some(route) => self.deliver(&route, from, line, command, ticket),
            // Gone meanwhile: nobody to answer.
            None => drop(ticket),
        }
    }
}

/// Where a player was seated under the lock, to tell it after the lock is released.
struct Seated {
    game: GameId,
    /// The game's loop to start, when the player opened it (and leads it).
    new_game: Option<NewGame>,
}

/// A game opened under the lock, whose loop is started after it is released.
struct NewGame {
    id: GameId,
    events: crossbeam_channel::Receiver<GameEvent>,
    summary: Arc<Mutex<GameSummary>>,
    /// Set for a game the arena arranged.
    arranged: Option<Arranged>,
}

/// Sends `player` to the oldest waiting game whose loop still runs, taking that game
/// off the queue; returns it.
fn join_oldest_waiting(state: &mut RegistryState, player: &Player) -> Option<GameId> {
    while let Some(game) = state.waiting.pop_front() {
        let sent = state
            .games
            .get(&game)
            .is_some_and(|entry| entry.inbox.post(GameEvent::Join(player.clone())).is_ok());
        if sent {
            return Some(game);
        }
    }
    None
}

/// Seats `conn` in `game` (routes its lines to that game's inbox), or frees it.
fn set_game(state: &mut RegistryState, conn: ConnId, game: Option<GameId>) {
    let Some(entry) = state.clients.get(&conn) else {
        return;
    };
    let seat = game.and_then(|id| Some((id, state.games.get(&id)?.inbox.clone())));
    entry.route.set(seat);
}

/// Whether `conn` is still connected: the registry knows it and the server has not closed
/// it (an EXIT, a kick, a stalled output).
fn is_connected(state: &RegistryState, conn: &Connection) -> bool {
    state.clients.contains_key(&conn.id) && !conn.is_closed()
}

/// Frees the name of the bot seated in game `id`, if any.
fn free_bot(state: &mut RegistryState, id: GameId) {
    if let Some(name) = state.bots.remove(&id) {
        state.taken_names.remove(&name);
    }
}

/// Grants `wanted` if no other client holds it, else the first free `wanted_N`.
fn grant_name(state: &mut RegistryState, conn: &Connection, wanted: &str) -> String {
    let previous = state.clients.get_mut(&conn.id).and_then(|e| e.name.take());
    if let Some(previous) = previous {
        state.taken_names.remove(&previous);
    }
    let granted = names::grant(wanted, |name| state.taken_names.contains(name));
    state.taken_names.insert(granted.clone());
    if let Some(entry) = state.clients.get_mut(&conn.id) {
        entry.name = Some(granted.clone());
    }
    granted
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frontend::go::protocol::command;
    use crate::results::Ending;
    use crate::settings::Settings;
    use crate::shutdown::Shutdown;
    use std::io::{BufRead, BufReader};
    use std::net::TcpStream;
    use std::time::{Duration, Instant};

    #[test]
    fn a_handshake_during_shutdown_is_refused_with_a_reason() {
        let shutdown = Shutdown::new();
        let registry = Registry::new(Context::standalone(Settings::default(), shutdown.clone()));
        let (_client, conn) = registry.context.connections.loopback();
        registry.connect(&conn);
        shutdown.trigger();
        let refused = registry.handshake(&conn, "Ann").expect_err("refused");
        assert_eq!(refused, HandshakeRefused::ShuttingDown);
        assert_eq!(refused.to_string(), "The server is shutting down");
        assert_eq!(registry.games().0.len(), 0, "no game was opened");
    }

    /// A client's socket, and its connection and route in the registry.
    type TestClient = (BufReader<TcpStream>, Arc<Connection>, Arc<Route>);

    /// A client socket and the server side of it, registered in the registry.
    fn client(registry: &Arc<Registry>) -> TestClient {
        let (socket, conn) = registry.context.connections.loopback();
        let route = registry.connect(&conn);
        (BufReader::new(socket), conn, route)
    }

    fn line(reader: &mut BufReader<TcpStream>) -> String {
        let mut line = String::new();
        reader.read_line(&mut line).expect("a line");
        line.trim_end().to_string()
    }

    /// A registry of default settings where Ann leads game 1 and Bob has joined it:
    /// each one's socket, connection and route.
    fn ann_and_bob_in_game_one() -> (Arc<Registry>, [TestClient; 2]) {
        let registry = Registry::new(Context::standalone(Settings::default(), Shutdown::new()));
        let (mut ann, ann_conn, ann_route) = client(&registry);
        let (mut bob, bob_conn, bob_route) = client(&registry);
        assert!(registry.handshake(&ann_conn, "Ann").is_ok());
        assert_eq!(line(&mut ann), "ACKNOWLEDGE_HANDSHAKE+1+1");
        assert!(line(&mut ann).starts_with("REQUEST_CONFIG+"));
        assert!(registry.handshake(&bob_conn, "Bob").is_ok());
        assert_eq!(line(&mut bob), "ACKNOWLEDGE_HANDSHAKE+1+0");
        (
            registry,
            [(ann, ann_conn, ann_route), (bob, bob_conn, bob_route)],
        )
    }

    #[test]
    fn a_panic_in_a_game_loop_ends_that_game_only() {
        let (registry, [(mut ann, ann_conn, ann_route), (mut bob, _, _)]) =
            ann_and_bob_in_game_one();

        let inbox = registry.game_inbox(GameId(1)).expect("game 1 is live");
        assert!(inbox.post(GameEvent::Panic).is_ok());
        let told = "GAME_FINISHED+1++0;0+Internal server error: the game was stopped";
        assert_eq!(line(&mut ann), told);
        assert_eq!(line(&mut bob), told);
        // Both are free again, and the registry still matches players.
        assert!(ann_route.free_since().is_some());
        assert!(registry.handshake(&ann_conn, "Ann").is_ok());
        assert_eq!(line(&mut ann), "ACKNOWLEDGE_HANDSHAKE+2+1");
    }

    /// A bug in the loop of a game in play ends it as any other ending does: the
    /// players get GAME_FINISHED with the board's score and no winner, and the round
    /// is filed among the results as `error`, not rated.
    #[test]
    fn a_panic_in_a_game_in_play_files_it_as_an_error() {
        let (registry, [(mut ann, ann_conn, ann_route), (mut bob, _, _)]) =
            ann_and_bob_in_game_one();
        let _ = registry
            .dispatch_on(
                &ann_route,
                &ann_conn,
                Incoming::Line("SET_CONFIG+1+1+5".into()),
                command::parse("SET_CONFIG+1+1+5"),
            )
            .wait(&ann_conn);
        assert_eq!(
            line(&mut ann),
            "ACKNOWLEDGE_CONFIG+Ann+1+5+PLAYING;1;0000000000000000000000000+Bob"
        );
        assert_eq!(
            line(&mut bob),
            "ACKNOWLEDGE_CONFIG+Bob+2+5+PLAYING;1;0000000000000000000000000+Ann"
        );
        let _ = registry
            .dispatch_on(
                &ann_route,
                &ann_conn,
                Incoming::Line("MOVE+1+Ann+12".into()),
                command::parse("MOVE+1+Ann+12"),
            )
            .wait(&ann_conn);
        let moved = "ACKNOWLEDGE_MOVE+1+12;1+PLAYING;2;0000000000001000000000000";
        assert_eq!(line(&mut ann), moved);
        assert_eq!(line(&mut bob), moved);

        let inbox = registry.game_inbox(GameId(1)).expect("game 1 is live");
        assert!(inbox.post(GameEvent::Panic).is_ok());
        let told = "GAME_FINISHED+1++25;0+Internal server error: the game was stopped";
        assert_eq!(line(&mut ann), told);
        assert_eq!(line(&mut bob), told);
        let results = registry.context.results.recent(10);
        let [result] = results.as_slice() else {
            panic!("one result was expected: {results:?}");
        };
        assert_eq!(result.ending, Ending::Error);
        assert_eq!(result.winner, None);
        assert_eq!(result.moves, 1);
        assert!(!result.rated, "an error is never rated");
        // The loop frees its players once the round is filed (a line sent meanwhile
        // is answered where it belongs then, as after any ending).
        let deadline = Instant::now() + Duration::from_secs(20);
        while ann_route.free_since().is_none() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(10));
        }
        assert!(ann_route.free_since().is_some(), "Ann is free again");
    }
}
