//! The table registry's bookkeeping: the live tables (each one's inbox, summary,
//! lobby name, members and bots), the finished games kept for the console, the loops
//! started, and the tables' way back to the registry (the [`Registrar`]). A lobby is
//! opened under the lock (`lobbies`), its loop is started here once the lock is
//! released, and a table leaves the registry here, one way only
//! ([`Registry::remove_table`]).

use super::Registry;
use crate::engine::spectrangle::MAX_PLAYERS;
use crate::frontend::FINISHED_KEPT;
use crate::frontend::spectrangle::event::{BotRefused, TableEvent};
use crate::frontend::spectrangle::protocol::{Command, Keyword, LobbyName, PlayerName, Request};
use crate::frontend::spectrangle::summary::{TableId, TableStatus, TableSummary};
use crate::frontend::spectrangle::table::{self, Registrar};
use crate::net::{CloseReason, ConnId, Connection, Inbox, Incoming, Ticket};
use crate::workers::Finished;
use parking_lot::Mutex;
use std::collections::HashSet;
use std::sync::Arc;
use std::sync::atomic::Ordering;

/// The bound of a table's inbox. A table hears from at most four members, each with
/// one line in flight at a time (see `net::handoff`), which the registry turns into at
/// most three events (READY: `Ready`, `Start`, `Reached`), and from the console now and
/// then: it never holds more than a few.
pub const TABLE_INBOX_BOUND: usize = 32;

/// A lobby, or the game it became.
pub(super) struct TableEntry {
    /// The table loop's inbox; the registry puts events in under its lock, never
    /// waiting ([`Inbox::post`]).
    pub(super) inbox: Inbox<TableEvent>,
    /// Published by the table loop after each change.
    pub(super) summary: Arc<Mutex<TableSummary>>,
    /// The lobby's name while it is a lobby; `None` once its game has started.
    pub(super) lobby: Option<LobbyName>,
    /// Whether it was opened by a JOIN without a lobby name.
    pub(super) default: bool,
    /// The clients that sit there, in join order.
    pub(super) members: Vec<ConnId>,
    /// Members that said READY.
    pub(super) ready: HashSet<ConnId>,
    /// The practice bots that sit there (always ready), by their granted names.
    pub(super) bots: Vec<PlayerName>,
}

impl TableEntry {
    /// Everyone seated: clients and bots.
    pub(super) fn seated(&self) -> usize {
        self.members.len() + self.bots.len()
    }

    pub(super) fn is_open_lobby(&self) -> bool {
        self.lobby.is_some() && self.seated() < MAX_PLAYERS
    }
}

/// A lobby opened under the lock, whose loop is started after it is released.
pub(super) struct NewTable {
    pub(super) id: TableId,
    pub(super) events: crossbeam_channel::Receiver<TableEvent>,
    pub(super) summary: Arc<Mutex<TableSummary>>,
}

impl Registry {
    pub(super) fn start_thread(&self, new_table: NewTable) {
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

    /// Removes a table: its members sit nowhere and their names are free; its summary
    /// (marked finished, if it was a game) is kept for the console. Returns the
    /// connections that sat there.
    pub(super) fn remove_table(&self, id: TableId) -> Vec<Arc<Connection>> {
        let mut state = self.state.lock();
        let Some(table) = state.tables.remove(&id) else {
            return Vec::new();
        };
        if table.lobby.is_none() {
            let mut summary = table.summary.lock().clone();
            summary.status = TableStatus::Finished;
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

    /// Summaries of the live tables (by id), then of the finished games kept.
    pub fn tables(&self) -> (Vec<TableSummary>, Vec<TableSummary>) {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frontend::Context;
    use crate::frontend::spectrangle::protocol;
    use crate::settings::Settings;
    use crate::shutdown::Shutdown;
    use std::io::{BufRead, BufReader};

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
