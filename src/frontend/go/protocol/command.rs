//! Client commands: the parsed form of every line a client may send.

use super::GameId;
use crate::frontend::names;
use crate::frontend::quote::clip;
use std::fmt;

pub use names::MAX_NAME_CHARS;

/// The colour a leader asks for in `SET_CONFIG`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColourChoice {
    /// `0`: the server draws the leader's colour.
    Random,
    /// `1`.
    Black,
    /// `2`.
    White,
}

/// One line from a client, parsed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ClientCommand {
    /// `HANDSHAKE+<name>`: identify, ask to be matched.
    Handshake { name: String },
    /// `SET_CONFIG+<game id>+<colour 0-2>+<board size>`: the leader's configuration.
    /// The size is checked against the server's limits later, not here.
    SetConfig {
        game_id: GameId,
        colour: ColourChoice,
        size: u32,
    },
    /// `SET_REMATCH+<1|0>`: the answer to `REQUEST_REMATCH`.
    SetRematch { rematch: bool },
    /// `MOVE+<game id>+<name>+<index>`; an index of `-1` is a pass, any other value is
    /// kept as sent so the game can say why it is off the board.
    Move {
        game_id: GameId,
        player: String,
        index: i64,
    },
    /// `PASS+<game id>+<name>`: the draft protocol's pass, same as `MOVE+..+-1`.
    Pass { game_id: GameId, player: String },
    /// `EXIT+<game id>+<name>`: leave the game (and the server).
    Exit { game_id: GameId, player: String },
}

impl ClientCommand {
    /// The keyword, for logs and error messages.
    pub fn keyword(&self) -> &'static str {
        match self {
            ClientCommand::Handshake { .. } => "HANDSHAKE",
            ClientCommand::SetConfig { .. } => "SET_CONFIG",
            ClientCommand::SetRematch { .. } => "SET_REMATCH",
            ClientCommand::Move { .. } => "MOVE",
            ClientCommand::Pass { .. } => "PASS",
            ClientCommand::Exit { .. } => "EXIT",
        }
    }
}

/// Why a line is not a command. The `Display` text is what the client receives after
/// `UNKNOWN_COMMAND+`: it names what was expected and what arrived.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseError {
    /// The line was empty (or only blanks).
    EmptyLine,
    /// The first field is no keyword we know.
    UnknownKeyword { got: String },
    /// The keyword is known but written in the wrong case.
    WrongCase { got: String, keyword: &'static str },
    /// The keyword is right, the number of fields is not.
    FieldCount { keyword: &'static str, got: usize },
    /// A field that must be a number is not one (or is out of its range).
    NotANumber {
        keyword: &'static str,
        field: &'static str,
        got: String,
    },
    /// A number field holds a value the command does not allow.
    BadValue {
        keyword: &'static str,
        field: &'static str,
        expected: &'static str,
        got: String,
    },
    /// The name in HANDSHAKE breaks the name rules.
    BadName { reason: String },
    /// A number field is a number, but too large (or small) for its type.
    OutOfRange {
        keyword: &'static str,
        field: &'static str,
        got: String,
    },
    /// The line was longer than the server accepts (it was discarded).
    LineTooLong { max_bytes: usize },
    /// The line is not UTF-8 text.
    NotUtf8,
}

/// Each command: its keyword, its number of fields (keyword included), and its fields
/// in order as the error messages spell them out.
const COMMANDS: [(&str, usize, &str); 6] = [
    ("HANDSHAKE", 2, "HANDSHAKE, your name"),
    (
        "SET_CONFIG",
        4,
        "SET_CONFIG, game id, colour (0 random, 1 black, 2 white), board size",
    ),
    ("SET_REMATCH", 2, "SET_REMATCH, 1 for yes or 0 for no"),
    (
        "MOVE",
        4,
        "MOVE, game id, your name, tile index (-1 to pass)",
    ),
    ("PASS", 3, "PASS, game id, your name"),
    ("EXIT", 3, "EXIT, game id, your name"),
];

/// The number of fields of `keyword` and how they are spelled out.
fn syntax(keyword: &str) -> (usize, &'static str) {
    COMMANDS
        .iter()
        .find(|(k, _, _)| *k == keyword)
        .map_or((0, ""), |(_, count, text)| (*count, *text))
}

/// The commands a client may send, for the "unknown command" message.
fn keywords() -> impl Iterator<Item = &'static str> {
    COMMANDS.iter().map(|(k, _, _)| *k)
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseError::EmptyLine => write!(
                f,
                "Empty line: expected a command such as HANDSHAKE, SET_CONFIG, MOVE or EXIT"
            ),
            ParseError::UnknownKeyword { got } => write!(
                f,
                "Unknown command '{got}': expected one of {}",
                keywords().collect::<Vec<_>>().join(", ")
            ),
            ParseError::WrongCase { got, keyword } => write!(
                f,
                "Unknown command '{got}': commands are upper case, did you mean {keyword}?"
            ),
            ParseError::FieldCount { keyword, got } => {
                let (expected, fields) = syntax(keyword);
                write!(
                    f,
                    "Expected {expected} fields joined by plus signs ({fields}), got {got}"
                )
            }
            ParseError::NotANumber {
                keyword,
                field,
                got,
            } => write!(f, "{keyword}: {field} must be a whole number, got '{got}'"),
            ParseError::BadValue {
                keyword,
                field,
                expected,
                got,
            } => write!(f, "{keyword}: {field} must be {expected}, got {got}"),
            ParseError::BadName { reason } => write!(f, "HANDSHAKE: {reason}"),
            ParseError::OutOfRange {
                keyword,
                field,
                got,
            } => write!(f, "{keyword}: {field} is out of range, got '{got}'"),
            ParseError::LineTooLong { max_bytes } => {
                write!(f, "Line too long: at most {max_bytes} bytes per line")
            }
            ParseError::NotUtf8 => write!(f, "The line is not valid UTF-8 text"),
        }
    }
}

impl std::error::Error for ParseError {}

/// Parses one line (without its line ending) into a command.
///
/// Fields are split on `+` and trimmed of surrounding blanks; keywords must be upper
/// case exactly as the spec writes them.
///
/// # Errors
///
/// A [`ParseError`] saying what was expected and what arrived.
pub fn parse(line: &str) -> Result<ClientCommand, ParseError> {
    let fields: Vec<&str> = line.split('+').map(str::trim).collect();
    let keyword_text = fields[0];
    if fields.len() == 1 && keyword_text.is_empty() {
        return Err(ParseError::EmptyLine);
    }
    let Some(keyword) = keywords().find(|k| *k == keyword_text) else {
        return Err(
            match keywords().find(|k| k.eq_ignore_ascii_case(keyword_text)) {
                Some(keyword) => ParseError::WrongCase {
                    got: clip(keyword_text),
                    keyword,
                },
                None => ParseError::UnknownKeyword {
                    got: clip(keyword_text),
                },
            },
        );
    };
    if fields.len() != syntax(keyword).0 {
        return Err(ParseError::FieldCount {
            keyword,
            got: fields.len(),
        });
    }
    let args = &fields[1..];
    match keyword {
        "HANDSHAKE" => Ok(ClientCommand::Handshake {
            name: valid_name(args[0])?,
        }),
        "SET_CONFIG" => Ok(ClientCommand::SetConfig {
            game_id: game_id(keyword, args[0])?,
            colour: colour_choice(args[1])?,
            size: number::<u32>(keyword, "board size", args[2])?,
        }),
        "SET_REMATCH" => match number::<i64>(keyword, "the answer", args[0])? {
            1 => Ok(ClientCommand::SetRematch { rematch: true }),
            0 => Ok(ClientCommand::SetRematch { rematch: false }),
            other => Err(ParseError::BadValue {
                keyword,
                field: "the answer",
                expected: "1 (yes) or 0 (no)",
                got: other.to_string(),
            }),
        },
        "MOVE" => Ok(ClientCommand::Move {
            game_id: game_id(keyword, args[0])?,
            player: args[1].to_string(),
            index: number::<i64>(keyword, "tile index (-1 to pass)", args[2])?,
        }),
        "PASS" => Ok(ClientCommand::Pass {
            game_id: game_id(keyword, args[0])?,
            player: args[1].to_string(),
        }),
        _ => Ok(ClientCommand::Exit {
            game_id: game_id(keyword, args[0])?,
            player: args[1].to_string(),
        }),
    }
}

fn game_id(keyword: &'static str, text: &str) -> Result<GameId, ParseError> {
    number::<u32>(keyword, "game id", text).map(GameId)
}

fn number<T: std::str::FromStr>(
    keyword: &'static str,
    field: &'static str,
    text: &str,
) -> Result<T, ParseError> {
    text.parse().map_err(|_| {
        let digits = text.strip_prefix('-').unwrap_or(text);
        if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
            ParseError::OutOfRange {
                keyword,
                field,
                got: clip(text),
            }
        } else {
            ParseError::NotANumber {
                keyword,
                field,
                got: clip(text),
            }
        }
    })
}

fn colour_choice(text: &str) -> Result<ColourChoice, ParseError> {
    match number::<i64>("SET_CONFIG", "colour", text)? {
        0 => Ok(ColourChoice::Random),
        1 => Ok(ColourChoice::Black),
        2 => Ok(ColourChoice::White),
        other => Err(ParseError::BadValue {
            keyword: "SET_CONFIG",
            field: "colour",
            expected: "0 (random), 1 (black) or 2 (white)",
            got: other.to_string(),
        }),
    }
}

/// Checks the name rules shared by the front ends (see `frontend::names`).
fn valid_name(name: &str) -> Result<String, ParseError> {
    match names::check(name) {
        Ok(()) => Ok(name.to_string()),
        Err(broken) => Err(ParseError::BadName {
            reason: broken.to_string(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_every_command() {
        let table = [
            (
                "HANDSHAKE+Thiery Baudet",
                ClientCommand::Handshake {
                    name: "Thiery Baudet".into(),
                },
            ),
            (
                "SET_CONFIG+3+1+9",
                ClientCommand::SetConfig {
                    game_id: GameId(3),
                    colour: ColourChoice::Black,
                    size: 9,
                },
            ),
            (
                "SET_CONFIG + 3 + 0 + 19 ",
                ClientCommand::SetConfig {
                    game_id: GameId(3),
                    colour: ColourChoice::Random,
                    size: 19,
                },
            ),
            ("SET_REMATCH+1", ClientCommand::SetRematch { rematch: true }),
            (
                "SET_REMATCH+0",
                ClientCommand::SetRematch { rematch: false },
            ),
            (
                "MOVE+1+Bob+9",
                ClientCommand::Move {
                    game_id: GameId(1),
                    player: "Bob".into(),
                    index: 9,
                },
            ),
            (
                "MOVE+1+Bob+-1",
                ClientCommand::Move {
                    game_id: GameId(1),
                    player: "Bob".into(),
                    index: -1,
                },
            ),
            (
                "PASS+1+Bob",
                ClientCommand::Pass {
                    game_id: GameId(1),
                    player: "Bob".into(),
                },
            ),
            (
                "EXIT+1+Bob",
                ClientCommand::Exit {
                    game_id: GameId(1),
                    player: "Bob".into(),
                },
            ),
        ];
        for (line, expected) in table {
            assert_eq!(parse(line), Ok(expected), "{line}");
        }
    }

    #[test]
    fn rejections_say_what_was_expected() {
        let table = [
            (
                "",
                "Empty line: expected a command such as HANDSHAKE, SET_CONFIG, MOVE or EXIT",
            ),
            (
                "HELLO+x",
                "Unknown command 'HELLO': expected one of HANDSHAKE, SET_CONFIG, SET_REMATCH, MOVE, PASS, EXIT",
            ),
            (
                "move+1+Bob+3",
                "Unknown command 'move': commands are upper case, did you mean MOVE?",
            ),
            (
                "MOVE+1+3",
                "Expected 4 fields joined by plus signs (MOVE, game id, your name, tile index (-1 to pass)), got 3",
            ),
            (
                "SET_CONFIG+1+9",
                "Expected 4 fields joined by plus signs (SET_CONFIG, game id, colour (0 random, 1 black, 2 white), board size), got 3",
            ),
            (
                "MOVE+x+Bob+3",
                "MOVE: game id must be a whole number, got 'x'",
            ),
            (
                "MOVE+1+Bob+three",
                "MOVE: tile index (-1 to pass) must be a whole number, got 'three'",
            ),
            (
                "SET_CONFIG+1+5+9",
                "SET_CONFIG: colour must be 0 (random), 1 (black) or 2 (white), got 5",
            ),
            (
                "SET_REMATCH+2",
                "SET_REMATCH: the answer must be 1 (yes) or 0 (no), got 2",
            ),
            ("HANDSHAKE+", "HANDSHAKE: the name must not be empty"),
            (
                "MOVE+1+Bob+11111111111111111111111111",
                "MOVE: tile index (-1 to pass) is out of range, got '11111111111111111111111111'",
            ),
            ("MOVE+-1+Bob+1", "MOVE: game id is out of range, got '-1'"),
            (
                "HANDSHAKE+a\u{7}b",
                "HANDSHAKE: the name must not contain control characters",
            ),
            (
                "HANDSHAKE+abcdefghijklmnopqrstuvwxyz0123456789",
                "HANDSHAKE: the name may have at most 32 characters, got 36",
            ),
        ];
        for (line, expected) in table {
            let error = parse(line).expect_err(line);
            assert_eq!(error.to_string(), expected, "{line}");
            assert!(!error.to_string().contains('+'), "{line}");
        }
    }

    #[test]
    fn any_input_is_a_value_not_a_panic() {
        for line in [
            "+",
            "++++",
            "MOVE++++",
            "HANDSHAKE+ ",
            "\u{0}",
            "MOVE+99999999999+a+1",
        ] {
            let _ = parse(line);
        }
    }
}
