//! Server messages: every line the Spectrangle front end sends, as a type with one
//! formatting function.

use super::{ErrorCode, Extension};
use crate::engine::spectrangle::{Location, OrientedTile, Tile};
use crate::frontend::quote::one_line;
use std::fmt;

/// One line the server sends. Each variant's doc shows its wire syntax.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ServerMessage {
    /// `ERROR <code> <message>`
    Error { code: ErrorCode, message: String },
    /// `LOBBY <name>...`: the players of the lobby, in join order.
    Lobby { players: Vec<String> },
    /// `START <name>...`: the game starts; players in turn order.
    Start { players: Vec<String> },
    /// `TILE <name> <tile>`: a tile drawn, spelled as dealt (`PPY0`).
    Tile { player: String, tile: Tile },
    /// `UPDATE <name> <tile> <location>`: a placement, the tile as dealt with the digit
    /// of the orientation it lies in.
    Played {
        player: String,
        tile: OrientedTile,
        location: Location,
    },
    /// `UPDATE <name> <tile>`: a swap; the tile that went back, as dealt.
    Swapped { player: String, returned: Tile },
    /// `UPDATE <name>`: a skip.
    Skipped { player: String },
    /// `SCORE <name>,<points> ...`: the game is over; players in turn order.
    Score { scores: Vec<(String, u32)> },
    /// `AVAILABLE_EXTENSIONS chat multilobby`
    AvailableExtensions,
    /// `CHAT_MESSAGE <name> <base64 text>`
    ChatMessage { player: String, text: String },
    /// `ACTIVE_LOBBIES <lobby>,<name>[,<name>...] ...`: lobbies not yet playing.
    ActiveLobbies { lobbies: Vec<(String, Vec<String>)> },
}

impl ServerMessage {
    /// An error line: `code` and what was wrong.
    pub fn error(code: ErrorCode, message: impl fmt::Display) -> ServerMessage {
        ServerMessage::Error {
            code,
            message: message.to_string(),
        }
    }

    /// True for the line that refuses what a client sent.
    pub fn is_rejection(&self) -> bool {
        matches!(self, ServerMessage::Error { .. })
    }
}

impl fmt::Display for ServerMessage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ServerMessage::Error { code, message } => {
                // A line break in the message would end the line early.
                write!(f, "ERROR {code} {}", one_line(message))
            }
            ServerMessage::Lobby { players } => words(f, "LOBBY", players),
            ServerMessage::Start { players } => words(f, "START", players),
            ServerMessage::Tile { player, tile } => write!(f, "TILE {player} {tile}"),
            ServerMessage::Played {
                player,
                tile,
                location,
            } => write!(f, "UPDATE {player} {tile} {location}"),
            ServerMessage::Swapped { player, returned } => write!(f, "UPDATE {player} {returned}"),
            ServerMessage::Skipped { player } => write!(f, "UPDATE {player}"),
            ServerMessage::Score { scores } => {
                f.write_str("SCORE")?;
                for (player, points) in scores {
                    write!(f, " {player},{points}")?;
                }
                Ok(())
            }
            ServerMessage::AvailableExtensions => {
                let names: Vec<&str> = Extension::ALL.iter().map(|e| e.name()).collect();
                words(f, "AVAILABLE_EXTENSIONS", &names)
            }
            ServerMessage::ChatMessage { player, text } => {
                write!(f, "CHAT_MESSAGE {player} {text}")
            }
            ServerMessage::ActiveLobbies { lobbies } => {
                f.write_str("ACTIVE_LOBBIES")?;
                for (lobby, players) in lobbies {
                    write!(f, " {lobby}")?;
                    for player in players {
                        write!(f, ",{player}")?;
                    }
                }
                Ok(())
            }
        }
    }
}

/// `keyword` and each word after it, separated by single blanks.
fn words(f: &mut fmt::Formatter<'_>, keyword: &str, words: &[impl fmt::Display]) -> fmt::Result {
    f.write_str(keyword)?;
    for word in words {
        write!(f, " {word}")?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::spectrangle::{Colour, Letters, Rotation, Spelling};

    #[test]
    fn formats_every_message_exactly() {
        let rry = Tile::find(Letters::new([Colour::Red, Colour::Red, Colour::Yellow]))
            .expect("RRY is a tile");
        let turned = Spelling {
            letters: rry.letters(),
            rotation: Rotation::new(2).expect("2"),
        }
        .resolve()
        .expect("resolves");
        let names = || vec!["Ann".to_string(), "Bob".to_string()];
        let table = [
            (
                ServerMessage::error(ErrorCode::NotYourTurn, "Not your turn:\nBob"),
                "ERROR 5 Not your turn: Bob",
            ),
            (ServerMessage::Lobby { players: names() }, "LOBBY Ann Bob"),
            (ServerMessage::Start { players: names() }, "START Ann Bob"),
            (
                ServerMessage::Tile {
                    player: "Ann".into(),
                    tile: rry,
                },
                "TILE Ann RRY0",
            ),
            (
                ServerMessage::Played {
                    player: "Ann".into(),
                    tile: turned,
                    location: Location::new(12u8).expect("12"),
                },
                "UPDATE Ann RRY2 12",
            ),
            (
                ServerMessage::Swapped {
                    player: "Bob".into(),
                    returned: rry,
                },
                "UPDATE Bob RRY0",
            ),
            (
                ServerMessage::Skipped {
                    player: "Bob".into(),
                },
                "UPDATE Bob",
            ),
            (
                ServerMessage::Score {
                    scores: vec![("Ann".into(), 12), ("Bob".into(), 0)],
                },
                "SCORE Ann,12 Bob,0",
            ),
            (
                ServerMessage::AvailableExtensions,
                "AVAILABLE_EXTENSIONS chat multilobby",
            ),
            (
                ServerMessage::ChatMessage {
                    player: "Ann".into(),
                    text: "aGk=".into(),
                },
                "CHAT_MESSAGE Ann aGk=",
            ),
            (
                ServerMessage::ActiveLobbies {
                    lobbies: vec![
                        ("default".into(), names()),
                        ("room".into(), vec!["Cat".into()]),
                    ],
                },
                "ACTIVE_LOBBIES default,Ann,Bob room,Cat",
            ),
            (
                ServerMessage::ActiveLobbies { lobbies: vec![] },
                "ACTIVE_LOBBIES",
            ),
        ];
        for (message, line) in table {
            assert_eq!(message.to_string(), line);
        }
    }
}
