//! The GO! wire protocol: one line in, one typed command out; one typed message in,
//! one line out. Pure: no sockets, no threads, no game rules.
//!
//! - [`command`]: [`parse`] turns a client's line into a [`ClientCommand`] or a
//!   [`ParseError`] whose text tells the student what was expected.
//! - [`message`]: [`ServerMessage`] and its single formatting function (`Display`).
//!
//! Free text that the server sends (reasons, messages) never contains `+` or a line
//! break: clients split lines on `+` and drop messages whose field count is wrong, so
//! the syntax of a command is spelled out in words ("joined by plus signs").

pub mod command;
pub mod message;

pub use command::{ClientCommand, ColourChoice, Keyword, MAX_NAME_CHARS, ParseError, parse};
pub use message::{GameState, MessageError, Progress, ServerMessage, free_text};

use std::fmt;

/// A game's number, as the server hands it out in `ACKNOWLEDGE_HANDSHAKE`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GameId(pub u32);

impl fmt::Display for GameId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}
