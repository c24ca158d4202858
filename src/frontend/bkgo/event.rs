//! What the room loop receives: the vocabulary between the connection threads, the
//! console and the room.

use super::protocol::{ClientMessage, ParseError, RoomStatus};
use super::summary::RoomView;
use crate::engine::bot::Level;
use crate::engine::go::{Colour, Game};
use crate::engine::sgf::SgfError;
use crate::frontend::Departure;
use crate::net::{CloseReason, ConnId, Connection, Incoming, Ticket};
use crossbeam_channel::Sender;
use std::fmt;
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
        /// The line as it came, a password hidden (the example on its sender's card,
        /// if refused).
        line: Incoming,
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
    /// The operator seats the practice bot at this level (`bot bkgo [level]`).
    SeatBot(Level, Sender<Result<BotSeated, BotRefused>>),
    /// A `status` request asks about the room.
    Status(Sender<RoomStatus>),
    /// The console asks for a detailed view.
    Inspect(Sender<RoomView>),
}

/// The practice bot took a seat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BotSeated {
    /// The name it was granted (`GoBot-L3`).
    pub name: String,
    /// The seat it took.
    pub colour: Colour,
}

/// Why the practice bot does not sit down in the room. It takes the free seat
/// opposite a seated player while a game goes on, and never a seat a person could
/// have: a human always comes first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BotRefused {
    /// Both seats are taken.
    SeatsTaken {
        /// Who sits in black's seat.
        black: String,
        /// Who sits in white's seat.
        white: String,
    },
    /// Nobody is seated: the bot would have nobody to play.
    NobodySeated,
    /// The game on the board is over: `NewBoard` starts the next one.
    GameOver,
    /// The bot's helper thread could not be started.
    NoThread(String),
}

impl fmt::Display for BotRefused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BotRefused::SeatsTaken { black, white } => write!(
                f,
                "the Bkgo room's seats are taken ({black} (black) vs {white} (white)): the practice bot only takes a free seat opposite a seated player"
            ),
            BotRefused::NobodySeated => f.write_str(
                "nobody is seated in the Bkgo room: the practice bot takes the free seat opposite a seated player",
            ),
            BotRefused::GameOver => f.write_str(
                "the Bkgo room's game is over: the practice bot sits down for a game in progress (a seated player's NewBoard starts one)",
            ),
            BotRefused::NoThread(error) => {
                write!(f, "the practice bot's thread cannot start: {error}")
            }
        }
    }
}
