//! What the server sends: every message, and its one formatting function.

use super::{END_OF_SGF, GREETING, PlayerId};
use crate::engine::go::Colour;
use crate::frontend::quote::one_line;
use std::fmt;

/// The room at a glance, as `status` answers it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoomStatus {
    /// Moves of the current game, passes and a loaded SGF's moves included.
    pub moves: usize,
    /// Black's area score of the current board.
    pub black: String,
    /// White's area score of the current board, komi included.
    pub white: String,
    /// Players in the room, seated or watching.
    pub players: usize,
    /// The room's name (`SetName:`), once one was set.
    pub name: Option<String>,
}

/// One line the server sends.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ServerMessage {
    /// `BKGO-Server-version-0.6`: the first line to every client.
    Greeting,
    /// `OK`: the version is accepted; a request may follow.
    Ok,
    /// `Moves made: <n>, Black score: <b>, White score: <w>, Players: <k>`, then
    /// `, Name: <name>` once the room has a name.
    Status(RoomStatus),
    /// `GimmePassword`: the answer to `shutdown`.
    GimmePassword,
    /// `GimmeGoPlayer`: the answer to `join`.
    GimmeGoPlayer,
    /// `server terminated`: the right password; the server shuts down.
    Terminated,
    /// `ServerRejectedFatal`: the connection closes.
    RejectedFatal,
    /// `ServerRejectedNonFatal`: the last message was refused, nothing else changes.
    RejectedNonFatal,
    /// `Dialog: <text>`: a message for the user (a reason, a result).
    Dialog(String),
    /// `ID: <number>`: the joiner's ID.
    Id(PlayerId),
    /// `ClearPlayers`: the player list follows.
    ClearPlayers,
    /// `AddPlayer: <name>`.
    AddPlayer(String),
    /// `AnnouncePlayer: <name>`: someone joined.
    AnnouncePlayer(String),
    /// `GoodbyePlayer: <name>`: someone left.
    GoodbyePlayer(String),
    /// `BlackPlayer: <name>` or `WhitePlayer: <name>`; `BlackPlayer:` alone for a free
    /// seat.
    Seat {
        /// Which seat.
        colour: Colour,
        /// Who sits there.
        player: Option<String>,
    },
    /// `Board:`: an SGF stream follows.
    Board,
    /// One line of that SGF stream, as it is.
    SgfLine(String),
    /// `EOF`: the end of the SGF stream.
    Eof,
    /// `Place: <x>, <y>`: a stone was placed.
    Place {
        /// The column, from 0.
        x: usize,
        /// The row, from 0.
        y: usize,
    },
    /// `Pass`: the player to move passed.
    Pass,
    /// `Message: <name>: <text>`: chat.
    Message {
        /// Who said it.
        from: String,
        /// What was said.
        text: String,
    },
}

impl ServerMessage {
    /// Whether this line refuses what the client sent (for pacing an error loop).
    pub fn is_rejection(&self) -> bool {
        matches!(
            self,
            ServerMessage::RejectedFatal | ServerMessage::RejectedNonFatal
        )
    }
}

impl fmt::Display for ServerMessage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ServerMessage::Greeting => f.write_str(GREETING),
            ServerMessage::Ok => f.write_str("OK"),
            ServerMessage::Status(status) => {
                write!(
                    f,
                    "Moves made: {}, Black score: {}, White score: {}, Players: {}",
                    status.moves, status.black, status.white, status.players
                )?;
                match &status.name {
                    Some(name) => write!(f, ", Name: {}", one_line(name)),
                    None => Ok(()),
                }
            }
            ServerMessage::GimmePassword => f.write_str("GimmePassword"),
            ServerMessage::GimmeGoPlayer => f.write_str("GimmeGoPlayer"),
            ServerMessage::Terminated => f.write_str("server terminated"),
            ServerMessage::RejectedFatal => f.write_str("ServerRejectedFatal"),
            ServerMessage::RejectedNonFatal => f.write_str("ServerRejectedNonFatal"),
            ServerMessage::Dialog(text) => write!(f, "Dialog: {}", one_line(text)),
            ServerMessage::Id(id) => write!(f, "ID: {id}"),
            ServerMessage::ClearPlayers => f.write_str("ClearPlayers"),
            ServerMessage::AddPlayer(name) => write!(f, "AddPlayer: {}", one_line(name)),
            ServerMessage::AnnouncePlayer(name) => {
                write!(f, "AnnouncePlayer: {}", one_line(name))
            }
            ServerMessage::GoodbyePlayer(name) => write!(f, "GoodbyePlayer: {}", one_line(name)),
            ServerMessage::Seat { colour, player } => {
                let seat = match colour {
                    Colour::Black => "BlackPlayer:",
                    Colour::White => "WhitePlayer:",
                };
                match player {
                    Some(name) => write!(f, "{seat} {}", one_line(name)),
                    None => f.write_str(seat),
                }
            }
            ServerMessage::Board => f.write_str("Board:"),
            ServerMessage::SgfLine(line) => f.write_str(&one_line(line)),
            ServerMessage::Eof => f.write_str(END_OF_SGF),
            ServerMessage::Place { x, y } => write!(f, "Place: {x}, {y}"),
            ServerMessage::Pass => f.write_str("Pass"),
            ServerMessage::Message { from, text } => {
                write!(f, "Message: {}: {}", one_line(from), one_line(text))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_every_message_exactly() {
        let status = RoomStatus {
            moves: 47,
            black: "3".into(),
            white: "6.5".into(),
            players: 2,
            name: None,
        };
        let table = [
            (ServerMessage::Greeting, "BKGO-Server-version-0.6"),
            (ServerMessage::Ok, "OK"),
            (
                ServerMessage::Status(status.clone()),
                "Moves made: 47, Black score: 3, White score: 6.5, Players: 2",
            ),
            (
                ServerMessage::Status(RoomStatus {
                    name: Some("Lab 3".into()),
                    ..status
                }),
                "Moves made: 47, Black score: 3, White score: 6.5, Players: 2, Name: Lab 3",
            ),
            (ServerMessage::GimmePassword, "GimmePassword"),
            (ServerMessage::GimmeGoPlayer, "GimmeGoPlayer"),
            (ServerMessage::Terminated, "server terminated"),
            (ServerMessage::RejectedFatal, "ServerRejectedFatal"),
            (ServerMessage::RejectedNonFatal, "ServerRejectedNonFatal"),
            (
                ServerMessage::Dialog("two\nlines".into()),
                "Dialog: two lines",
            ),
            (ServerMessage::Id(PlayerId(3)), "ID: 3"),
            (ServerMessage::ClearPlayers, "ClearPlayers"),
            (ServerMessage::AddPlayer("Ann".into()), "AddPlayer: Ann"),
            (
                ServerMessage::AnnouncePlayer("Ann".into()),
                "AnnouncePlayer: Ann",
            ),
            (
                ServerMessage::GoodbyePlayer("Ann".into()),
                "GoodbyePlayer: Ann",
            ),
            (
                ServerMessage::Seat {
                    colour: Colour::Black,
                    player: Some("Ann".into()),
                },
                "BlackPlayer: Ann",
            ),
            (
                ServerMessage::Seat {
                    colour: Colour::White,
                    player: None,
                },
                "WhitePlayer:",
            ),
            (ServerMessage::Board, "Board:"),
            (ServerMessage::SgfLine(";B[dd]".into()), ";B[dd]"),
            (ServerMessage::Eof, "EOF"),
            (ServerMessage::Place { x: 3, y: 15 }, "Place: 3, 15"),
            (ServerMessage::Pass, "Pass"),
            (
                ServerMessage::Message {
                    from: "Ann".into(),
                    text: "hi\tall".into(),
                },
                "Message: Ann: hi all",
            ),
        ];
        for (message, line) in table {
            assert_eq!(message.to_string(), line);
            assert_eq!(
                message.is_rejection(),
                line.starts_with("ServerRejected"),
                "{line}"
            );
        }
    }
}
