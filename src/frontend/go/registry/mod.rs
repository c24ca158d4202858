//! GO!'s registry: who is connected under which granted name, which games wait for a
//! partner, and which game each client sits in. All of it is one `RegistryState`
//! under one `parking_lot::Mutex`, held only for bookkeeping: never across socket I/O
//! or a blocking call. This file holds that state, a client's arrival and the console's
//! list of clients; each other job on it has a file of its own, adding methods to
//! [`Registry`]:
//!
//! - `handshake`: answering a HANDSHAKE (a name granted, the output held, the answer);
//! - `matchmaking`: seating a player in the oldest waiting game or a new one, seating
//!   it again when its game broke up before the start (the game loops'
//!   [`Matchmaker`](super::table::Matchmaker));
//! - `unseated`: the lines of a client that sits in no game, answered here;
//! - `bot`: seating the practice bot in a waiting game;
//! - `leaving`: a client's way out: its EXIT, the operator's kick, its disconnect;
//! - `games`: the game registry's bookkeeping: the live games, the finished ones
//!   kept, the loops started;
//! - `arena`: with `--arena`, the waiting list and the rounds that pair it.
//!
//! A line goes one way (`session::deliver`). Its client's thread hands it to its
//! `route`, which leads to the inbox of the game it sits in; when it sits in none, the
//! thread has it answered here (`unseated`). The registry itself never hands a
//! client's line over: it seats and frees clients (it sets their routes) and answers
//! what `unseated` gets. One kind of line comes back to it from a game: a line that
//! reached its game after that game ended. The ended game cannot answer it, and does
//! not know where its client is now; the registry does, so the game gives it the line
//! (`Matchmaker::redispatch`) and the registry sends it on the same way, through the
//! client's route as it is now.
//!
//! The registry answers a HANDSHAKE itself (ACKNOWLEDGE_HANDSHAKE, and REQUEST_CONFIG
//! to the leader of a new game): that answer would otherwise wait for a hand-off to the
//! game's thread, the costliest step of pairing. Every later message is sent by the
//! game loops, in the order their inboxes receive events.
//!
//! It does not play games (the `table` loops do), hold a client's lines (its `route`
//! does), or know the wire beyond the lines it answers itself.
//!
//! `parking_lot` locks do not poison: a panic while the lock is held (none is
//! reachable: the code under it only touches maps) would leave the maps as they were
//! at the panic, which is still consistent enough for the other games to go on.

use super::protocol::GameId;
use super::questions::Questions;
use super::route::Route;
use crate::frontend::Context;
use crate::net::{ConnId, Connection, Depth};
use crate::workers::Finished;
use games::GameEntry;
use parking_lot::Mutex;
use std::collections::{BTreeMap, HashMap, HashSet, VecDeque};
use std::sync::{Arc, Weak};

pub mod arena;
mod bot;
mod games;
mod handshake;
mod leaving;
mod matchmaking;
mod unseated;

pub use games::GAME_INBOX_BOUND;
pub use handshake::HandshakeRefused;
pub use leaving::EXIT;

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

/// Everything the registry knows, under its one lock.
#[derive(Default)]
struct RegistryState {
    /// Every connected client.
    clients: HashMap<ConnId, ClientEntry>,
    /// Names granted to connected clients and to the bots in games.
    taken_names: HashSet<String>,
    /// The name of the practice bot seated in each game that has one.
    bots: HashMap<GameId, String>,
    /// The live games.
    games: BTreeMap<GameId, GameEntry>,
    /// Games with a leader and a free seat, oldest first.
    waiting: VecDeque<GameId>,
    /// The summaries of the last finished games, for the console.
    finished: VecDeque<super::summary::GameSummary>,
    /// The id the next game gets.
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

    /// The route of connection `conn`, while it is connected.
    fn route(&self, conn: ConnId) -> Option<Arc<Route>> {
        let state = self.state.lock();
        state
            .clients
            .get(&conn)
            .map(|entry| Arc::clone(&entry.route))
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
