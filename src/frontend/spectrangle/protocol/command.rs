//! Client lines to typed requests: the keyword, then the arguments or why they are
//! wrong (see the module doc of `protocol` for why the two come apart).

use super::ErrorCode;
use crate::cards::Mistake;
use crate::engine::spectrangle::{Colour, Letters, Location, Rotation, Spelling};
use crate::frontend::quote::clip;
use base64::Engine as _;
use std::fmt;

/// The longest player or lobby name, in characters.
pub const MAX_NAME_CHARS: usize = 32;

/// Every command a client may send.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Keyword {
    /// `JOIN <name> [lobby]`
    Join,
    /// `READY`
    Ready,
    /// `MOVE_PLAY <tile> <location>` (and the protocol example's `MOVE`)
    MovePlay,
    /// `MOVE_SWAP <tile>`
    MoveSwap,
    /// `MOVE_SKIP`
    MoveSkip,
    /// `EXIT`
    Exit,
    /// `EXTENSIONS`
    Extensions,
    /// `ENABLE_EXTENSION <name>...`
    EnableExtension,
    /// `CHAT <base64 text>` (extension `chat`)
    Chat,
    /// `LOBBIES` (extension `multilobby`)
    Lobbies,
}

/// Each keyword, how it is written, how many arguments it takes (least, most) and its
/// syntax as error messages show it.
const SYNTAX: [(Keyword, &str, usize, usize, &str); 10] = [
    (Keyword::Join, "JOIN", 1, 2, "JOIN <name> [lobby]"),
    (Keyword::Ready, "READY", 0, 0, "READY"),
    (
        Keyword::MovePlay,
        "MOVE_PLAY",
        2,
        2,
        "MOVE_PLAY <tile> <location>",
    ),
    (Keyword::MoveSwap, "MOVE_SWAP", 1, 1, "MOVE_SWAP <tile>"),
    (Keyword::MoveSkip, "MOVE_SKIP", 0, 0, "MOVE_SKIP"),
    (Keyword::Exit, "EXIT", 0, 0, "EXIT"),
    (Keyword::Extensions, "EXTENSIONS", 0, 0, "EXTENSIONS"),
    (
        Keyword::EnableExtension,
        "ENABLE_EXTENSION",
        1,
        usize::MAX,
        "ENABLE_EXTENSION <name>...",
    ),
    (Keyword::Chat, "CHAT", 1, 1, "CHAT <base64 text>"),
    (Keyword::Lobbies, "LOBBIES", 0, 0, "LOBBIES"),
];

/// The protocol example's name for `MOVE_PLAY`.
const MOVE_ALIAS: &str = "MOVE";

impl Keyword {
    /// How the keyword is written.
    pub fn word(self) -> &'static str {
        self.syntax().1
    }

    /// The command's syntax, e.g. `MOVE_PLAY <tile> <location>`.
    pub fn usage(self) -> &'static str {
        self.syntax().4
    }

    fn syntax(self) -> (Keyword, &'static str, usize, usize, &'static str) {
        SYNTAX
            .iter()
            .copied()
            .find(|entry| entry.0 == self)
            .unwrap_or(SYNTAX[0])
    }

    fn from_word(word: &str) -> Option<Keyword> {
        if word == MOVE_ALIAS {
            return Some(Keyword::MovePlay);
        }
        SYNTAX.iter().find(|entry| entry.1 == word).map(|e| e.0)
    }
}

/// The protocol's extensions this server has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Extension {
    /// `chat`: CHAT and CHAT_MESSAGE.
    Chat,
    /// `multilobby`: JOIN with a lobby name, LOBBIES.
    Multilobby,
}

impl Extension {
    /// Every extension, in the order `AVAILABLE_EXTENSIONS` lists them.
    pub const ALL: [Extension; 2] = [Extension::Chat, Extension::Multilobby];

    /// Its name on the wire.
    pub fn name(self) -> &'static str {
        match self {
            Extension::Chat => "chat",
            Extension::Multilobby => "multilobby",
        }
    }
}

/// A player name: 1 to 32 characters of `A-Z a-z 0-9 _ -`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PlayerName(String);

impl PlayerName {
    /// `text` as a player name.
    ///
    /// # Errors
    ///
    /// [`ArgumentError::BadName`] saying which rule it breaks.
    pub fn parse(text: &str) -> Result<PlayerName, ArgumentError> {
        checked_name(text, |c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
            .map(PlayerName)
            .map_err(|reason| ArgumentError::BadName { reason })
    }

    /// The name as written.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for PlayerName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// A lobby name (extension `multilobby`): 1 to 32 characters of `A-Z a-z 0-9 _ . -`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LobbyName(String);

impl LobbyName {
    /// `text` as a lobby name.
    ///
    /// # Errors
    ///
    /// [`ArgumentError::BadLobbyName`] saying which rule it breaks.
    pub fn parse(text: &str) -> Result<LobbyName, ArgumentError> {
        checked_name(text, |c| {
            c.is_ascii_alphanumeric() || c == '_' || c == '.' || c == '-'
        })
        .map(LobbyName)
        .map_err(|reason| ArgumentError::BadLobbyName { reason })
    }

    /// A name the server gives (a default lobby's `default-2`), known to be valid.
    pub fn server_given(name: String) -> LobbyName {
        LobbyName(name)
    }

    /// The name as written.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for LobbyName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// `text` if it has 1 to [`MAX_NAME_CHARS`] characters, all `allowed`; else why not.
fn checked_name(text: &str, allowed: impl Fn(char) -> bool) -> Result<String, String> {
    let count = text.chars().count();
    if count == 0 {
        Err("a name must not be empty".to_string())
    } else if count > MAX_NAME_CHARS {
        Err(format!(
            "a name has at most {MAX_NAME_CHARS} characters, got {count}"
        ))
    } else if let Some(bad) = text.chars().find(|&c| !allowed(c)) {
        Err(format!("'{}' may not be in a name", bad.escape_debug()))
    } else {
        Ok(text.to_string())
    }
}

/// A command with its arguments checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// Join a lobby. The lobby argument is kept as written: it counts only for a client
    /// with `multilobby` enabled (then [`LobbyName::parse`] checks it).
    Join {
        name: PlayerName,
        lobby: Option<String>,
    },
    /// Ready to start.
    Ready,
    /// Place a tile, spelled as the client wrote it, on a field.
    Play {
        spelling: Spelling,
        location: Location,
    },
    /// Swap a tile with the bag (the rotation digit is checked, then ignored).
    Swap { letters: Letters },
    /// Skip the turn.
    Skip,
    /// Leave the lobby or game.
    Exit,
    /// Ask which extensions the server has.
    Extensions,
    /// Enable these extensions.
    EnableExtensions(Vec<Extension>),
    /// A chat line, base64 as sent (checked to decode).
    Chat { text: String },
    /// Ask for the lobbies not yet playing.
    Lobbies,
}

/// The line a client sends for this command (without its `\n`): the inverse of
/// [`parse`], used by `goserver check`, which speaks the protocol from the client's
/// side. A swap's tile is written with rotation digit 0.
impl fmt::Display for Command {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Command::Join { name, lobby: None } => write!(f, "JOIN {name}"),
            Command::Join {
                name,
                lobby: Some(lobby),
            } => write!(f, "JOIN {name} {lobby}"),
            Command::Ready => f.write_str("READY"),
            Command::Play { spelling, location } => write!(f, "MOVE_PLAY {spelling} {location}"),
            Command::Swap { letters } => write!(f, "MOVE_SWAP {letters}0"),
            Command::Skip => f.write_str("MOVE_SKIP"),
            Command::Exit => f.write_str("EXIT"),
            Command::Extensions => f.write_str("EXTENSIONS"),
            Command::EnableExtensions(extensions) => {
                f.write_str("ENABLE_EXTENSION")?;
                for extension in extensions {
                    write!(f, " {}", extension.name())?;
                }
                Ok(())
            }
            Command::Chat { text } => write!(f, "CHAT {text}"),
            Command::Lobbies => f.write_str("LOBBIES"),
        }
    }
}

/// A line that names a command: its keyword, and its arguments or why they are wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Request {
    /// Which command.
    pub keyword: Keyword,
    /// The command, or why its arguments are refused.
    pub command: Result<Command, ArgumentError>,
}

/// A line that names no command (ERROR 1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unrecognized {
    /// The first word is no keyword.
    UnknownKeyword { got: String },
    /// A keyword written in the wrong case (keywords are upper case).
    WrongCase { got: String, keyword: Keyword },
    /// The line is not UTF-8 text.
    NotUtf8,
}

impl fmt::Display for Unrecognized {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unrecognized::UnknownKeyword { got } => {
                let words: Vec<&str> = SYNTAX.iter().map(|entry| entry.1).collect();
                write!(
                    f,
                    "Unknown command '{got}': expected one of {}",
                    words.join(", ")
                )
            }
            Unrecognized::WrongCase { got, keyword } => write!(
                f,
                "Unknown command '{got}': commands are upper case, did you mean {}?",
                keyword.word()
            ),
            Unrecognized::NotUtf8 => write!(f, "The line is not valid UTF-8 text"),
        }
    }
}

/// Why a known command's arguments are refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ArgumentError {
    /// Too few or too many arguments.
    FieldCount { keyword: Keyword, got: usize },
    /// Not a tile: three letters of `RGBYPW` and a digit 0 to 2.
    NotATile { got: String },
    /// Not a location: a whole number from 0 to 35.
    NotALocation { got: String },
    /// A player name that breaks the name rules (ERROR 3).
    BadName { reason: String },
    /// A lobby name that breaks the lobby name rules.
    BadLobbyName { reason: String },
    /// A chat text that is not base64.
    NotBase64 { got: String },
    /// An extension this server does not have (ERROR 9).
    UnknownExtension { name: String },
    /// A line longer than the server reads (it was discarded).
    LineTooLong { max_bytes: usize },
}

impl ArgumentError {
    /// The error code this refusal is sent with.
    pub fn code(&self) -> ErrorCode {
        match self {
            ArgumentError::BadName { .. } => ErrorCode::InvalidName,
            ArgumentError::UnknownExtension { .. } => ErrorCode::UnsupportedExtension,
            _ => ErrorCode::InvalidArguments,
        }
    }

    /// The kind of mistake it is, on the sender's report card.
    pub fn mistake(&self) -> Mistake {
        match self {
            ArgumentError::FieldCount { .. } => Mistake::FieldCount,
            ArgumentError::NotATile { .. }
            | ArgumentError::NotALocation { .. }
            | ArgumentError::NotBase64 { .. } => Mistake::BadValue,
            ArgumentError::BadName { .. } | ArgumentError::BadLobbyName { .. } => Mistake::BadName,
            ArgumentError::UnknownExtension { .. } => Mistake::ExtensionOff,
            ArgumentError::LineTooLong { .. } => Mistake::LineTooLong,
        }
    }
}

impl Unrecognized {
    /// The kind of mistake it is, on the sender's report card.
    pub fn mistake(&self) -> Mistake {
        match self {
            Unrecognized::UnknownKeyword { .. } => Mistake::UnknownCommand,
            Unrecognized::WrongCase { .. } => Mistake::WrongCase,
            Unrecognized::NotUtf8 => Mistake::NotUtf8,
        }
    }
}

impl fmt::Display for ArgumentError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ArgumentError::FieldCount { keyword, got } => {
                let (_, word, least, most, usage) = keyword.syntax();
                let expected = match (least, most) {
                    (0, 0) => "no arguments".to_string(),
                    (n, m) if n == m => format!("{n} argument{}", plural(n)),
                    (n, usize::MAX) => format!("at least {n} argument{}", plural(n)),
                    (n, m) => format!("{n} to {m} arguments"),
                };
                write!(
                    f,
                    "{word} takes {expected} ({usage}), got {got} argument{}",
                    plural(*got)
                )
            }
            ArgumentError::NotATile { got } => write!(
                f,
                "'{got}' is not a tile: expected three letters of R, G, B, Y, P, W and a rotation digit 0, 1 or 2, e.g. RRY0"
            ),
            ArgumentError::NotALocation { got } => write!(
                f,
                "'{got}' is not a location: expected a whole number from 0 to 35"
            ),
            ArgumentError::BadName { reason } => write!(
                f,
                "Invalid name: {reason}; a name is 1 to {MAX_NAME_CHARS} letters, digits, _ or -"
            ),
            ArgumentError::BadLobbyName { reason } => write!(
                f,
                "Invalid lobby name: {reason}; a lobby name is 1 to {MAX_NAME_CHARS} letters, digits, _, . or -"
            ),
            ArgumentError::NotBase64 { got } => write!(
                f,
                "'{got}' is not base64: CHAT takes the message encoded in base64, e.g. CHAT aGVsbG8="
            ),
            ArgumentError::UnknownExtension { name } => {
                let names: Vec<&str> = Extension::ALL.iter().map(|e| e.name()).collect();
                write!(
                    f,
                    "Unsupported extension '{name}': this server has {}; none of this line was enabled",
                    names.join(" and ")
                )
            }
            ArgumentError::LineTooLong { max_bytes } => {
                write!(
                    f,
                    "Line too long: at most {max_bytes} bytes per line; it was discarded"
                )
            }
        }
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// Parses one line (without its line ending). `Ok(None)` for a line of blanks only,
/// which the protocol ignores.
///
/// # Errors
///
/// [`Unrecognized`] when the first word is no command.
pub fn parse(line: &str) -> Result<Option<Request>, Unrecognized> {
    let mut words = line.split([' ', '\t']).filter(|w| !w.is_empty());
    let Some(first) = words.next() else {
        return Ok(None);
    };
    let args: Vec<&str> = words.collect();
    let Some(keyword) = Keyword::from_word(first) else {
        let upper = first.to_ascii_uppercase();
        return Err(match Keyword::from_word(&upper) {
            Some(keyword) => Unrecognized::WrongCase {
                got: clip(first),
                keyword,
            },
            None => Unrecognized::UnknownKeyword { got: clip(first) },
        });
    };
    Ok(Some(Request {
        keyword,
        command: arguments(keyword, &args),
    }))
}

/// The command `keyword` with `args`, or why they do not fit.
fn arguments(keyword: Keyword, args: &[&str]) -> Result<Command, ArgumentError> {
    let (_, _, least, most, _) = keyword.syntax();
    if args.len() < least || args.len() > most {
        return Err(ArgumentError::FieldCount {
            keyword,
            got: args.len(),
        });
    }
    Ok(match keyword {
        Keyword::Join => Command::Join {
            name: PlayerName::parse(args[0])?,
            lobby: args.get(1).map(|lobby| (*lobby).to_string()),
        },
        Keyword::Ready => Command::Ready,
        Keyword::MovePlay => Command::Play {
            spelling: tile(args[0])?,
            location: location(args[1])?,
        },
        Keyword::MoveSwap => Command::Swap {
            letters: tile(args[0])?.letters,
        },
        Keyword::MoveSkip => Command::Skip,
        Keyword::Exit => Command::Exit,
        Keyword::Extensions => Command::Extensions,
        Keyword::EnableExtension => Command::EnableExtensions(
            args.iter()
                .map(|name| extension(name))
                .collect::<Result<_, _>>()?,
        ),
        Keyword::Chat => Command::Chat {
            text: base64_text(args[0])?,
        },
        Keyword::Lobbies => Command::Lobbies,
    })
}

/// A tile as a client writes it: three colour letters and a rotation digit.
pub(super) fn tile(text: &str) -> Result<Spelling, ArgumentError> {
    let not_a_tile = || ArgumentError::NotATile { got: clip(text) };
    let chars: Vec<char> = text.chars().collect();
    let [a, b, c, digit] = chars[..] else {
        return Err(not_a_tile());
    };
    let colour = |letter: char| Colour::from_letter(letter).ok_or_else(not_a_tile);
    let letters = Letters::new([colour(a)?, colour(b)?, colour(c)?]);
    let rotation = digit
        .to_digit(10)
        .and_then(|d| u8::try_from(d).ok())
        .and_then(Rotation::new)
        .ok_or_else(not_a_tile)?;
    Ok(Spelling { letters, rotation })
}

/// A location: a whole number from 0 to 35, digits only.
fn location(text: &str) -> Result<Location, ArgumentError> {
    let digits_only = !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit());
    digits_only
        .then(|| text.parse::<u64>().ok())
        .flatten()
        .and_then(Location::new)
        .ok_or_else(|| ArgumentError::NotALocation { got: clip(text) })
}

fn extension(name: &str) -> Result<Extension, ArgumentError> {
    Extension::ALL
        .into_iter()
        .find(|e| e.name() == name)
        .ok_or_else(|| ArgumentError::UnknownExtension { name: clip(name) })
}

fn base64_text(text: &str) -> Result<String, ArgumentError> {
    base64::engine::general_purpose::STANDARD
        .decode(text)
        .map(|_| text.to_string())
        .map_err(|_| ArgumentError::NotBase64 { got: clip(text) })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn command(line: &str) -> Result<Command, ArgumentError> {
        parse(line).expect("a command").expect("not blank").command
    }

    fn refusal(line: &str) -> (u8, String) {
        let error = command(line).expect_err(line);
        (error.code().number(), error.to_string())
    }

    #[test]
    fn every_command_formats_as_the_line_it_is_parsed_from() {
        for line in [
            "JOIN Ann",
            "JOIN Ann room-1",
            "READY",
            "MOVE_PLAY RYR1 12",
            "MOVE_SWAP PPY0",
            "MOVE_SKIP",
            "EXIT",
            "EXTENSIONS",
            "ENABLE_EXTENSION chat multilobby",
            "CHAT aGk=",
            "LOBBIES",
        ] {
            let command = command(line).expect(line);
            assert_eq!(command.to_string(), line);
        }
    }

    #[test]
    fn parses_every_command() {
        let rry1 = Spelling {
            letters: Letters::new([Colour::Red, Colour::Red, Colour::Yellow]),
            rotation: Rotation::new(1).expect("1"),
        };
        let table = [
            (
                "JOIN Ann",
                Command::Join {
                    name: PlayerName::parse("Ann").expect("name"),
                    lobby: None,
                },
            ),
            (
                "  JOIN   Ann_2-b   room.1 ",
                Command::Join {
                    name: PlayerName::parse("Ann_2-b").expect("name"),
                    lobby: Some("room.1".into()),
                },
            ),
            ("READY", Command::Ready),
            (
                "MOVE_PLAY RRY1 12",
                Command::Play {
                    spelling: rry1,
                    location: Location::new(12u8).expect("12"),
                },
            ),
            (
                "MOVE\tRRY1\t12",
                Command::Play {
                    spelling: rry1,
                    location: Location::new(12u8).expect("12"),
                },
            ),
            (
                "MOVE_SWAP RRY1",
                Command::Swap {
                    letters: rry1.letters,
                },
            ),
            ("MOVE_SKIP", Command::Skip),
            ("EXIT", Command::Exit),
            ("EXTENSIONS", Command::Extensions),
            (
                "ENABLE_EXTENSION multilobby chat",
                Command::EnableExtensions(vec![Extension::Multilobby, Extension::Chat]),
            ),
            (
                "CHAT aGVsbG8gd29ybGQ=",
                Command::Chat {
                    text: "aGVsbG8gd29ybGQ=".into(),
                },
            ),
            ("LOBBIES", Command::Lobbies),
        ];
        for (line, expected) in table {
            assert_eq!(command(line), Ok(expected), "{line}");
        }
        assert_eq!(parse("   "), Ok(None));
        assert_eq!(parse(""), Ok(None));
    }

    #[test]
    fn unknown_commands_are_error_1() {
        assert_eq!(
            parse("HELLO there").expect_err("unknown").to_string(),
            "Unknown command 'HELLO': expected one of JOIN, READY, MOVE_PLAY, MOVE_SWAP, MOVE_SKIP, EXIT, EXTENSIONS, ENABLE_EXTENSION, CHAT, LOBBIES"
        );
        assert_eq!(
            parse("join Ann").expect_err("lower case").to_string(),
            "Unknown command 'join': commands are upper case, did you mean JOIN?"
        );
        assert_eq!(
            parse("move RRY0 1").expect_err("lower case").to_string(),
            "Unknown command 'move': commands are upper case, did you mean MOVE_PLAY?"
        );
    }

    #[test]
    fn bad_arguments_name_what_was_expected() {
        let table = [
            (
                "MOVE_PLAY RRY0",
                2,
                "MOVE_PLAY takes 2 arguments (MOVE_PLAY <tile> <location>), got 1 argument",
            ),
            (
                "READY now",
                2,
                "READY takes no arguments (READY), got 1 argument",
            ),
            (
                "JOIN",
                2,
                "JOIN takes 1 to 2 arguments (JOIN <name> [lobby]), got 0 arguments",
            ),
            (
                "JOIN Bob Smith Jr",
                2,
                "JOIN takes 1 to 2 arguments (JOIN <name> [lobby]), got 3 arguments",
            ),
            (
                "ENABLE_EXTENSION",
                2,
                "ENABLE_EXTENSION takes at least 1 argument (ENABLE_EXTENSION <name>...), got 0 arguments",
            ),
            (
                "MOVE_PLAY XYZ9 3",
                2,
                "'XYZ9' is not a tile: expected three letters of R, G, B, Y, P, W and a rotation digit 0, 1 or 2, e.g. RRY0",
            ),
            (
                "MOVE_PLAY RGB3 3",
                2,
                "'RGB3' is not a tile: expected three letters of R, G, B, Y, P, W and a rotation digit 0, 1 or 2, e.g. RRY0",
            ),
            (
                "MOVE_PLAY rry0 3",
                2,
                "'rry0' is not a tile: expected three letters of R, G, B, Y, P, W and a rotation digit 0, 1 or 2, e.g. RRY0",
            ),
            (
                "MOVE_SWAP RRYY0",
                2,
                "'RRYY0' is not a tile: expected three letters of R, G, B, Y, P, W and a rotation digit 0, 1 or 2, e.g. RRY0",
            ),
            (
                "MOVE_PLAY RRY0 -1",
                2,
                "'-1' is not a location: expected a whole number from 0 to 35",
            ),
            (
                "MOVE_PLAY RRY0 36",
                2,
                "'36' is not a location: expected a whole number from 0 to 35",
            ),
            (
                "MOVE_PLAY RRY0 1e3",
                2,
                "'1e3' is not a location: expected a whole number from 0 to 35",
            ),
            (
                "MOVE_PLAY RRY0 99999999999999999999999",
                2,
                "'99999999999999999999999' is not a location: expected a whole number from 0 to 35",
            ),
            (
                "JOIN Bob!",
                3,
                "Invalid name: '!' may not be in a name; a name is 1 to 32 letters, digits, _ or -",
            ),
            (
                "CHAT hello!",
                2,
                "'hello!' is not base64: CHAT takes the message encoded in base64, e.g. CHAT aGVsbG8=",
            ),
            (
                "ENABLE_EXTENSION chat teleport",
                9,
                "Unsupported extension 'teleport': this server has chat and multilobby; none of this line was enabled",
            ),
        ];
        for (line, code, message) in table {
            assert_eq!(refusal(line), (code, message.to_string()), "{line}");
        }
        let long = format!("JOIN {}", "a".repeat(100));
        assert_eq!(
            refusal(&long),
            (
                3,
                "Invalid name: a name has at most 32 characters, got 100; a name is 1 to 32 letters, digits, _ or -".to_string()
            )
        );
        assert_eq!(
            LobbyName::parse("my room").expect_err("blank").to_string(),
            "Invalid lobby name: ' ' may not be in a name; a lobby name is 1 to 32 letters, digits, _, . or -"
        );
    }

    #[test]
    fn any_input_is_a_value_not_a_panic() {
        for line in [
            "\u{0}",
            "MOVE_PLAY \u{1F600}\u{1F600}\u{1F600}0 1",
            "JOIN é",
            "CHAT =",
        ] {
            let _ = parse(line);
        }
    }
}
