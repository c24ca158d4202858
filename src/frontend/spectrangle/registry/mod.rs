//! Spectrangle's registry: who is connected with which extensions, which names are
//! held, which lobbies are open and who sits in which lobby or game. All of it is one
//! `State` under one `parking_lot::Mutex`, held only for bookkeeping, never across
//! socket I/O. This file holds that state, a client's arrival and the console's lists
//! of clients; each other job on it has a file of its own, adding methods to
//! [`Registry`]:
//!
//! - `requests`: a client's line, checked in SPECTRANGLE.md's order (extension, state,
//!   arguments) and carried out, answered, or handed to its table;
//! - `lobbies`: a JOIN seated in a lobby (named, the oldest default one with room, or
//!   a new one), READY, and a lobby's game started;
//! - `bot`: seating the practice bot in a lobby;
//! - `leaving`: a client's way out of its table (EXIT, disconnect);
//! - `tables`: the table registry's bookkeeping: the live tables, the finished games
//!   kept, the loops started, and the tables' way back (the [`Registrar`](super::table::Registrar)).
//!
//! A line goes one way: its client's thread hands it to the registry (`requests`),
//! which answers it there or, under its lock, puts an event for the client's table in
//! that table's inbox (a channel send that does not block). Every change to a lobby is
//! decided here, under the lock, so the table sends its lines (`LOBBY`, `START`, ...)
//! in the order the events were decided. Answers that concern the asking client alone
//! (errors, `AVAILABLE_EXTENSIONS`, `ACTIVE_LOBBIES`) are sent from its own
//! connection thread, after the lock. The one line that comes back from a table is a
//! move that reached it after its game ended (`Registrar::redispatch`): it is answered
//! as any line, where its client is now.
//!
//! It does not play games (the `table` loops do) or know the wire beyond the answers
//! above.
//!
//! `parking_lot` locks do not poison: a panic under the lock (none is reachable: the
//! code under it only touches maps) would leave the maps as they were.

use super::event::Extensions;
use super::protocol::PlayerName;
use super::summary::{TableId, TableSummary};
use crate::frontend::{Context, Departure};
use crate::net::{ConnId, Connection, Depth};
use crate::workers::Finished;
use parking_lot::Mutex;
use std::collections::{BTreeMap, HashMap, HashSet, VecDeque};
use std::sync::{Arc, Weak};
use std::time::Instant;
use tables::TableEntry;

mod bot;
mod leaving;
mod lobbies;
mod requests;
mod tables;

pub use bot::BOT_NAME;
pub use tables::TABLE_INBOX_BOUND;

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

/// Everything the registry knows, under its one lock.
#[derive(Default)]
struct State {
    /// Every connected client.
    clients: HashMap<ConnId, Client>,
    /// Names held by clients in a lobby or a game.
    names: HashSet<PlayerName>,
    /// Lobbies and games, oldest first.
    tables: BTreeMap<TableId, TableEntry>,
    /// The summaries of the last finished games, for the console.
    finished: VecDeque<TableSummary>,
    /// The id the next table gets.
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

    /// Forgets a closed connection: it leaves its table (`how`), its name is free.
    pub fn disconnect(&self, conn: ConnId, how: Departure) {
        self.leave(conn, how, None);
        self.state.lock().clients.remove(&conn);
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
