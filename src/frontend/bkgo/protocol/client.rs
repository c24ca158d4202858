//! What clients send: the parsed form of every line, read in the client's state.
//!
//! A line is judged against what the client may send now ([`Expecting`]): a line that
//! is no Bkgo message, a message that has no place in this state, or one whose
//! arguments do not parse is a [`ParseError`]: garbage, which ends the connection.
//! Whether a well-formed message may be obeyed (a watcher's `Place`, a name already
//! taken) is decided later, by the room.

use super::{CLIENT_VERSION_PREFIX, PlayerId};
use crate::cards::Mistake;
use crate::frontend::quote::clip;
use std::fmt;

/// What a client may send now: the state of its connection.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expecting {
    /// After the greeting: `BKGO-Client-version-<version>`.
    Version,
    /// After `OK`: `join`, `status` or `shutdown`.
    Request,
    /// After `GimmePassword`: `Password: <password>`.
    Password,
    /// After `GimmeGoPlayer`: `Player: <name>`.
    Player,
    /// In the room: `Place`, `Pass`, `Message`, `NewBoard`, `SendingBoard`,
    /// `SetName`, `Quitting`.
    Room,
}

/// One line from a client, parsed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ClientMessage {
    /// `BKGO-Client-version-<version>`: any version is accepted.
    Version(String),
    /// `join`: enter the room.
    Join,
    /// `status`: one line about the room, then the server closes.
    Status,
    /// `shutdown`: ask to stop the server (a password follows).
    Shutdown,
    /// `Password: <password>`, without surrounding blanks.
    Password(String),
    /// `Player: <name>`, without surrounding blanks; the name rules are checked later.
    Player(String),
    /// `Place: <x>, <y>`: x the column, y the row, both from 0, as sent (the room
    /// says when they are off the board).
    Place { x: i64, y: i64 },
    /// `Pass`.
    Pass,
    /// `Message: <text>`: chat to the room.
    Message(String),
    /// `NewBoard`: a new empty game.
    NewBoard,
    /// `SendingBoard`: SGF lines follow, up to `EOF`.
    SendingBoard,
    /// `SetName: <text>`: the room's name.
    SetName(String),
    /// `Quitting: <ID>`: leave the room.
    Quitting(PlayerId),
}

impl ClientMessage {
    /// The command word, for logs and reasons.
    pub fn command(&self) -> &'static str {
        match self {
            ClientMessage::Version(_) => "BKGO-Client-version",
            ClientMessage::Join => "join",
            ClientMessage::Status => "status",
            ClientMessage::Shutdown => "shutdown",
            ClientMessage::Password(_) => "Password",
            ClientMessage::Player(_) => "Player",
            ClientMessage::Place { .. } => "Place",
            ClientMessage::Pass => "Pass",
            ClientMessage::Message(_) => "Message",
            ClientMessage::NewBoard => "NewBoard",
            ClientMessage::SendingBoard => "SendingBoard",
            ClientMessage::SetName(_) => "SetName",
            ClientMessage::Quitting(_) => "Quitting",
        }
    }
}

/// A message a client may send: its command, its arguments as reasons spell them
/// (`None`: it takes none), and the states it belongs to.
struct Syntax {
    command: &'static str,
    arguments: Option<&'static str>,
    when: &'static [Expecting],
}

/// Every client message (`BKGO-Client-version-` is matched by its prefix). `EOF` only
/// ends an SGF stream, which the connection reads before any parsing.
const MESSAGES: [Syntax; 13] = [
    syntax("join", None, &[Expecting::Request]),
    syntax("status", None, &[Expecting::Request]),
    syntax("shutdown", None, &[Expecting::Request]),
    syntax("Password", Some("<password>"), &[Expecting::Password]),
    syntax("Player", Some("<your name>"), &[Expecting::Player]),
    syntax("Place", Some("<x>, <y>"), &[Expecting::Room]),
    syntax("Pass", None, &[Expecting::Room]),
    syntax("Message", Some("<text>"), &[Expecting::Room]),
    syntax("NewBoard", None, &[Expecting::Room]),
    syntax("SendingBoard", None, &[Expecting::Room]),
    syntax("SetName", Some("<room name>"), &[Expecting::Room]),
    syntax("Quitting", Some("<your ID>"), &[Expecting::Room]),
    syntax("EOF", None, &[]),
];

const fn syntax(
    command: &'static str,
    arguments: Option<&'static str>,
    when: &'static [Expecting],
) -> Syntax {
    Syntax {
        command,
        arguments,
        when,
    }
}

/// Messages only the server sends, named as such when a client sends one.
const SERVER_ONLY: [&str; 17] = [
    "BKGO-Server-version-0.6",
    "OK",
    "ClearPlayers",
    "BlackPlayer",
    "WhitePlayer",
    "AddPlayer",
    "AnnouncePlayer",
    "GoodbyePlayer",
    "Dialog",
    "ID",
    "Board",
    "GimmeBoard",
    "GimmeGoPlayer",
    "GimmeNewPassword",
    "GimmePassword",
    "ServerRejectedFatal",
    "ServerRejectedNonFatal",
];

impl fmt::Display for Expecting {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Expecting::Version => write!(f, "{CLIENT_VERSION_PREFIX}<your version>"),
            Expecting::Password => write!(f, "Password: <password>"),
            Expecting::Player => write!(f, "Player: <your name>"),
            Expecting::Request | Expecting::Room => {
                let forms: Vec<String> = MESSAGES
                    .iter()
                    .filter(|m| m.when.contains(self))
                    .map(form)
                    .collect();
                let separator = if *self == Expecting::Room { "; " } else { ", " };
                write!(f, "one of {}", forms.join(separator))
            }
        }
    }
}

/// A message as a reason spells it: `Place: <x>, <y>`, `Pass`.
fn form(message: &Syntax) -> String {
    match message.arguments {
        Some(arguments) => format!("{}: {arguments}", message.command),
        None => message.command.to_string(),
    }
}

/// Why a line is garbage. The `Display` text is what the client reads after
/// `Dialog:`, just before `ServerRejectedFatal`: what was wrong, what was expected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseError {
    /// The line is empty (or only blanks).
    Empty { expecting: Expecting },
    /// The line is no Bkgo message.
    Unknown { got: String, expecting: Expecting },
    /// A message in the wrong case (`place` for `Place`).
    WrongCase { got: String, command: &'static str },
    /// A message only the server sends.
    ServerOnly {
        command: &'static str,
        expecting: Expecting,
    },
    /// A client message that has no place in this state (`Player:` in the room).
    NotNow {
        command: &'static str,
        expecting: Expecting,
    },
    /// Anything but `Password:` after `GimmePassword` (never echoed: it may hold the
    /// password).
    NotPassword,
    /// A message that takes arguments, without its colon.
    MissingArguments {
        command: &'static str,
        arguments: &'static str,
    },
    /// A message that takes no arguments, with some.
    UnexpectedArguments { command: &'static str },
    /// `Place:` whose arguments are not two whole numbers joined by a comma.
    BadPlace { got: String },
    /// `Quitting:` whose argument is not an ID number.
    BadId { got: String },
    /// The line is longer than the server reads (it was discarded).
    LineTooLong { max_bytes: usize },
    /// The line is not UTF-8 text.
    NotUtf8,
}

impl ParseError {
    /// The kind of mistake it is, on the sender's report card.
    pub fn mistake(&self) -> Mistake {
        match self {
            ParseError::Empty { .. } => Mistake::EmptyLine,
            ParseError::Unknown { .. } => Mistake::UnknownCommand,
            ParseError::WrongCase { .. } => Mistake::WrongCase,
            ParseError::ServerOnly { .. } => Mistake::NotAClientMessage,
            // A room message before `Player:` is early; anything else out of place is
            // the wrong state.
            ParseError::NotNow {
                expecting: Expecting::Version | Expecting::Request | Expecting::Player,
                ..
            } => Mistake::BeforeHandshake,
            ParseError::NotNow { .. } | ParseError::NotPassword => Mistake::WrongState,
            ParseError::MissingArguments { .. } | ParseError::UnexpectedArguments { .. } => {
                Mistake::FieldCount
            }
            ParseError::BadPlace { .. } | ParseError::BadId { .. } => Mistake::NotANumber,
            ParseError::LineTooLong { .. } => Mistake::LineTooLong,
            ParseError::NotUtf8 => Mistake::NotUtf8,
        }
    }
}

impl ParseError {
    /// The same error quoting `shown` in place of the line it came from: a line that
    /// may hold a password is never echoed, logged or put on a card (`Password: <not
    /// shown>`).
    #[must_use]
    pub fn hiding(self, shown: &str) -> ParseError {
        match self {
            ParseError::Unknown { expecting, .. } => ParseError::Unknown {
                got: shown.to_string(),
                expecting,
            },
            ParseError::WrongCase { command, .. } => ParseError::WrongCase {
                got: shown.to_string(),
                command,
            },
            ParseError::BadPlace { .. } => ParseError::BadPlace {
                got: shown.to_string(),
            },
            other => other,
        }
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseError::Empty { expecting } => write!(f, "Empty line: expected {expecting}"),
            ParseError::Unknown { got, expecting } => {
                write!(f, "Unknown message '{got}': expected {expecting}")
            }
            ParseError::WrongCase { got, command } => write!(
                f,
                "Unknown message '{got}': messages are case sensitive, did you mean {command}?"
            ),
            ParseError::ServerOnly { command, expecting } => write!(
                f,
                "{command} is a message the server sends, not a client: expected {expecting}"
            ),
            ParseError::NotNow { command, expecting } => {
                write!(f, "{command} is not expected now: expected {expecting}")
            }
            ParseError::NotPassword => write!(
                f,
                "Expected Password: <password> after GimmePassword (the line is not shown)"
            ),
            ParseError::MissingArguments { command, arguments } => write!(
                f,
                "{command} takes arguments after a colon: send {command}: {arguments}"
            ),
            ParseError::UnexpectedArguments { command } => {
                write!(f, "{command} takes no arguments: send {command} alone")
            }
            ParseError::BadPlace { got } => write!(
                f,
                "Place needs two whole numbers joined by a comma, x then y, as in Place: 3, 15, got '{got}'"
            ),
            ParseError::BadId { got } => write!(
                f,
                "Quitting needs your ID number (from your ID: line), as in Quitting: 7, got '{got}'"
            ),
            ParseError::LineTooLong { max_bytes } => {
                write!(f, "Line too long: at most {max_bytes} bytes per line")
            }
            ParseError::NotUtf8 => write!(f, "The line is not valid UTF-8 text"),
        }
    }
}

impl std::error::Error for ParseError {}

/// Parses one line (without its line ending), sent while `expecting`.
///
/// Blanks around the line and around arguments are ignored. Commands are case
/// sensitive, as the spec writes them.
///
/// # Errors
///
/// A [`ParseError`] saying what was wrong and what was expected.
pub fn parse(line: &str, expecting: Expecting) -> Result<ClientMessage, ParseError> {
    let line = line.trim();
    let (command, arguments) = match line.split_once(':') {
        Some((command, arguments)) => (command.trim_end(), Some(arguments.trim())),
        None => (line, None),
    };
    if expecting == Expecting::Password {
        return match (command, arguments) {
            ("Password", Some(password)) => Ok(ClientMessage::Password(password.to_string())),
            _ => Err(ParseError::NotPassword),
        };
    }
    if line.is_empty() {
        return Err(ParseError::Empty { expecting });
    }
    if let Some(version) = line.strip_prefix(CLIENT_VERSION_PREFIX) {
        return match expecting {
            Expecting::Version => Ok(ClientMessage::Version(version.to_string())),
            _ => Err(ParseError::NotNow {
                command: "BKGO-Client-version",
                expecting,
            }),
        };
    }
    let syntax = find(command, line, expecting)?;
    if !syntax.when.contains(&expecting) {
        return Err(ParseError::NotNow {
            command: syntax.command,
            expecting,
        });
    }
    let arguments = match (syntax.arguments, arguments) {
        (Some(_), Some(arguments)) => arguments,
        (Some(forms), None) => {
            return Err(ParseError::MissingArguments {
                command: syntax.command,
                arguments: forms,
            });
        }
        // `Pass:` with nothing after the colon is still `Pass`.
        (None, Some(arguments)) if !arguments.is_empty() => {
            return Err(ParseError::UnexpectedArguments {
                command: syntax.command,
            });
        }
        (None, _) => "",
    };
    Ok(match syntax.command {
        "join" => ClientMessage::Join,
        "status" => ClientMessage::Status,
        "shutdown" => ClientMessage::Shutdown,
        "Player" => ClientMessage::Player(arguments.to_string()),
        "Place" => place(arguments)?,
        "Pass" => ClientMessage::Pass,
        "Message" => ClientMessage::Message(arguments.to_string()),
        "NewBoard" => ClientMessage::NewBoard,
        "SendingBoard" => ClientMessage::SendingBoard,
        "SetName" => ClientMessage::SetName(arguments.to_string()),
        _ => ClientMessage::Quitting(player_id(arguments)?),
    })
}

/// The message `command` names (the text before a colon, or the whole `line`).
fn find(command: &str, line: &str, expecting: Expecting) -> Result<&'static Syntax, ParseError> {
    if let Some(syntax) = MESSAGES.iter().find(|m| m.command == command) {
        return Ok(syntax);
    }
    if let Some(syntax) = MESSAGES
        .iter()
        .find(|m| m.command.eq_ignore_ascii_case(command))
    {
        return Err(ParseError::WrongCase {
            got: clip(command),
            command: syntax.command,
        });
    }
    if let Some(&server) = SERVER_ONLY.iter().find(|&&s| s == command) {
        return Err(ParseError::ServerOnly {
            command: server,
            expecting,
        });
    }
    // `Place 3, 4`: a message that takes arguments, sent without its colon.
    let first_word = line.split_whitespace().next().unwrap_or("");
    if let Some(syntax) = MESSAGES.iter().find(|m| m.command == first_word)
        && let Some(arguments) = syntax.arguments
        && syntax.when.contains(&expecting)
    {
        return Err(ParseError::MissingArguments {
            command: syntax.command,
            arguments,
        });
    }
    Err(ParseError::Unknown {
        got: clip(line),
        expecting,
    })
}

/// `<x>, <y>`: two whole numbers (perhaps negative) joined by a comma.
fn place(arguments: &str) -> Result<ClientMessage, ParseError> {
    let bad = || ParseError::BadPlace {
        got: clip(arguments),
    };
    let numbers: Vec<&str> = arguments.split(',').map(str::trim).collect();
    let [x, y] = numbers.as_slice() else {
        return Err(bad());
    };
    match (whole_number(x), whole_number(y)) {
        (Some(x), Some(y)) => Ok(ClientMessage::Place { x, y }),
        _ => Err(bad()),
    }
}

/// An optional `-` and decimal digits, within `i64`.
fn whole_number(text: &str) -> Option<i64> {
    let digits = text.strip_prefix('-').unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

/// An ID: decimal digits, within `u64`.
fn player_id(text: &str) -> Result<PlayerId, ParseError> {
    let bad = || ParseError::BadId { got: clip(text) };
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad());
    }
    text.parse().map(PlayerId).map_err(|_| bad())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_every_message_in_its_state() {
        let table = [
            (
                "BKGO-Client-version-0.6",
                Expecting::Version,
                ClientMessage::Version("0.6".into()),
            ),
            (
                "BKGO-Client-version-",
                Expecting::Version,
                ClientMessage::Version(String::new()),
            ),
            ("join", Expecting::Request, ClientMessage::Join),
            (" status \r", Expecting::Request, ClientMessage::Status),
            ("shutdown", Expecting::Request, ClientMessage::Shutdown),
            (
                "Password: s3cret ",
                Expecting::Password,
                ClientMessage::Password("s3cret".into()),
            ),
            (
                "Password:",
                Expecting::Password,
                ClientMessage::Password(String::new()),
            ),
            (
                "Player: Thiery Baudet",
                Expecting::Player,
                ClientMessage::Player("Thiery Baudet".into()),
            ),
            (
                "Player:",
                Expecting::Player,
                ClientMessage::Player(String::new()),
            ),
            (
                "Place: 3, 15",
                Expecting::Room,
                ClientMessage::Place { x: 3, y: 15 },
            ),
            (
                "Place:3,15",
                Expecting::Room,
                ClientMessage::Place { x: 3, y: 15 },
            ),
            (
                "Place: 19, 0",
                Expecting::Room,
                ClientMessage::Place { x: 19, y: 0 },
            ),
            (
                "Place: -1, 3",
                Expecting::Room,
                ClientMessage::Place { x: -1, y: 3 },
            ),
            ("Pass", Expecting::Room, ClientMessage::Pass),
            ("Pass:", Expecting::Room, ClientMessage::Pass),
            (
                "Message: hello: world, all",
                Expecting::Room,
                ClientMessage::Message("hello: world, all".into()),
            ),
            (
                "Message:",
                Expecting::Room,
                ClientMessage::Message(String::new()),
            ),
            ("NewBoard", Expecting::Room, ClientMessage::NewBoard),
            ("SendingBoard", Expecting::Room, ClientMessage::SendingBoard),
            (
                "SetName: Lab 3",
                Expecting::Room,
                ClientMessage::SetName("Lab 3".into()),
            ),
            (
                "Quitting: 7",
                Expecting::Room,
                ClientMessage::Quitting(PlayerId(7)),
            ),
        ];
        for (line, expecting, expected) in table {
            assert_eq!(parse(line, expecting), Ok(expected), "{line:?}");
        }
    }

    #[test]
    fn garbage_says_what_was_expected() {
        let room = "one of Place: <x>, <y>; Pass; Message: <text>; NewBoard; SendingBoard; SetName: <room name>; Quitting: <your ID>";
        let table = [
            (
                "hello",
                Expecting::Version,
                "Unknown message 'hello': expected BKGO-Client-version-<your version>".to_string(),
            ),
            (
                "",
                Expecting::Request,
                "Empty line: expected one of join, status, shutdown".to_string(),
            ),
            (
                "JOIN",
                Expecting::Request,
                "Unknown message 'JOIN': messages are case sensitive, did you mean join?"
                    .to_string(),
            ),
            (
                "Player: Ann",
                Expecting::Request,
                "Player is not expected now: expected one of join, status, shutdown".to_string(),
            ),
            (
                "join",
                Expecting::Version,
                "join is not expected now: expected BKGO-Client-version-<your version>"
                    .to_string(),
            ),
            (
                "BKGO-Client-version-1",
                Expecting::Room,
                format!("BKGO-Client-version is not expected now: expected {room}"),
            ),
            (
                "hunter2",
                Expecting::Password,
                "Expected Password: <password> after GimmePassword (the line is not shown)"
                    .to_string(),
            ),
            (
                "password: hunter2",
                Expecting::Password,
                "Expected Password: <password> after GimmePassword (the line is not shown)"
                    .to_string(),
            ),
            (
                "Name: Ann",
                Expecting::Player,
                "Unknown message 'Name: Ann': expected Player: <your name>".to_string(),
            ),
            (
                "Player",
                Expecting::Player,
                "Player takes arguments after a colon: send Player: <your name>".to_string(),
            ),
            (
                "Password: x",
                Expecting::Room,
                format!("Password is not expected now: expected {room}"),
            ),
            (
                "Player: Ann",
                Expecting::Room,
                format!("Player is not expected now: expected {room}"),
            ),
            (
                "EOF",
                Expecting::Room,
                format!("EOF is not expected now: expected {room}"),
            ),
            (
                "Dialog: hi",
                Expecting::Room,
                format!("Dialog is a message the server sends, not a client: expected {room}"),
            ),
            (
                "place: 3, 4",
                Expecting::Room,
                "Unknown message 'place': messages are case sensitive, did you mean Place?"
                    .to_string(),
            ),
            (
                "Place",
                Expecting::Room,
                "Place takes arguments after a colon: send Place: <x>, <y>".to_string(),
            ),
            (
                "Place 3, 4",
                Expecting::Room,
                "Place takes arguments after a colon: send Place: <x>, <y>".to_string(),
            ),
            (
                "Pass: now",
                Expecting::Room,
                "Pass takes no arguments: send Pass alone".to_string(),
            ),
            (
                "Place: a, b",
                Expecting::Room,
                "Place needs two whole numbers joined by a comma, x then y, as in Place: 3, 15, got 'a, b'".to_string(),
            ),
            (
                "Place: 3 4",
                Expecting::Room,
                "Place needs two whole numbers joined by a comma, x then y, as in Place: 3, 15, got '3 4'".to_string(),
            ),
            (
                "Place: 1, 2, 3",
                Expecting::Room,
                "Place needs two whole numbers joined by a comma, x then y, as in Place: 3, 15, got '1, 2, 3'".to_string(),
            ),
            (
                "Place: +1, 2",
                Expecting::Room,
                "Place needs two whole numbers joined by a comma, x then y, as in Place: 3, 15, got '+1, 2'".to_string(),
            ),
            (
                "Place: 99999999999999999999, 2",
                Expecting::Room,
                "Place needs two whole numbers joined by a comma, x then y, as in Place: 3, 15, got '99999999999999999999, 2'".to_string(),
            ),
            (
                "Quitting: me",
                Expecting::Room,
                "Quitting needs your ID number (from your ID: line), as in Quitting: 7, got 'me'"
                    .to_string(),
            ),
            (
                "Quitting: -1",
                Expecting::Room,
                "Quitting needs your ID number (from your ID: line), as in Quitting: 7, got '-1'"
                    .to_string(),
            ),
        ];
        for (line, expecting, reason) in table {
            let error = parse(line, expecting).expect_err(line);
            assert_eq!(error.to_string(), reason, "{line:?}");
            assert!(!reason.contains('+') || line.contains('+'), "{reason}");
        }
    }

    #[test]
    fn any_input_is_a_value_not_a_panic() {
        let states = [
            Expecting::Version,
            Expecting::Request,
            Expecting::Password,
            Expecting::Player,
            Expecting::Room,
        ];
        for line in [
            ":",
            "::",
            ": x",
            "Place:",
            "Place: ,",
            "Place: -, -",
            "\u{0}",
            "Quitting:",
        ] {
            for expecting in states {
                let _ = parse(line, expecting);
            }
        }
    }
}
