//! What the room publishes for the operator console: a summary after every event, a
//! detailed view on request.

use crate::engine::go::{Colour, PlayedMove};
use crate::net::ConnId;
use std::fmt;
use std::time::Instant;

/// What a member does in the room.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// Seated, playing black.
    Black,
    /// Seated, playing white.
    White,
    /// Watching and chatting.
    Watching,
}

impl Role {
    /// The role of the player in seat `colour`.
    pub fn seated(colour: Colour) -> Role {
        match colour {
            Colour::Black => Role::Black,
            Colour::White => Role::White,
        }
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Role::Black => "black",
            Role::White => "white",
            Role::Watching => "watching",
        })
    }
}

/// One member of the room, as the console lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MemberRow {
    /// Its connection's id: the console kicks and traces members through it. None
    /// for the practice bot, which has no connection.
    pub conn: Option<ConnId>,
    /// The name it was granted.
    pub name: String,
    /// Seated (which colour) or watching.
    pub role: Role,
}

/// The room at a glance.
#[derive(Clone, Debug)]
pub struct RoomSummary {
    /// The room's name, once a seated player set one.
    pub name: Option<String>,
    /// Every member, in join order.
    pub members: Vec<MemberRow>,
    /// The current board's size.
    pub size: usize,
    /// Moves of the current game, passes included.
    pub moves: usize,
    /// Who is to move; `None` once the game is over.
    pub to_move: Option<Colour>,
    /// Since when the player to move has been waited for, while the game goes on.
    pub turn_since: Option<std::time::SystemTime>,
    /// How the current game ended, once it has.
    pub result: Option<String>,
    /// When the room opened (with the server).
    pub opened: Instant,
}

impl RoomSummary {
    /// An empty room with a `size` board, black to move.
    pub fn new(size: usize) -> RoomSummary {
        RoomSummary {
            name: None,
            members: Vec::new(),
            size,
            moves: 0,
            to_move: Some(Colour::Black),
            turn_since: None,
            result: None,
            opened: Instant::now(),
        }
    }

    /// The name of the player in seat `colour`, if it is taken.
    pub fn seated(&self, colour: Colour) -> Option<&str> {
        let role = Role::seated(colour);
        self.members
            .iter()
            .find(|m| m.role == role)
            .map(|m| m.name.as_str())
    }

    /// The watchers' names, longest-waiting first.
    pub fn watchers(&self) -> impl Iterator<Item = &str> {
        self.members
            .iter()
            .filter(|m| m.role == Role::Watching)
            .map(|m| m.name.as_str())
    }
}

/// The room in detail (the console's `board` and `sgf`).
#[derive(Clone, Debug)]
pub struct RoomView {
    /// The summary.
    pub summary: RoomSummary,
    /// The board drawn with coordinates, the last stone marked.
    pub board: String,
    /// The last move of the current game, if any.
    pub last_move: Option<PlayedMove>,
    /// Stones captured by black and by white.
    pub captures: (usize, usize),
    /// Area score so far (black, white with komi), as `status` writes them.
    pub score: (String, String),
    /// The current game's SGF, as `Board:` sends it.
    pub sgf: String,
}
