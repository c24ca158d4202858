//! The Spectrangle wire protocol: one line in, one typed request out; one typed message
//! in, one line out. Pure: no sockets, no threads, no game rules.
//!
//! - [`command`]: [`parse`] turns a client's line into a [`Request`]: the keyword, and
//!   its arguments parsed or the reason they are wrong. The keyword comes apart from
//!   the arguments because the error codes are checked in an order (SPECTRANGLE.md):
//!   the client's state (7, 8, 0) before the arguments (2, 3, 9).
//! - [`message`]: [`ServerMessage`] and its single formatting function (`Display`).
//!
//! Fields are separated by blanks; names and tiles never contain one, and free text
//! (an error's message) is the last field, so it may.

pub mod command;
pub mod message;

pub use command::{
    ArgumentError, Command, Extension, Keyword, LobbyName, PlayerName, Request, Unrecognized, parse,
};
pub use message::{MessageError, ServerMessage};

use std::fmt;

/// The protocol's error codes, as `ERROR <code> <message>` sends them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorCode {
    /// 0: anything the other codes do not name.
    Generic,
    /// 1: not a command.
    Unrecognized,
    /// 2: the command's arguments are wrong.
    InvalidArguments,
    /// 3: the name breaks the name rules.
    InvalidName,
    /// 4: another client holds the name.
    NameTaken,
    /// 5: another player is to move.
    NotYourTurn,
    /// 6: the rules refuse the move.
    InvalidMove,
    /// 7: the command needs a lobby (or a game) and the client is in none.
    NotInLobby,
    /// 8: a move from a client in a lobby, whose game has not started.
    NotInGame,
    /// 9: an extension this server does not have, or one the client has not enabled.
    UnsupportedExtension,
}

impl ErrorCode {
    /// The number on the wire.
    pub fn number(self) -> u8 {
        match self {
            ErrorCode::Generic => 0,
            ErrorCode::Unrecognized => 1,
            ErrorCode::InvalidArguments => 2,
            ErrorCode::InvalidName => 3,
            ErrorCode::NameTaken => 4,
            ErrorCode::NotYourTurn => 5,
            ErrorCode::InvalidMove => 6,
            ErrorCode::NotInLobby => 7,
            ErrorCode::NotInGame => 8,
            ErrorCode::UnsupportedExtension => 9,
        }
    }
}

impl ErrorCode {
    /// Every code, in number order.
    pub const ALL: [ErrorCode; 10] = [
        ErrorCode::Generic,
        ErrorCode::Unrecognized,
        ErrorCode::InvalidArguments,
        ErrorCode::InvalidName,
        ErrorCode::NameTaken,
        ErrorCode::NotYourTurn,
        ErrorCode::InvalidMove,
        ErrorCode::NotInLobby,
        ErrorCode::NotInGame,
        ErrorCode::UnsupportedExtension,
    ];

    /// The code with the wire number `number`, if there is one.
    pub fn from_number(number: u8) -> Option<ErrorCode> {
        ErrorCode::ALL
            .into_iter()
            .find(|code| code.number() == number)
    }
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.number())
    }
}
