//! What a GO! game loop receives, and who it seats: the vocabulary shared by the
//! connection threads, the lobby and the game loops.

use super::protocol::{ClientCommand, ParseError};
use super::summary::GameView;
use crate::net::Connection;
use crossbeam_channel::Sender;
use std::sync::Arc;

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
    /// The server closed its connection, for this reason (output stalled, ...).
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
