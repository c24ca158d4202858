//! Game loops: one thread per game, advancing it through a `crossbeam-channel` inbox.
//!
//! The game's state (seats, configuration, the rules engine's `Game`) is owned by its
//! loop alone, so no lock guards it. Connection threads send it [`GameEvent`]s; the
//! console sends it `Inspect` queries. The loop sends every game message to the
//! players itself, so they arrive in the order the game decided them.
//!
//! - [`table`]: the loop and the protocol flow of one game.
//! - [`summary`]: what a game publishes for the console.
//! - [`record`]: SGF records of finished games.

pub mod record;
pub mod summary;
pub mod table;

pub use summary::{GameStatus, GameSummary, GameView};

use crate::lobby::Lobby;
use crate::net::Connection;
use crate::protocol::{ClientCommand, GameId, ParseError};
use crossbeam_channel::{Receiver, Sender};
use parking_lot::Mutex;
use std::io;
use std::sync::Arc;
use std::thread::{self, JoinHandle};

/// Stack size of a game loop thread.
const GAME_STACK_BYTES: usize = 256 * 1024;

/// A client with its granted name, as a game seats it.
#[derive(Clone)]
pub struct Player {
    /// Its connection.
    pub conn: Arc<Connection>,
    /// The name granted at its handshake.
    pub name: String,
}

/// The close reason recorded on a connection whose client sent EXIT.
pub const EXIT_REASON: &str = "it sent EXIT";

/// The close reason recorded on a connection the operator kicked.
pub const KICK_REASON: &str = "kicked by operator";

/// How a player left a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Departure {
    /// It sent EXIT.
    Exited,
    /// It closed its connection.
    Disconnected,
    /// The operator kicked it.
    Kicked,
    /// The server closed its connection, for this reason (kicked by operator, ...).
    Dropped(String),
}

/// What a game loop receives.
pub enum GameEvent {
    /// The lobby seats a player here (as leader if the game is empty).
    Join(Player),
    /// A line from a seated player: a command, or why it is not one.
    Line {
        from: Arc<Connection>,
        command: Result<ClientCommand, ParseError>,
    },
    /// A seated player is gone.
    Left {
        from: Arc<Connection>,
        how: Departure,
    },
    /// The operator kicks a seated player: it loses (and is told so), then its
    /// connection is closed.
    Kick(Arc<Connection>),
    /// The console asks for a view of the game.
    Inspect(Sender<GameView>),
    /// Unit tests only: a bug in the loop, to check that it ends this game alone.
    #[cfg(test)]
    Panic,
}

/// Starts the loop of game `id` on its own thread, named `game-<id>`.
///
/// # Errors
///
/// When the thread cannot be created.
pub fn spawn(
    id: GameId,
    lobby: Arc<Lobby>,
    events: Receiver<GameEvent>,
    summary: Arc<Mutex<GameSummary>>,
) -> io::Result<JoinHandle<()>> {
    thread::Builder::new()
        .name(format!("game-{id}"))
        .stack_size(GAME_STACK_BYTES)
        .spawn(move || table::run(id, lobby, events, summary))
}
