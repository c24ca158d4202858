//! The game registry's bookkeeping: the live games (each one's inbox and summary),
//! the finished ones kept for the console, the loops started. A game is opened here
//! under the registry's lock, its loop started after the lock is released, and it
//! leaves the registry here, one way only ([`Registry::remove_game`]).
//!
//! Who sits in which game is `matchmaking`'s; what a game does is its loop's
//! (`table`).

use super::{Registry, RegistryState};
use crate::frontend::FINISHED_KEPT;
use crate::frontend::go::event::GameEvent;
use crate::frontend::go::protocol::GameId;
use crate::frontend::go::summary::{GameStatus, GameSummary};
use crate::frontend::go::table::{self, Arranged, Matchmaker};
use crate::net::{CloseReason, Connection, Inbox};
use crate::workers::Finished;
use parking_lot::Mutex;
use std::sync::Arc;
use std::sync::atomic::Ordering;

/// The bound of a game's inbox. A game hears from its two players, each with at most
/// one line (or its departure) in flight at a time (see `net::handoff`), and from the
/// registry and the console now and then: it never holds more than a handful.
pub const GAME_INBOX_BOUND: usize = 16;

/// A live game: where to send its events and what the console may read of it.
pub struct GameEntry {
    /// The game loop's inbox.
    pub inbox: Inbox<GameEvent>,
    /// Published by the game loop after each change.
    pub summary: Arc<Mutex<GameSummary>>,
}

/// A game opened under the lock, whose loop is started after it is released.
pub(super) struct NewGame {
    pub(super) id: GameId,
    pub(super) events: crossbeam_channel::Receiver<GameEvent>,
    pub(super) summary: Arc<Mutex<GameSummary>>,
    /// Set for a game the arena arranged.
    pub(super) arranged: Option<Arranged>,
}

impl Registry {
    /// Opens a game under the lock: a new id, an empty inbox and summary, listed among
    /// the live games. `first` goes into its inbox before anything else (the loop is
    /// not running yet: the events wait). Returns the game, whose loop the caller
    /// starts once the lock is released ([`Registry::start_loop`]).
    pub(super) fn open_game(
        &self,
        state: &mut RegistryState,
        first: impl IntoIterator<Item = GameEvent>,
        arranged: Option<Arranged>,
    ) -> NewGame {
        let id = GameId(state.next_game_id);
        state.next_game_id += 1;
        let (inbox, events) = crate::net::inbox(&self.depth, &self.context.shutdown);
        let summary = Arc::new(Mutex::new(GameSummary::new(id)));
        for event in first {
            // The loop is not running yet; the event waits in its (empty) inbox.
            let _ = inbox.post(event);
        }
        state.games.insert(
            id,
            GameEntry {
                inbox,
                summary: Arc::clone(&summary),
            },
        );
        NewGame {
            id,
            events,
            summary,
            arranged,
        }
    }

    /// Starts the loop of a game opened under the lock, now that it is released; a
    /// game whose thread cannot be had is removed, and its players closed.
    pub(super) fn start_loop(&self, new_game: NewGame) {
        let NewGame {
            id,
            events,
            summary,
            arranged,
        } = new_game;
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
    pub(super) fn remove_game(&self, id: GameId) -> Vec<Arc<Connection>> {
        let mut state = self.state.lock();
        state.waiting.retain(|g| *g != id);
        super::bot::free_bot(&mut state, id);
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frontend::Context;
    use crate::frontend::go::protocol::command;
    use crate::frontend::go::route::Route;
    use crate::frontend::go::session;
    use crate::net::Incoming;
    use crate::results::Ending;
    use crate::settings::Settings;
    use crate::shutdown::Shutdown;
    use std::io::{BufRead, BufReader};
    use std::net::TcpStream;
    use std::time::{Duration, Instant};

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

    /// `text` sent by the client on `conn`, handled as its thread handles a line; waits
    /// for its answer.
    fn say(registry: &Registry, route: &Route, conn: &Arc<Connection>, text: &str) {
        let line = Incoming::Line(text.into());
        let _ = session::dispatch(registry, route, conn, line, command::parse(text)).wait(conn);
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
        say(&registry, &ann_route, &ann_conn, "SET_CONFIG+1+1+5");
        assert_eq!(
            line(&mut ann),
            "ACKNOWLEDGE_CONFIG+Ann+1+5+PLAYING;1;0000000000000000000000000+Bob"
        );
        assert_eq!(
            line(&mut bob),
            "ACKNOWLEDGE_CONFIG+Bob+2+5+PLAYING;1;0000000000000000000000000+Ann"
        );
        say(&registry, &ann_route, &ann_conn, "MOVE+1+Ann+12");
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
