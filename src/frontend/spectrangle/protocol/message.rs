//! Server messages: every line the Spectrangle front end sends, as a type with one
//! formatting function.

use super::{ErrorCode, Extension};
use crate::engine::spectrangle::{Location, OrientedTile, Spelling, Tile};
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
    /// `AVAILABLE_EXTENSIONS <name>...`: this server's are `chat multilobby`.
    AvailableExtensions { names: Vec<String> },
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

    /// `AVAILABLE_EXTENSIONS` naming this server's extensions.
    pub fn available_extensions() -> ServerMessage {
        ServerMessage::AvailableExtensions {
            names: Extension::ALL
                .iter()
                .map(|e| e.name().to_string())
                .collect(),
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
            ServerMessage::AvailableExtensions { names } => words(f, "AVAILABLE_EXTENSIONS", names),
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

/// Why a line from a server is not a Spectrangle message: the checker's side of the
/// protocol (`goserver check`). The `Display` text names what was expected and what
/// arrived.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MessageError {
    /// The first word is no server message of the protocol.
    UnknownKeyword { got: String },
    /// The keyword is right, the number of words is not.
    WordCount {
        keyword: &'static str,
        expected: &'static str,
        got: usize,
    },
    /// One word does not hold what the protocol says it holds.
    BadWord {
        keyword: &'static str,
        word: &'static str,
        expected: &'static str,
        got: String,
    },
}

impl fmt::Display for MessageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MessageError::UnknownKeyword { got } => write!(
                f,
                "'{got}' is no server message of the Spectrangle protocol (ERROR, LOBBY, START, UPDATE, TILE, SCORE, or an extension's AVAILABLE_EXTENSIONS, CHAT_MESSAGE, ACTIVE_LOBBIES)"
            ),
            MessageError::WordCount {
                keyword,
                expected,
                got,
            } => write!(f, "{keyword} takes {expected} after the keyword, got {got}"),
            MessageError::BadWord {
                keyword,
                word,
                expected,
                got,
            } => write!(f, "{keyword}: {word} must be {expected}, got '{got}'"),
        }
    }
}

impl std::error::Error for MessageError {}

impl ServerMessage {
    /// Reads one line a server sent (without its line ending): the inverse of the
    /// `Display` above. Words are separated by runs of blanks, as in a client's lines;
    /// an error's message is kept as sent. A tile in `UPDATE` may be spelled in any
    /// rotation of its letters (`RYR1` is `RRY0` turned): it is read as the tile it
    /// describes.
    ///
    /// # Errors
    ///
    /// [`MessageError`]: which message, which word, what was expected.
    pub fn parse(line: &str) -> Result<ServerMessage, MessageError> {
        let words: Vec<&str> = line.split([' ', '\t']).filter(|w| !w.is_empty()).collect();
        let Some((&keyword, args)) = words.split_first() else {
            return Err(MessageError::UnknownKeyword { got: String::new() });
        };
        let count = |keyword: &'static str, expected: &'static str, ok: bool| {
            if ok {
                Ok(())
            } else {
                Err(MessageError::WordCount {
                    keyword,
                    expected,
                    got: args.len(),
                })
            }
        };
        let names = |args: &[&str]| args.iter().map(|w| (*w).to_string()).collect();
        match keyword {
            "ERROR" => {
                count("ERROR", "a code and a message", !args.is_empty())?;
                let code = args[0]
                    .parse::<u8>()
                    .ok()
                    .and_then(ErrorCode::from_number)
                    .ok_or_else(|| bad("ERROR", "the code", "a number from 0 to 9", args[0]))?;
                // The message: the rest of the line after the code, as sent.
                let message = line
                    .trim_start()
                    .strip_prefix("ERROR")
                    .map(str::trim_start)
                    .and_then(|rest| rest.strip_prefix(args[0]))
                    .map(str::trim)
                    .unwrap_or_default();
                Ok(ServerMessage::Error {
                    code,
                    message: message.to_string(),
                })
            }
            "LOBBY" => Ok(ServerMessage::Lobby {
                players: names(args),
            }),
            "START" => {
                count("START", "at least one name", !args.is_empty())?;
                Ok(ServerMessage::Start {
                    players: names(args),
                })
            }
            "TILE" => {
                count("TILE", "a name and a tile", args.len() == 2)?;
                Ok(ServerMessage::Tile {
                    player: args[0].to_string(),
                    tile: spelled("TILE", args[1])?.tile(),
                })
            }
            "UPDATE" => {
                count(
                    "UPDATE",
                    "a name, then a tile and a location, a tile, or nothing",
                    (1..=3).contains(&args.len()),
                )?;
                let player = args[0].to_string();
                Ok(match args[1..] {
                    [] => ServerMessage::Skipped { player },
                    [tile] => ServerMessage::Swapped {
                        player,
                        returned: spelled("UPDATE", tile)?.tile(),
                    },
                    [tile, location] => ServerMessage::Played {
                        player,
                        tile: spelled("UPDATE", tile)?,
                        location: location
                            .parse::<u8>()
                            .ok()
                            .and_then(Location::new)
                            .ok_or_else(|| {
                                bad("UPDATE", "the location", "a number from 0 to 35", location)
                            })?,
                    },
                    _ => unreachable!("counted above"),
                })
            }
            "SCORE" => Ok(ServerMessage::Score {
                scores: args
                    .iter()
                    .map(|pair| {
                        pair.split_once(',')
                            .and_then(|(name, points)| {
                                Some((name.to_string(), points.parse().ok()?))
                            })
                            .ok_or_else(|| bad("SCORE", "each score", "<name>,<points>", pair))
                    })
                    .collect::<Result<_, _>>()?,
            }),
            "AVAILABLE_EXTENSIONS" => Ok(ServerMessage::AvailableExtensions { names: names(args) }),
            "CHAT_MESSAGE" => {
                count("CHAT_MESSAGE", "a name and a text", args.len() == 2)?;
                Ok(ServerMessage::ChatMessage {
                    player: args[0].to_string(),
                    text: args[1].to_string(),
                })
            }
            "ACTIVE_LOBBIES" => Ok(ServerMessage::ActiveLobbies {
                lobbies: args
                    .iter()
                    .map(|entry| {
                        let mut parts = entry.split(',').map(str::to_string);
                        let lobby = parts.next().unwrap_or_default();
                        (lobby, parts.collect())
                    })
                    .collect(),
            }),
            _ => Err(MessageError::UnknownKeyword {
                got: crate::frontend::quote::clip(keyword),
            }),
        }
    }
}

/// A tile as a server spells it, read as the oriented set tile it describes.
fn spelled(keyword: &'static str, text: &str) -> Result<OrientedTile, MessageError> {
    super::command::tile(text)
        .ok()
        .and_then(Spelling::resolve)
        .ok_or_else(|| bad(keyword, "the tile", "a tile of the set, e.g. RRY0", text))
}

fn bad(
    keyword: &'static str,
    word: &'static str,
    expected: &'static str,
    got: &str,
) -> MessageError {
    MessageError::BadWord {
        keyword,
        word,
        expected,
        got: crate::frontend::quote::clip(got),
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
                ServerMessage::available_extensions(),
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
            // Read back, a line formats as itself (free text was made one line).
            let read = ServerMessage::parse(line).map(|m| m.to_string());
            assert_eq!(read.as_deref(), Ok(line));
        }
    }

    #[test]
    fn a_server_s_lines_that_break_the_protocol_say_how() {
        let table = [
            (
                "HELLO",
                "'HELLO' is no server message of the Spectrangle protocol (ERROR, LOBBY, START, UPDATE, TILE, SCORE, or an extension's AVAILABLE_EXTENSIONS, CHAT_MESSAGE, ACTIVE_LOBBIES)",
            ),
            (
                "ERROR x oops",
                "ERROR: the code must be a number from 0 to 9, got 'x'",
            ),
            (
                "TILE Ann",
                "TILE takes a name and a tile after the keyword, got 1",
            ),
            (
                "TILE Ann GBR0",
                "TILE: the tile must be a tile of the set, e.g. RRY0, got 'GBR0'",
            ),
            (
                "UPDATE Ann RRY0 36",
                "UPDATE: the location must be a number from 0 to 35, got '36'",
            ),
            (
                "SCORE Ann:3",
                "SCORE: each score must be <name>,<points>, got 'Ann:3'",
            ),
        ];
        for (line, reason) in table {
            let error = ServerMessage::parse(line).expect_err(line);
            assert_eq!(error.to_string(), reason, "{line}");
        }
        // A tile spelled in another rotation is the tile it describes.
        let Ok(ServerMessage::Played { tile, .. }) = ServerMessage::parse("UPDATE Ann RYR1 4")
        else {
            panic!("an UPDATE");
        };
        assert_eq!(tile.to_string(), "RRY0");
        assert_eq!(
            ServerMessage::parse("ERROR  5   Not your turn: Bob is to move "),
            Ok(ServerMessage::error(
                ErrorCode::NotYourTurn,
                "Not your turn: Bob is to move"
            ))
        );
    }
}
