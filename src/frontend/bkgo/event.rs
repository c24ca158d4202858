//! What the room loop receives: the vocabulary between the connection threads, the
//! console and the room.

use super::protocol::{ClientMessage, ParseError, Status};
use super::summary::RoomView;
use crate::engine::go::Game;
use crate::engine::sgf::SgfError;
use crate::frontend::Departure;
use crate::net::{ConnId, Connection};
use crossbeam_channel::Sender;
use std::sync::Arc;

/// The close reason recorded on a connection whose client sent `Quitting:`.
pub const QUIT_REASON: &str = "it sent Quitting";

/// One event for the room loop.
pub enum RoomEvent {
    /// A client that sent a valid `Player:` enters the room, asking for this name.
    Join {
        /// Its connection.
        conn: Arc<Connection>,
        /// The name it asked for (the room grants it, or a `_2` variant).
        name: String,
    },
    /// A line from a member: a message, or why it is garbage.
    Line {
        /// Who sent it.
        from: ConnId,
        /// What it was.
        message: Result<ClientMessage, ParseError>,
    },
    /// An SGF stream from a member, already read and replayed by its connection
    /// thread: the game it describes, or why it cannot be loaded.
    Board {
        /// Who sent it.
        from: ConnId,
        /// The game (boxed: it is large), or the refusal.
        game: Result<Box<Game>, SgfError>,
    },
    /// A member's connection has ended.
    Left {
        /// Whose.
        from: ConnId,
        /// How.
        how: Departure,
    },
    /// The operator kicks a client (a member is removed from the room first).
    Kick(Arc<Connection>),
    /// The operator kicks everyone seated; the answer names them.
    KickSeated(Sender<Vec<String>>),
    /// A `status` request asks about the room.
    Status(Sender<Status>),
    /// The console asks for a detailed view.
    Inspect(Sender<RoomView>),
}
