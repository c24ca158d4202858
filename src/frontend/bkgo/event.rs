//! What the room loop receives: the vocabulary between the connection threads, the
//! console and the room.

use super::protocol::{ClientMessage, ParseError, Status};
use super::summary::RoomView;
use crate::engine::go::Game;
use crate::engine::sgf::SgfError;
use crate::frontend::Departure;
use crate::net::{CloseReason, ConnId, Connection, Ticket};
use crossbeam_channel::Sender;
use std::sync::Arc;

/// The close reason recorded on a connection whose client sent `Quitting:`.
pub const QUIT: CloseReason = CloseReason::LeftWith("Quitting");

/// One event for the room loop. An event made from a client's line carries its
/// [`Ticket`], dropped once the room has handled it: the client's next line is read
/// only then (see `net::handoff`).
pub enum RoomEvent {
    /// A client that sent a valid `Player:` enters the room, asking for this name.
    Join {
        /// The joining client's connection: the room sends to it from now on.
        conn: Arc<Connection>,
        /// The name it asked for (the room grants it, or a `_2` variant).
        name: String,
        /// Dropped once it is a member.
        ticket: Ticket,
    },
    /// A line from a member: a message, or why it is garbage.
    Line {
        /// The sender's connection id: the room knows its members by it.
        from: ConnId,
        /// The message, parsed in the room's state, or why it is garbage.
        message: Result<ClientMessage, ParseError>,
        /// Dropped once it is answered.
        ticket: Ticket,
    },
    /// An SGF stream from a member, already read and replayed by its connection
    /// thread: the game it describes, or why it cannot be loaded.
    Board {
        /// The sender's connection id.
        from: ConnId,
        /// The game (boxed: it is large), or the refusal.
        game: Result<Box<Game>, SgfError>,
        /// Dropped once it is answered.
        ticket: Ticket,
    },
    /// A member's connection has ended.
    Left {
        /// The connection that ended.
        from: ConnId,
        /// How it ended, for the log.
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
